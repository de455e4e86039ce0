/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the probe runs of an event filter: the compiled filter's steps
 * (struct filter_step) and the loop that runs them, inline, so that the
 * commit of a filtered event (trace_events.c) runs the filter without a
 * call.  trace_events_filter.c makes the steps (pack_filter()) and keeps
 * everything else; only it and trace_events.c include this.  Not
 * installed.
 */
#ifndef _USTRACE_KERNEL_TRACE_TRACE_FILTER_RUN_H
#define _USTRACE_KERNEL_TRACE_TRACE_FILTER_RUN_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <linux/compiler.h>

#include "trace.h"

struct filter_insn;

/* What a step does: one code for the load and the test together. */
enum {
	/* a field of that size and signedness, or the CPU: a range test */
	FS_U8, FS_S8, FS_U16, FS_S16, FS_U32, FS_S32, FS_U64, FS_S64, FS_CPU,
	/* a field of that size, "&": a bit test */
	FS_BAND8, FS_BAND16, FS_BAND32, FS_BAND64,
	FS_DLOC_EQ,	/* "==" or "!=" of a __data_loc or __rel_loc string */
	FS_STR_EQ,	/* "==" or "!=" of a char array */
	FS_GOTO,	/* a predicate whose value is known: no test */
	FS_INSN,	/* anything else: the instruction's interpreter */
};

/**
 * struct filter_step - one predicate as the probe runs it
 * @code:    FS_*
 * @not:     the instruction's @not: a string that cannot be read fails
 *           the predicate outright (the step goes to @jump[@not])
 * @jump:    the next step when the test gives 0 and when it gives 1, the
 *           predicate's own negation and the '!'s over it applied, as
 *           its byte offset in the steps (no scaling in the loop): the
 *           end of the steps means "pass", one step further "reject"
 * @offset:  of the field in the record
 * @num:     a range test: ((value + @bias) <= @span), unsigned (the
 *           instruction's range test with its flip and lower bound added
 *           in one constant); a bit test: ((value & @bias) != 0)
 * @str:     a string compared whole: the pattern, with its NUL, its
 *           length, and what is added to a __data_loc's offset (a
 *           __rel_loc counts from the end of its word); a char array's
 *           size in @rel
 * @insn:    FS_INSN: the instruction
 */
struct filter_step {
	unsigned char		code;
	unsigned char		not;
	unsigned int		jump[2];
	unsigned int		offset;
	union {
		struct {
			unsigned long long	bias, span;
		} num;
		struct {
			const char	*pattern;
			unsigned int	plen, rel;
		} str;
		const struct filter_insn *insn;
	};
};

/**
 * struct event_filter - a filter as set on an event
 * @string:  what reading the filter file shows (without the last
 *           newline): the expression, or the expression and its error
 * @nr:      steps in @steps, instructions in @prog; 0 for a filter that
 *           holds only an error text (it passes everything)
 * @min_len: the shortest record every instruction can read
 * @prog:    the instructions
 * @steps:   the steps, then the instructions, then the strings @string
 *           and the patterns point into (one allocation)
 */
struct event_filter {
	char			*string;
	unsigned int		nr;
	unsigned int		min_len;
	struct filter_insn	*prog;
	struct filter_step	steps[];
};

/* Read fields with memcpy(): an 8-byte field may sit on a 4-byte boundary. */
#define LOAD(type, rec, off) ({ type __v; memcpy(&__v, (rec) + (off), sizeof(__v)); __v; })

/*
 * Are the @n bytes at @a those at @b?  Inline, in words: the strings of a
 * filter are short, and a call to memcmp() costs more than comparing them.
 */
static __always_inline bool bytes_equal(const char *a, const char *b, size_t n)
{
	size_t i;

	if (n > 16) {
		for (i = 0; i + 8 < n; i += 8)
			if (LOAD(uint64_t, a, i) != LOAD(uint64_t, b, i))
				return false;
		/* The last word, overlapping the one before. */
		return LOAD(uint64_t, a, n - 8) == LOAD(uint64_t, b, n - 8);
	}
	if (n >= 8)
		return !((LOAD(uint64_t, a, 0) ^ LOAD(uint64_t, b, 0)) |
			 (LOAD(uint64_t, a, n - 8) ^ LOAD(uint64_t, b, n - 8)));
	if (n >= 4)
		return !((LOAD(uint32_t, a, 0) ^ LOAD(uint32_t, b, 0)) |
			 (LOAD(uint32_t, a, n - 4) ^ LOAD(uint32_t, b, n - 4)));
	return !n || (a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1]);
}

/*
 * FM_FULL of @n bytes at @s (str_match()'s): the pattern's bytes, then
 * the end of the string or of the bytes.  The string's NUL is a byte of
 * its own: the words bytes_equal() loads are then the ones the probe's
 * copy of a string of the pattern's length stored (__ustrace_copy_str(),
 * then the NUL), so that each load can take its bytes from one store
 * still in flight.  filter_bench: 6 instructions fewer and 0.3 ns less
 * for its rejection at a string; its passing string costs the same.
 */
static __always_inline bool str_equal(const struct filter_step *st, const char *s, size_t n)
{
	if (n > st->str.plen)
		return bytes_equal(s, st->str.pattern, st->str.plen) && !s[st->str.plen];
	return n == st->str.plen && bytes_equal(s, st->str.pattern, n);
}

/* A field read by a step, extended to 64 bits as its signedness says. */
#define STEP_LOAD(code, type)						\
	case code:							\
		a = (unsigned long long)(long long)LOAD(type, rec, st->offset); \
		goto range

#define STEP_BAND(code, type)						\
	case code:							\
		r = (LOAD(type, rec, st->offset) & st->num.bias) != 0;	\
		break

/*
 * The next step, by a branch on the test's result rather than an index
 * computed from it: the branch is predicted, so the loads of the next
 * step start before the test is done; an index (a setcc, or a cmov)
 * would make every step wait for the one before (filter_bench's three
 * predicates alone: 10 ns so, 6 ns with the branch).  The empty asm
 * keeps the compiler from turning the branch into one of those.
 */
#define STEP_NEXT(st, r)						\
	do {								\
		if (r) {						\
			i = (st)->jump[1];				\
			__asm__ __volatile__("");			\
		} else {						\
			i = (st)->jump[0];				\
		}							\
	} while (0)

/*
 * Run the steps of @filter from the one at byte offset @i on a record of
 * @len bytes (at least @filter->min_len): every step, the calls too
 * (trace_events_filter.c).
 */
bool event_filter_run_from(const struct event_filter *filter, const unsigned char *rec,
			   unsigned int len, unsigned int i);

/* The interpreter's instruction of a step the steps do not cover (trace_events_filter.c). */
bool event_filter_insn_eval(const struct filter_insn *in, const unsigned char *rec,
			    unsigned int len);

/*
 * What filter_steps() decided: FILTER_REJECT, FILTER_PASS, or (@calls
 * false only) FILTER_RESUME(i): the step at byte offset i needs a call,
 * so the rest is for event_filter_run_from() (FILTER_RESUME_AT()).
 */
#define FILTER_REJECT		0u
#define FILTER_PASS		1u
#define FILTER_RESUME(i)	((i) + 2u)
#define FILTER_RESUME_AT(r)	((r) - 2u)

/*
 * The steps of @filter from byte offset @i on, a record of @len bytes (at
 * least @filter->min_len).  With @calls false (a constant), the first
 * step that needs a call (the CPU, the interpreter's) ends the loop with
 * FILTER_RESUME(): the loop inlined in the commits makes no call, and
 * the out-of-line rest takes the run up (filter_run_end()); with @calls true
 * (event_filter_run_from()) every step runs here.  Targets only go
 * forward: at most @filter->nr steps.
 */
static __always_inline unsigned int filter_steps(const struct event_filter *filter,
						 const unsigned char *rec, unsigned int len,
						 unsigned int i, bool calls)
{
	const char *steps = (const char *)filter->steps;
	unsigned int end = filter->nr * (unsigned int)sizeof(*filter->steps), loc, off, n;
	const struct filter_step *st;
	unsigned long long a;
	bool r;

	do {
		st = (const struct filter_step *)(steps + i);
		switch (st->code) {
		STEP_LOAD(FS_U8, uint8_t);
		STEP_LOAD(FS_S8, int8_t);
		STEP_LOAD(FS_U16, uint16_t);
		STEP_LOAD(FS_S16, int16_t);
		STEP_LOAD(FS_U32, uint32_t);
		STEP_LOAD(FS_S32, int32_t);
		STEP_LOAD(FS_U64, uint64_t);
		STEP_LOAD(FS_S64, int64_t);
		STEP_BAND(FS_BAND8, uint8_t);
		STEP_BAND(FS_BAND16, uint16_t);
		STEP_BAND(FS_BAND32, uint32_t);
		STEP_BAND(FS_BAND64, uint64_t);
		case FS_DLOC_EQ:
			loc = LOAD(uint32_t, rec, st->offset);
			off = (loc & 0xffff) + st->str.rel;
			n = loc >> 16;
			if (unlikely(off > len || n > len - off)) {
				/* Out of the record: the predicate fails, "!=" too. */
				i = st->jump[st->not];
				continue;
			}
			r = str_equal(st, (const char *)rec + off, n);
			break;
		case FS_STR_EQ:
			r = str_equal(st, (const char *)rec + st->offset, st->str.rel);
			break;
		case FS_GOTO:
			i = st->jump[0];
			continue;
		case FS_CPU:
			if (!calls)
				return FILTER_RESUME(i);
			a = (unsigned long long)(long long)sched_getcpu();
			goto range;
		case FS_INSN:
			if (!calls)
				return FILTER_RESUME(i);
			r = event_filter_insn_eval(st->insn, rec, len) ^ st->not;
			break;
		default:
			/* No other code: no bounds check before the jump table. */
			__builtin_unreachable();
		}
		STEP_NEXT(st, r);
		continue;
range:
		STEP_NEXT(st, a + st->num.bias <= st->num.span);
	} while (i < end);
	return i == end ? FILTER_PASS : FILTER_REJECT;
}

/*
 * Run the steps of @filter (which has some) on a record of @len bytes,
 * with no call: FILTER_PASS, FILTER_REJECT or FILTER_RESUME().
 */
static __always_inline unsigned int filter_run_leaf(const struct event_filter *filter,
						    const unsigned char *rec, unsigned int len)
{
	if (unlikely(len < filter->min_len))
		return FILTER_REJECT;
	return filter_steps(filter, rec, len, 0, false);
}

/*
 * The end of a run of @filter that filter_run_leaf() (or
 * trace_filter_match_leaf()) ended with @r: the steps from the one with
 * a call on, if it stopped there.
 */
static __always_inline bool filter_run_end(const struct event_filter *filter,
					   const unsigned char *rec, unsigned int len,
					   unsigned int r)
{
	if (r > FILTER_PASS)
		return event_filter_run_from(filter, rec, len, FILTER_RESUME_AT(r));
	return r;
}

/*
 * Run the steps of @filter (which has some) on a record of @len bytes.
 * Inline in event_filter_match().
 */
static __always_inline bool filter_run(const struct event_filter *filter,
				       const unsigned char *rec, unsigned int len)
{
	return filter_run_end(filter, rec, len, filter_run_leaf(filter, rec, len));
}

/*
 * @file's filter, for trace_filter_match_leaf() and filter_run_end():
 * loaded once, so that both run the same one.
 * Context: the probe, under the tracepoint read lock (which keeps the
 * filter alive).
 */
static __always_inline const struct event_filter *trace_file_filter(struct trace_event_file *file)
{
	/* Pairs with the release store of set_file_filter(). */
	return __atomic_load_n(&file->filter, __ATOMIC_ACQUIRE);
}

/*
 * Does the record pass @filter (a file's, or NULL), as far as it can
 * tell without a call?  FILTER_PASS, FILTER_REJECT, or FILTER_RESUME()
 * for filter_run_end().
 */
static __always_inline unsigned int trace_filter_match_leaf(const struct event_filter *filter,
							    const void *rec, unsigned int len)
{
	if (unlikely(!filter || !filter->nr))
		return FILTER_PASS;
	return filter_run_leaf(filter, rec, len);
}

/* Does the record pass @file's filter?  trace_filter_match(), inline. */
static __always_inline bool trace_filter_match_inline(struct trace_event_file *file,
						      const void *rec, unsigned int len)
{
	const struct event_filter *filter = trace_file_filter(file);

	return filter_run_end(filter, rec, len, trace_filter_match_leaf(filter, rec, len));
}

#endif /* _USTRACE_KERNEL_TRACE_TRACE_FILTER_RUN_H */
