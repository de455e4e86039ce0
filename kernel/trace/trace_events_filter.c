// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Event filters: the kernel's filter language (Documentation/trace/
 * events.rst, "Filters"), compiled once when a filter file is written and
 * evaluated by the probe before the record is committed.
 *
 * Terminology, as the kernel's: a filter is a boolean expression of
 * predicates ("field op value") joined by &&, || and !, with parentheses.
 * A predicate compares one field of the record (or the CPU, or the
 * thread's name) with a constant.
 *
 * Compiling turns the expression into a program: one instruction per
 * predicate, in the order they are written, each with the two
 * instructions to go to when it holds and when it does not:
 *
 *	"a && (b || !c)"	insn 0: a	true: 1     false: REJECT
 *				insn 1: b	true: PASS  false: 2
 *				insn 2: c ^ 1	true: PASS  false: REJECT
 *
 * Targets only go forward, so evaluation ends after at most one visit
 * of each instruction; it reads the record at fixed offsets and never
 * allocates, parses or takes a lock.
 *
 * The probe does not run the instructions themselves but the steps made
 * from them when the filter is packed (struct filter_step, in
 * trace_filter_run.h with the loop that runs them): each step's
 * code says at once what it loads (the field's size and signedness, or
 * the CPU) and how it tests it (one range test, a bit test, or the bytes
 * of a string compared in place), its '!'s and its own negation are
 * folded into its two targets, and only the rarer predicates (globs,
 * prefixes, CPUS{} of several CPUs, .function, char * fields, COMM) go
 * back to the instruction's interpreter.
 *
 * Errors are the kernel's, message for message and caret for caret
 * (checked against Linux 6.18), including its errno quirks: a write with
 * an unbalanced ')' fails with EPERM, one with an unbalanced '(' with
 * ENOENT, one with an unterminated quote with ESRCH.
 */
#define __USTRACE_CORE
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/uio.h>

#include <linux/trace_events.h>
#include <linux/tracepoint.h>

#include "../internal.h"
#include "trace.h"
#include "trace_filter.h"
#include "trace_filter_run.h"

#define FILTER_MAX_EXPR		4096	/* a longer write is refused (the kernel's PAGE_SIZE) */
#define FILTER_MAX_STR		256	/* MAX_FILTER_STR_VAL: longest string operand + 1 */
#define FILTER_MAX_NUM		24	/* longest numeric operand + 1 */
#define FILTER_PSTR_MAX		1024	/* bytes read behind a char * field */
#define FILTER_COMM_LEN		16	/* TASK_COMM_LEN */

/* The kernel's parse errors, in its order; the index is its error code. */
#define FILTER_ERRORS							\
	FERR(NONE,		"No error")				\
	FERR(INVALID_OP,	"Invalid operator")			\
	FERR(TOO_MANY_OPEN,	"Too many '('")				\
	FERR(TOO_MANY_CLOSE,	"Too few '('")				\
	FERR(MISSING_QUOTE,	"Missing matching quote")		\
	FERR(MISSING_BRACE_OPEN, "Missing '{'")				\
	FERR(MISSING_BRACE_CLOSE, "Missing '}'")			\
	FERR(OPERAND_TOO_LONG,	"Operand too long")			\
	FERR(EXPECT_STRING,	"Expecting string field")		\
	FERR(EXPECT_DIGIT,	"Expecting numeric field")		\
	FERR(ILLEGAL_FIELD_OP,	"Illegal operation for field type")	\
	FERR(FIELD_NOT_FOUND,	"Field not found")			\
	FERR(ILLEGAL_INTVAL,	"Illegal integer value")		\
	FERR(BAD_SUBSYS_FILTER,	"Couldn't find or set field in one of a subsystem's events") \
	FERR(TOO_MANY_PREDS,	"Too many terms in predicate expression") \
	FERR(INVALID_FILTER,	"Meaningless filter expression")	\
	FERR(INVALID_CPULIST,	"Invalid cpulist")			\
	FERR(INVALID_VALUE,	"Invalid value (did you forget quotes)?") \
	FERR(NO_FUNCTION,	"Function not found")			\
	FERR(NO_FILTER,		"No filter found")

enum {
#define FERR(sym, text)	FILT_ERR_##sym,
	FILTER_ERRORS
#undef FERR
};

static const char *const filter_err_text[] = {
#define FERR(sym, text)	text,
	FILTER_ERRORS
#undef FERR
};

static const char filter_err_loc[] = "event filter parse error";

/*
 * What the system filter file shows: the kernel keeps no text for a
 * system filter that was set, only for one no event took.
 */
static const char system_filter_text[] =
	"### global filter ###\n"
	"# Use this to set filters for multiple events.\n"
	"# Only events with the given fields will be affected.\n"
	"# If no events are modified, an error message will be displayed here\n";

/*
 * Why compiling failed: @code is a FILT_ERR_* (> 0) or, for failures the
 * kernel reports as "Error: (N)", N itself (0 or -ENOMEM); @pos is the
 * caret's column; @errnum the errno of the write.
 */
struct filter_error {
	int	code;
	int	pos;
	int	errnum;
};

/* ------------------------------------------------------------------
 * The compiled program
 */

/* What an instruction reads. */
enum {
	FI_U8, FI_S8, FI_U16, FI_S16, FI_U32, FI_S32, FI_U64, FI_S64,
	FI_CPU,		/* the CPU the probe runs on */
	FI_CPU_MASK,	/* ... in a set of CPUS{} */
	FI_U8_MASK, FI_U16_MASK, FI_U32_MASK, FI_U64_MASK,	/* a field in CPUS{} */
	FI_FUNC,	/* an address in a function (.function) */
	FI_FALSE,	/* a comparison the kernel never satisfies */
	FI_STR,		/* char array in the record */
	FI_DSTR,	/* __data_loc string */
	FI_RSTR,	/* __rel_loc string */
	FI_PSTR,	/* char * into the program's memory */
	FI_COMM,	/* the thread's name */
};

/* How it compares (signedness is part of the operator). */
enum {
	FOP_EQ, FOP_BAND,
	FOP_NE,		/* CPUS{} of several CPUs: any CPU in range */
	FOP_LT_S, FOP_LE_S, FOP_GT_S, FOP_GE_S,
	FOP_LT_U, FOP_LE_U, FOP_GT_U, FOP_GE_U,
	/* strings: the kernel's match types */
	FM_FULL, FM_FRONT, FM_MIDDLE, FM_END, FM_GLOB,
};

/**
 * struct filter_insn - one predicate of a compiled filter
 * @kind:     FI_*: where the value comes from
 * @op:       FOP_* or FM_*
 * @not:      the predicate's own negation (!=, a glob starting with '!');
 *            not applied when the kernel's predicate fails outright (a
 *            char * that cannot be read)
 * @invert:   the expression's '!'s over this predicate
 * @on_true:  the next instruction when (result ^ @invert) holds; the
 *            number of instructions means "pass", one more "reject"
 * @on_false: the next instruction otherwise
 * @offset:   of the field in the record
 * @size:     of the field (of a char array: its length)
 * @val:      the constant, cut to the field's size and extended as the
 *            field is when read, so that one 64-bit compare decides; the
 *            number of CPUs for CPUS{}; the function's start (.function)
 * @pattern:  the string operand (after the glob's '*'s are taken off);
 *            the CPU bitmap of CPUS{}
 * @plen:     its length in bytes; the function's size
 * @range:    a number compared as one range test, set when the program
 *            is packed: ((value ^ @flip) - @lo) <= @span, unsigned (the
 *            sign bit flipped for a signed compare), instead of @op
 */
struct filter_insn {
	unsigned char		kind;
	unsigned char		op;
	unsigned char		not;
	unsigned char		invert;
	unsigned short		on_true;
	unsigned short		on_false;
	unsigned int		offset;
	unsigned int		size;
	unsigned long long	val;
	const char		*pattern;
	unsigned int		plen;
	bool			range;
	unsigned long long	flip, lo, span;
};

/* ------------------------------------------------------------------
 * Characters, as the kernel's <linux/ctype.h> classifies them (Latin-1:
 * 0xa0 is a space, 0xc0-0xff but two are letters)
 */

static bool f_isspace(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || c == 0xa0;
}

static bool f_isdigit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static bool f_isalnum(unsigned char c)
{
	return f_isdigit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') ||
	       (c >= 0xc0 && c != 0xd7 && c != 0xf7);
}

static int f_digit_value(unsigned char c)
{
	if (f_isdigit(c))
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : 16;
}

/*
 * The kernel's kstrtoull(s, 0): "0x" and a hex digit: base 16; a leading
 * 0: base 8; every character must be a digit.  Return: 0, -EINVAL, -ERANGE.
 */
static int parse_ull(const char *s, unsigned long long *res)
{
	unsigned long long v = 0;
	unsigned int base = 10, n = 0;
	int d;

	if (s[0] == '0') {
		if ((s[1] | 0x20) == 'x' && f_digit_value(s[2]) < 16) {
			base = 16;
			s += 2;
		} else {
			base = 8;
		}
	}
	for (; (d = f_digit_value(*s)) < (int)base; s++, n++) {
		if (v > (~0ull - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	if (!n || *s)
		return -EINVAL;
	*res = v;
	return 0;
}

/* kstrtoll(s, 0): as parse_ull() with a '-', within the range of s64. */
static int parse_ll(const char *s, unsigned long long *res)
{
	unsigned long long v;
	int err;

	if (s[0] != '-') {
		err = parse_ull(s, &v);
		if (!err && (long long)v < 0)
			err = -ERANGE;
	} else {
		err = parse_ull(s + 1, &v);
		if (!err && (long long)-v > 0)
			err = -ERANGE;
		v = -v;
	}
	if (!err)
		*res = v;
	return err;
}

/* ------------------------------------------------------------------
 * Fields
 */

/* How a field is compared, from its type text (the kernel's rules). */
enum {
	FIELD_NUM,
	FIELD_STR,	/* char[N] */
	FIELD_DSTR,	/* __data_loc char[] */
	FIELD_RSTR,	/* __rel_loc char[] */
	FIELD_PSTR,	/* char *, const char * */
	FIELD_CPU,	/* CPU, cpu, common_cpu */
	FIELD_COMM,	/* COMM, comm */
};

struct field_ref {
	int		kind;
	unsigned int	offset;
	unsigned int	size;
	bool		is_signed;
};

/*
 * An event's fields, copied under the event mutex so that parsing runs
 * without it (a filter may name a function: looking it up takes the
 * dynamic linker's lock, which a constructor registering events holds
 * while it waits for the event mutex).
 */
struct event_fields {
	unsigned int	nr;
	struct {
		const char	*name;
		struct field_ref ref;
	} f[];
};

static int field_kind(const char *type)
{
	if (strstr(type, "__data_loc") && strstr(type, "char"))
		return FIELD_DSTR;
	if (strstr(type, "__rel_loc") && strstr(type, "char"))
		return FIELD_RSTR;
	if (strchr(type, '[') && strstr(type, "char"))
		return FIELD_STR;
	if (!strcmp(type, "char *") || !strcmp(type, "const char *"))
		return FIELD_PSTR;
	return FIELD_NUM;
}

/* @call's fields, names included; @call registered, the event mutex held. */
static struct event_fields *fields_snapshot(const struct trace_event_call *call)
{
	const struct trace_event_priv *priv = call->priv;
	const struct trace_event_fields *fa = call->event_class->fields_array;
	size_t head = sizeof(struct event_fields), names = 0, len;
	struct event_fields *ef;
	unsigned int i;
	char *p;

	head += priv->nr_fields * sizeof(ef->f[0]);
	for (i = 0; i < priv->nr_fields; i++)
		names += strlen(fa[i].name) + 1;
	ef = malloc(head + names);
	if (!ef)
		return NULL;
	ef->nr = priv->nr_fields;
	p = (char *)ef + head;
	for (i = 0; i < priv->nr_fields; i++) {
		len = strlen(fa[i].name) + 1;
		ef->f[i].name = memcpy(p, fa[i].name, len);
		p += len;
		ef->f[i].ref.kind = field_kind(fa[i].type);
		ef->f[i].ref.offset = priv->offsets[i];
		ef->f[i].ref.size = (unsigned int)fa[i].size;
		ef->f[i].ref.is_signed = fa[i].is_signed;
	}
	return ef;
}

static bool name_is(const char *name, const char *s, size_t len)
{
	return strlen(name) == len && !memcmp(name, s, len);
}

/*
 * The field @s (@len bytes): the event's own fields first, then CPU and
 * COMM, then the common fields, in the kernel's order.
 */
static bool find_field(const struct event_fields *ef, const char *s, size_t len,
		       struct field_ref *ref)
{
	static const struct {
		const char	*name;
		unsigned char	offset, size, is_signed;
	} common[] = {
		{ "common_type",		0, 2, 0 },
		{ "common_flags",		2, 1, 0 },
		{ "common_preempt_count",	3, 1, 0 },
		{ "common_pid",			4, 4, 1 },
	};
	unsigned int i;

	for (i = 0; i < ef->nr; i++) {
		if (name_is(ef->f[i].name, s, len)) {
			*ref = ef->f[i].ref;
			return true;
		}
	}
	memset(ref, 0, sizeof(*ref));
	if (name_is("CPU", s, len) || name_is("cpu", s, len) || name_is("common_cpu", s, len)) {
		ref->kind = FIELD_CPU;
		ref->is_signed = true;
		return true;
	}
	if (name_is("COMM", s, len) || name_is("comm", s, len)) {
		ref->kind = FIELD_COMM;
		return true;
	}
	for (i = 0; i < sizeof(common) / sizeof(common[0]); i++) {
		if (!name_is(common[i].name, s, len))
			continue;
		ref->kind = FIELD_NUM;
		ref->offset = common[i].offset;
		ref->size = common[i].size;
		ref->is_signed = common[i].is_signed;
		return true;
	}
	return false;
}

static bool field_is_string(const struct field_ref *ref)
{
	return ref->kind != FIELD_NUM && ref->kind != FIELD_CPU;
}

/* ------------------------------------------------------------------
 * Parsing
 */

/* The operators in the order the kernel tries them ("<=" before "<"). */
enum { OP_GLOB, OP_NE, OP_EQ, OP_LE, OP_LT, OP_GE, OP_GT, OP_BAND, OP_NONE };
static const char *const op_text[] = { "~", "!=", "==", "<=", "<", ">=", ">", "&" };

/*
 * A node of the expression while it is parsed: a predicate (@insn >= 0)
 * or the && / || of its children (@first .. the @next chain).
 */
struct pnode {
	int	insn;
	bool	is_or;
	bool	neg;
	int	first;
	int	next;
	int	first_insn;	/* its leftmost predicate */
};

/*
 * One level of parentheses: the || of &&-chains seen so far, and the
 * chain being read.  @neg: the '!'s in front of the '('.
 */
struct pframe {
	int	and_first, and_last, nr_and;
	int	or_first, or_last, nr_or;
	bool	neg;
};

struct parser {
	const char			*str;
	const struct event_fields	*fields;
	struct filter_error		*fe;
	struct filter_insn		*insns;
	unsigned int			nr_insns, max_insns;
	struct pnode			*nodes;
	unsigned int			nr_nodes, max_nodes;
	struct pframe			*frames;
	unsigned int			nr_frames;
	size_t				pool_len;	/* bytes of patterns */
	unsigned int			min_len;
};

static int parse_fail(struct parser *ps, int code, int pos, int errnum)
{
	ps->fe->code = code;
	ps->fe->pos = pos;
	ps->fe->errnum = errnum;
	return -errnum;
}

static int new_node(struct parser *ps)
{
	struct pnode *n;

	if (ps->nr_nodes == ps->max_nodes) {
		unsigned int max = ps->max_nodes ? ps->max_nodes * 2 : 16;

		n = realloc(ps->nodes, max * sizeof(*n));
		if (!n)
			return -1;
		ps->nodes = n;
		ps->max_nodes = max;
	}
	n = &ps->nodes[ps->nr_nodes];
	memset(n, 0, sizeof(*n));
	n->insn = -1;
	n->first = -1;
	n->next = -1;
	return (int)ps->nr_nodes++;
}

/*
 * The kernel's first look at the expression: unbalanced parentheses and
 * quotes are reported before anything else, at the positions it reports
 * them.  *@depth: how deep the parentheses go (the whole is one level).
 * Return: 0 or the kernel's -errno.
 */
static int scan_expr(struct parser *ps, unsigned int *depth)
{
	const char *s = ps->str;
	int open = 1, max_open = 1, last_quote = 0, i, level;
	bool in_pred = false;
	unsigned int preds = 0;
	char quote = 0;

	for (i = 0; s[i]; i++) {
		char c = s[i];

		if (f_isspace(c))
			continue;
		if (quote) {
			if (c == quote)
				quote = 0;
			continue;
		}
		if (c == '\'' || c == '"') {
			quote = c;
			last_quote = i;
		} else if ((c == '&' || c == '|') && s[i + 1] == c) {
			in_pred = false;
			continue;
		} else if (c == '(') {
			in_pred = false;
			if (++open > max_open)
				max_open = open;
			continue;
		} else if (c == ')') {
			in_pred = false;
			if (open == 1)
				return parse_fail(ps, FILT_ERR_TOO_MANY_CLOSE, i, EPERM);
			open--;
			continue;
		}
		if (!in_pred) {
			preds++;
			in_pred = true;
		}
	}
	if (quote)
		return parse_fail(ps, FILT_ERR_MISSING_QUOTE, last_quote, ESRCH);
	if (open != 1) {
		/*
		 * Blame the '(' the kernel blames: walking back from the
		 * end (but not to the first character), the first one no
		 * ')' after it accounts for.
		 */
		level = open;
		for (i--; i > 0; i--) {
			if (quote) {
				if (s[i] == quote)
					quote = 0;
				continue;
			}
			if (s[i] == '(') {
				if (level == open)
					return parse_fail(ps, FILT_ERR_TOO_MANY_OPEN, i, ENOENT);
				level--;
			} else if (s[i] == ')') {
				level++;
			} else if (s[i] == '\'' || s[i] == '"') {
				quote = s[i];
			}
		}
		return parse_fail(ps, FILT_ERR_TOO_MANY_OPEN, 0, ENOENT);
	}
	if (!preds)
		return parse_fail(ps, 0, 0, EINVAL);
	*depth = (unsigned int)max_open;
	ps->max_insns = preds;
	return 0;
}

/*
 * The glob of "~": a leading '!' negates; a digit first means the
 * pattern is matched whole; "abc*", "*abc" and "*abc*" are prefix,
 * suffix and substring matches; anything else with *, ?, [ or \ is a
 * full glob (kept whole).
 */
static void glob_kind(struct filter_insn *in, char *pat)
{
	char *p = pat;
	size_t len, i;

	in->op = FM_FULL;
	if (*p == '!') {
		in->not = 1;
		p++;
	}
	len = strlen(p);
	if (!f_isdigit(*p)) {
		for (i = 0; i < len; i++) {
			if (p[i] == '*') {
				if (!i) {
					in->op = FM_END;
				} else if (i == len - 1) {
					in->op = in->op == FM_END ? FM_MIDDLE : FM_FRONT;
					p[i] = '\0';
					break;
				} else {
					in->op = FM_GLOB;
					break;
				}
			} else if (p[i] == '[' || p[i] == '?' || p[i] == '\\') {
				in->op = FM_GLOB;
				break;
			}
		}
		if (in->op != FM_GLOB && *p == '*')
			p++;
	}
	memmove(pat, p, strlen(p) + 1);
}

/* A quoted operand at @s[*i] (the quote); *@i ends after the closing one. */
static int parse_string(struct parser *ps, const char *s, int *i, int base, int op,
			const struct field_ref *ref, struct filter_insn *in)
{
	char q = s[*i];
	int start = *i + 1, len;
	char *pat;

	if (op != OP_EQ && op != OP_NE && op != OP_GLOB)
		return parse_fail(ps, FILT_ERR_ILLEGAL_FIELD_OP, base + *i, EINVAL);
	if (!field_is_string(ref))
		return parse_fail(ps, FILT_ERR_EXPECT_DIGIT, base + *i, EINVAL);
	for ((*i)++; s[*i] && s[*i] != q; (*i)++)
		;
	if (!s[*i])
		return parse_fail(ps, FILT_ERR_MISSING_QUOTE, base + *i, ESRCH);
	len = *i - start;
	if (len >= FILTER_MAX_STR)
		return parse_fail(ps, FILT_ERR_OPERAND_TOO_LONG, base + *i, EINVAL);
	(*i)++;
	pat = strndup(s + start, (size_t)len);
	if (!pat)
		return parse_fail(ps, -ENOMEM, 0, ENOMEM);
	in->op = FM_FULL;
	in->not = op == OP_NE;
	if (op == OP_GLOB)
		glob_kind(in, pat);
	in->pattern = pat;
	in->plen = (unsigned int)strlen(pat);
	ps->pool_len += in->plen + 1;
	switch (ref->kind) {
	case FIELD_COMM:
		in->kind = FI_COMM;
		in->size = FILTER_COMM_LEN;
		break;
	case FIELD_STR:
		in->kind = FI_STR;
		break;
	case FIELD_DSTR:
	case FIELD_RSTR:
		in->kind = ref->kind == FIELD_DSTR ? FI_DSTR : FI_RSTR;
		in->size = 4;
		break;
	default:
		in->kind = FI_PSTR;
		break;
	}
	return 0;
}

/* The constant @v as a field of @size bytes reads: cut, then extended. */
static unsigned long long fit_value(unsigned long long v, unsigned int size, bool is_signed)
{
	unsigned int shift = 64 - 8 * size;

	if (is_signed)
		return (unsigned long long)((long long)(v << shift) >> shift);
	return v << shift >> shift;
}

static void number_insn(struct filter_insn *in, int op, const struct field_ref *ref,
			unsigned long long v)
{
	static const unsigned char signed_ops[] = {
		[OP_LT] = FOP_LT_S, [OP_LE] = FOP_LE_S, [OP_GT] = FOP_GT_S, [OP_GE] = FOP_GE_S,
	};
	static const unsigned char unsigned_ops[] = {
		[OP_LT] = FOP_LT_U, [OP_LE] = FOP_LE_U, [OP_GT] = FOP_GT_U, [OP_GE] = FOP_GE_U,
	};
	bool sgn = ref->is_signed;

	if (ref->kind == FIELD_CPU) {
		/* The kernel compares the CPU as an int, and has no CPU & N. */
		in->kind = op == OP_BAND ? FI_FALSE : FI_CPU;
		in->val = (unsigned long long)(long long)(int)v;
		sgn = true;
	} else {
		switch (ref->size) {
		case 1:
			in->kind = sgn ? FI_S8 : FI_U8;
			break;
		case 2:
			in->kind = sgn ? FI_S16 : FI_U16;
			break;
		case 4:
			in->kind = sgn ? FI_S32 : FI_U32;
			break;
		case 8:
			in->kind = sgn ? FI_S64 : FI_U64;
			break;
		default:
			/* No comparison for other sizes: never true, even "!=". */
			in->kind = FI_FALSE;
			return;
		}
		in->val = fit_value(v, ref->size, sgn);
	}
	switch (op) {
	case OP_EQ:
		in->op = FOP_EQ;
		break;
	case OP_NE:
		in->op = FOP_EQ;
		in->not = 1;
		break;
	case OP_BAND:
		in->op = FOP_BAND;
		break;
	default:
		in->op = sgn ? signed_ops[op] : unsigned_ops[op];
		break;
	}
}

/*
 * The characters of a number that starts at @s[@start], from @s[*i]
 * (letters too: "0x1f", and "1a" is the kernel's Illegal integer value),
 * into @num.  Return: 0 or -errno (too long).
 */
static int take_number(struct parser *ps, const char *s, int *i, int start, int base,
		       char num[FILTER_MAX_NUM])
{
	int len;

	while (f_isalnum(s[*i]))
		(*i)++;
	len = *i - start;
	if (len >= FILTER_MAX_NUM)
		return parse_fail(ps, FILT_ERR_OPERAND_TOO_LONG, base + *i, EINVAL);
	memcpy(num, s + start, (size_t)len);
	num[len] = '\0';
	return 0;
}

/* A numeric operand at @s[*i] (a digit or '-'). */
static int parse_number(struct parser *ps, const char *s, int *i, int base, int op,
			const struct field_ref *ref, struct filter_insn *in)
{
	char num[FILTER_MAX_NUM];
	int start = *i, err;
	unsigned long long v;

	if (field_is_string(ref))
		return parse_fail(ps, FILT_ERR_EXPECT_STRING, base + *i, EINVAL);
	if (op == OP_GLOB)
		return parse_fail(ps, FILT_ERR_ILLEGAL_FIELD_OP, base + *i, EINVAL);
	if (s[*i] == '-')
		(*i)++;
	err = take_number(ps, s, i, start, base, num);
	if (err)
		return err;
	err = ref->is_signed ? parse_ll(num, &v) : parse_ull(num, &v);
	if (err)
		return parse_fail(ps, FILT_ERR_ILLEGAL_INTVAL, base + start, EINVAL);
	number_insn(in, op, ref, v);
	return 0;
}

/*
 * The kernel's cpulist_parse(): "a", "a-b", "a-b:used/group" (the first
 * @used CPUs of each @group from a to b), N for the last CPU, separated
 * by commas or spaces.  Return: 0, -EINVAL, -ERANGE (a CPU past @nbits).
 */
static int cpulist_num(const char **sp, unsigned long long *v, unsigned int nbits)
{
	const char *s = *sp;
	unsigned long long n = 0;

	if (*s == 'N') {
		*v = nbits - 1;
		*sp = s + 1;
		return 0;
	}
	if (!f_isdigit(*s))
		return -EINVAL;
	for (; f_isdigit(*s); s++) {
		n = n * 10 + (unsigned long long)(*s - '0');
		if (n > 0xffffffffull)
			return -EINVAL;
	}
	*v = n;
	*sp = s;
	return 0;
}

static bool cpulist_region_end(char c)
{
	return !c || c == ',' || f_isspace(c);
}

static int parse_cpulist(const char *s, unsigned char *mask, unsigned int nbits)
{
	unsigned long long start, end, used, group, cpu, bit;

	for (;;) {
		while (*s == ',' || f_isspace(*s))
			s++;
		if (!*s)
			return 0;
		if (cpulist_num(&s, &start, nbits))
			return -EINVAL;
		end = start;
		if (!cpulist_region_end(*s)) {
			if (*s++ != '-' || cpulist_num(&s, &end, nbits))
				return -EINVAL;
		}
		used = group = end + 1;
		if (!cpulist_region_end(*s)) {
			if (*s++ != ':' || cpulist_num(&s, &used, nbits) ||
			    *s++ != '/' || cpulist_num(&s, &group, nbits))
				return -EINVAL;
		}
		if (start > end || !group || used > group)
			return -EINVAL;
		if (end >= nbits)
			return -ERANGE;
		for (cpu = start; cpu <= end; cpu += group)
			for (bit = cpu; bit < cpu + used && bit <= end; bit++)
				mask[bit / 8] |= (unsigned char)(1u << (bit % 8));
	}
}

/*
 * "CPUS{list}" at @s[*i], for CPU or a numeric field, with ==, != or &:
 * one CPU is a plain comparison (& becomes ==); several test the bitmap.
 * The list names the ids of the possible CPUs, as the ring buffer's rings
 * and the kernel's nr_cpu_ids (with holes in the ids, more than there are
 * CPUs).
 */
static int parse_cpus(struct parser *ps, const char *s, int *i, int base, int op,
		      const struct field_ref *ref, struct filter_insn *in)
{
	static const unsigned char mask_kinds[] = {
		[1] = FI_U8_MASK, [2] = FI_U16_MASK, [4] = FI_U32_MASK, [8] = FI_U64_MASK,
	};
	unsigned int nbits = ring_buffer_cpu_ids(), nbytes = (nbits + 7) / 8, weight = 0, first = 0;
	struct field_ref plain = *ref;
	unsigned char *mask;
	char *list;
	int start, err;

	if (ref->kind != FIELD_NUM && ref->kind != FIELD_CPU)
		return parse_fail(ps, FILT_ERR_ILLEGAL_FIELD_OP, base + *i, EINVAL);
	if (op != OP_EQ && op != OP_NE && op != OP_BAND)
		return parse_fail(ps, FILT_ERR_ILLEGAL_FIELD_OP, base + *i, EINVAL);
	*i += 4;
	if (s[(*i)++] != '{')
		return parse_fail(ps, FILT_ERR_MISSING_BRACE_OPEN, base + *i, EINVAL);
	start = *i;
	while (s[*i] && s[*i] != '}')
		(*i)++;
	if (s[*i] != '}')
		return parse_fail(ps, FILT_ERR_MISSING_BRACE_CLOSE, base + *i, EINVAL);
	if (start == *i)
		return parse_fail(ps, FILT_ERR_INVALID_CPULIST, base + *i, EINVAL);
	list = strndup(s + start, (size_t)(*i - start));
	mask = calloc(nbytes + 1, 1);
	err = list && mask ? parse_cpulist(list, mask, nbits) : -ENOMEM;
	free(list);
	if (err) {
		free(mask);
		if (err == -ENOMEM)
			return parse_fail(ps, -ENOMEM, 0, ENOMEM);
		return parse_fail(ps, FILT_ERR_INVALID_CPULIST, base + *i, EINVAL);
	}
	(*i)++;
	for (unsigned int cpu = nbits; cpu-- > 0;) {
		if (mask[cpu / 8] & (1u << (cpu % 8))) {
			weight++;
			first = cpu;
		}
	}
	if (weight == 1) {
		/* One CPU: compared as an unsigned value. */
		free(mask);
		plain.is_signed = false;
		number_insn(in, op == OP_BAND ? OP_EQ : op, &plain, first);
		return 0;
	}
	if (ref->kind == FIELD_CPU)
		in->kind = FI_CPU_MASK;
	else if (ref->size <= 8 && mask_kinds[ref->size])
		in->kind = mask_kinds[ref->size];
	else
		in->kind = FI_FALSE;
	in->op = op == OP_EQ ? FOP_EQ : op == OP_NE ? FOP_NE : FOP_BAND;
	in->val = nbits;
	in->pattern = (char *)mask;
	in->plen = nbytes;
	ps->pool_len += nbytes + 1;
	return 0;
}

/* The function @addr is in: its start and size.  Return: false if none. */
static bool function_of(unsigned long addr, unsigned long long *start, unsigned int *size)
{
	const ElfW(Sym) *sym = NULL;
	unsigned long from;
	Dl_info info;

	if (!dladdr1((void *)addr, &info, (void **)&sym, RTLD_DL_SYMENT) ||
	    !info.dli_saddr || !sym)
		return false;
	from = (unsigned long)info.dli_saddr;
	*size = sym->st_size && sym->st_size < 0xffffffffu ? (unsigned int)sym->st_size : 1;
	if (addr < from || addr - from >= *size)
		return false;
	*start = from;
	return true;
}

/*
 * "field.function == name" (or != , or an address): the field, a
 * pointer-sized value, is an address inside that function of the
 * program or of a library it has loaded (the dynamic symbol tables).
 */
static int parse_function(struct parser *ps, const char *s, int *i, int base, int op,
			  const struct field_ref *ref, struct filter_insn *in)
{
	char num[FILTER_MAX_NUM], *name;
	unsigned long long addr, v;
	int start = *i;

	if (ref->size != sizeof(long))
		return parse_fail(ps, FILT_ERR_ILLEGAL_FIELD_OP, base + *i, EINVAL);
	if (op != OP_EQ && op != OP_NE)
		return parse_fail(ps, FILT_ERR_INVALID_OP, base + *i, EINVAL);
	if (f_isdigit(s[*i])) {
		int err = take_number(ps, s, i, start, base, num);

		if (err)
			return err;
		if (parse_ull(num, &v) || v > (unsigned long)-1)
			return parse_fail(ps, FILT_ERR_INVALID_VALUE, base + *i, EINVAL);
		addr = v;
	} else {
		while (s[*i] && !f_isspace(s[*i]))
			(*i)++;
		name = strndup(s + start, (size_t)(*i - start));
		if (!name)
			return parse_fail(ps, -ENOMEM, 0, ENOMEM);
		addr = *name ? (unsigned long)dlsym(RTLD_DEFAULT, name) : 0;
		free(name);
		if (!addr)
			return parse_fail(ps, FILT_ERR_NO_FUNCTION, base + *i, EINVAL);
	}
	if (!function_of((unsigned long)addr, &in->val, &in->plen))
		return parse_fail(ps, FILT_ERR_NO_FUNCTION, base + *i, EINVAL);
	in->kind = FI_FUNC;
	in->op = FOP_EQ;
	in->not = op == OP_NE;
	return 0;
}

static unsigned int insn_min_len(const struct filter_insn *in)
{
	switch (in->kind) {
	case FI_CPU:
	case FI_CPU_MASK:
	case FI_FALSE:
	case FI_COMM:
		return 0;
	case FI_PSTR:
		return in->offset + sizeof(char *);
	default:
		return in->offset + in->size;
	}
}

/*
 * One predicate at @s: "field[.ustring] op value".  @base is the
 * kernel's position of @s plus one: its carets for errors here are one
 * column right of the character they blame.
 * Return: the characters used, or -errno.
 */
static int parse_pred(struct parser *ps, const char *s, int base)
{
	struct filter_insn *in;
	struct field_ref ref;
	int i = 0, start, op, err;
	bool function;

	while (f_isspace(s[i]))
		i++;
	start = i;
	while (f_isalnum(s[i]) || s[i] == '_')
		i++;
	if (i == start)
		return parse_fail(ps, 0, 0, EPERM);	/* the kernel's bare -1 */
	if (!find_field(ps->fields, s + start, (size_t)(i - start), &ref))
		return parse_fail(ps, FILT_ERR_FIELD_NOT_FOUND, base + i, EINVAL);
	/* Every pointer is one of ours: ".ustring" changes nothing. */
	if (!strncmp(s + i, ".ustring", 8))
		i += 8;
	function = !strncmp(s + i, ".function", 9);
	if (function)
		i += 9;
	while (f_isspace(s[i]))
		i++;
	for (op = 0; op < OP_NONE; op++)
		if (!strncmp(s + i, op_text[op], strlen(op_text[op])))
			break;
	if (op == OP_NONE)
		return parse_fail(ps, FILT_ERR_INVALID_OP, base + i, EINVAL);
	i += (int)strlen(op_text[op]);
	while (f_isspace(s[i]))
		i++;

	/* scan_expr() counted at least as many predicates as there are. */
	if (ps->nr_insns == ps->max_insns)
		return parse_fail(ps, FILT_ERR_TOO_MANY_PREDS, base - 1, EINVAL);
	in = &ps->insns[ps->nr_insns];
	memset(in, 0, sizeof(*in));
	in->offset = ref.offset;
	in->size = ref.size;
	if (function)
		err = parse_function(ps, s, &i, base, op, &ref, in);
	else if (!strncmp(s + i, "CPUS", 4))
		err = parse_cpus(ps, s, &i, base, op, &ref, in);
	else if (s[i] == '\'' || s[i] == '"')
		err = parse_string(ps, s, &i, base, op, &ref, in);
	else if (f_isdigit(s[i]) || s[i] == '-')
		err = parse_number(ps, s, &i, base, op, &ref, in);
	else
		err = parse_fail(ps, FILT_ERR_INVALID_VALUE, base + i, EINVAL);
	if (err) {
		free((char *)in->pattern);
		return err;
	}
	if (insn_min_len(in) > ps->min_len)
		ps->min_len = insn_min_len(in);
	ps->nr_insns++;
	return i;
}

static void list_add(struct parser *ps, int *first, int *last, int *nr, int node)
{
	ps->nodes[node].next = -1;
	if (*nr)
		ps->nodes[*last].next = node;
	else
		*first = node;
	*last = node;
	(*nr)++;
}

/* A node for the && or || of a chain of @nr nodes, or the one node. */
static int chain_node(struct parser *ps, int first, int nr, bool is_or)
{
	int n;

	if (nr == 1)
		return first;
	n = new_node(ps);
	if (n < 0)
		return -1;
	ps->nodes[n].is_or = is_or;
	ps->nodes[n].first = first;
	ps->nodes[n].first_insn = ps->nodes[first].first_insn;
	return n;
}

static bool close_and(struct parser *ps, struct pframe *f)
{
	int n;

	if (!f->nr_and)
		return true;
	n = chain_node(ps, f->and_first, f->nr_and, false);
	if (n < 0)
		return false;
	list_add(ps, &f->or_first, &f->or_last, &f->nr_or, n);
	f->nr_and = 0;
	return true;
}

/* The value of a level of parentheses that ends: a node, or -1 (ENOMEM). */
static int close_group(struct parser *ps, struct pframe *f)
{
	int n;

	if (!close_and(ps, f))
		return -1;
	n = chain_node(ps, f->or_first, f->nr_or, true);
	if (n >= 0 && f->neg)
		ps->nodes[n].neg = !ps->nodes[n].neg;
	return n;
}

/*
 * The expression: '(' and '!' before a predicate, then "&&", "||", ")"
 * or the end after it; && binds tighter than ||.  An expression that
 * ends after "&&", "||" or '!' with predicates before it is meaningless
 * to the kernel (EINVAL, the caret at the end); with none, there is no
 * filter.
 * Return: the root node, or -errno.
 */
static int parse_expr(struct parser *ps)
{
	const char *s = ps->str;
	struct pframe *f = ps->frames;
	int i = 0, len, n, depth = 0;
	bool neg = false;

	memset(f, 0, sizeof(*f));
	for (;;) {
		/* Before a predicate. */
		while (f_isspace(s[i]))
			i++;
		if (s[i] == '(') {
			if (depth + 1 >= (int)ps->nr_frames)	/* scan_expr() counted them */
				return parse_fail(ps, 0, 0, EINVAL);
			f = &ps->frames[++depth];
			memset(f, 0, sizeof(*f));
			f->neg = neg;
			neg = false;
			i++;
			continue;
		}
		if (s[i] == '!' && s[i + 1] != '=' && s[i + 1] != '~') {
			neg = !neg;
			i++;
			continue;
		}
		if (!s[i])
			return parse_fail(ps, ps->nr_insns ? FILT_ERR_INVALID_FILTER :
					  FILT_ERR_NO_FILTER, i, EINVAL);
		len = parse_pred(ps, s + i, i + 1);
		if (len < 0)
			return len;
		n = new_node(ps);
		if (n < 0)
			return parse_fail(ps, -ENOMEM, 0, ENOMEM);
		ps->nodes[n].insn = (int)ps->nr_insns - 1;
		ps->nodes[n].first_insn = ps->nodes[n].insn;
		ps->nodes[n].neg = neg;
		neg = false;
		i += len;

		/* After a predicate or a ')'. */
		for (;;) {
			list_add(ps, &f->and_first, &f->and_last, &f->nr_and, n);
			while (f_isspace(s[i]))
				i++;
			if (s[i] != ')')
				break;
			if (!depth)
				return parse_fail(ps, FILT_ERR_TOO_MANY_CLOSE, i + 1, EPERM);
			n = close_group(ps, f);
			if (n < 0)
				return parse_fail(ps, -ENOMEM, 0, ENOMEM);
			f = &ps->frames[--depth];
			i++;
		}
		if (!s[i])
			break;
		if ((s[i] != '&' && s[i] != '|') || s[i + 1] != s[i])
			return parse_fail(ps, FILT_ERR_TOO_MANY_PREDS, i, EPERM);
		if (s[i] == '|' && !close_and(ps, f))
			return parse_fail(ps, -ENOMEM, 0, ENOMEM);
		i += 2;
	}
	if (depth)	/* scan_expr() saw them balanced: cannot happen */
		return parse_fail(ps, FILT_ERR_TOO_MANY_OPEN, i, EINVAL);
	n = close_group(ps, f);
	return n < 0 ? parse_fail(ps, -ENOMEM, 0, ENOMEM) : n;
}

/*
 * Give each predicate under @node its two targets: @on_true and
 * @on_false for the whole of @node, the next sibling's first predicate
 * in between.  @neg: the node is negated (De Morgan: a negated && is an
 * || of negations).  Depth: the nesting of parentheses.
 */
static void emit(struct parser *ps, int node, bool neg, unsigned int on_true,
		 unsigned int on_false)
{
	const struct pnode *n = &ps->nodes[node];
	bool all;	/* every child must hold (&&, or a negated ||) */
	int c;

	neg ^= n->neg;
	if (n->insn >= 0) {
		struct filter_insn *in = &ps->insns[n->insn];

		in->invert = neg;
		in->on_true = (unsigned short)on_true;
		in->on_false = (unsigned short)on_false;
		return;
	}
	all = n->is_or == neg;
	for (c = n->first; c >= 0; c = ps->nodes[c].next) {
		int next = ps->nodes[c].next;

		if (next < 0)
			emit(ps, c, neg, on_true, on_false);
		else if (all)
			emit(ps, c, neg, (unsigned int)ps->nodes[next].first_insn, on_false);
		else
			emit(ps, c, neg, on_true, (unsigned int)ps->nodes[next].first_insn);
	}
}

/*
 * A comparison of a number with a constant as one unsigned range test
 * (struct filter_insn's @range): ==, <, <=, >, >= of either signedness.
 * One that no value satisfies (< 0 unsigned, > the largest) keeps @op.
 */
static void range_insn(struct filter_insn *in)
{
	const unsigned long long top = ~0ull;
	unsigned long long v;

	if (in->kind > FI_S64 && in->kind != FI_CPU)
		return;
	in->flip = in->op >= FOP_LT_S && in->op <= FOP_GE_S ? 1ull << 63 : 0;
	v = in->val ^ in->flip;
	switch (in->op) {
	case FOP_EQ:
		in->lo = v;
		in->span = 0;
		break;
	case FOP_LT_S:
	case FOP_LT_U:
		if (!v)
			return;
		in->lo = 0;
		in->span = v - 1;
		break;
	case FOP_LE_S:
	case FOP_LE_U:
		in->lo = 0;
		in->span = v;
		break;
	case FOP_GT_S:
	case FOP_GT_U:
		if (v == top)
			return;
		in->lo = v + 1;
		in->span = top - in->lo;
		break;
	case FOP_GE_S:
	case FOP_GE_U:
		in->lo = v;
		in->span = top - v;
		break;
	default:
		return;
	}
	in->range = true;
}

/* The step of a packed instruction (its range test worked out). */
static void make_step(struct filter_step *st, const struct filter_insn *in)
{
	static const unsigned char range_codes[] = {
		[FI_U8] = FS_U8, [FI_S8] = FS_S8, [FI_U16] = FS_U16, [FI_S16] = FS_S16,
		[FI_U32] = FS_U32, [FI_S32] = FS_S32, [FI_U64] = FS_U64, [FI_S64] = FS_S64,
		[FI_CPU] = FS_CPU,
	};
	static const unsigned char band_codes[] = {
		[FI_U8] = FS_BAND8, [FI_S8] = FS_BAND8, [FI_U16] = FS_BAND16,
		[FI_S16] = FS_BAND16, [FI_U32] = FS_BAND32, [FI_S32] = FS_BAND32,
		[FI_U64] = FS_BAND64, [FI_S64] = FS_BAND64,
	};
	unsigned int t, f;

	/* Where the predicate's value (@not applied) leads. */
	t = in->invert ? in->on_false : in->on_true;
	f = in->invert ? in->on_true : in->on_false;
	memset(st, 0, sizeof(*st));
	st->code = FS_INSN;
	st->not = in->not;
	st->offset = in->offset;
	st->insn = in;
	/* Indexed by the test's result, before @not. */
	st->jump[0] = (in->not ? t : f) * (unsigned int)sizeof(*st);
	st->jump[1] = (in->not ? f : t) * (unsigned int)sizeof(*st);
	if (in->kind <= FI_CPU && in->range) {
		st->code = range_codes[in->kind];
		st->num.bias = in->flip - in->lo;
		st->num.span = in->span;
	} else if (in->kind <= FI_S64 && in->op == FOP_BAND) {
		/* The low bits decide: both sides are extended alike. */
		st->code = band_codes[in->kind];
		st->num.bias = in->size < 8 ? in->val & ((1ull << 8 * in->size) - 1) : in->val;
	} else if (in->kind <= FI_CPU) {
		/* A comparison no value satisfies (< 0 unsigned, > the largest). */
		st->code = FS_GOTO;
		st->jump[1] = st->jump[0];
	} else if (in->kind == FI_FALSE) {
		/* Never true, "!=" neither. */
		st->code = FS_GOTO;
		st->jump[0] = st->jump[1] = st->jump[in->not];
	} else if (in->op == FM_FULL && (in->kind == FI_DSTR || in->kind == FI_RSTR ||
					 (in->kind == FI_STR && in->size))) {
		st->code = in->kind == FI_STR ? FS_STR_EQ : FS_DLOC_EQ;
		st->str.pattern = in->pattern;
		st->str.plen = in->plen;
		st->str.rel = in->kind == FI_RSTR ? in->offset + 4 : in->kind == FI_STR ? in->size : 0;
	}
}

/* Pack the program, its text and its patterns into one allocation. */
static struct event_filter *pack_filter(struct parser *ps)
{
	size_t slen = strlen(ps->str) + 1;
	size_t size = sizeof(struct event_filter) +
		      ps->nr_insns * (sizeof(struct filter_step) + sizeof(struct filter_insn));
	struct event_filter *filter = malloc(size + slen + ps->pool_len);
	char *pool;
	unsigned int i;

	if (!filter)
		return NULL;
	pool = (char *)filter + size;
	filter->string = memcpy(pool, ps->str, slen);
	pool += slen;
	filter->nr = ps->nr_insns;
	filter->min_len = ps->min_len;
	filter->prog = (struct filter_insn *)&filter->steps[ps->nr_insns];
	for (i = 0; i < ps->nr_insns; i++) {
		struct filter_insn *in = &filter->prog[i];

		*in = ps->insns[i];
		range_insn(in);
		if (in->pattern) {
			in->pattern = memcpy(pool, in->pattern, in->plen + 1);
			pool += in->plen + 1;
		}
		make_step(&filter->steps[i], in);
	}
	return filter;
}

/* Compile @str for an event's fields.  Return: the filter, or NULL with @fe filled. */
static struct event_filter *filter_build(const struct event_fields *fields, const char *str,
					 struct filter_error *fe)
{
	struct parser ps = { .str = str, .fields = fields, .fe = fe };
	struct event_filter *filter = NULL;
	unsigned int depth, i;
	int root;

	memset(fe, 0, sizeof(*fe));
	if (scan_expr(&ps, &depth))
		return NULL;
	ps.insns = calloc(ps.max_insns, sizeof(*ps.insns));
	ps.frames = calloc(depth, sizeof(*ps.frames));
	ps.nr_frames = depth;
	if (!ps.insns || !ps.frames) {
		parse_fail(&ps, -ENOMEM, 0, ENOMEM);
		goto out;
	}
	root = parse_expr(&ps);
	if (root < 0)
		goto out;
	emit(&ps, root, false, ps.nr_insns, ps.nr_insns + 1);
	filter = pack_filter(&ps);
	if (!filter)
		parse_fail(&ps, -ENOMEM, 0, ENOMEM);
out:
	for (i = 0; ps.insns && i < ps.nr_insns; i++)
		free((char *)ps.insns[i].pattern);
	free(ps.insns);
	free(ps.frames);
	free(ps.nodes);
	return filter;
}

/* ------------------------------------------------------------------
 * Evaluation
 */

/*
 * The kernel's glob_match_len(): *, ?, [...] with ranges and '!', '\'
 * escapes; @str ends at a NUL or after @len bytes.  A '*' that does not
 * fit is retried one character later, never further back: a later '*'
 * can absorb whatever an earlier one would have.
 */
static int glob_class(const char **pp, unsigned char c)
{
	const char *p = *pp;
	bool inverted = *p == '!', hit = false;
	unsigned char lo, hi;

	if (inverted)
		p++;
	lo = (unsigned char)*p++;
	for (;;) {
		if (!lo)
			return -1;	/* no ']': the '[' is an ordinary character */
		hi = lo;
		if (p[0] == '-' && p[1] != ']') {
			hi = (unsigned char)p[1];
			if (!hi)
				return -1;
			p += 2;
		}
		if (lo <= c && c <= hi)
			hit = true;
		lo = (unsigned char)*p++;
		if (lo == ']')
			break;
	}
	*pp = p;
	return hit != inverted;
}

static bool glob_match(const char *pat, const char *str, size_t len)
{
	const char *back_pat = NULL;
	size_t pos = 0, back_pos = 0;

	for (;;) {
		unsigned char c = pos < len ? (unsigned char)str[pos] : 0;
		unsigned char d = (unsigned char)*pat++;
		int hit;

		pos++;
		switch (d) {
		case '?':
			if (!c)
				return false;
			continue;
		case '*':
			if (!*pat)
				return true;
			back_pat = pat;
			back_pos = --pos;
			continue;
		case '[':
			hit = glob_class(&pat, c);
			if (hit > 0)
				continue;
			if (!hit)
				goto backtrack;
			break;
		case '\\':
			d = (unsigned char)*pat;
			if (d)
				pat++;
			break;
		}
		if (c == d) {
			if (!d)
				return true;
			continue;
		}
backtrack:
		if (!c || !back_pat)
			return false;
		pat = back_pat;
		pos = ++back_pos;
	}
}

/*
 * The kernel's string matches over @len bytes of @s (a char array's
 * length, a __data_loc's length with its NUL, 16 for COMM); @len 0 is an
 * empty string.  Its quirk is kept: a suffix match ("*abc") compares the
 * end of the bytes, so on a char array it only sees a string that fills it.
 */
static bool str_match(const struct filter_insn *in, const char *s, size_t len)
{
	switch (in->op) {
	case FM_FULL:
		/*
		 * strncmp(s, pattern, len) == 0 with len >= plen: the
		 * pattern's bytes, then the end of the string (or of @len).
		 */
		return len >= in->plen && !memcmp(s, in->pattern, in->plen) &&
		       (len == in->plen || !s[in->plen]);
	case FM_FRONT:
		if (!len)
			return !in->plen;
		return len >= in->plen && !strncmp(s, in->pattern, in->plen);
	case FM_MIDDLE:
		if (!len)
			return !in->plen;
		return memmem(s, len, in->pattern, in->plen) != NULL;
	case FM_END:
		return len && len - 1 >= in->plen &&
		       !memcmp(s + len - 1 - in->plen, in->pattern, in->plen);
	default:
		return glob_match(in->pattern, s, len);
	}
}

/*
 * A char * field points into the program: read it as the kernel reads
 * one, without faulting, at most FILTER_PSTR_MAX - 1 characters.  A
 * pointer that cannot be read fails the predicate, "!=" too.
 */
static __attribute__((noinline)) bool pstr_eval(const struct filter_insn *in,
						const unsigned char *rec)
{
	char buf[FILTER_PSTR_MAX];
	struct iovec local = { .iov_base = buf, .iov_len = sizeof(buf) };
	struct iovec remote;
	const char *ptr;
	ssize_t n;
	size_t len;

	memcpy(&ptr, rec + in->offset, sizeof(ptr));
	remote.iov_base = (void *)ptr;
	remote.iov_len = sizeof(buf);
	/* A read that crosses into an unmapped page stops there. */
	n = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
	if (n <= 0)
		return false;
	len = strnlen(buf, (size_t)n);
	if (len == (size_t)n) {
		if ((size_t)n < sizeof(buf))
			return false;	/* no NUL before the fault */
		len = sizeof(buf) - 1;
		buf[len] = '\0';
	}
	return str_match(in, buf, len + 1) ^ in->not;
}

static bool str_eval(const struct filter_insn *in, const unsigned char *rec, unsigned int len)
{
	char comm[FILTER_COMM_LEN];
	unsigned int loc, off, n;

	switch (in->kind) {
	case FI_STR:
		/* char buf[] (ftrace:print's, size 0): the rest of the record. */
		n = in->size;
		if (!n && in->offset <= len)
			n = len - in->offset;
		return str_match(in, (const char *)rec + in->offset, n) ^ in->not;
	case FI_DSTR:
	case FI_RSTR:
		/* A __rel_loc counts from the end of its word. */
		memcpy(&loc, rec + in->offset, sizeof(loc));
		off = (loc & 0xffff) + (in->kind == FI_RSTR ? in->offset + 4 : 0);
		n = loc >> 16;
		if (off > len || n > len - off)
			return false;
		return str_match(in, (const char *)rec + off, n) ^ in->not;
	case FI_COMM:
		trace_current_comm(comm);
		return str_match(in, comm, sizeof(comm)) ^ in->not;
	default:
		return pstr_eval(in, rec);
	}
}

static bool num_test(unsigned int op, unsigned long long a, unsigned long long b)
{
	switch (op) {
	case FOP_EQ:
		return a == b;
	case FOP_BAND:
		return a & b;
	case FOP_LT_S:
		return (long long)a < (long long)b;
	case FOP_LE_S:
		return (long long)a <= (long long)b;
	case FOP_GT_S:
		return (long long)a > (long long)b;
	case FOP_GE_S:
		return (long long)a >= (long long)b;
	case FOP_LT_U:
		return a < b;
	case FOP_LE_U:
		return a <= b;
	case FOP_GT_U:
		return a > b;
	default:
		return a >= b;
	}
}

/* CPUS{} of several CPUs: @cpu (a field's value, or the CPU) in range and in the set. */
static bool mask_test(const struct filter_insn *in, unsigned long long cpu)
{
	if (cpu >= in->val)
		return false;
	switch (in->op) {
	case FOP_EQ:
		return false;	/* a set of several is never one CPU */
	case FOP_NE:
		return true;
	default:
		return (unsigned char)in->pattern[cpu / 8] >> (cpu % 8) & 1;
	}
}

/* A field of @type, extended to 64 bits as its signedness says. */
#define LOAD_CASE(kind, type)						\
	case kind:							\
		a = (unsigned long long)(long long)LOAD(type, rec, in->offset);	\
		break

static bool insn_eval(const struct filter_insn *in, const unsigned char *rec, unsigned int len)
{
	unsigned long long a;

	switch (in->kind) {
	LOAD_CASE(FI_U8, uint8_t);
	LOAD_CASE(FI_S8, int8_t);
	LOAD_CASE(FI_U16, uint16_t);
	LOAD_CASE(FI_S16, int16_t);
	LOAD_CASE(FI_U32, uint32_t);
	LOAD_CASE(FI_S32, int32_t);
	LOAD_CASE(FI_U64, uint64_t);
	LOAD_CASE(FI_S64, int64_t);
	case FI_CPU:
		a = (unsigned long long)(long long)sched_getcpu();
		break;
	case FI_CPU_MASK:
		return mask_test(in, (unsigned long long)(long long)sched_getcpu());
	case FI_U8_MASK:
		return mask_test(in, rec[in->offset]);
	case FI_U16_MASK:
		return mask_test(in, LOAD(uint16_t, rec, in->offset));
	case FI_U32_MASK:
		return mask_test(in, LOAD(uint32_t, rec, in->offset));
	case FI_U64_MASK:
		return mask_test(in, LOAD(uint64_t, rec, in->offset));
	case FI_FUNC:
		a = LOAD(unsigned long, rec, in->offset);
		return (a - in->val < in->plen) ^ in->not;
	case FI_FALSE:
		return false;
	default:
		return str_eval(in, rec, len);
	}
	if (likely(in->range))
		return ((a ^ in->flip) - in->lo <= in->span) ^ in->not;
	return num_test(in->op, a, in->val) ^ in->not;
}

bool event_filter_insn_eval(const struct filter_insn *in, const unsigned char *rec,
			    unsigned int len)
{
	return insn_eval(in, rec, len);
}

/* Every step from the one at byte offset @i on, the calls too (filter_steps()). */
__attribute__((__noinline__)) bool event_filter_run_from(const struct event_filter *filter,
							 const unsigned char *rec,
							 unsigned int len, unsigned int i)
{
	return filter_steps(filter, rec, len, i, true);
}

/**
 * event_filter_match - does a record pass a filter?
 * @filter: a compiled filter; NULL, or one holding only an error text,
 *          passes everything
 * @rec:    the record, its common header first
 * @len:    its length; a record too short for the fields the filter
 *          reads does not pass
 *
 * Context: any thread, the probe included; no lock, no allocation, no
 * system call unless the filter tests COMM or a char * field.
 */
bool event_filter_match(const struct event_filter *filter, const void *rec, unsigned int len)
{
	if (!filter || !filter->nr)
		return true;
	return filter_run(filter, rec, len);
}

/**
 * event_filter_match_insns - event_filter_match() by the instructions'
 *	interpreter alone, for the tests: the steps must decide as it does
 */
bool event_filter_match_insns(const struct event_filter *filter, const void *rec,
			      unsigned int len)
{
	const struct filter_insn *prog;
	unsigned int i = 0, nr;

	if (!filter || !filter->nr)
		return true;
	if (len < filter->min_len)
		return false;
	prog = filter->prog;
	nr = filter->nr;
	while (i < nr) {
		const struct filter_insn *in = &prog[i];

		i = insn_eval(in, rec, len) ^ in->invert ? in->on_true : in->on_false;
	}
	return i == nr;
}

/**
 * trace_filter_match - the probe's hook: does the record pass @file's filter?
 *
 * Return: 1 to commit, 0 to discard.
 * Context: the probe, under the tracepoint read lock (which keeps the
 * filter it loads alive).
 */
int trace_filter_match(struct trace_event_file *file, const void *rec, unsigned int len)
{
	return trace_filter_match_inline(file, rec, len);
}

/* ------------------------------------------------------------------
 * Compiling, for the filter files and the triggers' "if"
 */

/*
 * The kernel's text for a filter that failed: the expression, a caret
 * under column @fe->pos and the message; or "Error: (N)".
 */
static void format_error(struct trace_seq *s, const char *expr, const struct filter_error *fe)
{
	int pos = fe->pos, len = (int)strlen(expr);

	trace_seq_puts(s, expr);
	if (fe->code <= 0) {
		trace_seq_printf(s, "\nError: (%d)\n", fe->code);
		return;
	}
	if (pos > len)
		pos = len;
	/* A field width of @pos + 1 puts the caret under column @pos. */
	trace_seq_printf(s, "\n%*s", pos ? pos + 1 : 0, "^");
	trace_seq_printf(s, "\nparse_error: %s\n", filter_err_text[fe->code]);
}

/* What error_log gets: the kernel logs the unclamped position. */
static void fill_trace_err(struct trace_err *err, const struct filter_error *fe)
{
	if (!err)
		return;
	err->loc = filter_err_loc;
	snprintf(err->msg, sizeof(err->msg), "%s", fe->code > 0 ? filter_err_text[fe->code] : "Error");
	err->pos = fe->code > 0 ? (unsigned int)fe->pos : 0;
}

struct seek_ctx {
	const struct trace_event_call	*call;
	bool				found;
};

static void call_seek(struct trace_event_call *call, void *priv)
{
	struct seek_ctx *ctx = priv;

	ctx->found |= call == ctx->call;
}

/**
 * trace_event_call_registered - is @call a registered event?
 *
 * The tracefs tree passes calls it found before it let go of the event
 * mutex, which a dlclose() may have unmapped since: the address is
 * compared with the registry's before anything is read through it.
 * Context: the event mutex held.
 */
bool trace_event_call_registered(struct trace_event_call *call)
{
	struct seek_ctx ctx = { .call = call };

	trace_for_each_event_call(call_seek, &ctx);
	return ctx.found && call->priv;
}

/* A registered event with a filter file (not one of the ftrace events). */
static bool call_registered(struct trace_event_call *call)
{
	return trace_event_call_registered(call) && call->id >= TRACE_EVENT_FIRST_ID;
}

/*
 * A registered event whose records a filter may test: one with a filter
 * file, or ftrace:print, whose triggers take filters (it has no filter
 * file, as in the kernel).
 */
static bool call_filterable(struct trace_event_call *call)
{
	return call_registered(call) ||
	       (trace_event_call_registered(call) && trace_marker_is_print(call));
}

/* @call's fields, or NULL with *@err -ENOENT (not registered) or -ENOMEM. */
static struct event_fields *call_fields(struct trace_event_call *call, int *err)
{
	struct event_fields *ef = NULL;

	trace_event_lock();
	if (call_filterable(call))
		ef = fields_snapshot(call);
	*err = call_filterable(call) ? -ENOMEM : -ENOENT;
	trace_event_unlock();
	return ef;
}

/**
 * event_filter_compile_log - event_filter_compile(), and what error_log gets
 * @call:  the event whose fields the expression names
 * @expr:  the expression
 * @err:   receives the filter file's error text (may be NULL)
 * @terr:  receives the error_log entry (may be NULL): location "event
 *         filter parse error", the message, the caret position
 *
 * Return: the filter, or NULL with errno set: the kernel's errno for the
 * write (EINVAL; EPERM, ENOENT, ESRCH for its quirks), ENOMEM, or ENOENT
 * when @call is not registered (@err and @terr then untouched).
 * Context: not a probe; takes the event mutex (recursive) to read the
 * event's fields, and not while it parses.
 */
struct event_filter *event_filter_compile_log(struct trace_event_call *call, const char *expr,
					      struct trace_seq *err, struct trace_err *terr)
{
	struct event_filter *filter;
	struct event_fields *ef;
	struct filter_error fe;
	int ret;

	ef = call_fields(call, &ret);
	if (!ef) {
		errno = -ret;
		return NULL;
	}
	filter = filter_build(ef, expr, &fe);
	free(ef);
	if (filter)
		return filter;
	if (err)
		format_error(err, expr, &fe);
	fill_trace_err(terr, &fe);
	errno = fe.errnum;
	return NULL;
}

/**
 * event_filter_compile - compile a filter expression for an event
 * @call:    the event
 * @expr:    the expression, as the kernel takes it (no trimming here)
 * @err:     receives "EXPR\n    ^\nparse_error: MESSAGE\n" on an error
 * @err_pos: receives the caret position for error_log (may be NULL)
 *
 * Return: the filter (event_filter_free() it), or NULL with errno set,
 * as event_filter_compile_log().
 */
struct event_filter *event_filter_compile(struct trace_event_call *call, const char *expr,
					  struct trace_seq *err, int *err_pos)
{
	struct trace_err terr = { .pos = 0 };
	struct event_filter *filter = event_filter_compile_log(call, expr, err, &terr);

	if (!filter && err_pos)
		*err_pos = (int)terr.pos;
	return filter;
}

/** event_filter_string - the expression a filter was compiled from */
const char *event_filter_string(const struct event_filter *filter)
{
	return filter ? filter->string : NULL;
}

/** event_filter_free - free a filter no probe can still be using */
void event_filter_free(struct event_filter *filter)
{
	free(filter);
}

/* ------------------------------------------------------------------
 * The filter files
 */

/* A filter that only shows its error: the event stays unfiltered. */
static struct event_filter *error_filter(const char *expr, const struct filter_error *fe)
{
	struct trace_seq *s = malloc(sizeof(*s));
	struct event_filter *filter;
	size_t len;

	if (!s)
		return NULL;
	trace_seq_init(s);
	format_error(s, expr, fe);
	len = s->len;
	/* Without its last newline: reading adds one, as the kernel's. */
	filter = malloc(sizeof(*filter) + len + 1);
	if (filter) {
		filter->string = (char *)(filter + 1);
		memcpy(filter->string, s->buffer, len + 1);
		filter->nr = 0;
		filter->min_len = 0;
	}
	free(s);
	return filter;
}

/*
 * Put @filter on @file (the event mutex held); the caller frees the
 * filter it returns after tracepoint_synchronize_unregister().  A probe
 * that saw EVENT_FILE_FL_FILTERED may load the old filter or the new: both
 * stay valid until then, and a filter without a program passes.
 */
static struct event_filter *set_file_filter(struct trace_event_file *file,
					    struct event_filter *filter)
{
	struct event_filter *old = file->filter;
	bool active = filter && filter->nr;

	if (!active)
		trace_file_set_flag(file, EVENT_FILE_FL_FILTERED, false);
	/* A new filter starts in the scratch record (trace_events.c). */
	trace_file_set_flag(file, EVENT_FILE_FL_FILTER_INPLACE, false);
	__atomic_store_n(&file->filter_votes, 0, __ATOMIC_RELAXED);
	/* Pairs with the acquire load of trace_filter_match(). */
	__atomic_store_n(&file->filter, filter, __ATOMIC_RELEASE);
	if (active)
		trace_file_set_flag(file, EVENT_FILE_FL_FILTERED, true);
	return old;
}

/*
 * The kernel trims the end of what was written (not the start: the
 * filter file shows leading spaces back), and "0", spaces around it
 * or not, clears.
 */
static char *trim_expr(const char *expr, bool *clear)
{
	char *text = strdup(expr);
	size_t len, i = 0;

	if (!text)
		return NULL;
	len = strlen(text);
	while (len && f_isspace(text[len - 1]))
		text[--len] = '\0';
	while (f_isspace(text[i]))
		i++;
	*clear = !strcmp(text + i, "0");
	return text;
}

/*
 * What a filter file write leaves on an event: the filter, or the
 * filter that only shows why there is none (@fe->errnum set); NULL: no
 * memory.
 */
static struct event_filter *build_or_error(const struct event_fields *ef, const char *text,
					   struct filter_error *fe)
{
	struct event_filter *filter = filter_build(ef, text, fe);

	return filter ? filter : error_filter(text, fe);
}

/**
 * trace_array_set_filter - write an event's filter file
 * @tr:   the instance (NULL: the top level)
 * @call: the event
 * @expr: what was written: an expression, or "0" to clear
 * @err:  receives what to log in error_log (@err->loc NULL: nothing)
 *
 * On an error the event is left unfiltered and its filter file shows the
 * error, as the kernel leaves them; a write of 4096 bytes or more is
 * refused with nothing changed.
 * Return: 0; -EINVAL (or the kernel's -EPERM, -ENOENT, -ESRCH, see
 * event_filter_compile_log()); -ENOMEM; -ENOENT for an event that is not
 * registered.
 * Context: not a probe; takes the event mutex, waits for the probes
 * still using the filter it replaces.
 */
int trace_array_set_filter(struct trace_array *tr, struct trace_event_call *call,
			   const char *expr, struct trace_err *err)
{
	struct event_filter *filter = NULL, *old;
	struct filter_error fe = { .errnum = 0 };
	struct trace_event_file *file = NULL;
	struct event_fields *ef = NULL;
	bool clear;
	char *text;
	int ret;

	if (err)
		err->loc = NULL;
	if (strlen(expr) >= FILTER_MAX_EXPR)
		return -EINVAL;
	text = trim_expr(expr, &clear);
	if (!text)
		return -ENOMEM;
	if (!clear) {
		ef = call_fields(call, &ret);
		filter = ef ? build_or_error(ef, text, &fe) : NULL;
		free(ef);
		if (!filter) {
			free(text);
			return ef ? -ENOMEM : ret;
		}
	}
	free(text);
	trace_event_lock();
	if (call_registered(call))
		file = trace_array_file_locked(tr, call, !clear);
	/* Clearing an event that never had a filter: nothing to do. */
	ret = !call_registered(call) ? -ENOENT : clear ? 0 : -ENOMEM;
	old = file ? set_file_filter(file, filter) : filter;
	trace_event_unlock();
	if (old) {
		/* @old never reached a probe when there is no file. */
		if (file)
			tracepoint_synchronize_unregister();
		event_filter_free(old);
	}
	if (!file)
		return ret;
	if (fe.errnum)
		fill_trace_err(err, &fe);
	return -fe.errnum;
}

/* Append @text and a newline, as much of @text as fits. */
static void put_text(struct trace_seq *s, const char *text)
{
	size_t len = strlen(text), room;

	if (s->full || s->len + 2 > TRACE_SEQ_BUFFER_SIZE)
		return;
	room = TRACE_SEQ_BUFFER_SIZE - 2 - s->len;
	trace_seq_putmem(s, text, (unsigned int)(len < room ? len : room));
	trace_seq_putc(s, '\n');
}

/**
 * trace_array_print_filter - the text of an event's filter file
 *
 * The expression as set, its error, or "none".
 * Context: not a probe; takes the event mutex.
 */
void trace_array_print_filter(struct trace_array *tr, struct trace_event_call *call,
			      struct trace_seq *s)
{
	struct trace_event_file *file;

	trace_event_lock();
	file = call_registered(call) ? trace_array_file_locked(tr, call, false) : NULL;
	if (file && file->filter)
		put_text(s, file->filter->string);
	else
		trace_seq_puts(s, "none\n");
	trace_event_unlock();
}

/* A system's events, their fields, then their new filters. */
struct system_ctx {
	const char			*system;
	struct trace_event_call		**calls;
	struct event_fields		**fields;
	struct event_filter		**filters;
	unsigned int			nr, max;
	bool				nomem;
};

/* With the event mutex held: collect the events of the system. */
static void system_collect(struct trace_event_call *call, void *priv)
{
	struct system_ctx *ctx = priv;

	if (ctx->nomem || strcmp(call->event_class->system, ctx->system) || !call->priv)
		return;
	if (ctx->nr == ctx->max) {
		unsigned int max = ctx->max ? 2 * ctx->max : 16;
		void *c = realloc(ctx->calls, max * sizeof(*ctx->calls));
		void *f = c ? realloc(ctx->fields, max * sizeof(*ctx->fields)) : NULL;

		if (c)
			ctx->calls = c;
		if (f)
			ctx->fields = f;
		if (!c || !f) {
			ctx->nomem = true;
			return;
		}
		ctx->max = max;
	}
	ctx->calls[ctx->nr] = call;
	ctx->fields[ctx->nr] = fields_snapshot(call);
	if (!ctx->fields[ctx->nr])
		ctx->nomem = true;
	ctx->nr++;
}

static void system_ctx_free(struct system_ctx *ctx)
{
	unsigned int i;

	for (i = 0; i < ctx->nr; i++) {
		free(ctx->fields[i]);
		if (ctx->filters)
			event_filter_free(ctx->filters[i]);
	}
	free(ctx->calls);
	free(ctx->fields);
	free(ctx->filters);
}

/*
 * Compile @text for each collected event: the filter, or for an event
 * that cannot take it, the kernel's "Couldn't find or set field" text at
 * column 0, whatever the reason.  Return: how many could not, or -ENOMEM.
 */
static int system_build(struct system_ctx *ctx, const char *text)
{
	struct filter_error fe;
	unsigned int i;
	int failed = 0;

	ctx->filters = calloc(ctx->nr, sizeof(*ctx->filters));
	if (!ctx->filters)
		return -ENOMEM;
	for (i = 0; i < ctx->nr; i++) {
		ctx->filters[i] = filter_build(ctx->fields[i], text, &fe);
		if (ctx->filters[i])
			continue;
		fe.code = FILT_ERR_BAD_SUBSYS_FILTER;
		fe.pos = 0;
		ctx->filters[i] = error_filter(text, &fe);
		if (!ctx->filters[i])
			return -ENOMEM;
		failed++;
	}
	return failed;
}

/*
 * Put the new filters (NULL: clear) on the events' files of @tr, those
 * still registered; the replaced ones take the new ones' places in
 * @ctx->filters, to be freed.  Return: 0 or -ENOMEM.
 */
static int system_apply(struct system_ctx *ctx, struct trace_array *tr, bool clear)
{
	struct trace_event_file *file;
	unsigned int i;
	int ret = 0;

	trace_event_lock();
	for (i = 0; i < ctx->nr && !ret; i++) {
		struct trace_event_call *call = ctx->calls[i];

		if (!call_registered(call))
			continue;
		file = trace_array_file_locked(tr, call, !clear);
		if (!file && !clear)
			ret = -ENOMEM;
		else if (file)
			ctx->filters[i] = set_file_filter(file, clear ? NULL : ctx->filters[i]);
	}
	trace_event_unlock();
	return ret;
}

/**
 * trace_array_set_system_filter_count - write a system's filter file
 * @tr:        the instance (NULL: the top level)
 * @system:    the TRACE_SYSTEM
 * @expr:      an expression for every event of @system, or "0" to clear
 *             all their filters
 * @err:       receives what to log in error_log (@err->loc NULL: nothing)
 * @nr_failed: receives how many events the filter could not be set on
 *             (may be NULL): the kernel logs @err once for each
 *
 * Each event that has the fields gets the filter; each that has not is
 * left unfiltered, its filter file showing "Couldn't find or set field in
 * one of a subsystem's events" (the kernel's behaviour, not what its
 * events.rst says).  Like the kernel, the write succeeds even when no
 * event took the filter.
 * Return: 0, -EINVAL (4096 bytes or more), -ENOENT (no such system),
 * -ENOMEM.
 * Context: not a probe; takes the event mutex, waits for the probes
 * still using the filters it replaces.
 */
int trace_array_set_system_filter_count(struct trace_array *tr, const char *system,
					const char *expr, struct trace_err *err,
					unsigned int *nr_failed)
{
	struct filter_error fe = { .code = FILT_ERR_BAD_SUBSYS_FILTER };
	struct system_ctx ctx = { .system = system };
	int failed = 0, ret;
	bool clear;
	char *text;

	if (err)
		err->loc = NULL;
	if (nr_failed)
		*nr_failed = 0;
	if (strlen(expr) >= FILTER_MAX_EXPR)
		return -EINVAL;
	text = trim_expr(expr, &clear);
	if (!text)
		return -ENOMEM;
	trace_for_each_event_call(system_collect, &ctx);
	if (!ctx.nr || ctx.nomem) {
		ret = ctx.nr ? -ENOMEM : -ENOENT;
		goto out;
	}
	if (clear)
		ctx.filters = calloc(ctx.nr, sizeof(*ctx.filters));
	else
		failed = system_build(&ctx, text);
	if (failed < 0 || !ctx.filters) {
		ret = -ENOMEM;
		goto out;
	}
	ret = system_apply(&ctx, tr, clear);
	tracepoint_synchronize_unregister();
	if (failed) {
		fill_trace_err(err, &fe);
		if (nr_failed)
			*nr_failed = (unsigned int)failed;
	}
out:
	system_ctx_free(&ctx);
	free(text);
	return ret;
}

/** trace_array_set_system_filter - trace_array_set_system_filter_count() */
int trace_array_set_system_filter(struct trace_array *tr, const char *system,
				  const char *expr, struct trace_err *err)
{
	return trace_array_set_system_filter_count(tr, system, expr, err, NULL);
}

/**
 * trace_array_print_system_filter - the text of a system's filter file
 *
 * Always the kernel's "### global filter ###" help: it keeps the text of
 * a system filter only when the system has no event to take it, which a
 * system directory here never is.
 */
void trace_array_print_system_filter(struct trace_array *tr, const char *system,
				     struct trace_seq *s)
{
	(void)tr;
	(void)system;
	trace_seq_puts(s, system_filter_text);
}

/**
 * trace_filter_file_free - the engine frees @file: free its filter
 * Context: no probe can be using @file any more.
 */
void trace_filter_file_free(struct trace_event_file *file)
{
	event_filter_free(file->filter);
	file->filter = NULL;
}
