// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Trace headers written as the kernel's are (compat-events.h): they
 * compile; TRACE_DEFINE_ENUM() values in the print fmt; strings in the
 * forms of 6.1 and 6.10; and TP_printk()'s %p extensions printing the
 * kernel's texts.  Linked statically, for the library's internals.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#define CREATE_TRACE_POINTS
#include "compat-events.h"

#include <linux/ring_buffer.h>
#include "../../kernel/trace/trace.h"
#include "../../kernel/trace/trace_syms.h"
#include "../../kernel/trace/trace_filter.h"
#include "kselftest.h"

static char buf[8192];

static const char *print_fmt_of(const char *name)
{
	struct trace_event_call *call = trace_find_event_call("compat", name);
	const char *p;

	if (!call || trace_event_format(call, buf, sizeof(buf)) < 0)
		return "(none)";
	p = strstr(buf, "print fmt: ");
	return p ? p + 11 : "(none)";
}

/* The text of the oldest record of the global buffer, consumed; "" if none. */
static const char *next_text(unsigned int flags)
{
	static char text[TRACE_SEQ_BUFFER_SIZE];
	struct trace_buffer *buffer = trace_get_global_buffer();
	static struct trace_seq s;

	text[0] = '\0';
	for (int cpu = 0; cpu < ring_buffer_nr_cpus(buffer); cpu++) {
		struct ring_buffer_event *event = ring_buffer_consume(buffer, cpu, NULL, NULL);

		if (!event)
			continue;
		trace_seq_init(&s);
		if (trace_print_event_flags(&s, ring_buffer_event_data(event),
					    ring_buffer_event_length(event), flags))
			snprintf(text, sizeof(text), "(bad record)");
		else
			snprintf(text, sizeof(text), "%s", s.buffer);
		break;
	}
	return text;
}

/* The values TRACE_DEFINE_ENUM() and _SIZEOF() name, outside quotes. */
static void enums_in_print_fmt(void)
{
	static const char want[] =
		"\"COMPAT_ONE kind=%s bit=%d size=%d name=%s cb=%d\", "
		"__print_symbolic(REC->kind, { COMPAT_ZERO, \"ZERO\" }, { 1, \"ONE\" }, "
		"{ 7, \"SEVEN\" }), (1 << 7) | 1, (int)24, __get_str(name), CB\n";
	struct trace_event_call *a = trace_find_event_call("compat", "compat_a");

	EXPECT_STREQ(want, print_fmt_of("compat_a"));
	EXPECT_STREQ(want, print_fmt_of("compat_b"));
	/* The object's own text is untouched. */
	ASSERT_TRUE(a != NULL);
	EXPECT_TRUE(strstr(a->print_fmt, "{ COMPAT_ONE, \"ONE\" }") != NULL);
	/* TRACE_EVENT_FLAGS(): the value beside the event, its flags untouched. */
	EXPECT_EQ(TRACE_EVENT_FL_CAP_ANY, __ustrace_event_flags_compat_a);
	EXPECT_EQ(0, a->flags & TRACE_EVENT_FL_CAP_ANY);
	/* The _NOP forms: callable, nothing registered. */
	trace_compat_gone(1);
	trace_compat_gone_too(2);
	EXPECT_FALSE(trace_compat_gone_enabled());
	EXPECT_TRUE(trace_find_event_call("compat", "compat_gone") == NULL);
	EXPECT_TRUE(trace_find_event_call("compat", "compat_gone_too") == NULL);
	/* The record renders with the names. */
	ASSERT_EQ(0, trace_set_clr_event("compat", "compat_a", 1));
	trace_compat_a(COMPAT_SEVEN, "x");
	ASSERT_EQ(0, trace_set_clr_event("compat", "compat_a", 0));
	EXPECT_STREQ("COMPAT_ONE kind=SEVEN bit=129 size=24 name=x cb=123456", next_text(0));
}

static void strings_61_and_610(void)
{
	const char *f;

	ASSERT_EQ(0, trace_set_clr_event("compat", "compat_strings", 1));
	trace_compat_strings("hello", "truncated", 5, "relative", 42);
	trace_compat_strings(NULL, NULL, 5, NULL, 0);
	ASSERT_EQ(0, trace_set_clr_event("compat", "compat_strings", 0));
	EXPECT_STREQ("old=hello cut=trunc cut61=trunc rel=relative cnt=42", next_text(0));
	EXPECT_STREQ("old=(null) cut=(null) cut61=(null) rel=(null) cnt=0", next_text(0));
	/* The __rel_loc field as the kernel prints it: brackets after the name. */
	f = print_fmt_of("compat_strings");
	(void)f;
	EXPECT_TRUE(strstr(buf, "\tfield:__rel_loc char rel[];\toffset:20;\tsize:4;\tsigned:0;\n") !=
		    NULL);
	EXPECT_TRUE(strstr(buf, "\tfield:__data_loc char[] cut;\toffset:12;\tsize:4;\tsigned:0;\n") !=
		    NULL);
}

/* "ret" in a TP_printk(): the output function's, as the kernel's (1). */
static void output_ret(void)
{
	ASSERT_EQ(0, trace_set_clr_event("compat", "compat_ret", 1));
	trace_compat_ret(-5);
	ASSERT_EQ(0, trace_set_clr_event("compat", "compat_ret", 0));
	EXPECT_STREQ("entry=-5 ret=1", next_text(0));
	print_fmt_of("compat_ret");
	EXPECT_TRUE(strstr(buf, "print fmt: \"entry=%d ret=%d\", REC->ret, ret\n") != NULL);
}

static void fire_vstr(const char *fmt, ...)
{
	va_list ap, aq;
	struct compat_va vf;

	va_start(ap, fmt);
	va_copy(aq, ap);
	vf.fmt = "second %d";
	vf.va = &aq;
	trace_compat_vstr(fmt, &ap, &vf);
	va_end(aq);
	va_end(ap);
}

static void vstring_both_forms(void)
{
	ASSERT_EQ(0, trace_set_clr_event("compat", "compat_vstr", 1));
	fire_vstr("first %d %s", 7, "x");
	ASSERT_EQ(0, trace_set_clr_event("compat", "compat_vstr", 0));
	EXPECT_STREQ("first 7 x|second 7", next_text(0));
}

/* A function for %ps and %pS. */
__attribute__((__noinline__)) int compat_target(int x)
{
	return x * 3 + 1;
}

static int some_object;

/* Splits "k=v k=v": the value of @key, or "". */
static const char *field(const char *text, const char *key)
{
	static char val[256];
	char pat[32];
	const char *p;
	size_t n;

	snprintf(pat, sizeof(pat), "%s=", key);
	val[0] = '\0';
	for (p = text; (p = strstr(p, pat)); p++) {
		if (p != text && p[-1] != ' ')
			continue;
		p += strlen(pat);
		n = strcspn(p, " ");
		snprintf(val, sizeof(val), "%.*s", (int)n, p);
		break;
	}
	return val;
}

static void fire_pointers(const void *ptr)
{
	static const unsigned char ip4[4] = { 127, 0, 0, 1 };
	static const unsigned char ip6[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 1 };
	static const unsigned char uuid[16] = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
						0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff };
	static const unsigned char mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
	struct sockaddr_in6 sa = { .sin6_family = AF_INET6, .sin6_port = htons(8080) };

	inet_pton(AF_INET6, "2001:db8::1", &sa.sin6_addr);
	trace_compat_pointers((unsigned long)compat_target + 4, ptr, ip4, ip6, uuid, mac,
			      0x123456782ful, &sa, sizeof(sa));
}

static void pointer_extensions(void)
{
	char px[32], want_s[64];
	const char *text;

	ASSERT_EQ(0, trace_set_clr_event("compat", "compat_pointers", 1));
	fire_pointers(&some_object);
	fire_pointers(&some_object);
	fire_pointers(NULL);
	ASSERT_EQ(0, trace_set_clr_event("compat", "compat_pointers", 0));

	text = next_text(0);
	ksft_print_msg("%s\n", text);
	EXPECT_STREQ("compat_target", field(text, "s"));
	snprintf(want_s, sizeof(want_s), "compat_target+0x4/0x");
	EXPECT_TRUE(!strncmp(field(text, "S"), want_s, strlen(want_s)));
	snprintf(px, sizeof(px), "%016lx", (unsigned long)&some_object);
	EXPECT_STREQ(px, field(text, "px"));
	/* Hashed: 32 bits of a keyed hash, never the address. */
	EXPECT_EQ(16u, strlen(field(text, "p")));
	EXPECT_TRUE(!strncmp(field(text, "p"), "00000000", 8));
	EXPECT_TRUE(strcmp(field(text, "p"), px) != 0);
	EXPECT_STREQ("127.0.0.1", field(text, "I4"));
	EXPECT_STREQ("127.000.000.001", field(text, "i4"));
	EXPECT_STREQ("0000:0000:0000:0000:0000:ffff:7f00:0001", field(text, "I6"));
	EXPECT_STREQ("::ffff:127.0.0.1", field(text, "I6c"));
	EXPECT_STREQ("00112233-4455-6677-8899-aabbccddeeff", field(text, "U"));
	EXPECT_STREQ("33221100-5544-7766-8899-aabbccddeeff", field(text, "Ul"));
	EXPECT_STREQ("00112233-4455-6677-8899-AABBCCDDEEFF", field(text, "UB"));
	EXPECT_STREQ("52:54:00:12:34:56", field(text, "M"));
	EXPECT_STREQ("56:34:12:00:54:52", field(text, "MR"));
	EXPECT_STREQ("52-54-00-12-34-56", field(text, "MF"));
	EXPECT_STREQ("525400123456", field(text, "m"));
	EXPECT_STREQ("52:54:00", field(text, "ph"));
	EXPECT_STREQ("12,3456782f", field(text, "pb"));
	EXPECT_STREQ("0-3,5,11-14", field(text, "pbl"));
	EXPECT_STREQ("[2001:db8::1]:8080", field(text, "IS"));

	/* The same pointer, the same id; hash-ptr off prints it raw. */
	{
		char first[32];

		snprintf(first, sizeof(first), "%s", field(text, "p"));
		text = next_text(TRACE_PRINT_RAW_PTR);
		EXPECT_STREQ(px, field(text, "p"));
		EXPECT_TRUE(strcmp(first, field(text, "p")) != 0);
	}
	/* NULL is printed raw, hashed or not, as by the kernel; %ps of 0 is "0x0". */
	text = next_text(0);
	EXPECT_STREQ("0000000000000000", field(text, "p"));
	EXPECT_STREQ("0000000000000000", field(text, "px"));
}

/*
 * What a %p extension reads must be in the record: elsewhere it prints
 * "(efault)", NULL "(null)"; %ps reads nothing.
 */
static void pointers_outside_record(void)
{
	unsigned char *outside = malloc(8);
	char want[64];

	ASSERT_TRUE(outside != NULL);
	memset(outside, 1, 8);
	ASSERT_EQ(0, trace_set_clr_event("compat", "compat_extptr", 1));
	trace_compat_extptr(outside);
	trace_compat_extptr(NULL);
	ASSERT_EQ(0, trace_set_clr_event("compat", "compat_extptr", 0));
	/* The heap is no object's: no symbol. */
	snprintf(want, sizeof(want), "(efault) (efault) 0x%lx", (unsigned long)outside);
	EXPECT_STREQ(want, next_text(0));
	free(outside);
	EXPECT_STREQ("(null) (null) 0x0", next_text(0));
}

/*
 * tracepoint_string(): printk_formats (and recordings) list the string at
 * its address, with the kernel's escapes; kallsyms lists the functions.
 */
static void tracepoint_strings(void)
{
	const char *s = tracepoint_string("compat \"quoted\"\ttab\n");
	char want[128], sym[64];
	const char *printk, *kallsyms;

	trace_syms_update();
	printk = trace_syms_printk();
	kallsyms = trace_syms_kallsyms();
	ASSERT_TRUE(printk != NULL && kallsyms != NULL);
	snprintf(want, sizeof(want), "0x%lx : \"compat \\\"quoted\\\"\\ttab\\n\"\n",
		 (unsigned long)s);
	EXPECT_TRUE(strstr(printk, want) != NULL);
	snprintf(sym, sizeof(sym), "%016lx T compat_target\n", (unsigned long)compat_target);
	EXPECT_TRUE(strstr(kallsyms, sym) != NULL);
	EXPECT_TRUE(strstr(kallsyms, " T tracing_mark_write\n") != NULL);
}

/* hist's .syscall modifier: this architecture's names, as the kernel's. */
static void hist_syscall_names(void)
{
	struct trace_event_call *call = trace_find_event_call("compat", "compat_b");
	struct trace_seq *s = malloc(sizeof(*s));
	struct trace_err err;
	char *text;
	size_t len;

	ASSERT_TRUE(call != NULL && s != NULL);
	ASSERT_EQ(0, trace_array_set_trigger(NULL, call, "hist:keys=kind.syscall:sort=kind", &err));
	trace_seq_init(s);
	trace_array_print_triggers(NULL, call, s);
	EXPECT_STREQ("hist:keys=kind.syscall:vals=hitcount:sort=kind.syscall:size=2048 [active]\n",
		     s->buffer);
	trace_compat_b(1, "w");
	trace_compat_b(59, "x");
	trace_compat_b(59, "x");
	trace_compat_b(100000, "u");
	text = trace_array_hist_text(NULL, call, &len);
	ASSERT_TRUE(text != NULL);
	ksft_print_msg("%s", text);
	EXPECT_TRUE(strstr(text, "{ kind: sys_write                     [  1] } hitcount:          1\n"));
	EXPECT_TRUE(strstr(text, "{ kind: sys_execve                    [ 59] } hitcount:          2\n"));
	EXPECT_TRUE(strstr(text, "{ kind: unknown_syscall               [100000] } hitcount:          1\n"));
	free(text);
	EXPECT_EQ(0, trace_array_set_trigger(NULL, call, "!hist:keys=kind.syscall:sort=kind", &err));
	free(s);
}

/* The compressed IPv6 forms, as the kernel's ip6_compressed_string(). */
static void ipv6_compressed(void)
{
	static const struct { const char *in, *out; } cases[] = {
		{ "::", "::" }, { "::1", "::1" }, { "1::", "1::" },
		{ "2001:db8::1", "2001:db8::1" }, { "fe80::1:0:0:2", "fe80::1:0:0:2" },
		{ "1:0:0:2:0:0:0:3", "1:0:0:2::3" }, { "1:0:2:3:4:5:6:7", "1:0:2:3:4:5:6:7" },
		{ "::ffff:10.1.2.3", "::ffff:10.1.2.3" }, { "fe80::5efe:10.0.0.1", "fe80::5efe:10.0.0.1" },
		{ "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8" }, { "1:0:0:4:0:0:7:8", "1::4:0:0:7:8" },
	};
	struct sockaddr_in6 sa = { .sin6_family = AF_INET6 };
	static const unsigned char zero[16];

	ASSERT_EQ(0, trace_set_clr_event("compat", "compat_pointers", 1));
	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned char a[16];

		ASSERT_EQ(1, inet_pton(AF_INET6, cases[i].in, a));
		trace_compat_pointers(0, NULL, zero, a, zero, zero, 0, &sa, sizeof(sa));
		EXPECT_STREQ(cases[i].out, field(next_text(0), "I6c"));
	}
	ASSERT_EQ(0, trace_set_clr_event("compat", "compat_pointers", 0));
}

int main(void)
{
	ksft_print_header();
	ksft_set_plan(9);
	KSFT_RUN(enums_in_print_fmt);
	KSFT_RUN(strings_61_and_610);
	KSFT_RUN(output_ret);
	KSFT_RUN(vstring_both_forms);
	KSFT_RUN(pointer_extensions);
	KSFT_RUN(pointers_outside_record);
	KSFT_RUN(ipv6_compressed);
	KSFT_RUN(tracepoint_strings);
	KSFT_RUN(hist_syscall_names);
	ksft_finished();
}
