// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Event triggers: the trigger files of Documentation/trace/events.rst
 * section 6, with the kernel's commands, syntax, texts and errnos.
 *
 *	echo 'traceoff:3 if v > 10' > events/sys/ev/trigger
 *	echo '!traceoff' > events/sys/ev/trigger
 *
 * A trigger runs in the thread that fires the event, from the probe, at
 * one of three points (the kernel's):
 *
 *   trace_triggers_pre()          before anything is reserved, when no
 *                                 trigger of the file needs the record
 *                                 (no filter, no post trigger, no hist);
 *   trace_triggers_post()         with the record, before the commit and
 *                                 before the event's own filter;
 *   trace_triggers_post_commit()  after the commit: traceoff and
 *                                 stacktrace, whose effect must follow the
 *                                 record in the buffer.
 *
 * The probe never blocks here: trigger lists are immutable arrays read
 * under the tracepoint read lock, counts are decremented with a cmpxchg,
 * tracing is switched with the ring buffer's atomic bit.  trace_stack.c
 * records stack traces, trace_snapshot.c swaps buffers, and
 * trace_events_hist.c keeps histograms, all without locks.
 */
#define __USTRACE_CORE
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ring_buffer.h>
#include <linux/trace_events.h>
#include <linux/tracepoint.h>

#include "../internal.h"
#include "trace_array.h"
#include "trace.h"
#include "trace_filter.h"
#include "trace_trigger.h"

#ifndef noinline
# define noinline	__attribute__((__noinline__))
#endif

/*
 * The files that have triggers, so that an event or an instance that goes
 * away can take its triggers (and the triggers that point at it) along.
 * Under the event mutex.
 */
static struct trace_event_file **trig_files;
static unsigned int nr_trig_files, max_trig_files;

/*
 * The kernel's temp_buffer: where a record goes when its buffer refuses
 * it (recording off, full) and triggers need it.  Made with the first
 * trigger, never freed; nobody reads it.
 */
static struct trace_buffer *temp_buffer;

/**
 * trace_triggers_temp_buffer - the scratch buffer of records for triggers
 *
 * Return: the buffer, or NULL before any trigger was set.
 * Context: the probe.
 */
struct trace_buffer *trace_triggers_temp_buffer(void)
{
	return __atomic_load_n(&temp_buffer, __ATOMIC_ACQUIRE);
}

/* ------------------------------------------------------------------
 * Files
 */

/* @tr's file of @call, if it has one.  Under the event mutex. */
static struct trace_event_file *file_lookup(struct trace_array *tr,
					    struct trace_event_call *call)
{
	return trace_array_file_locked(tr, call, false);
}

/*
 * The file of "system:event" in @tr, in soft mode (made if needed), for
 * the enable_event family: NULL for an unknown event or one that cannot
 * be enabled (the kernel's find_event_file()).  The caller owns one soft
 * mode reference.  Under the event mutex.
 */
struct trace_event_file *trigger_find_file(struct trace_array *tr, const char *system,
					   const char *event)
{
	struct trace_event_call *call = trace_find_event_call(system, event);

	if (!call || (call->flags & TRACE_EVENT_FL_IGNORE_ENABLE) || !call->priv)
		return NULL;
	if (trace_array_soft_mode(tr, call, 1))
		return NULL;
	return file_lookup(tr, call);
}

static int trig_files_add(struct trace_event_file *file)
{
	struct trace_event_file **arr;

	if (nr_trig_files == max_trig_files) {
		unsigned int max = max_trig_files ? 2 * max_trig_files : 16;

		arr = realloc(trig_files, max * sizeof(*arr));
		if (!arr)
			return -ENOMEM;
		trig_files = arr;
		max_trig_files = max;
	}
	trig_files[nr_trig_files++] = file;
	return 0;
}

static void trig_files_del(struct trace_event_file *file)
{
	for (unsigned int i = 0; i < nr_trig_files; i++) {
		if (trig_files[i] == file) {
			trig_files[i] = trig_files[--nr_trig_files];
			return;
		}
	}
}

/* ------------------------------------------------------------------
 * Trigger objects and lists
 */

struct event_trigger *trigger_alloc(const struct event_command *cmd,
				    struct trace_event_file *file, void *data)
{
	struct event_trigger *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->cmd = cmd;
	t->file = file;
	t->count = -1;
	t->data = data;
	return t;
}

/* Free a trigger no probe can be running any more. */
void trigger_free(struct event_trigger *t)
{
	if (!t)
		return;
	if (t->cmd->free)
		t->cmd->free(t);
	if (t->filter)
		event_filter_free(t->filter);
	free(t->filter_str);
	free(t);
}

struct event_trigger_list *trigger_list(struct trace_event_file *file)
{
	return file ? __atomic_load_n(&file->triggers, __ATOMIC_ACQUIRE) : NULL;
}

/*
 * TRIGGER_COND: some trigger needs the record (a filter, a post trigger,
 * hist), so all of them run with it (the kernel's update_cond_flag()).
 */
static void update_flags(struct trace_event_file *file, const struct event_trigger_list *l)
{
	bool cond = false;

	for (unsigned int i = 0; l && i < l->nr; i++)
		if (l->t[i]->filter || (l->t[i]->cmd->flags &
					(EVENT_CMD_FL_POST_TRIGGER | EVENT_CMD_FL_NEEDS_REC)))
			cond = true;
	trace_file_set_flag(file, EVENT_FILE_FL_TRIGGER_COND, cond);
	trace_file_set_flag(file, EVENT_FILE_FL_TRIGGER_MODE, l && l->nr);
}

/*
 * Publish @nl as @file's triggers; the old list is returned, to free once
 * no probe can be reading it.
 */
static struct event_trigger_list *publish(struct trace_event_file *file,
					  struct event_trigger_list *nl)
{
	struct event_trigger_list *old = file->triggers;

	/* Pairs with the acquire in trigger_list(): the triggers are set up. */
	__atomic_store_n(&file->triggers, nl, __ATOMIC_RELEASE);
	update_flags(file, nl);
	return old;
}

static struct event_trigger_list *list_alloc(unsigned int nr)
{
	struct event_trigger_list *l = malloc(sizeof(*l) + nr * sizeof(l->t[0]));

	if (l)
		l->nr = nr;
	return l;
}

/*
 * Add @t to its file: at the head, as the kernel's list_add_rcu(), or at
 * the tail for hist (list_add_tail_rcu()).  The first trigger of a file
 * puts its event in soft mode, so that the probe runs even when the event
 * is not enabled.  Return: 0, -ENOMEM, or the soft mode's error.
 * Context: the event mutex.
 */
int trigger_register(struct event_trigger *t, bool tail)
{
	struct trace_event_file *file = t->file;
	struct event_trigger_list *old = trigger_list(file), *nl;
	unsigned int n = old ? old->nr : 0, j = 0;
	int err;

	if (!temp_buffer) {
		struct trace_buffer *b = ring_buffer_alloc(1, RB_FL_OVERWRITE);

		if (!b)
			return -ENOMEM;
		/* Pairs with the acquire in trace_triggers_temp_buffer(). */
		__atomic_store_n(&temp_buffer, b, __ATOMIC_RELEASE);
	}
	if (!n) {
		err = trace_array_soft_mode(file->tr, file->event_call, 1);
		if (err)
			return err;
		err = trig_files_add(file);
		if (err) {
			trace_array_soft_mode(file->tr, file->event_call, 0);
			return err;
		}
	}
	nl = list_alloc(n + 1);
	if (!nl) {
		if (!n) {
			trig_files_del(file);
			trace_array_soft_mode(file->tr, file->event_call, 0);
		}
		return -ENOMEM;
	}
	if (!tail)
		nl->t[j++] = t;
	for (unsigned int i = 0; i < n; i++)
		nl->t[j++] = old->t[i];
	if (tail)
		nl->t[j++] = t;
	publish(file, nl);
	if (old) {
		tracepoint_synchronize_unregister();
		free(old);
	}
	return 0;
}

/*
 * Take @t off its file and free it, once no probe can be running it.
 * Context: the event mutex.
 */
void trigger_unregister(struct event_trigger *t)
{
	struct trace_event_file *file = t->file;
	struct event_trigger_list *old = trigger_list(file), *nl = NULL;
	unsigned int n = old ? old->nr : 0, j = 0;

	if (n > 1) {
		nl = list_alloc(n - 1);
		/*
		 * Without memory, stop the trigger in place: paused triggers
		 * do not run, and it is freed with the file.
		 */
		if (!nl) {
			__atomic_store_n(&t->paused, 1, __ATOMIC_RELAXED);
			return;
		}
		for (unsigned int i = 0; i < n; i++)
			if (old->t[i] != t)
				nl->t[j++] = old->t[i];
		nl->nr = j;
	}
	publish(file, nl);
	tracepoint_synchronize_unregister();
	free(old);
	trigger_free(t);
	if (!nl) {
		trig_files_del(file);
		trace_array_soft_mode(file->tr, file->event_call, 0);
	}
}

/* Remove every trigger of @file that @match accepts (all: NULL). */
static void unregister_matching(struct trace_event_file *file,
				bool (*match)(struct event_trigger *t, void *arg), void *arg)
{
	struct event_trigger_list *l;
	unsigned int i = 0;

	while ((l = trigger_list(file)) && i < l->nr) {
		if (!match || match(l->t[i], arg))
			trigger_unregister(l->t[i]);
		else
			i++;
	}
}

/* ------------------------------------------------------------------
 * Counts and filters
 */

/*
 * May a counted trigger act once more?  Takes one from its count (the
 * kernel's data->count--, made safe for threads that race).
 */
bool trigger_take_count(struct event_trigger *t)
{
	long c = __atomic_load_n(&t->count, __ATOMIC_RELAXED);

	do {
		if (!c)
			return false;
		if (c == -1)
			return true;
	} while (!__atomic_compare_exchange_n(&t->count, &c, c - 1, true,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return true;
}

/* ":unlimited" or ":count=N", then " if FILTER" and the newline. */
void trigger_print_count(struct trace_seq *s, const struct event_trigger *t)
{
	long count = __atomic_load_n(&t->count, __ATOMIC_RELAXED);

	if (count == -1)
		trace_seq_puts(s, ":unlimited");
	else
		trace_seq_printf(s, ":count=%ld", count);
	if (t->filter_str)
		trace_seq_printf(s, " if %s\n", t->filter_str);
	else
		trace_seq_putc(s, '\n');
}

/*
 * The kernel's kstrtoul(s, 0): decimal, 0x hex or 0 octal, an optional
 * '+', one trailing newline.  Return: 0, -EINVAL, -ERANGE.
 */
static int parse_ulong(const char *s, unsigned long *res)
{
	unsigned long v = 0, base = 10;
	bool digits = false;

	if (*s == '+')
		s++;
	if (s[0] == '0' && tolower((unsigned char)s[1]) == 'x' &&
	    isxdigit((unsigned char)s[2])) {
		base = 16;
		s += 2;
	} else if (s[0] == '0') {
		base = 8;
	}
	for (;; s++) {
		unsigned int d;

		if (isdigit((unsigned char)*s))
			d = (unsigned int)(*s - '0');
		else if (isxdigit((unsigned char)*s))
			d = (unsigned int)(tolower((unsigned char)*s) - 'a' + 10);
		else
			break;
		if (d >= base)
			break;
		if (v > (~0ul - d) / base)
			return -ERANGE;
		v = v * base + d;
		digits = true;
	}
	if (*s == '\n')
		s++;
	if (!digits || *s)
		return -EINVAL;
	*res = v;
	return 0;
}

/* The kernel's event_trigger_parse_num(): "N[:...]" sets the count. */
static int parse_num(char *param, struct event_trigger *t)
{
	unsigned long n;
	char *number;
	int err;

	if (!param)
		return 0;
	number = strsep(&param, ":");
	if (!*number)
		return -EINVAL;
	err = parse_ulong(number, &n);
	if (!err)
		t->count = (long)n;
	return err;
}

/*
 * "if FILTER": compiled for the triggering event, errors not logged (the
 * kernel's set_trigger_filter() with set_str false).  The text kept is
 * what follows "if" and one separator, spaces and all.
 */
int trigger_set_filter(struct trigger_parse *p, struct event_trigger *t, char *filter)
{
	struct event_filter *f;
	char *s;

	if (!filter)
		return 0;
	s = strsep(&filter, " \t");
	if (strcmp(s, "if") || !filter)
		return -EINVAL;
	if (p->pre_expr && !strcmp(p->pre_expr, filter)) {
		/* Compiled before the event mutex: see struct trigger_parse. */
		f = p->pre_filter;
		p->pre_filter = NULL;
		if (!f)
			return -p->pre_errno;
	} else {
		errno = EINVAL;
		f = event_filter_compile(t->file->event_call, filter, NULL, NULL);
		if (!f)
			return errno ? -errno : -EINVAL;
	}
	t->filter_str = strdup(filter);
	if (!t->filter_str) {
		event_filter_free(f);
		return -ENOMEM;
	}
	t->filter = f;
	return 0;
}

/*
 * The kernel's event_trigger_separate_filter(): "[N] [if FILTER]" into
 * the parameter and the filter; without a required parameter, text that
 * does not start with a digit is all filter.
 */
static int separate_filter(char *param_and_filter, char **param, char **filter,
			   bool param_required)
{
	*param = *filter = NULL;
	if (!param_and_filter)
		return param_required ? -EINVAL : 0;
	if (!param_required && !isdigit((unsigned char)param_and_filter[0])) {
		*filter = param_and_filter;
		return 0;
	}
	*param = strsep(&param_and_filter, " \t");
	if (param_and_filter) {
		*filter = skip_spaces(param_and_filter);
		if (!**filter)
			*filter = NULL;
	}
	return 0;
}

/* Log a refused command (hist's errors; the others log nothing). */
void trigger_err(struct trigger_parse *p, const char *loc, const char *msg,
		 unsigned int pos)
{
	if (!p->err)
		return;
	p->err->loc = loc;
	snprintf(p->err->msg, sizeof(p->err->msg), "%s", msg);
	p->err->pos = pos;
}

/* ------------------------------------------------------------------
 * Generic commands: traceon, traceoff, snapshot, stacktrace
 */

/* The trigger of @file in @cmd's family (and @t's target), if any. */
static struct event_trigger *find_same(struct trace_event_file *file,
				       const struct event_trigger *t)
{
	struct event_trigger_list *l = trigger_list(file);

	for (unsigned int i = 0; l && i < l->nr; i++)
		if (l->t[i]->cmd->type == t->cmd->type &&
		    (!t->cmd->same || t->cmd->same(l->t[i], t)))
			return l->t[i];
	return NULL;
}

/*
 * The kernel's event_trigger_parse(): "CMD[:N] [if FILTER]", "!CMD..."
 * removes the trigger of the family, whatever its count and filter.
 */
static int generic_parse(const struct event_command *cmd, struct trigger_parse *p)
{
	struct event_trigger *t, *old;
	char *param, *filter;
	int err;

	err = separate_filter(p->param_and_filter, &param, &filter, false);
	if (err)
		return err;
	if (p->remove) {
		struct event_trigger probe = { .cmd = cmd };

		old = find_same(p->file, &probe);
		if (old)
			trigger_unregister(old);
		return 0;
	}
	t = trigger_alloc(cmd, p->file, NULL);
	if (!t)
		return -ENOMEM;
	err = parse_num(param, t);
	if (!err)
		err = trigger_set_filter(p, t, filter);
	if (!err && cmd->type == ETT_SNAPSHOT) {
		/* As register_snapshot_trigger(): allocated before the check. */
		err = trace_snapshot_alloc_locked(p->file->tr,
						  (struct trace_snapshot **)&t->data);
	}
	if (!err && find_same(p->file, t))
		err = -EEXIST;
	if (!err)
		err = trigger_register(t, false);
	if (err) {
		t->data = NULL;
		trigger_free(t);
	}
	return err;
}

static void generic_print(struct trace_seq *s, const struct event_trigger *t)
{
	trace_seq_puts(s, t->cmd->name);
	trigger_print_count(s, t);
}

static const struct event_command trigger_traceon_cmd;

static void traceonoff_func(struct event_trigger *t, const struct trigger_ctx *ctx)
{
	struct trace_array *tr = t->file->tr;
	bool on = t->cmd == &trigger_traceon_cmd;

	(void)ctx;
	/* Counts only go down when the state changes, as the kernel's. */
	if (ring_buffer_record_is_set_on(tr->buffer) == on)
		return;
	if (!trigger_take_count(t))
		return;
	trace_array_tracing_switch(tr, on);
}

static void snapshot_func(struct event_trigger *t, const struct trigger_ctx *ctx)
{
	(void)ctx;
	if (trigger_take_count(t))
		trace_snapshot_take(t->data);
}

static void stacktrace_func(struct event_trigger *t, const struct trigger_ctx *ctx)
{
	if (trigger_take_count(t))
		trace_stack_record(t->file->buffer, ctx->ret);
}

/* A command of event_trigger_parse()'s kind: "CMD[:N] [if FILTER]". */
#define GENERIC_CMD(_name, _type, _flags, _func)			\
	{ .name = _name, .type = _type, .flags = _flags, .parse = generic_parse, \
	  .func = _func, .print = generic_print }

static const struct event_command trigger_traceon_cmd =
	GENERIC_CMD("traceon", ETT_TRACE_ONOFF, 0, traceonoff_func);
static const struct event_command trigger_traceoff_cmd =
	GENERIC_CMD("traceoff", ETT_TRACE_ONOFF, EVENT_CMD_FL_POST_TRIGGER, traceonoff_func);
static const struct event_command trigger_snapshot_cmd =
	GENERIC_CMD("snapshot", ETT_SNAPSHOT, 0, snapshot_func);
static const struct event_command trigger_stacktrace_cmd =
	GENERIC_CMD("stacktrace", ETT_STACKTRACE, EVENT_CMD_FL_POST_TRIGGER, stacktrace_func);

/* ------------------------------------------------------------------
 * enable_event, disable_event (and enable_hist, disable_hist)
 */

/* @data of the enable_event family: the target, in soft mode. */
struct enable_data {
	struct trace_event_file	*target;
	bool			enable;
	bool			hist;
};

static bool enable_same(const struct event_trigger *a, const struct event_trigger *b)
{
	const struct enable_data *x = a->data, *y = b->data;

	return x->target == y->target;
}

static void enable_free(struct event_trigger *t)
{
	struct enable_data *ed = t->data;

	if (ed)
		trace_array_soft_mode(ed->target->tr, ed->target->event_call, 0);
	free(ed);
}

static void enable_print(struct trace_seq *s, const struct event_trigger *t)
{
	const struct enable_data *ed = t->data;
	const struct trace_event_call *call = ed->target->event_call;

	trace_seq_printf(s, "%s:%s:%s", t->cmd->name, call->event_class->system, call->name);
	trigger_print_count(s, t);
}

static void enable_func(struct event_trigger *t, const struct trigger_ctx *ctx)
{
	struct enable_data *ed = t->data;
	struct trace_event_file *target = ed->target;
	bool disabled;

	(void)ctx;
	if (ed->hist) {
		if (trigger_take_count(t))
			hist_pause_all(target, !ed->enable);
		return;
	}
	disabled = __atomic_load_n(&target->flags, __ATOMIC_RELAXED) &
		   EVENT_FILE_FL_SOFT_DISABLED;
	/* A counted trigger skips an event already in the state it wants. */
	if (__atomic_load_n(&t->count, __ATOMIC_RELAXED) != -1 && ed->enable == !disabled)
		return;
	if (!trigger_take_count(t))
		return;
	trace_array_soft_disable(target->tr, target->event_call, !ed->enable);
}

/*
 * The kernel's event_enable_trigger_parse(): "enable_event:SYS:EVENT[:N]
 * [if FILTER]"; the target must exist, also to remove.
 */
static int enable_parse(const struct event_command *cmd, struct trigger_parse *p)
{
	struct enable_data *ed;
	struct event_trigger *t, *old;
	char *param, *filter, *system, *event;
	int err;

	if (!p->param_and_filter)
		return -EINVAL;
	err = separate_filter(p->param_and_filter, &param, &filter, true);
	if (err)
		return err;
	system = strsep(&param, ":");
	if (!param)
		return -EINVAL;
	event = strsep(&param, ":");
	ed = calloc(1, sizeof(*ed));
	if (!ed)
		return -ENOMEM;
	ed->target = trigger_find_file(p->file->tr, system, event);
	if (!ed->target) {
		free(ed);
		return -EINVAL;
	}
	ed->enable = !strncmp(cmd->name, "enable", 6);
	ed->hist = cmd->type == ETT_HIST_ENABLE;
	t = trigger_alloc(cmd, p->file, ed);
	if (!t) {
		enable_free(&(struct event_trigger){ .data = ed });
		return -ENOMEM;
	}
	if (p->remove) {
		old = find_same(p->file, t);
		trigger_free(t);
		if (old)
			trigger_unregister(old);
		return 0;
	}
	err = parse_num(param, t);
	if (!err)
		err = trigger_set_filter(p, t, filter);
	if (!err && find_same(p->file, t))
		err = -EEXIST;
	if (!err)
		err = trigger_register(t, false);
	if (err)
		trigger_free(t);
	return err;
}

static bool is_hist_enable(struct event_trigger *t, void *arg)
{
	(void)arg;
	return t->cmd->type == ETT_HIST_ENABLE;
}

static void hist_enable_unreg_all(struct trace_event_file *file)
{
	unregister_matching(file, is_hist_enable, NULL);
}

/* A command of event_enable_trigger_parse()'s kind: "CMD:SYS:EVENT[:N]". */
#define ENABLE_CMD(_name, _type, _unreg_all)				\
	{ .name = _name, .type = _type, .parse = enable_parse, .func = enable_func, \
	  .print = enable_print, .free = enable_free, .same = enable_same,	\
	  .unreg_all = _unreg_all }

static const struct event_command trigger_enable_cmd =
	ENABLE_CMD("enable_event", ETT_EVENT_ENABLE, NULL);
static const struct event_command trigger_disable_cmd =
	ENABLE_CMD("disable_event", ETT_EVENT_ENABLE, NULL);
const struct event_command trigger_hist_enable_cmd =
	ENABLE_CMD("enable_hist", ETT_HIST_ENABLE, hist_enable_unreg_all);
const struct event_command trigger_hist_disable_cmd =
	ENABLE_CMD("disable_hist", ETT_HIST_ENABLE, hist_enable_unreg_all);

/* In the kernel's order of registration, which the help lists. */
static const struct event_command *const trigger_commands[] = {
	&trigger_traceon_cmd,
	&trigger_traceoff_cmd,
	&trigger_snapshot_cmd,
	&trigger_stacktrace_cmd,
	&trigger_enable_cmd,
	&trigger_disable_cmd,
	&trigger_hist_enable_cmd,
	&trigger_hist_disable_cmd,
	&trigger_hist_cmd,
};

#define NR_TRIGGER_COMMANDS	(sizeof(trigger_commands) / sizeof(trigger_commands[0]))

/* ------------------------------------------------------------------
 * The probe's hooks
 */

static inline bool trigger_runs(struct event_trigger *t)
{
	return !__atomic_load_n(&t->paused, __ATOMIC_RELAXED);
}

/**
 * trace_triggers_pre - run the triggers that need no record
 * @file: an event file with EVENT_FILE_FL_TRIGGER_MODE
 *
 * The kernel's trace_trigger_soft_disabled().  When some trigger needs
 * the record, all of them wait for it (trace_triggers_post()) and the
 * event is reserved even when soft disabled: the commit discards it.
 *
 * Return: whether to reserve the record.
 * Context: the probe, under the tracepoint read lock.
 */
bool trace_triggers_pre(struct trace_event_file *file)
{
	struct trigger_ctx ctx = { .ret = __builtin_return_address(0) };
	struct event_trigger_list *l;

	if (__atomic_load_n(&file->flags, __ATOMIC_RELAXED) & EVENT_FILE_FL_TRIGGER_COND)
		return true;
	l = trigger_list(file);
	for (unsigned int i = 0; l && i < l->nr; i++)
		if (trigger_runs(l->t[i]))
			l->t[i]->cmd->func(l->t[i], &ctx);
	return !(__atomic_load_n(&file->flags, __ATOMIC_RELAXED) & EVENT_FILE_FL_SOFT_DISABLED);
}

/**
 * trace_triggers_post - run the triggers with the record
 * @file: an event file with EVENT_FILE_FL_TRIGGER_COND
 * @rec:  the record, committed after this returns
 * @len:  its length
 *
 * The kernel's event_triggers_call() with a record: a trigger whose
 * filter rejects the record does not run; post triggers are left for
 * trace_triggers_post_commit().
 *
 * Return: the ETT_* bits of the post triggers to run after the commit.
 * Context: the probe, under the tracepoint read lock.
 */
noinline unsigned int trace_triggers_post(struct trace_event_file *file, const void *rec,
					  unsigned int len)
{
	struct trigger_ctx ctx = { rec, len, __builtin_return_address(0) };
	struct event_trigger_list *l = trigger_list(file);
	unsigned int tt = 0;

	for (unsigned int i = 0; l && i < l->nr; i++) {
		struct event_trigger *t = l->t[i];

		if (!trigger_runs(t))
			continue;
		if (t->filter && !event_filter_match(t->filter, rec, len))
			continue;
		if (t->cmd->flags & EVENT_CMD_FL_POST_TRIGGER) {
			tt |= t->cmd->type;
			continue;
		}
		t->cmd->func(t, &ctx);
	}
	return tt;
}

/**
 * trace_triggers_post_commit - run the post triggers after the commit
 * @file: the event file
 * @tt:   what trace_triggers_post() returned
 *
 * Context: the probe, under the tracepoint read lock.
 */
noinline void trace_triggers_post_commit(struct trace_event_file *file, unsigned int tt)
{
	struct trigger_ctx ctx = { .ret = __builtin_return_address(0) };
	struct event_trigger_list *l = trigger_list(file);

	for (unsigned int i = 0; l && i < l->nr; i++)
		if (trigger_runs(l->t[i]) && (l->t[i]->cmd->type & tt))
			l->t[i]->cmd->func(l->t[i], &ctx);
}

/* ------------------------------------------------------------------
 * The trigger file
 */

/* Split @buf as the kernel's trigger_process_regex(); its command, or NULL. */
static const struct event_command *split_command(struct trigger_parse *p, char *buf)
{
	char *command, *next;

	next = buf = skip_spaces(buf);
	command = strsep(&next, ": \t");
	if (next) {
		next = skip_spaces(next);
		if (!*next)
			next = NULL;
	}
	p->glob = command;
	p->remove = command[0] == '!';
	p->cmd = p->remove ? command + 1 : command;
	p->param_and_filter = next;
	for (size_t i = 0; i < NR_TRIGGER_COMMANDS; i++)
		if (!strcmp(trigger_commands[i]->name, p->cmd))
			return trigger_commands[i];
	return NULL;
}

/*
 * Before the event mutex: compile the condition the command will ask
 * for (trigger_set_filter() takes it), and load what stack traces need.
 */
static void prepare_command(struct trigger_parse *p, struct trace_event_call *call,
			    const char *cmd)
{
	struct trigger_parse tmp = { 0 };
	const struct event_command *c;
	char *buf = strdup(cmd), *param, *filter = NULL, *s;
	int err;

	if (!buf)
		return;
	if (strstr(buf, "stacktrace"))
		trace_stack_prepare();
	c = split_command(&tmp, strim(buf));
	if (!c || !tmp.param_and_filter)
		goto out;
	if (c->type == ETT_EVENT_HIST)
		err = hist_split_filter(tmp.param_and_filter, &param, &filter);
	else
		err = separate_filter(tmp.param_and_filter, &param, &filter,
				      c->parse == enable_parse);
	if (err || !filter)
		goto out;
	s = strsep(&filter, " \t");
	if (strcmp(s, "if") || !filter)
		goto out;
	p->pre_expr = strdup(filter);
	if (!p->pre_expr)
		goto out;
	errno = EINVAL;
	p->pre_filter = event_filter_compile(call, filter, NULL, NULL);
	p->pre_errno = p->pre_filter ? 0 : errno ? errno : EINVAL;
out:
	free(buf);
}

/* Under the event mutex. */
static int process_command(struct trigger_parse *p, char *buf)
{
	const struct event_command *c = split_command(p, buf);

	return c ? c->parse(c, p) : -EINVAL;
}

/**
 * trace_array_set_trigger - a write to an event's trigger file
 * @tr:   the instance (NULL: the top level)
 * @call: the event
 * @cmd:  what was written: one command, white space around it ignored
 * @err:  filled when the kernel would log the error (hist), else its
 *        @loc is NULL
 *
 * Return: 0, -EINVAL (bad command: nothing changed), -EEXIST (the family
 * already has a trigger there), -ENOENT (hist :cont or :clear of no
 * trigger), -ERANGE (count too large), -ENOMEM.
 * Context: not a probe; takes the event mutex.
 */
int trace_array_set_trigger(struct trace_array *tr, struct trace_event_call *call,
			    const char *cmd, struct trace_err *err)
{
	struct trigger_parse p = { .err = err };
	char *buf, *text;
	int ret = -EINVAL;

	if (err) {
		err->loc = NULL;
		err->msg[0] = '\0';
		err->pos = 0;
	}
	if (!cmd || !call)
		return -EINVAL;
	buf = strdup(cmd);
	text = strdup(cmd);
	if (!buf || !text) {
		free(buf);
		free(text);
		return -ENOMEM;
	}
	p.text = strim(text);
	prepare_command(&p, call, cmd);
	trace_event_lock();
	p.tr = tr ? tr : trace_array_top_locked();
	if (!p.tr || !trace_event_call_registered(call))
		ret = p.tr ? -ENOENT : -ENOMEM;
	else if ((call->flags & TRACE_EVENT_FL_IGNORE_ENABLE) && !trace_marker_is_print(call))
		ret = -EINVAL;
	else if (!(p.file = trace_array_file_locked(p.tr, call, true)))
		ret = -ENOMEM;
	else
		ret = process_command(&p, strim(buf));
	trace_event_unlock();
	if (p.pre_filter)
		event_filter_free(p.pre_filter);
	free(p.pre_expr);
	free(buf);
	free(text);
	return ret;
}

/**
 * trace_array_print_triggers - the text of an event's trigger file
 *
 * Each trigger on its line, in the kernel's format, or the help naming
 * the commands when the event has none.
 */
void trace_array_print_triggers(struct trace_array *tr, struct trace_event_call *call,
				struct trace_seq *s)
{
	struct event_trigger_list *l;

	trace_event_lock();
	l = trigger_list(file_lookup(tr, call));
	if (!l || !l->nr) {
		trace_seq_puts(s, "# Available triggers:\n#");
		for (size_t i = 0; i < NR_TRIGGER_COMMANDS; i++)
			trace_seq_printf(s, " %s", trigger_commands[i]->name);
		trace_seq_putc(s, '\n');
	}
	for (unsigned int i = 0; l && i < l->nr; i++)
		l->t[i]->cmd->print(s, l->t[i]);
	trace_event_unlock();
}

/**
 * trace_array_trigger_truncate - the trigger file opened with O_TRUNC
 *
 * As the kernel: the hist triggers and the enable_hist/disable_hist
 * triggers go; the others stay.
 */
void trace_array_trigger_truncate(struct trace_array *tr, struct trace_event_call *call)
{
	struct trace_event_file *file;

	trace_event_lock();
	file = file_lookup(tr, call);
	for (size_t i = 0; file && i < NR_TRIGGER_COMMANDS; i++)
		if (trigger_commands[i]->unreg_all)
			trigger_commands[i]->unreg_all(file);
	trace_event_unlock();
}

/* ------------------------------------------------------------------
 * Events and instances that go away
 */

static bool targets(struct event_trigger *t, void *arg)
{
	struct enable_data *ed = t->data;

	return (t->cmd->type == ETT_EVENT_ENABLE || t->cmd->type == ETT_HIST_ENABLE) &&
	       ed->target->event_call == arg;
}

/* Under the event mutex: every trigger on @call, or pointing at it, goes. */
static void forget_call(struct trace_event_call *call, int added)
{
	unsigned int i;

	if (added)
		return;
	for (i = 0; i < nr_trig_files; ) {
		struct trace_event_file *file = trig_files[i];

		if (file->event_call == call)
			unregister_matching(file, NULL, NULL);
		else
			unregister_matching(file, targets, call);
		/* The file left the array when its last trigger went. */
		if (i < nr_trig_files && trig_files[i] == file)
			i++;
	}
}

/**
 * trace_triggers_instance_gone - an instance is being removed
 *
 * Its triggers go, and its snapshot buffer.  Called by
 * trace_array_destroy() once its probes are detached and no probe can
 * be running for it, before its files are freed.
 * Context: takes the event mutex.
 */
void trace_triggers_instance_gone(struct trace_array *tr)
{
	trace_event_lock();
	for (unsigned int i = 0; i < nr_trig_files; ) {
		struct trace_event_file *file = trig_files[i];
		struct event_trigger_list *l;

		if (file->tr != tr) {
			i++;
			continue;
		}
		l = publish(file, NULL);
		trig_files[i] = trig_files[--nr_trig_files];
		for (unsigned int j = 0; l && j < l->nr; j++)
			trigger_free(l->t[j]);
		free(l);
	}
	trace_snapshot_instance_gone(tr);
	trace_event_unlock();
}

__attribute__((__constructor__))
static void trace_triggers_init(void)
{
	if (trace_event_notifier_register(forget_call))
		ustrace_warn_once("ustrace: triggers: no event notifier left\n");
}
