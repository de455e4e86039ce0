// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The tracepoint core: probe arrays, their RCU publication, and the
 * registry of tracepoint definitions.
 *
 * Terminology:
 *   definition  a struct tracepoint emitted by DEFINE_TRACE(); its
 *               constructor announces it with __ustrace_tracepoint_define()
 *   probe       a function attached to a tracepoint, with a data pointer
 *               and a priority
 *   object      the executable or a shared object, identified by the
 *               address of something inside it ("anchor")
 *
 * A tracepoint's probes are an array terminated by a NULL func, published
 * with rcu_assign_pointer() and read by the firing thread inside an RCU
 * read-side critical section (tp_rcu.c: threads take a reader record on
 * first use, so any thread of the host may fire).  Writers copy the array,
 * publish the copy and queue the old one; queued arrays are freed after a
 * grace period by tracepoint_synchronize_unregister(), or by the writer
 * that finds TP_DEFER_MAX of them queued.  As in the kernel, registering
 * and unregistering do not wait for readers (a grace period can take
 * milliseconds while threads keep firing); only that batch flush, done
 * outside the mutex and never inside a read-side critical section, does.
 *
 * Lock order: tracepoints_mutex, then jump_label_mutex (kernel/fork.c has
 * the library's whole order).
 */
#define __USTRACE_CORE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/tracepoint.h>
#include "internal.h"
#include "tp_rcu.h"

/* One definition of a tracepoint name seen at load time. */
struct tp_def {
	struct tracepoint *tp;
	const char *signature;	/* as the defining object spelled it */
	char *owner;		/* path of the defining object */
	int refs;		/* constructors that named this struct */
	bool conflict;		/* left out of the name space */
	struct tp_def *next;
};

#define OBJECT_MAX_RANGES 8

/* An object that includes <linux/tracepoint.h>, while it is loaded. */
struct tp_object {
	unsigned long base;	/* load base, from dladdr() */
	int refs;
	int nr_ranges;
	unsigned long start[OBJECT_MAX_RANGES];
	unsigned long end[OBJECT_MAX_RANGES];
	struct tp_object *next;
};

/*
 * A probe array as allocated: the link that queues it for freeing lives in
 * front of the entries, so that retiring an array never allocates.
 *
 *   +-------------+-----------------+-----+------------------+
 *   | next (free) | tracepoint_func | ... | { NULL, NULL, 0 } |
 *   +-------------+-----------------+-----+------------------+
 *                 ^ tp->funcs
 */
struct tp_array {
	struct tp_array *next;
	struct tracepoint_func funcs[];
};

static pthread_mutex_t tracepoints_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct tp_def *tp_defs;
static struct tp_object *tp_objects;
static struct tp_array *tp_deferred;
static unsigned int tp_nr_deferred;

/* Old arrays a writer may leave queued before it waits and frees them. */
#define TP_DEFER_MAX 64
static bool process_exiting;
static pthread_once_t tp_once = PTHREAD_ONCE_INIT;

/*
 * Stands in for a probe that was removed while no memory was left to copy
 * the array: unregistration never fails for lack of memory.
 */
static void tp_stub_func(void)
{
}

static void tp_mark_exiting(void *unused __attribute__((__unused__)))
{
	__atomic_store_n(&process_exiting, true, __ATOMIC_RELAXED);
}

/*
 * fork(): level USTRACE_FORK_TRACEPOINTS, and the read side's table at
 * USTRACE_FORK_RCU (tp_rcu.c).  Writers hold tracepoints_mutex across the
 * jump label updates, and across a grace period only when out of memory;
 * the event mutex is outside.
 */
USTRACE_FORK_MUTEX_OPS(tp, &tracepoints_mutex);

static void tp_init_once(void)
{
	/*
	 * exit() runs atexit handlers before the destructors of the loaded
	 * objects; this one tells tp_object_release() not to bother detaching
	 * probes from objects that are not going to be unmapped.
	 */
	ustrace_atexit(tp_mark_exiting);
	ustrace_fork_register(USTRACE_FORK_TRACEPOINTS, &tp_fork_ops);
	tp_rcu_init();
}

static void tp_init(void)
{
	pthread_once(&tp_once, tp_init_once);
}

/* ---- RCU ------------------------------------------------------------ */

/*
 * ThreadSanitizer cannot see a grace period: to it, freeing an old probe
 * array races with the reader that loaded it before the grace period.  The
 * annotations state the order tp_rcu.c guarantees: everything a reader did
 * before its read_unlock happens before what the writer does after
 * tp_rcu_synchronize().  (ThreadSanitizer builds of a program call these
 * two functions instead of inlining the read side.)
 */
#ifdef USTRACE_TSAN	/* internal.h */
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
static char tsan_grace_period;
# define tsan_reader_done()	__tsan_release(&tsan_grace_period)
# define tsan_grace_period_done() __tsan_acquire(&tsan_grace_period)
#else
# define tsan_reader_done()	do { } while (0)
# define tsan_grace_period_done() do { } while (0)
#endif

static void tp_synchronize_rcu(void)
{
	tp_rcu_synchronize();
	tsan_grace_period_done();
}

void __ustrace_tp_read_lock(void)
{
	tp_rcu_read_lock();
}

void __ustrace_tp_read_unlock(void)
{
	tsan_reader_done();
	tp_rcu_read_unlock();
}

static bool tp_in_read_side(void)
{
	return tp_rcu_read_ongoing();
}

static struct tp_array *to_array(struct tracepoint_func *funcs)
{
	return (struct tp_array *)((char *)funcs - offsetof(struct tp_array, funcs));
}

/* An array for @n probes plus the terminator, or NULL. */
static struct tracepoint_func *tp_alloc_funcs(int n)
{
	struct tp_array *a = malloc(sizeof(*a) +
				    (n + 1) * sizeof(struct tracepoint_func));

	return a ? a->funcs : NULL;
}

static void tp_free_list(struct tp_array *list)
{
	while (list) {
		struct tp_array *next = list->next;

		free(list);
		list = next;
	}
}

/*
 * Queue @old for freeing after a grace period.  Called with
 * tracepoints_mutex held; tp_release_flush() does the waiting later.
 */
static void tp_defer_free(struct tracepoint_func *old)
{
	struct tp_array *a;

	if (!old)
		return;
	a = to_array(old);
	a->next = tp_deferred;
	tp_deferred = a;
	__atomic_store_n(&tp_nr_deferred, tp_nr_deferred + 1, __ATOMIC_RELAXED);
}

/*
 * Wait for a grace period and free what was queued before it.  Must be
 * called without tracepoints_mutex: a probe that is being waited for may
 * itself want the mutex.  Inside a read-side section nothing can be waited
 * for; the list stays for the next caller.
 */
static void tp_release_flush(void)
{
	struct tp_array *list;

	if (tp_in_read_side())
		return;
	pthread_mutex_lock(&tracepoints_mutex);
	list = tp_deferred;
	tp_deferred = NULL;
	__atomic_store_n(&tp_nr_deferred, 0, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&tracepoints_mutex);
	if (!list)
		return;
	tp_synchronize_rcu();
	tp_free_list(list);
}

/* After a register or unregister: flush only when the queue is long. */
static void tp_release_maybe(void)
{
	if (__atomic_load_n(&tp_nr_deferred, __ATOMIC_RELAXED) >= TP_DEFER_MAX)
		tp_release_flush();
}

/**
 * tracepoint_synchronize_unregister - wait until removed probes are idle
 *
 * When it returns, no thread is still running a probe that was
 * unregistered before the call, and the memory of replaced probe arrays has
 * been given back.  Call it before freeing a probe's data or unloading the
 * object that holds its code.
 *
 * Context: may sleep.  Must not be called from a probe (a read-side
 * critical section cannot wait for itself); there it returns at once and
 * warns.
 */
void tracepoint_synchronize_unregister(void)
{
	if (tp_in_read_side()) {
		ustrace_warn_once("ustrace: tracepoint_synchronize_unregister() "
				  "called from a probe; not waiting\n");
		return;
	}
	tp_synchronize_rcu();
	tp_release_flush();
}

/* ---- probe arrays ----------------------------------------------------- */

static int nr_funcs(const struct tracepoint_func *funcs)
{
	int n = 0;

	while (funcs && funcs[n].func)
		n++;
	return n;
}

static void tp_publish(struct tracepoint *tp, struct tracepoint_func *funcs)
{
	/* Pairs with the __ATOMIC_CONSUME load in __ustrace_do_<name>(). */
	__atomic_store_n(&tp->funcs, funcs, __ATOMIC_RELEASE);
}

/*
 * Insert @fn before the first probe of lower priority, so that equal
 * priorities keep their registration order.  Stubs left by failed
 * allocations are dropped on the way.
 */
static int tp_add_func(struct tracepoint *tp, void *probe, void *data,
		       int prio)
{
	struct tracepoint_func *old = tp->funcs, *new;
	int i, n = nr_funcs(old), pos = -1, j = 0;

	for (i = 0; i < n; i++)
		if (old[i].func == probe && old[i].data == data)
			return -EEXIST;
	new = tp_alloc_funcs(n + 1);
	if (!new)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (old[i].func == (void *)tp_stub_func)
			continue;
		if (pos < 0 && old[i].prio < prio)
			pos = j++;
		new[j++] = old[i];
	}
	if (pos < 0)
		pos = j++;
	new[pos].func = probe;
	new[pos].data = data;
	new[pos].prio = prio;
	new[j].func = NULL;
	new[j].data = NULL;
	new[j].prio = 0;

	if (!old && tp->regfunc) {
		int ret = tp->regfunc();

		if (ret < 0) {
			free(to_array(new));
			return ret;
		}
	}
	tp_publish(tp, new);
	if (!old)
		static_key_slow_inc(&tp->key);
	tp_defer_free(old);
	return 0;
}

/* Is @i the last live (non-stub) probe of @old? */
static bool tp_only_probe(const struct tracepoint_func *old, int n, int i)
{
	int k;

	for (k = 0; k < n; k++)
		if (k != i && old[k].func != (void *)tp_stub_func)
			return false;
	return true;
}

static void tp_remove_index(struct tracepoint *tp, int i)
{
	struct tracepoint_func *old = tp->funcs, *new;
	int n = nr_funcs(old), k, j = 0;

	if (tp_only_probe(old, n, i)) {
		static_key_slow_dec(&tp->key);
		tp_publish(tp, NULL);
		if (tp->unregfunc)
			tp->unregfunc();
		tp_defer_free(old);
		return;
	}
	new = tp_alloc_funcs(n - 1);
	if (!new) {
		/* Readers see the probe or the stub, either is fine. */
		__atomic_store_n(&old[i].func, (void *)tp_stub_func,
				 __ATOMIC_RELEASE);
		return;
	}
	for (k = 0; k < n; k++)
		if (k != i && old[k].func != (void *)tp_stub_func)
			new[j++] = old[k];
	new[j].func = NULL;
	new[j].data = NULL;
	new[j].prio = 0;
	tp_publish(tp, new);
	tp_defer_free(old);
}

/**
 * tracepoint_probe_register_prio - attach a probe with a priority
 * @tp:    the tracepoint
 * @probe: the probe; its prototype must be void (void *data, TP_PROTO...)
 * @data:  passed to the probe as its first argument
 * @prio:  probes with a higher priority run first
 *
 * Return: 0; -EINVAL for a NULL @tp or @probe; -EEXIST if this (probe,
 * data) pair is already attached; -ENOMEM (the probes are unchanged); or
 * the error returned by the tracepoint's regfunc.
 * Context: may sleep.
 */
int tracepoint_probe_register_prio(struct tracepoint *tp, void *probe,
				   void *data, int prio)
{
	int ret;

	if (!tp || !probe)
		return -EINVAL;
	tp_init();
	pthread_mutex_lock(&tracepoints_mutex);
	ret = tp_add_func(tp, probe, data, prio);
	pthread_mutex_unlock(&tracepoints_mutex);
	tp_release_maybe();
	return ret;
}

/**
 * tracepoint_probe_register - attach a probe at the default priority
 * @tp:    the tracepoint
 * @probe: the probe
 * @data:  its first argument
 *
 * Return: as tracepoint_probe_register_prio().
 */
int tracepoint_probe_register(struct tracepoint *tp, void *probe, void *data)
{
	return tracepoint_probe_register_prio(tp, probe, data,
					      TRACEPOINT_DEFAULT_PRIO);
}

/**
 * tracepoint_probe_unregister - detach a probe
 * @tp:    the tracepoint
 * @probe: the probe given at registration
 * @data:  the data given at registration
 *
 * The probe may still be running in other threads when this returns; call
 * tracepoint_synchronize_unregister() before freeing what it uses.
 *
 * Return: 0; -EINVAL for a NULL @tp or @probe; -ENOENT if the pair is not
 * attached.  Never fails for lack of memory.
 * Context: may sleep.
 */
int tracepoint_probe_unregister(struct tracepoint *tp, void *probe,
				void *data)
{
	struct tracepoint_func *funcs;
	int i, n, ret = -ENOENT;

	if (!tp || !probe)
		return -EINVAL;
	tp_init();
	pthread_mutex_lock(&tracepoints_mutex);
	funcs = tp->funcs;
	n = nr_funcs(funcs);
	for (i = 0; i < n; i++) {
		if (funcs[i].func == probe && funcs[i].data == data) {
			tp_remove_index(tp, i);
			ret = 0;
			break;
		}
	}
	pthread_mutex_unlock(&tracepoints_mutex);
	tp_release_maybe();
	return ret;
}

/* ---- objects ---------------------------------------------------------- */

struct range_search {
	unsigned long anchor;
	struct tp_object *obj;
};

static int find_object_ranges(struct dl_phdr_info *info, size_t size,
			      void *arg)
{
	struct range_search *rs = arg;
	struct tp_object *obj = rs->obj;
	bool mine = false;
	int i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		unsigned long s = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && rs->anchor >= s &&
		    rs->anchor < s + ph->p_memsz)
			mine = true;
	}
	if (!mine)
		return 0;
	for (i = 0; i < info->dlpi_phnum && obj->nr_ranges < OBJECT_MAX_RANGES;
	     i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		obj->start[obj->nr_ranges] = info->dlpi_addr + ph->p_vaddr;
		obj->end[obj->nr_ranges] = obj->start[obj->nr_ranges] +
					   ph->p_memsz;
		obj->nr_ranges++;
	}
	return 1;
}

static unsigned long object_base(const void *anchor)
{
	Dl_info info;

	if (!dladdr(anchor, &info))
		return 0;
	return (unsigned long)info.dli_fbase;
}

/* A name for the object that holds @anchor, for messages.  Never NULL. */
static char *object_name(const void *anchor)
{
	struct link_map *lm = NULL;
	Dl_info info;
	char exe[4096];
	ssize_t len;

	if (dladdr1(anchor, &info, (void **)&lm, RTLD_DL_LINKMAP) && lm &&
	    lm->l_name && lm->l_name[0])
		return strdup(lm->l_name);
	/* The main program's link map has an empty name. */
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	return len > 0 ? strndup(exe, len) : strdup("(main program)");
}

/**
 * __ustrace_object_get - an object that uses tracepoints was loaded
 * @anchor: an address inside the object
 */
void __ustrace_object_get(const void *anchor)
{
	unsigned long base = object_base(anchor);
	struct tp_object *obj;

	tp_init();
	pthread_mutex_lock(&tracepoints_mutex);
	for (obj = tp_objects; obj; obj = obj->next) {
		if (obj->base == base) {
			obj->refs++;
			goto out;
		}
	}
	obj = calloc(1, sizeof(*obj));
	if (!obj)
		goto out;	/* only the clean-up at unload is lost */
	obj->base = base;
	obj->refs = 1;
	{
		struct range_search rs = { (unsigned long)anchor, obj };

		dl_iterate_phdr(find_object_ranges, &rs);
	}
	obj->next = tp_objects;
	tp_objects = obj;
out:
	pthread_mutex_unlock(&tracepoints_mutex);
}

static bool object_holds(const struct tp_object *obj, const void *p)
{
	unsigned long a = (unsigned long)p;
	int i;

	for (i = 0; i < obj->nr_ranges; i++)
		if (a >= obj->start[i] && a < obj->end[i])
			return true;
	return false;
}

/* Detach every probe whose code lies in @obj.  tracepoints_mutex held. */
static int tp_detach_object_probes(const struct tp_object *obj)
{
	struct tp_def *def;
	int detached = 0;

	for (def = tp_defs; def; def = def->next) {
		struct tracepoint *tp = def->tp;
		int i = 0;

		while (tp->funcs && tp->funcs[i].func) {
			if (object_holds(obj, tp->funcs[i].func)) {
				tp_remove_index(tp, i);
				detached++;
				i = 0;
				continue;
			}
			i++;
		}
	}
	return detached;
}

/**
 * __ustrace_object_put - an object that uses tracepoints is being unloaded
 * @anchor: as given to __ustrace_object_get()
 *
 * When the object's last file is finalized by dlclose(), probes that live
 * in it are detached and the grace period is waited for, so that no thread
 * can call into unmapped code.  At process exit nothing is unmapped and
 * nothing is done.
 */
void __ustrace_object_put(const void *anchor)
{
	unsigned long base = object_base(anchor);
	struct tp_object **pp, *obj;
	int detached = 0;

	pthread_mutex_lock(&tracepoints_mutex);
	for (pp = &tp_objects; (obj = *pp); pp = &obj->next) {
		if (obj->base != base)
			continue;
		if (--obj->refs == 0) {
			*pp = obj->next;
			if (!__atomic_load_n(&process_exiting, __ATOMIC_RELAXED))
				detached = tp_detach_object_probes(obj);
			free(obj);
		}
		break;
	}
	pthread_mutex_unlock(&tracepoints_mutex);
	if (detached)
		tracepoint_synchronize_unregister();
}

/* ---- the name space of definitions ---------------------------------- */

/* Compare two TP_PROTO texts, ignoring differences in white space. */
static bool same_signature(const char *a, const char *b)
{
	for (;;) {
		while (*a == ' ' || *a == '\t' || *a == '\n')
			a++;
		while (*b == ' ' || *b == '\t' || *b == '\n')
			b++;
		if (*a != *b)
			return false;
		if (!*a)
			return true;
		a++;
		b++;
	}
}

static struct tp_def *tp_find_name(const char *name)
{
	struct tp_def *def;

	for (def = tp_defs; def; def = def->next)
		if (!def->conflict && !strcmp(def->tp->name, name))
			return def;
	return NULL;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/*
 * Report a second definition of @name with another prototype.  Usually the
 * newcomer kept its own struct and is left out of the name space; when
 * both objects exported the symbol the dynamic linker may have bound the
 * newcomer to the first one's struct (@merged), and then nothing can be
 * left out, so say what will go wrong.
 */
static void report_conflict(const struct tp_def *first, const char *name,
			    const char *signature, const char *owner,
			    bool merged)
{
	char last[PATH_MAX + 128];

	if (merged)
		snprintf(last, sizeof(last), "the dynamic linker bound both to "
			 "the definition in %s; probes get wrong arguments from "
			 "sites in %s", base_name(first->owner), base_name(owner));
	else
		snprintf(last, sizeof(last), "the definition in %s is ignored",
			 base_name(owner));
	/* One call, so that the four lines stay together on stderr. */
	fprintf(stderr,
		"ustrace: tracepoint \"%s\" is defined twice with different "
		"prototypes:\n"
		"ustrace:   (%s) in %s\n"
		"ustrace:   (%s) in %s\n"
		"ustrace: %s\n",
		name, first->signature, first->owner, signature, owner, last);
}

/**
 * __ustrace_tracepoint_define - a DEFINE_TRACE() was loaded
 * @tp:        the definition's struct (as the dynamic linker bound it)
 * @signature: the TP_PROTO text compiled into the defining file
 * @anchor:    an address in the defining object
 *
 * The first definition of a name owns it.  Another object defining the
 * same name with the same prototype is accepted (its struct is a separate
 * tracepoint when the linker did not merge the two).  A different
 * prototype is reported on stderr, naming both objects, and the later
 * definition is left out of the name space: tracepoint_lookup() and
 * for_each_kernel_tracepoint() never return it.
 */
void __ustrace_tracepoint_define(struct tracepoint *tp, const char *signature,
				 const void *anchor)
{
	struct tp_def *def, *first, **pp;
	char *owner = object_name(anchor);

	tp_init();
	pthread_mutex_lock(&tracepoints_mutex);
	for (def = tp_defs; def; def = def->next) {
		if (def->tp != tp)
			continue;
		/*
		 * Two objects define the symbol and the dynamic linker bound
		 * both to one struct: the second object's sites and probes
		 * would use the first one's prototype.
		 */
		if (!same_signature(def->signature, signature))
			report_conflict(def, tp->name, signature,
					owner ? owner : "?", true);
		def->refs++;
		goto out;
	}
	def = calloc(1, sizeof(*def));
	if (!def)
		goto out;	/* it still works; only the name space misses it */
	def->tp = tp;
	def->signature = signature;
	def->owner = owner;
	owner = NULL;
	def->refs = 1;
	first = tp_find_name(tp->name);
	if (first && !same_signature(first->signature, signature)) {
		report_conflict(first, tp->name, signature, def->owner,
				false);
		def->conflict = true;
	}
	/* Append: the oldest definition of a name is the one found first. */
	for (pp = &tp_defs; *pp; pp = &(*pp)->next)
		;
	*pp = def;
	if (!tp->priv)
		tp->priv = def;
out:
	pthread_mutex_unlock(&tracepoints_mutex);
	free(owner);
}

/**
 * __ustrace_tracepoint_undefine - the object of a DEFINE_TRACE() goes away
 * @tp:     as given to __ustrace_tracepoint_define()
 * @anchor: likewise
 *
 * When the struct itself is about to be unmapped, its probes are detached
 * (their regfunc/unregfunc pairing is kept) and the definition leaves the
 * name space.
 */
void __ustrace_tracepoint_undefine(struct tracepoint *tp, const void *anchor)
{
	struct tp_def **pp, *def;
	struct tracepoint_func *funcs;
	bool detached = false;

	(void)anchor;
	pthread_mutex_lock(&tracepoints_mutex);
	for (pp = &tp_defs; (def = *pp); pp = &def->next) {
		if (def->tp != tp)
			continue;
		if (--def->refs > 0)
			break;
		*pp = def->next;
		funcs = tp->funcs;
		if (funcs && !__atomic_load_n(&process_exiting, __ATOMIC_RELAXED)) {
			static_key_slow_dec(&tp->key);
			tp_publish(tp, NULL);
			if (tp->unregfunc)
				tp->unregfunc();
			tp_defer_free(funcs);
			detached = true;
		}
		if (tp->priv == def)
			tp->priv = NULL;
		free(def->owner);
		free(def);
		break;
	}
	pthread_mutex_unlock(&tracepoints_mutex);
	if (detached)
		tp_release_flush();
}

/**
 * tracepoint_lookup - find a tracepoint by name
 * @name: the name given to DECLARE_TRACE()
 *
 * Return: the definition that owns @name, or NULL if no loaded object
 * defines it.
 */
struct tracepoint *tracepoint_lookup(const char *name)
{
	struct tp_def *def;
	struct tracepoint *tp = NULL;

	if (!name)
		return NULL;
	tp_init();
	pthread_mutex_lock(&tracepoints_mutex);
	def = tp_find_name(name);
	if (def)
		tp = def->tp;
	pthread_mutex_unlock(&tracepoints_mutex);
	return tp;
}

/**
 * for_each_kernel_tracepoint - call @fct for every loaded tracepoint
 * @fct:  called with the tracepoint and @priv
 * @priv: passed through
 *
 * Definitions left out of the name space (conflicts) are skipped.  @fct
 * runs with the registry locked and must not register probes or load
 * objects.
 */
void for_each_kernel_tracepoint(void (*fct)(struct tracepoint *tp, void *priv),
				void *priv)
{
	struct tp_def *def;

	tp_init();
	pthread_mutex_lock(&tracepoints_mutex);
	for (def = tp_defs; def; def = def->next)
		if (!def->conflict)
			fct(def->tp, priv);
	pthread_mutex_unlock(&tracepoints_mutex);
}
