// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * TRACE_DEFINE_ENUM() and TRACE_DEFINE_SIZEOF(): the print fmt of an
 * event shows what its TP_printk() names, and an enum constant or a
 * sizeof() means nothing to a reader of the format (libtraceevent); the
 * kernel therefore rewrites those names with their values in the print
 * fmt of every event of the system when it registers the events
 * (update_event_printk()).  So does this, with the same rules:
 *
 * - only outside quotes, and only a whole identifier (not a part of one,
 *   nor what follows "." or "->": REC->HI_SOFTIRQ is a field);
 * - the value is printed "%ld"; a value longer than the name it replaces
 *   is not written, and the rest of that map is skipped for the event;
 * - maps apply to the events of their own system, in the order they were
 *   added, whether the event or the map came first.
 *
 * The rewritten text is the library's copy (trace_event_priv.print_fmt);
 * the object's own stays as it was.  Under the event mutex.
 */
#define __USTRACE_CORE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/trace_events.h>

#include "trace.h"

static struct trace_eval_map **eval_maps;
static unsigned int nr_eval_maps, max_eval_maps;

static bool e_isdigit(char c)
{
	return c >= '0' && c <= '9';
}

static bool e_isalpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool e_isalnum(char c)
{
	return e_isalpha(c) || e_isdigit(c);
}

/*
 * Write @map's value over the @len characters of its name at @ptr.
 * Return: the character after the value, or NULL when the value does
 * not fit.
 */
static char *eval_replace(char *ptr, const struct trace_eval_map *map, size_t len)
{
	char val[24];
	size_t elen = (size_t)snprintf(val, sizeof(val), "%ld", (long)map->eval_value);

	if (len < elen)
		return NULL;
	memcpy(ptr, val, elen);
	memmove(ptr + elen, ptr + len, strlen(ptr + len) + 1);
	return ptr + elen;
}

/*
 * Skip an identifier and what hangs off it ("a.b", "a->b"), from its first
 * character to the delimiter after it.  As the kernel's, the character
 * after a "." or "->" is skipped whatever it is.
 */
static char *skip_ident(char *p)
{
	do
		p++;
	while (e_isalnum(*p) || *p == '_');
	while (*p == '.' || (p[0] == '-' && p[1] == '>')) {
		p += *p == '.' ? 1 : 2;
		if (!*p)
			break;
		do
			p++;
		while (e_isalnum(*p) || *p == '_');
	}
	return p;
}

/* Apply one map to the text @fmt (modified in place: it only shrinks). */
static void eval_apply(char *fmt, const struct trace_eval_map *map)
{
	size_t len = strlen(map->eval_string);
	bool quote = false;
	char *p = fmt;

	while (*p) {
		if (*p == '\\') {
			if (!*++p)
				break;
			p++;
		} else if (*p == '"') {
			quote = !quote;
			p++;
		} else if (quote) {
			p++;
		} else if (e_isdigit(*p)) {
			/* A number and its suffix (1UL): not a name. */
			while (e_isalnum(*++p))
				;
			if (*p)
				p++;
		} else if (e_isalpha(*p) || *p == '_') {
			if (!strncmp(p, map->eval_string, len) && !e_isalnum(p[len]) &&
			    p[len] != '_') {
				/*
				 * The character after the value is skipped too,
				 * as the kernel's loop does.
				 */
				p = eval_replace(p, map, len);
				if (!p)
					return;
				if (*p)
					p++;
				continue;
			}
			p = skip_ident(p);
			if (*p)
				p++;
		} else {
			p++;
		}
	}
}

/* The print fmt of @call with every map of its system applied. */
static void eval_update(struct trace_event_call *call, void *data)
{
	struct trace_event_priv *priv = call->priv;
	const char *system = call->event_class->system;
	const struct trace_eval_map *only = data;
	char *text = NULL;
	unsigned int i;

	if (!priv || !call->print_fmt || (only && strcmp(only->system, system)))
		return;
	for (i = 0; i < nr_eval_maps; i++) {
		if (strcmp(eval_maps[i]->system, system))
			continue;
		if (!text && !(text = strdup(call->print_fmt)))
			return;	/* no memory: the names stay */
		eval_apply(text, eval_maps[i]);
	}
	if (text && !strcmp(text, call->print_fmt)) {
		free(text);
		text = NULL;
	}
	free(priv->print_fmt);
	priv->print_fmt = text;
}

/* A new event: its system's maps apply to it.  Event mutex held. */
void trace_eval_event_added(struct trace_event_call *call)
{
	eval_update(call, NULL);
}

/* An event leaves: its rewritten text goes.  Event mutex held, or the event unlisted. */
void trace_eval_event_removed(struct trace_event_call *call)
{
	struct trace_event_priv *priv = call->priv;

	if (priv) {
		free(priv->print_fmt);
		priv->print_fmt = NULL;
	}
}

/**
 * __ustrace_add_eval_map - a TRACE_DEFINE_ENUM() or TRACE_DEFINE_SIZEOF()
 *	map (trace_add_eval_map())
 * @map: its system, the text and the value; must stay valid until
 *	 __ustrace_remove_eval_map()
 *
 * Called by the constructor of the object that defines the map.  The
 * print fmts of the events of @map's system registered so far are
 * rewritten now, those of events registered later when they are.
 *
 * Return: 0, -EINVAL or -ENOMEM.
 * Context: any thread; takes the event mutex.
 */
int __ustrace_add_eval_map(struct trace_eval_map *map)
{
	if (!map || !map->system || !map->eval_string || !*map->eval_string)
		return -EINVAL;
	trace_event_lock();
	if (nr_eval_maps == max_eval_maps) {
		unsigned int max = max_eval_maps ? 2 * max_eval_maps : 32;
		struct trace_eval_map **m = realloc(eval_maps, max * sizeof(*m));

		if (!m) {
			trace_event_unlock();
			return -ENOMEM;
		}
		eval_maps = m;
		max_eval_maps = max;
	}
	eval_maps[nr_eval_maps++] = map;
	trace_for_each_event_call(eval_update, map);
	trace_event_unlock();
	return 0;
}

/**
 * __ustrace_remove_eval_map - forget a map (trace_remove_eval_map())
 * @map: one given to __ustrace_add_eval_map()
 *
 * Called by the destructor of its object.  Print fmts already rewritten
 * keep their values, as in the kernel when a module goes.
 *
 * Context: any thread; takes the event mutex.
 */
void __ustrace_remove_eval_map(struct trace_eval_map *map)
{
	unsigned int i;

	trace_event_lock();
	for (i = 0; i < nr_eval_maps; i++) {
		if (eval_maps[i] != map)
			continue;
		memmove(&eval_maps[i], &eval_maps[i + 1],
			(nr_eval_maps - i - 1) * sizeof(*eval_maps));
		nr_eval_maps--;
		break;
	}
	trace_event_unlock();
}
