// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The library without a FUSE server (kernel/trace/collector/Build.mk): a
 * collector cannot serve its tree, so it does not run.  Programs still
 * look for one (coll_client.c): another build's collector may serve them.
 */
#include <errno.h>

#include <ustrace/collector.h>

#include "collector.h"

int ustrace_collector_run(const char *rundir, const char *options, void (*ready)(void))
{
	(void)rundir;
	(void)options;
	(void)ready;
	return -ENOSYS;
}

void ustrace_collector_stop(void)
{
}

int coll_learn_local(const char *rundir, const char *system, const char *format)
{
	(void)rundir;
	(void)system;
	(void)format;
	return -ENOENT;
}
