/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * kstubs.h - the kernel, as much of it as the corpus's event definitions
 * (linux-6.1/trace/events/) need to compile unchanged in a program.
 *
 * Every <linux/...>, <asm/...> and <net/...> header those definitions
 * include is, in the build directory, a one-line file that includes this
 * one (Build.mk makes them), so that this is the only place where kernel
 * types are stood in for.  What is here:
 *
 * - types (struct task_struct, sk_buff, bio, inode, ...) with the members
 *   TP_fast_assign() reads, and nothing else;
 * - helpers TP_fast_assign() calls (task_cpu(), bio_sectors(), ...), as
 *   plain functions over those members;
 * - constants and macros TP_printk() names.  These reach the print fmt as
 *   text, so each is written so that it expands to the text Linux 6.18's
 *   format files on the reference machine show (MAJOR(dev) to
 *   "((unsigned int) ((dev) >> 20))", pfn_to_page() to vmemmap_base...):
 *   the values are the kernel's; the texts are what the kernel's macros
 *   expand to there.
 *
 * A program that fires these events passes objects of these types.  The
 * kernel's configuration is the reference machine's where it changes a
 * record (CONFIG_IPV6, CONFIG_CGROUP_WRITEBACK, ...); CONFIG_SCHEDSTATS
 * and CONFIG_RCU_TRACE are on so that every definition compiles.
 */
#ifndef _CONFORMANCE_KSTUBS_H
#define _CONFORMANCE_KSTUBS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ------------------------------------------------------------------
 * Configuration (include/generated/autoconf.h)
 */
#define CONFIG_64BIT			1
#define CONFIG_X86			1
#define CONFIG_MMU			1
#define CONFIG_SMP			1
#define CONFIG_NUMA			1
#define CONFIG_NUMA_BALANCING		1
#define CONFIG_NO_HZ_COMMON		1
#define CONFIG_TREE_RCU			1
#define CONFIG_RCU_NOCB_CPU		1
#define CONFIG_RCU_TRACE		1
#define CONFIG_SCHEDSTATS		1
#define CONFIG_MEMCG			1
#define CONFIG_MEMCG_KMEM		1
#define CONFIG_CGROUP_WRITEBACK		1
#define CONFIG_COMPACTION		1
#define CONFIG_PAGE_IDLE_FLAG		1
#define CONFIG_ZONE_DMA			1
#define CONFIG_ZONE_DMA32		1
#define CONFIG_HAVE_ARCH_USERFAULTFD_MINOR 1
#define CONFIG_IPV6			1
#define CONFIG_NET_RX_BUSY_POLL		1
#define CONFIG_DETECT_HUNG_TASK		1
#define CONFIG_HAVE_SYSCALL_TRACEPOINTS	1

/* ------------------------------------------------------------------
 * <linux/types.h>, <linux/compiler.h>, <linux/const.h>, <linux/bits.h>
 */
typedef uint8_t		u8;
typedef uint16_t	u16;
typedef uint32_t	u32;
typedef unsigned long long u64;
typedef int8_t		s8;
typedef int16_t		s16;
typedef int32_t		s32;
typedef long long	s64;
typedef uint8_t		__u8;
typedef uint16_t	__u16;
typedef uint32_t	__u32;
typedef unsigned long long __u64;
typedef int16_t		__s16;
typedef int32_t		__s32;
typedef uint16_t	__be16;
typedef uint32_t	__be32;
typedef uint16_t	__le16;
typedef uint32_t	__wsum;
typedef int		pid_t;
typedef unsigned int	dev_t;
typedef unsigned long	ino_t;
typedef unsigned short	umode_t;
typedef u64		sector_t;
typedef unsigned long	pgoff_t;
typedef int		clockid_t;
typedef unsigned int	gfp_t;
typedef s64		ktime_t;
typedef unsigned int	blk_opf_t;
typedef u8		blk_status_t;
typedef unsigned short	sa_family_t;
typedef long		time64_t;

#define __force
#define __rcu
/*
 * The reference kernel's x86 per-CPU pointers are in the %gs address space
 * (CONFIG_USE_X86_SEG_SUPPORT): its formats name the type so.
 */
#ifdef __SEG_GS
#define __percpu		__seg_gs
#else
#define __percpu
#endif
#define __user
#define __maybe_unused		__attribute__((__unused__))
#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define BUG_ON(c)		((void)(c))

#define __AC(X, Y)		(X##Y)
#define _AC(X, Y)		__AC(X, Y)
#define _UL(x)			(_AC(x, UL))
#define UL(x)			(_UL(x))
#define BIT(nr)			(UL(1) << (nr))

#define min(a, b)		((a) < (b) ? (a) : (b))
#define MIN_T(type, a, b)						\
	(((type)(a)) < ((type)(b)) ? ((type)(a)) : ((type)(b)))

/* <linux/types.h> */
struct hlist_node {
	struct hlist_node *next, **pprev;
};

typedef struct { int counter; } atomic_t;
typedef struct { atomic_t refs; } refcount_t;

static inline int atomic_read(const atomic_t *v)
{
	return v->counter;
}

static inline unsigned int refcount_read(const refcount_t *r)
{
	return (unsigned int)r->refs.counter;
}

/* The CPU the event is written on, to the kernel (rseq.h): always 1 here. */
static inline int raw_smp_processor_id(void)
{
	return 1;
}

/* fls(): the last bit set, 1-based (0 for 0). */
static inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

/* <linux/string.h>: glibc 2.36 has neither. */
static inline size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = len < size - 1 ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

static inline long strscpy_pad(char *dst, const char *src, size_t size)
{
	size_t len = strnlen(src, size);

	memset(dst, 0, size);
	if (len == size) {
		memcpy(dst, src, size - 1);
		return -7;	/* -E2BIG */
	}
	memcpy(dst, src, len);
	return (long)len;
}

static inline u16 ntohs(__be16 v)
{
	return __builtin_bswap16(v);
}

/* <linux/kdev_t.h> */
#define MINORBITS	20
#define MINORMASK	((1U << MINORBITS) - 1)
#define MAJOR(dev)	((unsigned int) ((dev) >> MINORBITS))
#define MINOR(dev)	((unsigned int) ((dev) & MINORMASK))
#define MKDEV(ma, mi)	(((ma) << MINORBITS) | (mi))

/* <vdso/time64.h>, <linux/jiffies.h> */
#define NSEC_PER_USEC	1000L
#define NSEC_PER_SEC	1000000000L
#define HZ		250
extern unsigned long volatile jiffies;

/* <asm/page_types.h>, <asm/pgtable_64_types.h> */
#define PAGE_SHIFT		12
#define PMD_SHIFT		21
#define HPAGE_SHIFT		PMD_SHIFT
#define HUGETLB_PAGE_ORDER	(HPAGE_SHIFT - PAGE_SHIFT)
#define MAX_PAGE_ORDER		10
#define pageblock_order		MIN_T(unsigned int, HUGETLB_PAGE_ORDER, MAX_PAGE_ORDER)

/* ------------------------------------------------------------------
 * Tasks: <linux/sched.h>, <linux/pid.h>, <linux/sched/numa_balancing.h>
 */
enum { TASK_COMM_LEN = 16 };

#define TASK_RUNNING			0x00000000
#define TASK_INTERRUPTIBLE		0x00000001
#define TASK_UNINTERRUPTIBLE		0x00000002
#define __TASK_STOPPED			0x00000004
#define __TASK_TRACED			0x00000008
#define EXIT_DEAD			0x00000010
#define EXIT_ZOMBIE			0x00000020
#define EXIT_TRACE			(EXIT_ZOMBIE | EXIT_DEAD)
#define TASK_PARKED			0x00000040
#define TASK_DEAD			0x00000080
#define TASK_WAKEKILL			0x00000100
#define TASK_NOLOAD			0x00000400
#define TASK_IDLE			(TASK_UNINTERRUPTIBLE | TASK_NOLOAD)
#define TASK_REPORT			(TASK_RUNNING | TASK_INTERRUPTIBLE | \
					 TASK_UNINTERRUPTIBLE | __TASK_STOPPED | \
					 __TASK_TRACED | EXIT_DEAD | EXIT_ZOMBIE | \
					 TASK_PARKED)
#define TASK_REPORT_IDLE		(TASK_REPORT + 1)
#define TASK_REPORT_MAX			(TASK_REPORT_IDLE << 1)

#define PF_KTHREAD			0x00200000

struct pid {
	int	nr;
};

struct mm_struct {
	unsigned long	total_vm;
	long		rss[4];		/* MM_FILEPAGES... */
	long		pgtables_bytes;
};

struct signal_struct {
	short	oom_score_adj;
};

struct task_struct {
	unsigned int		__state;
	unsigned int		flags;
	int			prio;
	int			normal_prio;
	int			exit_state;
	pid_t			pid;
	pid_t			tgid;
	int			cpu;
	int			numa_group_id;
	char			comm[TASK_COMM_LEN];
	struct signal_struct	*signal;
	struct mm_struct	*mm;
	int			nr_dirtied_pause;
	unsigned long		dirty_paused_when;
};

/* The firing program's current task. */
extern struct task_struct *conformance_current;
#define current		conformance_current

static inline unsigned int task_cpu(const struct task_struct *p)
{
	return (unsigned int)p->cpu;
}

static inline pid_t task_pid_nr(const struct task_struct *p)
{
	return p->pid;
}

static inline pid_t task_tgid_nr(const struct task_struct *p)
{
	return p->tgid;
}

static inline int task_numa_group_id(const struct task_struct *p)
{
	return p->numa_group_id;
}

static inline pid_t pid_nr(const struct pid *pid)
{
	return pid ? pid->nr : 0;
}

static inline int cpu_to_node(int cpu)
{
	return cpu / 2;
}

/* What task_state_index() computes: the index of the reported state. */
static inline unsigned int __task_state_index(unsigned int tsk_state,
					      unsigned int tsk_exit_state)
{
	unsigned int state = (tsk_state | tsk_exit_state) & TASK_REPORT;

	if ((tsk_state & TASK_IDLE) == TASK_IDLE)
		state = TASK_REPORT_IDLE;
	return (unsigned int)fls(state);
}

static inline unsigned int task_state_index(const struct task_struct *p)
{
	return __task_state_index(p->__state, (unsigned int)p->exit_state);
}

struct linux_binprm {
	const char	*filename;
};

/* The scheduler's own types: only pointers are passed. */
struct rq;
struct cfs_rq;
struct sched_entity;
struct root_domain;

/* <linux/kthread.h> */
struct kthread_work;
typedef void (*kthread_work_func_t)(struct kthread_work *work);
struct kthread_work {
	kthread_work_func_t	func;
};
struct kthread_worker {
	unsigned int	flags;
};

/* ------------------------------------------------------------------
 * Interrupts and softirqs: <linux/interrupt.h>
 */
enum {
	HI_SOFTIRQ = 0,
	TIMER_SOFTIRQ,
	NET_TX_SOFTIRQ,
	NET_RX_SOFTIRQ,
	BLOCK_SOFTIRQ,
	IRQ_POLL_SOFTIRQ,
	TASKLET_SOFTIRQ,
	SCHED_SOFTIRQ,
	HRTIMER_SOFTIRQ,
	RCU_SOFTIRQ,
	NR_SOFTIRQS
};

struct irqaction {
	void		*handler;
	void		*dev_id;
	const char	*name;
};

struct tasklet_struct {
	void	(*func)(unsigned long data);
};

/* ------------------------------------------------------------------
 * Timers: <linux/timer.h>, <linux/hrtimer.h>, <linux/tick.h>,
 * <linux/alarmtimer.h>, <linux/time64.h>
 */
#define TIMER_CPUMASK		0x0003FFFF
#define TIMER_MIGRATING		0x00040000
#define TIMER_DEFERRABLE	0x00080000
#define TIMER_PINNED		0x00100000
#define TIMER_IRQSAFE		0x00200000
#define TIMER_ARRAYSHIFT	22
#define TIMER_TRACE_FLAGMASK	(TIMER_MIGRATING | TIMER_DEFERRABLE | TIMER_PINNED | TIMER_IRQSAFE)

struct timer_list {
	unsigned long	expires;
	void		(*function)(struct timer_list *timer);
	unsigned int	flags;
};

#define CLOCK_REALTIME		0
#define CLOCK_MONOTONIC		1
#define CLOCK_BOOTTIME		7
#define CLOCK_TAI		11

enum hrtimer_mode {
	HRTIMER_MODE_ABS	= 0x00,
	HRTIMER_MODE_REL	= 0x01,
	HRTIMER_MODE_PINNED	= 0x02,
	HRTIMER_MODE_SOFT	= 0x04,
	HRTIMER_MODE_HARD	= 0x08,
	HRTIMER_MODE_ABS_PINNED = HRTIMER_MODE_ABS | HRTIMER_MODE_PINNED,
	HRTIMER_MODE_REL_PINNED = HRTIMER_MODE_REL | HRTIMER_MODE_PINNED,
	HRTIMER_MODE_ABS_SOFT	= HRTIMER_MODE_ABS | HRTIMER_MODE_SOFT,
	HRTIMER_MODE_REL_SOFT	= HRTIMER_MODE_REL | HRTIMER_MODE_SOFT,
	HRTIMER_MODE_ABS_PINNED_SOFT = HRTIMER_MODE_ABS_PINNED | HRTIMER_MODE_SOFT,
	HRTIMER_MODE_REL_PINNED_SOFT = HRTIMER_MODE_REL_PINNED | HRTIMER_MODE_SOFT,
	HRTIMER_MODE_ABS_HARD	= HRTIMER_MODE_ABS | HRTIMER_MODE_HARD,
	HRTIMER_MODE_REL_HARD	= HRTIMER_MODE_REL | HRTIMER_MODE_HARD,
	HRTIMER_MODE_ABS_PINNED_HARD = HRTIMER_MODE_ABS_PINNED | HRTIMER_MODE_HARD,
	HRTIMER_MODE_REL_PINNED_HARD = HRTIMER_MODE_REL_PINNED | HRTIMER_MODE_HARD,
};

struct timerqueue_node {
	ktime_t	expires;
};

struct hrtimer {
	struct timerqueue_node	node;
	ktime_t			_softexpires;
	int			(*function)(struct hrtimer *timer);
};

static inline ktime_t hrtimer_get_expires(const struct hrtimer *timer)
{
	return timer->node.expires;
}

static inline ktime_t hrtimer_get_softexpires(const struct hrtimer *timer)
{
	return timer->_softexpires;
}

struct timespec64 {
	time64_t	tv_sec;
	long		tv_nsec;
};

struct itimerspec64 {
	struct timespec64	it_interval;
	struct timespec64	it_value;
};

enum tick_dep_bits {
	TICK_DEP_BIT_POSIX_TIMER	= 0,
	TICK_DEP_BIT_PERF_EVENTS	= 1,
	TICK_DEP_BIT_SCHED		= 2,
	TICK_DEP_BIT_CLOCK_UNSTABLE	= 3,
	TICK_DEP_BIT_RCU		= 4,
	TICK_DEP_BIT_RCU_EXP		= 5
};
#define TICK_DEP_MASK_NONE		0
#define TICK_DEP_MASK_POSIX_TIMER	(1 << TICK_DEP_BIT_POSIX_TIMER)
#define TICK_DEP_MASK_PERF_EVENTS	(1 << TICK_DEP_BIT_PERF_EVENTS)
#define TICK_DEP_MASK_SCHED		(1 << TICK_DEP_BIT_SCHED)
#define TICK_DEP_MASK_CLOCK_UNSTABLE	(1 << TICK_DEP_BIT_CLOCK_UNSTABLE)
#define TICK_DEP_MASK_RCU		(1 << TICK_DEP_BIT_RCU)
#define TICK_DEP_MASK_RCU_EXP		(1 << TICK_DEP_BIT_RCU_EXP)

enum alarmtimer_type {
	ALARM_REALTIME,
	ALARM_BOOTTIME,
	ALARM_NUMTYPE,
	ALARM_REALTIME_FREEZER,
	ALARM_BOOTTIME_FREEZER,
};

struct alarm {
	struct timerqueue_node	node;
	enum alarmtimer_type	type;
};

/* ------------------------------------------------------------------
 * Workqueues: <linux/workqueue.h> and kernel/workqueue.c's own types
 */
struct work_struct;
typedef void (*work_func_t)(struct work_struct *work);
struct work_struct {
	work_func_t	func;
};

struct workqueue_struct {
	char	name[24];
};

struct worker_pool {
	int	cpu;
};

struct pool_workqueue {
	struct worker_pool	*pool;
	struct workqueue_struct	*wq;
};

/* ------------------------------------------------------------------
 * Signals: <linux/signal.h>, <linux/sched/signal.h>
 */
struct kernel_siginfo {
	int	si_signo;
	int	si_errno;
	int	si_code;
};

#define SEND_SIG_NOINFO	((struct kernel_siginfo *) 0)
#define SEND_SIG_PRIV	((struct kernel_siginfo *) 1)
#define SI_USER		0
#define SI_KERNEL	0x80

struct sigaction_k {
	void		(*sa_handler)(int);
	unsigned long	sa_flags;
};

struct k_sigaction {
	struct sigaction_k	sa;
};

/* ------------------------------------------------------------------
 * Memory: <linux/gfp_types.h>, <linux/mm.h>, <linux/mmzone.h>,
 * <linux/slab.h>, <linux/page-flags.h>
 */
#define ___GFP_DMA		BIT(0)
#define ___GFP_HIGHMEM		BIT(1)
#define ___GFP_DMA32		BIT(2)
#define ___GFP_MOVABLE		BIT(3)
#define ___GFP_RECLAIMABLE	BIT(4)
#define ___GFP_HIGH		BIT(5)
#define ___GFP_IO		BIT(6)
#define ___GFP_FS		BIT(7)
#define ___GFP_ZERO		BIT(8)
#define ___GFP_ATOMIC		BIT(9)
#define ___GFP_DIRECT_RECLAIM	BIT(10)
#define ___GFP_KSWAPD_RECLAIM	BIT(11)
#define ___GFP_WRITE		BIT(12)
#define ___GFP_NOWARN		BIT(13)
#define ___GFP_RETRY_MAYFAIL	BIT(14)
#define ___GFP_NOFAIL		BIT(15)
#define ___GFP_NORETRY		BIT(16)
#define ___GFP_MEMALLOC		BIT(17)
#define ___GFP_COMP		BIT(18)
#define ___GFP_NOMEMALLOC	BIT(19)
#define ___GFP_HARDWALL		BIT(20)
#define ___GFP_THISNODE		BIT(21)
#define ___GFP_ACCOUNT		BIT(22)
#define ___GFP_ZEROTAGS		BIT(23)

#define __GFP_DMA		((__force gfp_t)___GFP_DMA)
#define __GFP_HIGHMEM		((__force gfp_t)___GFP_HIGHMEM)
#define __GFP_DMA32		((__force gfp_t)___GFP_DMA32)
#define __GFP_MOVABLE		((__force gfp_t)___GFP_MOVABLE)
#define __GFP_RECLAIMABLE	((__force gfp_t)___GFP_RECLAIMABLE)
#define __GFP_HIGH		((__force gfp_t)___GFP_HIGH)
#define __GFP_IO		((__force gfp_t)___GFP_IO)
#define __GFP_FS		((__force gfp_t)___GFP_FS)
#define __GFP_ZERO		((__force gfp_t)___GFP_ZERO)
#define __GFP_ATOMIC		((__force gfp_t)___GFP_ATOMIC)
#define __GFP_DIRECT_RECLAIM	((__force gfp_t)___GFP_DIRECT_RECLAIM)
#define __GFP_KSWAPD_RECLAIM	((__force gfp_t)___GFP_KSWAPD_RECLAIM)
#define __GFP_RECLAIM		((__force gfp_t)(___GFP_DIRECT_RECLAIM|___GFP_KSWAPD_RECLAIM))
#define __GFP_WRITE		((__force gfp_t)___GFP_WRITE)
#define __GFP_NOWARN		((__force gfp_t)___GFP_NOWARN)
#define __GFP_RETRY_MAYFAIL	((__force gfp_t)___GFP_RETRY_MAYFAIL)
#define __GFP_NOFAIL		((__force gfp_t)___GFP_NOFAIL)
#define __GFP_NORETRY		((__force gfp_t)___GFP_NORETRY)
#define __GFP_MEMALLOC		((__force gfp_t)___GFP_MEMALLOC)
#define __GFP_COMP		((__force gfp_t)___GFP_COMP)
#define __GFP_NOMEMALLOC	((__force gfp_t)___GFP_NOMEMALLOC)
#define __GFP_HARDWALL		((__force gfp_t)___GFP_HARDWALL)
#define __GFP_THISNODE		((__force gfp_t)___GFP_THISNODE)
#define __GFP_ACCOUNT		((__force gfp_t)___GFP_ACCOUNT)
#define __GFP_ZEROTAGS		((__force gfp_t)___GFP_ZEROTAGS)
#define __GFP_SKIP_ZERO		((__force gfp_t)0)
#define __GFP_SKIP_KASAN	((__force gfp_t)0)

#define GFP_ATOMIC		(__GFP_HIGH|__GFP_KSWAPD_RECLAIM)
#define GFP_KERNEL		(__GFP_RECLAIM | __GFP_IO | __GFP_FS)
#define GFP_KERNEL_ACCOUNT	(GFP_KERNEL | __GFP_ACCOUNT)
#define GFP_NOWAIT		(__GFP_KSWAPD_RECLAIM | __GFP_NOWARN)
#define GFP_NOIO		(__GFP_RECLAIM)
#define GFP_NOFS		(__GFP_RECLAIM | __GFP_IO)
#define GFP_USER		(__GFP_RECLAIM | __GFP_IO | __GFP_FS | __GFP_HARDWALL)
#define GFP_DMA			__GFP_DMA
#define GFP_DMA32		__GFP_DMA32
#define GFP_HIGHUSER		(GFP_USER | __GFP_HIGHMEM)
#define GFP_HIGHUSER_MOVABLE	(GFP_HIGHUSER | __GFP_MOVABLE | __GFP_SKIP_KASAN)
#define GFP_TRANSHUGE_LIGHT	((GFP_HIGHUSER_MOVABLE | __GFP_COMP | \
				 __GFP_NOMEMALLOC | __GFP_NOWARN) & ~__GFP_RECLAIM)
#define GFP_TRANSHUGE		(GFP_TRANSHUGE_LIGHT | __GFP_DIRECT_RECLAIM)

#define SLAB_ACCOUNT		((unsigned int)0x04000000U)

struct kmem_cache {
	unsigned int	object_size;
	unsigned int	size;
	unsigned int	flags;
	const char	*name;
};

struct page {
	unsigned long	flags;
};

extern struct page *vmemmap_base;
#define VMEMMAP_START		vmemmap_base
#define vmemmap			((struct page *)VMEMMAP_START)
#define __pfn_to_page(pfn)	(vmemmap + (pfn))
#define __page_to_pfn(page)	(unsigned long)((page) - vmemmap)
#define pfn_to_page		__pfn_to_page
#define page_to_pfn		__page_to_pfn

static inline int get_pageblock_migratetype(const struct page *page)
{
	return (int)(page->flags & 7);
}

enum {
	MM_FILEPAGES,
	MM_ANONPAGES,
	MM_SWAPENTS,
	MM_SHMEMPAGES,
	NR_MM_COUNTERS
};

/* mm_ptr_to_hash()'s; the program's hash, as the kernel's is its own. */
static inline int ptr_to_hashval(const void *ptr, unsigned long *hashval_out)
{
	*hashval_out = ((unsigned long)ptr >> 4) * 0x9e3779b97f4a7c15ul;
	return 0;
}

/* What mmflags.h lists; the flags of a page, of a vma (VM_*), zones... */
enum pageflags {
	PG_locked, PG_writeback, PG_referenced, PG_uptodate, PG_dirty, PG_lru, PG_head,
	PG_waiters, PG_active, PG_workingset, PG_error, PG_slab, PG_owner_priv_1,
	PG_arch_1, PG_reserved, PG_private, PG_private_2, PG_mappedtodisk, PG_reclaim,
	PG_swapbacked, PG_unevictable, PG_mlocked, PG_uncached, PG_hwpoison, PG_young,
	PG_idle, PG_arch_2, PG_skip_kasan_poison,
};

enum zone_type { ZONE_DMA, ZONE_DMA32, ZONE_NORMAL, ZONE_MOVABLE };

enum migratetype { MIGRATE_UNMOVABLE, MIGRATE_MOVABLE, MIGRATE_RECLAIMABLE };

enum compact_priority { COMPACT_PRIO_SYNC_FULL, COMPACT_PRIO_SYNC_LIGHT, COMPACT_PRIO_ASYNC };

enum compact_result {
	COMPACT_NOT_SUITABLE_ZONE, COMPACT_SKIPPED, COMPACT_DEFERRED, COMPACT_NO_SUITABLE_PAGE,
	COMPACT_CONTINUE, COMPACT_COMPLETE, COMPACT_PARTIAL_SKIPPED, COMPACT_CONTENDED,
	COMPACT_SUCCESS,
};

enum lru_list {
	LRU_INACTIVE_ANON, LRU_ACTIVE_ANON, LRU_INACTIVE_FILE, LRU_ACTIVE_FILE, LRU_UNEVICTABLE,
};

#define VM_NONE		0x00000000
#define VM_READ		0x00000001
#define VM_WRITE	0x00000002
#define VM_EXEC		0x00000004
#define VM_SHARED	0x00000008
#define VM_MAYREAD	0x00000010
#define VM_MAYWRITE	0x00000020
#define VM_MAYEXEC	0x00000040
#define VM_MAYSHARE	0x00000080
#define VM_GROWSDOWN	0x00000100
#define VM_UFFD_MISSING	0x00000200
#define VM_PFNMAP	0x00000400
#define VM_UFFD_WP	0x00001000
#define VM_LOCKED	0x00002000
#define VM_IO		0x00004000
#define VM_SEQ_READ	0x00008000
#define VM_RAND_READ	0x00010000
#define VM_DONTCOPY	0x00020000
#define VM_DONTEXPAND	0x00040000
#define VM_LOCKONFAULT	0x00080000
#define VM_ACCOUNT	0x00100000
#define VM_NORESERVE	0x00200000
#define VM_HUGETLB	0x00400000
#define VM_SYNC		0x00800000
#define VM_PAT		0x01000000
#define VM_WIPEONFORK	0x02000000
#define VM_DONTDUMP	0x04000000
#define VM_SOFTDIRTY	0
#define VM_MIXEDMAP	0x10000000
#define VM_HUGEPAGE	0x20000000
#define VM_NOHUGEPAGE	0x40000000
#define VM_MERGEABLE	0x80000000
#define VM_UFFD_MINOR	0x100000000ul

/* ------------------------------------------------------------------
 * File systems and writeback: <linux/fs.h>, <linux/backing-dev.h>,
 * <linux/writeback.h>, <linux/pagemap.h>, <linux/memcontrol.h>
 */
/* Linux 6.18's are an enum: the print fmt keeps the names. */
enum {
	I_DIRTY_SYNC		= (1 << 0),
	I_DIRTY_DATASYNC	= (1 << 1),
	I_DIRTY_PAGES		= (1 << 2),
	I_NEW			= (1 << 3),
	I_WILL_FREE		= (1 << 4),
	I_FREEING		= (1 << 5),
	I_CLEAR			= (1 << 6),
	I_SYNC			= (1 << 7),
	I_REFERENCED		= (1 << 8),
	I_DIRTY_TIME		= (1 << 11),
};

enum wb_reason {
	WB_REASON_BACKGROUND,
	WB_REASON_VMSCAN,
	WB_REASON_SYNC,
	WB_REASON_PERIODIC,
	WB_REASON_LAPTOP_TIMER,
	WB_REASON_FS_FREE_SPACE,
	WB_REASON_FORKER_THREAD,
	WB_REASON_FOREIGN_FLUSH,
	WB_REASON_MAX,
};

enum writeback_sync_modes { WB_SYNC_NONE, WB_SYNC_ALL };

struct super_block {
	dev_t	s_dev;
};

struct address_space;

struct inode {
	umode_t			i_mode;
	dev_t			i_rdev;
	unsigned long		i_ino;
	unsigned long		i_state;
	unsigned long		dirtied_when;
	struct super_block	*i_sb;
	struct address_space	*i_mapping;
	struct backing_dev_info	*bdi;
	struct bdi_writeback	*i_wb;
};

struct address_space {
	struct inode	*host;
	pgoff_t		writeback_index;
};

struct folio {
	pgoff_t			index;
	struct address_space	*mapping;
	struct mem_cgroup	*memcg;
	unsigned long		pfn;		/* folio_pfn() */
	unsigned int		order;		/* folio_order() */
	bool			file_lru;	/* folio_is_file_lru() */
};

struct kernfs_node {
	u64	id;
};

struct cgroup {
	struct kernfs_node	*kn;
};

struct cgroup_subsys_state {
	struct cgroup	*cgroup;
	int		id;
};

struct mem_cgroup {
	struct cgroup_subsys_state	css;
};

struct backing_dev_info {
	u64		id;
	const char	*dev_name;
};

struct bdi_writeback {
	struct backing_dev_info		*bdi;
	struct cgroup_subsys_state	*memcg_css;
	unsigned long			write_bandwidth;
	unsigned long			avg_write_bandwidth;
	unsigned long			dirty_ratelimit;
	unsigned long			balanced_dirty_ratelimit;
};

struct writeback_control {
	long			nr_to_write;
	long			pages_skipped;
	long long		range_start;
	long long		range_end;
	enum writeback_sync_modes sync_mode;
	unsigned		for_kupdate:1;
	unsigned		for_background:1;
	unsigned		tagged_writepages:1;
	unsigned		for_reclaim:1;
	unsigned		range_cyclic:1;
	unsigned		for_sync:1;
	struct bdi_writeback	*wb;
};

/* fs/fs-writeback.c's */
struct wb_writeback_work {
	long			nr_pages;
	struct super_block	*sb;
	enum writeback_sync_modes sync_mode;
	unsigned int		tagged_writepages:1;
	unsigned int		for_kupdate:1;
	unsigned int		range_cyclic:1;
	unsigned int		for_background:1;
	unsigned int		for_sync:1;
	unsigned int		auto_free:1;
	enum wb_reason		reason;
};

struct wb_domain {
	unsigned long	dirty_limit;
};
extern struct wb_domain global_wb_domain;

enum node_stat_item { NR_FILE_DIRTY, NR_WRITEBACK, NR_DIRTIED, NR_WRITTEN, NR_VM_NODE_STAT_ITEMS };
extern unsigned long conformance_node_stat[NR_VM_NODE_STAT_ITEMS];

static inline unsigned long global_node_page_state(enum node_stat_item item)
{
	return conformance_node_stat[item];
}

static inline const char *bdi_dev_name(const struct backing_dev_info *bdi)
{
	return bdi && bdi->dev_name ? bdi->dev_name : "(unknown)";
}

static inline struct backing_dev_info *inode_to_bdi(const struct inode *inode)
{
	return inode ? inode->bdi : NULL;
}

static inline struct bdi_writeback *inode_to_wb(const struct inode *inode)
{
	return inode->i_wb;
}

static inline struct address_space *folio_mapping(const struct folio *folio)
{
	return folio->mapping;
}

static inline struct mem_cgroup *folio_memcg(const struct folio *folio)
{
	return folio->memcg;
}

static inline ino_t cgroup_ino(const struct cgroup *cgrp)
{
	return cgrp->kn->id;
}

/* ------------------------------------------------------------------
 * Block: <linux/blkdev.h>, <linux/blk_types.h>, <linux/buffer_head.h>,
 * <linux/blktrace_api.h>
 */
struct block_device {
	dev_t	bd_dev;
};

struct buffer_head {
	sector_t		b_blocknr;
	size_t			b_size;
	struct block_device	*b_bdev;
};

struct gendisk {
	dev_t	devt;
};

struct request_queue {
	struct gendisk	*disk;
};

struct bvec_iter {
	sector_t	bi_sector;
	unsigned int	bi_size;
};

struct bio {
	struct bio		*bi_next;
	struct block_device	*bi_bdev;
	blk_opf_t		bi_opf;
	blk_status_t		bi_status;
	struct bvec_iter	bi_iter;
};

struct request {
	struct request_queue	*q;
	blk_opf_t		cmd_flags;
	sector_t		__sector;
	unsigned int		__data_len;
	struct bio		*bio;
};

static inline dev_t disk_devt(const struct gendisk *disk)
{
	return disk->devt;
}

static inline dev_t bio_dev(const struct bio *bio)
{
	return bio->bi_bdev->bd_dev;
}

static inline unsigned int bio_sectors(const struct bio *bio)
{
	return bio->bi_iter.bi_size >> 9;
}

static inline sector_t blk_rq_pos(const struct request *rq)
{
	return rq->__sector;
}

static inline unsigned int blk_rq_bytes(const struct request *rq)
{
	return rq->__data_len;
}

static inline unsigned int blk_rq_sectors(const struct request *rq)
{
	return blk_rq_bytes(rq) >> 9;
}

static inline sector_t blk_rq_trace_sector(const struct request *rq)
{
	return blk_rq_pos(rq);
}

static inline unsigned int blk_rq_trace_nr_sectors(const struct request *rq)
{
	return blk_rq_sectors(rq);
}

static inline unsigned int blk_rq_count_bios(const struct request *rq)
{
	unsigned int n = 0;

	for (const struct bio *b = rq->bio; b; b = b->bi_next)
		n++;
	return n;
}

static inline int blk_status_to_errno(blk_status_t status)
{
	return status ? -5 : 0;		/* -EIO */
}

/* block/blk-core.c's: the operation and its flags, as blktrace writes them. */
#define REQ_OP_MASK	0xff
enum req_op { REQ_OP_READ = 0, REQ_OP_WRITE = 1, REQ_OP_FLUSH = 2, REQ_OP_DISCARD = 3 };
#define REQ_SYNC	(1u << 11)
#define REQ_META	(1u << 12)
#define REQ_FUA		(1u << 17)
#define REQ_RAHEAD	(1u << 19)
#define REQ_PREFLUSH	(1u << 18)

static inline void blk_fill_rwbs(char *rwbs, blk_opf_t opf)
{
	int i = 0;

	if (opf & REQ_PREFLUSH)
		rwbs[i++] = 'F';
	switch (opf & REQ_OP_MASK) {
	case REQ_OP_WRITE:
		rwbs[i++] = 'W';
		break;
	case REQ_OP_DISCARD:
		rwbs[i++] = 'D';
		break;
	case REQ_OP_FLUSH:
		rwbs[i++] = 'F';
		break;
	case REQ_OP_READ:
		rwbs[i++] = 'R';
		break;
	default:
		rwbs[i++] = 'N';
	}
	if (opf & REQ_FUA)
		rwbs[i++] = 'F';
	if (opf & REQ_RAHEAD)
		rwbs[i++] = 'A';
	if (opf & REQ_SYNC)
		rwbs[i++] = 'S';
	if (opf & REQ_META)
		rwbs[i++] = 'M';
	rwbs[i] = '\0';
}

static inline void touch_buffer(struct buffer_head *bh)
{
	(void)bh;
}

static inline void mark_buffer_dirty(struct buffer_head *bh)
{
	(void)bh;
}

/* ------------------------------------------------------------------
 * Network: <linux/skbuff.h>, <linux/netdevice.h>, <net/sock.h>,
 * <linux/in.h>, <linux/in6.h>, <net/tcp_states.h>
 */
#define AF_INET		2
#define AF_INET6	10

enum {
	IPPROTO_IP = 0,
	IPPROTO_TCP = 6,
	IPPROTO_UDP = 17,
	IPPROTO_DCCP = 33,
	IPPROTO_SCTP = 132,
	IPPROTO_MPTCP = 262,
};

enum {
	TCP_ESTABLISHED = 1,
	TCP_SYN_SENT,
	TCP_SYN_RECV,
	TCP_FIN_WAIT1,
	TCP_FIN_WAIT2,
	TCP_TIME_WAIT,
	TCP_CLOSE,
	TCP_CLOSE_WAIT,
	TCP_LAST_ACK,
	TCP_LISTEN,
	TCP_CLOSING,
	TCP_NEW_SYN_RECV,
	TCP_MAX_STATES
};

enum { SK_MEM_SEND, SK_MEM_RECV };

struct in6_addr {
	union {
		__u8	u6_addr8[16];
		__be16	u6_addr16[8];
		__be32	u6_addr32[4];
	} in6_u;
};
#define s6_addr		in6_u.u6_addr8
#define s6_addr32	in6_u.u6_addr32

struct sockaddr_in6 {
	unsigned short	sin6_family;
	__be16		sin6_port;
	__be32		sin6_flowinfo;
	struct in6_addr	sin6_addr;
	__u32		sin6_scope_id;
};

static inline void ipv6_addr_set_v4mapped(const __be32 addr, struct in6_addr *v4mapped)
{
	v4mapped->s6_addr32[0] = 0;
	v4mapped->s6_addr32[1] = 0;
	v4mapped->s6_addr32[2] = __builtin_bswap32(0x0000ffff);
	v4mapped->s6_addr32[3] = addr;
}

struct device;

struct net_device {
	char		name[16];
	const char	*drivername;
	struct device	*dev_parent;
	int		ifindex;
	unsigned char	addr_len;
};

static inline const char *netdev_drivername(const struct net_device *dev)
{
	return dev->drivername ? dev->drivername : "";
}

struct skb_shared_info {
	__u8		tx_flags;
	unsigned char	nr_frags;
	unsigned short	gso_size;
	unsigned short	gso_segs;
	unsigned int	gso_type;
};

struct sk_buff {
	struct net_device	*dev;
	unsigned int		len;
	unsigned int		data_len;
	__u16			queue_mapping;
	__u8			ip_summed;
	__u8			l4_hash;
	__be16			vlan_proto;
	__u16			vlan_tci;
	__be16			protocol;
	__u16			transport_header;
	__u16			network_header;
	__u16			mac_header;
	__u32			hash;
	__u32			mark;
	unsigned int		napi_id;
	unsigned int		truesize;
	unsigned char		*head;
	unsigned char		*data;
	struct skb_shared_info	shinfo;
};

#define VLAN_TAG_PRESENT	0x1000
static inline bool skb_vlan_tag_present(const struct sk_buff *skb)
{
	return skb->vlan_proto != 0;
}

static inline __u16 skb_vlan_tag_get(const struct sk_buff *skb)
{
	return skb->vlan_tci;
}

static inline struct skb_shared_info *skb_shinfo(const struct sk_buff *skb)
{
	return (struct skb_shared_info *)&skb->shinfo;
}

static inline bool skb_transport_header_was_set(const struct sk_buff *skb)
{
	return skb->transport_header != (__u16)~0U;
}

static inline bool skb_mac_header_was_set(const struct sk_buff *skb)
{
	return skb->mac_header != (__u16)~0U;
}

static inline unsigned char *skb_mac_header(const struct sk_buff *skb)
{
	return skb->head + skb->mac_header;
}

static inline int skb_network_offset(const struct sk_buff *skb)
{
	return (int)(skb->head + skb->network_header - skb->data);
}

static inline int skb_transport_offset(const struct sk_buff *skb)
{
	return (int)(skb->head + skb->transport_header - skb->data);
}

struct proto {
	char	name[32];
	long	sysctl_mem[3];
	int	sysctl_rmem[3];
	int	sysctl_wmem[3];
};

struct sock {
	unsigned short		sk_family;
	__u16			sk_protocol;
	unsigned char		sk_state;
	int			sk_err;
	int			sk_rcvbuf;
	atomic_t		sk_rmem_alloc;
	refcount_t		sk_wmem_alloc;
	int			sk_wmem_queued;
	struct in6_addr		sk_v6_daddr;
	struct in6_addr		sk_v6_rcv_saddr;
	struct proto		*sk_prot;
	u64			sk_cookie;
};

struct ipv6_pinfo {
	struct in6_addr	saddr;
};

struct inet_sock {
	struct sock		sk;
	struct ipv6_pinfo	*pinet6;
	__be32			inet_saddr;
	__be32			inet_daddr;
	__be16			inet_sport;
	__be16			inet_dport;
};

static inline struct inet_sock *inet_sk(const struct sock *sk)
{
	return (struct inet_sock *)sk;
}

static inline int sk_get_rmem0(const struct sock *sk, const struct proto *proto)
{
	(void)sk;
	return proto->sysctl_rmem[0];
}

static inline int sk_get_wmem0(const struct sock *sk, const struct proto *proto)
{
	(void)sk;
	return proto->sysctl_wmem[0];
}

/* ------------------------------------------------------------------
 * Devices and power: <linux/device.h>, <linux/pm.h>, <linux/pm_qos.h>,
 * <linux/cpufreq.h>
 */
struct device {
	const char	*init_name;
	const char	*driver_name;
	struct device	*parent;
};

static inline const char *dev_name(const struct device *dev)
{
	return dev->init_name;
}

static inline const char *dev_driver_string(const struct device *dev)
{
	return dev->driver_name ? dev->driver_name : "";
}

#define PM_EVENT_ON		0x0000
#define PM_EVENT_FREEZE		0x0001
#define PM_EVENT_SUSPEND	0x0002
#define PM_EVENT_HIBERNATE	0x0004
#define PM_EVENT_QUIESCE	0x0008
#define PM_EVENT_RESUME		0x0010
#define PM_EVENT_THAW		0x0020
#define PM_EVENT_RESTORE	0x0040
#define PM_EVENT_RECOVER	0x0080

enum pm_qos_req_action {
	PM_QOS_ADD_REQ,
	PM_QOS_UPDATE_REQ,
	PM_QOS_REMOVE_REQ
};

enum dev_pm_qos_req_type {
	DEV_PM_QOS_RESUME_LATENCY = 1,
	DEV_PM_QOS_LATENCY_TOLERANCE,
	DEV_PM_QOS_MIN_FREQUENCY,
	DEV_PM_QOS_MAX_FREQUENCY,
	DEV_PM_QOS_FLAGS,
};

struct cpufreq_policy {
	unsigned int	cpu;
	unsigned int	min;
	unsigned int	max;
};

/* ------------------------------------------------------------------
 * RCU: <linux/rcupdate.h>, kernel/rcu/rcu_segcblist.h
 */
struct rcu_head {
	struct rcu_head	*next;
	void		(*func)(struct rcu_head *head);
};

#define RCU_CBLIST_NSEGS	4
struct rcu_segcblist {
	long		seglen[RCU_CBLIST_NSEGS];
	unsigned long	gp_seq[RCU_CBLIST_NSEGS];
};

/* ------------------------------------------------------------------
 * System calls: <asm/ptrace.h>, <asm/syscall.h>
 */
struct pt_regs {
	unsigned long	di, si, dx, r10, r8, r9;
	unsigned long	orig_ax;
};

static inline long syscall_get_nr(struct task_struct *task, struct pt_regs *regs)
{
	(void)task;
	return (long)regs->orig_ax;
}

/*
 * It stores into the record (sys_enter's args), which is 4-byte aligned
 * as on x86-64, where the kernel's stores the same way: UBSan is told, as
 * for the probe itself (stage6's __ustrace_record_access).
 */
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 8)
__attribute__((__no_sanitize__("alignment")))
#endif
static inline void
syscall_get_arguments(struct task_struct *task, struct pt_regs *regs, unsigned long *args)
{
	(void)task;
	args[0] = regs->di;
	args[1] = regs->si;
	args[2] = regs->dx;
	args[3] = regs->r10;
	args[4] = regs->r8;
	args[5] = regs->r9;
}

/* TRACE_EVENT_FN()'s callbacks: the kernel's set a task flag. */
static inline int syscall_regfunc(void)
{
	return 0;
}

static inline void syscall_unregfunc(void)
{
}

/* ------------------------------------------------------------------
 * TCP and its addresses: <linux/in.h>, <linux/ip.h>, <linux/ipv6.h>,
 * <linux/tcp.h>, <net/tcp.h>, <net/inet_sock.h>, <net/request_sock.h>
 */
struct in_addr {
	__be32	s_addr;
};

struct sockaddr_in {
	sa_family_t	sin_family;
	__be16		sin_port;
	struct in_addr	sin_addr;
	unsigned char	__pad[8];
};

struct iphdr {
	__u8	ihl:4,
		version:4;
	__u8	tos;
	__be16	tot_len;
	__be16	id;
	__be16	frag_off;
	__u8	ttl;
	__u8	protocol;
	__u16	check;
	__be32	saddr;
	__be32	daddr;
};

struct ipv6hdr {
	__u8		priority:4,
			version:4;
	__u8		flow_lbl[3];
	__be16		payload_len;
	__u8		nexthdr;
	__u8		hop_limit;
	struct in6_addr	saddr;
	struct in6_addr	daddr;
};

struct tcphdr {
	__be16	source;
	__be16	dest;
	__be32	seq;
	__be32	ack_seq;
	__u16	res1:4,
		doff:4,
		fin:1,
		syn:1,
		rst:1,
		psh:1,
		ack:1,
		urg:1,
		ece:1,
		cwr:1;
	__be16	window;
	__u16	check;
	__be16	urg_ptr;
};

static inline struct iphdr *ip_hdr(const struct sk_buff *skb)
{
	return (struct iphdr *)(skb->head + skb->network_header);
}

static inline struct ipv6hdr *ipv6_hdr(const struct sk_buff *skb)
{
	return (struct ipv6hdr *)(skb->head + skb->network_header);
}

static inline unsigned int __tcp_hdrlen(const struct tcphdr *th)
{
	return th->doff * 4;
}

static inline struct ipv6_pinfo *inet6_sk(const struct sock *sk)
{
	return inet_sk(sk)->pinet6;
}

struct tcp_sock {
	struct inet_sock	inet;
	u32			snd_nxt;
	u32			snd_una;
	u32			snd_wnd;
	u32			rcv_wnd;
	u32			srtt_us;
	u32			snd_cwnd;
	u32			snd_ssthresh;
};

static inline struct tcp_sock *tcp_sk(const struct sock *sk)
{
	return (struct tcp_sock *)sk;
}

static inline u32 tcp_snd_cwnd(const struct tcp_sock *tp)
{
	return tp->snd_cwnd;
}

/* Out of CWR and Recovery: the larger of ssthresh and 3/4 of cwnd. */
static inline u32 tcp_current_ssthresh(const struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	u32 three_quarters = (tp->snd_cwnd >> 1) + (tp->snd_cwnd >> 2);

	return tp->snd_ssthresh > three_quarters ? tp->snd_ssthresh : three_quarters;
}

static inline u64 sock_gen_cookie(struct sock *sk)
{
	return sk->sk_cookie;
}

struct request_sock {
	const struct sock	*rsk_listener;
};

struct inet_request_sock {
	struct request_sock	req;
	__u16			ir_num;
	__be16			ir_rmt_port;
	__be32			ir_loc_addr;
	__be32			ir_rmt_addr;
	struct in6_addr		ir_v6_loc_addr;
	struct in6_addr		ir_v6_rmt_addr;
};

static inline struct inet_request_sock *inet_rsk(const struct request_sock *sk)
{
	return (struct inet_request_sock *)sk;
}

/* ------------------------------------------------------------------
 * Neighbours: <uapi/linux/neighbour.h>, <net/neighbour.h>
 */
#define MAX_ADDR_LEN	32

#define NUD_INCOMPLETE	0x01
#define NUD_REACHABLE	0x02
#define NUD_STALE	0x04
#define NUD_DELAY	0x08
#define NUD_PROBE	0x10
#define NUD_FAILED	0x20
#define NUD_NOARP	0x40
#define NUD_PERMANENT	0x80

struct neigh_table {
	int		family;
	atomic_t	gc_entries;
};

struct neighbour {
	struct neigh_table	*tbl;
	unsigned long		confirmed;
	unsigned long		updated;
	refcount_t		refcnt;
	unsigned long		used;
	u8			nud_state;
	u8			type;
	u8			dead;
	u32			flags;
	unsigned char		ha[MAX_ADDR_LEN];
	struct net_device	*dev;
	u8			primary_key[16];
};

/* ------------------------------------------------------------------
 * sk_buffs, NAPI, queueing disciplines: <net/dropreason.h>,
 * <linux/netdevice.h>, <uapi/linux/pkt_sched.h>, <net/sch_generic.h>
 */
/* The first of 6.1's drop reasons (kfree_skb's list differs in 6.18 anyway). */
#define DEFINE_DROP_REASON(FN, FNe)	\
	FN(NOT_SPECIFIED)		\
	FN(NO_SOCKET)			\
	FN(PKT_TOO_SMALL)		\
	FN(TCP_CSUM)			\
	FNe(MAX)

enum skb_drop_reason {
	SKB_NOT_DROPPED_YET = 0,
	SKB_DROP_REASON_NOT_SPECIFIED,
	SKB_DROP_REASON_NO_SOCKET,
	SKB_DROP_REASON_PKT_TOO_SMALL,
	SKB_DROP_REASON_TCP_CSUM,
	SKB_DROP_REASON_MAX,
};

struct napi_struct {
	struct net_device	*dev;
};

#define TC_H_MAJ_MASK	(0xFFFF0000U)
#define TC_H_MIN_MASK	(0x0000FFFFU)
#define TC_H_MAJ(h)	((h)&TC_H_MAJ_MASK)
#define TC_H_MIN(h)	((h)&TC_H_MIN_MASK)

struct netdev_queue {
	struct net_device	*dev;
	unsigned long		state;
};

struct Qdisc_ops {
	char	id[16];
};

struct Qdisc {
	u32			handle;
	u32			parent;
	const struct Qdisc_ops	*ops;
	struct netdev_queue	*dev_queue;
};

static inline struct net_device *qdisc_dev(const struct Qdisc *qdisc)
{
	return qdisc->dev_queue->dev;
}

/* ------------------------------------------------------------------
 * Memory management: <linux/mm.h>, <linux/mmzone.h>, <linux/compaction.h>,
 * <linux/migrate_mode.h>, <linux/shrinker.h>, mm/internal.h, mm/vmscan.c
 */
static inline unsigned long get_mm_counter(struct mm_struct *mm, int member)
{
	return (unsigned long)mm->rss[member];
}

static inline unsigned long mm_pgtables_bytes(const struct mm_struct *mm)
{
	return (unsigned long)mm->pgtables_bytes;
}

static inline unsigned long folio_pfn(const struct folio *folio)
{
	return folio->pfn;
}

static inline unsigned int folio_order(const struct folio *folio)
{
	return folio->order;
}

static inline bool folio_is_file_lru(const struct folio *folio)
{
	return folio->file_lru;
}

struct zone {
	int		node;
	enum zone_type	idx;
	unsigned int	compact_considered;
	unsigned int	compact_defer_shift;
	int		compact_order_failed;
};

struct zoneref {
	struct zone	*zone;
	int		zone_idx;
};

static inline int zone_to_nid(const struct zone *zone)
{
	return zone->node;
}

#define zone_idx(zone)		((zone)->idx)

static inline bool compaction_failed(enum compact_result result)
{
	return result == COMPACT_COMPLETE;
}

static inline bool compaction_withdrawn(enum compact_result result)
{
	return result == COMPACT_SKIPPED || result == COMPACT_DEFERRED ||
	       result == COMPACT_CONTENDED || result == COMPACT_PARTIAL_SKIPPED;
}

struct compact_control {
	unsigned long	nr_migratepages;
	unsigned long	free_pfn;
	unsigned long	migrate_pfn;
};

enum migrate_mode { MIGRATE_ASYNC, MIGRATE_SYNC_LIGHT, MIGRATE_SYNC };

enum migrate_reason {
	MR_COMPACTION, MR_MEMORY_FAILURE, MR_MEMORY_HOTPLUG, MR_SYSCALL, MR_MEMPOLICY_MBIND,
	MR_NUMA_MISPLACED, MR_CONTIG_RANGE, MR_LONGTERM_PIN, MR_DEMOTION, MR_TYPES
};

typedef unsigned int isolate_mode_t;
typedef unsigned int uid_t;

struct shrink_control {
	gfp_t	gfp_mask;
	int	nid;
};

struct shrinker {
	unsigned long	(*scan_objects)(struct shrinker *, struct shrink_control *sc);
};

struct reclaim_stat {
	unsigned int	nr_dirty;
	unsigned int	nr_unqueued_dirty;
	unsigned int	nr_congested;
	unsigned int	nr_writeback;
	unsigned int	nr_immediate;
	unsigned int	nr_pageout;
	unsigned int	nr_activate[2];
	unsigned int	nr_ref_keep;
	unsigned int	nr_unmap_fail;
	unsigned int	nr_lazyfree_fail;
};

enum vmscan_throttle_state {
	VMSCAN_THROTTLE_WRITEBACK,
	VMSCAN_THROTTLE_ISOLATED,
	VMSCAN_THROTTLE_NOPROGRESS,
	VMSCAN_THROTTLE_CONGESTED,
	NR_VMSCAN_THROTTLE,
};

/* <linux/errseq.h>, <linux/fs.h> */
typedef u32 errseq_t;

struct file {
	struct address_space	*f_mapping;
	errseq_t		f_wb_err;
};

/* ------------------------------------------------------------------
 * <linux/init.h>, <linux/io_uring_types.h>, <uapi/linux/io_uring.h>
 */
typedef int (*initcall_t)(void);

#define IORING_SETUP_SQPOLL	(1U << 1)

struct io_ring_ctx {
	unsigned int	flags;
};

struct io_cqe {
	u64	user_data;
	s32	res;
	u32	flags;
};

struct io_wq_work {
	unsigned int	flags;
};

struct io_kiocb {
	struct io_ring_ctx	*ctx;
	u8			opcode;
	unsigned int		flags;
	struct io_cqe		cqe;
	struct io_wq_work	work;
};

struct io_uring_sqe {
	__u8	opcode;
	__u8	flags;
	__u16	ioprio;
	__s32	fd;
	__u64	off;
	__u64	addr;
	__u32	len;
	__u32	poll32_events;
	__u64	user_data;
	__u16	buf_index;
	__u16	personality;
	__u32	file_index;
	__u64	addr3;
	__u64	__pad2[1];
};

/* io_uring/opdef.c's names, of the opcodes fire.c passes. */
static inline const char *io_uring_get_opcode(u8 opcode)
{
	switch (opcode) {
	case 0: return "NOP";
	case 1: return "READV";
	case 2: return "WRITEV";
	case 22: return "READ";
	case 23: return "WRITE";
	}
	return "INVALID";
}

/* ------------------------------------------------------------------
 * DAX faults: <linux/mm_types.h>, <linux/mm.h>, <linux/pfn_t.h>
 */
typedef unsigned int vm_fault_t;

enum vm_fault_reason {
	VM_FAULT_OOM            = (__force vm_fault_t)0x000001,
	VM_FAULT_SIGBUS         = (__force vm_fault_t)0x000002,
	VM_FAULT_MAJOR          = (__force vm_fault_t)0x000004,
	VM_FAULT_WRITE          = (__force vm_fault_t)0x000008,
	VM_FAULT_HWPOISON       = (__force vm_fault_t)0x000010,
	VM_FAULT_HWPOISON_LARGE = (__force vm_fault_t)0x000020,
	VM_FAULT_SIGSEGV        = (__force vm_fault_t)0x000040,
	VM_FAULT_NOPAGE         = (__force vm_fault_t)0x000100,
	VM_FAULT_LOCKED         = (__force vm_fault_t)0x000200,
	VM_FAULT_RETRY          = (__force vm_fault_t)0x000400,
	VM_FAULT_FALLBACK       = (__force vm_fault_t)0x000800,
	VM_FAULT_DONE_COW       = (__force vm_fault_t)0x001000,
	VM_FAULT_NEEDDSYNC      = (__force vm_fault_t)0x002000,
	VM_FAULT_COMPLETED      = (__force vm_fault_t)0x004000,
};

/* 6.1's lists (6.18 names VM_FAULT_COMPLETED and FAULT_FLAG_VMA_LOCK too). */
#define VM_FAULT_RESULT_TRACE \
	{ VM_FAULT_OOM,			"OOM" }, \
	{ VM_FAULT_SIGBUS,		"SIGBUS" }, \
	{ VM_FAULT_MAJOR,		"MAJOR" }, \
	{ VM_FAULT_WRITE,		"WRITE" }, \
	{ VM_FAULT_HWPOISON,		"HWPOISON" }, \
	{ VM_FAULT_HWPOISON_LARGE,	"HWPOISON_LARGE" }, \
	{ VM_FAULT_SIGSEGV,		"SIGSEGV" }, \
	{ VM_FAULT_NOPAGE,		"NOPAGE" }, \
	{ VM_FAULT_LOCKED,		"LOCKED" }, \
	{ VM_FAULT_RETRY,		"RETRY" }, \
	{ VM_FAULT_FALLBACK,		"FALLBACK" }, \
	{ VM_FAULT_DONE_COW,		"DONE_COW" }, \
	{ VM_FAULT_NEEDDSYNC,		"NEEDDSYNC" }

enum fault_flag {
	FAULT_FLAG_WRITE =		1 << 0,
	FAULT_FLAG_MKWRITE =		1 << 1,
	FAULT_FLAG_ALLOW_RETRY =	1 << 2,
	FAULT_FLAG_RETRY_NOWAIT =	1 << 3,
	FAULT_FLAG_KILLABLE =		1 << 4,
	FAULT_FLAG_TRIED =		1 << 5,
	FAULT_FLAG_USER =		1 << 6,
	FAULT_FLAG_REMOTE =		1 << 7,
	FAULT_FLAG_INSTRUCTION =	1 << 8,
	FAULT_FLAG_INTERRUPTIBLE =	1 << 9,
};

#define FAULT_FLAG_TRACE \
	{ FAULT_FLAG_WRITE,		"WRITE" }, \
	{ FAULT_FLAG_MKWRITE,		"MKWRITE" }, \
	{ FAULT_FLAG_ALLOW_RETRY,	"ALLOW_RETRY" }, \
	{ FAULT_FLAG_RETRY_NOWAIT,	"RETRY_NOWAIT" }, \
	{ FAULT_FLAG_KILLABLE,		"KILLABLE" }, \
	{ FAULT_FLAG_TRIED,		"TRIED" }, \
	{ FAULT_FLAG_USER,		"USER" }, \
	{ FAULT_FLAG_REMOTE,		"REMOTE" }, \
	{ FAULT_FLAG_INSTRUCTION,	"INSTRUCTION" }, \
	{ FAULT_FLAG_INTERRUPTIBLE,	"INTERRUPTIBLE" }

struct vm_area_struct {
	unsigned long	vm_start;
	unsigned long	vm_end;
	unsigned long	vm_flags;
};

struct vm_fault {
	struct vm_area_struct	*vma;
	enum fault_flag		flags;
	pgoff_t			pgoff;
	unsigned long		address;
};

#define BITS_PER_LONG_LONG	64
#define PAGE_SIZE		(_AC(1, UL) << PAGE_SHIFT)
#define PAGE_MASK		(~(PAGE_SIZE-1))

typedef struct {
	u64	val;
} pfn_t;

#define PFN_FLAGS_MASK (((u64) (~PAGE_MASK)) << (BITS_PER_LONG_LONG - PAGE_SHIFT))
#define PFN_SG_CHAIN (1ULL << (BITS_PER_LONG_LONG - 1))
#define PFN_SG_LAST (1ULL << (BITS_PER_LONG_LONG - 2))
#define PFN_DEV (1ULL << (BITS_PER_LONG_LONG - 3))
#define PFN_MAP (1ULL << (BITS_PER_LONG_LONG - 4))
#define PFN_SPECIAL (1ULL << (BITS_PER_LONG_LONG - 5))

#define PFN_FLAGS_TRACE \
	{ PFN_SPECIAL,	"SPECIAL" }, \
	{ PFN_SG_CHAIN,	"SG_CHAIN" }, \
	{ PFN_SG_LAST,	"SG_LAST" }, \
	{ PFN_DEV,	"DEV" }, \
	{ PFN_MAP,	"MAP" }

/* ------------------------------------------------------------------
 * CPU masks: <linux/cpumask.h>
 */
extern unsigned int nr_cpu_ids;
#define nr_cpumask_bits		nr_cpu_ids
#define NR_CPUS			64

struct cpumask {
	unsigned long	bits[NR_CPUS / 64];
};

#define cpumask_bits(maskp)	((maskp)->bits)

/* ------------------------------------------------------------------
 * Thermal zones: <linux/thermal.h>
 */
struct thermal_zone_device {
	int	id;
};

/* ------------------------------------------------------------------
 * I2C and SMBus: <linux/i2c.h>, <uapi/linux/i2c.h>
 */
#define I2C_M_RD		0x0001
#define I2C_SMBUS_BLOCK_MAX	32

union i2c_smbus_data {
	__u8	byte;
	__u16	word;
	__u8	block[I2C_SMBUS_BLOCK_MAX + 2];
};

#define I2C_SMBUS_READ		1
#define I2C_SMBUS_WRITE		0

#define I2C_SMBUS_QUICK		    0
#define I2C_SMBUS_BYTE		    1
#define I2C_SMBUS_BYTE_DATA	    2
#define I2C_SMBUS_WORD_DATA	    3
#define I2C_SMBUS_PROC_CALL	    4
#define I2C_SMBUS_BLOCK_DATA	    5
#define I2C_SMBUS_I2C_BLOCK_BROKEN  6
#define I2C_SMBUS_BLOCK_PROC_CALL   7
#define I2C_SMBUS_I2C_BLOCK_DATA    8

struct i2c_msg {
	__u16	addr;
	__u16	flags;
	__u16	len;
	__u8	*buf;
};

struct i2c_adapter {
	int	nr;
};

/* ------------------------------------------------------------------
 * <linux/printk.h>'s va_format
 */
struct va_format {
	const char	*fmt;
	va_list		*va;
};

#endif /* _CONFORMANCE_KSTUBS_H */
