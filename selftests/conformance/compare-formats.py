#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""compare-formats.py OURS-DIR KERNEL-FORMATS EXPECTED: each format against the kernel's.

OURS-DIR holds SYSTEM/EVENT, each event's format as conformance-fire
--formats wrote it; KERNEL-FORMATS the kernel's ("=== SYSTEM/EVENT" and
the format; formats-6.18.txt); EXPECTED the events whose definition in
Linux 6.18 is not 6.1's ("SYSTEM/EVENT  # what changed"): their formats
differ, and must.  TAP on stdout, one result per event of the kernel's
list, then the figures.
"""
import difflib
import os
import sys


def kernel_formats(path):
    formats, name, text = {}, None, []
    with open(path) as f:
        for line in f:
            if line.startswith('=== '):
                if name:
                    formats[name] = ''.join(text)
                name, text = line[4:].strip(), []
            elif name:
                text.append(line)
    if name:
        formats[name] = ''.join(text)
    return formats


def main():
    ours_dir, theirs = sys.argv[1], kernel_formats(sys.argv[2])
    drift = {}
    with open(sys.argv[3]) as f:
        for line in f:
            body, _, why = line.partition('#')
            if body.strip():
                drift[body.strip()] = why.strip()
    ours = set()
    for system in os.listdir(ours_dir):
        for event in os.listdir(os.path.join(ours_dir, system)):
            ours.add(system + '/' + event)
    names = sorted(theirs)
    print('TAP version 13')
    print('1..%d' % (len(names) + 1))
    n = same = drifted = bad = 0
    for name in names:
        n += 1
        if name not in ours:
            print('not ok %d - %s: not registered' % (n, name))
            bad += 1
            continue
        with open(os.path.join(ours_dir, name)) as f:
            text = f.read()
        # NULL in a TP_printk() shows its C library's spelling: clang's
        # headers define it as ((void*)0), the kernel's as ((void *)0); the
        # two are one expression to every reader.  Said when it applies.
        if '((void*)0)' in text and text.replace('((void*)0)', '((void *)0)') == theirs[name]:
            print('# %s: NULL spelled ((void*)0) by this compiler\'s headers' % name)
            text = theirs[name]
        # __percpu is the x86 GS segment, as in the reference kernel: gcc's
        # __seg_gs keyword stays as it is written, clang predefines it as a
        # macro, __attribute__((address_space(256))), the same qualifier.
        gs = '__attribute__((address_space(256)))'
        if gs in text and text.replace(gs, '__seg_gs') == theirs[name]:
            print('# %s: __seg_gs spelled %s by this compiler' % (name, gs))
            text = theirs[name]
        if text == theirs[name]:
            if name in drift:
                print('not ok %d - %s: identical, but listed as drift' % (n, name))
                bad += 1
            else:
                print('ok %d - %s' % (n, name))
                same += 1
        elif name in drift:
            print('ok %d - %s # SKIP 6.18 changed the definition: %s' % (n, name, drift[name]))
            drifted += 1
        else:
            print('not ok %d - %s' % (n, name))
            for line in difflib.unified_diff(theirs[name].splitlines(), text.splitlines(),
                                             'kernel', 'ustrace', lineterm='', n=0):
                print('#   ' + line[:200])
            bad += 1
    n += 1
    stale = [d for d in drift if d not in theirs]
    if stale:
        print('not ok %d - listed, but not in the kernel\'s formats: %s' % (n, ' '.join(stale)))
        bad += 1
    else:
        print('ok %d - every listed event is in the kernel\'s formats' % n)
    print('# formats identical to the kernel\'s: %d/%d; %d differ by the definition\'s '
          'change from 6.1 to 6.18; %d wrong; %d more events without a kernel to compare '
          'with' % (same, len(names), drifted, bad, len(ours - set(theirs))))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
