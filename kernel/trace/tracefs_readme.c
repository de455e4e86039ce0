// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * README at the top of the tree: what the files of this tracefs do, in
 * the spirit of the kernel's mini-HOWTO, listing only what we have.
 */
#include "tracefs_internal.h"

static const char readme_text[] =
"ustrace tracing mini-HOWTO (the events of one program, as the kernel's tracefs):\n"
"\n"
" # echo 1 > events/<system>/enable : record every event of a system\n"
" # cat trace_pipe                   : read the events as they come, consuming them\n"
"\n"
" Files:\n"
"  tracing_on\t\t- 1 records, 0 stops recording; events stay enabled\n"
"  trace\t\t\t- the buffer as text; it stays (\"echo > trace\" clears it)\n"
"  trace_pipe\t\t- the buffer as text, consumed as read; waits for more\n"
"  snapshot\t\t- the snapshot buffer: echo 1 takes a snapshot, 0 frees it, 2 clears it\n"
"  trace_marker\t\t- a write is recorded as an ftrace:print event\n"
"  trace_marker_raw\t- a write (4-byte id, then data) is an ftrace:raw_data event\n"
"  trace_clock\t\t- the clock of the time stamps; the one in [] is in use;\n"
"\t\t\t  writing a name changes it and clears the buffer\n"
"  buffer_size_kb\t- KiB of buffer per CPU; write to resize\n"
"  buffer_total_size_kb\t- KiB of buffer of all CPUs\n"
"  buffer_percent\t- kept for tools; pollers wake on any data\n"
"  tracing_cpumask\t- hex mask of the CPUs recorded\n"
"  trace_options\t\t- the options: write NAME to set, noNAME to clear\n"
"  options/\t\t- one file per option: 0 or 1\n"
"  current_tracer\t- nop: events only (available_tracers)\n"
"  error_log\t\t- why recent writes were refused; \"echo > error_log\" clears\n"
"  saved_cmdlines\t- pid and name of the threads that recorded\n"
"  saved_cmdlines_size\t- entries in that table\n"
"  saved_tgids\t\t- pid and thread group, with the record-tgid option\n"
"  printk_formats\t- the tracepoint_string()s of the program\n"
"  per_cpu/cpuN/\t\t- trace, trace_pipe, trace_pipe_raw (binary pages),\n"
"\t\t\t  stats and buffer_size_kb of one CPU\n"
"  instances/\t\t- mkdir NAME makes a tree of its own with its own buffer;\n"
"\t\t\t  rmdir NAME removes it (busy while its files are open)\n"
"\n"
" Events:\n"
"  available_events\t- every event that can be enabled, as system:event\n"
"  set_event\t\t- the enabled events; write system:event to enable one,\n"
"\t\t\t  !system:event to disable it; system:* and *:event match\n"
"\t\t\t  many; \"> set_event\" disables the others first\n"
"  set_event_pid\t\t- record only these threads (pids, by white space)\n"
"  set_event_notrace_pid\t- never record these threads\n"
"  events/enable\t\t- 1 or 0 for every event; reads X when mixed\n"
"  events/<system>/enable\n"
"  events/<system>/<event>/enable - 0 or 1 (0* or 1* when held by a trigger)\n"
"  events/<system>/<event>/format - the record layout and its print format\n"
"  events/<system>/<event>/id\n"
"  events/<system>/filter - a filter for every event of the system that has its fields\n"
"  events/<system>/<event>/filter - record only the events that pass, e.g.\n"
"\t\t\t  echo 'bar > 10 && str ~ \"o*\"' > filter; \"0\" clears\n"
"\t\t\t  (fields, common_pid, CPU, COMM; == != < <= > >= & ~ && || !)\n"
"  events/<system>/<event>/trigger - commands run when the event fires:\n"
"\t\t\t  traceon, traceoff, snapshot, stacktrace, enable_event:<system>:<event>,\n"
"\t\t\t  disable_event:<system>:<event>, hist:keys=..., enable_hist, disable_hist\n"
"\t\t\t  each as <command>[:count] [if <filter>]; !<command> removes\n"
"\t\t\t  e.g. echo 'traceoff:1 if bar == 42' > trigger\n"
"  events/<system>/<event>/hist - the histograms of its hist triggers\n"
"  events/header_page, events/header_event - the ring buffer's page and event headers\n";

const struct tfs_fops tfs_fops_readme = {
	.mode	= 0440,
	.text	= readme_text,
};
