// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The collector's tree: one tracefs made of the trees of every registered
 * process and of the collector's own (Documentation/trace/system-mode.rst,
 * "One tree of many").
 *
 * Terminology:
 *   member   a tree the collector's tree is made of: the collector's own
 *            (the local tree of this process: every file of a tracefs,
 *            no program's events) and each registered process's, reached
 *            by calls over its socket (coll_server.c)
 *   node     a path of the collector's tree, with an inode number of the
 *            collector's; a member has its own inode for the same path,
 *            which each node caches per member
 *   state    the control writes the collector remembers, in order, and
 *            hands to every process that registers later
 *
 * What each file does:
 *   lookup, readdir   the union of the members' trees; an event directory
 *                     stays (remembered) when its processes are gone
 *   writes            every member that has the file takes the write; it
 *                     succeeds when all did (else the first error); then
 *                     it is remembered (but for the files that act rather
 *                     than set: trace, trace_marker, snapshot, ...), and
 *                     written into a remembered file no live process has,
 *                     it is only remembered
 *   trace             the members' texts, their lines merged by time, and
 *                     those of the programs gone (coll_records_trace())
 *   trace_pipe, per_cpu/cpuN/trace_pipe_raw
 *                     consumed from each member in turn
 *   set_event, set_event_pid, available_events, error_log
 *                     the members' lines together, each once
 *   the others        the first member that has the file (for the files
 *                     under events/, a process before the collector's own)
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "../../internal.h"
#include "../trace_array.h"
#include "../tracefs/tracefs.h"
#include "collector.h"

struct coll_ino_cache {
	uint64_t	member;		/* coll_proc id; 0 for the collector's own */
	uint64_t	ino;
};

struct node {
	struct node	*next;		/* all nodes, newest first */
	uint64_t	ino;
	struct node	*parent;
	char		*path;		/* from the root, no leading '/' ("" root) */
	const char	*name;		/* last component */
	mode_t		mode;
	unsigned int	nlink;
	bool		remembered;	/* under events/: listed when no process has it */
	char		*cache;		/* last text read (a remembered file's) */
	size_t		cache_len;
	struct coll_ino_cache *inos;
	unsigned int	nr_inos;
	uint64_t	*refused;	/* members whose event of this name differs */
	unsigned int	nr_refused;
	uint64_t	format_from;	/* the member whose format is cached */
};

enum file_kind { F_FIRST, F_MERGE, F_PIPE, F_RAW, F_UNION, F_CONCAT };

struct member_file {
	struct coll_proc	*proc;	/* NULL: the collector's own tree */
	uint64_t		handle;	/* the process's */
	struct tfs_file		*local;	/* the collector's own */
};

struct cfile {
	struct node		*node;
	int			flags;
	enum file_kind		kind;
	struct member_file	*m;
	int			nr;
	int			next_pipe;	/* F_PIPE: whom to read first */
	struct coll_raw		*raw;		/* F_RAW */
	char			*snap;		/* F_MERGE, F_UNION, F_CONCAT, F_FIRST */
	size_t			snap_len;
	bool			snapped;
	bool			wrote;
	bool			remembered;	/* the node's, when opened */
	pthread_mutex_t		lock;
};

struct state {
	struct state	*next;
	uint32_t	kind;
	uint32_t	flags;
	char		*path;
	char		*data;
	size_t		len;
};

static pthread_mutex_t tree_lock = PTHREAD_MUTEX_INITIALIZER;	/* nodes */
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;	/* state, registration */
static struct node *nodes;
static uint64_t next_ino = TFS_ROOT_INO;
static struct state *states;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;	/* coll_lines */
static char *coll_lines;		/* the collector's error_log lines */
static size_t coll_lines_len;
static __thread pid_t writer_tid;

/* ------------------------------------------------------------------
 * Members
 */

struct members {
	struct coll_proc	**procs;
	int			nr;	/* processes; the collector's own is extra */
};

static int members_get(struct members *ms)
{
	int nr = coll_procs_get(&ms->procs);

	ms->nr = nr > 0 ? nr : 0;
	if (nr <= 0)
		ms->procs = NULL;
	return nr < 0 ? nr : 0;
}

static void members_put(struct members *ms)
{
	if (ms->nr)
		coll_procs_put(ms->procs, ms->nr);
	ms->procs = NULL;
	ms->nr = 0;
}

/* A call of a member's tree: @p NULL is the collector's own, called directly. */
static int64_t member_call(struct coll_proc *p, uint32_t op, uint64_t a, uint64_t b, uint32_t c,
			   uint32_t d, const void *payload, uint32_t len, void *out, size_t size,
			   uint32_t *outlen)
{
	struct coll_msg m = { .op = op, .a = a, .b = b, .c = c, .d = d, .len = len };

	return coll_proc_call(p, &m, payload, out, size, outlen);
}

static void stat_in(const struct coll_stat *cs, struct tfs_stat *st)
{
	*st = (struct tfs_stat){ .ino = cs->ino, .mode = cs->mode, .size = cs->size,
				 .nlink = cs->nlink };
}

/* ------------------------------------------------------------------
 * Nodes
 */

static struct node *node_by_ino_locked(uint64_t ino)
{
	struct node *n;

	for (n = nodes; n; n = n->next)
		if (n->ino == ino)
			return n;
	return NULL;
}

static struct node *node_child_locked(struct node *parent, const char *name)
{
	struct node *n;

	for (n = nodes; n; n = n->next)
		if (n->parent == parent && !strcmp(n->name, name))
			return n;
	return NULL;
}

static struct node *node_new_locked(struct node *parent, const char *name, mode_t mode,
				    unsigned int nlink)
{
	struct node *n = calloc(1, sizeof(*n));
	size_t pl = parent ? strlen(parent->path) : 0;

	if (!n)
		return NULL;
	n->path = malloc(pl + 1 + strlen(name) + 1);
	if (!n->path) {
		free(n);
		return NULL;
	}
	if (!parent)
		strcpy(n->path, "");
	else if (pl)
		sprintf(n->path, "%s/%s", parent->path, name);
	else
		strcpy(n->path, name);
	n->name = parent ? n->path + (pl ? pl + 1 : 0) : n->path;
	n->parent = parent;
	n->ino = next_ino++;
	n->mode = mode;
	n->nlink = nlink;
	n->remembered = !strncmp(n->path, "events/", 7) ||
			(!strncmp(n->path, "instances/", 10) && strstr(n->path, "/events/"));
	n->next = nodes;
	nodes = n;
	return n;
}

static bool node_ino_cached_locked(struct node *n, uint64_t member, uint64_t *ino)
{
	for (unsigned int i = 0; i < n->nr_inos; i++) {
		if (n->inos[i].member == member) {
			*ino = n->inos[i].ino;
			return true;
		}
	}
	return false;
}

static void node_ino_set_locked(struct node *n, uint64_t member, uint64_t ino)
{
	struct coll_ino_cache *v;

	for (unsigned int i = 0; i < n->nr_inos; i++) {
		if (n->inos[i].member == member) {
			n->inos[i].ino = ino;
			return;
		}
	}
	v = realloc(n->inos, (n->nr_inos + 1) * sizeof(*v));
	if (!v)
		return;
	n->inos = v;
	n->inos[n->nr_inos++] = (struct coll_ino_cache){ .member = member, .ino = ino };
}

static void node_ino_drop_locked(struct node *n, uint64_t member)
{
	for (unsigned int i = 0; i < n->nr_inos; i++) {
		if (n->inos[i].member == member) {
			n->inos[i] = n->inos[--n->nr_inos];
			return;
		}
	}
}

/*
 * The member's inode of @n (and its stat, when looked up anew).
 * Return: 0, -ENOENT (the member has no such path), -errno of the call.
 */
static int member_ino(struct coll_proc *p, struct node *n, uint64_t *ino, struct tfs_stat *st)
{
	uint64_t id = p ? coll_proc_id(p) : 0, pino;
	struct coll_stat cs;
	uint32_t outlen;
	int64_t ret;
	bool cached;

	if (!n->parent) {
		*ino = TFS_ROOT_INO;
		return 0;
	}
	pthread_mutex_lock(&tree_lock);
	for (struct node *a = n; a; a = a->parent) {
		for (unsigned int i = 0; i < a->nr_refused; i++) {
			if (a->refused[i] == id) {
				pthread_mutex_unlock(&tree_lock);
				return -ENOENT;	/* its event is not this one */
			}
		}
	}
	cached = node_ino_cached_locked(n, id, ino);
	pthread_mutex_unlock(&tree_lock);
	if (cached && !st)
		return 0;
	ret = member_ino(p, n->parent, &pino, NULL);
	if (ret)
		return (int)ret;
	if (p) {
		ret = member_call(p, COLL_LOOKUP, pino, 0, 0, 0, n->name,
				  (uint32_t)strlen(n->name), &cs, sizeof(cs), &outlen);
		if (!ret && outlen != sizeof(cs))
			ret = -EPROTO;
		if (!ret && st)
			stat_in(&cs, st);
		if (!ret)
			*ino = cs.ino;
	} else {
		struct tfs_stat lst;

		ret = tfs_lookup(pino, n->name, &lst);
		if (!ret) {
			*ino = lst.ino;
			if (st)
				*st = lst;
		}
	}
	pthread_mutex_lock(&tree_lock);
	if (!ret)
		node_ino_set_locked(n, id, *ino);
	else
		node_ino_drop_locked(n, id);
	pthread_mutex_unlock(&tree_lock);
	return (int)ret;
}

static int tree_init(void)
{
	int err;

	pthread_mutex_lock(&tree_lock);
	if (!nodes && !node_new_locked(NULL, "", S_IFDIR | 0750, 2)) {
		pthread_mutex_unlock(&tree_lock);
		return -ENOMEM;
	}
	pthread_mutex_unlock(&tree_lock);
	err = tfs_init();
	return err;
}

static void stat_of_node(const struct node *n, struct tfs_stat *st)
{
	*st = (struct tfs_stat){ .ino = n->ino, .mode = n->mode, .nlink = n->nlink };
}

/* Find @name under @parent in any member; the collector's own first, then processes. */
static int tree_lookup(uint64_t parent, const char *name, struct tfs_stat *st)
{
	struct node *pn, *n;
	struct members ms;
	struct tfs_stat mst;
	uint64_t ino;
	int err = -ENOENT, i;

	if (strlen(name) > NAME_MAX)
		return -ENAMETOOLONG;
	pthread_mutex_lock(&tree_lock);
	pn = node_by_ino_locked(parent);
	n = pn ? node_child_locked(pn, name) : NULL;
	if (pn && !n)
		n = node_new_locked(pn, name, 0, 1);
	pthread_mutex_unlock(&tree_lock);
	if (!pn)
		return -ENOENT;
	if (!n)
		return -ENOMEM;
	if (members_get(&ms))
		return -ENOMEM;
	for (i = -1; i < ms.nr && err; i++)
		err = member_ino(i < 0 ? NULL : ms.procs[i], n, &ino, &mst);
	members_put(&ms);
	pthread_mutex_lock(&tree_lock);
	if (!err) {
		n->mode = mst.mode;
		n->nlink = mst.nlink;
	} else if (n->remembered && n->mode) {
		err = 0;
	} else if (err == -ECONNRESET || err == -ETIMEDOUT) {
		err = -ENOENT;	/* its process went, or was given up on */
	}
	if (!err)
		stat_of_node(n, st);
	pthread_mutex_unlock(&tree_lock);
	return err;
}


static int tree_getattr(uint64_t ino, struct tfs_stat *st)
{
	struct node *n;
	int err = -ENOENT;

	pthread_mutex_lock(&tree_lock);
	n = node_by_ino_locked(ino);
	if (n && n->mode) {
		stat_of_node(n, st);
		err = 0;
	}
	pthread_mutex_unlock(&tree_lock);
	return err;
}

/* readdir: the names of every member, each once, in the order first seen. */
struct dir_names {
	char		**names;
	struct tfs_stat	*st;
	int		nr, max;
};

static int dir_add_name(struct dir_names *d, const char *name, const struct tfs_stat *st)
{
	for (int i = 0; i < d->nr; i++)
		if (!strcmp(d->names[i], name))
			return 0;
	if (d->nr == d->max) {
		int max = d->max ? 2 * d->max : 64;
		char **nv = realloc(d->names, (size_t)max * sizeof(*nv));
		struct tfs_stat *sv;

		if (!nv)
			return -ENOMEM;
		d->names = nv;
		sv = realloc(d->st, (size_t)max * sizeof(*sv));
		if (!sv)
			return -ENOMEM;
		d->st = sv;
		d->max = max;
	}
	d->names[d->nr] = strdup(name);
	if (!d->names[d->nr])
		return -ENOMEM;
	d->st[d->nr++] = *st;
	return 0;
}

static int dir_local_fill(void *ctx, const char *name, const struct tfs_stat *st, off_t next)
{
	(void)next;
	return dir_add_name(ctx, name, st) ? 1 : 0;
}

static int member_readdir(struct coll_proc *p, struct node *n, struct dir_names *d)
{
	char *buf;
	uint64_t ino;
	uint32_t outlen;
	int64_t ret;
	off_t off = 0;
	int err = member_ino(p, n, &ino, NULL);

	if (err)
		return err;
	if (!p)
		return tfs_readdir(ino, 0, dir_local_fill, d);
	buf = malloc(COLL_MAX_PAYLOAD);
	if (!buf)
		return -ENOMEM;
	for (;;) {
		size_t at = 0;

		ret = member_call(p, COLL_READDIR, ino, (uint64_t)off, 0, 0, NULL, 0, buf,
				  COLL_MAX_PAYLOAD, &outlen);
		if (ret || !outlen)
			break;
		while (at + sizeof(struct coll_dirent) <= outlen) {
			struct coll_dirent de;
			char name[NAME_MAX + 1];
			struct tfs_stat st;

			memcpy(&de, buf + at, sizeof(de));
			if (de.namelen > NAME_MAX || at + sizeof(de) + de.namelen > outlen)
				break;
			memcpy(name, buf + at + sizeof(de), de.namelen);
			name[de.namelen] = 0;
			stat_in(&de.st, &st);
			if (dir_add_name(d, name, &st))
				break;
			off = de.next;
			at += (sizeof(de) + de.namelen + 7) & ~(size_t)7;
		}
	}
	free(buf);
	return (int)ret;
}

static int tree_readdir(uint64_t ino, off_t offset,
			int (*fill)(void *ctx, const char *name, const struct tfs_stat *st,
				    off_t next),
			void *ctx)
{
	struct dir_names d = { 0 };
	struct members ms;
	struct node *n, *c;
	int err = -ENOENT, i;
	mode_t mode;

	pthread_mutex_lock(&tree_lock);
	n = node_by_ino_locked(ino);
	mode = n ? n->mode : 0;	/* lookups and rmdir change it, under the lock */
	pthread_mutex_unlock(&tree_lock);
	if (!n)
		return -ENOENT;
	if (!S_ISDIR(mode))
		return -ENOTDIR;
	if (members_get(&ms))
		return -ENOMEM;
	for (i = -1; i < ms.nr; i++)
		if (!member_readdir(i < 0 ? NULL : ms.procs[i], n, &d))
			err = 0;
	members_put(&ms);
	/* The remembered directories no live process has any more. */
	pthread_mutex_lock(&tree_lock);
	for (c = nodes; c; c = c->next) {
		struct tfs_stat st;

		if (c->parent != n || !c->remembered || !c->mode)
			continue;
		stat_of_node(c, &st);
		dir_add_name(&d, c->name, &st);
		err = 0;
	}
	/* Entries carry the collector's inode numbers. */
	for (i = 0; i < d.nr; i++) {
		c = node_child_locked(n, d.names[i]);
		if (!c)
			c = node_new_locked(n, d.names[i], d.st[i].mode, d.st[i].nlink);
		if (!c)
			break;
		if (!c->mode)
			c->mode = d.st[i].mode, c->nlink = d.st[i].nlink;
		d.st[i].ino = c->ino;
	}
	pthread_mutex_unlock(&tree_lock);
	for (i = (int)offset; i < d.nr; i++)
		if (fill(ctx, d.names[i], &d.st[i], i + 1))
			break;
	for (i = 0; i < d.nr; i++)
		free(d.names[i]);
	free(d.names);
	free(d.st);
	return err;
}

static int member_slurp(struct member_file *mf, char **out, size_t *len);

/*
 * Keep the text of an event's format and id, which do not change: read
 * after the process is gone (trace-cmd reads the formats at the end of a
 * recording), they are what it showed.
 */
/* Two formats but for their "ID: N" lines. */
static bool same_format(const char *a, size_t al, const char *b, size_t bl)
{
	const char *ia = memmem(a, al, "\nID: ", 5), *ib = memmem(b, bl, "\nID: ", 5);
	const char *ea, *eb;

	if (!ia || !ib || ia - a != ib - b || memcmp(a, b, (size_t)(ia - a)))
		return false;
	ea = memchr(ia + 1, '\n', al - (size_t)(ia + 1 - a));
	eb = memchr(ib + 1, '\n', bl - (size_t)(ib + 1 - b));
	if (!ea || !eb)
		return false;
	return al - (size_t)(ea - a) == bl - (size_t)(eb - b) &&
	       !memcmp(ea, eb, al - (size_t)(ea - a));
}

/*
 * A process whose event of a name another process defined has another
 * format: its event is refused (the collector's tree shows the first
 * one), and both are named, in the collector's error_log and on the
 * process's stderr.
 */
static void refuse_event(struct coll_proc *p, struct node *ev)
{
	uint64_t *v, id = coll_proc_id(p), eino;
	char line[512];
	struct coll_msg m = { .op = COLL_WARN };
	struct coll_stat cs;
	uint32_t outlen;
	int64_t h;

	/* Off in that program, and out of the tree's reach for it. */
	if (!member_ino(p, ev, &eino, NULL) &&
	    !member_call(p, COLL_LOOKUP, eino, 0, 0, 0, "enable", 6, &cs, sizeof(cs), &outlen) &&
	    outlen == sizeof(cs) &&
	    (h = member_call(p, COLL_OPEN, cs.ino, 0, O_WRONLY, 0, NULL, 0, NULL, 0,
			     &outlen)) >= 0) {
		member_call(p, COLL_WRITE, (uint64_t)h, 0, 0, 0, "0", 1, NULL, 0, &outlen);
		member_call(p, COLL_RELEASE, (uint64_t)h, 0, 0, 0, NULL, 0, NULL, 0, &outlen);
	}

	pthread_mutex_lock(&tree_lock);
	v = realloc(ev->refused, (ev->nr_refused + 1) * sizeof(*v));
	if (v) {
		ev->refused = v;
		ev->refused[ev->nr_refused++] = id;
	}
	pthread_mutex_unlock(&tree_lock);
	snprintf(line, sizeof(line), "event %s of process %d (%s) has another format than the "
		 "one of that name the collector serves: refused", ev->path + 7,
		 (int)coll_proc_pid(p), coll_proc_comm(p));
	coll_log(true, "%s", line);
	snprintf(line, sizeof(line), "ustrace: the collector refused event %s: another "
		 "program defines it with another format\n", ev->path + 7);
	m.len = (uint32_t)strlen(line);
	coll_proc_send(p, &m, line);
}

static void learn_text(struct coll_proc *p, struct node *n, uint64_t ino)
{
	struct member_file mf = { .proc = p };
	bool conflict = false, format = !strcmp(n->name, "format");
	uint32_t outlen;
	int64_t h;
	size_t len;
	char *text;

	h = member_call(p, COLL_OPEN, ino, 0, O_RDONLY, 0, NULL, 0, NULL, 0, &outlen);
	if (h < 0)
		return;
	mf.handle = (uint64_t)h;
	if (!member_slurp(&mf, &text, &len) && text) {
		pthread_mutex_lock(&tree_lock);
		if (format && n->cache_len && n->format_from != coll_proc_id(p) &&
		    !same_format(n->cache, n->cache_len, text, len)) {
			conflict = true;
			free(text);
		} else if (!format || !n->cache_len || n->format_from == coll_proc_id(p) ||
			   !n->format_from) {
			free(n->cache);
			n->cache = text;
			n->cache_len = len;
			if (format)
				n->format_from = coll_proc_id(p);
		} else {
			free(text);
		}
		pthread_mutex_unlock(&tree_lock);
	} else {
		free(text);
	}
	member_call(p, COLL_RELEASE, mf.handle, 0, 0, 0, NULL, 0, NULL, 0, &outlen);
	if (conflict && n->parent)
		refuse_event(p, n->parent);
}

/*
 * Remember a process's events: every node under its events/ (systems,
 * events, their files), so that they stay listed after it.  Called after
 * it registered, without locks.
 */
static void learn_dir(struct coll_proc *p, struct node *n, int depth)
{
	struct dir_names d = { 0 };
	struct node *c;
	int i;

	if (member_readdir(p, n, &d))
		goto out;
	for (i = 0; i < d.nr; i++) {
		pthread_mutex_lock(&tree_lock);
		c = node_child_locked(n, d.names[i]);
		if (!c)
			c = node_new_locked(n, d.names[i], d.st[i].mode, d.st[i].nlink);
		else if (!c->mode)
			c->mode = d.st[i].mode, c->nlink = d.st[i].nlink;
		if (c)
			node_ino_set_locked(c, coll_proc_id(p), d.st[i].ino);
		pthread_mutex_unlock(&tree_lock);
		if (c && S_ISDIR(d.st[i].mode) && depth < 2)
			learn_dir(p, c, depth + 1);
		else if (c && depth == 2 && (!strcmp(c->name, "format") || !strcmp(c->name, "id")))
			learn_text(p, c, d.st[i].ino);
	}
out:
	for (i = 0; i < d.nr; i++)
		free(d.names[i]);
	free(d.names);
	free(d.st);
}

/* A remembered node under @parent (made if missing), mode @mode. */
static struct node *learn_node_locked(struct node *parent, const char *name, mode_t mode)
{
	struct node *c = node_child_locked(parent, name);

	if (!c)
		c = node_new_locked(parent, name, mode, S_ISDIR(mode) ? 2 : 1);
	else if (!c->mode)
		c->mode = mode, c->nlink = S_ISDIR(mode) ? 2 : 1;
	return c;
}

/**
 * coll_tree_learn_format - remember an event's directory from its format
 * @system: its system
 * @text:   its format text (events/SYSTEM/EVENT/format), @len bytes
 *
 * The process's format log (coll_record.c) names every event it
 * registered, even one that it registered after we walked its tree, and
 * even once it is gone: its directory, files and format text stay listed.
 */
void coll_tree_learn_format(const char *system, const char *text, size_t len)
{
	static const struct { const char *name; mode_t mode; } files[] = {
		{ "enable", S_IFREG | 0640 }, { "filter", S_IFREG | 0640 },
		{ "trigger", S_IFREG | 0640 }, { "format", S_IFREG | 0440 },
		{ "id", S_IFREG | 0440 }, { "hist", S_IFREG | 0440 },
	};
	char name[NAME_MAX + 1], id[32];
	struct node *root, *ev, *sys, *e, *c;
	const char *p = len > 6 && !strncmp(text, "name: ", 6) ? text + 6 : NULL, *q;
	long idn = -1;
	uint32_t tree_id;

	if (!p || !(q = memchr(p, '\n', len - 6)) || q == p || q - p > NAME_MAX ||
	    strchr(system, '/') || !strcmp(system, ".") || !strcmp(system, ".."))
		return;
	memcpy(name, p, (size_t)(q - p));
	name[q - p] = 0;
	if (strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return;
	/* Its id in the tree, given now if it is new (coll_record.c). */
	if ((size_t)(q + 1 - text) + 4 < len && !strncmp(q + 1, "ID: ", 4))
		idn = strtol(q + 5, NULL, 10);
	tree_id = coll_id_of(system, text, len);
	if (tree_id)
		idn = tree_id;
	pthread_mutex_lock(&tree_lock);
	root = node_by_ino_locked(TFS_ROOT_INO);
	ev = root ? learn_node_locked(root, "events", S_IFDIR | 0750) : NULL;
	sys = ev ? learn_node_locked(ev, system, S_IFDIR | 0750) : NULL;
	if (sys) {
		learn_node_locked(sys, "enable", S_IFREG | 0640);
		learn_node_locked(sys, "filter", S_IFREG | 0640);
	}
	e = sys ? learn_node_locked(sys, name, S_IFDIR | 0750) : NULL;
	for (size_t i = 0; e && i < sizeof(files) / sizeof(files[0]); i++) {
		c = learn_node_locked(e, files[i].name, files[i].mode);
		if (!c || c->cache_len)
			continue;
		if (!strcmp(files[i].name, "format") && (c->cache = malloc(len))) {
			memcpy(c->cache, text, len);
			c->cache_len = len;
		} else if (!strcmp(files[i].name, "id") && idn >= 0) {
			snprintf(id, sizeof(id), "%ld\n", idn);
			c->cache = strdup(id);
			c->cache_len = c->cache ? strlen(id) : 0;
		}
	}
	pthread_mutex_unlock(&tree_lock);
}

void coll_tree_learn(struct coll_proc *p)
{
	struct tfs_stat st;
	struct node *root, *ev;

	if (tree_lookup(TFS_ROOT_INO, "events", &st))
		return;
	pthread_mutex_lock(&tree_lock);
	root = node_by_ino_locked(TFS_ROOT_INO);
	ev = root ? node_child_locked(root, "events") : NULL;
	pthread_mutex_unlock(&tree_lock);
	if (ev)
		learn_dir(p, ev, 0);
}

/* ------------------------------------------------------------------
 * The state
 */

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* Files whose writes act rather than set: not remembered. */
static bool path_acts(const char *path)
{
	static const char *const acts[] = {
		"trace", "trace_pipe", "trace_pipe_raw", "trace_marker", "trace_marker_raw",
		"snapshot", "snapshot_raw", "free_buffer", "error_log", "stack_trace",
	};
	const char *b = base_name(path);

	for (size_t i = 0; i < sizeof(acts) / sizeof(acts[0]); i++)
		if (!strcmp(b, acts[i]))
			return true;
	return !strncmp(path, "per_cpu/", 8) || strstr(path, "/per_cpu/");
}

/* Files each write of which adds to what the earlier ones set. */
static bool path_adds(const char *path)
{
	static const char *const adds[] = {
		"set_event", "set_event_pid", "set_event_notrace_pid", "trigger",
		"synthetic_events", "dynamic_events", "kprobe_events", "uprobe_events",
	};
	const char *b = base_name(path);

	for (size_t i = 0; i < sizeof(adds) / sizeof(adds[0]); i++)
		if (!strcmp(b, adds[i]))
			return true;
	return false;
}

static void state_drop_locked(bool (*match)(const struct state *s, const char *arg),
			      const char *arg)
{
	struct state **pp = &states, *s;

	while ((s = *pp)) {
		if (match(s, arg)) {
			*pp = s->next;
			free(s->path);
			free(s->data);
			free(s);
		} else {
			pp = &s->next;
		}
	}
}

static bool state_same_path(const struct state *s, const char *path)
{
	return s->kind == COLL_STATE_WRITE && !strcmp(s->path, path);
}

static bool state_in_instance(const struct state *s, const char *inst)
{
	size_t l = strlen(inst);

	return !strncmp(s->path, inst, l) && (s->path[l] == '/' || !s->path[l]);
}

/* Remember a write or a new instance, and hand it to the processes.  Under state_lock. */
static void state_add_locked(uint32_t kind, int flags, const char *path, const char *data,
			     size_t len)
{
	struct coll_msg m = { .op = COLL_STATE, .c = (uint32_t)flags, .d = kind };
	struct state *s, **pp;
	char *payload;
	size_t pl = strlen(path);

	if (kind == COLL_STATE_RMDIR) {
		state_drop_locked(state_in_instance, path);
	} else if (kind == COLL_STATE_WRITE) {
		if (path_acts(path))
			return;
		if (!path_adds(path) || (flags & O_TRUNC))
			state_drop_locked(state_same_path, path);
	}
	if (kind == COLL_STATE_RMDIR || pl + 1 + len > COLL_MAX_PAYLOAD)
		return;
	s = calloc(1, sizeof(*s));
	payload = malloc(pl + 1 + len);
	if (!s || !payload || !(s->path = strdup(path)) || !(s->data = malloc(len + 1))) {
		if (s)
			free(s->path);
		free(s);
		free(payload);
		return;
	}
	s->kind = kind;
	s->flags = (uint32_t)flags;
	memcpy(s->data, data, len);
	s->data[len] = 0;
	s->len = len;
	for (pp = &states; *pp; pp = &(*pp)->next)
		;
	*pp = s;
	memcpy(payload, path, pl + 1);
	memcpy(payload + pl + 1, data, len);
	m.len = (uint32_t)(pl + 1 + len);
	coll_procs_state(&m, payload);
	free(payload);
}

/* Does a set_event word ("sys:event", "sys:*", "event", "*:*") name sys/event? */
static bool word_names(const char *w, size_t wl, const char *sys, const char *ev)
{
	const char *colon = memchr(w, ':', wl);
	size_t sl = colon ? (size_t)(colon - w) : 0;
	const char *e = colon ? colon + 1 : w;
	size_t el = wl - (size_t)(e - w);

	if (colon && !(sl == 1 && *w == '*') && (sl != strlen(sys) || memcmp(w, sys, sl)))
		return false;
	return (el == 1 && *e == '*') || (el == strlen(ev) && !memcmp(e, ev, el));
}

/*
 * The enable of a remembered event no process has: what the remembered
 * writes made it, in order (events/enable, the system's, the event's,
 * set_event).  Under state_lock.  Return: '0' or '1'.
 */
static char state_enable_locked(const char *path)
{
	char prefix[PATH_MAX], sys[NAME_MAX + 1], ev[NAME_MAX + 1];
	const char *rest = strstr(path, "events/");
	char on = '0';
	size_t pl;

	if (!rest)
		return on;
	if (sscanf(rest, "events/%255[^/]/%255[^/]/enable", sys, ev) != 2) {
		/* events/enable, a system's enable: what was last written to it */
		for (const struct state *st = states; st; st = st->next)
			if (st->kind == COLL_STATE_WRITE && !strcmp(st->path, path) && st->len)
				on = st->data[0] == '1' ? '1' : '0';
		return on;
	}
	pl = (size_t)(rest - path);
	memcpy(prefix, path, pl);
	prefix[pl] = 0;
	for (const struct state *st = states; st; st = st->next) {
		const char *p = st->path, *r;

		if (st->kind != COLL_STATE_WRITE || strncmp(p, prefix, pl))
			continue;
		r = p + pl;
		if (!strcmp(r, "set_event")) {
			const char *w = st->data, *end = st->data + st->len;

			if (st->flags & O_TRUNC)
				on = '0';
			while (w < end) {
				size_t wl;
				bool neg;

				while (w < end && (*w == ' ' || *w == '\n' || *w == '\t'))
					w++;
				wl = strcspn(w, " \n\t");
				if (!wl)
					break;
				neg = *w == '!';
				if (word_names(w + neg, wl - neg, sys, ev))
					on = neg ? '0' : '1';
				w += wl;
			}
			continue;
		}
		if (strncmp(r, "events/", 7) || !st->len)
			continue;
		r += 7;
		if (!strcmp(r, "enable") ||
		    (!strncmp(r, sys, strlen(sys)) && (!strcmp(r + strlen(sys), "/enable") ||
		     (r[strlen(sys)] == '/' && !strncmp(r + strlen(sys) + 1, ev, strlen(ev)) &&
		      !strcmp(r + strlen(sys) + 1 + strlen(ev), "/enable")))))
			on = st->data[0] == '1' ? '1' : '0';
	}
	return on;
}

int coll_tree_welcome(struct coll_proc *p)
{
	struct ustrace_clock_scale scale;
	struct coll_msg m;
	struct state *s;
	char *payload = malloc(COLL_MAX_PAYLOAD);
	int err = 0;

	if (!payload)
		return -ENOMEM;
	pthread_mutex_lock(&state_lock);
	for (s = states; s && !err; s = s->next) {
		size_t pl = strlen(s->path);

		m = (struct coll_msg){ .op = COLL_STATE, .c = s->flags, .d = s->kind,
				       .len = (uint32_t)(pl + 1 + s->len) };
		memcpy(payload, s->path, pl + 1);
		memcpy(payload + pl + 1, s->data, s->len);
		err = coll_proc_send(p, &m, payload);
	}
	/* One clock for every program: ours, if it has not read its own yet. */
	ustrace_clock_local_scale(&scale);
	m = (struct coll_msg){ .op = COLL_WELCOME, .len = sizeof(scale) };
	if (!err)
		err = coll_proc_send(p, &m, &scale);
	if (!err)
		coll_proc_take_buffer(p);
	if (!err)
		coll_proc_list(p);
	pthread_mutex_unlock(&state_lock);
	free(payload);
	return err;
}

void coll_tree_log(const char *line)
{
	struct timespec ts;
	char stamp[48];
	size_t l = strlen(line), sl;
	char *v;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	sl = (size_t)snprintf(stamp, sizeof(stamp), "[%5lld.%06ld] collector: ",
			      (long long)ts.tv_sec, ts.tv_nsec / 1000);
	pthread_mutex_lock(&log_lock);
	v = realloc(coll_lines, coll_lines_len + sl + l + 2);
	if (v) {
		coll_lines = v;
		memcpy(v + coll_lines_len, stamp, sl);
		memcpy(v + coll_lines_len + sl, line, l);
		v[coll_lines_len + sl + l] = '\n';
		coll_lines_len += sl + l + 1;
		v[coll_lines_len] = 0;
	}
	pthread_mutex_unlock(&log_lock);
}

/* ------------------------------------------------------------------
 * Instances
 */

/* An instance made or removed in every process, with the state under state_lock. */
static void instance_fan_out_locked(struct node *pn, uint32_t op, const char *name)
{
	struct members ms;
	struct coll_stat cs;
	uint64_t pino;
	uint32_t outlen;

	if (members_get(&ms))
		return;
	for (int i = 0; i < ms.nr; i++)
		if (!member_ino(ms.procs[i], pn, &pino, NULL))
			member_call(ms.procs[i], op, pino, 0, 0, 0, name, (uint32_t)strlen(name),
				    &cs, sizeof(cs), &outlen);
	members_put(&ms);
}

/*
 * mkdir or rmdir of instances/NAME: the collector's own tree first (it
 * says what the kernel would), then every process's, then remembered.
 * Return: the collector's own result; *@path the instance's path.
 */
static int instance_change(uint64_t parent, const char *name, bool make, struct node **pnp,
			   char *path, size_t size)
{
	struct tfs_stat lst;
	struct node *pn;
	uint64_t pino;
	int err;

	pthread_mutex_lock(&tree_lock);
	pn = node_by_ino_locked(parent);
	if (pn)
		snprintf(path, size, "%s/%s", pn->path, name);
	pthread_mutex_unlock(&tree_lock);
	*pnp = pn;
	if (!pn)
		return -ENOENT;
	err = member_ino(NULL, pn, &pino, NULL);
	if (!err)
		err = make ? tfs_mkdir(pino, name, &lst) : tfs_rmdir(pino, name);
	if (err)
		return err;
	pthread_mutex_lock(&state_lock);
	instance_fan_out_locked(pn, make ? COLL_MKDIR : COLL_RMDIR, name);
	state_add_locked(make ? COLL_STATE_MKDIR : COLL_STATE_RMDIR, 0, path, "", 0);
	pthread_mutex_unlock(&state_lock);
	return 0;
}

static int tree_mkdir(uint64_t parent, const char *name, struct tfs_stat *st)
{
	char path[PATH_MAX];
	struct node *pn;
	int err = instance_change(parent, name, true, &pn, path, sizeof(path));

	return err ? err : tree_lookup(parent, name, st);
}

static int tree_rmdir(uint64_t parent, const char *name)
{
	char path[PATH_MAX];
	struct node *pn;
	size_t l;
	int err = instance_change(parent, name, false, &pn, path, sizeof(path));

	if (err)
		return err;
	/* The instance's nodes are forgotten: a new one of the name is new. */
	l = strlen(path);
	pthread_mutex_lock(&tree_lock);
	for (struct node *c = nodes; c; c = c->next) {
		if (!strncmp(c->path, path, l) && (c->path[l] == '/' || !c->path[l])) {
			c->nr_inos = 0;
			c->mode = 0;
			c->remembered = false;
		}
	}
	pthread_mutex_unlock(&tree_lock);
	return 0;
}

/* ------------------------------------------------------------------
 * Files
 */

static enum file_kind kind_of(const char *path)
{
	const char *b = base_name(path);

	if (!strcmp(b, "trace") && !strstr(path, "per_cpu/"))
		return F_MERGE;
	if (!strcmp(b, "trace_pipe_raw") && !strncmp(path, "per_cpu/cpu", 11))
		return F_RAW;	/* the top level's: the kept buffers (coll_record.c) */
	if (!strcmp(b, "trace_pipe") || !strcmp(b, "trace_pipe_raw"))
		return F_PIPE;
	if (!strcmp(b, "saved_cmdlines") || !strcmp(b, "set_event") || !strcmp(b, "set_event_pid") ||
	    !strcmp(b, "available_events") || !strcmp(b, "set_event_notrace_pid"))
		return F_UNION;
	if (!strcmp(b, "error_log"))
		return F_CONCAT;
	return F_FIRST;
}

static void member_close(struct member_file *mf)
{
	uint32_t outlen;

	if (mf->proc)
		member_call(mf->proc, COLL_RELEASE, mf->handle, 0, 0, 0, NULL, 0, NULL, 0,
			    &outlen);
	else if (mf->local)
		tfs_release(mf->local);
}

static void cfile_free(struct cfile *f)
{
	for (int i = 0; i < f->nr; i++)
		member_close(&f->m[i]);
	for (int i = 0; i < f->nr; i++)
		if (f->m[i].proc)
			coll_procs_put_one(f->m[i].proc);
	free(f->m);
	free(f->snap);
	coll_raw_close(f->raw);
	pthread_mutex_destroy(&f->lock);
	free(f);
}

/*
 * Open @n in every member that has it; a process's files first when the
 * node is an event's (their text is the event's), the collector's own
 * last then.  Return: how many opened, or -errno (the first member's
 * error when none opened).
 */
static int tree_open(uint64_t ino, int flags, struct tfs_file **filep)
{
	struct members ms;
	struct cfile *f;
	struct node *n;
	int err = -ENOENT, first_err = 0;
	bool events, marker;
	mode_t mode;

	/* mode and remembered: lookups and rmdir change them, under the lock. */
	pthread_mutex_lock(&tree_lock);
	n = node_by_ino_locked(ino);
	mode = n ? n->mode : 0;
	events = n && n->remembered;
	pthread_mutex_unlock(&tree_lock);
	if (!n || !mode)
		return -ENOENT;
	if (S_ISDIR(mode))
		return -EISDIR;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	pthread_mutex_init(&f->lock, NULL);
	f->node = n;
	f->flags = flags;
	f->kind = kind_of(n->path);
	f->remembered = events;
	marker = !strncmp(base_name(n->path), "trace_marker", 12) &&
		 (flags & O_ACCMODE) != O_RDONLY;
	if (members_get(&ms)) {
		free(f);
		return -ENOMEM;
	}
	f->m = calloc((size_t)ms.nr + 1, sizeof(*f->m));
	if (!f->m) {
		members_put(&ms);
		free(f);
		return -ENOMEM;
	}
	/*
	 * The members, in order: for an event's file the processes, and the
	 * collector's own tree only when none has it and it is the
	 * collector's (header_page, ftrace/) or only read; for the others
	 * the collector's own first, then the processes.  A trace_marker's
	 * record goes into the collector's own buffer alone (once, not once
	 * per program).
	 */
	for (int k = 0; k <= ms.nr; k++) {
		struct coll_proc *p;
		struct member_file mf = { 0 };
		uint64_t mino;
		uint32_t outlen;
		int64_t ret;

		if (marker && k > 0)
			break;
		if (events && k == ms.nr) {
			const char *rest = strstr(n->path, "events/");

			if (f->nr || (n->cache_len && (flags & O_ACCMODE) == O_RDONLY) ||
			    ((flags & O_ACCMODE) != O_RDONLY && strncmp(rest, "events/ftrace/", 14) &&
			     strncmp(rest, "events/header_", 14)))
				break;
			p = NULL;
		} else if (events) {
			p = ms.procs[k];
		} else {
			p = k == 0 ? NULL : ms.procs[k - 1];
		}
		ret = member_ino(p, n, &mino, NULL);
		if (ret == -ENOENT || ret == -ECONNRESET || ret == -ETIMEDOUT)
			continue;
		if (!ret && p) {
			ret = member_call(p, COLL_OPEN, mino, 0, (uint32_t)flags, 0, NULL, 0, NULL,
					  0, &outlen);
			mf.handle = (uint64_t)ret;
		} else if (!ret) {
			ret = tfs_open(mino, flags, &mf.local);
		}
		if (ret == -ECONNRESET || ret == -ETIMEDOUT)
			continue;
		if (ret < 0) {
			if (!first_err)
				first_err = (int)ret;
			continue;
		}
		mf.proc = p;
		if (p)
			coll_procs_ref_one(p);
		f->m[f->nr++] = mf;
	}
	members_put(&ms);
	if (!f->nr && first_err) {
		cfile_free(f);
		return first_err;
	}
	if (!f->nr && !events) {
		cfile_free(f);
		return err;
	}
	/* Writes must reach every member: one that refused fails the open. */
	if (first_err && (flags & O_ACCMODE) != O_RDONLY) {
		cfile_free(f);
		return first_err;
	}
	if (f->kind == F_RAW && (flags & O_ACCMODE) != O_WRONLY) {
		f->raw = coll_raw_open(atoi(n->path + 11));
		if (!f->raw) {
			cfile_free(f);
			return -ENOMEM;
		}
	}
	if ((flags & O_TRUNC) && (flags & O_ACCMODE) != O_RDONLY && !strcmp(n->path, "trace"))
		coll_records_clear();
	if ((flags & O_TRUNC) && (flags & O_ACCMODE) != O_RDONLY) {
		pthread_mutex_lock(&state_lock);
		state_add_locked(COLL_STATE_WRITE, O_TRUNC, n->path, "", 0);
		pthread_mutex_unlock(&state_lock);
	}
	*filep = (struct tfs_file *)f;
	return 0;
}

/* Read all of a member's file (a snapshot text). */
static int member_slurp(struct member_file *mf, char **out, size_t *len)
{
	size_t size = 0;
	char *buf = NULL, *v;
	uint32_t outlen;
	int64_t ret;

	*len = 0;
	for (;;) {
		if (size - *len < COLL_MAX_PAYLOAD) {
			size = size ? 2 * size : 2 * COLL_MAX_PAYLOAD;
			v = realloc(buf, size);
			if (!v) {
				free(buf);
				return -ENOMEM;
			}
			buf = v;
		}
		if (mf->proc) {
			ret = member_call(mf->proc, COLL_READ, mf->handle, *len, 0, COLL_MAX_PAYLOAD,
					  NULL, 0, buf + *len, COLL_MAX_PAYLOAD, &outlen);
		} else {
			ret = tfs_read(mf->local, buf + *len, COLL_MAX_PAYLOAD, (off_t)*len);
		}
		if (ret <= 0)
			break;
		*len += (size_t)ret;
	}
	*out = buf;
	if (ret == -ECONNRESET || ret == -ETIMEDOUT)
		return -ENOENT;	/* gone while read: as if it had not the file */
	return ret < 0 && !*len ? (int)ret : 0;
}

/* A trace line's time in ns, or -1 for a line that has none (a header, a stack). */
static int64_t line_time(const char *l, const char *end)
{
	const char *p = memchr(l, ']', (size_t)(end - l));
	int64_t sec = 0, frac = 0;
	int digits = 0;

	if (!p || *l == '#')
		return -1;
	p++;
	while (p < end && *p == ' ')
		p++;
	while (p < end && *p != ' ')	/* the flags */
		p++;
	while (p < end && *p == ' ')
		p++;
	if (p == end || *p < '0' || *p > '9')
		return -1;
	while (p < end && *p >= '0' && *p <= '9')
		sec = sec * 10 + (*p++ - '0');
	if (p < end && *p == '.')
		for (p++; p < end && *p >= '0' && *p <= '9'; p++, digits++)
			if (digits < 9)
				frac = frac * 10 + (*p - '0');
	if (p == end || *p != ':')
		return -1;
	for (; digits < 9; digits++)
		frac *= 10;
	return sec * 1000000000 + frac;
}

struct text_cursor {
	const char	*p, *end;
	int64_t		t;	/* of the entry at p */
};

/* The extent of the entry at c->p: its line and the lines without a time after it. */
static const char *entry_end(const struct text_cursor *c)
{
	const char *q = memchr(c->p, '\n', (size_t)(c->end - c->p));

	q = q ? q + 1 : c->end;
	while (q < c->end) {
		const char *nl = memchr(q, '\n', (size_t)(c->end - q));
		const char *e = nl ? nl + 1 : c->end;

		if (*q == '#' || line_time(q, e) >= 0)
			break;
		q = e;
	}
	return q;
}

static int append(char **buf, size_t *len, size_t *size, const char *s, size_t n)
{
	char *v;

	if (*len + n + 1 > *size) {
		size_t ns = *size ? *size : 4096;

		while (*len + n + 1 > ns)
			ns *= 2;
		v = realloc(*buf, ns);
		if (!v)
			return -ENOMEM;
		*buf = v;
		*size = ns;
	}
	memcpy(*buf + *len, s, n);
	*len += n;
	(*buf)[*len] = 0;
	return 0;
}

/*
 * trace: the header of the first text (its entry counts the sums of all),
 * then every member's entries in time order.
 */
static int merge_traces(char **texts, size_t *lens, int nr, char **out, size_t *outlen)
{
	struct text_cursor *c = calloc((size_t)nr, sizeof(*c));
	unsigned long in_buf = 0, written = 0, a, b;
	size_t size = 0;
	char *buf = NULL;
	int i;

	*outlen = 0;
	if (!c)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		const char *s = strstr(texts[i] ? texts[i] : "", "entries-in-buffer/entries-written: ");

		c[i].p = texts[i] ? texts[i] : "";
		c[i].end = c[i].p + lens[i];
		if (s && sscanf(s + 35, "%lu/%lu", &a, &b) == 2)
			in_buf += a, written += b;
	}
	/* The header: the first text's lines up to its first entry. */
	for (i = 0; i < nr; i++) {
		while (c[i].p < c[i].end && (*c[i].p == '#' || *c[i].p == '\n' ||
					     line_time(c[i].p, c[i].end) < 0)) {
			const char *nl = memchr(c[i].p, '\n', (size_t)(c[i].end - c[i].p));
			const char *e = nl ? nl + 1 : c[i].end;
			const char *s = strstr(c[i].p, "entries-in-buffer/entries-written: ");

			if (i == 0 && s && s < e) {
				char line[160];
				int n = snprintf(line, sizeof(line), "%.*s%lu/%lu", (int)(s + 35 - c[i].p),
						 c[i].p, in_buf, written);
				const char *rest = s + 35;

				while (rest < e && (*rest == '/' || (*rest >= '0' && *rest <= '9')))
					rest++;
				append(&buf, outlen, &size, line, (size_t)n);
				append(&buf, outlen, &size, rest, (size_t)(e - rest));
			} else if (i == 0) {
				append(&buf, outlen, &size, c[i].p, (size_t)(e - c[i].p));
			}
			c[i].p = e;
		}
		c[i].t = c[i].p < c[i].end ? line_time(c[i].p, c[i].end) : INT64_MAX;
	}
	for (;;) {
		int best = -1;
		const char *e;

		for (i = 0; i < nr; i++)
			if (c[i].p < c[i].end && (best < 0 || c[i].t < c[best].t))
				best = i;
		if (best < 0)
			break;
		e = entry_end(&c[best]);
		if (append(&buf, outlen, &size, c[best].p, (size_t)(e - c[best].p)))
			break;
		c[best].p = e;
		c[best].t = e < c[best].end ? line_time(e, c[best].end) : INT64_MAX;
		if (c[best].t < 0)
			c[best].t = INT64_MAX - 1;
	}
	free(c);
	*out = buf;
	return buf || !*outlen ? 0 : -ENOMEM;
}

/* Lines of every text, each once, in the order first seen. */
static int union_lines(char **texts, size_t *lens, int nr, bool concat, char **out,
		       size_t *outlen)
{
	size_t size = 0;
	char *buf = NULL;

	*outlen = 0;
	for (int i = 0; i < nr; i++) {
		const char *p = texts[i], *end = p + lens[i];

		while (p && p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			const char *e = nl ? nl + 1 : end;
			size_t l = (size_t)(e - p);
			bool seen = false;

			if (!concat && buf) {
				for (const char *q = buf; q < buf + *outlen;) {
					const char *qn = memchr(q, '\n', (size_t)(buf + *outlen - q));
					const char *qe = qn ? qn + 1 : buf + *outlen;

					if ((size_t)(qe - q) == l && !memcmp(q, p, l)) {
						seen = true;
						break;
					}
					q = qe;
				}
			}
			if (!seen && append(&buf, outlen, &size, p, l))
				return -ENOMEM;
			p = e;
		}
	}
	*out = buf;
	return 0;
}

/* Build the snapshot a non-consuming file reads from.  Under f->lock. */
static int cfile_snap(struct cfile *f)
{
	char **texts;
	size_t *lens;
	int nr = f->nr, err = 0, i;

	if (f->snapped)
		return 0;
	texts = calloc((size_t)nr + 2, sizeof(*texts));
	lens = calloc((size_t)nr + 2, sizeof(*lens));
	if (!texts || !lens) {
		free(texts);
		free(lens);
		return -ENOMEM;
	}
	for (i = 0; i < nr && !err; i++) {
		err = member_slurp(&f->m[i], &texts[i], &lens[i]);
		if (err == -ENOENT)
			err = 0, lens[i] = 0;
		else if (!err && f->kind == F_FIRST)
			break;
	}
	if (f->kind == F_FIRST) {
		/* The first that answered, moved to the front. */
		if (i < nr) {
			char *t = texts[i];

			texts[i] = texts[0], texts[0] = t;
			lens[0] = lens[i];
			nr = 1;
		} else {
			nr = 0;
		}
	}
	if (!err && f->kind == F_UNION && !strcmp(base_name(f->node->path), "available_events") &&
	    !strchr(f->node->path, '/')) {
		/* And the events remembered from processes gone. */
		size_t size = 0, len = 0;
		char *t = NULL;

		pthread_mutex_lock(&tree_lock);
		for (struct node *e = nodes; e; e = e->next) {
			if (!e->remembered || !e->mode || !S_ISDIR(e->mode) || !e->parent ||
			    !e->parent->parent || !e->parent->parent->parent ||
			    strcmp(e->parent->parent->path, "events") ||
			    !strcmp(e->parent->name, "ftrace"))
				continue;
			append(&t, &len, &size, e->parent->name, strlen(e->parent->name));
			append(&t, &len, &size, ":", 1);
			append(&t, &len, &size, e->name, strlen(e->name));
			append(&t, &len, &size, "\n", 1);
		}
		pthread_mutex_unlock(&tree_lock);
		texts[nr] = t;
		lens[nr] = len;
		nr++;
	}
	if (!err && f->kind == F_UNION && !strcmp(f->node->path, "saved_cmdlines")) {
		/* And the names of the threads of programs gone. */
		texts[nr] = coll_records_cmdlines(&lens[nr]);
		nr++;
	}
	if (!err && f->kind == F_MERGE && !strcmp(f->node->path, "trace")) {
		/* And the events of the programs gone, from their kept buffers. */
		texts[nr] = coll_records_trace(&lens[nr]);
		nr++;
	}
	if (!err && f->kind == F_CONCAT) {
		pthread_mutex_lock(&log_lock);
		if (coll_lines_len && (texts[nr] = malloc(coll_lines_len)))
			memcpy(texts[nr], coll_lines, lens[nr] = coll_lines_len);
		pthread_mutex_unlock(&log_lock);
		nr++;
	}
	if (err) {
		/* nothing */
	} else if (f->kind == F_MERGE) {
		err = merge_traces(texts, lens, nr, &f->snap, &f->snap_len);
	} else if (f->kind == F_UNION || f->kind == F_CONCAT) {
		err = union_lines(texts, lens, nr, f->kind == F_CONCAT, &f->snap, &f->snap_len);
	} else if (nr) {
		f->snap = texts[0];
		f->snap_len = lens[0];
		texts[0] = NULL;
		/* A remembered file keeps its last text for when no process has it. */
		if (f->remembered) {
			pthread_mutex_lock(&tree_lock);
			free(f->node->cache);
			f->node->cache = f->snap_len ? malloc(f->snap_len) : NULL;
			if (f->node->cache)
				memcpy(f->node->cache, f->snap, f->snap_len);
			f->node->cache_len = f->node->cache ? f->snap_len : 0;
			pthread_mutex_unlock(&tree_lock);
		}
	} else {
		/* No process has it: what the state makes it, was last seen, or its default. */
		const char *b = base_name(f->node->path);
		char on[3] = "0\n";
		const char *def = !strcmp(b, "enable") ? on : !strcmp(b, "filter") ? "none\n" : "";

		if (def == on) {
			pthread_mutex_lock(&state_lock);
			on[0] = state_enable_locked(f->node->path);
			pthread_mutex_unlock(&state_lock);
			if ((f->snap = strdup(on)))
				f->snap_len = 2;
		}
		pthread_mutex_lock(&tree_lock);
		if (f->snap) {
			/* the state's */
		} else if (f->node->cache_len && (f->snap = malloc(f->node->cache_len))) {
			memcpy(f->snap, f->node->cache, f->node->cache_len);
			f->snap_len = f->node->cache_len;
		} else if (*def && (f->snap = strdup(def))) {
			f->snap_len = strlen(def);
		}
		pthread_mutex_unlock(&tree_lock);
	}
	if (!err && f->kind == F_FIRST && f->snap &&
	    (!strcmp(base_name(f->node->path), "format") || !strcmp(base_name(f->node->path), "id")))
		coll_ids_text(f->node->path, &f->snap, &f->snap_len);
	for (i = 0; i < f->nr + 2; i++)
		free(texts[i]);
	free(texts);
	free(lens);
	f->snapped = !err;
	return err;
}

static ssize_t tree_read(struct tfs_file *file, char *buf, size_t size, off_t off)
{
	struct cfile *f = (struct cfile *)file;
	ssize_t ret = 0;
	uint32_t outlen;
	int err;

	if ((f->flags & O_ACCMODE) == O_WRONLY)
		return -EBADF;
	pthread_mutex_lock(&f->lock);
	if (f->kind == F_RAW) {
		ret = coll_raw_read(f->raw, buf, size);
		pthread_mutex_unlock(&f->lock);
		return ret ? ret : -EAGAIN;
	}
	if (f->kind == F_PIPE) {
		/* Each member in turn, starting after the last that gave. */
		ret = -EAGAIN;
		for (int k = 0; k < f->nr && ret == -EAGAIN; k++) {
			int i = (f->next_pipe + k) % f->nr;
			size_t n = size < COLL_MAX_PAYLOAD ? size : COLL_MAX_PAYLOAD;

			if (f->m[i].proc)
				ret = member_call(f->m[i].proc, COLL_READ, f->m[i].handle, 0, 0,
						  (uint32_t)n, NULL, 0, buf, n, &outlen);
			else
				ret = tfs_read(f->m[i].local, buf, n, 0);
			if (ret == 0 || ret == -ECONNRESET || ret == -ETIMEDOUT || ret == -EBADF)
				ret = -EAGAIN;
			if (ret > 0 && f->m[i].proc && !strcmp(base_name(f->node->path), "trace_pipe_raw"))
				coll_ids_pages(f->m[i].proc, buf, (size_t)ret);	/* the tree's ids */
			if (ret > 0)
				f->next_pipe = (i + 1) % f->nr;
		}
		pthread_mutex_unlock(&f->lock);
		return ret;
	}
	err = cfile_snap(f);
	if (err) {
		pthread_mutex_unlock(&f->lock);
		return err;
	}
	if ((size_t)off < f->snap_len) {
		ret = (ssize_t)(f->snap_len - (size_t)off < size ? f->snap_len - (size_t)off : size);
		memcpy(buf, f->snap + off, (size_t)ret);
	}
	pthread_mutex_unlock(&f->lock);
	return ret;
}

static ssize_t tree_write(struct tfs_file *file, const char *buf, size_t size, off_t off,
			  unsigned int flags)
{
	struct cfile *f = (struct cfile *)file;
	ssize_t ret = (ssize_t)size, r;
	uint32_t outlen;
	size_t n = size < COLL_MAX_PAYLOAD - 1024 ? size : COLL_MAX_PAYLOAD - 1024;

	if ((f->flags & O_ACCMODE) == O_RDONLY)
		return -EBADF;
	if (n < size)
		flags = 0, size = n, ret = (ssize_t)n;	/* a shorter write; the rest comes next */
	pthread_mutex_lock(&state_lock);
	pthread_mutex_lock(&f->lock);
	/* The collector's own or the first process says what the kernel would. */
	for (int i = 0; i < f->nr; i++) {
		if (f->m[i].proc)
			r = member_call(f->m[i].proc, COLL_WRITE, f->m[i].handle, (uint64_t)off,
					flags, (uint32_t)writer_tid, buf, (uint32_t)size, NULL, 0,
					&outlen);
		else
			r = (tfs_set_writer(writer_tid), tfs_write(f->m[i].local, buf, size, off,
								     flags));
		if (r == -ECONNRESET || r == -ETIMEDOUT)
			continue;	/* gone, or given up on: not the write's fault */
		if (r < 0) {
			ret = r;
			break;
		}
		if (i == 0 || r < ret)
			ret = r;
	}
	if (ret > 0 || (ret == 0 && !size)) {
		f->wrote = true;
		if (f->kind == F_FIRST && f->remembered && !path_adds(f->node->path) &&
		    !off) {
			pthread_mutex_lock(&tree_lock);
			free(f->node->cache);
			f->node->cache = malloc((size_t)ret + 1);
			if (f->node->cache) {
				memcpy(f->node->cache, buf, (size_t)ret);
				if (!ret || buf[ret - 1] != '\n')
					f->node->cache[ret] = '\n', f->node->cache_len = (size_t)ret + 1;
				else
					f->node->cache_len = (size_t)ret;
			}
			pthread_mutex_unlock(&tree_lock);
		}
		state_add_locked(COLL_STATE_WRITE, off ? O_APPEND : f->flags & O_APPEND,
				 f->node->path, buf, (size_t)ret);
	}
	pthread_mutex_unlock(&f->lock);
	pthread_mutex_unlock(&state_lock);
	/* A record of our own (trace_marker), tracing turned off: readers look. */
	if (ret >= 0)
		coll_wait_wake();
	return ret;
}

static void tree_set_writer(pid_t tid)
{
	writer_tid = tid;
}

static int tree_flush(struct tfs_file *file)
{
	struct cfile *f = (struct cfile *)file;
	uint32_t outlen;
	int err = 0, r;

	pthread_mutex_lock(&f->lock);
	for (int i = 0; i < f->nr; i++) {
		r = f->m[i].proc ? (int)member_call(f->m[i].proc, COLL_FLUSH, f->m[i].handle, 0, 0,
						    0, NULL, 0, NULL, 0, &outlen)
				 : tfs_flush(f->m[i].local);
		if (r < 0 && r != -ECONNRESET && r != -ETIMEDOUT && !err)
			err = r;
	}
	pthread_mutex_unlock(&f->lock);
	return err;
}

static int tree_wants_flush(const struct tfs_file *file)
{
	const struct cfile *f = (const struct cfile *)file;

	return path_adds(f->node->path);
}

static int tree_truncate(uint64_t ino)
{
	struct tfs_file *file;
	int err = tree_open(ino, O_WRONLY | O_TRUNC, &file);

	if (err)
		return err;
	cfile_free((struct cfile *)file);
	return 0;
}

/*
 * What a blocked read of the top level's trace_pipe_raw waits for: the
 * collector's own buffer_percent and tracing_on, which every write to the
 * tree's files set too (and wake the readers: tree_write()).
 */
static void raw_wait_params(int *full, bool *stopped)
{
	struct trace_array *tr = trace_array_top();

	*full = tr ? (int)trace_array_buffer_percent(tr) : 0;
	*stopped = tr && !trace_array_tracing_on(tr);
}

static int tree_readable(struct tfs_file *file)
{
	struct cfile *f = (struct cfile *)file;
	uint32_t outlen;
	int any = 0;

	if (f->kind == F_RAW) {
		int full;
		bool stopped;

		raw_wait_params(&full, &stopped);
		pthread_mutex_lock(&f->lock);
		any = f->raw ? coll_raw_readable(f->raw, full, stopped) : 1;
		pthread_mutex_unlock(&f->lock);
		return any;
	}
	if (f->kind != F_PIPE)
		return 1;
	pthread_mutex_lock(&f->lock);
	for (int i = 0; i < f->nr && !any; i++)
		any = f->m[i].proc ? member_call(f->m[i].proc, COLL_READABLE, f->m[i].handle, 0, 0,
						 0, NULL, 0, NULL, 0, &outlen) > 0
				   : tfs_readable(f->m[i].local) > 0;
	pthread_mutex_unlock(&f->lock);
	return any;
}

/*
 * A blocked read of a trace_pipe sleeps on coll_wait_word() (coll_wait.c):
 * each program arms its file as its own readers do, and the watcher wakes
 * us when one of them is woken.  The top level's trace_pipe_raw reads the
 * kept buffers where no program's reader is: each program arms its
 * buffer at our position instead (coll_raw_wait()).  Without a watcher
 * every read looks every COLL_POLL_MS.
 */
static uint32_t *tree_wait_word(struct tfs_file *file)
{
	const struct cfile *f = (const struct cfile *)file;

	return f->kind == F_PIPE || (f->kind == F_RAW && f->raw) ? coll_wait_word() : NULL;
}

/* The shorter of two waits in ms (-1: until woken). */
static int wait_min(int a, int b)
{
	return a < 0 ? b : b < 0 ? a : a < b ? a : b;
}

static int tree_wait_arm(struct tfs_file *file)
{
	struct cfile *f = (struct cfile *)file;
	uint32_t outlen;
	int ms = -1;

	if (f->kind == F_RAW && f->raw && coll_wait_word()) {
		int full;
		bool stopped;

		raw_wait_params(&full, &stopped);
		pthread_mutex_lock(&f->lock);
		ms = coll_raw_wait(f->raw, full, stopped);
		pthread_mutex_unlock(&f->lock);
		return ms;
	}
	if (f->kind != F_PIPE || !coll_wait_word())
		return tree_readable(file) ? 0 : COLL_POLL_MS;
	pthread_mutex_lock(&f->lock);
	for (int i = 0; i < f->nr && ms; i++) {
		struct coll_msg m = { .op = COLL_WAIT_ARM, .a = f->m[i].handle };
		int fds[2] = { -1, -1 };
		int64_t r = f->m[i].proc ?
			    coll_proc_call_fd(f->m[i].proc, &m, NULL, NULL, 0, &outlen, fds) :
			    (tfs_readable(f->m[i].local) > 0 ? 0 : -1);

		if (fds[1] >= 0)
			close(fds[1]);
		/* Armed on another buffer of the program's: its word watched too. */
		if (r == COLL_WAIT_ARMED_FD)
			r = fds[0] >= 0 && coll_record_watch(f->m[i].proc, fds[0]) ? -1 : COLL_POLL_MS;
		else if (fds[0] >= 0)
			close(fds[0]);
		if (r == -ECONNRESET || r == -ETIMEDOUT)
			continue;	/* gone, or given up on */
		ms = r < -1 ? COLL_POLL_MS : wait_min(ms, (int)r);
	}
	pthread_mutex_unlock(&f->lock);
	return ms;
}

/*
 * A woken read of a trace_pipe lingers, as a program's own server does
 * (tfs_linger()): each of our reads is a read of every program's.
 */
static int tree_linger(struct tfs_file *file)
{
	const struct cfile *f = (const struct cfile *)file;

	return f->kind == F_PIPE && !strcmp(base_name(f->node->path), "trace_pipe");
}

static void tree_release(struct tfs_file *file)
{
	cfile_free((struct cfile *)file);
}

const struct tfs_backend coll_tree_backend = {
	.init		= tree_init,
	.lookup		= tree_lookup,
	.getattr	= tree_getattr,
	.readdir	= tree_readdir,
	.mkdir		= tree_mkdir,
	.rmdir		= tree_rmdir,
	.open		= tree_open,
	.read		= tree_read,
	.write		= tree_write,
	.set_writer	= tree_set_writer,
	.flush		= tree_flush,
	.wants_flush	= tree_wants_flush,
	.truncate	= tree_truncate,
	.readable	= tree_readable,
	.wait_word	= tree_wait_word,
	.wait_arm	= tree_wait_arm,
	.linger		= tree_linger,
	.release	= tree_release,
};
