// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tracepoint sites in inline functions, in an inlined static function and
 * in an unrolled loop: every copy of the site fires, and (with jump labels
 * on x86-64) every copy has its own jump entry, patched with the others.
 *
 * The functions that hold the copies are placed in sections of their own so
 * that the test can tell which jump entries belong to them.
 */
#include <stdint.h>
#include "inline_tp.h"

#include "tp_test.h"

DEFINE_TRACE(inl_event);

#define UNROLL 4

/*
 * Clang 14 does not duplicate "asm goto" (LLVM's callbr), so it leaves a
 * loop around a jump-label site rolled and says so with -Wpass-failed.
 * The sites still fire; the entry count below expects one copy then.
 */
#if defined(__clang__) && defined(__USTRACE_HAVE_JUMP_LABEL)
# pragma clang diagnostic ignored "-Wpass-failed"
# define UNROLLED_COPIES 1
#else
# define UNROLLED_COPIES UNROLL
#endif

static __always_inline void fire_static(int i)
{
	trace_inl_event_tp(KIND_STATIC, i);
}

/* Two inlined copies of fire_static(). */
__attribute__((__noinline__, __section__("tp_inlined_text")))
static void call_static_twice(int i)
{
	fire_static(i);
	fire_static(i + 1);
}

/* UNROLL copies of the site, one per iteration. */
__attribute__((__noinline__, __section__("tp_unrolled_text")))
static void call_unrolled(void)
{
	int i;

#pragma GCC unroll 4
	for (i = 0; i < UNROLL; i++)
		trace_inl_event_tp(KIND_UNROLLED, i);
}

/* A loop with a run-time bound, unrolled with a remainder. */
static void call_unrolled_n(int n)
{
	int i;

#pragma GCC unroll 4
	for (i = 0; i < n; i++)
		trace_inl_event_tp(KIND_UNROLLED, i);
}

#define LOG_MAX 64
static int log_kind[LOG_MAX], log_i[LOG_MAX];
static int log_n;

static void probe(void *data, int kind, int i)
{
	(void)data;
	if (log_n < LOG_MAX) {
		log_kind[log_n] = kind;
		log_i[log_n] = i;
	}
	log_n++;
}

/* Fire everything once; return the calls, check kinds and order. */
static void fire_all(void)
{
	inl_fire_inline(KIND_INLINE, 0);
	inl_fire_inline(KIND_INLINE, 1);
	inl_fire_other_file(2);
	call_static_twice(10);
	call_unrolled();
	call_unrolled_n(7);
}

static const int want_kind[] = {
	KIND_INLINE, KIND_INLINE, KIND_OTHER_FILE, KIND_STATIC, KIND_STATIC,
	KIND_UNROLLED, KIND_UNROLLED, KIND_UNROLLED, KIND_UNROLLED,
	KIND_UNROLLED, KIND_UNROLLED, KIND_UNROLLED, KIND_UNROLLED,
	KIND_UNROLLED, KIND_UNROLLED, KIND_UNROLLED,
};
static const int want_i[] = {
	0, 1, 2, 10, 11,
	0, 1, 2, 3,
	0, 1, 2, 3, 4, 5, 6,
};
#define NR_WANT ((int)(sizeof(want_i) / sizeof(want_i[0])))

static void test_every_copy_fires(void)
{
	int token;

	log_n = 0;
	fire_all();
	EXPECT_EQ(0, log_n);

	EXPECT_EQ(0, register_trace_inl_event(probe, &token));
	fire_all();
	EXPECT_SEQ(want_kind, NR_WANT, log_kind, log_n);
	EXPECT_SEQ(want_i, NR_WANT, log_i, log_n);

	/* Twice more: still once per copy per call. */
	log_n = 0;
	fire_all();
	fire_all();
	EXPECT_EQ(2 * NR_WANT, log_n);

	EXPECT_EQ(0, unregister_trace_inl_event(probe, &token));
	log_n = 0;
	fire_all();
	EXPECT_EQ(0, log_n);
}

#ifdef __USTRACE_HAVE_JUMP_LABEL
extern char __start_tp_unrolled_text[], __stop_tp_unrolled_text[];
extern char __start_tp_inlined_text[], __stop_tp_inlined_text[];

static const unsigned char nop5[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };

/*
 * The five bytes of a site, read without sanitizer instrumentation or
 * interceptors: program text has no shadow memory.
 */
__attribute__((__no_sanitize__("thread", "address")))
static void read_site(const unsigned char *code, unsigned char out[5])
{
	int i;

	for (i = 0; i < 5; i++)
		out[i] = ((const volatile unsigned char *)code)[i];
}

/*
 * Check the jump entries of inl_event whose site lies in [start, stop):
 * their number, and that each is in the state @on, both in its state
 * byte and (when the library patches text) in its five bytes of code.
 */
static int check_sites(const char *what, const char *start, const char *stop,
		       bool on)
{
	struct jump_entry *e;
	bool patching = jump_label_text_patching();
	int n = 0;

	for (e = __start___ustrace_jump_table; e < __stop___ustrace_jump_table;
	     e++) {
		const unsigned char *code = (const unsigned char *)e->code;
		unsigned char state, b[5];
		int32_t rel;

		if (e->key != (unsigned long)&__tracepoint_inl_event.key ||
		    code < (const unsigned char *)start ||
		    code >= (const unsigned char *)stop)
			continue;
		n++;
		state = __atomic_load_n((unsigned char *)&e->state,
					__ATOMIC_RELAXED);
		if (state != on)
			tp_fail("%s site %p: state byte %u, expected %d",
				what, (void *)code, state, on);
		if (!patching)
			continue;
		read_site(code, b);
		if (!on && memcmp(b, nop5, 5))
			tp_fail("%s site %p: %02x %02x %02x %02x %02x, "
				"expected a 5-byte NOP", what, (void *)code,
				b[0], b[1], b[2], b[3], b[4]);
		memcpy(&rel, b + 1, 4);
		if (on && (b[0] != 0xe9 ||
			   (unsigned long)(code + 5 + rel) != e->target))
			tp_fail("%s site %p: %02x rel %d, expected a jmp to "
				"%#lx", what, (void *)code, b[0], rel,
				e->target);
	}
	return n;
}

static void test_each_copy_has_an_entry(void)
{
	int token, n_unrolled, n_inlined;

#ifndef __OPTIMIZE__
	SKIP("not optimized: no inlining or unrolling to count");
#endif
	n_unrolled = check_sites("unrolled", __start_tp_unrolled_text,
				 __stop_tp_unrolled_text, false);
	n_inlined = check_sites("inlined", __start_tp_inlined_text,
				__stop_tp_inlined_text, false);
	EXPECT_EQ(UNROLLED_COPIES, n_unrolled);
	EXPECT_EQ(2, n_inlined);

	EXPECT_EQ(0, register_trace_inl_event(probe, &token));
	EXPECT_EQ(UNROLLED_COPIES, check_sites("unrolled",
		  __start_tp_unrolled_text, __stop_tp_unrolled_text, true));
	EXPECT_EQ(2, check_sites("inlined", __start_tp_inlined_text,
				 __stop_tp_inlined_text, true));
	EXPECT_EQ(0, unregister_trace_inl_event(probe, &token));
	check_sites("unrolled", __start_tp_unrolled_text,
		    __stop_tp_unrolled_text, false);
	check_sites("inlined", __start_tp_inlined_text,
		    __stop_tp_inlined_text, false);
	ksft_print_msg("text patching %s; %d unrolled copies\n",
		       jump_label_text_patching() ? "on" : "off", n_unrolled);
}
#else
static void test_each_copy_has_an_entry(void)
{
	SKIP("no jump labels in this build");
}
#endif

int main(void)
{
	tp_plan(2, 20);
	tp_run("inline, inlined static and unrolled sites all fire",
	       test_every_copy_fires);
	tp_run("each inlined or unrolled copy has its own jump entry",
	       test_each_copy_has_an_entry);
	return tp_exit();
}
