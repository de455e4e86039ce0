// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The ring buffer's pages, byte for byte, and what libtraceevent's kbuffer
 * reads from them; and the reader API, single-threaded, with a clock the
 * test moves by hand.
 *
 * Every test pins the thread to one CPU, so that its events go to that
 * CPU's ring, and reads that CPU.  Pages are decoded by rb_test_decode()
 * (rb_test.h, written from the format description alone) and, when the
 * build found libtraceevent (HAVE_KBUFFER), by kbuffer as well; without it
 * the kbuffer test skips.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_KBUFFER
# include <kbuffer.h>
#endif

#include <linux/ring_buffer.h>
#include <linux/trace_clock.h>

#include "kselftest.h"
#include "rb_test.h"

#define T0		1000000ull
#define EV28		24	/* payload making 28-byte events: 145 per page */
#define PER_PAGE28	145

static int test_cpu;
static int all_cpus[2], nr_all_cpus;

/* The text of events/header_page and events/header_event on Linux 6.18. */
static const char golden_header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

static const char golden_header_event[] =
	"# compressed entry header\n"
	"\ttype_len    :    5 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n"
	"\n"
	"\tpadding     : type == 29\n"
	"\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n"
	"\tdata max type_len  == 28\n";

/* A buffer on the test clock, reset so that its first page starts at T0. */
static struct trace_buffer *new_buffer(unsigned long pages, unsigned int flags)
{
	struct trace_buffer *buffer = ring_buffer_alloc(pages * RB_PAGE_DATA_SIZE, flags);

	if (!buffer)
		return NULL;
	ring_buffer_set_clock(buffer, rb_test_clock);
	rb_test_set_time(T0);
	ring_buffer_reset(buffer);
	return buffer;
}

/* Reserve @len bytes at time now + @d and fill them with @fill. */
static struct ring_buffer_event *reserve(struct trace_buffer *buffer, unsigned long len,
					 uint64_t d, int fill)
{
	struct ring_buffer_event *event;

	rb_test_advance(d);
	event = ring_buffer_lock_reserve(buffer, len);
	if (event)
		memset(ring_buffer_event_data(event), fill, len);
	return event;
}

static int write_event(struct trace_buffer *buffer, unsigned long len, uint64_t d, int fill)
{
	struct ring_buffer_event *event = reserve(buffer, len, d, fill);

	return event ? ring_buffer_unlock_commit(buffer, event) : -errno;
}

/* Write 28-byte events whose payload starts with their index. */
static int write_indexed(struct trace_buffer *buffer, unsigned int from, unsigned int n)
{
	for (unsigned int i = from; i < from + n; i++) {
		struct ring_buffer_event *event;

		rb_test_advance(10);
		event = ring_buffer_lock_reserve(buffer, EV28);
		if (!event)
			return -errno;
		memset(ring_buffer_event_data(event), 0, EV28);
		memcpy(ring_buffer_event_data(event), &i, sizeof(i));
		ring_buffer_unlock_commit(buffer, event);
	}
	return 0;
}

static unsigned int index_of(struct ring_buffer_event *event)
{
	unsigned int i;

	memcpy(&i, ring_buffer_event_data(event), sizeof(i));
	return i;
}

static void test_header_text(void)
{
	char buf[1024];

	ASSERT_EQ((int)strlen(golden_header_page),
		  ring_buffer_print_page_header(buf, sizeof(buf)));
	EXPECT_STREQ(golden_header_page, buf);
	ASSERT_EQ((int)strlen(golden_header_event),
		  ring_buffer_print_entry_header(buf, sizeof(buf)));
	EXPECT_STREQ(golden_header_event, buf);
	EXPECT_EQ(4096, RB_PAGE_SIZE);
	EXPECT_EQ(4080, RB_PAGE_DATA_SIZE);
	EXPECT_EQ(4072, RB_MAX_DATA_SIZE);
}

/* The events of the golden page, as a reader must see them. */
static const struct {
	unsigned long long ts;
	unsigned int size;
	unsigned char fill;
} golden_events[] = {
	{ T0 + 5, 8, 0x11 },
	{ T0 + 105, 120, 0x22 },
	{ T0 + 105 + (1ull << 28), 4, 0x33 },
	{ T0 + 115 + (1ull << 28), 4, 0x55 },
	{ T0 + 124 + (1ull << 28), 4, 0x77 },
	{ T0 + 135 + (1ull << 28), 4, 0x88 },
};

#define NR_GOLDEN	(sizeof(golden_events) / sizeof(golden_events[0]))

/*
 * Writes one page with every kind of record and takes it out with
 * ring_buffer_read_page(): NULL on failure.  What it must hold is written
 * out by hand in test_golden_page().
 */
static void *make_golden_page(struct trace_buffer *buffer)
{
	struct ring_buffer_event *e4, *e5, *e6;
	void *page;

	/* E1: 8 bytes at +5: type_len 2 */
	if (write_event(buffer, 8, 5, 0x11))
		return NULL;
	/* E2: 120 bytes at +100: type_len 0, array[0] = 124 */
	if (write_event(buffer, 120, 100, 0x22))
		return NULL;
	/* E3: 4 bytes 2^28 ns later: a time extend first */
	if (write_event(buffer, 4, 1ull << 28, 0x33))
		return NULL;
	/* E4 at +7, E5 at +3 after it, then E4 discarded: padding */
	e4 = reserve(buffer, 4, 7, 0x44);
	e5 = reserve(buffer, 4, 3, 0x55);
	if (!e4 || !e5)
		return NULL;
	ring_buffer_discard_commit(buffer, e4);
	ring_buffer_unlock_commit(buffer, e5);
	/* E6 at +1000, discarded while last: gives its space (and time) back */
	e6 = reserve(buffer, 4, 1000, 0x66);
	if (!e6)
		return NULL;
	ring_buffer_discard_commit(buffer, e6);
	rb_test_advance(-1000ull);
	/* E7: 3 bytes at +9: type_len 1 */
	if (write_event(buffer, 3, 9, 0x77))
		return NULL;
	/* E8: 4 bytes at +11 in absolute mode: a time stamp first */
	ring_buffer_set_time_stamp_abs(buffer, true);
	if (write_event(buffer, 4, 11, 0x88))
		return NULL;
	ring_buffer_set_time_stamp_abs(buffer, false);

	page = ring_buffer_alloc_read_page(buffer, test_cpu);
	if (page && ring_buffer_read_page(buffer, &page, RB_PAGE_SIZE, test_cpu, 0)) {
		ring_buffer_free_read_page(buffer, test_cpu, page);
		return NULL;
	}
	return page;
}

/* The golden page byte for byte, then decoded from the format alone. */
static void test_golden_page(void)
{
	struct trace_buffer *buffer = new_buffer(4, 0);
	uint32_t expect[RB_PAGE_DATA_SIZE / 4];
	struct rb_test_page *p = malloc(sizeof(*p));
	unsigned int n = 0, size;
	void *page;
	char *data;

	ASSERT_TRUE(buffer != NULL && p != NULL);
	page = make_golden_page(buffer);
	ASSERT_TRUE(page != NULL);

	expect[n++] = 2 | 5 << 5;		/* E1 */
	expect[n++] = 0x11111111;
	expect[n++] = 0x11111111;
	expect[n++] = 0 | 100 << 5;		/* E2 */
	expect[n++] = 124;
	for (int i = 0; i < 30; i++)
		expect[n++] = 0x22222222;
	expect[n++] = 30 | 0 << 5;		/* E3: extend by 2^28 = 2 << 27 */
	expect[n++] = 2;
	expect[n++] = 1 | 0 << 5;
	expect[n++] = 0x33333333;
	expect[n++] = 29 | 7 << 5;		/* E4, now padding of 4 + 4 */
	expect[n++] = 4;
	expect[n++] = 1 | 3 << 5;		/* E5 */
	expect[n++] = 0x55555555;
	expect[n++] = 1 | 9 << 5;		/* E7 */
	expect[n++] = 0x66777777;		/* the 4th byte is what E6 left */
	expect[n++] = 0x1e858ff;		/* 31 | (269435591 & (2^27-1)) << 5 */
	expect[n++] = 2;			/* 269435591 >> 27 */
	expect[n++] = 1 | 0 << 5;		/* E8 */
	expect[n++] = 0x88888888;
	size = n * 4;

	data = (char *)page + RB_PAGE_HDR_SIZE;
	EXPECT_EQ(T0, *(uint64_t *)page);
	EXPECT_EQ(size, *(uint64_t *)((char *)page + 8));
	for (unsigned int i = 0; i < n; i++) {
		uint32_t w;

		memcpy(&w, data + i * 4, 4);
		if (w != expect[i]) {
			ksft_print_msg("word %u (byte %u): %#x, expected %#x\n", i, i * 4, w,
				       expect[i]);
			EXPECT_EQ(expect[i], w);
		}
	}
	for (unsigned int i = size; i < RB_PAGE_DATA_SIZE; i++)
		if (data[i]) {
			EXPECT_EQ(0, data[i]);
			break;
		}

	rb_test_decode(page, p);
	EXPECT_FALSE(p->malformed);
	EXPECT_EQ(0, p->missed);
	ASSERT_EQ(NR_GOLDEN, p->nr);
	for (unsigned int i = 0; i < NR_GOLDEN; i++) {
		EXPECT_EQ(golden_events[i].ts, p->ev[i].ts);
		EXPECT_EQ(golden_events[i].size, p->ev[i].len);
		EXPECT_EQ(golden_events[i].fill, *(const unsigned char *)p->ev[i].data);
	}
	free(p);
	ring_buffer_free_read_page(buffer, test_cpu, page);
	ring_buffer_free(buffer);
}

/* What libtraceevent's kbuffer makes of the golden page. */
static void test_kbuffer_golden(void)
{
#ifdef HAVE_KBUFFER
	struct trace_buffer *buffer = new_buffer(4, 0);
	unsigned long long ts;
	struct kbuffer *kbuf;
	void *page, *d;

	ASSERT_TRUE(buffer != NULL);
	page = make_golden_page(buffer);
	ASSERT_TRUE(page != NULL);
	kbuf = kbuffer_alloc(KBUFFER_LSIZE_8, KBUFFER_ENDIAN_LITTLE);
	ASSERT_TRUE(kbuf != NULL);
	ASSERT_EQ(0, kbuffer_load_subbuffer(kbuf, page));
	EXPECT_EQ(0, kbuffer_missed_events(kbuf));
	EXPECT_EQ(*(uint64_t *)((char *)page + 8), kbuffer_subbuffer_size(kbuf));
	EXPECT_EQ(T0, kbuffer_subbuf_timestamp(kbuf, page));
	d = kbuffer_read_event(kbuf, &ts);
	for (unsigned int i = 0; i < NR_GOLDEN; i++) {
		ASSERT_TRUE(d != NULL);
		EXPECT_EQ(golden_events[i].ts, ts);
		EXPECT_EQ(golden_events[i].size, kbuffer_event_size(kbuf));
		EXPECT_EQ(golden_events[i].fill, *(unsigned char *)d);
		for (unsigned int k = 1; k < golden_events[i].size && i != 4; k++)
			if (((unsigned char *)d)[k] != golden_events[i].fill) {
				EXPECT_EQ(golden_events[i].fill, ((unsigned char *)d)[k]);
				break;
			}
		d = kbuffer_next_event(kbuf, &ts);
	}
	EXPECT_TRUE(d == NULL);
	kbuffer_free(kbuf);
	ring_buffer_free_read_page(buffer, test_cpu, page);
	ring_buffer_free(buffer);
#else
	SKIP("built without libtraceevent (kbuffer.h)");
#endif
}

/* The accessors on every kind of event, and consume's time stamps. */
static void test_event_accessors(void)
{
	struct trace_buffer *buffer = new_buffer(4, 0);
	struct ring_buffer_event *event;
	uint64_t ts;
	unsigned long lost = 99;

	ASSERT_TRUE(buffer != NULL);
	ASSERT_EQ(0, write_event(buffer, 0, 1, 0));
	ASSERT_EQ(0, write_event(buffer, 112, 1, 0xaa));
	ASSERT_EQ(0, write_event(buffer, 113, 1, 0xbb));
	ASSERT_EQ(0, write_event(buffer, 4, 1ull << 30, 0xcc));
	ring_buffer_set_time_stamp_abs(buffer, true);
	ASSERT_EQ(0, write_event(buffer, 8, 1, 0xdd));
	ring_buffer_set_time_stamp_abs(buffer, false);

	event = ring_buffer_consume(buffer, test_cpu, &ts, &lost);
	ASSERT_TRUE(event != NULL);
	EXPECT_EQ(0, lost);
	EXPECT_EQ(T0 + 1, ts);
	EXPECT_EQ(4, ring_buffer_event_length(event));	/* 0 bytes take 4 */
	EXPECT_EQ(1, (int)event->type_len);

	event = ring_buffer_consume(buffer, test_cpu, &ts, NULL);
	ASSERT_TRUE(event != NULL);
	EXPECT_EQ(T0 + 2, ts);
	EXPECT_EQ(112, ring_buffer_event_length(event));
	EXPECT_EQ(28, (int)event->type_len);
	EXPECT_EQ((char *)event + 4, (char *)ring_buffer_event_data(event));

	event = ring_buffer_consume(buffer, test_cpu, &ts, NULL);
	ASSERT_TRUE(event != NULL);
	EXPECT_EQ(T0 + 3, ts);
	EXPECT_EQ(116, ring_buffer_event_length(event));
	EXPECT_EQ(0, (int)event->type_len);
	EXPECT_EQ((char *)event + 8, (char *)ring_buffer_event_data(event));
	EXPECT_EQ(0xbb, *(unsigned char *)ring_buffer_event_data(event));

	event = ring_buffer_consume(buffer, test_cpu, &ts, NULL);
	ASSERT_TRUE(event != NULL);
	EXPECT_EQ(T0 + 3 + (1ull << 30), ts);
	EXPECT_EQ(4, ring_buffer_event_length(event));
	EXPECT_EQ(0xcc, *(unsigned char *)ring_buffer_event_data(event));

	event = ring_buffer_consume(buffer, test_cpu, &ts, NULL);
	ASSERT_TRUE(event != NULL);
	EXPECT_EQ(T0 + 4 + (1ull << 30), ts);
	EXPECT_EQ(8, ring_buffer_event_length(event));
	EXPECT_EQ(0xdd, *(unsigned char *)ring_buffer_event_data(event));

	errno = 0;
	EXPECT_TRUE(ring_buffer_consume(buffer, test_cpu, &ts, NULL) == NULL);
	EXPECT_EQ(EAGAIN, errno);
	EXPECT_EQ(5, ring_buffer_read_events_cpu(buffer, test_cpu));
	ring_buffer_free(buffer);
}

/* Overwrite mode: the oldest pages go, the page after them says how many. */
static void test_overwrite_missed(void)
{
	struct trace_buffer *buffer = new_buffer(2, RB_FL_OVERWRITE);
	unsigned int n = PER_PAGE28 * 5;
#ifdef HAVE_KBUFFER
	unsigned long long ts;
	struct kbuffer *kbuf;
	void *d;
#endif
	uint64_t commit;
	void *page;

	ASSERT_TRUE(buffer != NULL);
	ASSERT_EQ(0, write_indexed(buffer, 0, n));
	/* Pages 0-2 were overwritten; 3 (full) and 4 (the tail) remain. */
	EXPECT_EQ(3 * PER_PAGE28, ring_buffer_overrun_cpu(buffer, test_cpu));
	EXPECT_EQ(2 * PER_PAGE28, ring_buffer_entries_cpu(buffer, test_cpu));
	/* A full page with its padding, and the tail page so far. */
	EXPECT_EQ(RB_PAGE_DATA_SIZE + PER_PAGE28 * 28, ring_buffer_bytes_cpu(buffer, test_cpu));
	EXPECT_EQ(T0 + 10 * (3 * PER_PAGE28 + 1),
		  ring_buffer_oldest_event_ts(buffer, test_cpu));
	EXPECT_EQ(0, ring_buffer_dropped_events_cpu(buffer, test_cpu));

	page = ring_buffer_alloc_read_page(buffer, test_cpu);
	ASSERT_TRUE(page != NULL);
	ASSERT_EQ(0, ring_buffer_read_page(buffer, &page, RB_PAGE_SIZE, test_cpu, 1));
	memcpy(&commit, (char *)page + 8, 8);
	EXPECT_EQ(PER_PAGE28 * 28 | RB_MISSED_EVENTS | RB_MISSED_STORED, commit);
	/* The count follows the data, 4-byte aligned only (as in the kernel). */
	{
		uint64_t missed;

		memcpy(&missed, (char *)page + RB_PAGE_HDR_SIZE + PER_PAGE28 * 28, 8);
		EXPECT_EQ(3 * PER_PAGE28, missed);
	}

	{
		struct rb_test_page *p = malloc(sizeof(*p));
		unsigned int first;

		ASSERT_TRUE(p != NULL);
		rb_test_decode(page, p);
		EXPECT_EQ(3 * PER_PAGE28, p->missed);
		EXPECT_EQ(PER_PAGE28, p->nr);
		memcpy(&first, p->ev[0].data, 4);
		EXPECT_EQ(3 * PER_PAGE28, first);
		EXPECT_EQ(T0 + 10 * (3 * PER_PAGE28 + 1), p->ev[0].ts);
		free(p);
	}
#ifdef HAVE_KBUFFER
	kbuf = kbuffer_alloc(KBUFFER_LSIZE_8, KBUFFER_ENDIAN_LITTLE);
	ASSERT_TRUE(kbuf != NULL);
	ASSERT_EQ(0, kbuffer_load_subbuffer(kbuf, page));
	EXPECT_EQ(3 * PER_PAGE28, kbuffer_missed_events(kbuf));
	d = kbuffer_read_event(kbuf, &ts);
	ASSERT_TRUE(d != NULL);
	EXPECT_EQ(3 * PER_PAGE28, *(unsigned int *)d);
	EXPECT_EQ(T0 + 10 * (3 * PER_PAGE28 + 1), ts);
	kbuffer_free(kbuf);
#endif

	/* Whole pages only: the tail page is not full. */
	EXPECT_EQ(-EAGAIN, ring_buffer_read_page(buffer, &page, RB_PAGE_SIZE, test_cpu, 1));
	/* Any page: the tail page is closed early, nothing is flagged. */
	ASSERT_EQ(0, ring_buffer_read_page(buffer, &page, RB_PAGE_SIZE, test_cpu, 0));
	memcpy(&commit, (char *)page + 8, 8);
	EXPECT_EQ(PER_PAGE28 * 28, commit);
	EXPECT_EQ(4 * PER_PAGE28, *(unsigned int *)((char *)page + RB_PAGE_HDR_SIZE + 4));
	EXPECT_EQ(-EAGAIN, ring_buffer_read_page(buffer, &page, RB_PAGE_SIZE, test_cpu, 0));
	EXPECT_EQ(2 * PER_PAGE28, ring_buffer_read_events_cpu(buffer, test_cpu));
	EXPECT_EQ(0, ring_buffer_entries_cpu(buffer, test_cpu));
	EXPECT_TRUE(ring_buffer_empty_cpu(buffer, test_cpu));
	ring_buffer_free_read_page(buffer, test_cpu, page);
	ring_buffer_free(buffer);
}

/*
 * Producer/consumer mode: new events are dropped when full, and the first
 * page written after the drop carries their count.
 */
static void test_producer_consumer(void)
{
	struct trace_buffer *buffer = new_buffer(2, 0);
	struct ring_buffer_event *event;
	unsigned long lost;
	uint64_t ts;

	ASSERT_TRUE(buffer != NULL);
	ASSERT_EQ(0, write_indexed(buffer, 0, 2 * PER_PAGE28));
	for (int i = 0; i < 10; i++) {
		errno = 0;
		EXPECT_TRUE(ring_buffer_lock_reserve(buffer, EV28) == NULL);
		EXPECT_EQ(ENOBUFS, errno);
	}
	EXPECT_EQ(10, ring_buffer_dropped_events_cpu(buffer, test_cpu));
	EXPECT_EQ(0, ring_buffer_overrun_cpu(buffer, test_cpu));
	EXPECT_EQ(2 * PER_PAGE28, ring_buffer_entries_cpu(buffer, test_cpu));

	/* Reading the first page frees it; the next event goes there. */
	for (unsigned int i = 0; i < PER_PAGE28; i++) {
		event = ring_buffer_consume(buffer, test_cpu, &ts, &lost);
		ASSERT_TRUE(event != NULL);
		ASSERT_EQ(i, index_of(event));
		ASSERT_EQ(0, lost);
	}
	ASSERT_EQ(0, write_indexed(buffer, 1000, 1));
	for (unsigned int i = PER_PAGE28; i < 2 * PER_PAGE28; i++) {
		event = ring_buffer_consume(buffer, test_cpu, &ts, &lost);
		ASSERT_TRUE(event != NULL);
		ASSERT_EQ(i, index_of(event));
		ASSERT_EQ(0, lost);
	}
	event = ring_buffer_consume(buffer, test_cpu, &ts, &lost);
	ASSERT_TRUE(event != NULL);
	EXPECT_EQ(1000, index_of(event));
	EXPECT_EQ(10, lost);
	EXPECT_EQ(T0 + 10 * (2 * PER_PAGE28 + 1), ts);
	EXPECT_TRUE(ring_buffer_consume(buffer, test_cpu, &ts, &lost) == NULL);
	EXPECT_EQ(2 * PER_PAGE28 + 1, ring_buffer_read_events_cpu(buffer, test_cpu));
	ring_buffer_free(buffer);
}

/* Too large is refused and counted; the largest fits on an empty page. */
static void test_too_large(void)
{
	struct trace_buffer *buffer = new_buffer(4, RB_FL_OVERWRITE);
	struct ring_buffer_event *event;
	uint64_t ts;

	ASSERT_TRUE(buffer != NULL);
	errno = 0;
	EXPECT_TRUE(ring_buffer_lock_reserve(buffer, RB_MAX_DATA_SIZE + 1) == NULL);
	EXPECT_EQ(EMSGSIZE, errno);
	EXPECT_TRUE(ring_buffer_lock_reserve(buffer, 1ul << 40) == NULL);
	EXPECT_EQ(2, ring_buffer_dropped_events_cpu(buffer, test_cpu));
	ASSERT_EQ(0, write_event(buffer, 4, 1, 1));
	ASSERT_EQ(0, write_event(buffer, RB_MAX_DATA_SIZE, 1, 2));
	ASSERT_EQ(0, write_event(buffer, 4, 1, 3));
	EXPECT_EQ(2, ring_buffer_dropped_events_cpu(buffer, test_cpu));
	for (int i = 1; i <= 3; i++) {
		event = ring_buffer_consume(buffer, test_cpu, &ts, NULL);
		ASSERT_TRUE(event != NULL);
		EXPECT_EQ(i, *(unsigned char *)ring_buffer_event_data(event));
		EXPECT_EQ(T0 + i, ts);
		EXPECT_EQ(i == 2 ? RB_MAX_DATA_SIZE : 4, ring_buffer_event_length(event));
	}
	/* In absolute mode the time stamp takes 8 of the bytes. */
	ring_buffer_set_time_stamp_abs(buffer, true);
	EXPECT_TRUE(ring_buffer_lock_reserve(buffer, RB_MAX_DATA_SIZE) == NULL);
	EXPECT_EQ(3, ring_buffer_dropped_events_cpu(buffer, test_cpu));
	ASSERT_EQ(0, write_event(buffer, RB_MAX_DATA_SIZE - 8, 1, 4));
	ring_buffer_free(buffer);
}

/*
 * Every event that never reaches the reader is reported as lost, also the
 * refusals counted on a page that was then overwritten, and a write
 * refused while the CPU's recording is off is not a loss at all.
 */
static void test_lost_accounting(void)
{
	struct trace_buffer *buffer = new_buffer(2, RB_FL_OVERWRITE);
	unsigned long lost, reported = 0, read = 0;
	uint64_t ts;
	int i;

	ASSERT_TRUE(buffer != NULL);
	ring_buffer_record_disable_cpu(buffer, test_cpu);
	EXPECT_TRUE(ring_buffer_lock_reserve(buffer, RB_MAX_DATA_SIZE + 1) == NULL);
	EXPECT_EQ(EBUSY, errno);
	EXPECT_EQ(0, ring_buffer_dropped_events_cpu(buffer, test_cpu));
	ring_buffer_record_enable_cpu(buffer, test_cpu);

	for (i = 0; i < 3; i++)
		EXPECT_TRUE(ring_buffer_lock_reserve(buffer, RB_MAX_DATA_SIZE + 1) == NULL);
	for (i = 0; i < 400; i++)
		ASSERT_EQ(0, write_event(buffer, 64, 1, i & 0xff));
	while (ring_buffer_consume(buffer, test_cpu, &ts, &lost)) {
		read++;
		reported += lost;
	}
	EXPECT_EQ(3, ring_buffer_dropped_events_cpu(buffer, test_cpu));
	EXPECT_EQ(400, read + ring_buffer_overrun_cpu(buffer, test_cpu));
	EXPECT_EQ(ring_buffer_overrun_cpu(buffer, test_cpu) +
		  ring_buffer_dropped_events_cpu(buffer, test_cpu), reported);
	ring_buffer_free(buffer);
}

/*
 * Readers never see an uncommitted event: one held reservation holds back
 * everything after it; nested reservations commit in any order.
 */
static void test_commit_order(void)
{
	struct trace_buffer *buffer = new_buffer(4, 0);
	struct ring_buffer_event *outer, *inner, *event;
	uint64_t ts;

	ASSERT_TRUE(buffer != NULL);
	outer = reserve(buffer, 8, 1, 0x01);
	ASSERT_TRUE(outer != NULL);
	inner = reserve(buffer, 8, 1, 0x02);	/* a probe firing inside */
	ASSERT_TRUE(inner != NULL);
	ASSERT_EQ(0, ring_buffer_unlock_commit(buffer, inner));
	ASSERT_EQ(0, write_event(buffer, 8, 1, 0x03));
	EXPECT_TRUE(ring_buffer_consume(buffer, test_cpu, &ts, NULL) == NULL);
	EXPECT_TRUE(ring_buffer_peek(buffer, test_cpu, &ts, NULL) == NULL);
	EXPECT_EQ(2, ring_buffer_entries_cpu(buffer, test_cpu));
	ASSERT_EQ(0, ring_buffer_unlock_commit(buffer, outer));
	for (int i = 1; i <= 3; i++) {
		event = ring_buffer_peek(buffer, test_cpu, &ts, NULL);
		ASSERT_TRUE(event != NULL);
		EXPECT_EQ(i, *(unsigned char *)ring_buffer_event_data(event));
		EXPECT_EQ(T0 + i, ts);
		event = ring_buffer_consume(buffer, test_cpu, &ts, NULL);
		ASSERT_TRUE(event != NULL);
		EXPECT_EQ(i, *(unsigned char *)ring_buffer_event_data(event));
	}
	EXPECT_EQ(-EINVAL, ring_buffer_unlock_commit(buffer, (void *)&ts));
	ring_buffer_free(buffer);
}

/*
 * A reservation left open while the ring goes all the way round: the page
 * it is on cannot be reused, and the events that need it are dropped as
 * commit overruns, until it is committed.
 */
static void test_commit_overrun(void)
{
	struct trace_buffer *buffer = new_buffer(2, RB_FL_OVERWRITE);
	struct ring_buffer_event *held;

	ASSERT_TRUE(buffer != NULL);
	held = reserve(buffer, EV28, 10, 0);
	ASSERT_TRUE(held != NULL);
	ASSERT_EQ(0, write_indexed(buffer, 1, 2 * PER_PAGE28 - 1));
	errno = 0;
	EXPECT_TRUE(ring_buffer_lock_reserve(buffer, EV28) == NULL);
	EXPECT_EQ(ENOBUFS, errno);
	EXPECT_TRUE(ring_buffer_lock_reserve(buffer, EV28) == NULL);
	EXPECT_EQ(2, ring_buffer_commit_overrun_cpu(buffer, test_cpu));
	EXPECT_EQ(0, ring_buffer_overrun_cpu(buffer, test_cpu));
	ASSERT_EQ(0, ring_buffer_unlock_commit(buffer, held));
	ASSERT_EQ(0, write_indexed(buffer, 2 * PER_PAGE28, 1));
	EXPECT_EQ(PER_PAGE28, ring_buffer_overrun_cpu(buffer, test_cpu));
	EXPECT_EQ(PER_PAGE28 + 1, ring_buffer_entries_cpu(buffer, test_cpu));
	ring_buffer_free(buffer);
}

/* Committing from another CPU than the one the event was reserved on. */
static void test_commit_elsewhere(void)
{
	int *cpus = all_cpus;
	struct trace_buffer *buffer;
	struct ring_buffer_event *event;
	uint64_t ts;

	if (nr_all_cpus < 2)
		SKIP("one CPU allowed");
	buffer = new_buffer(4, 0);
	ASSERT_TRUE(buffer != NULL);
	ASSERT_EQ(0, rb_test_pin(cpus[0]));
	event = reserve(buffer, 8, 1, 0x5a);
	ASSERT_TRUE(event != NULL);
	ASSERT_EQ(0, rb_test_pin(cpus[1]));
	ASSERT_EQ(0, ring_buffer_unlock_commit(buffer, event));
	ASSERT_EQ(0, rb_test_pin(test_cpu));
	EXPECT_EQ(1, ring_buffer_entries_cpu(buffer, cpus[0]));
	EXPECT_EQ(0, ring_buffer_entries_cpu(buffer, cpus[1]));
	event = ring_buffer_consume(buffer, cpus[0], &ts, NULL);
	ASSERT_TRUE(event != NULL);
	EXPECT_EQ(0x5a, *(unsigned char *)ring_buffer_event_data(event));
	ring_buffer_free(buffer);
}

/* Partial reads into short pages keep time stamps and the missed count. */
static void test_read_page_partial(void)
{
	struct trace_buffer *buffer = new_buffer(2, RB_FL_OVERWRITE);
	struct rb_test_page *p = malloc(sizeof(*p));
	unsigned int next = 3 * PER_PAGE28;
	void *page;
	int pages = 0;

	ASSERT_TRUE(buffer != NULL && p != NULL);
	ASSERT_EQ(0, write_indexed(buffer, 0, 4 * PER_PAGE28 + 7));
	page = ring_buffer_alloc_read_page(buffer, test_cpu);
	ASSERT_TRUE(page != NULL);
	/* One event first, by consume, then pages of at most 100 bytes. */
	ASSERT_TRUE(ring_buffer_consume(buffer, test_cpu, NULL, NULL) != NULL);
	next++;
	EXPECT_EQ(-ENOSPC, ring_buffer_read_page(buffer, &page, RB_PAGE_HDR_SIZE + 20,
						 test_cpu, 0));
	EXPECT_EQ(-EINVAL, ring_buffer_read_page(buffer, &page, RB_PAGE_HDR_SIZE, test_cpu, 0));
	while (!ring_buffer_read_page(buffer, &page, RB_PAGE_HDR_SIZE + 100, test_cpu, 0)) {
		rb_test_decode(page, p);
		ASSERT_FALSE(p->malformed);
		ASSERT_EQ(3, p->nr);
		EXPECT_EQ(0, p->missed);
		for (unsigned int i = 0; i < p->nr; i++) {
			unsigned int idx;

			memcpy(&idx, p->ev[i].data, 4);
			ASSERT_EQ(next, idx);
			ASSERT_EQ(T0 + 10 * (next + 1), p->ev[i].ts);
			next++;
		}
		pages++;
		if (next >= 4 * PER_PAGE28 - 1)
			break;
	}
	EXPECT_EQ(48, pages);
	ring_buffer_free_read_page(buffer, test_cpu, page);
	free(p);
	ring_buffer_free(buffer);
}

/* The iterator walks what a reader would read, and says when it lost some. */
static void test_iterator(void)
{
	struct trace_buffer *buffer = new_buffer(3, RB_FL_OVERWRITE);
	struct ring_buffer_iter *iter;
	struct ring_buffer_event *event;
	unsigned int n = 2 * PER_PAGE28 + 50, seen = 0;
	uint64_t ts;

	ASSERT_TRUE(buffer != NULL);
	ASSERT_EQ(0, write_indexed(buffer, 0, n));
	ASSERT_TRUE(ring_buffer_consume(buffer, test_cpu, NULL, NULL) != NULL);
	iter = ring_buffer_read_start(buffer, test_cpu);
	ASSERT_TRUE(iter != NULL);
	while ((event = ring_buffer_iter_peek(iter, &ts))) {
		ASSERT_EQ(seen + 1, index_of(event));
		ASSERT_EQ(T0 + 10 * (seen + 2), ts);
		ring_buffer_iter_advance(iter);
		seen++;
	}
	EXPECT_EQ(n - 1, seen);
	EXPECT_FALSE(ring_buffer_iter_dropped(iter));
	EXPECT_TRUE(ring_buffer_iter_empty(iter));
	/* Nothing was consumed. */
	EXPECT_EQ(n - 1, ring_buffer_entries_cpu(buffer, test_cpu));
	EXPECT_EQ(1, ring_buffer_read_events_cpu(buffer, test_cpu));

	/* Events written meanwhile show up at the end. */
	ASSERT_EQ(0, write_indexed(buffer, n, 3));
	for (unsigned int i = 0; i < 3; i++) {
		event = ring_buffer_iter_peek(iter, NULL);
		ASSERT_TRUE(event != NULL);
		EXPECT_EQ(n + i, index_of(event));
		ring_buffer_iter_advance(iter);
	}

	/* From the start again; then the ring is overwritten under it. */
	ring_buffer_iter_reset(iter);
	event = ring_buffer_iter_peek(iter, NULL);
	ASSERT_TRUE(event != NULL);
	EXPECT_EQ(1, index_of(event));
	ring_buffer_iter_advance(iter);
	ASSERT_EQ(0, write_indexed(buffer, n + 3, 4 * PER_PAGE28));
	event = ring_buffer_iter_peek(iter, NULL);
	ASSERT_TRUE(event != NULL);
	EXPECT_EQ(2, index_of(event));	/* still the copy of the reader page */
	while ((event = ring_buffer_iter_peek(iter, NULL)) && index_of(event) < PER_PAGE28)
		ring_buffer_iter_advance(iter);
	ASSERT_TRUE(event != NULL);
	EXPECT_TRUE(ring_buffer_iter_dropped(iter));
	EXPECT_FALSE(ring_buffer_iter_dropped(iter));
	EXPECT_LT(PER_PAGE28 * 3, index_of(event));
	ring_buffer_read_finish(iter);
	ring_buffer_free(buffer);
}

/* Reset empties the buffer and its counters; record_off refuses quietly. */
static void test_reset_and_record(void)
{
	struct trace_buffer *buffer = new_buffer(2, RB_FL_OVERWRITE);
	uint64_t ts;

	ASSERT_TRUE(buffer != NULL);
	ASSERT_EQ(0, write_indexed(buffer, 0, 3 * PER_PAGE28));
	EXPECT_NE(0, ring_buffer_overrun_cpu(buffer, test_cpu));
	ASSERT_TRUE(ring_buffer_consume(buffer, test_cpu, NULL, NULL) != NULL);
	ring_buffer_reset(buffer);
	EXPECT_EQ(0, ring_buffer_entries_cpu(buffer, test_cpu));
	EXPECT_EQ(0, ring_buffer_overrun_cpu(buffer, test_cpu));
	EXPECT_EQ(0, ring_buffer_read_events_cpu(buffer, test_cpu));
	EXPECT_EQ(0, ring_buffer_bytes_cpu(buffer, test_cpu));
	EXPECT_TRUE(ring_buffer_consume(buffer, test_cpu, NULL, NULL) == NULL);

	EXPECT_TRUE(ring_buffer_record_is_on(buffer));
	ring_buffer_record_off(buffer);
	EXPECT_FALSE(ring_buffer_record_is_on(buffer));
	EXPECT_FALSE(ring_buffer_record_is_set_on(buffer));
	errno = 0;
	EXPECT_TRUE(ring_buffer_lock_reserve(buffer, 8) == NULL);
	EXPECT_EQ(EBUSY, errno);
	EXPECT_EQ(-EBUSY, ring_buffer_write(buffer, 4, &ts));
	ring_buffer_record_on(buffer);
	ring_buffer_record_disable(buffer);
	EXPECT_TRUE(ring_buffer_record_is_set_on(buffer));
	EXPECT_FALSE(ring_buffer_record_is_on(buffer));
	EXPECT_TRUE(ring_buffer_lock_reserve(buffer, 8) == NULL);
	ring_buffer_record_enable(buffer);
	ring_buffer_record_disable_cpu(buffer, test_cpu);
	EXPECT_TRUE(ring_buffer_lock_reserve(buffer, 8) == NULL);
	ring_buffer_record_enable_cpu(buffer, test_cpu);
	EXPECT_EQ(0, ring_buffer_dropped_events_cpu(buffer, test_cpu));
	EXPECT_EQ(0, ring_buffer_write(buffer, 4, &ts));
	EXPECT_EQ(1, ring_buffer_entries_cpu(buffer, test_cpu));
	ring_buffer_free(buffer);
}

/* Resizing keeps the newest events; what does not fit counts as overrun. */
static void test_resize_idle(void)
{
	struct trace_buffer *buffer = new_buffer(4, RB_FL_OVERWRITE);
	struct ring_buffer_event *event;
	unsigned int n = 3 * PER_PAGE28 + 10;

	ASSERT_TRUE(buffer != NULL);
	EXPECT_EQ(4, ring_buffer_nr_pages(buffer, test_cpu));
	EXPECT_EQ(4 * RB_PAGE_DATA_SIZE, ring_buffer_size(buffer, test_cpu));
	ASSERT_EQ(0, write_indexed(buffer, 0, n));
	ASSERT_TRUE(ring_buffer_consume(buffer, test_cpu, NULL, NULL) != NULL);

	ASSERT_EQ(0, ring_buffer_resize(buffer, 2 * RB_PAGE_DATA_SIZE, RING_BUFFER_ALL_CPUS));
	EXPECT_EQ(2, ring_buffer_nr_pages(buffer, test_cpu));
	/* The reader page (first page, one event read) stays the reader's. */
	EXPECT_EQ(PER_PAGE28, ring_buffer_overrun_cpu(buffer, test_cpu));
	EXPECT_EQ(PER_PAGE28 - 1 + PER_PAGE28 + 10, ring_buffer_entries_cpu(buffer, test_cpu));
	for (unsigned int i = 1; i < PER_PAGE28; i++) {
		event = ring_buffer_consume(buffer, test_cpu, NULL, NULL);
		ASSERT_TRUE(event != NULL);
		ASSERT_EQ(i, index_of(event));
	}
	for (unsigned int i = 2 * PER_PAGE28; i < n; i++) {
		unsigned long lost;

		event = ring_buffer_consume(buffer, test_cpu, NULL, &lost);
		ASSERT_TRUE(event != NULL);
		ASSERT_EQ(i, index_of(event));
		ASSERT_EQ(i == 2 * PER_PAGE28 ? PER_PAGE28 : 0, lost);
	}
	EXPECT_TRUE(ring_buffer_consume(buffer, test_cpu, NULL, NULL) == NULL);

	/* Growing: six pages now hold six pages of events. */
	ASSERT_EQ(0, ring_buffer_resize(buffer, 6 * RB_PAGE_DATA_SIZE, test_cpu));
	EXPECT_EQ(6, ring_buffer_nr_pages(buffer, test_cpu));
	ASSERT_EQ(0, write_indexed(buffer, 5000, 6 * PER_PAGE28));
	EXPECT_EQ(PER_PAGE28, ring_buffer_overrun_cpu(buffer, test_cpu));
	for (unsigned int i = 5000; i < 5000 + 6 * PER_PAGE28; i++) {
		event = ring_buffer_consume(buffer, test_cpu, NULL, NULL);
		ASSERT_TRUE(event != NULL);
		ASSERT_EQ(i, index_of(event));
	}
	/* Shrinking to the minimum, then the bounds. */
	ASSERT_EQ(0, write_indexed(buffer, 9000, 5 * PER_PAGE28));
	ASSERT_EQ(0, ring_buffer_resize(buffer, 1, test_cpu));
	EXPECT_EQ(2, ring_buffer_nr_pages(buffer, test_cpu));
	EXPECT_EQ(PER_PAGE28 * 4, ring_buffer_overrun_cpu(buffer, test_cpu));
	event = ring_buffer_consume(buffer, test_cpu, NULL, NULL);
	ASSERT_TRUE(event != NULL);
	EXPECT_EQ(9000 + 3 * PER_PAGE28, index_of(event));
	EXPECT_EQ(-EINVAL, ring_buffer_resize(buffer, 1ul << 40, test_cpu));
	EXPECT_EQ(-EINVAL, ring_buffer_resize(buffer, 4096, ring_buffer_nr_cpus(buffer)));
	EXPECT_EQ(0, ring_buffer_dropped_events_cpu(buffer, test_cpu));
	ring_buffer_free(buffer);
}

/* The process's address space, in KiB (VmSize). */
static long vm_size_kb(void)
{
	char line[128];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmSize: %ld", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

/*
 * A buffer takes the address space its pages need, not RB_MAX_PAGES' worth
 * (ring-buffer-design.rst, "Address space"): 2 MiB a CPU for a few pages;
 * a resize past that maps a larger view of the same memory, and the pages
 * added past the first view's end hold events like the others.
 */
static void test_address_space(void)
{
	long before = vm_size_kb(), small, grown, after;
	struct trace_buffer *buffer = new_buffer(4, 0);
	unsigned int n = 2000 * PER_PAGE28;
	struct ring_buffer_event *event;
	long nr;

	ASSERT_TRUE(buffer != NULL);
	nr = ring_buffer_nr_cpus(buffer);
	small = vm_size_kb() - before;
	ASSERT_EQ(0, ring_buffer_resize(buffer, 3000 * RB_PAGE_DATA_SIZE, RING_BUFFER_ALL_CPUS));
	grown = vm_size_kb() - before;
	ksft_print_msg("address space on %ld CPUs: 4 pages a CPU %ld KiB, 3000 pages %ld KiB\n",
		       nr, small, grown);
#ifndef RB_TEST_SANITIZED
	/* The header page and 2 MiB a CPU (1 MiB of it metadata). */
	EXPECT_TRUE(small >= nr * 2048 && small <= nr * 2048 + 512);
	/* 3001 pages: 16 MiB a CPU, and the first view kept for its writers. */
	EXPECT_TRUE(grown >= nr * 16384 && grown <= nr * (16384 + 2048) + 512);
#endif
	/* 2000 pages of events: most on pages past the first view's 256. */
	ASSERT_EQ(0, write_indexed(buffer, 0, n));
	EXPECT_EQ(0, ring_buffer_overrun_cpu(buffer, test_cpu));
	EXPECT_EQ(n, ring_buffer_entries_cpu(buffer, test_cpu));
	for (unsigned int i = 0; i < n; i++) {
		event = ring_buffer_consume(buffer, test_cpu, NULL, NULL);
		ASSERT_TRUE(event != NULL);
		ASSERT_EQ(i, index_of(event));
	}
	EXPECT_TRUE(ring_buffer_consume(buffer, test_cpu, NULL, NULL) == NULL);
	ring_buffer_free(buffer);
	after = vm_size_kb() - before;
#ifndef RB_TEST_SANITIZED
	/* Every view unmapped. */
	EXPECT_TRUE(after <= 512);
#endif
	(void)after;
}

static void test_bad_arguments(void)
{
	struct trace_buffer *buffer = new_buffer(2, 0);
	int cpus = ring_buffer_nr_cpus(buffer);
	void *page;

	ASSERT_TRUE(buffer != NULL);
	EXPECT_EQ(sysconf(_SC_NPROCESSORS_CONF), cpus);
	errno = 0;
	EXPECT_TRUE(ring_buffer_alloc(4096, 2) == NULL);
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_TRUE(ring_buffer_consume(buffer, cpus, NULL, NULL) == NULL);
	EXPECT_EQ(EINVAL, errno);
	EXPECT_TRUE(ring_buffer_peek(buffer, -1, NULL, NULL) == NULL);
	EXPECT_TRUE(ring_buffer_read_start(buffer, cpus) == NULL);
	EXPECT_TRUE(ring_buffer_alloc_read_page(buffer, cpus) == NULL);
	page = ring_buffer_alloc_read_page(buffer, 0);
	ASSERT_TRUE(page != NULL);
	EXPECT_EQ(-EINVAL, ring_buffer_read_page(buffer, &page, RB_PAGE_SIZE, cpus, 0));
	EXPECT_EQ(-EINVAL, ring_buffer_read_page(buffer, NULL, RB_PAGE_SIZE, 0, 0));
	EXPECT_EQ(-EAGAIN, ring_buffer_read_page(buffer, &page, RB_PAGE_SIZE, 0, 0));
	EXPECT_EQ(0, ring_buffer_entries_cpu(buffer, cpus));
	EXPECT_EQ(0, ring_buffer_size(buffer, -1));
	ring_buffer_free_read_page(buffer, 0, page);
	ring_buffer_free(NULL);
	ring_buffer_free(buffer);
}

/* Every clock goes forward; the names are tracefs's. */
static void test_clocks(void)
{
	static const char *const names[] = {
		"local", "global", "counter", "mono", "mono_raw", "boot", "x86-tsc",
	};
	const struct trace_clock *clock;
	unsigned int i;
	uint64_t mono;

	for (i = 0; (clock = trace_clock_get(i)); i++) {
		uint64_t prev = clock->read(), now;

		ASSERT_LT(i, sizeof(names) / sizeof(names[0]));
		EXPECT_STREQ(names[i], clock->name);
		EXPECT_TRUE(trace_clock_find(clock->name) == clock);
		EXPECT_EQ(strcmp(clock->name, "counter") && strcmp(clock->name, "x86-tsc"),
			  clock->in_ns);
		for (int k = 0; k < 1000; k++) {
			now = clock->read();
			ASSERT_LE(prev, now);
			prev = now;
		}
	}
#if defined(__x86_64__)
	EXPECT_EQ(7, i);
#endif
	errno = 0;
	EXPECT_TRUE(trace_clock_find("perf") == NULL);
	EXPECT_EQ(ENOENT, errno);
	EXPECT_TRUE(trace_clock_find(NULL) == NULL);
	/* local is mono at calibration, drifting by parts per million. */
	mono = trace_clock_mono();
	EXPECT_LT(mono - 50000000ull, trace_clock_local());
	EXPECT_LT(trace_clock_local(), mono + 50000000ull);
	{
		uint64_t a = trace_clock_counter();
		uint64_t b = trace_clock_counter();

		EXPECT_EQ(a + 1, b);
	}
}

/* ring_buffer_swap()'s cond, counting its calls. */
static int cond_calls;

static bool cond_no(void *arg)
{
	(void)arg;
	cond_calls++;
	return false;
}

/* Under ring_buffer_call_locked(): a swap that only tries finds it busy. */
static void swap_from_locked(void *arg)
{
	struct trace_buffer **ab = arg;

	cond_calls = ring_buffer_swap(ab[0], ab[1], false, NULL, NULL);
}

/*
 * Two buffers trade their pages: the events, the counters and the clock
 * go with them, an event reserved before the swap is committed where it
 * was reserved, and the kernel's refusals hold.
 */
static void test_swap(void)
{
	struct trace_buffer *a = new_buffer(2, RB_FL_OVERWRITE);
	struct trace_buffer *b = new_buffer(2, 0);
	struct trace_buffer *c = new_buffer(2, 0);
	struct trace_buffer *ab[2] = { a, b };
	struct ring_buffer_event *event, *open;

	ASSERT_TRUE(a && b && c);
	EXPECT_EQ(RB_FL_OVERWRITE, ring_buffer_get_flags(a));
	EXPECT_EQ(0, ring_buffer_get_flags(b));
	EXPECT_EQ(0, ring_buffer_get_flags(NULL));
	EXPECT_TRUE(ring_buffer_get_clock(a) == rb_test_clock);
	EXPECT_TRUE(ring_buffer_get_clock(NULL) == NULL);
	ring_buffer_set_clock(b, trace_clock_counter);
	EXPECT_TRUE(ring_buffer_get_clock(b) == trace_clock_counter);

	ASSERT_EQ(0, write_indexed(a, 0, 3));
	ASSERT_EQ(0, write_indexed(b, 100, 1));
	EXPECT_EQ(-EINVAL, ring_buffer_swap(a, a, true, NULL, NULL));
	EXPECT_EQ(-EINVAL, ring_buffer_swap(NULL, b, true, NULL, NULL));
	cond_calls = 0;
	EXPECT_EQ(-ECANCELED, ring_buffer_swap(a, b, false, cond_no, NULL));
	EXPECT_EQ(1, cond_calls);
	EXPECT_EQ(3, ring_buffer_entries(a));
	ring_buffer_call_locked(a, swap_from_locked, ab);
	EXPECT_EQ(-EBUSY, cond_calls);
	EXPECT_EQ(3, ring_buffer_entries(a));

	/* Reserved in a's pages, committed after they went to b. */
	open = ring_buffer_lock_reserve(a, EV28);
	ASSERT_TRUE(open != NULL);
	memset(ring_buffer_event_data(open), 0, EV28);
	memcpy(ring_buffer_event_data(open), &(unsigned int){ 3 }, sizeof(unsigned int));
	EXPECT_EQ(0, ring_buffer_swap(a, b, false, NULL, NULL));
	EXPECT_EQ(0, ring_buffer_unlock_commit(a, open));
	EXPECT_EQ(1, ring_buffer_entries(a));
	EXPECT_EQ(4, ring_buffer_entries(b));
	EXPECT_TRUE(ring_buffer_get_clock(b) == rb_test_clock);
	EXPECT_TRUE(ring_buffer_get_clock(a) == rb_test_clock);
	/* The flags stay with the buffer: a still overwrites. */
	EXPECT_EQ(RB_FL_OVERWRITE, ring_buffer_get_flags(a));
	for (unsigned int i = 0; i < 4; i++) {
		event = ring_buffer_consume(b, test_cpu, NULL, NULL);
		ASSERT_TRUE(event != NULL);
		EXPECT_EQ(i, index_of(event));
	}
	EXPECT_TRUE(ring_buffer_consume(b, test_cpu, NULL, NULL) == NULL);
	event = ring_buffer_consume(a, test_cpu, NULL, NULL);
	ASSERT_TRUE(event != NULL);
	EXPECT_EQ(100, index_of(event));

	/* A second swap trades back: a holds what b had. */
	ASSERT_EQ(0, write_indexed(a, 200, 1));
	EXPECT_EQ(0, ring_buffer_swap(a, b, true, NULL, NULL));
	EXPECT_EQ(0, ring_buffer_entries(a));
	EXPECT_EQ(1, ring_buffer_entries(b));

	/* Paired: not with a third buffer; and not when the sizes differ. */
	EXPECT_EQ(-EINVAL, ring_buffer_swap(a, c, true, NULL, NULL));
	ASSERT_EQ(0, ring_buffer_resize(b, 4 * RB_PAGE_DATA_SIZE, RING_BUFFER_ALL_CPUS));
	EXPECT_EQ(-EINVAL, ring_buffer_swap(a, b, true, NULL, NULL));
	EXPECT_EQ(1, ring_buffer_entries(b));
	ring_buffer_call_locked(NULL, swap_from_locked, ab);
	ring_buffer_free(c);
	ring_buffer_free(b);
	ring_buffer_free(a);
}

int main(void)
{
	ksft_print_header();
	nr_all_cpus = rb_test_cpus(all_cpus, 2);
	if (nr_all_cpus < 1 || rb_test_pin(all_cpus[0]))
		ksft_exit_skip("cannot pin to a CPU\n");
	test_cpu = all_cpus[0];
	ksft_set_plan(19);
	KSFT_RUN(test_header_text);
	KSFT_RUN(test_golden_page);
	KSFT_RUN(test_kbuffer_golden);
	KSFT_RUN(test_event_accessors);
	KSFT_RUN(test_overwrite_missed);
	KSFT_RUN(test_producer_consumer);
	KSFT_RUN(test_too_large);
	KSFT_RUN(test_lost_accounting);
	KSFT_RUN(test_commit_order);
	KSFT_RUN(test_commit_overrun);
	KSFT_RUN(test_commit_elsewhere);
	KSFT_RUN(test_read_page_partial);
	KSFT_RUN(test_iterator);
	KSFT_RUN(test_reset_and_record);
	KSFT_RUN(test_resize_idle);
	KSFT_RUN(test_address_space);
	KSFT_RUN(test_bad_arguments);
	KSFT_RUN(test_clocks);
	KSFT_RUN(test_swap);
	ksft_finished();
}
