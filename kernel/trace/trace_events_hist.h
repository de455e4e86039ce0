/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the parts of the hist triggers share (Documentation/trace/
 * histogram.rst, the kernel's trace_events_hist.c split three ways):
 *
 *   trace_events_hist.c         the command: attributes, fields, keys,
 *                               sort, registration, the probe, the hist
 *                               file
 *   trace_events_hist_field.c   one field or expression: parsing,
 *                               variables and references, evaluation,
 *                               names
 *   trace_events_hist_action.c  handlers and actions: onmatch, onmax,
 *                               onchange; trace (synthetic events), save,
 *                               snapshot; field variables
 *
 * Terminology, as the kernel's:
 *
 *   hist field  a key, a value, a variable, an expression or one of its
 *               operands: a tree of at most 3 levels
 *   variable    a value kept per key in the table ("ts0=common_timestamp")
 *               for events of the same instance to read ("$ts0")
 *   var ref     a reference to a variable: resolved per hit, by looking
 *               the hit's key up in the variable's table; a reference in
 *               an expression is read once (the variable is unset after)
 *   field var   a variable made for an event field an action names
 *   handler     when an action runs: onmatch(sys.event) (every matched
 *               hit), onmax($var), onchange($var)
 *
 * A hist_data's fields are, in order: hitcount, the values, the
 * variables (n_vals counts them all), then the keys.
 *
 * Parsing, registration and reading are under the event mutex.  The probe
 * (hist_trigger_func()) reads the structures and writes only the table.
 * Not installed.
 */
#ifndef _USTRACE_KERNEL_TRACE_TRACE_EVENTS_HIST_H
#define _USTRACE_KERNEL_TRACE_TRACE_EVENTS_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/seq_buf.h>

#include "../internal.h"
#include "trace_synth.h"
#include "trace_trigger.h"
#include "tracing_map.h"

#define HIST_FIELD_OPERANDS_MAX	2
#define HIST_FIELDS_MAX		(TRACING_MAP_FIELDS_MAX + TRACING_MAP_VARS_MAX)
#define HIST_ACTIONS_MAX	8
#define HIST_CONST_DIGITS_MAX	21
#define HIST_DIV_SHIFT		20
#define HIST_STACKTRACE_DEPTH	16
#define HIST_STACKTRACE_SIZE	(HIST_STACKTRACE_DEPTH * 8)
#define HIST_KEY_SIZE_MAX	(STR_VAR_LEN_MAX + HIST_STACKTRACE_SIZE)
#define HITCOUNT_IDX		0

/* The error_log messages, the kernel's (6.1), in its order. */
#define HIST_ERRORS							\
	C(NONE,			"No error"),				\
	C(DUPLICATE_VAR,	"Variable already defined"),		\
	C(VAR_NOT_UNIQUE,	"Variable name not unique, need to use fully qualified name (subsys.event.var) for variable"), \
	C(TOO_MANY_VARS,	"Too many variables defined"),		\
	C(MALFORMED_ASSIGNMENT,	"Malformed assignment"),		\
	C(NAMED_MISMATCH,	"Named hist trigger doesn't match existing named trigger (includes variables)"), \
	C(TRIGGER_EEXIST,	"Hist trigger already exists"),		\
	C(TRIGGER_ENOENT_CLEAR,	"Can't clear or continue a nonexistent hist trigger"), \
	C(SET_CLOCK_FAIL,	"Couldn't set trace_clock"),		\
	C(BAD_FIELD_MODIFIER,	"Invalid field modifier"),		\
	C(TOO_MANY_SUBEXPR,	"Too many subexpressions (3 max)"),	\
	C(TIMESTAMP_MISMATCH,	"Timestamp units in expression don't match"), \
	C(TOO_MANY_FIELD_VARS,	"Too many field variables defined"),	\
	C(EVENT_FILE_NOT_FOUND,	"Event file not found"),		\
	C(HIST_NOT_FOUND,	"Matching event histogram not found"),	\
	C(HIST_CREATE_FAIL,	"Couldn't create histogram for field"),	\
	C(SYNTH_VAR_NOT_FOUND,	"Couldn't find synthetic variable"),	\
	C(SYNTH_EVENT_NOT_FOUND,"Couldn't find synthetic event"),	\
	C(SYNTH_TYPE_MISMATCH,	"Param type doesn't match synthetic event field type"), \
	C(SYNTH_COUNT_MISMATCH,	"Param count doesn't match synthetic event field count"), \
	C(FIELD_VAR_PARSE_FAIL,	"Couldn't parse field variable"),	\
	C(VAR_CREATE_FIND_FAIL,	"Couldn't create or find variable"),	\
	C(ONX_NOT_VAR,		"For onmax(x) or onchange(x), x must be a variable"), \
	C(ONX_VAR_NOT_FOUND,	"Couldn't find onmax or onchange variable"), \
	C(ONX_VAR_CREATE_FAIL,	"Couldn't create onmax or onchange variable"), \
	C(FIELD_VAR_CREATE_FAIL,"Couldn't create field variable"),	\
	C(TOO_MANY_PARAMS,	"Too many action params"),		\
	C(PARAM_NOT_FOUND,	"Couldn't find param"),			\
	C(INVALID_PARAM,	"Invalid action param"),		\
	C(ACTION_NOT_FOUND,	"No action found"),			\
	C(NO_SAVE_PARAMS,	"No params found for save()"),		\
	C(TOO_MANY_SAVE_ACTIONS,"Can't have more than one save() action per hist"), \
	C(ACTION_MISMATCH,	"Handler doesn't support action"),	\
	C(NO_CLOSING_PAREN,	"No closing paren found"),		\
	C(SUBSYS_NOT_FOUND,	"Missing subsystem"),			\
	C(INVALID_SUBSYS_EVENT,	"Invalid subsystem or event name"),	\
	C(INVALID_REF_KEY,	"Using variable references in keys not supported"), \
	C(VAR_NOT_FOUND,	"Couldn't find variable"),		\
	C(FIELD_NOT_FOUND,	"Couldn't find field"),			\
	C(EMPTY_ASSIGNMENT,	"Empty assignment"),			\
	C(INVALID_SORT_MODIFIER,"Invalid sort modifier"),		\
	C(EMPTY_SORT_FIELD,	"Empty sort field"),			\
	C(TOO_MANY_SORT_FIELDS,	"Too many sort fields (Max = 2)"),	\
	C(INVALID_SORT_FIELD,	"Sort field must be a key or a val"),	\
	C(INVALID_STR_OPERAND,	"String type can not be an operand in expression"), \
	C(EXPECT_NUMBER,	"Expecting numeric literal"),		\
	C(UNARY_MINUS_SUBEXPR,	"Unary minus not supported in sub-expressions"), \
	C(DIVISION_BY_ZERO,	"Division by zero"),

#define C(a, b)		HIST_ERR_##a
enum { HIST_ERRORS };
#undef C

/* The kernel's hist_field_flags, for the same comparisons and texts. */
enum {
	HIST_FIELD_FL_HITCOUNT		= 1 << 0,
	HIST_FIELD_FL_KEY		= 1 << 1,
	HIST_FIELD_FL_STRING		= 1 << 2,
	HIST_FIELD_FL_HEX		= 1 << 3,
	HIST_FIELD_FL_SYM		= 1 << 4,
	HIST_FIELD_FL_SYM_OFFSET	= 1 << 5,
	HIST_FIELD_FL_EXECNAME		= 1 << 6,
	HIST_FIELD_FL_SYSCALL		= 1 << 7,
	HIST_FIELD_FL_STACKTRACE	= 1 << 8,
	HIST_FIELD_FL_LOG2		= 1 << 9,
	HIST_FIELD_FL_TIMESTAMP		= 1 << 10,
	HIST_FIELD_FL_TIMESTAMP_USECS	= 1 << 11,
	HIST_FIELD_FL_VAR		= 1 << 12,
	HIST_FIELD_FL_EXPR		= 1 << 13,
	HIST_FIELD_FL_VAR_REF		= 1 << 14,
	HIST_FIELD_FL_CPU		= 1 << 15,
	HIST_FIELD_FL_ALIAS		= 1 << 16,
	HIST_FIELD_FL_BUCKET		= 1 << 17,
	HIST_FIELD_FL_CONST		= 1 << 18,
	HIST_FIELD_FL_PERCENT		= 1 << 19,
	HIST_FIELD_FL_GRAPH		= 1 << 20,
};

enum field_op_id {
	FIELD_OP_NONE,
	FIELD_OP_PLUS,
	FIELD_OP_MINUS,
	FIELD_OP_UNARY_MINUS,
	FIELD_OP_DIV,
	FIELD_OP_MULT,
};

/* How the probe computes a field (the kernel's enum hist_field_fn). */
enum hist_field_fn {
	HIST_FIELD_FN_NOP,
	HIST_FIELD_FN_VAR_REF,
	HIST_FIELD_FN_COUNTER,
	HIST_FIELD_FN_CONST,
	HIST_FIELD_FN_LOG2,
	HIST_FIELD_FN_BUCKET,
	HIST_FIELD_FN_TIMESTAMP,
	HIST_FIELD_FN_CPU,
	HIST_FIELD_FN_STRING,
	HIST_FIELD_FN_DYNSTRING,
	HIST_FIELD_FN_S64,
	HIST_FIELD_FN_U64,
	HIST_FIELD_FN_S32,
	HIST_FIELD_FN_U32,
	HIST_FIELD_FN_S16,
	HIST_FIELD_FN_U16,
	HIST_FIELD_FN_S8,
	HIST_FIELD_FN_U8,
	HIST_FIELD_FN_UMINUS,
	HIST_FIELD_FN_MINUS,
	HIST_FIELD_FN_PLUS,
	HIST_FIELD_FN_DIV,
	HIST_FIELD_FN_MULT,
	HIST_FIELD_FN_DIV_POWER2,
	HIST_FIELD_FN_DIV_NOT_POWER2,
	HIST_FIELD_FN_DIV_MULT_SHIFT,
	HIST_FIELD_FN_EXECNAME,
};

/* What an event field is to a hist trigger. */
enum hist_ev_kind {
	HIST_EV_NUM,		/* an integer */
	HIST_EV_STATIC_STR,	/* char[N] */
	HIST_EV_DYN_STR,	/* __data_loc char[] */
	HIST_EV_CPU,		/* the "cpu" / "CPU" pseudo field */
	HIST_EV_OTHER,		/* an array, a struct: no value */
};

/**
 * struct hist_ev_field - an event field, copied (the kernel's
 *	ftrace_event_field): the event may go (dlclose()) while a named
 *	histogram that used it lives on
 */
struct hist_ev_field {
	char			*name;
	char			*type;
	unsigned int		offset;
	unsigned int		size;
	bool			is_signed;
	enum hist_ev_kind	kind;
};

struct hist_data;

/**
 * struct hist_field - a key, value, variable, expression or operand
 * @field:       the event field it reads (NULL for the others)
 * @flags:       HIST_FIELD_FL_*
 * @type:        its type, as the kernel names it ("u64", "char[]", ...)
 * @operands:    an expression's operands; LOG2 and BUCKET: the field
 * @hist_data:   the trigger it belongs to (a var ref: the variable's)
 * @fn_num:      what the probe computes
 * @size:        bytes (a key: in the compound key)
 * @offset:      a key's offset in the compound key
 * @var_name:    a variable's name ("ts0"); NULL if not a variable
 * @var_idx:     a variable's index in its table (var ref: the variable's)
 * @var_hd:      a var ref: the trigger that has the variable
 * @system, @event_name: a var ref written "sys.event.$var"
 * @name:        an expression's text, a var ref's variable name
 * @full_name:   "sys.event.var" for a qualified var ref
 * @var_ref_idx: a var ref: its index in the hit's values
 * @read_once:   a var ref in an expression: unset the variable once read
 * @var_str_idx: a string variable's storage in the element
 */
struct hist_field {
	struct hist_ev_field	*field;
	unsigned long		flags;
	unsigned long		buckets;
	char			*type;
	struct hist_field	*operands[HIST_FIELD_OPERANDS_MAX];
	struct hist_data	*hist_data;
	enum hist_field_fn	fn_num;
	unsigned int		size;
	unsigned int		offset;
	bool			is_signed;
	char			*var_name;
	unsigned int		var_idx;
	struct hist_data	*var_hd;
	enum field_op_id	operator;
	char			*system;
	char			*event_name;
	char			*name;
	char			*full_name;
	unsigned int		var_ref_idx;
	bool			read_once;
	unsigned int		var_str_idx;
	uint64_t		constant;
	uint64_t		div_multiplier;
};

struct var_defs {
	unsigned int	n_vars;
	char		*name[TRACING_MAP_VARS_MAX];
	char		*expr[TRACING_MAP_VARS_MAX];
};

struct hist_trigger_attrs {
	char		*keys_str;
	char		*vals_str;
	char		*sort_key_str;
	char		*name;
	char		*clock;
	bool		pause;
	bool		cont;
	bool		clear;
	bool		ts_in_usecs;
	unsigned int	map_bits;
	char		*assignment_str[TRACING_MAP_VARS_MAX];
	unsigned int	n_assignments;
	char		*action_str[HIST_ACTIONS_MAX];
	unsigned int	n_actions;
	struct var_defs	var_defs;
};

/* A variable for an event field, and the field it takes its value from. */
struct field_var {
	struct hist_field	*var;
	struct hist_field	*val;
};

/* A hist trigger made on another event to give an action a field var. */
struct field_var_hist {
	struct trace_event_file	*file;
	char			*cmd;
};

struct sort_key {
	unsigned int	field_idx;	/* in fields[]; 0: hitcount */
	bool		descending;
};

struct action_data;

/**
 * struct hist_data - a hist trigger's definition and table (the kernel's
 *	hist_trigger_data)
 * @event_file:  the event file it was set on
 * @key_zero:    the bytes of the key a hit zeroes: its own, or more when
 *               a referenced variable's table has a longer key
 * @refs:        triggers using it (a named histogram has several)
 * @var_users:   other triggers referencing its variables: "!hist" is
 *               -EBUSY while any; its memory stays while any
 * @detached:    its trigger is gone (only @var_users keep it)
 * @clearing:    :clear empties the table; probes keep off (atomic)
 */
struct hist_data {
	struct hist_field		*fields[HIST_FIELDS_MAX];
	unsigned int			n_vals;
	unsigned int			n_keys;
	unsigned int			n_fields;
	unsigned int			n_vars;
	unsigned int			n_var_str;
	unsigned int			key_size;
	struct sort_key			sort_keys[TRACING_MAP_SORT_KEYS_MAX];
	unsigned int			n_sort_keys;
	struct trace_event_file		*event_file;
	struct hist_trigger_attrs	*attrs;
	struct tracing_map		*map;
	bool				enable_timestamps;
	bool				remove;
	bool				has_comm;
	unsigned int			key_zero;
	struct hist_field		*var_refs[TRACING_MAP_VARS_MAX];
	unsigned int			n_var_refs;
	struct action_data		*actions[HIST_ACTIONS_MAX];
	unsigned int			n_actions;
	struct field_var		*field_vars[SYNTH_FIELDS_MAX];
	unsigned int			n_field_vars;
	unsigned int			n_field_var_str;
	struct field_var_hist		*field_var_hists[SYNTH_FIELDS_MAX];
	unsigned int			n_field_var_hists;
	struct field_var		*save_vars[SYNTH_FIELDS_MAX];
	unsigned int			n_save_vars;
	unsigned int			n_save_var_str;

	int				refs;
	int				var_users;
	bool				detached;
	int				clearing;
	struct hist_data		*next_named;
	bool				in_hist_vars;
	struct hist_data		*next_var;
};

/* What the probe computes a field with, for one hit. */
struct hist_ctx {
	struct hist_data	*hist_data;
	struct trace_event_file	*file;		/* where the event fired */
	const unsigned char	*rec;
	unsigned int		len;
	const void		*ret;		/* for stack traces */
	unsigned char		*elt;		/* the hit's element */
	const uint64_t		*var_ref_vals;
	uint64_t		ts;
	bool			have_ts;
};

/*
 * A histogram's text may be longer than a trace_seq: it is a growing
 * seq_buf (seq_buf_grow_*(), kernel/internal.h).
 */

/* ------------------------------------------------------------------
 * trace_events_hist.c
 */

/* The hist triggers with variables or references (the kernel's tr->hist_vars). */
extern struct hist_data *hist_vars;

void hist_err(int type, unsigned int pos);
unsigned int errpos(const char *str);
/* Parse and set (or with "!" remove) a hist trigger internally (field vars). */
int hist_trigger_parse_internal(struct trace_event_file *file, const char *cmd, bool remove);
struct trace_event_file *hist_find_event_file(struct trace_array *tr, const char *system,
					      const char *event);
/* The hist trigger data of @file's hist triggers, in order; NULL after the last. */
struct hist_data *hist_file_next(struct trace_event_file *file, struct hist_data *prev);
char *hist_find_trigger_filter(struct hist_data *hd, struct trace_event_file *file);
void hist_print_key(struct seq_buf *b, struct hist_data *hd, const unsigned char *key,
		    const char *comm);

/* ------------------------------------------------------------------
 * trace_events_hist_field.c
 */

struct hist_field *create_hist_field(struct hist_data *hd, const struct hist_ev_field *field,
				     unsigned long flags, const char *var_name);
void destroy_hist_field(struct hist_field *f, unsigned int level);
struct hist_field *parse_expr(struct hist_data *hd, struct trace_event_file *file, char *str,
			      unsigned long flags, const char *var_name,
			      unsigned int *n_subexprs, int *errp);
struct hist_field *parse_atom(struct hist_data *hd, struct trace_event_file *file, char *str,
			      unsigned long *flags, const char *var_name, int *errp);
bool field_has_hist_vars(struct hist_field *f, unsigned int level);
struct hist_field *find_var_field(struct hist_data *hd, const char *var_name);
struct hist_field *find_var(struct hist_data *hd, struct trace_event_file *file,
			    const char *var_name);
struct hist_field *find_event_var(struct hist_data *hd, const char *system,
				  const char *event_name, const char *var_name);
struct hist_field *find_target_event_var(struct hist_data *hd, const char *system,
					 const char *event_name, const char *var_name);
struct hist_field *create_var_ref(struct hist_data *hd, struct hist_field *var_field,
				  const char *system, const char *event_name);
struct hist_field *create_var(struct hist_data *hd, struct trace_event_file *file,
			      const char *name, unsigned int size, const char *type);
int find_var_ref_idx(struct hist_data *hd, struct hist_field *var_field);
const char *hist_field_name(const struct hist_field *f, unsigned int level);
const char *get_hist_field_flags(const struct hist_field *f);
void hist_field_print(struct seq_buf *b, const struct hist_field *f);
uint64_t hist_fn_call(const struct hist_field *f, struct hist_ctx *ctx);
/* A string field's bytes for the hit (at most *@maxp of them, NUL or not). */
const char *hist_field_str(const struct hist_field *f, struct hist_ctx *ctx, unsigned int *maxp);
void hist_copy_str(char *dst, unsigned int size, const struct hist_field *f,
		   struct hist_ctx *ctx);
bool find_ev_field(struct trace_event_call *call, const char *name, struct hist_ev_field *out);
void hist_ev_field_free(struct hist_ev_field *f);

/* ------------------------------------------------------------------
 * trace_events_hist_action.c
 */

int parse_actions(struct hist_data *hd);
int create_actions(struct hist_data *hd);
void destroy_actions(struct hist_data *hd);
void destroy_field_vars(struct hist_data *hd);
void unregister_field_var_hists(struct hist_data *hd);
void destroy_field_var_hists(struct hist_data *hd);
bool actions_match(struct hist_data *a, struct hist_data *b);
struct hist_field *find_match_var(struct hist_data *hd, const char *var_name, int *errp);
void update_field_vars(struct hist_data *hd, struct hist_ctx *ctx);
void hist_trigger_actions(struct hist_data *hd, struct hist_ctx *ctx, const void *key,
			  const uint64_t *var_ref_vals);
void print_actions(struct seq_buf *b, struct hist_data *hd, unsigned char *elt);
void print_actions_spec(struct seq_buf *b, struct hist_data *hd);
void track_data_snapshot_print(struct seq_buf *b, struct hist_data *hd);

#endif /* _USTRACE_KERNEL_TRACE_TRACE_EVENTS_HIST_H */
