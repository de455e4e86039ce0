// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Every event of the corpus (linux-6.1/trace/events/, defined by
 * define-*.c), fired once or twice with kernel-like objects: a kernel
 * file, in that it sees kstubs.h and no libc headers but <string.h>
 * (main.c does the rest).
 */
#include "kstubs.h"

#include <trace/events/sched.h>
#include <trace/events/irq.h>
#include <trace/events/timer.h>
#include <trace/events/workqueue.h>
#include <trace/events/signal.h>
#include <trace/events/task.h>
#include <trace/events/kmem.h>
#include <trace/events/writeback.h>
#include <trace/events/block.h>
#include <trace/events/net.h>
#include <trace/events/sock.h>
#include <trace/events/power.h>
#include <trace/events/rcu.h>
#include <trace/events/alarmtimer.h>
#include <trace/events/error_report.h>
#include <trace/events/syscalls.h>
#include <trace/events/tcp.h>
#include <trace/events/neigh.h>
#include <trace/events/skb.h>
#include <trace/events/napi.h>
#include <trace/events/qdisc.h>
#include <trace/events/oom.h>
#include <trace/events/compaction.h>
#include <trace/events/vmscan.h>
#include <trace/events/filemap.h>
#include <trace/events/percpu.h>
#include <trace/events/migrate.h>
#include <trace/events/mmap_lock.h>
#include <trace/events/initcall.h>
#include <trace/events/printk.h>
#include <trace/events/io_uring.h>
#include <trace/events/fs_dax.h>
#include <trace/events/ipi.h>
#include <trace/events/thermal_power_allocator.h>
#include <trace/events/smbus.h>
#include <trace/events/i2c.h>
#include <trace/events/osnoise.h>
#include <trace/events/iscsi.h>
#include <trace/events/spmi.h>
#include <trace/events/bpf_test_run.h>
#include <trace/events/cpuhp.h>
#include <trace/events/kyber.h>
#include <trace/events/lock.h>
#include <trace/events/netlink.h>
#include <trace/events/nmi.h>
#include <trace/events/page_isolation.h>
#include <trace/events/rseq.h>
#include <trace/events/thp.h>

/* What kstubs.h declares. */
unsigned long volatile jiffies = 4295012345ul;
/*
 * The pages the kmem events get, where pfn_to_page() finds them: pointer
 * arithmetic stays inside the array (UBSan's pointer-overflow check).
 */
static struct page conformance_pages[0x12346];
struct page *vmemmap_base = conformance_pages;
struct wb_domain global_wb_domain = { .dirty_limit = 123456 };
unsigned long conformance_node_stat[NR_VM_NODE_STAT_ITEMS] = { 11, 22, 33, 44 };

static struct signal_struct sig = { .oom_score_adj = -100 };
static struct mm_struct mm;
static struct task_struct task_a = {
	.__state = TASK_INTERRUPTIBLE, .prio = 120, .normal_prio = 120, .pid = 4242,
	.tgid = 4240, .cpu = 1, .numa_group_id = 7, .comm = "worker", .signal = &sig,
	.mm = &mm, .nr_dirtied_pause = 32, .dirty_paused_when = 4295012000ul,
};
static struct task_struct task_b = {
	.__state = TASK_RUNNING, .prio = 100, .normal_prio = 100, .pid = 17, .tgid = 17,
	.cpu = 0, .comm = "kworker/0:1", .signal = &sig,
};
struct task_struct *conformance_current = &task_a;

/* Functions the records point at: %ps and %pS print their names. */
__attribute__((__noinline__)) void conformance_timer_fn(struct timer_list *t)
{
	(void)t;
}

__attribute__((__noinline__)) int conformance_hrtimer_fn(struct hrtimer *t)
{
	return t != NULL;
}

__attribute__((__noinline__)) void conformance_work_fn(struct work_struct *w)
{
	(void)w;
}

__attribute__((__noinline__)) void conformance_kwork_fn(struct kthread_work *w)
{
	(void)w;
}

__attribute__((__noinline__)) void conformance_rcu_fn(struct rcu_head *h)
{
	(void)h;
}

__attribute__((__noinline__)) int conformance_initcall_fn(void)
{
	return 0;
}

__attribute__((__noinline__)) unsigned long
conformance_scan_objects(struct shrinker *shr, struct shrink_control *sc)
{
	return shr != NULL && sc != NULL;
}

unsigned int nr_cpu_ids = 40;

/* drivers/i2c/i2c-core-base.c's: TRACE_EVENT_FN()'s callbacks. */
int i2c_transfer_trace_reg(void)
{
	return 0;
}

void i2c_transfer_trace_unreg(void)
{
}

/* drivers/scsi/scsi_transport_iscsi.c's */
void iscsi_dbg_trace(void (*trace)(struct device *dev, struct va_format *),
		     struct device *dev, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	trace(dev, &vaf);
	va_end(args);
}

/* mm/mmap_lock.c's: TRACE_EVENT_FN()'s callbacks. */
int trace_mmap_lock_reg(void)
{
	return 0;
}

void trace_mmap_lock_unreg(void)
{
}

static void fire_sched(void)
{
	static struct kthread_worker worker;
	static struct kthread_work kwork = { .func = conformance_kwork_fn };
	static struct pid pid = { .nr = 4242 };
	static struct linux_binprm bprm = { .filename = "/usr/bin/true" };

	trace_sched_kthread_stop(&task_b);
	trace_sched_kthread_stop_ret(-4);
	trace_sched_kthread_work_queue_work(&worker, &kwork);
	trace_sched_kthread_work_execute_start(&kwork);
	trace_sched_kthread_work_execute_end(&kwork, conformance_kwork_fn);
	trace_sched_waking(&task_a);
	trace_sched_wakeup(&task_a);
	trace_sched_wakeup_new(&task_b);
	trace_sched_switch(false, &task_a, &task_b, TASK_INTERRUPTIBLE);
	trace_sched_switch(true, &task_b, &task_a, TASK_RUNNING);
	trace_sched_switch(false, &task_a, &task_b, TASK_UNINTERRUPTIBLE);
	trace_sched_migrate_task(&task_a, 0);
	trace_sched_process_free(&task_b);
	trace_sched_process_exit(&task_a);
	trace_sched_wait_task(&task_a);
	trace_sched_process_wait(&pid);
	trace_sched_process_fork(&task_a, &task_b);
	trace_sched_process_exec(&task_a, 4241, &bprm);
	trace_sched_stat_wait(&task_a, 1000);
	trace_sched_stat_sleep(&task_a, 2000);
	trace_sched_stat_iowait(&task_a, 3000);
	trace_sched_stat_blocked(&task_a, 4000);
	trace_sched_stat_runtime(&task_a, 123456, 7890123);
	trace_sched_pi_setprio(&task_a, &task_b);
	trace_sched_pi_setprio(&task_a, NULL);
	trace_sched_process_hang(&task_b);
	trace_sched_move_numa(&task_a, 0, 1);
	trace_sched_stick_numa(&task_a, 0, &task_b, 1);
	trace_sched_swap_numa(&task_a, 1, NULL, -1);
	trace_sched_wake_idle_without_ipi(1);
}

static void fire_irq(void)
{
	static struct irqaction action = { .name = "eth0-rx" };
	static struct tasklet_struct tasklet;

	trace_irq_handler_entry(24, &action);
	trace_irq_handler_exit(24, &action, 1);
	trace_irq_handler_exit(25, &action, 0);
	trace_softirq_entry(NET_RX_SOFTIRQ);
	trace_softirq_exit(TIMER_SOFTIRQ);
	trace_softirq_raise(RCU_SOFTIRQ);
	trace_softirq_raise(12);
	trace_tasklet_entry(&tasklet, (void *)conformance_work_fn);
	trace_tasklet_exit(&tasklet, (void *)conformance_work_fn);
}

static void fire_timer(void)
{
	static struct timer_list timer = { .function = conformance_timer_fn };
	static struct hrtimer hrtimer = { .node = { .expires = 5000000000ll },
					  ._softexpires = 4999000000ll,
					  .function = conformance_hrtimer_fn };
	static const struct itimerspec64 its = { .it_interval = { 1, 500000 },
						 .it_value = { 2, 250000 } };
	static struct pid pid = { .nr = 4242 };
	ktime_t now = 5000001234ll;

	trace_timer_init(&timer);
	trace_timer_start(&timer, jiffies + 100, 1 | TIMER_DEFERRABLE | TIMER_PINNED);
	trace_timer_expire_entry(&timer, jiffies);
	trace_timer_expire_exit(&timer);
	trace_timer_cancel(&timer);
	trace_hrtimer_init(&hrtimer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_PINNED_HARD);
	trace_hrtimer_start(&hrtimer, HRTIMER_MODE_REL, true);
	trace_hrtimer_expire_entry(&hrtimer, &now);
	trace_hrtimer_expire_exit(&hrtimer);
	trace_hrtimer_cancel(&hrtimer);
	trace_itimer_state(1, &its, 12345678ull);
	trace_itimer_expire(0, &pid, 987654321ull);
	trace_tick_stop(0, TICK_DEP_MASK_SCHED);
	trace_tick_stop(1, TICK_DEP_MASK_NONE);
}

static void fire_workqueue(void)
{
	static struct workqueue_struct wq = { .name = "events_unbound" };
	static struct worker_pool pool = { .cpu = 1 };
	static struct pool_workqueue pwq = { .pool = &pool, .wq = &wq };
	static struct work_struct work = { .func = conformance_work_fn };

	trace_workqueue_queue_work(1, &pwq, &work);
	trace_workqueue_activate_work(&work);
	trace_workqueue_execute_start(&work);
	trace_workqueue_execute_end(&work, conformance_work_fn);
}

static void fire_signal(void)
{
	static struct kernel_siginfo info = { .si_signo = 10, .si_errno = 0, .si_code = -6 };
	static struct k_sigaction ka = { .sa = { .sa_handler = (void (*)(int))0x401136,
						 .sa_flags = 0x4000000 } };

	trace_signal_generate(10, &info, &task_a, 0, 0);
	trace_signal_generate(9, SEND_SIG_PRIV, &task_b, 1, 2);
	trace_signal_deliver(10, &info, &ka);
	trace_signal_deliver(15, SEND_SIG_NOINFO, &ka);
}

static void fire_task(void)
{
	trace_task_newtask(&task_b, 0x3d0f00);
	trace_task_rename(&task_a, "renamed-thread");
}

static void fire_kmem(void)
{
	static struct kmem_cache cache = { .object_size = 192, .size = 256,
					   .flags = SLAB_ACCOUNT, .name = "kmalloc-256" };
	struct page *pg = vmemmap + 0x12345;
	unsigned long site = (unsigned long)fire_kmem + 16;

	trace_kmem_cache_alloc(site, (void *)0xffff888012345678ul, &cache, GFP_KERNEL, 0);
	trace_kmalloc(site, (void *)0xffff888012340000ul, 100, 128,
		      GFP_KERNEL | __GFP_ACCOUNT | __GFP_ZERO, -1);
	trace_kmalloc(site, (void *)0xffff888012340000ul, 8, 8, 0, 1);
	trace_kfree(site, (void *)0xffff888012340000ul);
	trace_kmem_cache_free(site, (void *)0xffff888012345678ul, &cache);
	trace_mm_page_free(pg, 2);
	trace_mm_page_free_batched(pg);
	trace_mm_page_alloc(pg, 0, GFP_HIGHUSER_MOVABLE, MIGRATE_MOVABLE);
	trace_mm_page_alloc(NULL, 3, GFP_ATOMIC | __GFP_NOWARN, MIGRATE_UNMOVABLE);
	trace_mm_page_alloc_zone_locked(pg, 1, MIGRATE_MOVABLE, 1);
	trace_mm_page_pcpu_drain(pg, 0, MIGRATE_RECLAIMABLE);
	/* get_pageblock_migratetype(): the stub reads the page's flags. */
	pg->flags = MIGRATE_MOVABLE;
	trace_mm_page_alloc_extfrag(pg, 0, 3, MIGRATE_MOVABLE, MIGRATE_UNMOVABLE);
	trace_rss_stat(&mm, MM_ANONPAGES, 25);
}

static void fire_writeback(void)
{
	static struct backing_dev_info bdi = { .id = 3, .dev_name = "8:0" };
	static struct kernfs_node kn = { .id = 1234 };
	static struct cgroup cgrp = { .kn = &kn };
	static struct cgroup_subsys_state css = { .cgroup = &cgrp, .id = 5 };
	static struct bdi_writeback wb = { .bdi = &bdi, .memcg_css = &css,
					   .write_bandwidth = 25600, .avg_write_bandwidth = 25000,
					   .dirty_ratelimit = 2560, .balanced_dirty_ratelimit = 2500 };
	static struct super_block sb = { .s_dev = MKDEV(8, 1) };
	static struct inode inode;
	static struct address_space mapping = { .host = &inode, .writeback_index = 77 };
	static struct mem_cgroup memcg = { .css = { .cgroup = &cgrp, .id = 9 } };
	static struct folio folio = { .index = 42, .mapping = &mapping, .memcg = &memcg };
	static struct writeback_control wbc = {
		.nr_to_write = 1024, .pages_skipped = 3, .range_start = 0, .range_end = 4096,
		.sync_mode = WB_SYNC_ALL, .for_kupdate = 1, .range_cyclic = 1, .wb = &wb,
	};
	static struct wb_writeback_work work = {
		.nr_pages = 512, .sb = &sb, .sync_mode = WB_SYNC_NONE, .for_background = 1,
		.range_cyclic = 1, .reason = WB_REASON_PERIODIC,
	};

	inode = (struct inode){ .i_mode = 0100644, .i_ino = 131074,
				.i_state = I_DIRTY_SYNC | I_DIRTY_PAGES | I_SYNC,
				.dirtied_when = 4295010000ul, .i_sb = &sb, .i_mapping = &mapping,
				.bdi = &bdi, .i_wb = &wb };
	trace_writeback_dirty_folio(&folio, &mapping);
	trace_folio_wait_writeback(&folio, NULL);
	trace_writeback_mark_inode_dirty(&inode, I_DIRTY_PAGES);
	trace_writeback_dirty_inode_start(&inode, I_DIRTY_SYNC);
	trace_writeback_dirty_inode(&inode, I_DIRTY_SYNC | I_DIRTY_TIME);
	trace_inode_foreign_history(&inode, &wbc, 0x5);
	trace_inode_switch_wbs(&inode, &wb, &wb);
	trace_track_foreign_dirty(&folio, &wb);
	trace_flush_foreign(&wb, 2, 3);
	trace_writeback_write_inode_start(&inode, &wbc);
	trace_writeback_write_inode(&inode, &wbc);
	trace_writeback_queue(&wb, &work);
	trace_writeback_exec(&wb, &work);
	trace_writeback_start(&wb, &work);
	trace_writeback_written(&wb, &work);
	trace_writeback_wait(&wb, &work);
	trace_writeback_pages_written(96);
	trace_writeback_wake_background(&wb);
	trace_writeback_bdi_register(&bdi);
	trace_wbc_writepage(&wbc, &bdi);
	trace_writeback_queue_io(&wb, &work, jiffies - 500, 4);
	trace_global_dirty_state(1000, 2000);
	trace_bdi_dirty_ratelimit(&wb, 5120, 2048);
	trace_balance_dirty_pages(&wb, 4000, 2000, 3000, 400, 300, 2560, 2048, 64, 40, 20,
				  jiffies - 30);
	trace_writeback_sb_inodes_requeue(&inode);
	trace_writeback_single_inode_start(&inode, &wbc, 2048);
	trace_writeback_single_inode(&inode, &wbc, 2048);
	trace_writeback_lazytime(&inode);
	trace_writeback_lazytime_iput(&inode);
	trace_writeback_dirty_inode_enqueue(&inode);
	trace_sb_mark_inode_writeback(&inode);
	trace_sb_clear_inode_writeback(&inode);
}

static void fire_block(void)
{
	static struct block_device bdev = { .bd_dev = MKDEV(8, 0) };
	static struct buffer_head bh = { .b_blocknr = 1234567, .b_size = 4096, .b_bdev = &bdev };
	static struct gendisk disk = { .devt = MKDEV(8, 0) };
	static struct request_queue q = { .disk = &disk };
	static struct bio bio2 = { .bi_bdev = &bdev, .bi_opf = REQ_OP_WRITE,
				   .bi_iter = { .bi_sector = 2056, .bi_size = 4096 } };
	static struct bio bio = { .bi_next = &bio2, .bi_bdev = &bdev,
				  .bi_opf = REQ_OP_WRITE | REQ_SYNC | REQ_FUA,
				  .bi_iter = { .bi_sector = 2048, .bi_size = 8192 } };
	static struct request rq = { .q = &q, .cmd_flags = REQ_OP_READ | REQ_META,
				     .__sector = 4096, .__data_len = 16384, .bio = &bio };

	trace_block_touch_buffer(&bh);
	trace_block_dirty_buffer(&bh);
	trace_block_rq_requeue(&rq);
	trace_block_rq_complete(&rq, 0, 16384);
	trace_block_rq_error(&rq, 10, 4096);
	trace_block_rq_insert(&rq);
	trace_block_rq_issue(&rq);
	trace_block_rq_merge(&rq);
	trace_block_bio_complete(&q, &bio);
	trace_block_bio_bounce(&bio);
	trace_block_bio_backmerge(&bio);
	trace_block_bio_frontmerge(&bio);
	trace_block_bio_queue(&bio);
	trace_block_getrq(&bio);
	trace_block_plug(&q);
	trace_block_unplug(&q, 3, true);
	trace_block_split(&bio, 2052);
	trace_block_bio_remap(&bio, MKDEV(8, 1), 1000);
	trace_block_rq_remap(&rq, MKDEV(8, 2), 2000);
}

static void fire_net(void)
{
	static unsigned char head[256];
	static struct net_device dev = { .name = "eth0", .drivername = "virtio_net" };
	static struct sk_buff skb = {
		.dev = &dev, .len = 1514, .data_len = 0, .queue_mapping = 2, .ip_summed = 3,
		.l4_hash = 1, .vlan_proto = 0, .protocol = 0x0008, .transport_header = 48,
		.network_header = 28, .mac_header = 14, .hash = 0xdeadbeef, .napi_id = 8193,
		.truesize = 2304, .head = head, .data = head + 14,
		.shinfo = { .tx_flags = 0, .nr_frags = 1, .gso_size = 1448, .gso_segs = 2,
			    .gso_type = 0x1 },
	};

	trace_net_dev_start_xmit(&skb, &dev);
	trace_net_dev_xmit(&skb, 0, &dev, 1514);
	trace_net_dev_xmit_timeout(&dev, 1);
	trace_net_dev_queue(&skb);
	trace_netif_receive_skb(&skb);
	trace_netif_rx(&skb);
	trace_napi_gro_frags_entry(&skb);
	trace_napi_gro_receive_entry(&skb);
	trace_netif_receive_skb_entry(&skb);
	trace_netif_receive_skb_list_entry(&skb);
	trace_netif_rx_entry(&skb);
	trace_napi_gro_frags_exit(0);
	trace_napi_gro_receive_exit(1);
	trace_netif_receive_skb_exit(0);
	trace_netif_rx_exit(0);
	trace_netif_receive_skb_list_exit(0);
}

static void fire_sock(void)
{
	static struct proto prot = { .name = "TCP", .sysctl_mem = { 9000, 12000, 18000 },
				     .sysctl_rmem = { 4096, 131072, 6291456 },
				     .sysctl_wmem = { 4096, 16384, 4194304 } };
	static struct inet_sock inet4 = {
		.sk = { .sk_family = AF_INET, .sk_protocol = IPPROTO_TCP, .sk_state = TCP_SYN_SENT,
			.sk_err = 111, .sk_rcvbuf = 131072, .sk_rmem_alloc = { 4096 },
			.sk_wmem_alloc = { { 1 } }, .sk_wmem_queued = 0, .sk_prot = &prot },
		.inet_saddr = 0x0100007f, .inet_daddr = 0x0100007f,
		.inet_sport = 0x3930, .inet_dport = 0x5000,
	};
	static struct inet_sock inet6 = {
		.sk = { .sk_family = AF_INET6, .sk_protocol = IPPROTO_TCP,
			.sk_v6_daddr = { .in6_u = { .u6_addr8 = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 } } },
			.sk_v6_rcv_saddr = { .in6_u = { .u6_addr8 = { 0xfe, 0x80, [15] = 2 } } } },
		.inet_sport = 0xbb01, .inet_dport = 0x1f90,
	};
	static struct sk_buff skb = { .truesize = 768 };

	trace_sock_rcvqueue_full(&inet4.sk, &skb);
	trace_sock_exceed_buf_limit(&inet4.sk, &prot, 19000, SK_MEM_SEND);
	trace_inet_sock_set_state(&inet4.sk, TCP_CLOSE, TCP_SYN_SENT);
	trace_inet_sock_set_state(&inet6.sk, TCP_SYN_SENT, TCP_ESTABLISHED);
	trace_inet_sk_error_report(&inet4.sk);
}

static void fire_power(void)
{
	static struct cpufreq_policy policy = { .cpu = 1, .min = 800000, .max = 3500000 };
	static struct device parent = { .init_name = "pci0000:00" };
	static struct device dev = { .init_name = "0000:00:1f.2", .driver_name = "ahci",
				     .parent = &parent };

	trace_cpu_idle(1, 0);
	trace_cpu_idle(PWR_EVENT_EXIT, 1);
	trace_cpu_idle_miss(0, 2, true);
	trace_powernv_throttle(0, "Power Cap", 3000);
	trace_pstate_sample(50, 60, 20, 30, 1000000, 900000, 1100000, 2400000, 10);
	trace_cpu_frequency(2400000, 1);
	trace_cpu_frequency_limits(&policy);
	trace_device_pm_callback_start(&dev, "bus", PM_EVENT_SUSPEND);
	trace_device_pm_callback_end(&dev, 0);
	trace_suspend_resume(TPS("dpm_prepare"), 2, true);
	trace_wakeup_source_activate("alarmtimer", 1);
	trace_wakeup_source_deactivate("alarmtimer", 0);
	trace_clock_enable("uart_clk", 1, 0);
	trace_clock_disable("uart_clk", 0, 0);
	trace_clock_set_rate("cpu_clk", 1200000000, 1);
	trace_power_domain_target("vdd", 2, 0);
	trace_pm_qos_add_request(20);
	trace_pm_qos_update_request(10);
	trace_pm_qos_remove_request(-1);
	trace_pm_qos_update_target(PM_QOS_UPDATE_REQ, 20, 10);
	trace_pm_qos_update_flags(PM_QOS_ADD_REQ, 0x0, 0x3);
	trace_dev_pm_qos_add_request("0000:00:1f.2", DEV_PM_QOS_RESUME_LATENCY, 100);
	trace_dev_pm_qos_update_request("0000:00:1f.2", DEV_PM_QOS_FLAGS, 1);
	trace_dev_pm_qos_remove_request("0000:00:1f.2", DEV_PM_QOS_RESUME_LATENCY, 0);
	trace_guest_halt_poll_ns_grow(20000, 10000);
	trace_guest_halt_poll_ns_shrink(5000, 10000);
}

/* As kernel/rcu/ passes them: TPS() strings, and the flavour's name. */
static void fire_rcu(void)
{
	static struct rcu_head head = { .func = conformance_rcu_fn };
	static struct rcu_segcblist rs = { .seglen = { 1, 2, 3, 4 },
					   .gp_seq = { 100, 104, 108, 112 } };
	static void *bulk[3];
	const char *rcu = TPS("rcu_sched");

	trace_rcu_utilization(TPS("Start scheduler-tick"));
	trace_rcu_grace_period(rcu, 1234, TPS("start"));
	trace_rcu_future_grace_period(rcu, 1234, 1236, 1, 0, 15, TPS("Startleaf"));
	trace_rcu_grace_period_init(rcu, 1234, 0, 0, 15, 0x3);
	trace_rcu_exp_grace_period(rcu, 88, TPS("start"));
	trace_rcu_exp_funnel_lock(rcu, 1, 0, 7, TPS("acq"));
	trace_rcu_nocb_wake(rcu, 1, TPS("WakeEmpty"));
	trace_rcu_preempt_task(TPS("rcu_preempt"), 4242, 1234);
	trace_rcu_unlock_preempted_task(TPS("rcu_preempt"), 1234, 4242);
	trace_rcu_quiescent_state_report(rcu, 1234, 0x1, 0x2, 0, 0, 15, 0);
	trace_rcu_fqs(rcu, 1234, 1, TPS("dti"));
	trace_rcu_stall_warning(rcu, TPS("StallDetected"));
	trace_rcu_dyntick(TPS("Start"), 1, 0, 0x4);
	trace_rcu_callback(rcu, &head, 7);
	trace_rcu_segcb_stats(&rs, TPS("SegCbDequeued"));
	trace_rcu_kvfree_callback(rcu, &head, 16, 8);
	trace_rcu_batch_start(rcu, 8, 10);
	trace_rcu_invoke_callback(rcu, &head);
	trace_rcu_invoke_kvfree_callback(rcu, &head, 16);
	trace_rcu_invoke_kfree_bulk_callback(rcu, 3, bulk);
	trace_rcu_batch_end(rcu, 8, '.', 'S', 'I', '.');
	trace_rcu_torture_read(TPS("rcu"), &head, 1, 2, 3);
	trace_rcu_barrier(rcu, TPS("Begin"), -1, 0, 5);
}

static void fire_alarmtimer(void)
{
	static struct alarm alarm = { .node = { .expires = 7000000000ll }, .type = ALARM_BOOTTIME };

	trace_alarmtimer_suspend(7000000000ll, ALARM_REALTIME);
	trace_alarmtimer_fired(&alarm, 7000000123ll);
	trace_alarmtimer_start(&alarm, 6000000000ll);
	trace_alarmtimer_cancel(&alarm, 6500000000ll);
}

static void fire_error_report(void)
{
	trace_error_report_end(ERROR_DETECTOR_KASAN, 0xffffffffc0001234ul);
	trace_error_report_end(ERROR_DETECTOR_WARN, 0x1234ul);
}

static void fire_syscalls(void)
{
	static struct pt_regs regs = { .di = 1, .si = 0x7ffd1234, .dx = 12, .r10 = 0,
				       .r8 = 0, .r9 = 0, .orig_ax = 1 };

	trace_sys_enter(&regs, 1);
	trace_sys_exit(&regs, 12);
}

/*
 * A TCP connection, IPv4 and IPv6, and the segments of one: an IPv4
 * header at the network header, the TCP header at data.
 */
static struct ipv6_pinfo tcp_pinfo6 = {
	.saddr = { .in6_u = { .u6_addr8 = { 0xfe, 0x80, [15] = 2 } } },
};
static struct tcp_sock tcp4 = {
	.inet = { .sk = { .sk_family = AF_INET, .sk_protocol = IPPROTO_TCP,
			  .sk_state = TCP_ESTABLISHED, .sk_cookie = 0x1234 },
		  .inet_saddr = 0x0100007f, .inet_daddr = 0x0200000a,
		  .inet_sport = 0x3930, .inet_dport = 0x5000 },
	.snd_nxt = 0x1000, .snd_una = 0xf00, .snd_wnd = 65535, .rcv_wnd = 64240,
	.srtt_us = 800, .snd_cwnd = 10, .snd_ssthresh = 0x7fffffff,
};
static struct tcp_sock tcp6 = {
	.inet = { .sk = { .sk_family = AF_INET6, .sk_protocol = IPPROTO_TCP,
			  .sk_state = TCP_SYN_RECV, .sk_cookie = 0xabcdef,
			  .sk_v6_daddr = { .in6_u = { .u6_addr8 = { 0x20, 0x01, 0x0d, 0xb8,
								    [15] = 1 } } },
			  .sk_v6_rcv_saddr = { .in6_u = { .u6_addr8 = { 0xfe, 0x80,
									[15] = 2 } } } },
		  .pinet6 = &tcp_pinfo6, .inet_sport = 0xbb01, .inet_dport = 0x1f90 },
	.snd_nxt = 1, .snd_una = 1, .snd_wnd = 1024, .rcv_wnd = 2048, .srtt_us = 80,
	.snd_cwnd = 20, .snd_ssthresh = 12,
};

static void fire_tcp(void)
{
	static unsigned char pkt[128];
	static struct sk_buff skb = { .len = 60, .mark = 0x10, .head = pkt, .network_header = 0,
				      .transport_header = 20, .data = pkt + 20 };
	static struct inet_request_sock ireq = {
		.ir_num = 80, .ir_rmt_port = 0x3930, .ir_loc_addr = 0x0100007f,
		.ir_rmt_addr = 0x0200000a,
	};
	struct iphdr *iph = (struct iphdr *)pkt;
	struct tcphdr *th = (struct tcphdr *)(pkt + 20);

	iph->version = 4;
	iph->ihl = 5;
	iph->saddr = 0x0200000a;
	iph->daddr = 0x0100007f;
	th->source = 0x3930;
	th->dest = 0x5000;
	th->doff = 8;

	trace_tcp_retransmit_skb(&tcp4.inet.sk, &skb);
	trace_tcp_send_reset(&tcp6.inet.sk, NULL);
	trace_tcp_receive_reset(&tcp4.inet.sk);
	trace_tcp_destroy_sock(&tcp6.inet.sk);
	trace_tcp_rcv_space_adjust(&tcp4.inet.sk);
	trace_tcp_retransmit_synack(&tcp4.inet.sk, &ireq.req);
	trace_tcp_probe(&tcp4.inet.sk, &skb);
	trace_tcp_probe(&tcp6.inet.sk, &skb);
	trace_tcp_bad_csum(&skb);
	trace_tcp_cong_state_set(&tcp4.inet.sk, 4);
}

static void fire_neigh(void)
{
	static struct net_device dev = { .name = "eth0", .ifindex = 2, .addr_len = 6 };
	static struct neigh_table arp = { .family = AF_INET, .gc_entries = { 12 } };
	static struct neigh_table nd = { .family = AF_INET6, .gc_entries = { 3 } };
	static struct neighbour n4 = {
		.tbl = &arp, .confirmed = 4295010000ul, .updated = 4295011000ul,
		.used = 4295012000ul, .refcnt = { { 2 } }, .nud_state = NUD_REACHABLE,
		.type = 1, .flags = 0, .ha = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 },
		.dev = &dev, .primary_key = { 10, 0, 2, 2 },
	};
	static struct neighbour n6 = {
		.tbl = &nd, .refcnt = { { 1 } }, .nud_state = NUD_STALE, .type = 1, .dead = 1,
		.flags = 0x80, .ha = { 0x02, 0x42, 0xac, 0x11, 0x00, 0x02 }, .dev = &dev,
		.primary_key = { 0xfe, 0x80, [14] = 0x12, [15] = 0x34 },
	};
	static const u8 lladdr[6] = { 0xde, 0xad, 0xbe, 0xef, 0x00, 0x01 };

	trace_neigh_create(&arp, &dev, n4.primary_key, &n4, false);
	trace_neigh_create(&nd, NULL, n6.primary_key, NULL, true);
	trace_neigh_update(&n4, lladdr, NUD_STALE, 0x1, 4242);
	trace_neigh_update(&n6, NULL, NUD_FAILED, 0x0, 0);
	trace_neigh_update_done(&n4, 0);
	trace_neigh_timer_handler(&n6, 0);
	trace_neigh_event_send_done(&n4, 0);
	trace_neigh_event_send_dead(&n6, 1);
	trace_neigh_cleanup_and_release(&n6, 0);
}

static void fire_skb(void)
{
	static struct sk_buff skb = { .protocol = 0xdd86 };

	trace_kfree_skb(&skb, (void *)conformance_work_fn, SKB_DROP_REASON_NO_SOCKET);
	trace_consume_skb(&skb);
	trace_skb_copy_datagram_iovec(&skb, 1448);
}

static void fire_napi(void)
{
	static struct net_device dev = { .name = "eth0" };
	static struct napi_struct napi = { .dev = &dev };
	static struct napi_struct napi_nodev;

	trace_napi_poll(&napi, 3, 64);
	trace_napi_poll(&napi_nodev, 0, 64);
}

static void fire_qdisc(void)
{
	static struct net_device dev = { .name = "eth0", .ifindex = 2 };
	static struct netdev_queue txq = { .dev = &dev, .state = 0x2 };
	static const struct Qdisc_ops ops = { .id = "fq_codel" };
	static struct Qdisc q = { .handle = 0x80010000, .parent = 0xffffffff, .ops = &ops,
				  .dev_queue = &txq };
	static struct sk_buff skb;

	trace_qdisc_dequeue(&q, &txq, 1, &skb);
	trace_qdisc_dequeue(&q, &txq, 1, NULL);
	trace_qdisc_enqueue(&q, &txq, &skb);
	trace_qdisc_reset(&q);
	trace_qdisc_destroy(&q);
	trace_qdisc_create(&ops, &dev, 0x10002);
}

static void fire_oom(void)
{
	static struct zone zone = { .node = 0, .idx = ZONE_NORMAL };
	static struct zoneref zref = { .zone = &zone, .zone_idx = ZONE_NORMAL };
	static struct mm_struct victim_mm = { .total_vm = 262144,
					      .rss = { [MM_FILEPAGES] = 1024, [MM_ANONPAGES] = 65536,
						       [MM_SHMEMPAGES] = 16 },
					      .pgtables_bytes = 540672 };
	struct mm_struct *mm = task_a.mm;

	trace_oom_score_adj_update(&task_a);
	trace_reclaim_retry_zone(&zref, 0, 1000, 2000, 128, 1, true);
	task_a.mm = &victim_mm;
	trace_mark_victim(&task_a, 1000);
	task_a.mm = mm;
	trace_wake_reaper(4242);
	trace_start_task_reaping(4242);
	trace_finish_task_reaping(4242);
	trace_skip_task_reaping(4243);
	trace_compact_retry(3, COMPACT_PRIO_ASYNC, COMPACT_DEFERRED, 2, 16, true);
	trace_compact_retry(9, COMPACT_PRIO_SYNC_FULL, COMPACT_COMPLETE, 16, 16, false);
}

static void fire_compaction(void)
{
	static struct zone zone = { .node = 1, .idx = ZONE_DMA32, .compact_considered = 3,
				    .compact_defer_shift = 2, .compact_order_failed = 4 };
	static struct compact_control cc = { .nr_migratepages = 32, .free_pfn = 0x80000,
					     .migrate_pfn = 0x1000 };

	trace_mm_compaction_isolate_migratepages(0x1000, 0x1200, 512, 32);
	trace_mm_compaction_isolate_freepages(0x80000, 0x7fe00, 64, 32);
	trace_mm_compaction_migratepages(&cc, 30);
	trace_mm_compaction_begin(&cc, 0x1000, 0x100000, true);
	trace_mm_compaction_end(&cc, 0x1000, 0x100000, false, COMPACT_PARTIAL_SKIPPED);
	trace_mm_compaction_try_to_compact_pages(9, GFP_TRANSHUGE, COMPACT_PRIO_ASYNC);
	trace_mm_compaction_finished(&zone, 9, COMPACT_CONTINUE);
	trace_mm_compaction_suitable(&zone, 3, COMPACT_SUCCESS);
	trace_mm_compaction_deferred(&zone, 9);
	trace_mm_compaction_defer_compaction(&zone, 9);
	trace_mm_compaction_defer_reset(&zone, 2);
	trace_mm_compaction_kcompactd_sleep(0);
	trace_mm_compaction_wakeup_kcompactd(0, 2, ZONE_NORMAL);
	trace_mm_compaction_kcompactd_wake(1, 9, ZONE_MOVABLE);
}

static void fire_vmscan(void)
{
	static struct shrinker shr = { .scan_objects = conformance_scan_objects };
	static struct shrink_control sc = { .gfp_mask = GFP_KERNEL, .nid = 0 };
	static struct folio folio = { .pfn = 0x12345, .file_lru = true };
	static struct reclaim_stat stat = { .nr_dirty = 4, .nr_congested = 1, .nr_writeback = 2,
					    .nr_immediate = 0, .nr_activate = { 5, 6 },
					    .nr_ref_keep = 7, .nr_unmap_fail = 1 };

	trace_mm_vmscan_kswapd_sleep(0);
	trace_mm_vmscan_kswapd_wake(0, ZONE_NORMAL, 3);
	trace_mm_vmscan_wakeup_kswapd(0, ZONE_NORMAL, 3, GFP_KERNEL);
	trace_mm_vmscan_direct_reclaim_begin(0, GFP_HIGHUSER_MOVABLE);
	trace_mm_vmscan_memcg_reclaim_begin(0, GFP_KERNEL_ACCOUNT);
	trace_mm_vmscan_memcg_softlimit_reclaim_begin(2, GFP_KERNEL);
	trace_mm_vmscan_direct_reclaim_end(32);
	trace_mm_vmscan_memcg_reclaim_end(16);
	trace_mm_vmscan_memcg_softlimit_reclaim_end(0);
	trace_mm_shrink_slab_start(&shr, &sc, 128, 4096, 64, 128, 12);
	trace_mm_shrink_slab_end(&shr, 0, 100, 28, 0, 128);
	trace_mm_vmscan_lru_isolate(ZONE_NORMAL, 0, 32, 40, 8, 32, 0, LRU_INACTIVE_FILE);
	trace_mm_vmscan_write_folio(&folio);
	trace_mm_vmscan_lru_shrink_inactive(0, 32, 30, &stat, 12, 1);
	trace_mm_vmscan_lru_shrink_active(0, 32, 20, 12, 4, 12, 0);
	trace_mm_vmscan_node_reclaim_begin(0, 0, GFP_KERNEL);
	trace_mm_vmscan_node_reclaim_end(8);
	trace_mm_vmscan_throttled(0, 100000, 20000, VMSCAN_THROTTLE_WRITEBACK);
}

static void fire_filemap(void)
{
	static struct super_block sb = { .s_dev = MKDEV(8, 1) };
	static struct inode inode = { .i_ino = 131074, .i_sb = &sb };
	static struct inode bdev_inode = { .i_ino = 7, .i_rdev = MKDEV(259, 0) };
	static struct address_space mapping = { .host = &inode };
	static struct address_space bdev_mapping = { .host = &bdev_inode };
	static struct folio folio = { .index = 42, .mapping = &mapping, .pfn = 0x12345, .order = 2 };
	static struct file file = { .f_mapping = &bdev_mapping, .f_wb_err = 0x22 };

	trace_mm_filemap_delete_from_page_cache(&folio);
	trace_mm_filemap_add_to_page_cache(&folio);
	trace_filemap_set_wb_err(&mapping, 0x41);
	trace_file_check_and_advance_wb_err(&file, 0x20);
}

static void fire_percpu(void)
{
	unsigned long site = (unsigned long)fire_kmem + 16;
	void *base = (void *)0xffff88803ec00000ul;

	trace_percpu_alloc_percpu(site, false, false, 8, 8, base, 0x2000,
				  (void __percpu *)0x2b000ul, 64, GFP_KERNEL);
	trace_percpu_free_percpu(base, 0x2000, (void __percpu *)0x2b000ul);
	trace_percpu_alloc_percpu_fail(true, true, 4096, 8);
	trace_percpu_create_chunk(base);
	trace_percpu_destroy_chunk(base);
}

static void fire_migrate(void)
{
	trace_mm_migrate_pages(510, 2, 1, 0, 0, MIGRATE_SYNC, MR_NUMA_MISPLACED);
	trace_mm_migrate_pages_start(MIGRATE_ASYNC, MR_COMPACTION);
	trace_set_migration_pte(0x7f1234567000ul, 0x3e000000000000ul, 0);
	trace_remove_migration_pte(0x7f1234567000ul, 0x800000012345867ul, 9);
}

static void fire_mmap_lock(void)
{
	static struct mm_struct mm;

	trace_mmap_lock_start_locking(&mm, "/system.slice", true);
	trace_mmap_lock_acquire_returned(&mm, "/system.slice", true, true);
	trace_mmap_lock_released(&mm, "", false);
}

static void fire_initcall(void)
{
	trace_initcall_level("device");
	trace_initcall_start(conformance_initcall_fn);
	trace_initcall_finish(conformance_initcall_fn, -19);
}

static void fire_printk(void)
{
	static const char line[] = "[    1.234567] virtio_net virtio1 eth0: renamed\n";

	trace_console(line, sizeof(line) - 1);
	trace_console("no newline", 10);
}

static void fire_io_uring(void)
{
	static struct io_ring_ctx ctx = { .flags = IORING_SETUP_SQPOLL };
	static struct io_kiocb req = { .ctx = &ctx, .opcode = 22, .flags = 0x1,
				       .cqe = { .user_data = 0xdeadbeef } };
	static struct io_kiocb link = { .ctx = &ctx, .opcode = 2, .cqe = { .user_data = 2 } };
	static const struct io_uring_sqe sqe = {
		.opcode = 23, .flags = 0x4, .ioprio = 0, .fd = 3, .off = 4096,
		.addr = 0x7f0000001000ull, .len = 512, .user_data = 0x55, .buf_index = 1,
		.personality = 0, .file_index = 0, .addr3 = 0, .__pad2 = { 0 },
	};

	trace_io_uring_create(5, &ctx, 128, 256, 0x2);
	trace_io_uring_register(&ctx, 2, 16, 0, 0);
	trace_io_uring_file_get(&req, 3);
	trace_io_uring_queue_async_work(&req, 1);
	trace_io_uring_defer(&req);
	trace_io_uring_link(&link, &req);
	trace_io_uring_cqring_wait(&ctx, 1);
	trace_io_uring_fail_link(&req, &link);
	trace_io_uring_complete(&ctx, &req, 0xdeadbeef, 512, 0, 0, 0);
	trace_io_uring_submit_sqe(&req, true);
	trace_io_uring_poll_arm(&req, 0x1, 0x41);
	trace_io_uring_task_add(&req, 0x1);
	trace_io_uring_req_failed(&sqe, &req, -22);
	trace_io_uring_cqe_overflow(&ctx, 0x55, -11, 0, (void *)0xffff888001234000ul);
	trace_io_uring_task_work_run((void *)0xffff888001235000ul, 3, 1);
	trace_io_uring_short_write(&ctx, 8192, 4096, 1024);
	trace_io_uring_local_work_run(&ctx, 2, 1);
}

static void fire_fs_dax(void)
{
	static struct super_block sb = { .s_dev = MKDEV(259, 1) };
	static struct inode inode = { .i_ino = 0x1234, .i_sb = &sb };
	static struct vm_area_struct vma = { .vm_start = 0x7f0000000000ul,
					     .vm_end = 0x7f0000400000ul,
					     .vm_flags = VM_READ | VM_WRITE | VM_SHARED };
	static struct vm_fault vmf = { .vma = &vma,
				       .flags = FAULT_FLAG_WRITE | FAULT_FLAG_ALLOW_RETRY |
						FAULT_FLAG_KILLABLE | FAULT_FLAG_USER,
				       .pgoff = 0x200, .address = 0x7f0000200000ul };
	pfn_t pfn = { .val = 0x123400ull | PFN_DEV | PFN_MAP };
	void *entry = (void *)0x2468ul;

	trace_dax_pmd_fault(&inode, &vmf, 0x3ff, 0);
	trace_dax_pmd_fault_done(&inode, &vmf, 0x3ff, VM_FAULT_NOPAGE);
	trace_dax_pmd_load_hole(&inode, &vmf, vmemmap + 0x100, entry);
	trace_dax_pmd_load_hole_fallback(&inode, &vmf, NULL, entry);
	trace_dax_pmd_insert_mapping(&inode, &vmf, 0x200000, pfn, entry);
	trace_dax_pte_fault(&inode, &vmf, 0);
	trace_dax_pte_fault_done(&inode, &vmf, VM_FAULT_MAJOR | VM_FAULT_RETRY);
	trace_dax_load_hole(&inode, &vmf, VM_FAULT_NOPAGE);
	trace_dax_insert_pfn_mkwrite_no_entry(&inode, &vmf, 0);
	trace_dax_insert_pfn_mkwrite(&inode, &vmf, VM_FAULT_SIGBUS);
	trace_dax_insert_mapping(&inode, &vmf, entry);
	trace_dax_writeback_range(&inode, 0, 0x3ff);
	trace_dax_writeback_range_done(&inode, 0, 0x3ff);
	trace_dax_writeback_one(&inode, 0x200, 0x200);
}

static void fire_ipi(void)
{
	static const struct cpumask mask = { .bits = { 0x800000000aul } };
	const char *reason = TPS("Function call interrupts");

	trace_ipi_raise(&mask, reason);
	trace_ipi_entry(reason);
	trace_ipi_exit(reason);
}

static void fire_thermal_power_allocator(void)
{
	static struct thermal_zone_device tz = { .id = 1 };
	static u32 req[3] = { 1500, 2000, 0 };
	static u32 granted[3] = { 1200, 1800, 0 };

	trace_thermal_power_allocator(&tz, req, 3500, granted, 3000, 3, 4000, 5000, 75000, -2000);
	trace_thermal_power_allocator(&tz, req, 0, granted, 0, 0, 0, 0, 40000, 0);
	trace_thermal_power_allocator_pid(&tz, -2000, -15000, -1200, -300, 0, 3000);
}

static void fire_smbus(void)
{
	static const struct i2c_adapter adap = { .nr = 3 };
	static const union i2c_smbus_data byte = { .byte = 0x5a };
	static const union i2c_smbus_data block = { .block = { 4, 0xde, 0xad, 0xbe, 0xef } };

	/* The conditions: a write, then a read, which smbus_write skips. */
	trace_smbus_write(&adap, 0x50, 0, I2C_SMBUS_WRITE, 0x10, I2C_SMBUS_BYTE_DATA, &byte);
	trace_smbus_write(&adap, 0x50, 0, I2C_SMBUS_READ, 0x10, I2C_SMBUS_BYTE_DATA, &byte);
	trace_smbus_read(&adap, 0x50, 0, I2C_SMBUS_READ, 0x20, I2C_SMBUS_BLOCK_DATA);
	trace_smbus_read(&adap, 0x50, 0, I2C_SMBUS_WRITE, 0x20, I2C_SMBUS_BLOCK_DATA);
	trace_smbus_reply(&adap, 0x50, 0, I2C_SMBUS_READ, 0x20, I2C_SMBUS_BLOCK_DATA, &block, 0);
	trace_smbus_reply(&adap, 0x50, 0, I2C_SMBUS_READ, 0x20, I2C_SMBUS_BLOCK_DATA, &block, -5);
	trace_smbus_result(&adap, 0x50, 0, I2C_SMBUS_WRITE, 0x10, I2C_SMBUS_QUICK, 0);
	trace_smbus_result(&adap, 0x50, 0, I2C_SMBUS_READ, 0x20, I2C_SMBUS_I2C_BLOCK_DATA, -6);
}

/* drivers/spmi/spmi.c's: a register write and read, and a command. */
static void fire_spmi(void)
{
	static const u8 wbuf[3] = { 0x12, 0x34, 0x56 };
	static const u8 rbuf[2] = { 0xa5, 0x5a };

	trace_spmi_write_begin(0x38, 2, 0x1044, 3, wbuf);
	trace_spmi_write_end(0x38, 2, 0x1044, 0);
	trace_spmi_read_begin(0x30, 2, 0x4005);
	trace_spmi_read_end(0x30, 2, 0x4005, 0, 2, rbuf);
	trace_spmi_read_end(0x30, 2, 0x4005, -110, 2, rbuf);
	trace_spmi_cmd(0x10, 1, 0);
	trace_spmi_cmd(0x10, 1, -5);
}

static int cpuhp_cb(unsigned int cpu)
{
	return (int)cpu;
}

static int cpuhp_multi_cb(unsigned int cpu, struct hlist_node *node)
{
	(void)node;
	return (int)cpu;
}

/*
 * Events of the kernel's core whose headers need nothing of ours: a BPF
 * test run, CPU hotplug, the kyber I/O scheduler, lock contention, a
 * netlink extack message, an NMI handler, page isolation, rseq, THP.
 */
static void fire_core(void)
{
	static struct task_struct t;
	int err = -22, lock;

	trace_bpf_test_finish(&err);
	trace_cpuhp_enter(1, 215, 86, cpuhp_cb);
	trace_cpuhp_multi_enter(1, 215, 86, cpuhp_multi_cb, NULL);
	trace_cpuhp_exit(1, 86, 87, -16);
	trace_kyber_latency(MKDEV(8, 16), "read", "total", 90, 12, 16, 347);
	trace_kyber_adjust(MKDEV(8, 16), "write", 64);
	trace_kyber_throttled(MKDEV(8, 16), "discard");
	trace_contention_begin(&lock, LCB_F_SPIN | LCB_F_WRITE);
	trace_contention_end(&lock, 0);
	trace_netlink_extack("Invalid prefix length");
	trace_nmi_handler((void *)cpuhp_cb, 4012, 1);
	trace_test_pages_isolated(0x1000, 0x1200, 0x1100);
	trace_rseq_update(&t);
	trace_rseq_ip_fixup(0x401234, 0x401200, 0x40, 0x401300);
	trace_hugepage_set_pmd(0x7f0000200000ul, 0x80000001234008e7ul);
	trace_hugepage_update(0x7f0000200000ul, 0x1234008e7ul, 0x2, 0x20);
	trace_set_migration_pmd(0x7f0000400000ul, 0x3456000ul);
	trace_remove_migration_pmd(0x7f0000400000ul, 0x80000003456008e7ul);
}

static void fire_i2c(void)
{
	static const struct i2c_adapter adap = { .nr = 1 };
	static u8 wbuf[2] = { 0x00, 0x10 };
	static u8 rbuf[20] = { 0x41, 0x42, 0x43, 0x00, 0xff, 0x10, 0x20, 0x30, 0x40, 0x50,
			       0x60, 0x70, 0x80, 0x90, 0xa0, 0xb0, 0xc0, 0xd0, 0xe0, 0xf0 };
	static const struct i2c_msg w = { .addr = 0x68, .flags = 0, .len = 2, .buf = wbuf };
	static const struct i2c_msg r = { .addr = 0x68, .flags = I2C_M_RD, .len = 20, .buf = rbuf };

	trace_i2c_write(&adap, &w, 0);
	trace_i2c_read(&adap, &r, 1);
	trace_i2c_reply(&adap, &r, 1);
	trace_i2c_result(&adap, 2, 2);
}

static void fire_osnoise(void)
{
	trace_thread_noise(&task_b, 1234567890123ull, 4500);
	trace_softirq_noise(NET_RX_SOFTIRQ, 1234567990000ull, 1200);
	trace_irq_noise(236, "local_timer", 1234568000001ull, 800);
	trace_nmi_noise(1234569000000ull, 300);
	trace_sample_threshold(1234570000000ull, 20000, 3);
}

static void fire_iscsi(void)
{
	static struct device dev = { .init_name = "connection1:0" };

	iscsi_dbg_trace(trace_iscsi_dbg_conn, &dev, "%s state %d\n", "iscsi_conn_start", 2);
	iscsi_dbg_trace(trace_iscsi_dbg_session, &dev, "session %u recovery %s", 1u, "timed out");
	iscsi_dbg_trace(trace_iscsi_dbg_eh, &dev, "abort task %p", (void *)0x1000);
	iscsi_dbg_trace(trace_iscsi_dbg_tcp, &dev, "%s", "");
	iscsi_dbg_trace(trace_iscsi_dbg_sw_tcp, &dev, "xmit %d bytes", 48);
	iscsi_dbg_trace(trace_iscsi_dbg_trans_session, &dev, "%s", "iscsi_session_release");
	iscsi_dbg_trace(trace_iscsi_dbg_trans_conn, &dev, "%s %d", "iscsi_conn_release", 0);
}

/* Every event of the corpus, in the order of its headers. */
/* A fork the machine made (main.c's proc connector): the kernel's event of it. */
void conformance_fire_fork(void)
{
	trace_sched_process_fork(&task_a, &task_b);
}

void conformance_fire_all(void)
{
	fire_sched();
	fire_irq();
	fire_timer();
	fire_workqueue();
	fire_signal();
	fire_task();
	fire_kmem();
	fire_writeback();
	fire_block();
	fire_net();
	fire_sock();
	fire_power();
	fire_rcu();
	fire_alarmtimer();
	fire_error_report();
	fire_syscalls();
	fire_tcp();
	fire_neigh();
	fire_skb();
	fire_napi();
	fire_qdisc();
	fire_oom();
	fire_compaction();
	fire_vmscan();
	fire_filemap();
	fire_percpu();
	fire_migrate();
	fire_mmap_lock();
	fire_initcall();
	fire_printk();
	fire_io_uring();
	fire_fs_dax();
	fire_ipi();
	fire_thermal_power_allocator();
	fire_smbus();
	fire_i2c();
	fire_osnoise();
	fire_iscsi();
	fire_spmi();
	fire_core();
}
