// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * conformance-fire - the corpus's events (fire.c) seen from the library.
 *
 *   conformance-fire --formats DIR   each event's format (without its ID
 *                                    line) into DIR/SYSTEM/EVENT
 *   conformance-fire --trace FILE    enable the corpus's systems in the top
 *                                    instance, fire every event, write the
 *                                    instance's trace text into FILE
 *   conformance-fire --serve         fire every event every millisecond until
 *                                    SIGTERM or SIGINT, then exit(0): with
 *                                    USTRACE_TRACEFS=DIR, a tracefs of the
 *                                    kernel's events for ftracetest.sh; as
 *                                    root, sched_process_fork also fires at
 *                                    once for every fork on the machine
 *                                    (the proc connector), as the kernel's
 *                                    does for the test shell's forks
 *
 * With USTRACE_EVENTS and USTRACE_OUTPUT set, the recorder writes the same
 * records into a trace.dat at exit, for trace-cmd report (trace-text.sh).
 */
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pthread.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>

#include <linux/trace.h>
#include <linux/trace_events.h>

void conformance_fire_all(void);
void conformance_fire_fork(void);

static const char *const systems[] = {
	"sched", "irq", "timer", "workqueue", "signal", "task", "kmem", "writeback",
	"block", "net", "sock", "power", "rcu", "alarmtimer", "error_report", "raw_syscalls",
	"tcp", "neigh", "skb", "napi", "qdisc", "oom", "compaction", "vmscan", "filemap",
	"percpu", "migrate", "mmap_lock", "initcall", "printk", "io_uring", "fs_dax", "ipi",
	"thermal_power_allocator", "smbus", "i2c", "osnoise", "iscsi", "spmi", "bpf_test_run",
	"cpuhp", "kyber", "lock", "netlink", "nmi", "page_isolation", "rseq", "thp",
};

static bool corpus_system(const char *system)
{
	for (size_t i = 0; i < sizeof(systems) / sizeof(systems[0]); i++)
		if (!strcmp(systems[i], system))
			return true;
	return false;
}

static const char *formats_dir;
static int nr_failed;

/* DIR/SYSTEM/EVENT: the format without its "ID: N" line. */
static void write_format(struct trace_event_call *call, void *priv)
{
	static char text[65536];
	char path[4096];
	const char *id, *eol;
	FILE *f;
	int len;

	(void)priv;
	if (!corpus_system(call->event_class->system))
		return;
	len = trace_event_format(call, text, sizeof(text));
	if (len < 0 || len >= (int)sizeof(text)) {
		fprintf(stderr, "conformance-fire: no format for %s\n", call->name);
		nr_failed++;
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", formats_dir, call->event_class->system);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%s/%s", formats_dir, call->event_class->system,
		 call->name);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		nr_failed++;
		return;
	}
	id = strstr(text, "\nID: ");
	eol = id ? strchr(id + 1, '\n') : NULL;
	if (eol) {
		fwrite(text, 1, (size_t)(id + 1 - text), f);
		fputs(eol + 1, f);
	} else {
		fputs(text, f);
	}
	if (fclose(f))
		nr_failed++;
}

static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

/*
 * The kernel's tests fork a subshell and expect sched_process_fork of it
 * in the same step (trigger-snapshot.tc: enable, fork, set the trigger,
 * fork, read the snapshot): a 1 ms tick misses that half the time.  The
 * proc connector tells of every fork on the machine as it happens; each
 * fires the event.  Without it (not root, no CONFIG_PROC_EVENTS) the
 * tick alone.
 */
static int fork_listen(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = CN_IDX_PROC,
				  .nl_pid = 0 };
	struct {
		struct nlmsghdr nl;
		struct cn_msg cn;
		enum proc_cn_mcast_op op;
	} __attribute__((__packed__)) req = {
		.nl = { .nlmsg_len = sizeof(req), .nlmsg_type = NLMSG_DONE },
		.cn = { .id = { CN_IDX_PROC, CN_VAL_PROC }, .len = sizeof(req.op) },
		.op = PROC_CN_MCAST_LISTEN,
	};
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_CONNECTOR);

	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    send(fd, &req, sizeof(req), 0) != (ssize_t)sizeof(req)) {
		close(fd);
		return -1;
	}
	return fd;
}

static void *fork_watch(void *arg)
{
	int fd = (int)(long)arg;
	char buf[4096] __attribute__((__aligned__(8)));

	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *nl = (struct nlmsghdr *)buf;

		if (n <= 0)
			continue;
		for (; NLMSG_OK(nl, (size_t)n); nl = NLMSG_NEXT(nl, n)) {
			const char *data = (const char *)NLMSG_DATA(nl) + sizeof(struct cn_msg);
			uint32_t what;

			/* The event is not 8-byte aligned in the message: copied out. */
			if (nl->nlmsg_len < NLMSG_LENGTH(sizeof(struct cn_msg) + sizeof(what)))
				continue;
			memcpy(&what, data + offsetof(struct proc_event, what), sizeof(what));
			if (what == PROC_EVENT_FORK)
				conformance_fire_fork();
		}
	}
	return NULL;
}

static int serve(void)
{
	struct sigaction sa = { .sa_handler = on_stop };
	const struct timespec tick = { 0, 1000 * 1000 };
	int fd = fork_listen();
	pthread_t t;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	if (fd >= 0 && pthread_create(&t, NULL, fork_watch, (void *)(long)fd))
		close(fd);
	while (!stop) {
		conformance_fire_all();
		nanosleep(&tick, NULL);
	}
	exit(0);
}

int main(int argc, char **argv)
{
	FILE *out;

	if (argc == 2 && !strcmp(argv[1], "--serve"))
		return serve();

	if (argc == 3 && !strcmp(argv[1], "--formats")) {
		formats_dir = argv[2];
		mkdir(formats_dir, 0755);
		trace_for_each_event_call(write_format, NULL);
		return nr_failed ? 1 : 0;
	}
	if (argc != 3 || strcmp(argv[1], "--trace")) {
		fprintf(stderr, "usage: %s --formats DIR | --trace FILE | --serve\n", argv[0]);
		return 2;
	}
	for (size_t i = 0; i < sizeof(systems) / sizeof(systems[0]); i++)
		if (trace_set_clr_event(systems[i], NULL, 1)) {
			fprintf(stderr, "conformance-fire: cannot enable %s\n", systems[i]);
			return 1;
		}
	conformance_fire_all();
	out = fopen(argv[2], "w");
	if (!out) {
		perror(argv[2]);
		return 1;
	}
	trace_print_file(out, trace_get_global_buffer());
	return fclose(out) ? 1 : 0;
}
