// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * events/, set_event and available_events: the event registry as the
 * kernel's tracefs shows it, per instance.
 *
 *	events/enable, header_page, header_event
 *	events/SYS/enable, filter
 *	events/SYS/EVENT/enable, filter, trigger, hist, format, id
 *
 * The directories are rebuilt from the registry whenever a server looks
 * into them (tfs_events_sync()): a dlopen()ed object's events appear, a
 * dlclose()d one's disappear (their inode numbers die with them), and
 * nodes of events still there keep theirs.  The library's own ftrace
 * events (TRACE_EVENT_FL_IGNORE_ENABLE: ftrace/print, ftrace/raw_data)
 * cannot be enabled, so they have only format and id, and their system has
 * no enable or filter, as in the kernel.
 *
 * Files never keep a struct trace_event_call: its memory goes with the
 * object that defined it.  Every access finds the event by name inside
 * trace_for_each_event_call(), whose lock keeps it registered meanwhile;
 * the filter and trigger files, which must not hold that lock, see
 * call_find().
 *
 * The filter, trigger and hist files speak the kernel's languages
 * (trace_events_filter.c, trace_events_trigger.c, trace_events_hist.c,
 * through trace_filter.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ring_buffer.h>
#include <linux/trace_events.h>

#include "../trace_array.h"
#include "tracefs_internal.h"

/* Filter and trigger writes of a page or more are refused, as the kernel's. */
#define TFS_PAGE_SIZE		4096

/* An instance and the text being made for it. */
struct list_ctx {
	struct trace_array	*tr;
	struct seq_buf		*b;
};

static bool call_fixed(const struct trace_event_call *call)
{
	return call->flags & TRACE_EVENT_FL_IGNORE_ENABLE;
}

static const char *call_system(const struct trace_event_call *call)
{
	return call->event_class->system;
}

/* ------------------------------------------------------------------
 * Finding an event by name
 */

struct call_ctx {
	const char	*system, *event;
	int		(*fn)(struct trace_event_call *call, void *arg);
	void		*arg;
	int		ret;
};

static void call_match(struct trace_event_call *call, void *priv)
{
	struct call_ctx *ctx = priv;

	if (!strcmp(call_system(call), ctx->system) && !strcmp(call->name, ctx->event))
		ctx->ret = ctx->fn(call, ctx->arg);
}

/*
 * @fn(@call, @arg) for the event @system:@event, with the registry locked.
 * Return: what @fn returned, or -ENODEV when the event is gone (the
 * kernel's errno for a file of a removed event).
 */
static int with_call(const char *system, const char *event,
		     int (*fn)(struct trace_event_call *call, void *arg), void *arg)
{
	struct call_ctx ctx = {
		.system = system, .event = event, .fn = fn, .arg = arg, .ret = -ENODEV,
	};

	trace_for_each_event_call(call_match, &ctx);
	return ctx.ret;
}

/* ------------------------------------------------------------------
 * The directories
 */

static const struct tfs_fops events_enable_fops, sys_filter_fops, event_enable_fops,
	event_filter_fops, event_trigger_fops, event_hist_fops, event_format_fops,
	event_id_fops, header_page_fops, header_event_fops;

static const struct tfs_entry events_files[] = {
	{ "enable",		&events_enable_fops },
	{ "header_event",	&header_event_fops },
	{ "header_page",	&header_page_fops },
	{ NULL, NULL }
};

static const struct tfs_entry sys_files[] = {
	{ "enable",	&events_enable_fops },
	{ "filter",	&sys_filter_fops },
	{ NULL, NULL }
};

static const struct tfs_entry event_files[] = {
	{ "enable",	&event_enable_fops },
	{ "filter",	&event_filter_fops },
	{ "trigger",	&event_trigger_fops },
	{ "hist",	&event_hist_fops },
	{ "format",	&event_format_fops },
	{ "id",		&event_id_fops },
	{ NULL, NULL }
};

/* The ftrace system: its events cannot be enabled, so it has no files. */
static const struct tfs_entry no_files[] = {
	{ NULL, NULL }
};

/* An event that cannot be enabled: what the kernel gives ftrace/raw_data. */
static const struct tfs_entry fixed_event_files[] = {
	{ "format",	&event_format_fops },
	{ "id",		&event_id_fops },
	{ NULL, NULL }
};

/* ftrace/print takes triggers, as in Linux 6.18 (trace_marker's records). */
static const struct tfs_entry print_event_files[] = {
	{ "trigger",	&event_trigger_fops },
	{ "hist",	&event_hist_fops },
	{ "format",	&event_format_fops },
	{ "id",		&event_id_fops },
	{ NULL, NULL }
};

/*
 * Bumped by the registry each time an event comes or goes: events/ needs
 * a pass over the registry only when it moved.
 */
static unsigned long registry_gen;
static bool registry_watched;

static void registry_changed(struct trace_event_call *call, int added)
{
	(void)call, (void)added;
	__atomic_add_fetch(&registry_gen, 1, __ATOMIC_RELEASE);
}

struct sync_ctx {
	struct tfs_node	*events;
	unsigned int	gen;
	bool		failed;
};

/*
 * The kid @name of @dir if it is a directory of @kind (NULL if a file
 * has the name), made with @files if missing.
 */
static struct tfs_node *dir_get(struct sync_ctx *ctx, struct tfs_node *dir, const char *name,
				enum tfs_dir_kind kind, const struct tfs_entry *files)
{
	struct tfs_node *kid = tfs_find_kid(dir, name);

	if (kid)
		return kid->kind == kind ? kid : NULL;
	kid = tfs_add_dir(dir, name, kind);
	if (kid && tfs_add_entries(kid, files)) {
		tfs_remove_node(kid);
		kid = NULL;
	}
	ctx->failed |= !kid;
	return kid;
}

static void sync_call(struct trace_event_call *call, void *priv)
{
	struct sync_ctx *ctx = priv;
	struct tfs_node *sys, *ev;

	sys = dir_get(ctx, ctx->events, call_system(call), TFS_DIR_SYSTEM, no_files);
	if (!sys)
		return;
	/* The first event that can be enabled gives its system the files. */
	if (!call_fixed(call) && !tfs_find_kid(sys, "enable") &&
	    tfs_add_entries(sys, sys_files)) {
		ctx->failed = true;
		return;
	}
	sys->gen = ctx->gen;
	ev = dir_get(ctx, sys, call->name, TFS_DIR_EVENT,
		     trace_marker_is_print(call) ? print_event_files :
		     call_fixed(call) ? fixed_event_files : event_files);
	if (ev)
		ev->gen = ctx->gen;
}

/* Remove the kids of @dir of @kind that the last pass did not see. */
static void sweep(struct tfs_node *dir, enum tfs_dir_kind kind, unsigned int gen)
{
	unsigned int i = dir->nr_kids;

	while (i-- > 0) {
		struct tfs_node *kid = dir->kids[i];

		if (kid->kind != kind)
			continue;
		if (kid->gen != gen)
			tfs_remove_node(kid);
		else if (kind == TFS_DIR_SYSTEM)
			sweep(kid, TFS_DIR_EVENT, gen);
	}
}

/**
 * tfs_events_sync - bring events/ of @inst in line with the registry
 *
 * Context: under tfs_tree_lock; takes the registry's lock.
 */
void tfs_events_sync(struct tfs_inst *inst)
{
	static unsigned int pass;
	struct sync_ctx ctx = { .events = inst->events, .gen = ++pass };
	unsigned long gen = __atomic_load_n(&registry_gen, __ATOMIC_ACQUIRE);

	if (!ctx.events || (registry_watched && inst->events_gen == gen))
		return;
	trace_for_each_event_call(sync_call, &ctx);
	sweep(ctx.events, TFS_DIR_SYSTEM, ctx.gen);
	/* Read before the pass: a change during it brings another pass. */
	inst->events_gen = ctx.failed ? gen - 1 : gen;
}

int tfs_events_create(struct tfs_inst *inst)
{
	struct tfs_node *dir = tfs_add_dir(inst->dir, "events", TFS_DIR_EVENTS);

	if (!dir || tfs_add_entries(dir, events_files))
		return -ENOMEM;
	/* Without the notifier (none left), every look is a pass. */
	if (!registry_watched)
		registry_watched = !trace_event_notifier_register(registry_changed);
	inst->events = dir;
	inst->events_gen = __atomic_load_n(&registry_gen, __ATOMIC_ACQUIRE) - 1;
	tfs_events_sync(inst);
	return 0;
}

/* ------------------------------------------------------------------
 * enable: of one event, of a system, of all
 */

static const char *const state_text[] = {
	[TRACE_EVENT_DISABLED]		= "0\n",
	[TRACE_EVENT_ENABLED]		= "1\n",
	[TRACE_EVENT_SOFT_DISABLED]	= "0*\n",
	[TRACE_EVENT_SOFT_ENABLED]	= "1*\n",
};

static int event_state(struct trace_event_call *call, void *arg)
{
	struct list_ctx *ctx = arg;
	int state = trace_array_event_state(ctx->tr, call);

	seq_buf_grow_puts(ctx->b, state_text[state & 3]);
	return 0;
}

static int event_enable_show(struct tfs_file *f, struct seq_buf *b)
{
	struct list_ctx ctx = { .tr = f->inst->tr, .b = b };

	return with_call(f->node->system, f->node->event, event_state, &ctx);
}

/* An enable write: "0" or "1" (kstrtoul()'s spellings of them). */
static int parse_enable(const char *buf, size_t size, unsigned long *val)
{
	int err = tfs_kstrtoul(buf, size, 10, val);

	if (!err && *val > 1)
		err = -EINVAL;
	return err;
}

static ssize_t event_enable_write(struct tfs_file *f, const char *buf, size_t size)
{
	unsigned long val;
	int err = parse_enable(buf, size, &val);

	if (err)
		return err;
	err = trace_array_set_clr_event(f->inst->tr, f->node->system, f->node->event, (int)val);
	/* Nothing matched: the event went away since the open. */
	if (err == -EINVAL)
		err = -ENODEV;
	return err ? err : (ssize_t)size;
}

static const struct tfs_fops event_enable_fops = {
	.mode	= 0640,
	.show	= event_enable_show,
	.write	= event_enable_write,
};

struct set_ctx {
	struct trace_array	*tr;
	const char		*system;
	unsigned int		set;	/* bit 0: one is off, bit 1: one is on */
};

/* The kernel counts soft-disabled events as enabled here: the probe is on. */
static void set_collect(struct trace_event_call *call, void *priv)
{
	struct set_ctx *ctx = priv;

	if (call_fixed(call) || (ctx->system && strcmp(ctx->system, call_system(call))))
		return;
	ctx->set |= 1u << !!trace_array_event_state(ctx->tr, call);
}

/* "?" (no events), "0", "1", or "X" (mixed), as the kernel's. */
static int events_enable_show(struct tfs_file *f, struct seq_buf *b)
{
	struct set_ctx ctx = { .tr = f->inst->tr, .system = f->node->system };

	trace_for_each_event_call(set_collect, &ctx);
	seq_buf_grow_putmem(b, &"?01X"[ctx.set], 1);
	seq_buf_grow_puts(b, "\n");
	return 0;
}

static ssize_t events_enable_write(struct tfs_file *f, const char *buf, size_t size)
{
	unsigned long val;
	int err = parse_enable(buf, size, &val);

	if (!err)
		err = trace_array_set_clr_event(f->inst->tr, f->node->system, NULL, (int)val);
	return err ? err : (ssize_t)size;
}

/* events/enable and events/SYS/enable: node->system is NULL in the first. */
static const struct tfs_fops events_enable_fops = {
	.mode	= 0640,
	.show	= events_enable_show,
	.write	= events_enable_write,
};

/* ------------------------------------------------------------------
 * filter, trigger
 */

static void call_take(struct trace_event_call *call, void *priv)
{
	struct call_ctx *ctx = priv;

	if (!strcmp(call_system(call), ctx->system) && !strcmp(call->name, ctx->event))
		ctx->arg = call;
}

/*
 * The event @system:@event, or NULL when it is gone.  Unlike with_call(),
 * the call is used after the registry's lock is dropped: the filter and
 * trigger functions parse without the event mutex (a condition naming a
 * function takes the dynamic linker's lock, which a constructor waiting
 * for the event mutex holds), and they look the call up in the registry
 * again, by address, before they touch it.
 */
static struct trace_event_call *call_find(const char *system, const char *event)
{
	struct call_ctx ctx = { .system = system, .event = event };

	trace_for_each_event_call(call_take, &ctx);
	return ctx.arg;
}

/* What a write to a filter or trigger file is: the bytes up to a NUL. */
static int cmd_get(const char *buf, size_t size, char **cmdp)
{
	/* A page or more is refused, as the kernel's. */
	if (size >= TFS_PAGE_SIZE)
		return -EINVAL;
	*cmdp = tfs_strndup(buf, size);
	return *cmdp ? 0 : -ENOMEM;
}

/*
 * Log @err for the write @cmd, @times times, as the kernel does: its
 * Command is what was written without the white space at its end.
 */
static void log_cmd_err(struct tfs_inst *inst, const struct trace_err *err, const char *cmd,
			unsigned int times)
{
	size_t len = strlen(cmd);
	char *text;

	if (!err->loc || !times)
		return;
	while (len && isspace((unsigned char)cmd[len - 1]))
		len--;
	text = strndup(cmd, len);
	if (!text)
		return;
	while (times--)
		tfs_log_err(inst, err->loc, err->msg, text, err->pos);
	free(text);
}

/* Copy @s to @b; the text of a trace_seq that overflowed is cut, not lost. */
static void seq_to_buf(struct seq_buf *b, const struct trace_seq *s)
{
	seq_buf_grow_putmem(b, s->buffer, s->len);
}

/* A trace_seq to print into: 4 KiB is too much for a server's stack. */
static struct trace_seq *seq_new(void)
{
	struct trace_seq *s = malloc(sizeof(*s));

	if (s)
		trace_seq_init(s);
	return s;
}

/*
 * The filter files: "EXPR", "0" clears.  A bad expression is -EINVAL (or
 * the kernel's odd errnos for some, see trace_filter.h), an error_log
 * entry, and the event left unfiltered with its filter file showing why.
 */
static ssize_t event_filter_write(struct tfs_file *f, const char *buf, size_t size)
{
	struct trace_event_call *call;
	struct trace_err err;
	char *cmd;
	int ret = cmd_get(buf, size, &cmd);

	if (ret)
		return ret;
	call = call_find(f->node->system, f->node->event);
	ret = call ? trace_array_set_filter(f->inst->tr, call, cmd, &err) : -ENODEV;
	if (ret && call)
		log_cmd_err(f->inst, &err, cmd, 1);
	free(cmd);
	return ret ? ret : (ssize_t)size;
}

/* An event's text that the engine prints into a trace_seq. */
struct seq_ctx {
	struct trace_array	*tr;
	struct seq_buf		*b;
	void			(*print)(struct trace_array *tr, struct trace_event_call *call,
					 struct trace_seq *s);
};

static int seq_get(struct trace_event_call *call, void *arg)
{
	struct seq_ctx *ctx = arg;
	struct trace_seq *s = seq_new();

	if (!s)
		return -ENOMEM;
	ctx->print(ctx->tr, call, s);
	seq_to_buf(ctx->b, s);
	free(s);
	return 0;
}

static int event_seq_show(struct tfs_file *f, struct seq_buf *b,
			  void (*print)(struct trace_array *tr, struct trace_event_call *call,
					struct trace_seq *s))
{
	struct seq_ctx ctx = { .tr = f->inst->tr, .b = b, .print = print };

	return with_call(f->node->system, f->node->event, seq_get, &ctx);
}

/* The filter as set, its error, or "none". */
static int event_filter_show(struct tfs_file *f, struct seq_buf *b)
{
	return event_seq_show(f, b, trace_array_print_filter);
}

static const struct tfs_fops event_filter_fops = {
	.mode	= 0640,
	.show	= event_filter_show,
	.write	= event_filter_write,
};

/*
 * A system's filter goes to each of its events that has the fields; the
 * others keep no filter and show why, and the kernel logs its error once
 * for each of them.  The write itself succeeds, as the kernel's.
 */
static ssize_t sys_filter_write(struct tfs_file *f, const char *buf, size_t size)
{
	unsigned int nr_failed = 0;
	struct trace_err err;
	char *cmd;
	int ret = cmd_get(buf, size, &cmd);

	if (ret)
		return ret;
	ret = trace_array_set_system_filter_count(f->inst->tr, f->node->system, cmd, &err,
						  &nr_failed);
	log_cmd_err(f->inst, &err, cmd, nr_failed);
	free(cmd);
	/* The system has no event left. */
	if (ret == -ENOENT)
		ret = -ENODEV;
	return ret ? ret : (ssize_t)size;
}

/* The kernel's help ("### global filter ###"). */
static int sys_filter_show(struct tfs_file *f, struct seq_buf *b)
{
	struct trace_seq *s = seq_new();

	if (!s)
		return -ENOMEM;
	trace_array_print_system_filter(f->inst->tr, f->node->system, s);
	seq_to_buf(b, s);
	free(s);
	return 0;
}

static const struct tfs_fops sys_filter_fops = {
	.mode	= 0640,
	.show	= sys_filter_show,
	.write	= sys_filter_write,
};

/*
 * The trigger file: "CMD[:ARGS][:N] [if FILTER]" sets a trigger, "!CMD"
 * removes one.  A bad command is refused with nothing changed; the kernel
 * logs only hist's errors (the message says which part), and so do we.
 * An empty write changes nothing and succeeds, as the kernel's.
 */
static ssize_t event_trigger_write(struct tfs_file *f, const char *buf, size_t size)
{
	struct trace_event_call *call;
	struct trace_err err;
	char *cmd;
	int ret;

	if (!size)
		return 0;
	ret = cmd_get(buf, size, &cmd);
	if (ret)
		return ret;
	call = call_find(f->node->system, f->node->event);
	ret = call ? trace_array_set_trigger(f->inst->tr, call, cmd, &err) : -ENODEV;
	/* Its caret counts from the command without the white space around. */
	if (ret && call)
		log_cmd_err(f->inst, &err, tfs_strstrip(cmd), 1);
	free(cmd);
	return ret ? ret : (ssize_t)size;
}

/* The triggers set, one a line, or the help listing the commands. */
static int event_trigger_show(struct tfs_file *f, struct seq_buf *b)
{
	return event_seq_show(f, b, trace_array_print_triggers);
}

static int triggers_truncate(struct trace_event_call *call, void *arg)
{
	trace_array_trigger_truncate(arg, call);
	return 0;
}

/* O_TRUNC: the hist triggers go (and enable_hist, disable_hist), the others stay. */
static void event_trigger_trunc(struct tfs_node *node)
{
	with_call(node->system, node->event, triggers_truncate, node->inst->tr);
}

static const struct tfs_fops event_trigger_fops = {
	.mode	= 0640,
	.show	= event_trigger_show,
	.write	= event_trigger_write,
	.trunc	= event_trigger_trunc,
};

static int hist_get(struct trace_event_call *call, void *arg)
{
	struct list_ctx *ctx = arg;
	size_t len;
	char *text = trace_array_hist_text(ctx->tr, call, &len);

	if (!text)
		return -ENOMEM;
	seq_buf_grow_putmem(ctx->b, text, len);
	free(text);
	return 0;
}

/* The histograms of the event's hist triggers; empty without one. */
static int event_hist_show(struct tfs_file *f, struct seq_buf *b)
{
	struct list_ctx ctx = { .tr = f->inst->tr, .b = b };

	return with_call(f->node->system, f->node->event, hist_get, &ctx);
}

static const struct tfs_fops event_hist_fops = {
	.mode	= 0440,
	.show	= event_hist_show,
};

/* ------------------------------------------------------------------
 * format, id, header_page, header_event
 */

static int format_get(struct trace_event_call *call, void *arg)
{
	struct seq_buf *b = arg;
	int len = trace_event_format(call, NULL, 0);
	char *text;

	if (len < 0)
		return len;
	text = malloc((size_t)len + 1);
	if (!text)
		return -ENOMEM;
	trace_event_format(call, text, (size_t)len + 1);
	seq_buf_grow_putmem(b, text, (size_t)len);
	free(text);
	return 0;
}

static int event_format_show(struct tfs_file *f, struct seq_buf *b)
{
	return with_call(f->node->system, f->node->event, format_get, b);
}

static const struct tfs_fops event_format_fops = {
	.mode	= 0440,
	.show	= event_format_show,
};

static int id_get(struct trace_event_call *call, void *arg)
{
	seq_buf_grow_printf(arg, "%d\n", call->id);
	return 0;
}

static int event_id_show(struct tfs_file *f, struct seq_buf *b)
{
	return with_call(f->node->system, f->node->event, id_get, b);
}

static const struct tfs_fops event_id_fops = {
	.mode	= 0440,
	.show	= event_id_show,
};

static int header_show(struct seq_buf *b, int (*print)(char *buf, size_t size))
{
	char text[1024];
	int len = print(text, sizeof(text));

	if (len < 0 || (size_t)len >= sizeof(text))
		return -EIO;
	seq_buf_grow_putmem(b, text, (size_t)len);
	return 0;
}

static int header_page_show(struct tfs_file *f, struct seq_buf *b)
{
	(void)f;
	return header_show(b, ring_buffer_print_page_header);
}

static int header_event_show(struct tfs_file *f, struct seq_buf *b)
{
	(void)f;
	return header_show(b, ring_buffer_print_entry_header);
}

static const struct tfs_fops header_page_fops = {
	.mode	= 0440,
	.show	= header_page_show,
};

static const struct tfs_fops header_event_fops = {
	.mode	= 0440,
	.show	= header_event_show,
};

/* ------------------------------------------------------------------
 * available_events, set_event
 */

static void available_one(struct trace_event_call *call, void *priv)
{
	if (!call_fixed(call))
		seq_buf_grow_printf(priv, "%s:%s\n", call_system(call), call->name);
}

static int available_events_show(struct tfs_file *f, struct seq_buf *b)
{
	(void)f;
	trace_for_each_event_call(available_one, b);
	return 0;
}

const struct tfs_fops tfs_fops_available_events = {
	.mode	= 0440,
	.show	= available_events_show,
};

/* As the engine's trace_array_print_set_event(), without its 4 KiB limit. */
static void set_event_one(struct trace_event_call *call, void *priv)
{
	struct list_ctx *ctx = priv;
	int state;

	if (call_fixed(call))
		return;
	state = trace_array_event_state(ctx->tr, call);
	if (state == TRACE_EVENT_ENABLED || state == TRACE_EVENT_SOFT_ENABLED)
		seq_buf_grow_printf(ctx->b, "%s:%s\n", call_system(call), call->name);
}

static int set_event_show(struct tfs_file *f, struct seq_buf *b)
{
	struct list_ctx ctx = { .tr = f->inst->tr, .b = b };

	trace_for_each_event_call(set_event_one, &ctx);
	return 0;
}

/* A bare name matches a system or an event: -EINVAL only when neither. */
static int set_clr_either(struct trace_array *tr, const char *match, int set)
{
	int by_sys = trace_array_set_clr_event(tr, match, NULL, set);
	int by_event = trace_array_set_clr_event(tr, NULL, match, set);

	if (by_sys && by_sys != -EINVAL)
		return by_sys;
	if (by_event && by_event != -EINVAL)
		return by_event;
	return by_sys && by_event ? -EINVAL : 0;
}

/*
 * One word of set_event: "SYS:EVENT", "SYS:" or "SYS:*", ":EVENT" or
 * "*:EVENT", "NAME" (a system or an event), each with a leading '!' to
 * disable.
 */
static int set_event_word(struct trace_array *tr, char *word)
{
	int set = *word != '!';
	char *sys = word + !set, *colon = strchr(sys, ':'), *event;

	if (!colon)
		return set_clr_either(tr, sys, set);
	*colon = '\0';
	event = colon + 1;
	return trace_array_set_clr_event(tr, *sys && strcmp(sys, "*") ? sys : NULL,
					 *event && strcmp(event, "*") ? event : NULL, set);
}

/*
 * One word per write(2), as the kernel's: the white space before it, the
 * word and the byte that ends it are taken, and the return says how many
 * bytes that was; a writer (echo, cat) writes the rest again.  A word
 * that a piece of the write ends in goes on in the next piece; after the
 * word, the write's further pieces take nothing (0), so that the write
 * returns what the kernel's does.
 */
static ssize_t set_event_write_piece(struct tfs_file *f, const char *buf, size_t size,
				     unsigned int piece)
{
	struct tfs_parser *p = &f->parser;
	ssize_t n;
	int err;

	if (!(piece & TFS_PIECE_CONT)) {
		tfs_parser_clear(p);
		p->done = false;
	} else if (p->done) {
		return 0;
	}
	if (!size)
		return 0;
	n = tfs_parser_get(p, buf, size);
	if (n < 0)
		return n;
	/* White space to the end, or a word that goes on: the next piece. */
	if ((piece & TFS_PIECE_MORE) && (size_t)n == size && buf[n - 1] &&
	    (p->cont || !tfs_parser_loaded(p)))
		return n;
	p->done = true;
	if (!tfs_parser_loaded(p))
		return n;
	err = set_event_word(f->inst->tr, p->buffer);
	tfs_parser_clear(p);
	return err ? err : n;
}

/* The write's last piece ended in the middle of a word: that is the word. */
static int set_event_write_end(struct tfs_file *f)
{
	struct tfs_parser *p = &f->parser;
	int err = 0;

	if (!p->done && tfs_parser_loaded(p))
		err = set_event_word(f->inst->tr, p->buffer);
	tfs_parser_clear(p);
	p->done = true;
	return err;
}

/* O_TRUNC: every event of the instance off ("echo x > set_event"). */
static void set_event_trunc(struct tfs_node *node)
{
	trace_array_set_clr_event(node->inst->tr, NULL, NULL, 0);
}

const struct tfs_fops tfs_fops_set_event = {
	.mode	= 0640,
	.show	= set_event_show,
	.write_piece = set_event_write_piece,
	.write_end = set_event_write_end,
	.trunc	= set_event_trunc,
};
