// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The tracefs tree: the kernel's /sys/kernel/tracing as a tree of nodes
 * addressed by inode number, for a file system server to serve
 * (kernel/trace/tracefs/tracefs.h).  This file holds the tree itself, the
 * instances, and the dispatch of open/read/write to the files' operations;
 * the files live in tracefs_*.c by feature.
 *
 * Inode numbers index one table and are never reused, so a number a
 * server kept after the node went away (an event whose object was
 * unloaded, an instance removed) finds nothing: -ENOENT.  A node that goes
 * away while a file of it is open stays allocated, out of the table, until
 * that file is closed.
 *
 * Parts of the tree follow the engine: events/ is compared with the event
 * registry (and instances/ with the engine's instances) whenever a server
 * looks into it, so events of objects loaded and unloaded at run time
 * come and go without anyone telling the tree.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>

#include <linux/ring_buffer.h>

#include "../../internal.h"
#include "../trace_array.h"
#include "tracefs_internal.h"

#define TFS_DIR_MODE	(S_IFDIR | 0750)

pthread_mutex_t tfs_tree_lock = PTHREAD_MUTEX_INITIALIZER;

/* Indexed by inode number; [0] is unused.  Under tfs_tree_lock. */
static struct tfs_node **inodes;
static uint64_t nr_inodes = 1, max_inodes;

static struct tfs_inst *top_inst;
static struct tfs_node *instances_dir;
/* The instances under instances/, in creation order. */
static struct tfs_inst **insts;
static unsigned int nr_insts;

/* ------------------------------------------------------------------
 * Nodes
 */

static bool ino_alloc(struct tfs_node *node)
{
	struct tfs_node **table;
	uint64_t max;

	if (nr_inodes >= max_inodes) {
		max = max_inodes ? 2 * max_inodes : 256;
		table = realloc(inodes, max * sizeof(*table));
		if (!table)
			return false;
		memset(table + max_inodes, 0, (max - max_inodes) * sizeof(*table));
		inodes = table;
		max_inodes = max;
	}
	node->ino = nr_inodes++;
	inodes[node->ino] = node;
	return true;
}

static bool kid_append(struct tfs_node *dir, struct tfs_node *kid)
{
	struct tfs_node **kids;
	unsigned int max;

	if (dir->nr_kids == dir->max_kids) {
		max = dir->max_kids ? 2 * dir->max_kids : 8;
		kids = realloc(dir->kids, max * sizeof(*kids));
		if (!kids)
			return false;
		dir->kids = kids;
		dir->max_kids = max;
	}
	dir->kids[dir->nr_kids++] = kid;
	return true;
}

static void node_put(struct tfs_node *node)
{
	while (node && --node->refs == 0) {
		struct tfs_node *parent = node->parent;

		free(node->kids);
		free(node->name);
		free(node);
		node = parent;
	}
}

/* A node in @parent (NULL: the root), which inherits its place. */
static struct tfs_node *node_new(struct tfs_node *parent, const char *name, mode_t mode)
{
	struct tfs_node *node = calloc(1, sizeof(*node));

	if (!node)
		return NULL;
	node->name = strdup(name);
	node->mode = mode;
	node->refs = 1;
	node->cpu = RING_BUFFER_ALL_CPUS;
	node->option = -1;
	if (parent) {
		node->parent = parent;
		node->inst = parent->inst;
		node->cpu = parent->cpu;
		node->system = parent->system;
		node->event = parent->event;
	}
	if (!node->name || (parent && !kid_append(parent, node)) || !ino_alloc(node)) {
		if (parent && parent->nr_kids && parent->kids[parent->nr_kids - 1] == node)
			parent->nr_kids--;
		free(node->name);
		free(node);
		return NULL;
	}
	if (parent)
		parent->refs++;
	return node;
}

struct tfs_node *tfs_add_dir(struct tfs_node *parent, const char *name,
			     enum tfs_dir_kind kind)
{
	struct tfs_node *node = node_new(parent, name, TFS_DIR_MODE);

	if (!node)
		return NULL;
	node->kind = kind;
	if (kind == TFS_DIR_SYSTEM)
		node->system = node->name;
	else if (kind == TFS_DIR_EVENT)
		node->event = node->name;
	return node;
}

struct tfs_node *tfs_add_file(struct tfs_node *parent, const char *name,
			      const struct tfs_fops *fops)
{
	struct tfs_node *node = node_new(parent, name, S_IFREG | fops->mode);

	if (node)
		node->fops = fops;
	return node;
}

int tfs_add_entries(struct tfs_node *dir, const struct tfs_entry *table)
{
	for (; table->name; table++)
		if (!tfs_add_file(dir, table->name, table->fops))
			return -ENOMEM;
	return 0;
}

struct tfs_node *tfs_find_kid(struct tfs_node *dir, const char *name)
{
	unsigned int i;

	for (i = 0; i < dir->nr_kids; i++)
		if (!strcmp(dir->kids[i]->name, name))
			return dir->kids[i];
	return NULL;
}

static void kid_unlink(struct tfs_node *dir, struct tfs_node *kid)
{
	unsigned int i;

	for (i = 0; i < dir->nr_kids; i++) {
		if (dir->kids[i] == kid) {
			memmove(&dir->kids[i], &dir->kids[i + 1],
				(dir->nr_kids - i - 1) * sizeof(*dir->kids));
			dir->nr_kids--;
			return;
		}
	}
}

/* Take @node and everything below it out of the tree. */
void tfs_remove_node(struct tfs_node *node)
{
	while (node->nr_kids)
		tfs_remove_node(node->kids[node->nr_kids - 1]);
	if (node->parent)
		kid_unlink(node->parent, node);
	inodes[node->ino] = NULL;
	node->removed = true;
	node_put(node);
}

static bool in_events(const struct tfs_node *node)
{
	const struct tfs_node *dir = S_ISDIR(node->mode) ? node : node->parent;

	return dir && (dir->kind == TFS_DIR_EVENTS || dir->kind == TFS_DIR_SYSTEM ||
		       dir->kind == TFS_DIR_EVENT);
}

static void stat_fill(const struct tfs_node *node, struct tfs_stat *st)
{
	unsigned int i;

	memset(st, 0, sizeof(*st));
	st->ino = node->ino;
	st->mode = node->mode;
	st->nlink = 1;
	if (!S_ISDIR(node->mode))
		return;
	st->nlink = 2;
	for (i = 0; i < node->nr_kids; i++)
		if (S_ISDIR(node->kids[i]->mode))
			st->nlink++;
}

/* ------------------------------------------------------------------
 * Instances
 */

/* Files of every instance. */
static const struct tfs_entry inst_files[] = {
	{ "available_tracers",		&tfs_fops_available_tracers },
	{ "buffer_percent",		&tfs_fops_buffer_percent },
	{ "buffer_size_kb",		&tfs_fops_buffer_size_kb },
	{ "buffer_total_size_kb",	&tfs_fops_buffer_total_size_kb },
	{ "current_tracer",		&tfs_fops_current_tracer },
	{ "error_log",			&tfs_fops_error_log },
	{ "set_event",			&tfs_fops_set_event },
	{ "set_event_notrace_pid",	&tfs_fops_set_event_notrace_pid },
	{ "set_event_pid",		&tfs_fops_set_event_pid },
	{ "snapshot",			&tfs_fops_snapshot },
	{ "trace",			&tfs_fops_trace },
	{ "trace_clock",		&tfs_fops_trace_clock },
	{ "trace_marker",		&tfs_fops_trace_marker },
	{ "trace_marker_raw",		&tfs_fops_trace_marker_raw },
	{ "trace_options",		&tfs_fops_trace_options },
	{ "trace_pipe",			&tfs_fops_trace_pipe },
	{ "tracing_cpumask",		&tfs_fops_tracing_cpumask },
	{ "tracing_on",			&tfs_fops_tracing_on },
	{ NULL, NULL }
};

/* Files only the top level has, as in the kernel. */
static const struct tfs_entry top_files[] = {
	{ "README",			&tfs_fops_readme },
	{ "available_events",		&tfs_fops_available_events },
	{ "dynamic_events",		&tfs_fops_dynamic_events },
	{ "printk_formats",		&tfs_fops_printk_formats },
	{ "saved_cmdlines",		&tfs_fops_saved_cmdlines },
	{ "saved_cmdlines_size",	&tfs_fops_saved_cmdlines_size },
	{ "saved_tgids",		&tfs_fops_saved_tgids },
	{ "synthetic_events",		&tfs_fops_synthetic_events },
	{ NULL, NULL }
};

static void inst_free(struct tfs_inst *inst)
{
	if (!inst)
		return;
	tfs_errlog_clear(inst);
	pthread_mutex_destroy(&inst->lock);
	free(inst->cpumask);
	free(inst);
}

static struct tfs_inst *inst_new(struct trace_array *tr)
{
	struct tfs_inst *inst = calloc(1, sizeof(*inst));
	unsigned int cpu;

	if (!inst)
		return NULL;
	inst->tr = tr;
	inst->nr_cpus = (unsigned int)ring_buffer_nr_cpus(trace_array_buffer(tr));
	inst->cpumask = calloc((inst->nr_cpus + 31) / 32, sizeof(*inst->cpumask));
	if (!inst->cpumask) {
		free(inst);
		return NULL;
	}
	for (cpu = 0; cpu < inst->nr_cpus; cpu++)
		inst->cpumask[cpu / 32] |= 1u << (cpu % 32);
	pthread_mutex_init(&inst->lock, NULL);
	return inst;
}

/* The files and directories of @inst in @dir. */
static int inst_populate(struct tfs_inst *inst, struct tfs_node *dir, bool top)
{
	struct tfs_node *sub;
	int err;

	inst->dir = dir;
	dir->inst = inst;
	err = tfs_add_entries(dir, inst_files);
	if (!err && top)
		err = tfs_add_entries(dir, top_files);
	if (!err)
		err = tfs_events_create(inst);
	if (!err) {
		sub = tfs_add_dir(dir, "options", TFS_DIR_PLAIN);
		err = sub ? tfs_options_create(inst, sub) : -ENOMEM;
	}
	if (!err) {
		sub = tfs_add_dir(dir, "per_cpu", TFS_DIR_PLAIN);
		err = sub ? tfs_per_cpu_create(inst, sub) : -ENOMEM;
	}
	if (!err && top) {
		instances_dir = tfs_add_dir(dir, "instances", TFS_DIR_INSTANCES);
		err = instances_dir ? 0 : -ENOMEM;
	}
	return err;
}

/* Under tfs_tree_lock: instances/@name for the engine's @tr. */
static struct tfs_inst *inst_add(struct trace_array *tr, const char *name)
{
	struct tfs_inst *inst, **arr;
	struct tfs_node *dir;

	arr = realloc(insts, (nr_insts + 1) * sizeof(*arr));
	if (!arr)
		return NULL;
	insts = arr;
	inst = inst_new(tr);
	dir = inst ? tfs_add_dir(instances_dir, name, TFS_DIR_PLAIN) : NULL;
	if (!dir || inst_populate(inst, dir, false)) {
		if (dir)
			tfs_remove_node(dir);
		inst_free(inst);
		return NULL;
	}
	insts[nr_insts++] = inst;
	return inst;
}

static void inst_forget(struct tfs_inst *inst)
{
	unsigned int i;

	for (i = 0; i < nr_insts; i++) {
		if (insts[i] == inst) {
			memmove(&insts[i], &insts[i + 1], (nr_insts - i - 1) * sizeof(*insts));
			nr_insts--;
			break;
		}
	}
	tfs_remove_node(inst->dir);
	inst_free(inst);
}

/* The engine's instances, with their names (copied under its lock). */
struct engine_list {
	struct trace_array	**trs;
	char			**names;
	unsigned int		nr, max;
};

static void engine_list_add(struct trace_array *tr, void *priv)
{
	struct engine_list *l = priv;

	if (l->nr == l->max)
		return;
	l->trs[l->nr] = tr;
	l->names[l->nr] = strdup(trace_array_name(tr));
	if (l->names[l->nr])
		l->nr++;
}

static void engine_list_count(struct trace_array *tr, void *priv)
{
	(void)tr;
	(*(unsigned int *)priv)++;
}

static int engine_list_get(struct engine_list *l)
{
	unsigned int n = 0;

	trace_array_for_each_instance(engine_list_count, &n);
	/* A few spare: instances made between the two walks are seen next time. */
	l->max = n + 4;
	l->nr = 0;
	l->trs = calloc(l->max, sizeof(*l->trs));
	l->names = calloc(l->max, sizeof(*l->names));
	if (!l->trs || !l->names)
		return -ENOMEM;
	trace_array_for_each_instance(engine_list_add, l);
	return 0;
}

static void engine_list_free(struct engine_list *l)
{
	unsigned int i;

	for (i = 0; i < l->nr; i++)
		free(l->names[i]);
	free(l->names);
	free(l->trs);
}

/* By address and name: a new instance may have a removed one's address. */
static bool engine_has(const struct engine_list *l, const struct tfs_inst *inst)
{
	unsigned int i;

	for (i = 0; i < l->nr; i++)
		if (l->trs[i] == inst->tr && !strcmp(l->names[i], inst->dir->name))
			return true;
	return false;
}

/*
 * Under tfs_tree_lock: instances/ as the engine has them, for instances
 * made or removed by the program itself (trace_array_create()).
 */
static void instances_sync(void)
{
	struct engine_list l;
	unsigned int i;

	if (engine_list_get(&l))
		goto out;
	for (i = nr_insts; i-- > 0;)
		if (!engine_has(&l, insts[i]) && !insts[i]->open_files)
			inst_forget(insts[i]);
	/* Every instance the tree has is a directory of its name. */
	for (i = 0; i < l.nr; i++)
		if (!tfs_find_kid(instances_dir, l.names[i]))
			inst_add(l.trs[i], l.names[i]);
out:
	engine_list_free(&l);
}

struct alive_ctx {
	const struct trace_array	*tr;
	bool				found;
};

static void inst_is_alive(struct trace_array *tr, void *priv)
{
	struct alive_ctx *ctx = priv;

	ctx->found |= ctx->tr == tr;
}

/* Under tfs_tree_lock: the engine still has @inst's instance. */
static bool inst_alive(const struct tfs_inst *inst)
{
	struct alive_ctx ctx = { .tr = inst->tr };

	if (inst == top_inst)
		return true;
	trace_array_for_each_instance(inst_is_alive, &ctx);
	return ctx.found;
}

/**
 * tfs_init - build the tree of the top-level instance
 *
 * Return: 0, or -ENOMEM.
 * Context: any thread; idempotent.
 */
int tfs_init(void)
{
	struct trace_array *tr;
	struct tfs_node *root;
	int err = 0;

	pthread_mutex_lock(&tfs_tree_lock);
	if (top_inst)
		goto out;
	err = -ENOMEM;
	tr = trace_array_top();
	top_inst = tr ? inst_new(tr) : NULL;
	root = top_inst ? node_new(NULL, "", TFS_DIR_MODE) : NULL;
	if (!root)
		goto fail;
	err = inst_populate(top_inst, root, true);
	if (!err)
		goto out;
	tfs_remove_node(root);
fail:
	inst_free(top_inst);
	top_inst = NULL;
out:
	pthread_mutex_unlock(&tfs_tree_lock);
	return err;
}

/* ------------------------------------------------------------------
 * fork(): level USTRACE_FORK_TRACEFS, inside the FUSE server's control
 * lock and outside the engine's.  A child may serve the same tree at a
 * mount of its own; the files its parent's servers had open are never
 * used again (their locks are left as they were).
 */

static void tfs_fork_prepare(void)
{
	pthread_mutex_lock(&tfs_tree_lock);
	if (top_inst)
		pthread_mutex_lock(&top_inst->lock);
	for (unsigned int i = 0; i < nr_insts; i++)
		pthread_mutex_lock(&insts[i]->lock);
}

static void tfs_fork_parent(void)
{
	for (unsigned int i = nr_insts; i-- > 0; )
		pthread_mutex_unlock(&insts[i]->lock);
	if (top_inst)
		pthread_mutex_unlock(&top_inst->lock);
	pthread_mutex_unlock(&tfs_tree_lock);
}

static void tfs_fork_child(void)
{
	for (unsigned int i = 0; i < nr_insts; i++)
		ustrace_fork_reinit_mutex(&insts[i]->lock, PTHREAD_MUTEX_DEFAULT);
	if (top_inst)
		ustrace_fork_reinit_mutex(&top_inst->lock, PTHREAD_MUTEX_DEFAULT);
	ustrace_fork_reinit_mutex(&tfs_tree_lock, PTHREAD_MUTEX_DEFAULT);
}

static const struct ustrace_fork_ops tfs_fork_ops = {
	.prepare	= tfs_fork_prepare,
	.parent		= tfs_fork_parent,
	.child		= tfs_fork_child,
};

__attribute__((__constructor__))
static void tfs_fork_init(void)
{
	ustrace_fork_register(USTRACE_FORK_TRACEFS, &tfs_fork_ops);
}

/* ------------------------------------------------------------------
 * Lookup
 */

/*
 * Under tfs_tree_lock: the node @ino, its directory brought up to date
 * with the engine first.
 */
static struct tfs_node *node_get(uint64_t ino)
{
	struct tfs_node *node;

	if (!top_inst || !ino || ino >= nr_inodes)
		return NULL;
	node = inodes[ino];
	if (node && in_events(node)) {
		tfs_events_sync(node->inst);
		node = inodes[ino];
	} else if (node && node->kind == TFS_DIR_INSTANCES) {
		instances_sync();
	}
	return node;
}

/* The kernel's VFS refuses a name longer than NAME_MAX before tracefs sees it. */
static int name_check(const char *name)
{
	return strlen(name) > NAME_MAX ? -ENAMETOOLONG : 0;
}

int tfs_lookup(uint64_t parent, const char *name, struct tfs_stat *st)
{
	struct tfs_node *dir, *kid;
	int err = name_check(name);

	if (err)
		return err;
	pthread_mutex_lock(&tfs_tree_lock);
	dir = node_get(parent);
	if (!dir) {
		err = -ENOENT;
	} else if (!S_ISDIR(dir->mode)) {
		err = -ENOTDIR;
	} else {
		kid = tfs_find_kid(dir, name);
		if (kid)
			stat_fill(kid, st);
		else
			err = -ENOENT;
	}
	pthread_mutex_unlock(&tfs_tree_lock);
	return err;
}

int tfs_getattr(uint64_t ino, struct tfs_stat *st)
{
	struct tfs_node *node;

	pthread_mutex_lock(&tfs_tree_lock);
	node = node_get(ino);
	if (node)
		stat_fill(node, st);
	pthread_mutex_unlock(&tfs_tree_lock);
	return node ? 0 : -ENOENT;
}

struct dirent_copy {
	char		*name;
	struct tfs_stat	st;
};

/* Under tfs_tree_lock: the entries of @dir after the first @offset. */
static struct dirent_copy *dir_copy(struct tfs_node *dir, off_t offset, unsigned int *nr)
{
	struct dirent_copy *ents;
	unsigned int i, n = 0;

	*nr = 0;
	if ((uint64_t)offset >= dir->nr_kids)
		return NULL;
	ents = calloc(dir->nr_kids - (size_t)offset, sizeof(*ents));
	for (i = (unsigned int)offset; ents && i < dir->nr_kids; i++) {
		ents[n].name = strdup(dir->kids[i]->name);
		if (!ents[n].name)
			break;
		stat_fill(dir->kids[i], &ents[n++].st);
	}
	*nr = n;
	return ents;
}

/*
 * @fill runs without the tree lock: a server may call back into the tree
 * from it.
 */
int tfs_readdir(uint64_t ino, off_t offset,
		int (*fill)(void *ctx, const char *name, const struct tfs_stat *st, off_t next),
		void *ctx)
{
	struct dirent_copy *ents = NULL;
	struct tfs_node *dir;
	unsigned int i, nr = 0;
	int err = 0;

	if (offset < 0)
		return -EINVAL;
	pthread_mutex_lock(&tfs_tree_lock);
	dir = node_get(ino);
	if (!dir)
		err = -ENOENT;
	else if (!S_ISDIR(dir->mode))
		err = -ENOTDIR;
	else
		ents = dir_copy(dir, offset, &nr);
	pthread_mutex_unlock(&tfs_tree_lock);
	for (i = 0; i < nr; i++)
		if (fill(ctx, ents[i].name, &ents[i].st, offset + i + 1))
			break;
	for (i = 0; i < nr; i++)
		free(ents[i].name);
	free(ents);
	return err;
}

/* ------------------------------------------------------------------
 * mkdir, rmdir
 */

int tfs_mkdir(uint64_t parent, const char *name, struct tfs_stat *st)
{
	struct trace_array *tr;
	struct tfs_inst *inst;
	struct tfs_node *dir;
	int err = name_check(name);

	if (err)
		return err;
	pthread_mutex_lock(&tfs_tree_lock);
	dir = node_get(parent);
	if (!dir) {
		err = -ENOENT;
	} else if (dir->kind != TFS_DIR_INSTANCES) {
		err = tfs_find_kid(dir, name) ? -EEXIST : -EPERM;
	} else if (tfs_find_kid(dir, name)) {
		err = -EEXIST;
	} else if (!(tr = trace_array_create(name))) {
		err = -errno;
	} else if (!(inst = inst_add(tr, name))) {
		trace_array_destroy(tr);
		err = -ENOMEM;
	} else {
		stat_fill(inst->dir, st);
	}
	pthread_mutex_unlock(&tfs_tree_lock);
	return err;
}

/*
 * The engine waits for probes still writing into the instance: rmdir may
 * take as long as a grace period, with the tree locked.
 */
/*
 * A close(2) returns before FUSE delivers its release, so a program that
 * closes an instance's files and removes it at once (trace-cmd record -B)
 * may find them still open here: wait a little for releases in flight
 * before -EBUSY, as the kernel's close is done when rmdir comes.
 */
#define TFS_RMDIR_WAIT_MS	200
#define TFS_RMDIR_STEP_MS	5

int tfs_rmdir(uint64_t parent, const char *name)
{
	struct tfs_node *dir, *kid;
	int err = name_check(name), waited = 0;

	if (err)
		return err;
	for (;;) {
		kid = NULL;
		pthread_mutex_lock(&tfs_tree_lock);
		dir = node_get(parent);
		if (dir && S_ISDIR(dir->mode))
			kid = tfs_find_kid(dir, name);
		if (!kid || !S_ISDIR(kid->mode) || dir->kind != TFS_DIR_INSTANCES ||
		    !kid->inst->open_files || waited >= TFS_RMDIR_WAIT_MS)
			break;
		pthread_mutex_unlock(&tfs_tree_lock);
		struct timespec ts = { 0, TFS_RMDIR_STEP_MS * 1000000L };
		nanosleep(&ts, NULL);
		waited += TFS_RMDIR_STEP_MS;
	}
	if (!kid)
		err = dir && !S_ISDIR(dir->mode) ? -ENOTDIR : -ENOENT;
	else if (!S_ISDIR(kid->mode))
		err = -ENOTDIR;
	else if (dir->kind != TFS_DIR_INSTANCES)
		err = -EPERM;
	else if (kid->inst->open_files)
		err = -EBUSY;
	else
		err = trace_array_destroy(kid->inst->tr);
	if (!err)
		inst_forget(kid->inst);
	pthread_mutex_unlock(&tfs_tree_lock);
	return err;
}

/* ------------------------------------------------------------------
 * Files
 */

static bool want_read(int flags)
{
	return (flags & O_ACCMODE) != O_WRONLY;
}

static bool want_write(int flags)
{
	return (flags & O_ACCMODE) != O_RDONLY;
}

/*
 * Under tfs_tree_lock: keep @node and its instance while a file of it is
 * in use (rmdir of the instance is -EBUSY meanwhile).
 */
static int node_pin(struct tfs_node *node)
{
	if (!inst_alive(node->inst))
		return -ENOENT;
	node->refs++;
	node->inst->open_files++;
	trace_array_get(node->inst->tr);
	return 0;
}

static void node_unpin(struct tfs_node *node)
{
	pthread_mutex_lock(&tfs_tree_lock);
	trace_array_put(node->inst->tr);
	node->inst->open_files--;
	node_put(node);
	pthread_mutex_unlock(&tfs_tree_lock);
}

/* Under tfs_tree_lock: the file @ino, if @flags may open it. */
static int node_get_file(uint64_t ino, int flags, struct tfs_node **nodep)
{
	struct tfs_node *node = node_get(ino);

	if (!node)
		return -ENOENT;
	if (S_ISDIR(node->mode))
		return want_write(flags) ? -EISDIR : -EINVAL;
	if (want_read(flags) && !(node->mode & S_IRUSR))
		return -EACCES;
	if (want_write(flags) && !(node->mode & S_IWUSR))
		return -EACCES;
	*nodep = node;
	return node_pin(node);
}

/* The file @ino, pinned (node_unpin() it), if @flags may open it. */
static int file_node_pin(uint64_t ino, int flags, struct tfs_node **nodep)
{
	int err;

	pthread_mutex_lock(&tfs_tree_lock);
	err = node_get_file(ino, flags, nodep);
	pthread_mutex_unlock(&tfs_tree_lock);
	return err;
}

static bool has_snapshot(const struct tfs_fops *fops)
{
	return fops->show || fops->text;
}

/* The snapshot of a @show or @text file: made at open, again after a write. */
static int file_show(struct tfs_file *file)
{
	const struct tfs_fops *fops = file->node->fops;
	int err = 0;

	seq_buf_grow_free(&file->text);
	if (fops->text)
		seq_buf_grow_puts(&file->text, fops->text);
	else
		err = fops->show(file, &file->text);
	if (!err && seq_buf_has_overflowed(&file->text))
		err = -ENOMEM;
	return err;
}

static void file_free(struct tfs_file *file)
{
	struct tfs_node *node = file->node;

	seq_buf_grow_free(&file->text);
	pthread_mutex_destroy(&file->lock);
	free(file);
	node_unpin(node);
}

int tfs_open(uint64_t ino, int flags, struct tfs_file **filep)
{
	const struct tfs_fops *fops;
	struct tfs_node *node = NULL;
	struct tfs_file *file;
	int err = file_node_pin(ino, flags, &node);

	if (err)
		return err;
	file = calloc(1, sizeof(*file));
	if (!file) {
		node_unpin(node);
		return -ENOMEM;
	}
	fops = node->fops;
	file->node = node;
	file->inst = node->inst;
	file->flags = flags;
	pthread_mutex_init(&file->lock, NULL);
	if (want_write(flags) && (flags & O_TRUNC) && fops->trunc)
		fops->trunc(node);
	err = want_write(flags) && (flags & O_TRUNC) && fops->trunc_err ?
	      fops->trunc_err(node) : 0;
	if (!err && fops->open)
		err = fops->open(file);
	if (!err && want_read(flags) && has_snapshot(fops))
		err = file_show(file);
	if (err) {
		if (fops->open && fops->release)
			fops->release(file);
		file_free(file);
		return err;
	}
	*filep = file;
	return 0;
}

static ssize_t text_read(const struct seq_buf *text, char *buf, size_t size, off_t off)
{
	size_t n;

	if (off < 0)
		return -EINVAL;
	if ((size_t)off >= seq_buf_used(text))
		return 0;
	n = seq_buf_used(text) - (size_t)off;
	if (n > size)
		n = size;
	memcpy(buf, text->buffer + off, n);
	return (ssize_t)n;
}

ssize_t tfs_read(struct tfs_file *file, char *buf, size_t size, off_t off)
{
	const struct tfs_fops *fops = file->node->fops;
	ssize_t ret = -EINVAL;

	if (!want_read(file->flags))
		return -EBADF;
	pthread_mutex_lock(&file->lock);
	if (fops->read)
		ret = fops->read(file, buf, size, off);
	else if (has_snapshot(fops))
		ret = text_read(&file->text, buf, size, off);
	pthread_mutex_unlock(&file->lock);
	return ret;
}

/* The write in progress ends (file->lock held). */
static int write_end(struct tfs_file *file)
{
	const struct tfs_fops *fops = file->node->fops;
	int err = 0;

	if (file->wr_open && fops->write_end)
		err = fops->write_end(file);
	file->wr_open = false;
	tfs_parser_clear(&file->parser);
	return err;
}

/*
 * A piece that continues the write in progress goes to @write_piece with
 * what it kept, or, for a file the kernel reads no further into than its
 * first piece holds, is taken whole and changes nothing.
 */
static ssize_t write_locked(struct tfs_file *file, const char *buf, size_t size, off_t off,
			    unsigned int flags)
{
	const struct tfs_fops *fops = file->node->fops;
	bool cont = file->wr_open && off == file->wr_next;
	unsigned int piece = (cont ? TFS_PIECE_CONT : 0) |
			     (flags & TFS_WRITE_MORE ? TFS_PIECE_MORE : 0);
	ssize_t ret = 0;

	if (file->wr_open && !cont)
		ret = write_end(file);
	if (ret < 0)
		return ret;
	if (fops->write_piece)
		ret = fops->write_piece(file, buf, size, piece);
	else if (cont)
		ret = (ssize_t)size;
	else
		ret = fops->write(file, buf, size);
	file->wr_open = ret == (ssize_t)size && (flags & TFS_WRITE_MORE);
	file->wr_next = off + (off_t)size;
	return ret;
}

ssize_t tfs_write(struct tfs_file *file, const char *buf, size_t size, off_t off,
		  unsigned int flags)
{
	const struct tfs_fops *fops = file->node->fops;
	ssize_t ret;

	if (!want_write(file->flags))
		return -EBADF;
	if (!fops->write && !fops->write_piece)
		return -EINVAL;
	pthread_mutex_lock(&file->lock);
	ret = write_locked(file, buf, size, off, flags);
	if (ret >= 0 && want_read(file->flags) && has_snapshot(fops))
		file_show(file);
	pthread_mutex_unlock(&file->lock);
	return ret;
}

void tfs_set_writer(pid_t tid)
{
	trace_marker_writer(tid);
}

int tfs_flush(struct tfs_file *file)
{
	const struct tfs_fops *fops = file->node->fops;
	int err = 0;

	pthread_mutex_lock(&file->lock);
	if (file->wr_open) {
		err = write_end(file);
		if (!err && want_read(file->flags) && has_snapshot(fops))
			file_show(file);
	}
	pthread_mutex_unlock(&file->lock);
	return err;
}

int tfs_wants_flush(const struct tfs_file *file)
{
	return want_write(file->flags) && file->node->fops->write_end;
}

int tfs_truncate(uint64_t ino)
{
	struct tfs_node *node = NULL;
	int err = file_node_pin(ino, O_WRONLY, &node);

	if (err)
		return err;
	if (node->fops->trunc)
		node->fops->trunc(node);
	if (node->fops->trunc_err)
		err = node->fops->trunc_err(node);
	node_unpin(node);
	return err;
}

/* @fn(@file) under the file's lock, or @def when the file has no @fn. */
static int file_call(struct tfs_file *file, int (*fn)(struct tfs_file *f), int def)
{
	int ret;

	if (!fn)
		return def;
	pthread_mutex_lock(&file->lock);
	ret = fn(file);
	pthread_mutex_unlock(&file->lock);
	return ret;
}

int tfs_readable(struct tfs_file *file)
{
	return file_call(file, file->node->fops->readable, 1);
}

uint32_t *tfs_wait_word(struct tfs_file *file)
{
	const struct tfs_fops *fops = file->node->fops;
	uint32_t *word = NULL;

	if (fops->wait_word) {
		pthread_mutex_lock(&file->lock);
		word = fops->wait_word(file);
		pthread_mutex_unlock(&file->lock);
	}
	return word;
}

int tfs_wait_arm(struct tfs_file *file)
{
	return file_call(file, file->node->fops->wait_arm, 0);
}

int tfs_poll_readable(struct tfs_file *file)
{
	const struct tfs_fops *fops = file->node->fops;

	return fops->poll_readable ? file_call(file, fops->poll_readable, 1) : tfs_readable(file);
}

int tfs_poll_arm(struct tfs_file *file)
{
	const struct tfs_fops *fops = file->node->fops;

	return fops->poll_arm ? file_call(file, fops->poll_arm, 0) : tfs_wait_arm(file);
}

int tfs_ioctl(struct tfs_file *file, unsigned int cmd)
{
	const struct tfs_fops *fops = file->node->fops;
	int ret;

	if (!fops->ioctl)
		return -ENOTTY;
	pthread_mutex_lock(&file->lock);
	ret = fops->ioctl(file, cmd);
	pthread_mutex_unlock(&file->lock);
	return ret;
}

int tfs_linger(struct tfs_file *file)
{
	return file->node->fops->linger;
}

void tfs_release(struct tfs_file *file)
{
	if (!file)
		return;
	if (file->wr_open)
		write_end(file);
	if (file->node->fops->release)
		file->node->fops->release(file);
	file_free(file);
}

const struct tfs_backend tfs_local_backend = {
	.init		= tfs_init,
	.lookup		= tfs_lookup,
	.getattr	= tfs_getattr,
	.readdir	= tfs_readdir,
	.mkdir		= tfs_mkdir,
	.rmdir		= tfs_rmdir,
	.open		= tfs_open,
	.read		= tfs_read,
	.write		= tfs_write,
	.set_writer	= tfs_set_writer,
	.flush		= tfs_flush,
	.wants_flush	= tfs_wants_flush,
	.truncate	= tfs_truncate,
	.readable	= tfs_readable,
	.wait_word	= tfs_wait_word,
	.wait_arm	= tfs_wait_arm,
	.poll_readable	= tfs_poll_readable,
	.poll_arm	= tfs_poll_arm,
	.ioctl		= tfs_ioctl,
	.linger		= tfs_linger,
	.release	= tfs_release,
};
