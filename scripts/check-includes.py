#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""check-includes.py - no part of ustrace reaches past another's interface.

Usage:
  check-includes.py [--srctree DIR]

Reads every #include of the C sources and headers under kernel/, include/,
tools/, samples/ and selftests/ (but the third-party copies under
selftests/conformance/) and prints TAP: one result per part, failing when
one of its files includes a header it may not, with the file, the line and
the rule as diagnostics.  Documentation/process/layout.rst is the prose of
the rules below; the two change together.

A quoted include is resolved against the including file's directory, then
include/; an unresolved one whose name is a private header of a part counts
as that header (a -I flag reaching into kernel/ would hide it otherwise,
and the Build.mk check below forbids those flags).  An angle include is
resolved against include/; the rest are system headers.
"""

import os
import re
import sys

# Parts by folder, most specific first.
PARTS = [
    ('kernel/trace/ring_buffer/', 'ring buffer'),
    ('kernel/trace/tracefs/', 'tracefs'),
    ('kernel/trace/record/', 'recorder'),
    ('kernel/trace/collector/', 'collector'),
    ('kernel/trace/', 'engine'),
    ('kernel/', 'core'),
    ('include/', 'public'),
    ('tools/', 'tools'),
    ('samples/', 'samples'),
    ('selftests/', 'tests'),
]
LIBRARY = {'core', 'engine', 'ring buffer', 'tracefs', 'recorder', 'collector'}

# Not ours: copied from the kernel and libtracefs, built with their own
# include paths.
SKIP = ('selftests/conformance/linux-6.1/',
        'selftests/conformance/kinc/',
        'include/generated/')

# A part's headers are private to it but for these: header -> the parts
# (or files) that may include it besides its own.  kernel/internal.h, the
# library's shared helpers, is open to every part of the library.
INTERFACES = {
    'kernel/internal.h': LIBRARY,
    # The engine's control interface, for the readers.
    'kernel/trace/trace_array.h': {'tracefs', 'recorder', 'collector', 'tests'},
    # The tree's interface, for the collector: it serves the tree to
    # other processes (coll_client.c) and serves a tree of its own with
    # the FUSE server (tfs_serve(), struct tfs_backend).
    'kernel/trace/tracefs/tracefs.h': {'collector', 'tests'},
    # The trace.dat writer, for the collector's dumps of the buffers it
    # keeps (coll_record.c).
    'kernel/trace/record/trace_dat.h': {'collector', 'tests'},
    # The ring buffer's fast-path seam: the inline reserve, for the event
    # probe alone (layout.rst, "The ring buffer's fast-path seam").  What
    # it includes comes with it; trace_events.c calls rb_reserve_fast()
    # and rb_event_payload() and nothing else of the ring buffer's own.
    'kernel/trace/ring_buffer/rb_fast.h': {'kernel/trace/trace_events.c'},
    # The command's trace.dat reader (dat-read.c), for the sustained-rate
    # benchmark's counter, which walks a recording's pages as the command
    # does (selftests/bench/sustained_count.c, linked with dat-read.c).
    'tools/tracing/ustrace.h': {'selftests/bench/sustained_count.c'},
}
# Tests may include the private headers of the engine, the tracefs tree and
# the recorder (white-box tests), and the samples' event headers; never
# the ring buffer's or the core's, whose tests use the public API.
TESTS_MAY = {'engine', 'tracefs', 'recorder', 'samples'}

# The arrows that must never exist, through public headers too:
# (parts or files, header pattern, why).
NEVER = [
    ({'core', 'include/linux/tracepoint.h', 'include/linux/tracepoint-defs.h',
      'include/linux/jump_label.h'},
     r'^include/(linux/(trace_events|ring_buffer|trace_seq|trace_clock)\.h|trace/)',
     'the tracepoint core knows nothing of events or buffers'),
    ({'ring buffer', 'include/linux/ring_buffer.h', 'include/linux/trace_clock.h'},
     r'^include/(linux/(trace_events|trace_seq|tracepoint.*)\.h|trace/|ustrace/)',
     'the ring buffer knows nothing of events or readers'),
    ({'ring buffer'}, r'^kernel/trace/(?!ring_buffer/)',
     'the ring buffer knows nothing of events or readers'),
    ({'engine', 'ring buffer', 'core'},
     r'^(include/ustrace/tracefs\.h|kernel/trace/(tracefs|record)/|<fuse)',
     'the engine works without any file system (and without the recorder)'),
    ({'tools', 'samples'}, r'^(kernel|selftests)/',
     'tools and samples use exported APIs only'),
    ({'public'}, r'^(?!include/)[^<]',
     'public headers include only public headers'),
]
# A file that may include nothing of the library but these (and include/).
ONLY = {
    'kernel/trace/tracefs/tracefs_fuse.c':
        ({'kernel/internal.h', 'kernel/trace/tracefs/tracefs.h'},
         'the FUSE server sees only the tree\'s interface, tracefs.h'),
}

# Known breaches, each with the change that removes it.  An entry that no
# longer matches an include fails the check: delete it then.  None today:
# the ring buffer's sealing (issue 14 point 3) replaced trace.c's clock
# reads and trace_snapshot.c's swap with ring-buffer calls.
EXCEPTIONS = set()

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def part_of(path):
    for prefix, name in PARTS:
        if path.startswith(prefix):
            return name
    return None


def sources(srctree):
    for top in ('kernel', 'include', 'tools', 'samples', 'selftests'):
        for root, dirs, files in os.walk(os.path.join(srctree, top)):
            dirs.sort()
            rel = os.path.relpath(root, srctree) + '/'
            if rel.startswith(SKIP):
                dirs[:] = []
                continue
            for f in sorted(files):
                if f.endswith(('.c', '.h')):
                    yield rel + f


def private_headers(srctree, files):
    """Basename -> path of the library's headers, for unresolved includes."""
    names = {}
    for f in files:
        if f.endswith('.h') and part_of(f) in LIBRARY:
            names.setdefault(os.path.basename(f), f)
    return names


def resolve(srctree, src, kind, name, privates):
    """The included header's path in the tree, '<name>' for a system one."""
    cands = []
    if kind == '"':
        cands.append(os.path.join(os.path.dirname(src), name))
    cands.append(os.path.join('include', name))
    for c in cands:
        c = os.path.normpath(c)
        if os.path.isfile(os.path.join(srctree, c)):
            return c
    if kind == '"' and os.path.basename(name) in privates:
        return privates[os.path.basename(name)]
    return '<%s>' % name


def allowed(src, spart, hdr):
    """None if src may include hdr, else the rule it breaks."""
    hpart = part_of(hdr)
    for who, pattern, why in NEVER:
        if (spart in who or src in who) and re.search(pattern, hdr):
            return why
    if src in ONLY and hpart in LIBRARY and hdr not in ONLY[src][0]:
        return ONLY[src][1]
    if hdr.startswith('<') or hpart in ('public', None) or hpart == spart:
        return None
    if hdr in INTERFACES:
        if spart in INTERFACES[hdr] or src in INTERFACES[hdr]:
            return None
        return '%s is open to %s only' % (hdr, ', '.join(sorted(INTERFACES[hdr])))
    if spart == 'tests' and hpart in TESTS_MAY:
        return None
    return '%s is private to the %s' % (hdr, hpart)


def main(argv):
    srctree = os.environ.get('USTRACE_SRCTREE') or \
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    args = argv[1:]
    while args:
        if args[0] == '--srctree' and len(args) > 1:
            srctree = args[1]
            args = args[2:]
        else:
            print(__doc__, file=sys.stderr)
            return 2

    files = list(sources(srctree))
    privates = private_headers(srctree, files)
    breaches = {}
    counts = {}
    used = set()
    for src in files:
        spart = part_of(src)
        counts[spart] = counts.get(spart, 0) + 1
        with open(os.path.join(srctree, src), errors='replace') as fp:
            for lineno, line in enumerate(fp, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                hdr = resolve(srctree, src, m.group(1), m.group(2), privates)
                why = allowed(src, spart, hdr)
                if why and (src, hdr) in EXCEPTIONS:
                    used.add((src, hdr))
                    continue
                if why:
                    breaches.setdefault(spart, []).append(
                        '%s:%d: includes %s: %s' % (src, lineno, hdr, why))

    # Build fragments: no -I into the library's folders.
    flags = []
    for root, dirs, fs in os.walk(srctree):
        dirs[:] = [d for d in sorted(dirs) if not d.startswith('.')
                   and os.path.relpath(os.path.join(root, d), srctree) != 'build']
        for f in fs:
            if f in ('Build.mk', 'Makefile'):
                path = os.path.join(root, f)
                with open(path) as fp:
                    for lineno, line in enumerate(fp, 1):
                        if re.search(r'-I\s*(\$\(srctree\)/)?kernel\b', line):
                            flags.append('%s:%d: -I into kernel/' %
                                         (os.path.relpath(path, srctree), lineno))

    n = 0
    failed = False
    print('TAP version 13')
    for _, name in PARTS:
        n += 1
        bad = breaches.get(name, [])
        status = 'not ok' if bad else 'ok'
        print('%s %d - %s: %d files include only what they may' %
              (status, n, name, counts.get(name, 0)))
        for b in bad:
            print('#   ' + b)
        failed |= bool(bad)
    n += 1
    print('%s %d - no build fragment adds -I into kernel/' %
          ('not ok' if flags else 'ok', n))
    for f in flags:
        print('#   ' + f)
    failed |= bool(flags)
    # The map names every folder that holds sources.
    with open(os.path.join(srctree, 'Documentation/process/layout.rst')) as fp:
        layout = fp.read()
    folders = sorted({os.path.dirname(f) + '/' for f in files
                      if part_of(f) not in ('tests', 'samples')})
    # include/'s folders go by their names under it (``linux/``), and a
    # folder of the TRACE_EVENT stages by its parent's.
    def named(d):
        if '``%s``' % d in layout:
            return True
        if not d.startswith('include/') or d == 'include/':
            return False
        return '``%s``' % d[len('include/'):] in layout or \
            named(os.path.dirname(d.rstrip('/')) + '/')
    unnamed = [d for d in folders if not named(d)]
    n += 1
    print('%s %d - Documentation/process/layout.rst names every folder' %
          ('not ok' if unnamed else 'ok', n))
    for d in unnamed:
        print('#   %s is not on the map' % d)
    failed |= bool(unnamed)
    n += 1
    stale = sorted(EXCEPTIONS - used)
    print('%s %d - every exception in check-includes.py is still needed' %
          ('not ok' if stale else 'ok', n))
    for src, hdr in stale:
        print('#   %s no longer includes %s: delete the exception' % (src, hdr))
    failed |= bool(stale)
    print('1..%d' % n)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
