// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Hist trigger handlers and actions (Documentation/trace/histogram.rst,
 * section 2.2.3), as the kernel's:
 *
 *	onmatch(sys.event).trace(synth,params)   generate a synthetic event
 *	onmatch(sys.event).synth(params)         the same
 *	onmax($var).save(field,...)              keep fields of the maximum
 *	onmax($var).snapshot()                   snapshot at a new maximum
 *	onchange($var).save(...), .snapshot()    the same when $var changes
 *	onmax($var).trace(...), onchange(...)    generate at a new maximum
 *
 * An action's parameters are variables ("$var", "sys.event.$var") or
 * fields; a field becomes a variable (a "field var"): of the trigger
 * itself when the field is its event's, else of a new hist trigger set
 * on the other event ("keys=...:synthetic_FIELD=FIELD"), with the keys
 * and filter of a trigger already there that has compatible keys.
 *
 * In the probe (hist_trigger_actions()) an action reads the values the
 * hit resolved (var_ref_vals), the element's variables and the record:
 * no lock, no allocation.  onmax() and onchange() update their tracking
 * variable with a compare-and-swap, so that one thread wins each new
 * maximum.  A snapshot is taken as a conditional snapshot of the
 * instance (trace_snapshot.c), which compares and copies the triggering
 * key under the lock the swap takes anyway, and gives up rather than
 * wait when the buffers are busy.
 */
#define __USTRACE_CORE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/trace_events.h>

#include "trace_array.h"
#include "trace_events_hist.h"
#include "trace.h"

enum handler_id {
	HANDLER_ONMATCH = 1,
	HANDLER_ONMAX,
	HANDLER_ONCHANGE,
};

enum action_id {
	ACTION_SAVE = 1,
	ACTION_TRACE,
	ACTION_SNAPSHOT,
};

/*
 * The tracking state of a snapshot action: the instance's value of the
 * condition and the key that last satisfied it (the kernel's struct
 * track_data), read by the hist file.
 */
struct track_data {
	uint64_t		track_val;
	bool			updated;
	unsigned int		key_len;
	unsigned char		*key;
	char			comm[TRACING_MAP_COMM_LEN];
	struct action_data	*action_data;
	struct hist_data	*hist_data;
	struct trace_snapshot	*snap;
};

/**
 * struct action_data - one handler.action of a trigger
 * @var_ref_idx: for each parameter of a trace action, its index in the
 *               hit's var_ref_vals
 * @match_data:  onmatch(): the event that matches
 * @track_data:  onmax(), onchange(): the variable tracked ("$var" as
 *               written, its reference), the variable keeping the
 *               maximum or last value, and a snapshot's state
 */
struct action_data {
	enum handler_id		handler;
	enum action_id		action;
	char			*action_name;
	unsigned int		n_params;
	char			*params[SYNTH_FIELDS_MAX];
	unsigned int		var_ref_idx[SYNTH_FIELDS_MAX];
	struct synth_event	*synth_event;
	bool			use_trace_keyword;
	char			*synth_event_name;
	struct {
		char		*event;
		char		*event_system;
	} match_data;
	struct {
		char			*var_str;
		struct hist_field	*var_ref;
		struct hist_field	*track_var;
		struct track_data	*track;
	} track_data;
};

/* The context a conditional snapshot gets from the probe. */
struct snapshot_context {
	struct hist_data	*hist_data;
	unsigned char		*elt;
	const void		*key;
};

/* ------------------------------------------------------------------
 * Field variables
 */

static void destroy_field_var(struct field_var *fv)
{
	if (!fv)
		return;
	destroy_hist_field(fv->var, 0);
	destroy_hist_field(fv->val, 0);
	free(fv);
}

void destroy_field_vars(struct hist_data *hd)
{
	for (unsigned int i = 0; i < hd->n_field_vars; i++)
		destroy_field_var(hd->field_vars[i]);
	for (unsigned int i = 0; i < hd->n_save_vars; i++)
		destroy_field_var(hd->save_vars[i]);
	hd->n_field_vars = hd->n_save_vars = 0;
}

/* The kernel's create_field_var(): a variable of @hd for @field_name. */
static struct field_var *create_field_var(struct hist_data *hd, struct trace_event_file *file,
					  const char *field_name, int *errp)
{
	unsigned long flags = HIST_FIELD_FL_VAR;
	struct hist_field *val, *var;
	struct field_var *fv;
	char *str;

	*errp = -EINVAL;
	if (hd->n_field_vars >= SYNTH_FIELDS_MAX) {
		hist_err(HIST_ERR_TOO_MANY_FIELD_VARS, errpos(field_name));
		return NULL;
	}
	str = strdup(field_name);
	if (!str) {
		*errp = -ENOMEM;
		return NULL;
	}
	val = parse_atom(hd, file, str, &flags, NULL, errp);
	free(str);
	if (!val) {
		hist_err(HIST_ERR_FIELD_VAR_PARSE_FAIL, errpos(field_name));
		return NULL;
	}
	var = create_var(hd, file, field_name, val->size, val->type);
	if (!var) {
		hist_err(HIST_ERR_VAR_CREATE_FIND_FAIL, errpos(field_name));
		destroy_hist_field(val, 0);
		return NULL;
	}
	fv = calloc(1, sizeof(*fv));
	if (!fv) {
		destroy_hist_field(val, 0);
		destroy_hist_field(var, 0);
		*errp = -ENOMEM;
		return NULL;
	}
	var->flags |= val->flags & HIST_FIELD_FL_STACKTRACE;
	fv->var = var;
	fv->val = val;
	*errp = 0;
	return fv;
}

/*
 * The kernel's create_target_field_var(): a field var of the trigger
 * being set, for a field of its own event ("sys.event." must name it).
 * NULL with *@errp 0 when the name is another event's.
 */
static struct field_var *create_target_field_var(struct hist_data *hd, const char *system,
						 const char *event_name, const char *var_name,
						 int *errp)
{
	struct trace_event_call *call = hd->event_file->event_call;

	*errp = 0;
	if (system && (!event_name || strcmp(system, call->event_class->system) ||
		       strcmp(event_name, call->name)))
		return NULL;
	return create_field_var(hd, hd->event_file, var_name, errp);
}

/* The kernel's __update_field_vars(): each field var takes its field's value. */
static void update_field_vars_from(struct hist_data *hd, struct hist_ctx *ctx,
				   struct field_var **vars, unsigned int n, unsigned int str_start)
{
	struct tracing_map *map = hd->map;
	unsigned int j = str_start;

	for (unsigned int i = 0; i < n; i++) {
		struct hist_field *var = vars[i]->var, *val = vars[i]->val;
		uint64_t v;

		if (val->flags & HIST_FIELD_FL_STRING) {
			char *str = tracing_map_str(map, ctx->elt, j++);
			unsigned int size = val->size < STR_VAR_LEN_MAX ? val->size : STR_VAR_LEN_MAX;

			memset(str, 0, size);
			hist_copy_str(str, size, val, ctx);
			v = (uint64_t)(uintptr_t)str;
		} else {
			v = hist_fn_call(val, ctx);
		}
		tracing_map_set_var(map, ctx->elt, var->var_idx, v);
	}
}

void update_field_vars(struct hist_data *hd, struct hist_ctx *ctx)
{
	update_field_vars_from(hd, ctx, hd->field_vars, hd->n_field_vars, 0);
}

/* The kernel's compatible_keys(): the same key types, in order. */
static bool compatible_keys(struct hist_data *target, struct hist_data *hd,
			    unsigned int n_keys)
{
	if (hd->n_fields - hd->n_vals != n_keys)
		return false;
	for (unsigned int n = 0; n < n_keys; n++) {
		struct hist_field *a = hd->fields[hd->n_vals + n];
		struct hist_field *b = target->fields[target->n_vals + n];

		if (strcmp(a->type, b->type) || a->size != b->size || a->is_signed != b->is_signed)
			return false;
	}
	return true;
}

static struct hist_data *find_compatible_hist(struct hist_data *target,
					      struct trace_event_file *file)
{
	unsigned int n_keys = target->n_fields - target->n_vals;
	struct hist_data *hd = NULL;

	while ((hd = hist_file_next(file, hd)))
		if (compatible_keys(target, hd, n_keys))
			return hd;
	return NULL;
}

static struct hist_field *find_synthetic_field_var(struct hist_data *target, const char *system,
						   const char *event_name,
						   const char *field_name)
{
	char name[STR_VAR_LEN_MAX];

	if ((size_t)snprintf(name, sizeof(name), "synthetic_%s", field_name) >= sizeof(name))
		return NULL;
	return find_event_var(target, system, event_name, name);
}

/* "keys=K1,K2:synthetic_FIELD=FIELD[ if FILTER]" for the trigger on @file. */
static char *field_var_hist_cmd(struct hist_data *compat, struct trace_event_file *file,
				const char *field_name)
{
	char *cmd = malloc(STR_VAR_LEN_MAX), *filter;
	size_t len = 0;

	if (!cmd)
		return NULL;
	len += (size_t)snprintf(cmd, STR_VAR_LEN_MAX, "keys=");
	for (unsigned int i = compat->n_vals; i < compat->n_fields && len < STR_VAR_LEN_MAX; i++)
		len += (size_t)snprintf(cmd + len, STR_VAR_LEN_MAX - len, "%s%s",
					i > compat->n_vals ? "," : "",
					hist_field_name(compat->fields[i], 0));
	if (len < STR_VAR_LEN_MAX)
		len += (size_t)snprintf(cmd + len, STR_VAR_LEN_MAX - len, ":synthetic_%s=%s",
					field_name, field_name);
	filter = hist_find_trigger_filter(compat, file);
	if (filter && len < STR_VAR_LEN_MAX)
		len += (size_t)snprintf(cmd + len, STR_VAR_LEN_MAX - len, " if %s", filter);
	if (len >= STR_VAR_LEN_MAX) {
		free(cmd);
		return NULL;
	}
	return cmd;
}

/*
 * The kernel's create_field_var_hist(): a variable for a field of
 * another event, on a new hist trigger there.
 */
static struct hist_field *create_field_var_hist(struct hist_data *target, const char *system,
						const char *event_name, const char *field_name)
{
	struct trace_array *tr = target->event_file->tr;
	struct field_var_hist *var_hist;
	struct trace_event_file *file;
	struct hist_data *compat;
	struct hist_field *var;
	char *cmd;

	if (target->n_field_var_hists >= SYNTH_FIELDS_MAX) {
		hist_err(HIST_ERR_TOO_MANY_FIELD_VARS, errpos(field_name));
		return NULL;
	}
	file = hist_find_event_file(tr, system, event_name);
	if (!file) {
		hist_err(HIST_ERR_EVENT_FILE_NOT_FOUND, errpos(field_name));
		return NULL;
	}
	compat = find_compatible_hist(target, file);
	if (!compat) {
		hist_err(HIST_ERR_HIST_NOT_FOUND, errpos(field_name));
		return NULL;
	}
	var = find_synthetic_field_var(target, system, event_name, field_name);
	if (var)
		return var;
	cmd = field_var_hist_cmd(compat, file, field_name);
	var_hist = calloc(1, sizeof(*var_hist));
	if (!cmd || !var_hist) {
		free(cmd);
		free(var_hist);
		return NULL;
	}
	if (hist_trigger_parse_internal(file, cmd, false)) {
		free(cmd);
		free(var_hist);
		hist_err(HIST_ERR_HIST_CREATE_FAIL, errpos(field_name));
		return NULL;
	}
	var_hist->file = file;
	var_hist->cmd = cmd;
	target->field_var_hists[target->n_field_var_hists++] = var_hist;
	var = find_synthetic_field_var(target, system, event_name, field_name);
	if (!var)
		hist_err(HIST_ERR_SYNTH_VAR_NOT_FOUND, errpos(field_name));
	return var;
}

/* The hist triggers made for field vars go with the trigger that made them. */
void unregister_field_var_hists(struct hist_data *hd)
{
	for (unsigned int i = 0; i < hd->n_field_var_hists; i++)
		hist_trigger_parse_internal(hd->field_var_hists[i]->file,
					    hd->field_var_hists[i]->cmd, true);
}

void destroy_field_var_hists(struct hist_data *hd)
{
	for (unsigned int i = 0; i < hd->n_field_var_hists; i++) {
		free(hd->field_var_hists[i]->cmd);
		free(hd->field_var_hists[i]);
	}
	hd->n_field_var_hists = 0;
}

/* ------------------------------------------------------------------
 * Variables the actions name
 */

/*
 * The kernel's find_match_var(): a variable of the events of the
 * trigger's onmatch() actions (unique among them).
 */
struct hist_field *find_match_var(struct hist_data *hd, const char *var_name, int *errp)
{
	struct hist_field *f, *found = NULL;

	*errp = 0;
	for (unsigned int i = 0; i < hd->n_actions; i++) {
		struct action_data *data = hd->actions[i];
		struct trace_event_file *file;

		if (data->handler != HANDLER_ONMATCH)
			continue;
		file = hist_find_event_file(hd->event_file->tr, data->match_data.event_system,
					    data->match_data.event);
		if (!file)
			continue;
		f = find_var(NULL, file, var_name);
		if (!f)
			continue;
		if (found) {
			hist_err(HIST_ERR_VAR_NOT_UNIQUE, errpos(var_name));
			*errp = -EINVAL;
			return NULL;
		}
		found = f;
	}
	return found;
}

/* The kernel's trace_action_find_var(): a "$var" parameter. */
static struct hist_field *trace_action_find_var(struct hist_data *hd, struct action_data *data,
						const char *system, const char *event,
						const char *var)
{
	struct hist_field *f;

	var++;
	f = find_target_event_var(hd, system, event, var);
	if (!f) {
		if (!system && data->handler == HANDLER_ONMATCH) {
			system = data->match_data.event_system;
			event = data->match_data.event;
		}
		f = find_event_var(hd, system, event, var);
	}
	if (!f)
		hist_err(HIST_ERR_PARAM_NOT_FOUND, errpos(var));
	return f;
}

/*
 * The kernel's trace_action_create_field_var(): a field parameter, of
 * the trigger's event, or of the onmatch() event when unqualified.
 */
static struct hist_field *trace_action_create_field_var(struct hist_data *hd,
							struct action_data *data,
							const char *system, const char *event,
							const char *var)
{
	struct field_var *fv;
	int err;

	fv = create_target_field_var(hd, system, event, var, &err);
	if (fv) {
		hd->field_vars[hd->n_field_vars++] = fv;
		if (fv->val->flags & HIST_FIELD_FL_STRING)
			hd->n_field_var_str++;
		return fv->var;
	}
	if (!system && data->handler == HANDLER_ONMATCH) {
		system = data->match_data.event_system;
		event = data->match_data.event;
	}
	if (!event)
		return NULL;
	return create_field_var_hist(hd, system, event, var);
}

/* The kernel's check_synth_field(): can @f be field @pos of @se? */
static bool check_synth_field(struct synth_event *se, struct hist_field *f, unsigned int pos)
{
	struct synth_field *field;

	if (pos >= se->n_fields)
		return false;
	field = se->fields[pos];
	/* A dynamic string takes any string; a static one one of its size. */
	if (strstr(f->type, "char[") && field->is_string && field->is_dynamic)
		return true;
	if (!!(f->flags & HIST_FIELD_FL_STACKTRACE) != field->is_stack)
		return false;
	if (field->is_stack)
		return true;
	if (strcmp(field->type, f->type) &&
	    (field->size != f->size || (!field->is_string && field->is_signed != f->is_signed)))
		return false;
	return true;
}

/* One parameter of a trace action: its variable, then its reference. */
static int trace_action_param(struct hist_data *hd, struct action_data *data,
			      struct synth_event *se, unsigned int i, unsigned int *field_pos)
{
	char *p = strdup(data->params[i]), *param = p, *system, *event = NULL;
	struct hist_field *f, *ref;
	int err = -EINVAL;

	if (!p)
		return -ENOMEM;
	system = strsep(&param, ".");
	if (!param) {
		param = system;
		system = NULL;
	} else {
		event = strsep(&param, ".");
		if (!param)
			goto out;
	}
	f = param[0] == '$' ? trace_action_find_var(hd, data, system, event, param) :
			      trace_action_create_field_var(hd, data, system, event, param);
	if (!f)
		goto out;
	if (!check_synth_field(se, f, *field_pos)) {
		hist_err(HIST_ERR_SYNTH_TYPE_MISMATCH, errpos(param));
		goto out;
	}
	ref = create_var_ref(hd, f, system, event);
	err = -ENOMEM;
	if (!ref)
		goto out;
	data->var_ref_idx[i] = ref->var_ref_idx;
	++*field_pos;
	err = 0;
out:
	free(p);
	return err;
}

/* The kernel's trace_action_create(): the synthetic event and its parameters. */
static int trace_action_create(struct hist_data *hd, struct action_data *data)
{
	const char *name = data->use_trace_keyword ? data->synth_event_name : data->action_name;
	struct synth_event *se;
	unsigned int field_pos = 0;
	int err = 0;

	if (!name || !(se = find_synth_event(name))) {
		hist_err(HIST_ERR_SYNTH_EVENT_NOT_FOUND, errpos(name));
		return -EINVAL;
	}
	se->ref++;
	for (unsigned int i = 0; !err && i < data->n_params; i++)
		err = trace_action_param(hd, data, se, i, &field_pos);
	if (!err && field_pos != se->n_fields) {
		hist_err(HIST_ERR_SYNTH_COUNT_MISMATCH, errpos(se->name));
		err = -EINVAL;
	}
	if (err) {
		se->ref--;
		return err;
	}
	data->synth_event = se;
	return 0;
}

/* ------------------------------------------------------------------
 * Snapshots
 */

static bool check_track_val(const struct action_data *data, uint64_t track_val, uint64_t val)
{
	return data->handler == HANDLER_ONMAX ? val > track_val : val != track_val;
}

static uint64_t read_track_val(struct hist_data *hd, unsigned char *elt,
			       const struct action_data *data)
{
	return tracing_map_read_var(hd->map, elt, data->track_data.track_var->var_idx);
}

/*
 * The kernel's cond_snapshot_update(): under the swap's lock, is the hit
 * a new maximum (change) of the instance?  If so, keep it and its key.
 */
static bool cond_snapshot_update(void *cond_data, void *context)
{
	struct track_data *track = cond_data;
	struct snapshot_context *ctx = context;
	struct hist_data *hd = ctx->hist_data;
	uint64_t val;

	if (track->hist_data != hd)
		return false;
	val = read_track_val(hd, ctx->elt, track->action_data);
	if (!check_track_val(track->action_data, track->track_val, val))
		return false;
	track->track_val = val;
	memcpy(track->key, ctx->key, track->key_len);
	if (hd->has_comm)
		memcpy(track->comm, tracing_map_comm(hd->map, ctx->elt), TRACING_MAP_COMM_LEN);
	track->updated = true;
	return true;
}

static void track_data_free(struct track_data *track)
{
	if (!track)
		return;
	free(track->key);
	free(track);
}

static int snapshot_action_create(struct hist_data *hd, struct action_data *data)
{
	struct track_data *track = calloc(1, sizeof(*track));
	int err = -ENOMEM;

	if (!track)
		return err;
	track->key = calloc(1, hd->key_size ? hd->key_size : 1);
	if (!track->key)
		goto fail;
	track->key_len = hd->key_size;
	track->action_data = data;
	track->hist_data = hd;
	err = trace_snapshot_cond_enable(hd->event_file->tr, track, cond_snapshot_update,
					 &track->snap);
	if (err)
		goto fail;
	data->track_data.track = track;
	return 0;
fail:
	track_data_free(track);
	return err;
}

/* What the hist file shows of the snapshot taken, copied under its lock. */
struct track_copy {
	struct hist_data	*hist_data;
	bool			updated;
	uint64_t		track_val;
	unsigned char		key[HIST_KEY_SIZE_MAX];
	char			comm[TRACING_MAP_COMM_LEN];
};

static void track_copy(void *cond_data, void *arg)
{
	struct track_data *track = cond_data;
	struct track_copy *c = arg;

	c->updated = track->updated;
	c->track_val = track->track_val;
	memcpy(c->key, track->key, track->key_len);
	memcpy(c->comm, track->comm, sizeof(c->comm));
}

/* The kernel's track_data_snapshot_print(): the snapshot that was taken. */
void track_data_snapshot_print(struct seq_buf *b, struct hist_data *hd)
{
	struct action_data *action = NULL;
	struct track_copy c = { .hist_data = hd };

	for (unsigned int i = 0; i < hd->n_actions && !action; i++)
		if (hd->actions[i]->action == ACTION_SNAPSHOT)
			action = hd->actions[i];
	if (!action)
		return;
	trace_snapshot_cond_read(hd->event_file->tr, track_copy, &c);
	if (!c.updated)
		return;
	seq_buf_grow_puts(b, "\nSnapshot taken (see tracing/snapshot).  Details:\n");
	seq_buf_grow_printf(b, "\ttriggering value { %s(%s) }: %10llu",
			    action->handler == HANDLER_ONMAX ? "onmax" : "onchange",
			    action->track_data.var_str, (unsigned long long)c.track_val);
	seq_buf_grow_puts(b, "\ttriggered by event with key: ");
	hist_print_key(b, hd, c.key, c.comm);
	seq_buf_grow_puts(b, "\n");
}

/* ------------------------------------------------------------------
 * Creating and destroying actions
 */

/* The kernel's action_create(). */
static int action_create(struct hist_data *hd, struct action_data *data)
{
	struct field_var *fv;
	int err;

	if (data->action == ACTION_TRACE)
		return trace_action_create(hd, data);
	if (data->action == ACTION_SNAPSHOT)
		return snapshot_action_create(hd, data);
	if (hd->n_save_vars) {
		hist_err(HIST_ERR_TOO_MANY_SAVE_ACTIONS, 0);
		return -EEXIST;
	}
	for (unsigned int i = 0; i < data->n_params; i++) {
		fv = create_target_field_var(hd, NULL, NULL, data->params[i], &err);
		if (!fv) {
			hist_err(HIST_ERR_FIELD_VAR_CREATE_FAIL, errpos(data->params[i]));
			return err;
		}
		hd->save_vars[hd->n_save_vars++] = fv;
		if (fv->val->flags & HIST_FIELD_FL_STRING)
			hd->n_save_var_str++;
	}
	return 0;
}

/* The kernel's track_data_create(): onmax($var) / onchange($var). */
static int track_data_create(struct hist_data *hd, struct action_data *data)
{
	const char *var_str = data->track_data.var_str;
	struct hist_field *var, *ref;

	if (var_str[0] != '$') {
		hist_err(HIST_ERR_ONX_NOT_VAR, errpos(var_str));
		return -EINVAL;
	}
	var = find_target_event_var(hd, NULL, NULL, var_str + 1);
	if (!var) {
		hist_err(HIST_ERR_ONX_VAR_NOT_FOUND, errpos(var_str + 1));
		return -EINVAL;
	}
	ref = create_var_ref(hd, var, NULL, NULL);
	if (!ref)
		return -ENOMEM;
	data->track_data.var_ref = ref;
	data->track_data.track_var = create_var(hd, hd->event_file,
						data->handler == HANDLER_ONMAX ? "__max" :
										"__change",
						sizeof(uint64_t), "u64");
	if (!data->track_data.track_var) {
		hist_err(HIST_ERR_ONX_VAR_CREATE_FAIL, 0);
		return -EINVAL;
	}
	return action_create(hd, data);
}

int create_actions(struct hist_data *hd)
{
	int err = 0;

	for (unsigned int i = 0; !err && i < hd->n_actions; i++) {
		struct action_data *data = hd->actions[i];

		err = data->handler == HANDLER_ONMATCH ? action_create(hd, data) :
							 track_data_create(hd, data);
	}
	return err;
}

static void action_data_destroy(struct hist_data *hd, struct action_data *data)
{
	struct track_data *track = data->track_data.track;

	if (track) {
		if (trace_snapshot_cond_data(hd->event_file->tr) == track)
			trace_snapshot_cond_disable(hd->event_file->tr);
		track_data_free(track);
	}
	destroy_hist_field(data->track_data.track_var, 0);
	free(data->track_data.var_str);
	free(data->match_data.event);
	free(data->match_data.event_system);
	free(data->action_name);
	for (unsigned int i = 0; i < data->n_params; i++)
		free(data->params[i]);
	if (data->synth_event)
		data->synth_event->ref--;
	free(data->synth_event_name);
	free(data);
}

void destroy_actions(struct hist_data *hd)
{
	for (unsigned int i = 0; i < hd->n_actions; i++)
		action_data_destroy(hd, hd->actions[i]);
	hd->n_actions = 0;
}

/* ------------------------------------------------------------------
 * Parsing
 */

/* The kernel's parse_action_params(): "a,b,c" (the first, for trace(), the event). */
static int parse_action_params(char *params, struct action_data *data)
{
	bool first = true;

	while (params) {
		char *param, *saved;

		if (data->n_params >= SYNTH_FIELDS_MAX) {
			hist_err(HIST_ERR_TOO_MANY_PARAMS, 0);
			return -EINVAL;
		}
		param = strim(strsep(&params, ","));
		if (strlen(param) < 2) {
			hist_err(HIST_ERR_INVALID_PARAM, errpos(param));
			return -EINVAL;
		}
		saved = strdup(param);
		if (!saved)
			return -ENOMEM;
		if (first && data->use_trace_keyword) {
			data->synth_event_name = saved;
			first = false;
			continue;
		}
		first = false;
		data->params[data->n_params++] = saved;
	}
	return 0;
}

/* The kernel's action_parse(): ".action(params)" after the handler. */
static int action_parse(char *str, struct action_data *data, enum handler_id handler)
{
	char *action_name, *params;
	int err;

	strsep(&str, ".");
	if (!str) {
		hist_err(HIST_ERR_ACTION_NOT_FOUND, 0);
		return -EINVAL;
	}
	action_name = strsep(&str, "(");
	if (!action_name || !str) {
		hist_err(HIST_ERR_ACTION_NOT_FOUND, 0);
		return -EINVAL;
	}
	params = strsep(&str, ")");
	if (!strncmp(action_name, "save", 4) || !strncmp(action_name, "snapshot", 8)) {
		bool save = action_name[1] == 'a';

		if (!save && !str) {
			hist_err(HIST_ERR_NO_CLOSING_PAREN, errpos(params));
			return -EINVAL;
		}
		if (save && (err = parse_action_params(params, data)))
			return err;
		if (handler == HANDLER_ONMATCH) {
			hist_err(HIST_ERR_ACTION_MISMATCH, errpos(action_name));
			return -EINVAL;
		}
		data->action = save ? ACTION_SAVE : ACTION_SNAPSHOT;
	} else {
		data->use_trace_keyword = !strncmp(action_name, "trace", 5);
		if (params && (err = parse_action_params(params, data)))
			return err;
		data->action = ACTION_TRACE;
	}
	data->action_name = strdup(action_name);
	if (!data->action_name)
		return -ENOMEM;
	data->handler = handler;
	return 0;
}

/* The kernel's onmatch_parse(): "sys.event).action(...)". */
static struct action_data *onmatch_parse(struct hist_data *hd, char *str, int *errp)
{
	struct action_data *data = calloc(1, sizeof(*data));
	char *match_event, *system;

	*errp = -ENOMEM;
	if (!data)
		return NULL;
	*errp = -EINVAL;
	match_event = strsep(&str, ")");
	if (!str) {
		hist_err(HIST_ERR_NO_CLOSING_PAREN, errpos(match_event));
		goto free;
	}
	system = strsep(&match_event, ".");
	if (!match_event) {
		hist_err(HIST_ERR_SUBSYS_NOT_FOUND, errpos(system));
		goto free;
	}
	if (!hist_find_event_file(hd->event_file->tr, system, match_event)) {
		hist_err(HIST_ERR_INVALID_SUBSYS_EVENT, errpos(match_event));
		goto free;
	}
	data->match_data.event = strdup(match_event);
	data->match_data.event_system = strdup(system);
	if (!data->match_data.event || !data->match_data.event_system) {
		*errp = -ENOMEM;
		goto free;
	}
	*errp = action_parse(str, data, HANDLER_ONMATCH);
	if (*errp)
		goto free;
	return data;
free:
	action_data_destroy(hd, data);
	return NULL;
}

/* The kernel's track_data_parse(): "$var).action(...)". */
static struct action_data *track_data_parse(struct hist_data *hd, char *str,
					    enum handler_id handler, int *errp)
{
	struct action_data *data = calloc(1, sizeof(*data));
	char *var_str;

	*errp = -ENOMEM;
	if (!data)
		return NULL;
	*errp = -EINVAL;
	var_str = strsep(&str, ")");
	if (!str)
		goto free;
	*errp = -ENOMEM;
	data->track_data.var_str = strdup(var_str);
	if (!data->track_data.var_str)
		goto free;
	*errp = action_parse(str, data, handler);
	if (*errp)
		goto free;
	return data;
free:
	action_data_destroy(hd, data);
	return NULL;
}

/* The kernel's parse_actions(): the attributes' onmatch(), onmax(), onchange(). */
int parse_actions(struct hist_data *hd)
{
	struct action_data *data;
	int err = 0;

	for (unsigned int i = 0; i < hd->attrs->n_actions; i++) {
		char *str = hd->attrs->action_str[i];

		if (!strncmp(str, "onmatch(", 8))
			data = onmatch_parse(hd, str + 8, &err);
		else if (!strncmp(str, "onmax(", 6))
			data = track_data_parse(hd, str + 6, HANDLER_ONMAX, &err);
		else if (!strncmp(str, "onchange(", 9))
			data = track_data_parse(hd, str + 9, HANDLER_ONCHANGE, &err);
		else
			return -EINVAL;
		if (!data)
			return err;
		hd->actions[hd->n_actions++] = data;
	}
	return 0;
}

/* The kernel's actions_match(): two triggers do the same things. */
bool actions_match(struct hist_data *a, struct hist_data *b)
{
	if (a->n_actions != b->n_actions)
		return false;
	for (unsigned int i = 0; i < a->n_actions; i++) {
		struct action_data *x = a->actions[i], *y = b->actions[i];
		const char *nx = x->use_trace_keyword ? x->synth_event_name : x->action_name;
		const char *ny = y->use_trace_keyword ? y->synth_event_name : y->action_name;

		if (x->handler != y->handler || x->action != y->action ||
		    x->n_params != y->n_params)
			return false;
		for (unsigned int j = 0; j < x->n_params; j++)
			if (strcmp(x->params[j], y->params[j]))
				return false;
		if (!nx || !ny || strcmp(nx, ny))
			return false;
		if (x->handler == HANDLER_ONMATCH &&
		    (strcmp(x->match_data.event_system, y->match_data.event_system) ||
		     strcmp(x->match_data.event, y->match_data.event)))
			return false;
		if (x->handler != HANDLER_ONMATCH &&
		    strcmp(x->track_data.var_str, y->track_data.var_str))
			return false;
	}
	return true;
}

/* ------------------------------------------------------------------
 * Running them (the probe)
 */

/*
 * onmax(), onchange(): a new maximum (a change) of the element's
 * tracking variable; one thread wins each.
 */
static bool track_update(struct hist_data *hd, unsigned char *elt,
			 const struct action_data *data, uint64_t val)
{
	uint64_t *p = &tracing_map_vars(hd->map, elt)[data->track_data.track_var->var_idx];
	uint64_t cur = __atomic_load_n(p, __ATOMIC_RELAXED);

	if (data->handler == HANDLER_ONCHANGE)
		return __atomic_exchange_n(p, val, __ATOMIC_RELAXED) != val;
	do {
		if (val <= cur)
			return false;
	} while (!__atomic_compare_exchange_n(p, &cur, val, true, __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	return true;
}

static void ontrack_action(struct hist_data *hd, struct hist_ctx *ctx, const void *key,
			   const uint64_t *vals, struct action_data *data)
{
	struct snapshot_context sc = { .hist_data = hd, .elt = ctx->elt, .key = key };
	uint64_t val = vals[data->track_data.var_ref->var_ref_idx];

	if (!track_update(hd, ctx->elt, data, val))
		return;
	switch (data->action) {
	case ACTION_SAVE:
		update_field_vars_from(hd, ctx, hd->save_vars, hd->n_save_vars,
				       hd->n_field_var_str);
		break;
	case ACTION_SNAPSHOT:
		trace_snapshot_cond_take(data->track_data.track->snap, &sc);
		break;
	case ACTION_TRACE:
		synth_event_trace(data->synth_event, vals, data->var_ref_idx);
		break;
	}
}

/* The kernel's hist_trigger_actions(). */
void hist_trigger_actions(struct hist_data *hd, struct hist_ctx *ctx, const void *key,
			  const uint64_t *var_ref_vals)
{
	for (unsigned int i = 0; i < hd->n_actions; i++) {
		struct action_data *data = hd->actions[i];

		if (data->handler == HANDLER_ONMATCH)
			synth_event_trace(data->synth_event, var_ref_vals, data->var_ref_idx);
		else
			ontrack_action(hd, ctx, key, var_ref_vals, data);
	}
}

/* ------------------------------------------------------------------
 * Printing
 */

/* The kernel's track_data_print(): "max: N" and the values saved. */
static void track_data_print(struct seq_buf *b, struct hist_data *hd, unsigned char *elt,
			     struct action_data *data)
{
	seq_buf_grow_printf(b, "\n\t%s: %10llu", data->handler == HANDLER_ONMAX ? "max" : "changed",
			    (unsigned long long)read_track_val(hd, elt, data));
	if (data->action == ACTION_SNAPSHOT)
		return;
	for (unsigned int i = 0; i < hd->n_save_vars; i++) {
		struct hist_field *val = hd->save_vars[i]->val, *var = hd->save_vars[i]->var;
		uint64_t v = tracing_map_read_var(hd->map, elt, var->var_idx);

		if (val->flags & HIST_FIELD_FL_STRING) {
			const char *s = (const char *)(uintptr_t)v;

			seq_buf_grow_printf(b, "  %s: %-32.*s", var->var_name, s ? STR_VAR_LEN_MAX : 6,
					    s ? s : "(null)");
		} else {
			seq_buf_grow_printf(b, "  %s: %10llu", var->var_name, (unsigned long long)v);
		}
	}
}

void print_actions(struct seq_buf *b, struct hist_data *hd, unsigned char *elt)
{
	for (unsigned int i = 0; i < hd->n_actions; i++) {
		struct action_data *data = hd->actions[i];

		if (data->action != ACTION_SNAPSHOT && data->handler != HANDLER_ONMATCH)
			track_data_print(b, hd, elt, data);
	}
}

/* The kernel's print_action_spec(): what is between the action's parens. */
static void print_action_spec(struct seq_buf *b, struct hist_data *hd,
			      struct action_data *data)
{
	if (data->action == ACTION_SAVE) {
		for (unsigned int i = 0; i < hd->n_save_vars; i++)
			seq_buf_grow_printf(b, "%s%s", i ? "," : "", hd->save_vars[i]->var->var_name);
	} else if (data->action == ACTION_TRACE) {
		if (data->use_trace_keyword)
			seq_buf_grow_puts(b, data->synth_event_name);
		for (unsigned int i = 0; i < data->n_params; i++)
			seq_buf_grow_printf(b, "%s%s", i || data->use_trace_keyword ? "," : "",
					    data->params[i]);
	}
}

/* The kernel's print_actions_spec(): the actions in the trigger's text. */
void print_actions_spec(struct seq_buf *b, struct hist_data *hd)
{
	for (unsigned int i = 0; i < hd->n_actions; i++) {
		struct action_data *data = hd->actions[i];

		if (data->handler == HANDLER_ONMATCH)
			seq_buf_grow_printf(b, ":onmatch(%s.%s).", data->match_data.event_system,
					    data->match_data.event);
		else
			seq_buf_grow_printf(b, ":%s(%s).", data->handler == HANDLER_ONMAX ? "onmax" :
										"onchange",
					    data->track_data.var_str);
		seq_buf_grow_printf(b, "%s(", data->action_name);
		print_action_spec(b, hd, data);
		seq_buf_grow_puts(b, ")");
	}
}
