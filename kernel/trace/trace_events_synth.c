// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Synthetic events (Documentation/trace/histogram.rst, section 2.2.2):
 * events defined by a line written to synthetic_events,
 *
 *	echo 'wakeup_latency u64 lat; pid_t pid; char comm[16]' >> synthetic_events
 *
 * which appear as events/synthetic/wakeup_latency/ in every instance and
 * behave as any event (enable, filter, trigger, hist, format, id), and
 * which hist trigger actions generate (onmatch(...).wakeup_latency(...)).
 * The syntax, types, layout, format text, print format and errors are
 * the kernel's (linux 6.1's trace_events_synth.c); trace_synth.h draws
 * the record.
 *
 * Each event is a struct trace_event_call registered with the engine
 * (with the kernel's field offsets, trace_add_event_call_at()) and a
 * struct tracepoint of its own that no DEFINE_TRACE() made: enabling the
 * event in an instance attaches the probe below with that instance's
 * file, as for any event, and synth_event_trace() calls the attached
 * probes, as the kernel's trace_synth().
 */
#define __USTRACE_CORE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ring_buffer.h>
#include <linux/trace_events.h>
#include <linux/tracepoint.h>

#include "trace_array.h"
#include "trace.h"
#include "trace_synth.h"
#include "trace_trigger.h"

/* The error_log messages, the kernel's. */
#define SYNTH_ERRORS							\
	C(BAD_NAME,		"Illegal name"),			\
	C(INVALID_CMD,		"Command must be of the form: <name> field[;field] ..."), \
	C(INVALID_DYN_CMD,	"Command must be of the form: s or -:[synthetic/]<name> field[;field] ..."), \
	C(EVENT_EXISTS,		"Event already exists"),		\
	C(TOO_MANY_FIELDS,	"Too many fields"),			\
	C(INCOMPLETE_TYPE,	"Incomplete type"),			\
	C(INVALID_TYPE,		"Invalid type"),			\
	C(INVALID_FIELD,	"Invalid field"),			\
	C(INVALID_ARRAY_SPEC,	"Invalid array specification"),

#define C(a, b)		SYNTH_ERR_##a
enum { SYNTH_ERRORS };
#undef C
#define C(a, b)		b
static const char *const synth_err_text[] = { SYNTH_ERRORS };
#undef C

/* Nested generation stops here (the kernel's ring buffer nesting limit). */
#define SYNTH_NEST_MAX		4

/* The synthetic events, in creation order; under the event mutex. */
static struct synth_event *synth_events;

/* One command being run, and where its errors go. */
struct synth_cmd {
	const char		*last_cmd;	/* the line, leading blanks skipped */
	struct trace_err	*err;
};

/* The kernel's err_pos(): where @str first occurs in the command, or 0. */
static unsigned int errpos(const struct synth_cmd *sc, const char *str)
{
	const char *at = str && sc->last_cmd ? strstr(sc->last_cmd, str) : NULL;

	return at ? (unsigned int)(at - sc->last_cmd) : 0;
}

static void synth_err(const struct synth_cmd *sc, int type, unsigned int pos)
{
	if (!sc->err)
		return;
	sc->err->loc = "synthetic_events";
	snprintf(sc->err->msg, sizeof(sc->err->msg), "%s", synth_err_text[type]);
	sc->err->pos = pos;
}

/* ------------------------------------------------------------------
 * Types
 */

/* The kernel's is_good_name(): a C identifier. */
static bool is_good_name(const char *name)
{
	if (!isalpha((unsigned char)*name) && *name != '_')
		return false;
	while (*++name)
		if (!isalnum((unsigned char)*name) && *name != '_')
			return false;
	return true;
}

static bool type_is_string(const char *type)
{
	return strstr(type, "char[") != NULL;
}

static bool type_is_stack(const char *type)
{
	return strstr(type, "long[") != NULL;
}

/* "char[N]": N (at most 3 digits, at most 256), 0 for "char[]", or -EINVAL. */
static int string_size(const char *type)
{
	const char *start = strstr(type, "char["), *end;
	char digits[4];
	unsigned long size;
	size_t len;

	if (!start)
		return -EINVAL;
	start += 5;
	end = strchr(type, ']');
	if (!end || end < start || end[1])
		return -EINVAL;
	len = (size_t)(end - start);
	if (len > 3)
		return -EINVAL;
	if (!len)
		return 0;
	memcpy(digits, start, len);
	digits[len] = '\0';
	if (!isdigit((unsigned char)digits[0]))
		return -EINVAL;
	size = strtoul(digits, (char **)&end, 0);
	if (*end || size > STR_VAR_LEN_MAX)
		return -EINVAL;
	return (int)size;
}

/* The kernel's types and how they print; a string's size is its own. */
static const struct {
	const char	*type;
	int		size;
	const char	*fmt;
} synth_types[] = {
	{ "s64", 8, "%lld" },		{ "u64", 8, "%llu" },
	{ "s32", 4, "%d" },		{ "u32", 4, "%u" },
	{ "s16", 2, "%d" },		{ "u16", 2, "%u" },
	{ "s8", 1, "%d" },		{ "u8", 1, "%u" },
	{ "char", 1, "%d" },		{ "unsigned char", 1, "%u" },
	{ "int", 4, "%d" },		{ "unsigned int", 4, "%u" },
	{ "long", 8, "%ld" },		{ "unsigned long", 8, "%lu" },
	{ "bool", 1, "%d" },		{ "pid_t", 4, "%d" },
	{ "gfp_t", 4, "%x" },
};

#define NR_SYNTH_TYPES	(sizeof(synth_types) / sizeof(synth_types[0]))

/* The kernel's synth_field_size(): 0 for a dynamic array or an unknown type. */
static int field_size(const char *type)
{
	for (size_t i = 0; i < NR_SYNTH_TYPES; i++)
		if (!strcmp(type, synth_types[i].type))
			return synth_types[i].size;
	if (type_is_string(type))
		return string_size(type);
	return 0;
}

static const char *field_fmt(const char *type)
{
	for (size_t i = 0; i < NR_SYNTH_TYPES; i++)
		if (!strcmp(type, synth_types[i].type))
			return synth_types[i].fmt;
	return type_is_string(type) || type_is_stack(type) ? "%s" : "%llu";
}

/* Unsigned: the "u..." types and gfp_t; everything else is signed. */
static bool field_signed(const char *type)
{
	return type[0] != 'u' && strcmp(type, "gfp_t");
}

/* ------------------------------------------------------------------
 * Parsing a definition
 */

static void free_field(struct synth_field *f)
{
	if (!f)
		return;
	free(f->type);
	free(f->name);
	free(f);
}

/* "__data_loc TYPE": a dynamic string or stack. */
static int make_dynamic(struct synth_field *f)
{
	char *type = malloc(strlen(f->type) + 12);

	if (!type)
		return -ENOMEM;
	sprintf(type, "__data_loc %s", f->type);
	free(f->type);
	f->type = type;
	f->is_dynamic = true;
	f->size = sizeof(uint64_t);
	return 0;
}

/* TYPE NAME[ARRAY] from the words at @argv into @f; see parse_field(). */
static int field_type_and_name(const struct synth_cmd *sc, struct synth_field *f,
			       const char *prefix, const char *type, const char *name)
{
	const char *array = strchr(name, '[');
	size_t len = array ? (size_t)(array - name) : strlen(name);
	int size;

	f->name = strndup(name, len);
	if (!f->name)
		return -ENOMEM;
	if (!is_good_name(f->name)) {
		synth_err(sc, SYNTH_ERR_BAD_NAME, errpos(sc, name));
		return -EINVAL;
	}
	f->type = malloc(strlen(prefix) + strlen(type) + (array ? strlen(array) : 0) + 1);
	if (!f->type)
		return -ENOMEM;
	sprintf(f->type, "%s%s%s", prefix, type, array ? array : "");
	size = field_size(f->type);
	if (size < 0) {
		synth_err(sc, array ? SYNTH_ERR_INVALID_ARRAY_SPEC : SYNTH_ERR_INVALID_TYPE,
			  errpos(sc, array ? name : type));
		return -EINVAL;
	}
	if (!size) {
		if (!type_is_string(f->type) && !type_is_stack(f->type)) {
			synth_err(sc, SYNTH_ERR_INVALID_TYPE, errpos(sc, type));
			return -EINVAL;
		}
		return make_dynamic(f);
	}
	f->size = (size_t)size;
	return 0;
}

/*
 * The kernel's parse_synth_field(): "[unsigned] TYPE NAME" from @argv
 * (@argc words left); *@consumed grows by the words taken.
 */
static struct synth_field *parse_field(const struct synth_cmd *sc, int argc, char **argv,
				       int *consumed, int *errp)
{
	const char *prefix = "", *type = argv[0], *name;
	struct synth_field *f;
	int err;

	if (!strcmp(type, "unsigned")) {
		if (argc < 3) {
			synth_err(sc, SYNTH_ERR_INCOMPLETE_TYPE, errpos(sc, type));
			*errp = -EINVAL;
			return NULL;
		}
		prefix = "unsigned ";
		type = argv[1];
		name = argv[2];
		*consumed += 3;
	} else {
		name = argc > 1 ? argv[1] : NULL;
		*consumed += 2;
	}
	if (!name) {
		synth_err(sc, SYNTH_ERR_INVALID_FIELD, errpos(sc, type));
		*errp = -EINVAL;
		return NULL;
	}
	f = calloc(1, sizeof(*f));
	if (!f) {
		*errp = -ENOMEM;
		return NULL;
	}
	err = field_type_and_name(sc, f, prefix, type, name);
	if (err) {
		free_field(f);
		*errp = err;
		return NULL;
	}
	f->is_string = type_is_string(f->type);
	f->is_stack = !f->is_string && type_is_stack(f->type);
	f->is_signed = field_signed(f->type);
	return f;
}

/* The kernel's argv_split(): words separated by white space, in place. */
static int split_words(char *s, char **argv, int max)
{
	int argc = 0;

	for (;;) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			return argc;
		if (argc == max)
			return -E2BIG;
		argv[argc++] = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
		if (*s)
			*s++ = '\0';
	}
}

/* The words of one ';'-separated part: no more than there can be fields. */
#define SYNTH_WORDS_MAX		(3 * SYNTH_FIELDS_MAX + 1)

/*
 * The fields of @raw_fields ("TYPE NAME; TYPE NAME" or the old form
 * without semicolons) into @fields.  Return: how many, or -errno.
 */
static int parse_fields(const struct synth_cmd *sc, const char *raw_fields,
			struct synth_field **fields)
{
	char *copy = strdup(raw_fields), *rest = copy, *part;
	char *argv[SYNTH_WORDS_MAX];
	int n = 0, err = 0;

	if (!copy)
		return -ENOMEM;
	while (!err && (part = strsep(&rest, ";"))) {
		int argc = split_words(part, argv, SYNTH_WORDS_MAX), consumed = 0;

		if (argc < 0) {
			synth_err(sc, SYNTH_ERR_TOO_MANY_FIELDS, 0);
			err = -EINVAL;
		}
		while (!err && argc > consumed) {
			struct synth_field *f = parse_field(sc, argc - consumed, argv + consumed,
							    &consumed, &err);

			if (!f)
				break;
			if (n == SYNTH_FIELDS_MAX) {
				free_field(f);
				synth_err(sc, SYNTH_ERR_TOO_MANY_FIELDS, 0);
				err = -EINVAL;
				break;
			}
			fields[n++] = f;
		}
		if (!err && consumed < argc) {
			synth_err(sc, SYNTH_ERR_INVALID_CMD, 0);
			err = -EINVAL;
		}
	}
	free(copy);
	if (!err && !n) {
		synth_err(sc, SYNTH_ERR_INVALID_CMD, 0);
		err = -EINVAL;
	}
	if (err) {
		while (n)
			free_field(fields[--n]);
		return err;
	}
	return n;
}

/* ------------------------------------------------------------------
 * Events
 */

struct synth_event *find_synth_event(const char *name)
{
	struct synth_event *se;

	for (se = synth_events; se && strcmp(se->name, name); se = se->next)
		;
	return se;
}

struct synth_event *find_synth_event_call(const struct trace_event_call *call)
{
	struct synth_event *se;

	for (se = synth_events; se && &se->call != call; se = se->next)
		;
	return se;
}

static void free_synth_event(struct synth_event *se)
{
	if (!se)
		return;
	for (unsigned int i = 0; i < se->n_fields; i++)
		free_field(se->fields[i]);
	free(se->fields);
	free(se->dynamic_fields);
	free(se->fields_array);
	free(se->offsets);
	free(se->print_fmt);
	free(se->name);
	free(se);
}

/*
 * The kernel's print fmt: "lat=%llu, pid=%d", REC->lat, REC->pid, with
 * __get_str() for dynamic strings and __get_stacktrace() for stacks.
 */
static char *make_print_fmt(const struct synth_event *se)
{
	size_t size = 16;
	char *fmt, *p;

	for (unsigned int i = 0; i < se->n_fields; i++)
		size += 2 * strlen(se->fields[i]->name) + 40;
	fmt = p = malloc(size);
	if (!fmt)
		return NULL;
	p += sprintf(p, "\"");
	for (unsigned int i = 0; i < se->n_fields; i++)
		p += sprintf(p, "%s=%s%s", se->fields[i]->name, field_fmt(se->fields[i]->type),
			     i == se->n_fields - 1 ? "" : ", ");
	p += sprintf(p, "\"");
	for (unsigned int i = 0; i < se->n_fields; i++) {
		const struct synth_field *f = se->fields[i];

		if (f->is_string && f->is_dynamic)
			p += sprintf(p, ", __get_str(%s)", f->name);
		else if (f->is_stack)
			p += sprintf(p, ", __get_stacktrace(%s)", f->name);
		else
			p += sprintf(p, ", REC->%s", f->name);
	}
	return fmt;
}

/*
 * The kernel's synth_event_define_fields(): each field in the next slot,
 * a static string in STR_VAR_LEN_MAX bytes of them.
 */
static int layout(struct synth_event *se)
{
	unsigned int n_u64 = 0;

	se->fields_array = calloc(se->n_fields + 1, sizeof(*se->fields_array));
	se->offsets = calloc(se->n_fields, sizeof(*se->offsets));
	if (!se->fields_array || !se->offsets)
		return -ENOMEM;
	for (unsigned int i = 0; i < se->n_fields; i++) {
		struct synth_field *f = se->fields[i];

		se->fields_array[i] = (struct trace_event_fields){
			.type = f->type, .name = f->name, .size = (int)f->size, .align = 8,
			.is_signed = f->is_signed, .is_dynamic = f->is_dynamic,
		};
		se->offsets[i] = (unsigned int)sizeof(struct trace_entry) + 8 * n_u64;
		f->offset = n_u64;
		n_u64 += f->is_string && !f->is_dynamic ? STR_VAR_LEN_MAX / 8 : 1;
	}
	se->n_u64 = n_u64;
	return 0;
}

static void synth_probe(void *data, const uint64_t *vals, const unsigned int *idx);
static void synth_output(struct trace_seq *s, struct trace_seq *p, const void *entry);

static struct synth_event *alloc_synth_event(const char *name, struct synth_field **fields,
					     unsigned int n_fields, int *errp)
{
	struct synth_event *se = calloc(1, sizeof(*se));
	unsigned int n_dyn = 0;

	*errp = -ENOMEM;
	if (!se)
		return NULL;
	se->name = strdup(name);
	se->fields = calloc(n_fields, sizeof(*se->fields));
	se->dynamic_fields = calloc(n_fields, sizeof(*se->dynamic_fields));
	if (!se->name || !se->fields || !se->dynamic_fields) {
		free_synth_event(se);
		return NULL;
	}
	for (unsigned int i = 0; i < n_fields; i++) {
		fields[i]->field_pos = i;
		se->fields[i] = fields[i];
		if (fields[i]->is_dynamic)
			se->dynamic_fields[n_dyn++] = fields[i];
	}
	se->n_fields = n_fields;
	se->n_dynamic_fields = n_dyn;
	if (layout(se) || !(se->print_fmt = make_print_fmt(se))) {
		se->n_fields = 0;	/* the caller frees the fields */
		free_synth_event(se);
		return NULL;
	}
	se->tp.name = se->name;
	se->class = (struct trace_event_class){
		.system = SYNTH_SYSTEM, .probe = (void *)synth_probe,
		.fields_array = se->fields_array,
	};
	se->call = (struct trace_event_call){
		.event_class = &se->class, .name = se->name, .tp = &se->tp,
		.print_fmt = se->print_fmt, .output = synth_output,
	};
	*errp = 0;
	return se;
}

/* The kernel's __create_synth_event(). */
static int create_synth_event(const struct synth_cmd *sc, const char *name,
			      const char *raw_fields)
{
	struct synth_field *fields[SYNTH_FIELDS_MAX];
	struct synth_event *se, **pp;
	int n, err;

	if (!*name) {
		synth_err(sc, SYNTH_ERR_INVALID_CMD, 0);
		return -EINVAL;
	}
	if (!is_good_name(name)) {
		synth_err(sc, SYNTH_ERR_BAD_NAME, errpos(sc, name));
		return -EINVAL;
	}
	if (find_synth_event(name)) {
		synth_err(sc, SYNTH_ERR_EVENT_EXISTS, errpos(sc, name));
		return -EEXIST;
	}
	n = parse_fields(sc, raw_fields, fields);
	if (n < 0)
		return n;
	se = alloc_synth_event(name, fields, (unsigned int)n, &err);
	if (!se) {
		while (n)
			free_field(fields[--n]);
		return err;
	}
	err = trace_add_event_call_at(&se->call, se->offsets);
	if (err) {
		free_synth_event(se);
		return err;
	}
	for (pp = &synth_events; *pp; pp = &(*pp)->next)
		;
	*pp = se;
	return 0;
}

struct busy_ctx {
	struct trace_event_call	*call;
	bool			busy;
	bool			had_file;
};

static void check_instance(struct trace_array *tr, void *priv)
{
	struct busy_ctx *ctx = priv;
	struct trace_event_file *file = trace_array_file_locked(tr, ctx->call, false);

	if (!file)
		return;
	ctx->had_file = true;
	if (__atomic_load_n(&file->flags, __ATOMIC_RELAXED) & EVENT_FILE_FL_ENABLED)
		ctx->busy = true;
}

static void clear_instance(struct trace_array *tr, void *priv)
{
	struct busy_ctx *ctx = priv;

	if (trace_array_file_locked(tr, ctx->call, false))
		trace_array_clear(tr, RING_BUFFER_ALL_CPUS);
}

/*
 * The kernel's probe_remove_event_call(): in use while enabled in an
 * instance (a trigger holding it counts).  The buffers that may hold its
 * records are cleared, as the kernel clears them on their next open:
 * an event of the same name defined later gets the same id.
 */
static int destroy_synth_event(struct synth_event *se)
{
	struct busy_ctx ctx = { .call = &se->call };
	struct synth_event **pp;

	if (se->ref)
		return -EBUSY;
	check_instance(NULL, &ctx);
	trace_array_for_each_instance(check_instance, &ctx);
	if (ctx.busy)
		return -EBUSY;
	if (ctx.had_file) {
		clear_instance(NULL, &ctx);
		trace_array_for_each_instance(clear_instance, &ctx);
	}
	trace_remove_event_call(&se->call);
	for (pp = &synth_events; *pp != se; pp = &(*pp)->next)
		;
	*pp = se->next;
	free_synth_event(se);
	return 0;
}

static int delete_synth_event(const char *name)
{
	struct synth_event *se = find_synth_event(name);

	return se ? destroy_synth_event(se) : -ENOENT;
}

/* ------------------------------------------------------------------
 * The commands
 */

/*
 * The kernel's check_command(): a definition's first part has a name, a
 * type and a field name at least.
 */
static int check_command(const char *cmd)
{
	char *copy = strdup(cmd), *rest = copy, *first, *argv[3];
	int argc, err = 0;

	if (!copy)
		return -ENOMEM;
	first = strsep(&rest, ";");
	if (first[0] != '!') {
		argc = split_words(first, argv, 3);
		if (argc >= 0 && argc < 3)
			err = -EINVAL;
	}
	free(copy);
	return err;
}

/* The kernel's create_or_delete_synth_event(): a line of synthetic_events. */
static int synth_events_line(struct synth_cmd *sc, const char *cmd)
{
	const char *p;
	char *name;
	int err;

	err = check_command(cmd);
	if (err) {
		if (err == -EINVAL)
			synth_err(sc, SYNTH_ERR_INVALID_CMD, 0);
		return err;
	}
	p = strpbrk(cmd, " \t");
	if (!p && cmd[0] != '!') {
		synth_err(sc, SYNTH_ERR_INVALID_CMD, 0);
		return -EINVAL;
	}
	name = strndup(cmd, p ? (size_t)(p - cmd) : strlen(cmd));
	if (!name)
		return -ENOMEM;
	if (name[0] == '!')
		err = delete_synth_event(name + 1);
	else
		err = create_synth_event(sc, name, skip_spaces(p));
	free(name);
	return err;
}

/* The kernel's create_synth_event() (its dyn_event create). */
static int dynamic_events_create(struct synth_cmd *sc, const char *cmd)
{
	const char *name = cmd + 2, *p;
	char *ename;
	int err;

	if (cmd[0] != 's' || cmd[1] != ':')
		return -EINVAL;	/* no other kind of dynamic event here */
	p = strpbrk(cmd, " \t");
	if (!p) {
		synth_err(sc, SYNTH_ERR_INVALID_CMD, 0);
		return -EINVAL;
	}
	if (strchr(name, '/')) {
		if (strncmp(name, SYNTH_SYSTEM "/", sizeof(SYNTH_SYSTEM))) {
			synth_err(sc, SYNTH_ERR_INVALID_DYN_CMD, 0);
			return -EINVAL;
		}
		name += sizeof(SYNTH_SYSTEM);
	}
	err = check_command(name);
	if (err) {
		if (err == -EINVAL)
			synth_err(sc, SYNTH_ERR_INVALID_CMD, 0);
		return err;
	}
	if (p < name)
		return -EINVAL;
	ename = strndup(name, (size_t)(p - name));
	if (!ename)
		return -ENOMEM;
	err = create_synth_event(sc, ename, skip_spaces(p));
	free(ename);
	return err;
}

/*
 * The kernel's dyn_event_release(): "-:[SYSTEM/]NAME" or "!X:[SYSTEM/]NAME",
 * the rest ignored.  Return: 0, -ENOENT (no such event), -EINVAL, -EBUSY.
 */
static int dynamic_events_release(const char *cmd)
{
	char *copy = strdup(cmd), *argv[1], *event, *system = NULL, *slash;
	struct synth_event *se, *next;
	int err = -ENOENT;

	if (!copy)
		return -ENOMEM;
	if (split_words(copy, argv, 1) == 0)
		goto bad;
	if (argv[0][0] == '-') {
		if (argv[0][1] != ':')
			goto bad;
		event = argv[0] + 2;
	} else {
		event = strchr(argv[0], ':');
		if (!event)
			goto bad;
		event++;
	}
	slash = strchr(event, '/');
	if (slash) {
		system = event;
		*slash = '\0';
		event = slash + 1;
	}
	if (!system && !*event)
		goto bad;
	for (se = synth_events; se; se = next) {
		next = se->next;
		if (strcmp(se->name, event) || (system && strcmp(system, SYNTH_SYSTEM)))
			continue;
		err = destroy_synth_event(se);
		if (err)
			break;
	}
	free(copy);
	return err;
bad:
	free(copy);
	return -EINVAL;
}

/**
 * trace_synth_command - one line written to synthetic_events or dynamic_events
 *
 * See trace_synth.h.
 */
int trace_synth_command(const char *line, bool dyn, struct trace_err *err)
{
	struct synth_cmd sc = { .err = err };
	const char *cmd = skip_spaces(line);
	int ret;

	if (err) {
		err->loc = NULL;
		err->msg[0] = '\0';
		err->pos = 0;
	}
	if (!*cmd)
		return 0;
	trace_event_lock();
	if (dyn && (cmd[0] == '-' || cmd[0] == '!')) {
		ret = dynamic_events_release(cmd);
	} else {
		sc.last_cmd = cmd;
		ret = dyn ? dynamic_events_create(&sc, cmd) : synth_events_line(&sc, cmd);
	}
	trace_event_unlock();
	return ret;
}

/**
 * trace_synth_text - the text of synthetic_events or dynamic_events
 *
 * See trace_synth.h.
 */
char *trace_synth_text(bool dyn, size_t *lenp)
{
	size_t size = 1, len = 0;
	struct synth_event *se;
	char *text, *p;

	trace_event_lock();
	for (se = synth_events; se; se = se->next) {
		size += strlen(se->name) + 16;
		for (unsigned int i = 0; i < se->n_fields; i++)
			size += strlen(se->fields[i]->type) + strlen(se->fields[i]->name) + 3;
	}
	text = p = malloc(size);
	for (se = synth_events; text && se; se = se->next) {
		p += sprintf(p, "%s%s\t", dyn ? "s:" SYNTH_SYSTEM "/" : "", se->name);
		for (unsigned int i = 0; i < se->n_fields; i++) {
			const char *type = se->fields[i]->type;

			/* __data_loc belongs in the format, not the definition. */
			if (!strncmp(type, "__data_loc ", 11))
				type += 11;
			p += sprintf(p, "%s %s%s", type, se->fields[i]->name,
				     i == se->n_fields - 1 ? "" : "; ");
		}
		*p++ = '\n';
	}
	trace_event_unlock();
	if (!text)
		return NULL;
	*p = '\0';
	len = (size_t)(p - text);
	if (lenp)
		*lenp = len;
	return text;
}

/**
 * trace_synth_release_all - O_TRUNC of synthetic_events or dynamic_events
 *
 * See trace_synth.h.
 */
int trace_synth_release_all(void)
{
	struct synth_event *se;
	int err = 0;

	trace_event_lock();
	for (se = synth_events; se && !err; se = se->next) {
		struct busy_ctx ctx = { .call = &se->call };

		check_instance(NULL, &ctx);
		trace_array_for_each_instance(check_instance, &ctx);
		if (se->ref || ctx.busy)
			err = -EBUSY;
	}
	while (!err && synth_events)
		err = destroy_synth_event(synth_events);
	trace_event_unlock();
	return err;
}

/* ------------------------------------------------------------------
 * Generating the event
 */

/* Nesting depth of synth_probe() in this thread. */
static __thread unsigned int synth_nest __attribute__((__tls_model__("initial-exec")));

/* The bytes a string value needs: its characters and the NUL. */
static unsigned int str_bytes(uint64_t val)
{
	const char *s = (const char *)(uintptr_t)val;

	return s ? (unsigned int)strnlen(s, STR_VAR_LEN_MAX - 1) + 1 : 1;
}

/*
 * The dynamic data of @f goes at @data_off: its __data_loc word and its
 * @len bytes (measured before the reserve: a string another thread
 * rewrites meanwhile is cut, never overruns).
 */
static void put_dynamic(unsigned char *rec, const struct synth_field *f, uint64_t val,
			unsigned int data_off, unsigned int len)
{
	const void *src = (const void *)(uintptr_t)val;
	uint64_t loc = (uint64_t)len << 16 | data_off;

	memset(rec + data_off, 0, len);
	if (src && f->is_stack)
		memcpy(rec + data_off, src, len - (len == SYNTH_STACK_DEPTH * sizeof(long) ?
						 0 : sizeof(long)));
	else if (src)
		memcpy(rec + data_off, src, strnlen(src, len - 1));
	memcpy(rec + sizeof(struct trace_entry) + 8 * f->offset, &loc, sizeof(loc));
}

/* A stack's bytes: its frames and the zero after them, if it fits. */
static unsigned int stack_bytes(uint64_t val)
{
	const unsigned long *st = (const unsigned long *)(uintptr_t)val;
	unsigned int n = 0;

	while (st && n < SYNTH_STACK_DEPTH && st[n])
		n++;
	return (n + (n < SYNTH_STACK_DEPTH)) * (unsigned int)sizeof(long);
}

/* Record @se's event in the instance of @data (its file), as the kernel's probe. */
static void synth_probe(void *data, const uint64_t *vals, const unsigned int *idx)
{
	struct trace_event_file *file = data;
	struct synth_event *se = (struct synth_event *)((char *)file->event_call -
							 offsetof(struct synth_event, call));
	unsigned int fields_size = se->n_u64 * 8, data_off, i, d = 0;
	unsigned int lens[SYNTH_FIELDS_MAX];
	struct trace_event_buffer fbuffer;
	unsigned char *rec;

	for (i = 0; i < se->n_dynamic_fields; i++) {
		const struct synth_field *f = se->dynamic_fields[i];
		uint64_t val = vals[idx[f->field_pos]];

		lens[i] = f->is_stack ? stack_bytes(val) : str_bytes(val);
		fields_size += lens[i];
	}
	rec = trace_event_buffer_reserve(&fbuffer, file,
					 sizeof(struct trace_entry) + fields_size);
	if (!rec)
		return;
	data_off = (unsigned int)sizeof(struct trace_entry) + se->n_u64 * 8;
	for (i = 0; i < se->n_fields; i++) {
		const struct synth_field *f = se->fields[i];
		unsigned char *slot = rec + sizeof(struct trace_entry) + 8 * f->offset;
		uint64_t val = vals[idx[i]];

		if (f->is_dynamic) {
			put_dynamic(rec, f, val, data_off, lens[d]);
			data_off += lens[d++];
		} else if (f->is_string) {
			const char *s = (const char *)(uintptr_t)val;

			memset(slot, 0, STR_VAR_LEN_MAX);
			if (s)
				memcpy(slot, s, strnlen(s, STR_VAR_LEN_MAX - 1));
		} else {
			if (f->size < 8)
				val &= (1ull << (8 * f->size)) - 1;
			memcpy(slot, &val, sizeof(val));
		}
	}
	trace_event_buffer_commit(&fbuffer);
}

/**
 * synth_event_trace - generate a synthetic event (the kernel's trace_synth())
 *
 * See trace_synth.h.
 */
void synth_event_trace(struct synth_event *se, const uint64_t *vals, const unsigned int *idx)
{
	struct tracepoint_func *it = __atomic_load_n(&se->tp.funcs, __ATOMIC_CONSUME);

	if (!it || synth_nest >= SYNTH_NEST_MAX)
		return;
	synth_nest++;
	do {
		((void (*)(void *, const uint64_t *, const unsigned int *))it->func)(it->data,
										 vals, idx);
	} while ((++it)->func);
	synth_nest--;
}

/* ------------------------------------------------------------------
 * Printing a record
 */

/*
 * As the kernel's print_synth_event_num_val(): the value cut to the
 * field's size, printed with the type's format (so a negative s8 or s16
 * prints as its unsigned byte or word, as the kernel's does).
 */
static void print_num(struct trace_seq *s, const struct synth_field *f, uint64_t v)
{
	char fmt[16];

	snprintf(fmt, sizeof(fmt), "%%s=%s", field_fmt(f->type));
	switch (f->size) {
	case 1:
		trace_seq_printf(s, fmt, f->name, (unsigned int)(uint8_t)v);
		break;
	case 2:
		trace_seq_printf(s, fmt, f->name, (unsigned int)(uint16_t)v);
		break;
	case 4:
		trace_seq_printf(s, fmt, f->name, (unsigned int)v);
		break;
	default:
		trace_seq_printf(s, fmt, f->name, (unsigned long long)v);
		break;
	}
	if (!strcmp(f->type, "gfp_t")) {
		static const struct trace_print_flags none[] = { { 0, NULL } };
		struct trace_seq *p = malloc(sizeof(*p));

		if (!p)
			return;
		trace_seq_init(p);
		trace_seq_printf(s, " (%s)", trace_print_flags_seq(p, "|", (uint32_t)v, none));
		free(p);
	}
}

/* A __data_loc field's bytes, checked by the engine to lie in the record. */
static const unsigned char *dyn_data(const unsigned char *rec, const struct synth_field *f,
				     unsigned int *lenp)
{
	uint32_t loc;

	memcpy(&loc, rec + sizeof(struct trace_entry) + 8 * f->offset, sizeof(loc));
	*lenp = loc >> 16;
	return rec + (loc & 0xffff);
}

static void print_stack(struct trace_seq *s, const unsigned char *rec,
			const struct synth_field *f)
{
	unsigned int len, n;
	const unsigned char *p = dyn_data(rec, f, &len);
	char sym[256];

	trace_seq_printf(s, "%s=STACK:\n", f->name);
	for (n = 0; (n + 1) * sizeof(long) <= len; n++) {
		unsigned long ip;

		memcpy(&ip, p + n * sizeof(long), sizeof(ip));
		if (!ip)
			break;
		if (trace_stack_sym(sym, sizeof(sym), ip, true))
			snprintf(sym, sizeof(sym), "0x%lx", ip);
		trace_seq_printf(s, "=> %s\n", sym);
	}
}

/*
 * The kernel's print_synth_event(): "lat=5 pid=1234 comm=ping" (after the
 * engine's "name: "), fields separated by a space.
 */
static void synth_output(struct trace_seq *s, struct trace_seq *p, const void *entry)
{
	const unsigned char *rec = entry;
	const struct trace_entry *ent = entry;
	struct synth_event *se;

	(void)p;
	for (se = synth_events; se && se->call.id != ent->type; se = se->next)
		;
	for (unsigned int i = 0; se && i < se->n_fields; i++) {
		const struct synth_field *f = se->fields[i];
		const unsigned char *slot = rec + sizeof(struct trace_entry) + 8 * f->offset;
		const char *space = i == se->n_fields - 1 ? "" : " ";
		unsigned int len;
		uint64_t v;

		if (f->is_stack) {
			print_stack(s, rec, f);
		} else if (f->is_dynamic) {
			const unsigned char *str = dyn_data(rec, f, &len);

			trace_seq_printf(s, "%s=%.*s%s", f->name, (int)strnlen((const char *)str, len),
					 (const char *)str, space);
		} else if (f->is_string) {
			trace_seq_printf(s, "%s=%.*s%s", f->name,
					 (int)strnlen((const char *)slot, STR_VAR_LEN_MAX),
					 (const char *)slot, space);
		} else {
			memcpy(&v, slot, sizeof(v));
			print_num(s, f, v);
			trace_seq_puts(s, space);
		}
	}
}
