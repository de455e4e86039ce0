// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The files that control recording in an instance: tracing_on,
 * buffer_size_kb (also per CPU), buffer_total_size_kb, buffer_percent,
 * trace_clock, current_tracer, available_tracers, trace_options and
 * options/, tracing_cpumask; and the per_cpu/ directories.
 *
 * Each parses its write as the kernel does (kstrtoul() for numbers,
 * strstrip() for names) and returns the kernel's errno with nothing
 * changed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ring_buffer.h>
#include <linux/trace_clock.h>

#include "../trace_array.h"
#include "tracefs_internal.h"

/* Name writes of this many bytes or more are refused (the kernel's buf[64]). */
#define NAME_WRITE_MAX		64
/* current_tracer reads at most this much of a write (MAX_TRACER_SIZE). */
#define TRACER_WRITE_MAX	100

/* ------------------------------------------------------------------
 * tracing_on
 */

static int tracing_on_show(struct tfs_file *f, struct seq_buf *b)
{
	seq_buf_grow_printf(b, "%d\n", trace_array_tracing_on(f->inst->tr));
	return 0;
}

/* Any number: not 0 is on (the kernel's rb_simple_write()). */
static ssize_t tracing_on_write(struct tfs_file *f, const char *buf, size_t size)
{
	unsigned long val;
	int err = tfs_kstrtoul(buf, size, 10, &val);

	if (err)
		return err;
	trace_array_set_tracing_on(f->inst->tr, val != 0);
	return (ssize_t)size;
}

const struct tfs_fops tfs_fops_tracing_on = {
	.mode	= 0640,
	.show	= tracing_on_show,
	.write	= tracing_on_write,
};

/* ------------------------------------------------------------------
 * buffer_size_kb, buffer_total_size_kb, buffer_percent
 */

/*
 * "1408", or "X" when the CPUs differ.  The kernel's top level shows
 * "7 (expanded: 1408)" until something is enabled; our buffer is
 * allocated at its full size from the start, so it is always expanded.
 */
static int buffer_size_show(struct tfs_file *f, struct seq_buf *b)
{
	long kb = trace_array_buffer_size_kb(f->inst->tr, f->node->cpu);

	if (kb == -1 && f->node->cpu == RING_BUFFER_ALL_CPUS)
		seq_buf_grow_puts(b, "X\n");
	else if (kb < 0)
		return (int)kb;
	else
		seq_buf_grow_printf(b, "%ld\n", kb);
	return 0;
}

static ssize_t buffer_size_write(struct tfs_file *f, const char *buf, size_t size)
{
	unsigned long kb;
	int err = tfs_kstrtoul(buf, size, 10, &kb);

	if (!err && !kb)
		err = -EINVAL;
	if (!err)
		err = trace_array_resize_kb(f->inst->tr, kb, f->node->cpu);
	return err ? err : (ssize_t)size;
}

/* The top level's and each per_cpu/cpuN's (node->cpu says which). */
const struct tfs_fops tfs_fops_buffer_size_kb = {
	.mode	= 0640,
	.show	= buffer_size_show,
	.write	= buffer_size_write,
};

static int buffer_total_show(struct tfs_file *f, struct seq_buf *b)
{
	unsigned long total = 0;
	unsigned int cpu;

	for (cpu = 0; cpu < f->inst->nr_cpus; cpu++) {
		long kb = trace_array_buffer_size_kb(f->inst->tr, (int)cpu);

		if (kb < 0)
			return (int)kb;
		total += (unsigned long)kb;
	}
	seq_buf_grow_printf(b, "%lu\n", total);
	return 0;
}

const struct tfs_fops tfs_fops_buffer_total_size_kb = {
	.mode	= 0440,
	.show	= buffer_total_show,
};

static int buffer_percent_show(struct tfs_file *f, struct seq_buf *b)
{
	seq_buf_grow_printf(b, "%u\n", trace_array_buffer_percent(f->inst->tr));
	return 0;
}

/*
 * As the kernel's: poll(2) of trace_pipe_raw and the recorder wake when a
 * CPU's buffer is that full (0: on any data); reads wake on any data.
 */
static ssize_t buffer_percent_write(struct tfs_file *f, const char *buf, size_t size)
{
	unsigned long val;
	int err = tfs_kstrtoul(buf, size, 10, &val);

	if (!err && val > 100)
		err = -EINVAL;
	if (err)
		return err;
	trace_array_set_buffer_percent(f->inst->tr, (unsigned int)val);
	return (ssize_t)size;
}

const struct tfs_fops tfs_fops_buffer_percent = {
	.mode	= 0640,
	.show	= buffer_percent_show,
	.write	= buffer_percent_write,
};

/* ------------------------------------------------------------------
 * trace_clock, current_tracer, available_tracers
 */

/* "[local] global counter ...": the current one in brackets. */
static int trace_clock_show(struct tfs_file *f, struct seq_buf *b)
{
	unsigned int cur = trace_array_clock(f->inst->tr), i;
	const struct trace_clock *tc;

	for (i = 0; (tc = trace_clock_get(i)); i++)
		seq_buf_grow_printf(b, "%s%s%s%s", i ? " " : "", i == cur ? "[" : "",
				    tc->name, i == cur ? "]" : "");
	seq_buf_grow_puts(b, "\n");
	return 0;
}

/* A name written to a file: stripped, in *@namep (free() *@allocp). */
static int name_get(const char *buf, size_t size, char **allocp, char **namep)
{
	*allocp = tfs_strndup(buf, size);
	if (!*allocp)
		return -ENOMEM;
	*namep = tfs_strstrip(*allocp);
	return 0;
}

static ssize_t trace_clock_write(struct tfs_file *f, const char *buf, size_t size)
{
	char *alloc, *name;
	int err;

	if (size >= NAME_WRITE_MAX)
		return -EINVAL;
	err = name_get(buf, size, &alloc, &name);
	if (err)
		return err;
	err = trace_array_set_clock(f->inst->tr, name);
	free(alloc);
	return err ? err : (ssize_t)size;
}

const struct tfs_fops tfs_fops_trace_clock = {
	.mode	= 0640,
	.show	= trace_clock_show,
	.write	= trace_clock_write,
};

/* Events only: the one tracer is nop. */
#define TRACERS	"nop\n"

static ssize_t current_tracer_write(struct tfs_file *f, const char *buf, size_t size)
{
	char *alloc, *name;
	int err;

	(void)f;
	err = name_get(buf, size < TRACER_WRITE_MAX ? size : TRACER_WRITE_MAX, &alloc, &name);
	if (err)
		return err;
	err = strcmp(name, "nop") ? -EINVAL : 0;
	free(alloc);
	return err ? err : (ssize_t)size;
}

const struct tfs_fops tfs_fops_current_tracer = {
	.mode	= 0640,
	.text	= TRACERS,
	.write	= current_tracer_write,
};

const struct tfs_fops tfs_fops_available_tracers = {
	.mode	= 0440,
	.text	= TRACERS,
};

/* ------------------------------------------------------------------
 * trace_options, options/
 */

static int trace_options_show(struct tfs_file *f, struct seq_buf *b)
{
	unsigned int i;

	for (i = 0; trace_option_names[i]; i++)
		seq_buf_grow_printf(b, "%s%s\n",
				    trace_array_get_option(f->inst->tr, trace_option_names[i]) > 0 ?
				    "" : "no", trace_option_names[i]);
	return 0;
}

/* "NAME" sets, "noNAME" clears; one option per write. */
static ssize_t trace_options_write(struct tfs_file *f, const char *buf, size_t size)
{
	char *alloc, *name;
	int err, on;

	if (size >= NAME_WRITE_MAX)
		return -EINVAL;
	err = name_get(buf, size, &alloc, &name);
	if (err)
		return err;
	on = strncmp(name, "no", 2) != 0;
	/*
	 * The kernel hands a tracer's option named here to the tracer even
	 * when it does not change: nop refuses test_nop_refuse either way.
	 */
	if (!strcmp(name + (on ? 0 : 2), "test_nop_refuse"))
		err = -EINVAL;
	else
		err = trace_array_set_option(f->inst->tr, name + (on ? 0 : 2), on);
	free(alloc);
	return err ? err : (ssize_t)size;
}

const struct tfs_fops tfs_fops_trace_options = {
	.mode	= 0640,
	.show	= trace_options_show,
	.write	= trace_options_write,
};

static int option_show(struct tfs_file *f, struct seq_buf *b)
{
	int on = trace_array_get_option(f->inst->tr, trace_option_names[f->node->option]);

	if (on < 0)
		return on;
	seq_buf_grow_printf(b, "%d\n", on);
	return 0;
}

static ssize_t option_write(struct tfs_file *f, const char *buf, size_t size)
{
	unsigned long val;
	int err = tfs_kstrtoul(buf, size, 10, &val);

	if (!err && val > 1)
		err = -EINVAL;
	if (!err)
		err = trace_array_set_option(f->inst->tr, trace_option_names[f->node->option],
					     (int)val);
	return err ? err : (ssize_t)size;
}

const struct tfs_fops tfs_fops_option = {
	.mode	= 0640,
	.show	= option_show,
	.write	= option_write,
};

/* Options an instance has no file for (the kernel's TOP_LEVEL_TRACE_FLAGS). */
static bool option_top_only(const char *name)
{
	return !strcmp(name, "trace_printk") || !strcmp(name, "printk-msg-only") ||
	       !strcmp(name, "record-cmd");
}

/* Under tfs_tree_lock: options/NAME, one per option. */
int tfs_options_create(struct tfs_inst *inst, struct tfs_node *dir)
{
	bool top = !trace_array_name(inst->tr);
	struct tfs_node *node;
	int i;

	for (i = 0; trace_option_names[i]; i++) {
		if (!top && option_top_only(trace_option_names[i]))
			continue;
		node = tfs_add_file(dir, trace_option_names[i], &tfs_fops_option);
		if (!node)
			return -ENOMEM;
		node->option = i;
	}
	return 0;
}

/* ------------------------------------------------------------------
 * tracing_cpumask
 */

static int cpumask_show(struct tfs_file *f, struct seq_buf *b)
{
	pthread_mutex_lock(&f->inst->lock);
	tfs_print_cpumask(b, f->inst->cpumask, f->inst->nr_cpus);
	pthread_mutex_unlock(&f->inst->lock);
	return 0;
}

static bool mask_test(const uint32_t *mask, unsigned int cpu)
{
	return (mask[cpu / 32] >> (cpu % 32)) & 1;
}

/*
 * A CPU leaving the mask stops recording on its ring; one joining starts
 * again (the ring buffer counts the disables, so only changes count).
 */
static void cpumask_apply(struct tfs_inst *inst, const uint32_t *mask)
{
	struct trace_buffer *buffer = trace_array_buffer(inst->tr);
	unsigned int cpu;

	for (cpu = 0; cpu < inst->nr_cpus; cpu++) {
		bool was = mask_test(inst->cpumask, cpu), now = mask_test(mask, cpu);

		if (was && !now)
			ring_buffer_record_disable_cpu(buffer, (int)cpu);
		else if (!was && now)
			ring_buffer_record_enable_cpu(buffer, (int)cpu);
	}
	memcpy(inst->cpumask, mask, (inst->nr_cpus + 31) / 32 * sizeof(*mask));
}

static ssize_t cpumask_write(struct tfs_file *f, const char *buf, size_t size)
{
	struct tfs_inst *inst = f->inst;
	uint32_t *mask;
	int err;

	if (!size)
		return -EINVAL;
	mask = calloc((inst->nr_cpus + 31) / 32, sizeof(*mask));
	if (!mask)
		return -ENOMEM;
	err = tfs_parse_cpumask(buf, size, mask, inst->nr_cpus);
	if (!err) {
		pthread_mutex_lock(&inst->lock);
		cpumask_apply(inst, mask);
		pthread_mutex_unlock(&inst->lock);
	}
	free(mask);
	return err ? err : (ssize_t)size;
}

const struct tfs_fops tfs_fops_tracing_cpumask = {
	.mode	= 0640,
	.show	= cpumask_show,
	.write	= cpumask_write,
};

/* ------------------------------------------------------------------
 * per_cpu/
 */

static const struct tfs_entry cpu_files[] = {
	{ "buffer_size_kb",	&tfs_fops_buffer_size_kb },
	{ "stats",		&tfs_fops_stats },
	{ "trace",		&tfs_fops_trace },
	{ "trace_pipe",		&tfs_fops_trace_pipe },
	{ "trace_pipe_raw",	&tfs_fops_trace_pipe_raw },
	{ NULL, NULL }
};

/* Under tfs_tree_lock: per_cpu/cpuN for every possible CPU. */
int tfs_per_cpu_create(struct tfs_inst *inst, struct tfs_node *dir)
{
	struct tfs_node *sub;
	unsigned int cpu;
	char name[32];

	for (cpu = 0; cpu < inst->nr_cpus; cpu++) {
		snprintf(name, sizeof(name), "cpu%u", cpu);
		sub = tfs_add_dir(dir, name, TFS_DIR_PLAIN);
		if (!sub)
			return -ENOMEM;
		/* Its files inherit the CPU. */
		sub->cpu = (int)cpu;
		if (tfs_add_entries(sub, cpu_files))
			return -ENOMEM;
	}
	return 0;
}
