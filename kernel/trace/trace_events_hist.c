// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Hist triggers (Documentation/trace/histogram.rst): a table of the
 * event's hits and sums, keyed by up to three fields, read from the event
 * directory's hist file in the kernel's format; with variables, variable
 * references across events, expressions and actions, the inter-event
 * histograms that measure a latency between two events:
 *
 *	echo 'hist:keys=id:ts0=common_timestamp.usecs' > events/app/req_start/trigger
 *	echo 'hist:keys=id:lat=common_timestamp.usecs-$ts0:'\
 *	     'onmatch(app.req_start).req_latency($lat,id)' > events/app/req_end/trigger
 *
 * trace_events_hist.h names the parts and the terms.  This file has the
 * command: its attributes, the fields it is made of, registration (named
 * histograms, matching, removal), the probe, and the hist file.  The
 * table is tracing_map.c; fields and expressions trace_events_hist_field.c;
 * actions trace_events_hist_action.c.
 *
 * A hit, in the probe (hist_trigger_func()), as the kernel's
 * event_hist_trigger():
 *
 *   1. the key is built on the stack from the key fields;
 *   2. references to other triggers' variables are resolved: the key is
 *      looked up in each variable's table, and a variable not set there
 *      means no match: the hit is not counted at all;
 *   3. the element of the key is found or inserted; sums are added to,
 *      variables and field vars set;
 *   4. references to the trigger's own variables are resolved, and if
 *      all are, the actions run.
 *
 * Nothing there allocates or locks: the table and every string variable's
 * storage are allocated when the trigger is set, the var refs' values are
 * on the stack.
 */
#define __USTRACE_CORE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ring_buffer.h>
#include <linux/trace_clock.h>
#include <linux/trace_events.h>
#include <linux/tracepoint.h>

#include "trace_array.h"
#include "trace_events_hist.h"
#include "trace.h"
#include "trace_filter.h"
#include "trace_trigger.h"

#define C(a, b)		b
static const char *const hist_err_text[] = { HIST_ERRORS };
#undef C

/* Named histograms (name=), and those with variables; under the event mutex. */
static struct hist_data *named_hists;
struct hist_data *hist_vars;

/* ------------------------------------------------------------------
 * Errors
 */

/*
 * The command being parsed, for error_log (the kernel's last_cmd and
 * last_cmd_loc): "hist:" and what follows the command word; where that
 * starts in the text as written.  A trigger made internally (a field
 * var's) logs under the command that asked for it, as in the kernel.
 */
static struct {
	struct trigger_parse	*p;
	char			*last_cmd;
	char			loc[128];
	unsigned int		pf_off;
} hist_ectx;

/* The kernel's err_pos(): where @str first occurs in the command, or 0. */
unsigned int errpos(const char *str)
{
	const char *at;

	if (!str || !hist_ectx.last_cmd)
		return 0;
	at = strstr(hist_ectx.last_cmd, str);
	return at ? (unsigned int)(at - hist_ectx.last_cmd) : 0;
}

/*
 * Log an error, the caret moved from the kernel's command text into the
 * text as written.  When the kernel logs several for one command, the
 * last is kept (see histogram.rst here).
 */
void hist_err(int type, unsigned int pos)
{
	/* The caller reads the location after we return: kept per thread. */
	static __thread char loc[sizeof(hist_ectx.loc)];

	if (!hist_ectx.p || !hist_ectx.last_cmd)
		return;
	if (pos >= 5)
		pos = pos - 5 + hist_ectx.pf_off;
	memcpy(loc, hist_ectx.loc, sizeof(loc));
	trigger_err(hist_ectx.p, loc, hist_err_text[type], pos);
}

/* ------------------------------------------------------------------
 * Looking things up
 */

/* An event file of @tr for hist's purposes: the kernel's find_event_file(). */
struct trace_event_file *hist_find_event_file(struct trace_array *tr, const char *system,
					      const char *event)
{
	struct trace_event_call *call;

	if (!system || !event)
		return NULL;
	call = trace_find_event_call(system, event);
	/* Of the ftrace events, print (trace_marker) takes triggers. */
	if (!call || !call->priv ||
	    ((call->flags & TRACE_EVENT_FL_IGNORE_ENABLE) && !trace_marker_is_print(call)))
		return NULL;
	return trace_array_file_locked(tr, call, true);
}

struct hist_data *hist_file_next(struct trace_event_file *file, struct hist_data *prev)
{
	struct event_trigger_list *l = trigger_list(file);
	bool after = !prev;

	for (unsigned int i = 0; l && i < l->nr; i++) {
		if (l->t[i]->cmd->type != ETT_EVENT_HIST)
			continue;
		if (after)
			return l->t[i]->data;
		after = l->t[i]->data == prev;
	}
	return NULL;
}

char *hist_find_trigger_filter(struct hist_data *hd, struct trace_event_file *file)
{
	struct event_trigger_list *l = trigger_list(file);

	for (unsigned int i = 0; l && i < l->nr; i++)
		if (l->t[i]->cmd->type == ETT_EVENT_HIST && l->t[i]->data == hd)
			return l->t[i]->filter_str;
	return NULL;
}

/* ------------------------------------------------------------------
 * Attributes
 */

static void destroy_hist_trigger_attrs(struct hist_trigger_attrs *attrs)
{
	if (!attrs)
		return;
	for (unsigned int i = 0; i < attrs->n_assignments; i++)
		free(attrs->assignment_str[i]);
	for (unsigned int i = 0; i < attrs->n_actions; i++)
		free(attrs->action_str[i]);
	for (unsigned int i = 0; i < attrs->var_defs.n_vars; i++) {
		free(attrs->var_defs.name[i]);
		free(attrs->var_defs.expr[i]);
	}
	free(attrs->name);
	free(attrs->sort_key_str);
	free(attrs->keys_str);
	free(attrs->vals_str);
	free(attrs->clock);
	free(attrs);
}

/* strtoul(s, 0) as the kernel's kstrtoul(s, 0): all of @s, no sign. */
static int parse_ulong0(const char *s, unsigned long *res)
{
	char *end;

	if (!isdigit((unsigned char)*s) && *s != '+')
		return -EINVAL;
	errno = 0;
	*res = strtoul(s, &end, 0);
	if (*end == '\n')
		end++;
	return errno || end == s || *end ? -EINVAL : 0;
}

/* The kernel's parse_map_size(): a power of two of 128 .. 131072. */
static int parse_map_size(const char *str)
{
	unsigned long size, bits = 0;

	if (parse_ulong0(str, &size) || !size)
		return -EINVAL;
	while ((1ul << bits) < size && bits < 63)
		bits++;
	if (bits < TRACING_MAP_BITS_MIN || bits > TRACING_MAP_BITS_MAX)
		return -EINVAL;
	return (int)bits;
}

static int set_str(char **dst, const char *s)
{
	free(*dst);
	*dst = strdup(s);
	return *dst ? 0 : -ENOMEM;
}

/* The kernel's parse_assignment(): "keys=", "vals=", "sort=", ..., or a variable. */
static int parse_assignment(char *str, struct hist_trigger_attrs *attrs)
{
	static const char *const keys[] = { "key=", "keys=" };
	static const char *const vals[] = { "val=", "vals=", "values=" };
	int bits;

	for (unsigned int i = 0; i < 2; i++)
		if (!strncmp(str, keys[i], strlen(keys[i])))
			return set_str(&attrs->keys_str, str + strlen(keys[i]));
	for (unsigned int i = 0; i < 3; i++)
		if (!strncmp(str, vals[i], strlen(vals[i])))
			return set_str(&attrs->vals_str, str + strlen(vals[i]));
	if (!strncmp(str, "sort=", 5))
		return set_str(&attrs->sort_key_str, str + 5);
	if (!strncmp(str, "name=", 5))
		return set_str(&attrs->name, str);
	if (!strncmp(str, "clock=", 6))
		return set_str(&attrs->clock, strim(str + 6));
	if (!strncmp(str, "size=", 5)) {
		bits = parse_map_size(str + 5);
		if (bits < 0)
			return bits;
		attrs->map_bits = (unsigned int)bits;
		return 0;
	}
	if (attrs->n_assignments == TRACING_MAP_VARS_MAX) {
		hist_err(HIST_ERR_TOO_MANY_VARS, errpos(str));
		return -EINVAL;
	}
	attrs->assignment_str[attrs->n_assignments] = strdup(str);
	if (!attrs->assignment_str[attrs->n_assignments])
		return -ENOMEM;
	attrs->n_assignments++;
	return 0;
}

/* The kernel's parse_action() (of the attributes): a handler's text. */
static int parse_action_attr(char *str, struct hist_trigger_attrs *attrs)
{
	if (attrs->n_actions >= HIST_ACTIONS_MAX)
		return -EINVAL;
	if (strncmp(str, "onmatch(", 8) && strncmp(str, "onmax(", 6) &&
	    strncmp(str, "onchange(", 9))
		return -EINVAL;
	attrs->action_str[attrs->n_actions] = strdup(str);
	if (!attrs->action_str[attrs->n_actions])
		return -ENOMEM;
	attrs->n_actions++;
	return 0;
}

/* The kernel's parse_hist_trigger_attrs(): the ':'-separated words. */
static struct hist_trigger_attrs *parse_hist_trigger_attrs(char *trigger_str, int *errp)
{
	struct hist_trigger_attrs *attrs = calloc(1, sizeof(*attrs));
	int err = 0;

	if (!attrs) {
		*errp = -ENOMEM;
		return NULL;
	}
	while (!err && trigger_str) {
		char *str = strsep(&trigger_str, ":"), *rhs = strchr(str, '=');

		if (rhs) {
			if (!rhs[1]) {
				hist_err(HIST_ERR_EMPTY_ASSIGNMENT, errpos(str));
				err = -EINVAL;
			} else {
				err = parse_assignment(str, attrs);
			}
		} else if (!strcmp(str, "pause")) {
			attrs->pause = true;
		} else if (!strcmp(str, "cont") || !strcmp(str, "continue")) {
			attrs->cont = true;
		} else if (!strcmp(str, "clear")) {
			attrs->clear = true;
		} else {
			err = parse_action_attr(str, attrs);
		}
	}
	if (!err && !attrs->keys_str)
		err = -EINVAL;
	if (!err && !attrs->clock)
		err = set_str(&attrs->clock, "global");
	if (err) {
		destroy_hist_trigger_attrs(attrs);
		*errp = err;
		return NULL;
	}
	return attrs;
}

/* ------------------------------------------------------------------
 * The fields of a histogram
 */

static int create_hitcount_val(struct hist_data *hd)
{
	hd->fields[HITCOUNT_IDX] = create_hist_field(hd, NULL, HIST_FIELD_FL_HITCOUNT, NULL);
	if (!hd->fields[HITCOUNT_IDX])
		return -ENOMEM;
	hd->n_vals++;
	hd->n_fields++;
	return 0;
}

/* The kernel's __create_val_field(): a value, or a variable (@var_name). */
static int create_val_field_at(struct hist_data *hd, unsigned int idx,
			       struct trace_event_file *file, const char *var_name,
			       char *field_str, unsigned long flags)
{
	static const unsigned long var_bad = HIST_FIELD_FL_GRAPH | HIST_FIELD_FL_PERCENT |
					     HIST_FIELD_FL_BUCKET | HIST_FIELD_FL_LOG2;
	static const unsigned long val_bad = HIST_FIELD_FL_BUCKET | HIST_FIELD_FL_LOG2 |
					     HIST_FIELD_FL_SYM | HIST_FIELD_FL_SYM_OFFSET |
					     HIST_FIELD_FL_SYSCALL | HIST_FIELD_FL_STACKTRACE;
	char *copy = strdup(field_str);
	unsigned int n_subexprs = 0;
	struct hist_field *f;
	int err = -ENOMEM;

	if (!copy)
		return err;
	f = parse_expr(hd, file, copy, flags, var_name, &n_subexprs, &err);
	free(copy);
	if (!f)
		return err;
	if (f->flags & (f->flags & HIST_FIELD_FL_VAR ? var_bad : val_bad)) {
		hist_err(HIST_ERR_BAD_FIELD_MODIFIER, errpos(field_str));
		destroy_hist_field(f, 0);
		return -EINVAL;
	}
	/* A sum of string addresses means nothing: refused, as before. */
	if (!(f->flags & HIST_FIELD_FL_VAR) && (f->flags & HIST_FIELD_FL_STRING)) {
		destroy_hist_field(f, 0);
		return -EINVAL;
	}
	hd->fields[idx] = f;
	hd->n_vals++;
	hd->n_fields++;
	return 0;
}

/* The kernel's update_var_execname(): "x=common_pid.execname" is a string. */
static int update_var_execname(struct hist_field *f)
{
	f->flags = HIST_FIELD_FL_STRING | HIST_FIELD_FL_VAR | HIST_FIELD_FL_EXECNAME;
	f->size = STR_VAR_LEN_MAX;
	f->is_signed = false;
	free(f->type);
	f->type = strdup("char[]");
	f->fn_num = HIST_FIELD_FN_EXECNAME;
	return f->type ? 0 : -ENOMEM;
}

/* The kernel's create_var_field(): "name=expr". */
static int create_var_field(struct hist_data *hd, unsigned int idx,
			    struct trace_event_file *file, const char *var_name, char *expr)
{
	struct hist_field *f;
	int err;

	if (find_var(hd, file, var_name) && !hd->remove) {
		hist_err(HIST_ERR_DUPLICATE_VAR, errpos(var_name));
		return -EINVAL;
	}
	if (++hd->n_vars > TRACING_MAP_VARS_MAX)
		return -EINVAL;
	err = create_val_field_at(hd, idx, file, var_name, expr, HIST_FIELD_FL_VAR);
	if (err)
		return err;
	f = hd->fields[idx];
	if ((f->flags & HIST_FIELD_FL_EXECNAME) && update_var_execname(f))
		return -ENOMEM;
	if (f->flags & HIST_FIELD_FL_STRING)
		f->var_str_idx = hd->n_var_str++;
	return 0;
}

/* The kernel's create_val_fields(): hitcount, then at most two more. */
static int create_val_fields(struct hist_data *hd, struct trace_event_file *file)
{
	char *fields_str = hd->attrs->vals_str, *field_str;
	unsigned int i, j = 1;
	int err = create_hitcount_val(hd);

	if (err || !fields_str)
		return err;
	for (i = 0; i < TRACING_MAP_VALS_MAX && j < TRACING_MAP_VALS_MAX; i++) {
		field_str = strsep(&fields_str, ",");
		if (!field_str)
			break;
		if (!strcmp(field_str, "hitcount"))
			continue;
		err = create_val_field_at(hd, j++, file, NULL, field_str, 0);
		if (err)
			return err;
	}
	if (fields_str && strcmp(fields_str, "hitcount"))
		return -EINVAL;
	return 0;
}

/* The kernel's create_key_field(): its size in the compound key, or -errno. */
static int create_key_field(struct hist_data *hd, unsigned int idx, unsigned int offset,
			    struct trace_event_file *file, char *field_str)
{
	unsigned long flags = HIST_FIELD_FL_KEY;
	unsigned int n_subexprs = 0, size;
	struct hist_field *f;
	int err = -ENOMEM;

	if (!strcmp(field_str, "stacktrace")) {
		f = create_hist_field(hd, NULL, flags | HIST_FIELD_FL_STACKTRACE, NULL);
		if (!f)
			return -ENOMEM;
		size = HIST_STACKTRACE_SIZE;
	} else {
		char *copy = strdup(field_str);

		if (!copy)
			return -ENOMEM;
		f = parse_expr(hd, file, copy, flags, NULL, &n_subexprs, &err);
		free(copy);
		if (!f)
			return err;
		if (field_has_hist_vars(f, 0)) {
			hist_err(HIST_ERR_INVALID_REF_KEY, errpos(field_str));
			destroy_hist_field(f, 0);
			return -EINVAL;
		}
		size = f->size;
	}
	hd->fields[idx] = f;
	size = (size + 7) & ~7u;
	f->size = size;
	f->offset = offset;
	hd->key_size += size;
	if (hd->key_size > HIST_KEY_SIZE_MAX)
		return -EINVAL;
	hd->n_keys++;
	hd->n_fields++;
	return (int)size;
}

static int create_key_fields(struct hist_data *hd, struct trace_event_file *file)
{
	char *fields_str = hd->attrs->keys_str, *field_str;
	unsigned int offset = 0, n_vals = hd->n_vals;
	int ret;

	for (unsigned int i = n_vals; i < n_vals + TRACING_MAP_KEYS_MAX; i++) {
		field_str = strsep(&fields_str, ",");
		if (!field_str)
			break;
		ret = create_key_field(hd, i, offset, file, field_str);
		if (ret < 0)
			return ret;
		offset += (unsigned int)ret;
	}
	return fields_str ? -EINVAL : 0;
}

static void free_var_defs(struct hist_data *hd)
{
	struct var_defs *defs = &hd->attrs->var_defs;

	for (unsigned int i = 0; i < defs->n_vars; i++) {
		free(defs->name[i]);
		free(defs->expr[i]);
	}
	defs->n_vars = 0;
}

/* The kernel's parse_var_defs(): "a=x,b=y" of every assignment. */
static int parse_var_defs(struct hist_data *hd)
{
	struct var_defs *defs = &hd->attrs->var_defs;

	for (unsigned int i = 0; i < hd->attrs->n_assignments; i++) {
		char *str = hd->attrs->assignment_str[i];

		for (unsigned int j = 0; j < TRACING_MAP_VARS_MAX; j++) {
			char *field_str = strsep(&str, ","), *var_name;

			if (!field_str)
				break;
			var_name = strsep(&field_str, "=");
			if (!var_name || !field_str) {
				hist_err(HIST_ERR_MALFORMED_ASSIGNMENT, errpos(var_name));
				goto fail;
			}
			if (defs->n_vars == TRACING_MAP_VARS_MAX) {
				hist_err(HIST_ERR_TOO_MANY_VARS, errpos(var_name));
				goto fail;
			}
			defs->name[defs->n_vars] = strdup(var_name);
			defs->expr[defs->n_vars] = strdup(field_str);
			defs->n_vars++;
			if (!defs->name[defs->n_vars - 1] || !defs->expr[defs->n_vars - 1]) {
				free_var_defs(hd);
				return -ENOMEM;
			}
		}
	}
	return 0;
fail:
	free_var_defs(hd);
	return -EINVAL;
}

static int create_hist_fields(struct hist_data *hd, struct trace_event_file *file)
{
	int err = parse_var_defs(hd);

	if (err)
		return err;
	err = create_val_fields(hd, file);
	for (unsigned int i = 0, j = hd->n_vals; !err && i < hd->attrs->var_defs.n_vars; i++)
		err = create_var_field(hd, j++, file, hd->attrs->var_defs.name[i],
				       hd->attrs->var_defs.expr[i]);
	if (!err)
		err = create_key_fields(hd, file);
	free_var_defs(hd);
	return err;
}

static int is_descending(const char *str)
{
	if (!str || !strcmp(str, "ascending"))
		return 0;
	if (!strcmp(str, "descending"))
		return 1;
	hist_err(HIST_ERR_INVALID_SORT_MODIFIER, errpos(str));
	return -EINVAL;
}

/* The kernel's create_sort_keys(): by hitcount unless said otherwise. */
static int create_sort_keys(struct hist_data *hd)
{
	char *fields_str = hd->attrs->sort_key_str;
	unsigned int i, j;
	int desc;

	hd->n_sort_keys = 1;
	if (!fields_str)
		return 0;
	for (i = 0; i < TRACING_MAP_SORT_KEYS_MAX; i++) {
		struct sort_key *sk = &hd->sort_keys[i];
		char *field_str = strsep(&fields_str, ","), *field_name;

		if (!field_str)
			break;
		if (!*field_str || (i == TRACING_MAP_SORT_KEYS_MAX - 1 && fields_str)) {
			hist_err(*field_str ? HIST_ERR_TOO_MANY_SORT_FIELDS :
					      HIST_ERR_EMPTY_SORT_FIELD, errpos("sort="));
			return -EINVAL;
		}
		field_name = strsep(&field_str, ".");
		if (!*field_name) {
			hist_err(HIST_ERR_EMPTY_SORT_FIELD, errpos("sort="));
			return -EINVAL;
		}
		if (!strcmp(field_name, "hitcount")) {
			desc = is_descending(field_str);
			if (desc < 0)
				return desc;
			*sk = (struct sort_key){ HITCOUNT_IDX, desc };
			continue;
		}
		for (j = 1; j < hd->n_fields; j++)
			if (!(hd->fields[j]->flags & HIST_FIELD_FL_VAR) &&
			    !strcmp(field_name, hist_field_name(hd->fields[j], 0)))
				break;
		if (j == hd->n_fields) {
			hist_err(HIST_ERR_INVALID_SORT_FIELD, errpos(field_name));
			return -EINVAL;
		}
		desc = is_descending(field_str);
		if (desc < 0)
			return desc;
		*sk = (struct sort_key){ j, desc };
	}
	hd->n_sort_keys = i;
	return 0;
}

/* The kernel's create_tracing_map_fields(): the variables' indexes. */
static int assign_vars(struct hist_data *hd)
{
	for (unsigned int i = 0; i < hd->n_fields; i++) {
		struct hist_field *f = hd->fields[i];
		int idx;

		if (!(f->flags & HIST_FIELD_FL_VAR))
			continue;
		idx = tracing_map_add_var(hd->map);
		if (idx < 0)
			return idx;
		f->var_idx = (unsigned int)idx;
		f->var_hd = hd;
	}
	return 0;
}

/* ------------------------------------------------------------------
 * The data of a histogram
 */

static void hist_data_put(struct hist_data *hd);

/* Drop the references @hd holds on other triggers' variables. */
static void release_var_refs(struct hist_data *hd)
{
	for (unsigned int i = 0; i < hd->n_var_refs; i++) {
		struct hist_field *ref = hd->var_refs[i];

		if (ref->var_hd && ref->var_hd != hd)
			hist_data_put(ref->var_hd);
		ref->var_hd = NULL;
	}
}

static void destroy_hist_data(struct hist_data *hd)
{
	if (!hd)
		return;
	release_var_refs(hd);
	destroy_actions(hd);
	destroy_field_vars(hd);
	destroy_field_var_hists(hd);
	for (unsigned int i = 0; i < HIST_FIELDS_MAX; i++)
		destroy_hist_field(hd->fields[i], 0);
	for (unsigned int i = 0; i < hd->n_var_refs; i++) {
		struct hist_field *ref = hd->var_refs[i];

		ref->flags &= ~HIST_FIELD_FL_VAR_REF;	/* so that it is freed */
		destroy_hist_field(ref, 0);
	}
	tracing_map_destroy(hd->map);
	destroy_hist_trigger_attrs(hd->attrs);
	free(hd);
}

/* A trigger whose variables were referenced went; the last reference frees it. */
static void hist_data_put(struct hist_data *hd)
{
	if (--hd->var_users == 0 && hd->detached)
		destroy_hist_data(hd);
}

static bool any_field(struct hist_data *hd, unsigned long flag)
{
	for (unsigned int i = 0; i < hd->n_fields; i++)
		if (hd->fields[i]->flags & flag)
			return true;
	for (unsigned int i = 0; i < hd->n_field_vars; i++)
		if (hd->field_vars[i]->val->flags & flag)
			return true;
	for (unsigned int i = 0; i < hd->n_save_vars; i++)
		if (hd->save_vars[i]->val->flags & flag)
			return true;
	return false;
}

/* The kernel's create_hist_data(): the definition and its table's shape. */
static struct hist_data *create_hist_data(unsigned int map_bits,
					  struct hist_trigger_attrs *attrs,
					  struct trace_event_file *file, bool remove, int *errp)
{
	struct hist_data *hd = calloc(1, sizeof(*hd));
	int err;

	if (!hd) {
		destroy_hist_trigger_attrs(attrs);
		*errp = -ENOMEM;
		return NULL;
	}
	hd->attrs = attrs;
	hd->remove = remove;
	hd->event_file = file;
	err = parse_actions(hd);
	if (!err)
		err = create_hist_fields(hd, file);
	if (!err)
		err = create_sort_keys(hd);
	if (!err) {
		hd->map = tracing_map_create(map_bits, hd->key_size);
		err = hd->map ? assign_vars(hd) : -ENOMEM;
	}
	if (err) {
		destroy_hist_data(hd);
		*errp = err;
		return NULL;
	}
	return hd;
}

/* Allocate the table, once the actions added their variables. */
static int hist_map_init(struct hist_data *hd)
{
	hd->has_comm = any_field(hd, HIST_FIELD_FL_EXECNAME);
	return tracing_map_init(hd->map, hd->n_vals,
				hd->n_field_var_str + hd->n_save_var_str + hd->n_var_str,
				hd->has_comm);
}

static bool has_hist_vars(struct hist_data *hd)
{
	for (unsigned int i = 0; i < hd->n_fields; i++)
		if (field_has_hist_vars(hd->fields[i], 0))
			return true;
	return false;
}

static void save_hist_vars(struct hist_data *hd)
{
	if (hd->in_hist_vars)
		return;
	hd->next_var = hist_vars;
	hist_vars = hd;
	hd->in_hist_vars = true;
}

static void remove_hist_vars(struct hist_data *hd)
{
	if (!hd->in_hist_vars)
		return;
	for (struct hist_data **pp = &hist_vars; *pp; pp = &(*pp)->next_var) {
		if (*pp == hd) {
			*pp = hd->next_var;
			break;
		}
	}
	hd->in_hist_vars = false;
}

/* ------------------------------------------------------------------
 * The probe
 */

/*
 * The kernel's resolve_var_refs(): the values of other triggers'
 * variables, or (@self_elt, the hit's element) of the trigger's own.
 */
static bool resolve_var_refs(struct hist_data *hd, const void *key, uint64_t *vals,
			     unsigned char *self_elt)
{
	bool self = self_elt != NULL;

	for (unsigned int i = 0; i < hd->n_var_refs; i++) {
		struct hist_field *ref = hd->var_refs[i];
		struct hist_data *var_hd = ref->var_hd;
		unsigned char *var_elt;

		if (!var_hd)
			return false;
		if (self != (var_hd == hd))
			continue;
		/* A table being cleared is no one's to read (see hist_clear()). */
		if (__atomic_load_n(&var_hd->detached, __ATOMIC_RELAXED) ||
		    __atomic_load_n(&var_hd->clearing, __ATOMIC_ACQUIRE))
			return false;
		/* The own table's element of the key is the hit's. */
		var_elt = self ? self_elt : tracing_map_lookup(var_hd->map, key);
		if (!var_elt)
			return false;
		if (self || !ref->read_once) {
			if (!tracing_map_var_set(var_hd->map, var_elt, ref->var_idx))
				return false;
			vals[i] = tracing_map_read_var(var_hd->map, var_elt, ref->var_idx);
		} else if (!tracing_map_read_var_once(var_hd->map, var_elt, ref->var_idx,
						      &vals[i])) {
			return false;
		}
	}
	return true;
}

/* The kernel's hist_trigger_elt_update(): sums, variables, field vars. */
static void hist_elt_update(struct hist_data *hd, struct hist_ctx *ctx)
{
	struct tracing_map *map = hd->map;

	for (unsigned int i = 0; i < hd->n_vals; i++) {
		struct hist_field *f = hd->fields[i];
		uint64_t v;

		if (!(f->flags & HIST_FIELD_FL_VAR)) {
			tracing_map_update_sum(ctx->elt, i, f->fn_num == HIST_FIELD_FN_COUNTER ? 1 :
							     hist_fn_call(f, ctx));
			continue;
		}
		if (f->flags & HIST_FIELD_FL_STRING) {
			char *str = tracing_map_str(map, ctx->elt, hd->n_field_var_str +
						    hd->n_save_var_str + f->var_str_idx);
			unsigned int size = f->size < STR_VAR_LEN_MAX ? f->size : STR_VAR_LEN_MAX;

			memset(str, 0, size);
			hist_copy_str(str, size, f, ctx);
			v = (uint64_t)(uintptr_t)str;
		} else {
			v = hist_fn_call(f, ctx);
		}
		tracing_map_set_var(map, ctx->elt, f->var_idx, v);
	}
	update_field_vars(hd, ctx);
}

/* The compound key of the hit (the kernel's add_to_key() for each key). */
static void hist_build_key(struct hist_data *hd, struct hist_ctx *ctx, unsigned char *key)
{
	unsigned long stack[HIST_STACKTRACE_DEPTH];
	uint64_t v;

	for (unsigned int i = hd->n_vals; i < hd->n_fields; i++) {
		const struct hist_field *f = hd->fields[i];

		if (f->flags & HIST_FIELD_FL_STACKTRACE) {
			memset(stack, 0, sizeof(stack));
			trace_stack_capture(stack, HIST_STACKTRACE_DEPTH, ctx->ret);
			memcpy(key + f->offset, stack, sizeof(stack));
		} else if (f->flags & HIST_FIELD_FL_STRING) {
			hist_copy_str((char *)key + f->offset, f->size, f, ctx);
		} else {
			v = hist_fn_call(f, ctx);
			memcpy(key + f->offset, &v, sizeof(v));
		}
	}
}

static void hist_trigger_func(struct event_trigger *t, const struct trigger_ctx *tctx)
{
	struct hist_data *hd = t->data;
	struct hist_ctx ctx = {
		.hist_data = hd, .file = t->file, .rec = tctx->rec, .len = tctx->len,
		.ret = tctx->ret,
	};
	union {
		unsigned char	bytes[HIST_KEY_SIZE_MAX];
		uint64_t	align;
	} key;
	uint64_t var_ref_vals[TRACING_MAP_VARS_MAX];

	if (!ctx.rec || __atomic_load_n(&hd->clearing, __ATOMIC_ACQUIRE))
		return;
	/* Zeroed as far as any table the key is looked up in reads. */
	memset(key.bytes, 0, hd->key_zero);
	hist_build_key(hd, &ctx, key.bytes);
	if (hd->n_var_refs && !resolve_var_refs(hd, key.bytes, var_ref_vals, NULL))
		return;
	ctx.var_ref_vals = var_ref_vals;
	ctx.elt = tracing_map_insert(hd->map, key.bytes);
	if (!ctx.elt)
		return;
	hist_elt_update(hd, &ctx);
	if (hd->n_actions && resolve_var_refs(hd, key.bytes, var_ref_vals, ctx.elt))
		hist_trigger_actions(hd, &ctx, key.bytes, var_ref_vals);
}

/* ------------------------------------------------------------------
 * The trigger's text
 */

/* The kernel's event_hist_trigger_print(): in the trigger file, the hist file's header. */
static void hist_print_trigger(struct seq_buf *b, const struct event_trigger *t)
{
	struct hist_data *hd = t->data;
	bool have_var = false;
	unsigned int i, n = 0;

	seq_buf_grow_puts(b, "hist:");
	if (hd->attrs->name)
		seq_buf_grow_printf(b, "%s:", hd->attrs->name);
	seq_buf_grow_puts(b, "keys=");
	for (i = hd->n_vals; i < hd->n_fields; i++) {
		if (i > hd->n_vals)
			seq_buf_grow_puts(b, ",");
		if (hd->fields[i]->flags & HIST_FIELD_FL_STACKTRACE)
			seq_buf_grow_puts(b, "stacktrace");
		else
			hist_field_print(b, hd->fields[i]);
	}
	seq_buf_grow_puts(b, ":vals=");
	for (i = 0; i < hd->n_vals; i++) {
		if (hd->fields[i]->flags & HIST_FIELD_FL_VAR) {
			have_var = true;
		} else if (i == HITCOUNT_IDX) {
			seq_buf_grow_puts(b, "hitcount");
		} else {
			seq_buf_grow_puts(b, ",");
			hist_field_print(b, hd->fields[i]);
		}
	}
	if (have_var) {
		seq_buf_grow_puts(b, ":");
		for (i = 0; i < hd->n_vals; i++) {
			if (!(hd->fields[i]->flags & HIST_FIELD_FL_VAR))
				continue;
			if (n++)
				seq_buf_grow_puts(b, ",");
			hist_field_print(b, hd->fields[i]);
		}
	}
	seq_buf_grow_puts(b, ":sort=");
	for (i = 0; i < hd->n_sort_keys; i++) {
		if (i)
			seq_buf_grow_puts(b, ",");
		if (hd->sort_keys[i].field_idx == HITCOUNT_IDX)
			seq_buf_grow_puts(b, "hitcount");
		else
			hist_field_print(b, hd->fields[hd->sort_keys[i].field_idx]);
		if (hd->sort_keys[i].descending)
			seq_buf_grow_puts(b, ".descending");
	}
	seq_buf_grow_printf(b, ":size=%u", 1u << hd->map->map_bits);
	if (hd->enable_timestamps)
		seq_buf_grow_printf(b, ":clock=%s", hd->attrs->clock);
	print_actions_spec(b, hd);
	if (t->filter_str)
		seq_buf_grow_printf(b, " if %s", t->filter_str);
	seq_buf_grow_puts(b, __atomic_load_n(&t->paused, __ATOMIC_RELAXED) ? " [paused]\n" : " [active]\n");
}

static void hist_print(struct trace_seq *s, const struct event_trigger *t)
{
	struct seq_buf b = { 0 };

	hist_print_trigger(&b, t);
	if (!seq_buf_has_overflowed(&b) && b.buffer)
		trace_seq_puts(s, b.buffer);
	seq_buf_grow_free(&b);
}

/* ------------------------------------------------------------------
 * The hist file
 */

/* %ps / %pS padded as the kernel's "%-45ps": the address in hex if unknown. */
static void print_sym(struct seq_buf *b, uint64_t v, bool offset, int width)
{
	char name[512];

	if (trace_stack_sym(name, sizeof(name), (unsigned long)v, offset))
		snprintf(name, sizeof(name), "0x%llx", (unsigned long long)v);
	seq_buf_grow_printf(b, "%-*s", width, name);
}

/* The kernel's hist_trigger_print_key(); @comm for .execname. */
void hist_print_key(struct seq_buf *b, struct hist_data *hd, const unsigned char *key,
		    const char *comm)
{
	bool multiline = false;
	uint64_t v;

	seq_buf_grow_puts(b, "{ ");
	for (unsigned int i = hd->n_vals; i < hd->n_fields; i++) {
		const struct hist_field *f = hd->fields[i];
		const char *name = hist_field_name(f, 0);

		if (i > hd->n_vals)
			seq_buf_grow_puts(b, ", ");
		memcpy(&v, key + f->offset, sizeof(v));
		if (f->flags & HIST_FIELD_FL_HEX) {
			seq_buf_grow_printf(b, "%s: %llx", name, (unsigned long long)v);
		} else if (f->flags & (HIST_FIELD_FL_SYM | HIST_FIELD_FL_SYM_OFFSET)) {
			bool off = f->flags & HIST_FIELD_FL_SYM_OFFSET;

			seq_buf_grow_printf(b, "%s: [%llx] ", name, (unsigned long long)v);
			print_sym(b, v, off, off ? 55 : 45);
		} else if (f->flags & HIST_FIELD_FL_EXECNAME) {
			seq_buf_grow_printf(b, "%s: %-16.16s[%10llu]", name, comm ? comm : "",
					    (unsigned long long)v);
		} else if (f->flags & HIST_FIELD_FL_SYSCALL) {
			const char *sc = trace_syscall_name(v);

			seq_buf_grow_printf(b, "%s: %-30s[%3llu]", name, sc ? sc : "unknown_syscall",
					    (unsigned long long)v);
		} else if (f->flags & HIST_FIELD_FL_STACKTRACE) {
			seq_buf_grow_puts(b, "stacktrace:\n");
			for (unsigned int k = 0; k < HIST_STACKTRACE_DEPTH; k++) {
				memcpy(&v, key + f->offset + k * 8, sizeof(v));
				if (!v)
					break;
				seq_buf_grow_printf(b, "%9c", ' ');
				print_sym(b, v, true, 0);
				seq_buf_grow_puts(b, "\n");
			}
			multiline = true;
		} else if (f->flags & HIST_FIELD_FL_LOG2) {
			seq_buf_grow_printf(b, "%s: ~ 2^%-2llu", name, (unsigned long long)v);
		} else if (f->flags & HIST_FIELD_FL_BUCKET) {
			seq_buf_grow_printf(b, "%s: ~ %llu-%llu", name, (unsigned long long)v,
					    (unsigned long long)(v + f->buckets - 1));
		} else if (f->flags & HIST_FIELD_FL_STRING) {
			seq_buf_grow_printf(b, "%s: %-50.*s", name, (int)f->size, (const char *)key + f->offset);
		} else {
			seq_buf_grow_printf(b, "%s: %10llu", name, (unsigned long long)v);
		}
	}
	if (!multiline)
		seq_buf_grow_puts(b, " ");
	seq_buf_grow_puts(b, "}");
}

/* 100 times the percentage of @val in @total, as __get_percentage(). */
static unsigned int percentage(uint64_t val, uint64_t total)
{
	if (!total)
		return val ? UINT_MAX : 0;
	if (val < UINT64_MAX / 10000)
		return (unsigned int)(val * 10000 / total);
	total /= 10000;
	if (!total)
		return val ? UINT_MAX : 0;
	return (unsigned int)(val / total);
}

struct hist_stat {
	uint64_t	max;
	uint64_t	total;
};

/* The kernel's hist_trigger_print_val(). */
static void print_val(struct seq_buf *b, unsigned long flags, const char *name, uint64_t val,
		      const struct hist_stat *st)
{
	unsigned int pc, len, i;
	char bar[21];

	if (flags & HIST_FIELD_FL_PERCENT) {
		pc = percentage(val, st->total);
		if (pc == UINT_MAX)
			seq_buf_grow_printf(b, " %s (%%):[ERROR]", name);
		else
			seq_buf_grow_printf(b, " %s (%%): %3u.%02u", name, pc / 100, pc % 100);
	} else if (flags & HIST_FIELD_FL_GRAPH) {
		pc = percentage(val, st->max);
		if (pc == UINT_MAX) {
			snprintf(bar, sizeof(bar), "[ERROR]");
		} else {
			len = pc * 20 / 10000;
			for (i = 0; i < len && i < 20; i++)
				bar[i] = '#';
			while (i < 20)
				bar[i++] = ' ';
			bar[20] = '\0';
		}
		seq_buf_grow_printf(b, " %s: %20s", name, bar);
	} else if (flags & HIST_FIELD_FL_HEX) {
		seq_buf_grow_printf(b, " %s: %10llx", name, (unsigned long long)val);
	} else {
		seq_buf_grow_printf(b, " %s: %10llu", name, (unsigned long long)val);
	}
}

/* What the sort compares: the sort keys of one histogram. */
static struct hist_data *sort_hd;

/* The kernel's tracing_map compare functions for one sort key. */
static int cmp_field(const struct hist_data *hd, const struct sort_key *sk,
		     unsigned char *a, unsigned char *b)
{
	const struct hist_field *f = hd->fields[sk->field_idx];
	unsigned int off = hd->map->key_off + f->offset;
	uint64_t x, y;
	int ret;

	if (sk->field_idx < hd->n_vals) {
		x = tracing_map_read_sum(a, sk->field_idx);
		y = tracing_map_read_sum(b, sk->field_idx);
		ret = (x > y) - (x < y);
	} else if (f->flags & HIST_FIELD_FL_STACKTRACE) {
		ret = 0;
	} else if (f->flags & HIST_FIELD_FL_STRING) {
		ret = strncmp((const char *)a + off, (const char *)b + off, f->size);
	} else {
		memcpy(&x, a + off, 8);
		memcpy(&y, b + off, 8);
		/* In the field's own signedness (values are extended to 64 bits). */
		if (f->is_signed)
			ret = ((int64_t)x > (int64_t)y) - ((int64_t)x < (int64_t)y);
		else
			ret = (x > y) - (x < y);
	}
	return sk->descending ? -ret : ret;
}

static int cmp_entries(const void *pa, const void *pb)
{
	unsigned char *a = *(unsigned char *const *)pa, *b = *(unsigned char *const *)pb;
	int ret = 0;

	for (unsigned int i = 0; i < sort_hd->n_sort_keys && !ret; i++)
		ret = cmp_field(sort_hd, &sort_hd->sort_keys[i], a, b);
	return ret;
}

/* The kernel's hist_trigger_entry_print(). */
static void print_entry(struct seq_buf *b, struct hist_data *hd, unsigned char *elt,
			const struct hist_stat *st)
{
	struct tracing_map *map = hd->map;

	hist_print_key(b, hd, tracing_map_key(map, elt),
		       hd->has_comm ? tracing_map_comm(map, elt) : NULL);
	print_val(b, 0, "hitcount", tracing_map_read_sum(elt, HITCOUNT_IDX), &st[0]);
	for (unsigned int j = 1; j < hd->n_vals; j++) {
		const struct hist_field *f = hd->fields[j];

		if (f->flags & (HIST_FIELD_FL_VAR | HIST_FIELD_FL_EXPR))
			continue;
		seq_buf_grow_puts(b, " ");
		print_val(b, f->flags, hist_field_name(f, 0), tracing_map_read_sum(elt, j), &st[j]);
	}
	print_actions(b, hd, elt);
	seq_buf_grow_puts(b, "\n");
}

/* The kernel's print_entries(): sorted, with the totals .percent and .graph need. */
static unsigned int print_entries(struct seq_buf *b, struct hist_data *hd)
{
	struct tracing_map *map = hd->map;
	struct hist_stat st[HIST_FIELDS_MAX] = { { 0, 0 } };
	unsigned char **entries = malloc(map->max_elts * sizeof(*entries));
	unsigned int nr, i, j;

	if (!entries) {
		seq_buf_set_overflow(b);
		return 0;
	}
	nr = tracing_map_elements(map, entries);
	if (nr > 1) {
		sort_hd = hd;
		qsort(entries, nr, sizeof(*entries), cmp_entries);
	}
	for (j = 1; j < hd->n_vals; j++) {
		if (!(hd->fields[j]->flags & (HIST_FIELD_FL_PERCENT | HIST_FIELD_FL_GRAPH)))
			continue;
		for (i = 0; i < nr; i++) {
			uint64_t v = tracing_map_read_sum(entries[i], j);

			st[j].total += v;
			if (st[j].max < v)
				st[j].max = v;
		}
	}
	for (i = 0; i < nr; i++)
		print_entry(b, hd, entries[i], st);
	free(entries);
	return nr;
}

/* The kernel's hist_trigger_show(); under the event mutex. */
static void hist_show(struct seq_buf *b, const struct event_trigger *t, int n)
{
	struct hist_data *hd = t->data;
	unsigned int nr;

	if (n > 0)
		seq_buf_grow_puts(b, "\n\n");
	seq_buf_grow_puts(b, "# event histogram\n#\n# trigger info: ");
	hist_print_trigger(b, t);
	seq_buf_grow_puts(b, "#\n\n");
	nr = print_entries(b, hd);
	track_data_snapshot_print(b, hd);
	seq_buf_grow_printf(b, "\nTotals:\n    Hits: %llu\n    Entries: %u\n    Dropped: %llu\n",
			    (unsigned long long)__atomic_load_n(&hd->map->hits, __ATOMIC_RELAXED), nr,
			    (unsigned long long)__atomic_load_n(&hd->map->drops, __ATOMIC_RELAXED));
}

/* ------------------------------------------------------------------
 * Matching, named triggers
 */

/* The kernel's compatible_field(): the same event field, or none. */
static bool compatible_field(const struct hist_ev_field *a, const struct hist_ev_field *b)
{
	if (!a || !b)
		return a == b;
	return !strcmp(a->name, b->name) && !strcmp(a->type, b->type) && a->size == b->size &&
	       a->is_signed == b->is_signed;
}

/*
 * The kernel's hist_trigger_match(): does the command (@hd, @filter_str)
 * define the histogram of @test?  @named: the histogram of the command's
 * name, if any.
 */
static bool hist_match(struct hist_data *hd, const char *filter_str,
		       const struct event_trigger *test, struct hist_data *named,
		       bool ignore_filter)
{
	struct hist_data *th = test->data;

	if (named && named != th)
		return false;
	if (!named && th->attrs->name)
		return false;
	if (hd->n_vals != th->n_vals || hd->n_fields != th->n_fields ||
	    hd->n_sort_keys != th->n_sort_keys)
		return false;
	if (!ignore_filter && !filter_str != !test->filter_str)
		return false;
	for (unsigned int i = 0; i < hd->n_fields; i++) {
		const struct hist_field *a = hd->fields[i], *b = th->fields[i];

		if (a->flags != b->flags || !compatible_field(a->field, b->field) ||
		    a->offset != b->offset || a->size != b->size || a->is_signed != b->is_signed ||
		    !a->var_name != !b->var_name ||
		    (a->var_name && strcmp(a->var_name, b->var_name)))
			return false;
	}
	for (unsigned int i = 0; i < hd->n_sort_keys; i++)
		if (hd->sort_keys[i].field_idx != th->sort_keys[i].field_idx ||
		    hd->sort_keys[i].descending != th->sort_keys[i].descending)
			return false;
	if (!ignore_filter && filter_str && strcmp(filter_str, test->filter_str))
		return false;
	return actions_match(hd, th);
}

static struct hist_data *find_named(const char *name)
{
	struct hist_data *hd;

	if (!name)
		return NULL;
	for (hd = named_hists; hd && strcmp(hd->attrs->name, name); hd = hd->next_named)
		;
	return hd;
}

/* The hist trigger of @file the command names, or NULL. */
static struct event_trigger *find_match(struct trace_event_file *file, struct hist_data *hd,
					const char *filter_str, struct hist_data *named)
{
	struct event_trigger_list *l = trigger_list(file);

	for (unsigned int i = 0; l && i < l->nr; i++)
		if (l->t[i]->cmd->type == ETT_EVENT_HIST &&
		    hist_match(hd, filter_str, l->t[i], named, false))
			return l->t[i];
	return NULL;
}

/* As hist_match() against the named histogram itself. */
static bool named_match(struct hist_data *hd, struct hist_data *named)
{
	return hist_match(hd, NULL, &(struct event_trigger){ .data = named }, named, true);
}

/*
 * The kernel's hist_clear(): empty the table once no probe is in it:
 * neither its own, nor one that references its variables (both test
 * @clearing under the tracepoint read lock).
 */
static void hist_clear(struct hist_data *hd)
{
	__atomic_store_n(&hd->clearing, 1, __ATOMIC_RELEASE);
	tracepoint_synchronize_unregister();
	tracing_map_clear(hd->map);
	__atomic_store_n(&hd->clearing, 0, __ATOMIC_RELEASE);
}

/*
 * The kernel's existing_hist_update_only(): :pause, :cont and :clear of
 * an existing histogram.  Return: whether one was updated.
 */
static bool update_only(struct hist_data *hd, struct event_trigger *t)
{
	struct hist_trigger_attrs *attrs = hd->attrs;
	struct hist_data *named = NULL;
	struct event_trigger *test;

	if (!attrs->pause && !attrs->cont && !attrs->clear)
		return false;
	if (attrs->name) {
		named = find_named(attrs->name);
		if (!named || !named_match(hd, named))
			return false;
	}
	test = find_match(t->file, hd, t->filter_str, named);
	if (!test)
		return false;
	if (attrs->pause)
		__atomic_store_n(&test->paused, 1, __ATOMIC_RELAXED);
	else if (attrs->cont)
		__atomic_store_n(&test->paused, 0, __ATOMIC_RELAXED);
	else
		hist_clear(test->data);
	return true;
}

/* The kernel's hist_register_trigger() and hist_trigger_enable(). */
static int hist_register(struct hist_data *hd, struct event_trigger *t)
{
	struct hist_trigger_attrs *attrs = hd->attrs;
	struct hist_data *named = NULL;
	int err;

	if (attrs->name) {
		named = find_named(attrs->name);
		if (named && !named_match(hd, named)) {
			hist_err(HIST_ERR_NAMED_MISMATCH, errpos(attrs->name));
			return -EINVAL;
		}
	}
	if ((!attrs->name || named) && find_match(t->file, hd, t->filter_str, named)) {
		hist_err(HIST_ERR_TRIGGER_EEXIST, 0);
		return -EEXIST;
	}
	if (attrs->cont || attrs->clear) {
		hist_err(HIST_ERR_TRIGGER_ENOENT_CLEAR, 0);
		return -ENOENT;
	}
	if (hd->enable_timestamps && trace_array_set_clock(t->file->tr, attrs->clock)) {
		hist_err(HIST_ERR_SET_CLOCK_FAIL, errpos(attrs->clock));
		return -EINVAL;
	}
	if (attrs->pause)
		t->paused = 1;
	if (named) {
		t->data = named;
	} else if (attrs->name) {
		hd->next_named = named_hists;
		named_hists = hd;
	}
	((struct hist_data *)t->data)->refs++;
	err = trigger_register(t, true);
	if (err) {
		if (!named && attrs->name)
			named_hists = hd->next_named;
		((struct hist_data *)t->data)->refs--;
		t->data = hd;
	}
	return err;
}

static void unlink_named(struct hist_data *hd)
{
	for (struct hist_data **pp = &named_hists; *pp; pp = &(*pp)->next_named) {
		if (*pp == hd) {
			*pp = hd->next_named;
			return;
		}
	}
}

/*
 * The trigger is gone (no probe runs it): the kernel's
 * event_hist_trigger_free().  A histogram whose variables other triggers
 * still reference keeps its table for them (their lookups fail from now
 * on) until the last of them goes.
 */
static void hist_free(struct event_trigger *t)
{
	struct hist_data *hd = t->data;
	struct synth_event *se;

	if (!hd)
		return;
	se = find_synth_event_call(t->file->event_call);
	if (se)
		se->ref--;
	if (--hd->refs > 0)
		return;
	unlink_named(hd);
	remove_hist_vars(hd);
	release_var_refs(hd);
	unregister_field_var_hists(hd);
	if (hd->var_users) {
		destroy_actions(hd);
		__atomic_store_n(&hd->detached, true, __ATOMIC_RELAXED);
		return;
	}
	destroy_hist_data(hd);
}

/* ------------------------------------------------------------------
 * The command
 */

/*
 * Split "keys=... if FILTER" as the kernel's event_hist_trigger_parse():
 * the filter starts at an "if" with blanks on both sides.
 * Return: 0 or -EINVAL; *@filterp NULL when there is none.
 */
int hist_split_filter(char *pf, char **paramp, char **filterp)
{
	char *p = pf;

	*paramp = pf;
	*filterp = NULL;
	for (;;) {
		p = strstr(p, "if");
		if (!p)
			return 0;
		if (p == pf)
			return -EINVAL;
		if (p[-1] != ' ' && p[-1] != '\t') {
			p++;
			continue;
		}
		if (p >= pf + strlen(pf) - 3)
			return -EINVAL;
		if (p[2] != ' ' && p[2] != '\t') {
			p++;
			continue;
		}
		break;
	}
	p[-1] = '\0';
	*filterp = p;
	while (**paramp == ' ' || **paramp == '\t')
		(*paramp)++;
	for (char *e = *paramp + strlen(*paramp); e > *paramp && (e[-1] == ' ' || e[-1] == '\t'); )
		*--e = '\0';
	return 0;
}

/* "!hist:...": the matching trigger goes, unless its variables are in use. */
static int hist_remove(struct hist_data *hd, struct event_trigger *t)
{
	struct event_trigger *old = find_match(t->file, hd, t->filter_str,
					       find_named(hd->attrs->name));

	if (!old)
		return 0;
	if (((struct hist_data *)old->data)->var_users)
		return -EBUSY;
	trigger_unregister(old);
	return 0;
}

/* Set up what a new trigger needs and register it (the kernel's parse tail). */
static int hist_add(struct hist_data *hd, struct event_trigger *t)
{
	struct synth_event *se;
	int err = create_actions(hd);

	if (err)
		return err;
	if (has_hist_vars(hd) || hd->n_var_refs)
		save_hist_vars(hd);
	hd->key_zero = hd->key_size;
	for (unsigned int i = 0; i < hd->n_var_refs; i++) {
		struct hist_data *var_hd = hd->var_refs[i]->var_hd;

		if (var_hd && var_hd->key_size > hd->key_zero)
			hd->key_zero = var_hd->key_size;
	}
	err = hist_map_init(hd);
	if (!err)
		err = hist_register(hd, t);
	if (err)
		return err;
	se = find_synth_event_call(t->file->event_call);
	if (se)
		se->ref++;
	if (t->data != hd) {
		/* Joined a named histogram: the definition parsed goes. */
		remove_hist_vars(hd);
		unregister_field_var_hists(hd);
		destroy_hist_data(hd);
	}
	return 0;
}

/*
 * The kernel's event_hist_trigger_parse() for @file: @pf is what follows
 * "hist:" (modified), @p (may be NULL) the write for the filter and the
 * errors.
 */
static int hist_parse_cmd(const struct event_command *cmd, struct trace_event_file *file,
			  char *pf, bool remove, struct trigger_parse *p)
{
	struct hist_trigger_attrs *attrs;
	struct event_trigger *t;
	struct hist_data *hd;
	char *param, *filter, *s;
	int err;

	if (!pf)
		return -EINVAL;
	err = hist_split_filter(pf, &param, &filter);
	if (err)
		return err;
	/* As the kernel, ".sym-offset" becomes ".symXoffset" for the parser. */
	for (s = strstr(param, ".sym-offset"); s; s = strstr(s + 11, ".sym-offset"))
		s[4] = 'X';
	attrs = parse_hist_trigger_attrs(param, &err);
	if (!attrs)
		return err;
	hd = create_hist_data(attrs->map_bits ? attrs->map_bits : TRACING_MAP_BITS_DEFAULT,
			      attrs, file, remove, &err);
	if (!hd)
		return err;
	t = trigger_alloc(cmd, file, hd);
	if (!t) {
		destroy_hist_data(hd);
		return -ENOMEM;
	}
	err = trigger_set_filter(p, t, filter);
	if (!err && remove)
		err = hist_remove(hd, t);
	else if (!err && !update_only(hd, t) && !(err = hist_add(hd, t)))
		return 0;
	remove_hist_vars(hd);
	unregister_field_var_hists(hd);
	destroy_hist_data(hd);
	t->data = NULL;
	trigger_free(t);
	return err;
}

static int hist_parse(const struct event_command *cmd, struct trigger_parse *p)
{
	struct trace_event_call *call = p->file->event_call;
	char *s;
	int err;

	if (!p->param_and_filter)
		return -EINVAL;
	hist_ectx.p = p;
	hist_ectx.last_cmd = malloc(strlen(p->param_and_filter) + 6);
	if (!hist_ectx.last_cmd)
		return -ENOMEM;
	sprintf(hist_ectx.last_cmd, "hist:%s", p->param_and_filter);
	snprintf(hist_ectx.loc, sizeof(hist_ectx.loc), "hist:%s:%s",
		 call->event_class->system, call->name);
	s = strstr(p->text, p->param_and_filter);
	hist_ectx.pf_off = s ? (unsigned int)(s - p->text) : 5;
	err = hist_parse_cmd(cmd, p->file, p->param_and_filter, p->remove, p);
	free(hist_ectx.last_cmd);
	hist_ectx.last_cmd = NULL;
	hist_ectx.p = NULL;
	return err;
}

/**
 * hist_trigger_parse_internal - set or remove a hist trigger on @file
 * @cmd:    what follows "hist:" ("keys=pid:synthetic_prio=prio if ...")
 * @remove: "!hist"
 *
 * For the field vars of an action on another event.  Its errors are
 * logged under the command being parsed, as the kernel's.
 * Return: 0 or -errno.  Context: the event mutex.
 */
int hist_trigger_parse_internal(struct trace_event_file *file, const char *cmd, bool remove)
{
	struct trigger_parse p = { .tr = file->tr, .file = file, .text = cmd, .remove = remove };
	char *pf = strdup(cmd);
	int err;

	if (!pf)
		return -ENOMEM;
	p.param_and_filter = pf;
	err = hist_parse_cmd(&trigger_hist_cmd, file, pf, remove, &p);
	free(pf);
	return err;
}

/* A hist trigger of @file whose variables other triggers use? */
static bool hist_file_check_refs(struct trace_event_file *file)
{
	struct hist_data *hd = NULL;

	while ((hd = hist_file_next(file, hd)))
		if (hd->var_users)
			return true;
	return false;
}

/* O_TRUNC: every hist trigger of the file goes, or none if one is referenced. */
static void hist_unreg_all(struct trace_event_file *file)
{
	struct event_trigger_list *l;
	unsigned int i = 0;

	if (hist_file_check_refs(file))
		return;
	while ((l = trigger_list(file)) && i < l->nr) {
		if (l->t[i]->cmd->type == ETT_EVENT_HIST)
			trigger_unregister(l->t[i]);
		else
			i++;
	}
}

const struct event_command trigger_hist_cmd = {
	.name		= "hist",
	.type		= ETT_EVENT_HIST,
	.flags		= EVENT_CMD_FL_NEEDS_REC,
	.parse		= hist_parse,
	.func		= hist_trigger_func,
	.print		= hist_print,
	.free		= hist_free,
	.unreg_all	= hist_unreg_all,
};

/* enable_hist / disable_hist fire: (un)pause every histogram of @file. */
void hist_pause_all(struct trace_event_file *file, bool pause)
{
	struct event_trigger_list *l = trigger_list(file);

	for (unsigned int i = 0; l && i < l->nr; i++)
		if (l->t[i]->cmd->type == ETT_EVENT_HIST)
			__atomic_store_n(&l->t[i]->paused, pause, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------------
 * Reading the hist file
 */

/**
 * trace_array_hist_text - the text of an event's hist file
 * @tr:   the instance (NULL: the top level)
 * @call: the event
 * @lenp: receives the length
 *
 * Every hist trigger of the event, in the kernel's format; "" when it has
 * none.
 * Return: the text (free() it), or NULL (ENOMEM).
 * Context: not a probe; takes the event mutex.
 */
char *trace_array_hist_text(struct trace_array *tr, struct trace_event_call *call,
			    size_t *lenp)
{
	struct seq_buf b = { 0 };
	struct event_trigger_list *l;
	int n = 0;

	seq_buf_grow_puts(&b, "");
	trace_event_lock();
	l = trigger_list(trace_array_file_locked(tr, call, false));
	for (unsigned int i = 0; l && i < l->nr; i++)
		if (l->t[i]->cmd->type == ETT_EVENT_HIST)
			hist_show(&b, l->t[i], n++);
	trace_event_unlock();
	if (seq_buf_has_overflowed(&b)) {
		seq_buf_grow_free(&b);
		errno = ENOMEM;
		return NULL;
	}
	if (lenp)
		*lenp = b.len;
	return b.buffer;
}

/**
 * trace_array_print_hist - the hist file's text, as much as @s holds
 *
 * trace_array_hist_text() has all of it.
 */
void trace_array_print_hist(struct trace_array *tr, struct trace_event_call *call,
			    struct trace_seq *s)
{
	size_t len;
	char *text = trace_array_hist_text(tr, call, &len);

	if (text)
		trace_seq_putmem(s, text, (unsigned int)len);
	free(text);
}
