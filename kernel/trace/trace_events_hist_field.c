// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Hist fields: one key, value or variable of a hist trigger, parsed from
 * its text into a tree (the kernel's parse_expr(), parse_atom() and
 * create_hist_field()), and what the probe computes from it.
 *
 *	wakeup_lat=common_timestamp.usecs-$ts0
 *
 *	        VAR wakeup_lat, EXPR "common_timestamp.usecs-$ts0", MINUS
 *	          ├── TIMESTAMP | TIMESTAMP_USECS
 *	          └── VAR_REF ts0  ──▶  the variable ts0 of another trigger
 *
 * The grammar is the kernel's: the operator at the root is the last '-'
 * or '+' of the text, else its last '/' or '*' (so that a-b-c is
 * (a-b)-c); a leading '-' must be "-(...)"; at most 3 subexpressions.
 * Operands are fields (with a modifier), numeric constants (folded when
 * both sides are constant), or variable references: "$var",
 * "sys.event.$var".  Division by a constant is done as the kernel does
 * it (a shift, or a multiply and shift for small dividends); by a
 * variable that is 0, it gives -1.
 *
 * Everything here but hist_fn_call() and the string helpers runs under
 * the event mutex.
 */
#define __USTRACE_CORE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ring_buffer.h>
#include <linux/trace_clock.h>
#include <linux/trace_events.h>

#include "trace_array.h"
#include "trace_events_hist.h"
#include "trace.h"

/* ------------------------------------------------------------------
 * Event fields
 */

void hist_ev_field_free(struct hist_ev_field *f)
{
	if (!f)
		return;
	free(f->name);
	free(f->type);
	free(f);
}

static struct hist_ev_field *ev_field_dup(const struct hist_ev_field *f)
{
	struct hist_ev_field *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	*d = *f;
	d->name = strdup(f->name);
	d->type = strdup(f->type);
	if (!d->name || !d->type) {
		hist_ev_field_free(d);
		return NULL;
	}
	return d;
}

static enum hist_ev_kind ev_kind(const char *type, unsigned int size)
{
	/* char[N] and __data_loc char[]: strings ("char *" is a number). */
	if (strchr(type, '[') && strstr(type, "char"))
		return strstr(type, "__data_loc") ? HIST_EV_DYN_STR : HIST_EV_STATIC_STR;
	if (size == 1 || size == 2 || size == 4 || size == 8)
		return HIST_EV_NUM;
	return HIST_EV_OTHER;
}

/*
 * The kernel's trace_find_event_field(): the event's fields, then the
 * generic ones (CPU, cpu, common_cpu, COMM, comm: no size), then the
 * common ones.  @out's strings point into the tables: ev_field_dup() it.
 */
bool find_ev_field(struct trace_event_call *call, const char *name, struct hist_ev_field *out)
{
	static const struct { const char *type, *name; bool cpu; } generic[] = {
		{ "int", "CPU", true },
		{ "int", "cpu", true },
		{ "int", "common_cpu", true },
		{ "char *", "COMM", false },
		{ "char *", "comm", false },
	};
	static const struct { const char *type, *name; unsigned int off, size; bool sgn; }
	common[] = {
		{ "unsigned short", "common_type", 0, 2, false },
		{ "unsigned char", "common_flags", 2, 1, false },
		{ "unsigned char", "common_preempt_count", 3, 1, false },
		{ "int", "common_pid", 4, 4, true },
	};
	const struct trace_event_fields *f = call->event_class->fields_array;
	const struct trace_event_priv *priv = call->priv;
	unsigned int i;

	for (i = 0; priv && i < priv->nr_fields; i++) {
		if (strcmp(f[i].name, name))
			continue;
		*out = (struct hist_ev_field){
			.name = (char *)f[i].name, .type = (char *)f[i].type,
			.offset = priv->offsets[i], .size = (unsigned int)f[i].size,
			.is_signed = f[i].is_signed,
			.kind = ev_kind(f[i].type, (unsigned int)f[i].size),
		};
		return true;
	}
	for (i = 0; i < sizeof(generic) / sizeof(generic[0]); i++) {
		if (strcmp(generic[i].name, name))
			continue;
		*out = (struct hist_ev_field){
			.name = (char *)generic[i].name, .type = (char *)generic[i].type,
			.is_signed = generic[i].cpu,
			.kind = generic[i].cpu ? HIST_EV_CPU : HIST_EV_OTHER,
		};
		return true;
	}
	for (i = 0; i < sizeof(common) / sizeof(common[0]); i++) {
		if (strcmp(common[i].name, name))
			continue;
		*out = (struct hist_ev_field){
			.name = (char *)common[i].name, .type = (char *)common[i].type,
			.offset = common[i].off, .size = common[i].size,
			.is_signed = common[i].sgn, .kind = HIST_EV_NUM,
		};
		return true;
	}
	return false;
}

/* ------------------------------------------------------------------
 * Creating and destroying
 */

static enum hist_field_fn select_value_fn(unsigned int size, bool is_signed)
{
	switch (size) {
	case 8:
		return is_signed ? HIST_FIELD_FN_S64 : HIST_FIELD_FN_U64;
	case 4:
		return is_signed ? HIST_FIELD_FN_S32 : HIST_FIELD_FN_U32;
	case 2:
		return is_signed ? HIST_FIELD_FN_S16 : HIST_FIELD_FN_U16;
	case 1:
		return is_signed ? HIST_FIELD_FN_S8 : HIST_FIELD_FN_U8;
	}
	return HIST_FIELD_FN_NOP;
}

static void free_hist_field(struct hist_field *f)
{
	hist_ev_field_free(f->field);
	free(f->var_name);
	free(f->name);
	free(f->full_name);
	free(f->type);
	free(f->system);
	free(f->event_name);
	free(f);
}

/* Var refs belong to their trigger's var_refs[]: freed with it, not here. */
void destroy_hist_field(struct hist_field *f, unsigned int level)
{
	if (level > 3 || !f || (f->flags & HIST_FIELD_FL_VAR_REF))
		return;
	for (unsigned int i = 0; i < HIST_FIELD_OPERANDS_MAX; i++)
		destroy_hist_field(f->operands[i], level + 1);
	free_hist_field(f);
}

static bool set_type(struct hist_field *f, const char *type)
{
	f->type = strdup(type);
	return f->type != NULL;
}

/* The value of an event field: a number or a string. */
static bool init_event_field(struct hist_field *f, const struct hist_ev_field *field,
			     unsigned long *flags)
{
	if (field->kind == HIST_EV_STATIC_STR || field->kind == HIST_EV_DYN_STR) {
		*flags |= HIST_FIELD_FL_STRING;
		f->size = field->kind == HIST_EV_STATIC_STR ? field->size : STR_VAR_LEN_MAX;
		f->fn_num = field->kind == HIST_EV_STATIC_STR ? HIST_FIELD_FN_STRING :
							       HIST_FIELD_FN_DYNSTRING;
		return set_type(f, field->type);
	}
	f->size = field->size;
	f->is_signed = field->is_signed;
	f->fn_num = select_value_fn(field->size, field->is_signed);
	return f->fn_num != HIST_FIELD_FN_NOP && set_type(f, field->type);
}

/*
 * The kernel's create_hist_field(): a field of the kind @flags says, for
 * the event field @field (copied) if any.  Return: NULL without memory or
 * for a field that has no value (an array).
 */
struct hist_field *create_hist_field(struct hist_data *hd, const struct hist_ev_field *field,
				     unsigned long flags, const char *var_name)
{
	struct hist_field *f = calloc(1, sizeof(*f));
	bool ok = true;

	if (!f)
		return NULL;
	f->hist_data = hd;
	if (flags & (HIST_FIELD_FL_EXPR | HIST_FIELD_FL_ALIAS)) {
		/* the caller fills it in */
	} else if (flags & HIST_FIELD_FL_VAR_REF) {
		f->fn_num = HIST_FIELD_FN_VAR_REF;
	} else if (flags & (HIST_FIELD_FL_HITCOUNT | HIST_FIELD_FL_CONST)) {
		f->fn_num = flags & HIST_FIELD_FL_HITCOUNT ? HIST_FIELD_FN_COUNTER :
							     HIST_FIELD_FN_CONST;
		f->size = sizeof(uint64_t);
		ok = set_type(f, "u64");
	} else if (flags & HIST_FIELD_FL_STACKTRACE) {
		f->fn_num = HIST_FIELD_FN_NOP;
	} else if (flags & (HIST_FIELD_FL_LOG2 | HIST_FIELD_FL_BUCKET)) {
		unsigned long fl = flags & ~(HIST_FIELD_FL_LOG2 | HIST_FIELD_FL_BUCKET);

		f->fn_num = flags & HIST_FIELD_FL_LOG2 ? HIST_FIELD_FN_LOG2 : HIST_FIELD_FN_BUCKET;
		f->operands[0] = create_hist_field(hd, field, fl, NULL);
		ok = f->operands[0] && set_type(f, f->operands[0]->type);
		if (ok)
			f->size = f->operands[0]->size;
	} else if (flags & HIST_FIELD_FL_TIMESTAMP) {
		f->fn_num = HIST_FIELD_FN_TIMESTAMP;
		f->size = sizeof(uint64_t);
		ok = set_type(f, "u64");
	} else if (flags & HIST_FIELD_FL_CPU) {
		f->fn_num = HIST_FIELD_FN_CPU;
		f->size = sizeof(int);
		ok = set_type(f, "unsigned int");
	} else if (field) {
		ok = init_event_field(f, field, &flags);
	}
	f->flags = flags;
	if (ok && field && !(flags & (HIST_FIELD_FL_EXPR | HIST_FIELD_FL_ALIAS |
				      HIST_FIELD_FL_VAR_REF))) {
		f->field = ev_field_dup(field);
		ok = f->field != NULL;
	}
	if (ok && var_name) {
		f->var_name = strdup(var_name);
		ok = f->var_name != NULL;
	}
	if (!ok) {
		destroy_hist_field(f, 0);
		return NULL;
	}
	return f;
}

/* ------------------------------------------------------------------
 * Names
 */

/* The kernel's hist_field_name(). */
const char *hist_field_name(const struct hist_field *f, unsigned int level)
{
	const char *name = NULL;

	if (!f || level > 1)
		return "";
	if (f->field)
		name = f->field->name;
	else if (f->flags & (HIST_FIELD_FL_LOG2 | HIST_FIELD_FL_ALIAS | HIST_FIELD_FL_BUCKET))
		name = hist_field_name(f->operands[0], level + 1);
	else if (f->flags & HIST_FIELD_FL_CPU)
		name = "common_cpu";
	else if (f->flags & (HIST_FIELD_FL_EXPR | HIST_FIELD_FL_VAR_REF))
		name = f->full_name ? f->full_name : f->name;
	else if (f->flags & HIST_FIELD_FL_TIMESTAMP)
		name = "common_timestamp";
	return name ? name : "";
}

/* The modifier a field shows, in the kernel's order of precedence. */
const char *get_hist_field_flags(const struct hist_field *f)
{
	static const struct { unsigned long flag; const char *name; } mods[] = {
		{ HIST_FIELD_FL_HEX, "hex" },
		{ HIST_FIELD_FL_SYM, "sym" },
		{ HIST_FIELD_FL_SYM_OFFSET, "sym-offset" },
		{ HIST_FIELD_FL_EXECNAME, "execname" },
		{ HIST_FIELD_FL_SYSCALL, "syscall" },
		{ HIST_FIELD_FL_LOG2, "log2" },
		{ HIST_FIELD_FL_BUCKET, "buckets" },
		{ HIST_FIELD_FL_TIMESTAMP_USECS, "usecs" },
		{ HIST_FIELD_FL_PERCENT, "percent" },
		{ HIST_FIELD_FL_GRAPH, "graph" },
	};

	for (size_t i = 0; i < sizeof(mods) / sizeof(mods[0]); i++)
		if (f->flags & mods[i].flag)
			return mods[i].name;
	return NULL;
}

/* The kernel's expr_field_str(): one operand as an expression shows it. */
static void expr_field_str(const struct hist_field *f, char *expr, size_t size)
{
	const char *flags = f->flags && !(f->flags & HIST_FIELD_FL_VAR_REF) ?
			    get_hist_field_flags(f) : NULL;
	size_t len = strlen(expr);

	if (f->flags & HIST_FIELD_FL_VAR_REF)
		len += (size_t)snprintf(expr + len, size - len, "$");
	else if (f->flags & HIST_FIELD_FL_CONST)
		len += (size_t)snprintf(expr + len, size - len, "%llu",
					(unsigned long long)f->constant);
	if (len < size)
		snprintf(expr + len, size - len, "%s%s%s", hist_field_name(f, 0),
			 flags ? "." : "", flags ? flags : "");
}

/* The kernel's expr_str(): an expression's text, as it is shown. */
static char *expr_str(const struct hist_field *f, unsigned int level)
{
	static const char ops[] = { [FIELD_OP_MINUS] = '-', [FIELD_OP_PLUS] = '+',
				    [FIELD_OP_DIV] = '/', [FIELD_OP_MULT] = '*' };
	char *expr, *sub;
	size_t len;

	if (level > 1)
		return NULL;
	expr = calloc(1, STR_VAR_LEN_MAX);
	if (!expr)
		return NULL;
	if (!f->operands[0]) {
		expr_field_str(f, expr, STR_VAR_LEN_MAX);
		return expr;
	}
	if (f->operator == FIELD_OP_UNARY_MINUS) {
		sub = expr_str(f->operands[0], level + 1);
		if (!sub) {
			free(expr);
			return NULL;
		}
		snprintf(expr, STR_VAR_LEN_MAX, "-(%s)", sub);
		free(sub);
		return expr;
	}
	expr_field_str(f->operands[0], expr, STR_VAR_LEN_MAX);
	len = strlen(expr);
	if (len + 1 < STR_VAR_LEN_MAX) {
		expr[len] = ops[f->operator];
		expr[len + 1] = '\0';
	}
	expr_field_str(f->operands[1], expr, STR_VAR_LEN_MAX);
	return expr;
}

/* The kernel's hist_field_print(): a field as the trigger file shows it. */
void hist_field_print(struct seq_buf *b, const struct hist_field *f)
{
	const char *name = hist_field_name(f, 0);

	if (f->var_name)
		seq_buf_grow_printf(b, "%s=", f->var_name);
	if (f->flags & HIST_FIELD_FL_CPU)
		seq_buf_grow_puts(b, "common_cpu");
	else if (f->flags & HIST_FIELD_FL_CONST)
		seq_buf_grow_printf(b, "%llu", (unsigned long long)f->constant);
	else
		seq_buf_grow_printf(b, "%s%s", f->flags & (HIST_FIELD_FL_VAR_REF | HIST_FIELD_FL_ALIAS) ?
				     "$" : "", name);
	if (f->flags && !(f->flags & (HIST_FIELD_FL_VAR_REF | HIST_FIELD_FL_EXPR))) {
		const char *flags = get_hist_field_flags(f);

		if (flags)
			seq_buf_grow_printf(b, ".%s", flags);
	}
	if (f->buckets)
		seq_buf_grow_printf(b, "=%ld", (long)f->buckets);
}

/* ------------------------------------------------------------------
 * Variables and references
 */

/* A variable of @hd named @var_name. */
struct hist_field *find_var_field(struct hist_data *hd, const char *var_name)
{
	for (unsigned int i = 0; hd && i < hd->n_fields; i++) {
		struct hist_field *f = hd->fields[i];

		if (f && (f->flags & HIST_FIELD_FL_VAR) && !strcmp(f->var_name, var_name))
			return f;
	}
	return NULL;
}

/* A variable of the hist triggers of @file named @var_name. */
static struct hist_field *find_file_var(struct trace_event_file *file, const char *var_name)
{
	struct hist_data *hd = NULL;
	struct hist_field *f;

	while ((hd = hist_file_next(file, hd)))
		if ((f = find_var_field(hd, var_name)))
			return f;
	return NULL;
}

/* The kernel's find_var(): @hd's own, or one of @file's other triggers'. */
struct hist_field *find_var(struct hist_data *hd, struct trace_event_file *file,
			    const char *var_name)
{
	struct hist_field *f = find_var_field(hd, var_name);

	return f ? f : find_file_var(file, var_name);
}

/*
 * The kernel's find_var_file(): the event file named, or without one
 * the only file of the instance that has a variable @var_name.
 */
static struct trace_event_file *find_var_file(struct trace_array *tr, const char *system,
					      const char *event_name, const char *var_name)
{
	struct trace_event_file *found = NULL;

	if (system)
		return hist_find_event_file(tr, system, event_name);
	for (struct hist_data *hd = hist_vars; hd; hd = hd->next_var) {
		struct trace_event_file *file = hd->event_file;

		if (file->tr != tr || file == found || !find_var_field(hd, var_name))
			continue;
		if (found) {
			hist_err(HIST_ERR_VAR_NOT_UNIQUE, errpos(var_name));
			return NULL;
		}
		found = file;
	}
	return found;
}

/* The kernel's find_event_var(): a variable "[system.event.]var" names. */
struct hist_field *find_event_var(struct hist_data *hd, const char *system,
				  const char *event_name, const char *var_name)
{
	struct trace_event_file *file;
	struct hist_field *f;
	int err = 0;

	if (!system || !event_name) {
		f = find_match_var(hd, var_name, &err);
		if (err)
			return NULL;
		if (f)
			return f;
	}
	file = find_var_file(hd->event_file->tr, system, event_name, var_name);
	return file ? find_file_var(file, var_name) : NULL;
}

/* The kernel's find_target_event_var(): a variable of @hd itself. */
struct hist_field *find_target_event_var(struct hist_data *hd, const char *system,
					 const char *event_name, const char *var_name)
{
	struct trace_event_call *call = hd->event_file->event_call;

	if (system) {
		if (!event_name || strcmp(system, call->event_class->system) ||
		    strcmp(event_name, call->name))
			return NULL;
	}
	return find_var_field(hd, var_name);
}

/* The kernel's init_var_ref(): @ref reads @var (of its own trigger). */
static int init_var_ref(struct hist_field *ref, const struct hist_field *var,
			const char *system, const char *event_name)
{
	const char *name = var->var_name ? var->var_name : var->name;

	ref->var_idx = var->var_idx;
	ref->var_hd = var->var_hd;
	ref->size = var->size;
	ref->is_signed = var->is_signed;
	ref->flags |= var->flags & (HIST_FIELD_FL_TIMESTAMP | HIST_FIELD_FL_TIMESTAMP_USECS |
				    HIST_FIELD_FL_STACKTRACE);
	if (system && !(ref->system = strdup(system)))
		return -ENOMEM;
	if (event_name && !(ref->event_name = strdup(event_name)))
		return -ENOMEM;
	if (name && !(ref->name = strdup(name)))
		return -ENOMEM;
	if (system && name) {
		size_t len = strlen(system) + strlen(event_name ? event_name : "") +
			     strlen(name) + 3;

		ref->full_name = malloc(len);
		if (!ref->full_name)
			return -ENOMEM;
		snprintf(ref->full_name, len, "%s.%s.%s", system, event_name ? event_name : "",
			 name);
	}
	return set_type(ref, var->type ? var->type : "") ? 0 : -ENOMEM;
}

int find_var_ref_idx(struct hist_data *hd, struct hist_field *var_field)
{
	for (unsigned int i = 0; i < hd->n_var_refs; i++) {
		struct hist_field *ref = hd->var_refs[i];

		if (ref->var_idx == var_field->var_idx && ref->var_hd == var_field->var_hd)
			return (int)i;
	}
	return -ENOENT;
}

/*
 * The kernel's create_var_ref(): a reference of @hd to @var_field (one
 * per variable: a second reference is the first).  A reference to
 * another trigger's variable holds that trigger's data.
 */
struct hist_field *create_var_ref(struct hist_data *hd, struct hist_field *var_field,
				  const char *system, const char *event_name)
{
	struct hist_field *ref;
	int i = find_var_ref_idx(hd, var_field);

	if (i >= 0)
		return hd->var_refs[i];
	if (hd->n_var_refs >= TRACING_MAP_VARS_MAX)
		return NULL;
	ref = create_hist_field(var_field->hist_data, NULL, HIST_FIELD_FL_VAR_REF, NULL);
	if (!ref)
		return NULL;
	if (init_var_ref(ref, var_field, system, event_name)) {
		free_hist_field(ref);
		return NULL;
	}
	if (ref->var_hd && ref->var_hd != hd)
		ref->var_hd->var_users++;
	hd->var_refs[hd->n_var_refs] = ref;
	ref->var_ref_idx = hd->n_var_refs++;
	return ref;
}

static bool is_var_ref(const char *var_name)
{
	return var_name && strlen(var_name) >= 2 && var_name[0] == '$';
}

static bool contains_operator_str(const char *s)
{
	return strpbrk(s, "+-*/") != NULL;
}

/*
 * The kernel's field_name_from_var(): a variable of the command being
 * parsed that is just a field ("$testpid" for "testpid=pid") stands for
 * the field.
 */
static char *field_name_from_var(struct hist_data *hd, const char *var_name)
{
	struct var_defs *defs = &hd->attrs->var_defs;

	for (unsigned int i = 0; i < defs->n_vars; i++) {
		char *expr = defs->expr[i];

		if (strcmp(var_name, defs->name[i]))
			continue;
		if (contains_operator_str(expr) || is_var_ref(expr))
			continue;
		return expr;
	}
	return NULL;
}

static char *local_field_var_ref(struct hist_data *hd, const char *system,
				 const char *event_name, const char *var_name)
{
	struct trace_event_call *call = hd->event_file->event_call;

	if (system && event_name && (strcmp(system, call->event_class->system) ||
				     strcmp(event_name, call->name)))
		return NULL;
	if (!!system != !!event_name || !is_var_ref(var_name))
		return NULL;
	return field_name_from_var(hd, var_name + 1);
}

/* The kernel's parse_var_ref(): "$var" as a reference, or NULL. */
static struct hist_field *parse_var_ref(struct hist_data *hd, const char *system,
					const char *event_name, const char *var_name)
{
	struct hist_field *var, *ref = NULL;

	if (!is_var_ref(var_name))
		return NULL;
	var = find_event_var(hd, system, event_name, var_name + 1);
	if (var)
		ref = create_var_ref(hd, var, system, event_name);
	if (!ref)
		hist_err(HIST_ERR_VAR_NOT_FOUND, errpos(var_name + 1));
	return ref;
}

/*
 * The kernel's create_var(): a variable of @hd that no command wrote (a
 * field variable, __max, __change).  NULL: the name is taken or the
 * table has no variable left.
 */
struct hist_field *create_var(struct hist_data *hd, struct trace_event_file *file,
			      const char *name, unsigned int size, const char *type)
{
	struct hist_field *var;
	int idx;

	if (find_var(hd, file, name) && !hd->remove)
		return NULL;
	var = calloc(1, sizeof(*var));
	if (!var)
		return NULL;
	idx = tracing_map_add_var(hd->map);
	if (idx < 0) {
		free(var);
		return NULL;
	}
	var->flags = HIST_FIELD_FL_VAR;
	var->var_idx = (unsigned int)idx;
	var->var_hd = var->hist_data = hd;
	var->size = size;
	var->var_name = strdup(name);
	var->type = strdup(type);
	if (!var->var_name || !var->type) {
		free_hist_field(var);
		return NULL;
	}
	return var;
}

/* ------------------------------------------------------------------
 * Parsing
 */

static int parse_ulong(const char *s, unsigned int base, unsigned long *res)
{
	char *end;

	if (!isdigit((unsigned char)*s) && *s != '+')
		return -EINVAL;
	errno = 0;
	*res = strtoul(s, &end, (int)base);
	if (*end == '\n')
		end++;
	return errno || end == s || *end ? -EINVAL : 0;
}

/* The kernel's parse_field(): "name[.modifier]" of the event. */
static int parse_field(struct hist_data *hd, struct trace_event_file *file, const char *str,
		       unsigned long *flags, unsigned long *buckets, struct hist_ev_field *out,
		       bool *have_field)
{
	char *copy = strdup(str), *modifier = copy, *name;
	int err = -EINVAL;

	*have_field = false;
	if (!copy)
		return -ENOMEM;
	name = strsep(&modifier, ".");
	if (modifier) {
		if (!strcmp(modifier, "hex")) {
			*flags |= HIST_FIELD_FL_HEX;
		} else if (!strcmp(modifier, "sym")) {
			*flags |= HIST_FIELD_FL_SYM;
		} else if (!strcmp(modifier, "symXoffset")) {
			/* ".sym-offset", renamed for the expression parser */
			*flags |= HIST_FIELD_FL_SYM_OFFSET;
		} else if (!strcmp(modifier, "execname") && !strcmp(name, "common_pid")) {
			*flags |= HIST_FIELD_FL_EXECNAME;
		} else if (!strcmp(modifier, "syscall")) {
			*flags |= HIST_FIELD_FL_SYSCALL;
		} else if (!strcmp(modifier, "log2")) {
			*flags |= HIST_FIELD_FL_LOG2;
		} else if (!strcmp(modifier, "usecs")) {
			*flags |= HIST_FIELD_FL_TIMESTAMP_USECS;
		} else if (!strncmp(modifier, "bucket", 6)) {
			/* The caret goes where the kernel's parsing stopped. */
			modifier += 6 + (modifier[6] == 's');
			if (*modifier != '=')
				goto bad;
			modifier++;
			if (parse_ulong(modifier, 0, buckets) || !*buckets)
				goto bad;
			*flags |= HIST_FIELD_FL_BUCKET;
		} else if (!strncmp(modifier, "percent", 7) || !strncmp(modifier, "graph", 5)) {
			if (*flags & (HIST_FIELD_FL_VAR | HIST_FIELD_FL_KEY))
				goto bad;
			*flags |= modifier[0] == 'p' ? HIST_FIELD_FL_PERCENT : HIST_FIELD_FL_GRAPH;
		} else {
			goto bad;
		}
	}
	if (!strcmp(name, "common_timestamp")) {
		*flags |= HIST_FIELD_FL_TIMESTAMP;
		hd->enable_timestamps = true;
		if (*flags & HIST_FIELD_FL_TIMESTAMP_USECS)
			hd->attrs->ts_in_usecs = true;
	} else if (!strcmp(name, "common_cpu")) {
		*flags |= HIST_FIELD_FL_CPU;
	} else if (!find_ev_field(file->event_call, name, out) ||
		   (!out->size && out->kind != HIST_EV_CPU)) {
		hist_err(HIST_ERR_FIELD_NOT_FOUND, errpos(name));
		goto out;
	} else {
		if (out->kind == HIST_EV_CPU)
			*flags |= HIST_FIELD_FL_CPU;
		*have_field = true;
	}
	err = 0;
	goto out;
bad:
	hist_err(HIST_ERR_BAD_FIELD_MODIFIER, errpos(modifier));
out:
	free(copy);
	return err;
}

/* The kernel's create_alias(): "y=$x", a variable that copies another. */
static struct hist_field *create_alias(struct hist_data *hd, struct hist_field *var_ref,
				       const char *var_name)
{
	struct hist_field *alias;

	alias = create_hist_field(hd, NULL, HIST_FIELD_FL_ALIAS | HIST_FIELD_FL_VAR, var_name);
	if (!alias)
		return NULL;
	alias->fn_num = var_ref->fn_num;
	alias->operands[0] = var_ref;
	if (init_var_ref(alias, var_ref, var_ref->system, var_ref->event_name)) {
		destroy_hist_field(alias, 0);
		return NULL;
	}
	alias->var_ref_idx = var_ref->var_ref_idx;
	return alias;
}

/* The kernel's parse_const(): a numeric literal (kstrtoull(str, 0)). */
static struct hist_field *parse_const(struct hist_data *hd, const char *str,
				      const char *var_name, unsigned long *flags)
{
	struct hist_field *f;
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(str, &end, 0);
	if (*end == '\n')
		end++;
	if (errno || end == str || *end) {
		hist_err(HIST_ERR_EXPECT_NUMBER, errpos(str));
		return NULL;
	}
	*flags |= HIST_FIELD_FL_CONST;
	f = create_hist_field(hd, NULL, *flags, var_name);
	if (f)
		f->constant = v;
	return f;
}

/* The kernel's parse_atom(): an operand without operators. */
struct hist_field *parse_atom(struct hist_data *hd, struct trace_event_file *file, char *str,
			      unsigned long *flags, const char *var_name, int *errp)
{
	char *ref_system = NULL, *ref_event = NULL, *ref_var = str, *s;
	struct hist_field *f;
	struct hist_ev_field field;
	unsigned long buckets = 0;
	bool have_field;
	int err;

	if (isdigit((unsigned char)str[0])) {
		f = parse_const(hd, str, var_name, flags);
		if (!f)
			*errp = -EINVAL;
		return f;
	}
	s = strchr(str, '.');
	if (s && strchr(s + 1, '.')) {
		ref_system = strsep(&str, ".");
		ref_event = strsep(&str, ".");
		ref_var = str;
	}
	s = local_field_var_ref(hd, ref_system, ref_event, ref_var);
	if (!s) {
		f = parse_var_ref(hd, ref_system, ref_event, ref_var);
		if (f) {
			if (var_name) {
				f = create_alias(hd, f, var_name);
				if (!f)
					*errp = -ENOMEM;
			}
			return f;
		}
	} else {
		str = s;
	}
	err = parse_field(hd, file, str, flags, &buckets, &field, &have_field);
	if (err) {
		*errp = err;
		return NULL;
	}
	f = create_hist_field(hd, have_field ? &field : NULL, *flags, var_name);
	if (!f) {
		/* Also for a field with no value (an array), as the kernel's. */
		*errp = -ENOMEM;
		return NULL;
	}
	f->buckets = buckets;
	return f;
}

/*
 * The kernel's contains_operator(): the root operator of @str, the last
 * of the lowest precedence; *@sep points at it.
 */
static enum field_op_id contains_operator(char *str, char **sep)
{
	char *minus = strrchr(str, '-'), *plus, *div, *mult;
	enum field_op_id op = FIELD_OP_NONE;

	*sep = NULL;
	if (minus && minus == str) {
		*sep = minus;
		return FIELD_OP_UNARY_MINUS;
	}
	plus = strrchr(str, '+');
	if (plus || minus) {
		op = plus > minus ? FIELD_OP_PLUS : FIELD_OP_MINUS;
		*sep = plus > minus ? plus : minus;
		return op;
	}
	div = strrchr(str, '/');
	mult = strrchr(str, '*');
	if (div || mult) {
		op = mult > div ? FIELD_OP_MULT : FIELD_OP_DIV;
		*sep = mult > div ? mult : div;
	}
	return op;
}

/* The kernel's parse_unary(): "-(expr)". */
static struct hist_field *parse_unary(struct hist_data *hd, struct trace_event_file *file,
				      char *str, unsigned long flags, const char *var_name,
				      unsigned int *n_subexprs, int *errp)
{
	struct hist_field *op1, *expr;
	char *s;

	*errp = -EINVAL;
	if (++*n_subexprs > 3) {
		hist_err(HIST_ERR_TOO_MANY_SUBEXPR, errpos(str));
		return NULL;
	}
	str++;
	if (!strchr(str, '('))
		return NULL;
	str++;
	s = strrchr(str, ')');
	if (!s)
		return NULL;
	if (s[1]) {
		hist_err(HIST_ERR_UNARY_MINUS_SUBEXPR, errpos(str));
		return NULL;
	}
	*s = '\0';
	expr = create_hist_field(hd, NULL, flags | HIST_FIELD_FL_EXPR, var_name);
	if (!expr) {
		*errp = -ENOMEM;
		return NULL;
	}
	op1 = parse_expr(hd, file, str, 0, NULL, n_subexprs, errp);
	if (!op1)
		goto free;
	if (op1->flags & HIST_FIELD_FL_STRING) {
		hist_err(HIST_ERR_INVALID_STR_OPERAND, errpos(str));
		destroy_hist_field(op1, 0);
		*errp = -EINVAL;
		goto free;
	}
	expr->flags |= op1->flags & (HIST_FIELD_FL_TIMESTAMP | HIST_FIELD_FL_TIMESTAMP_USECS);
	expr->fn_num = HIST_FIELD_FN_UMINUS;
	expr->operands[0] = op1;
	expr->size = op1->size;
	expr->is_signed = op1->is_signed;
	expr->operator = FIELD_OP_UNARY_MINUS;
	expr->name = expr_str(expr, 0);
	if (!expr->name || !set_type(expr, op1->type)) {
		*errp = -ENOMEM;
		goto free;
	}
	return expr;
free:
	destroy_hist_field(expr, 0);
	return NULL;
}

/*
 * The kernel's check_expr_operands(): the variables the operands refer
 * to (for constants and units), and the same timestamp units on both.
 */
static int check_expr_operands(struct hist_field *op1, struct hist_field *op2,
			       struct hist_field **var1, struct hist_field **var2)
{
	unsigned long fl1 = op1->flags, fl2 = op2->flags;

	if (fl1 & (HIST_FIELD_FL_VAR_REF | HIST_FIELD_FL_ALIAS)) {
		*var1 = find_var_field(op1->var_hd, op1->name);
		if (!*var1)
			return -EINVAL;
		fl1 = (*var1)->flags;
	}
	if (fl2 & (HIST_FIELD_FL_VAR_REF | HIST_FIELD_FL_ALIAS)) {
		*var2 = find_var_field(op2->var_hd, op2->name);
		if (!*var2)
			return -EINVAL;
		fl2 = (*var2)->flags;
	}
	if ((fl1 & HIST_FIELD_FL_TIMESTAMP_USECS) != (fl2 & HIST_FIELD_FL_TIMESTAMP_USECS)) {
		hist_err(HIST_ERR_TIMESTAMP_MISMATCH, 0);
		return -EINVAL;
	}
	return 0;
}

/* The kernel's hist_field_get_div_fn(): division by the constant @divisor. */
static enum hist_field_fn div_fn(struct hist_field *divisor)
{
	uint64_t div = divisor->constant;

	if (!(div & (div - 1)))
		return HIST_FIELD_FN_DIV_POWER2;
	if (div > (1u << HIST_DIV_SHIFT))
		return HIST_FIELD_FN_DIV_NOT_POWER2;
	divisor->div_multiplier = (1ull << HIST_DIV_SHIFT) / div;
	return HIST_FIELD_FN_DIV_MULT_SHIFT;
}

static const enum hist_field_fn op_fns[] = {
	[FIELD_OP_MINUS] = HIST_FIELD_FN_MINUS, [FIELD_OP_PLUS] = HIST_FIELD_FN_PLUS,
	[FIELD_OP_DIV] = HIST_FIELD_FN_DIV, [FIELD_OP_MULT] = HIST_FIELD_FN_MULT,
};

/*
 * The binary expression @expr of @op1 and @op2: folded into a constant
 * when both are (directly or through a variable).  Return: 0 or -errno.
 */
static int finish_binary(struct hist_field *expr, enum field_op_id op, struct hist_field *op1,
			 struct hist_field *op2, struct hist_field *var1,
			 struct hist_field *var2, const char *str2)
{
	unsigned long fl1 = var1 ? var1->flags : op1->flags;
	unsigned long fl2 = var2 ? var2->flags : op2->flags;
	bool consts = fl1 & fl2 & HIST_FIELD_FL_CONST;
	struct hist_field *divisor = var2 ? var2 : op2;

	op1->read_once = op2->read_once = true;
	expr->operands[0] = op1;
	expr->operands[1] = op2;
	expr->fn_num = op_fns[op];
	expr->operator = op;
	if (op == FIELD_OP_DIV && (fl2 & HIST_FIELD_FL_CONST)) {
		if (!divisor->constant) {
			hist_err(HIST_ERR_DIVISION_BY_ZERO, errpos(str2));
			return -EDOM;
		}
		op2->constant = divisor->constant;
		expr->fn_num = div_fn(consts ? divisor : op2);
	}
	if (consts) {
		expr->operands[0] = var1 ? var1 : op1;
		expr->operands[1] = var2 ? var2 : op2;
		expr->constant = hist_fn_call(expr, NULL);
		expr->fn_num = HIST_FIELD_FN_CONST;
		expr->operands[0] = expr->operands[1] = NULL;
		destroy_hist_field(op2, 0);
		destroy_hist_field(op1, 0);
		expr->operator = FIELD_OP_NONE;
	} else {
		expr->size = op1->size;
		expr->is_signed = op1->is_signed;
		if (!set_type(expr, op1->type))
			return -ENOMEM;
	}
	expr->name = expr_str(expr, 0);
	return expr->name ? 0 : -ENOMEM;
}

/*
 * The kernel's parse_expr(): the tree of @str (modified in place).
 * Return: the field, or NULL with *@errp set (and the error logged).
 */
struct hist_field *parse_expr(struct hist_data *hd, struct trace_event_file *file, char *str,
			      unsigned long flags, const char *var_name,
			      unsigned int *n_subexprs, int *errp)
{
	struct hist_field *op1, *op2, *expr, *var1 = NULL, *var2 = NULL;
	enum field_op_id op;
	char *sep, *str1;
	int err;

	if (*n_subexprs > 3) {
		hist_err(HIST_ERR_TOO_MANY_SUBEXPR, errpos(str));
		*errp = -EINVAL;
		return NULL;
	}
	op = contains_operator(str, &sep);
	if (op == FIELD_OP_NONE)
		return parse_atom(hd, file, str, &flags, var_name, errp);
	if (op == FIELD_OP_UNARY_MINUS)
		return parse_unary(hd, file, str, flags, var_name, n_subexprs, errp);
	++*n_subexprs;
	*sep = '\0';
	str1 = str;
	str = sep + 1;
	*errp = -EINVAL;
	if (!*str1 || !*str)
		return NULL;
	op1 = parse_expr(hd, file, str1, 0, NULL, n_subexprs, errp);
	if (!op1)
		return NULL;
	if (op1->flags & HIST_FIELD_FL_STRING) {
		hist_err(HIST_ERR_INVALID_STR_OPERAND, errpos(str1));
		goto free_op1;
	}
	op2 = parse_expr(hd, file, str, 0, NULL, n_subexprs, errp);
	if (!op2)
		goto free_op1;
	if (op2->flags & HIST_FIELD_FL_STRING) {
		hist_err(HIST_ERR_INVALID_STR_OPERAND, errpos(str));
		*errp = -EINVAL;
		goto free_both;
	}
	err = check_expr_operands(op1, op2, &var1, &var2);
	if (err) {
		*errp = err;
		goto free_both;
	}
	flags |= (var1 ? var1->flags : op1->flags) & (var2 ? var2->flags : op2->flags) &
		 HIST_FIELD_FL_CONST ? HIST_FIELD_FL_CONST : HIST_FIELD_FL_EXPR;
	flags |= op1->flags & (HIST_FIELD_FL_TIMESTAMP | HIST_FIELD_FL_TIMESTAMP_USECS);
	expr = create_hist_field(hd, NULL, flags, var_name);
	if (!expr) {
		*errp = -ENOMEM;
		goto free_both;
	}
	err = finish_binary(expr, op, op1, op2, var1, var2, str);
	if (err) {
		*errp = err;
		destroy_hist_field(expr, 0);
		return NULL;
	}
	return expr;
free_both:
	destroy_hist_field(op2, 0);
free_op1:
	destroy_hist_field(op1, 0);
	return NULL;
}

/* The kernel's field_has_hist_vars(): a variable or a reference in the tree. */
bool field_has_hist_vars(struct hist_field *f, unsigned int level)
{
	if (level > 3 || !f)
		return false;
	if (f->flags & (HIST_FIELD_FL_VAR | HIST_FIELD_FL_VAR_REF))
		return true;
	for (unsigned int i = 0; i < HIST_FIELD_OPERANDS_MAX; i++)
		if (field_has_hist_vars(f->operands[i], level + 1))
			return true;
	return false;
}

/* ------------------------------------------------------------------
 * Values, in the probe
 */

/* A number of the record; 0 when the record is too short. */
static inline uint64_t rec_num(const struct hist_field *f, const struct hist_ctx *ctx)
{
	const struct hist_ev_field *field = f->field;
	const unsigned char *p;
	uint64_t v64;
	uint32_t v32;
	uint16_t v16;

	if (!ctx || !ctx->rec || !field || field->offset + field->size > ctx->len)
		return 0;
	/* Records are only 4-byte aligned: fixed-size copies, inlined. */
	p = ctx->rec + field->offset;
	switch (f->fn_num) {
	case HIST_FIELD_FN_S8:
		return (uint64_t)(int64_t)(int8_t)p[0];
	case HIST_FIELD_FN_U8:
		return p[0];
	case HIST_FIELD_FN_S16:
		memcpy(&v16, p, 2);
		return (uint64_t)(int64_t)(int16_t)v16;
	case HIST_FIELD_FN_U16:
		memcpy(&v16, p, 2);
		return v16;
	case HIST_FIELD_FN_S32:
		memcpy(&v32, p, 4);
		return (uint64_t)(int64_t)(int32_t)v32;
	case HIST_FIELD_FN_U32:
		memcpy(&v32, p, 4);
		return v32;
	default:
		memcpy(&v64, p, 8);
		return v64;
	}
}

/*
 * A string field's bytes: in the record (bounded by it), the element's
 * thread name, or a string variable's storage.  NULL if none.
 */
const char *hist_field_str(const struct hist_field *f, struct hist_ctx *ctx, unsigned int *maxp)
{
	const struct hist_ev_field *field = f->field;
	unsigned int off, n;
	uint32_t loc;

	switch (f->fn_num) {
	case HIST_FIELD_FN_STRING:
		if (!ctx->rec || field->offset > ctx->len)
			return NULL;
		n = ctx->len - field->offset;
		*maxp = n < field->size ? n : field->size;
		return (const char *)ctx->rec + field->offset;
	case HIST_FIELD_FN_DYNSTRING:
		if (!ctx->rec || field->offset + 4 > ctx->len)
			return NULL;
		memcpy(&loc, ctx->rec + field->offset, sizeof(loc));
		off = loc & 0xffff;
		if (off > ctx->len)
			return NULL;
		n = ctx->len - off;
		*maxp = n < (loc >> 16) ? n : loc >> 16;
		return (const char *)ctx->rec + off;
	case HIST_FIELD_FN_EXECNAME:
		if (!ctx->elt || !ctx->hist_data->has_comm)
			return NULL;
		*maxp = TRACING_MAP_COMM_LEN;
		return tracing_map_comm(ctx->hist_data->map, ctx->elt);
	case HIST_FIELD_FN_VAR_REF:
		*maxp = STR_VAR_LEN_MAX;
		return (const char *)(uintptr_t)ctx->var_ref_vals[f->var_ref_idx];
	default:
		return NULL;
	}
}

/*
 * Copy a string field into @dst of @size bytes (already zeroed), at most
 * @size - 1 characters: a key, a string variable.
 */
void hist_copy_str(char *dst, unsigned int size, const struct hist_field *f,
		   struct hist_ctx *ctx)
{
	unsigned int max = 0;
	const char *src = hist_field_str(f, ctx, &max);

	if (!src || !size)
		return;
	if (max > size - 1)
		max = size - 1;
	for (unsigned int i = 0; i < max && src[i]; i++)
		dst[i] = src[i];
}

static uint64_t hist_timestamp(const struct hist_field *f, struct hist_ctx *ctx)
{
	struct trace_event_file *file = ctx->file;
	const struct trace_clock *clock;
	uint64_t ts;

	if (!ctx->have_ts) {
		ctx->ts = ring_buffer_time_stamp(file->buffer);
		ctx->have_ts = true;
	}
	ts = ctx->ts;
	clock = trace_clock_get(__atomic_load_n(&file->tr->clock_idx, __ATOMIC_RELAXED));
	if (f->hist_data->attrs->ts_in_usecs && clock && clock->in_ns)
		ts = (ts + 500) / 1000;
	return ts;
}

/* The kernel's order_base_2(): the log2 rounded up, 0 for 0 and 1. */
static uint64_t order_base_2(uint64_t v)
{
	return v > 1 ? 64 - (uint64_t)__builtin_clzll(v - 1) : 0;
}

static uint64_t hist_div(const struct hist_field *f, uint64_t v1, struct hist_ctx *ctx)
{
	const struct hist_field *op2 = f->operands[1];
	uint64_t v2, mult;

	switch (f->fn_num) {
	case HIST_FIELD_FN_DIV_POWER2:
		return v1 >> __builtin_ctzll(op2->constant);
	case HIST_FIELD_FN_DIV_NOT_POWER2:
		return v1 / op2->constant;
	case HIST_FIELD_FN_DIV_MULT_SHIFT:
		/* Off by one at most while v1 < 2^20, as the kernel's. */
		if (v1 < (1u << HIST_DIV_SHIFT)) {
			mult = op2->div_multiplier;
			return (v1 * mult + ((1u << HIST_DIV_SHIFT) - 1)) >> HIST_DIV_SHIFT;
		}
		return v1 / op2->constant;
	default:
		v2 = hist_fn_call(op2, ctx);
		if (!v2)
			return (uint64_t)-1;
		if (!(v2 & (v2 - 1)))
			return v1 >> __builtin_ctzll(v2);
		return v1 / v2;
	}
}

/*
 * The kernel's hist_fn_call(): the field's value for the hit @ctx (NULL
 * when folding constants).  Strings are addresses.
 * Context: a probe; no lock.
 */
uint64_t hist_fn_call(const struct hist_field *f, struct hist_ctx *ctx)
{
	unsigned int max;
	uint64_t v;
	int cpu;

	switch (f->fn_num) {
	case HIST_FIELD_FN_VAR_REF:
		return ctx && ctx->var_ref_vals ? ctx->var_ref_vals[f->var_ref_idx] : 0;
	case HIST_FIELD_FN_COUNTER:
		return 1;
	case HIST_FIELD_FN_CONST:
		return f->constant;
	case HIST_FIELD_FN_LOG2:
		return order_base_2(hist_fn_call(f->operands[0], ctx));
	case HIST_FIELD_FN_BUCKET:
		v = hist_fn_call(f->operands[0], ctx);
		return v / f->buckets * f->buckets;
	case HIST_FIELD_FN_TIMESTAMP:
		return ctx ? hist_timestamp(f, ctx) : 0;
	case HIST_FIELD_FN_CPU:
		cpu = sched_getcpu();
		return cpu < 0 ? 0 : (uint64_t)cpu;
	case HIST_FIELD_FN_STRING:
	case HIST_FIELD_FN_DYNSTRING:
	case HIST_FIELD_FN_EXECNAME:
		return ctx ? (uint64_t)(uintptr_t)hist_field_str(f, ctx, &max) : 0;
	case HIST_FIELD_FN_S64: case HIST_FIELD_FN_U64: case HIST_FIELD_FN_S32:
	case HIST_FIELD_FN_U32: case HIST_FIELD_FN_S16: case HIST_FIELD_FN_U16:
	case HIST_FIELD_FN_S8: case HIST_FIELD_FN_U8:
		return rec_num(f, ctx);
	case HIST_FIELD_FN_UMINUS:
		return (uint64_t)-(int64_t)hist_fn_call(f->operands[0], ctx);
	case HIST_FIELD_FN_MINUS:
		return hist_fn_call(f->operands[0], ctx) - hist_fn_call(f->operands[1], ctx);
	case HIST_FIELD_FN_PLUS:
		return hist_fn_call(f->operands[0], ctx) + hist_fn_call(f->operands[1], ctx);
	case HIST_FIELD_FN_MULT:
		return hist_fn_call(f->operands[0], ctx) * hist_fn_call(f->operands[1], ctx);
	case HIST_FIELD_FN_DIV:
	case HIST_FIELD_FN_DIV_POWER2:
	case HIST_FIELD_FN_DIV_NOT_POWER2:
	case HIST_FIELD_FN_DIV_MULT_SHIFT:
		return hist_div(f, hist_fn_call(f->operands[0], ctx), ctx);
	default:
		return 0;
	}
}
