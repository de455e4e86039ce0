#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""compare.py - trace-cmd report's event lines against our trace text.

Usage:
  compare.py text TRACE_TEXT REPORT [--ns-clock]
      Every event line of REPORT (trace-cmd report's output) must equal
      the line of TRACE_TEXT (our trace file's text) at the same place:
      task name, pid, CPU, time stamp, event and payload.  --ns-clock: the
      report prints raw nanoseconds where we print seconds (the boot
      clock, which trace-cmd 3.1 does not know to be in nanoseconds).
  compare.py sample SAMPLE_OUTPUT REPORT
      The lines "PID: PAYLOAD" samples/trace_events/trace-events-sample
      prints must be, for each pid in order, the payloads of REPORT.
  compare.py seq REPORT WORKER FIRST LAST
      REPORT's rec_seq events of WORKER are exactly seq=FIRST..LAST.
  compare.py formats LIST_F DUMP_EVENTS
      The event formats "ustrace list -F" printed are those of "trace-cmd
      dump --events" (a recorded file's), but for the IDs, which are given
      at run time.

Lines that say events were lost ("CPU:N [LOST ...]" in our text, "CPU:N
[... EVENTS DROPPED]" in trace-cmd's) are left out of the comparison: our
trace file, like the kernel's, does not report what was overwritten before
it was opened, while trace-cmd reports what the pages say.

Two renderings differ between the kernel (and us) and libtraceevent 1.7,
and are made equal before comparing: __print_array() ("{0x1,0x2}" against
"1 2") and ftrace:raw_data ("# ID buf: XX" against "# ID XX").

Prints the first differences and exits 1 when they differ.
"""

import re
import sys

OURS = re.compile(r'^\s*(?P<comm>.*)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+\S{5}\s+'
                  r'(?P<ts>\d+(?:\.\d+)?): (?P<rest>.*)$')
REPORT = re.compile(r'^\s*(?P<comm>.*)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s*'
                    r'(?P<ts>\d+(?:\.\d+)?): (?P<name>[^\s:]+):\s*(?P<payload>.*)$')
LOST = re.compile(r'^CPU:\d+ \[(LOST|\d* ?EVENTS DROPPED)')
ARRAY = re.compile(r'\{(0x[0-9a-f]+(?:,0x[0-9a-f]+)*)\}')


def fix_array(m):
    return ' '.join(str(int(x, 16)) for x in m.group(1).split(','))


def ours_event(line):
    m = OURS.match(line)
    if not m:
        return None
    rest = m.group('rest')
    if rest.startswith('tracing_mark_write: '):
        name, payload = 'print', rest
    elif rest.startswith('# '):
        name, payload = 'raw_data', rest.replace(' buf:', '', 1)
    else:
        name, _, payload = rest.partition(': ')
    payload = ARRAY.sub(fix_array, payload)
    return (m.group('comm'), int(m.group('pid')), int(m.group('cpu')),
            m.group('ts'), name, payload.strip())


def report_event(line, ns_clock):
    m = REPORT.match(line)
    if not m:
        return None
    ts = m.group('ts')
    if ns_clock and '.' not in ts:
        usecs = (int(ts) + 500) // 1000
        ts = '%d.%06d' % (usecs // 1000000, usecs % 1000000)
    return (m.group('comm'), int(m.group('pid')), int(m.group('cpu')), ts,
            m.group('name'), m.group('payload').strip())


def events(path, parse):
    out = []
    for line in open(path, encoding='utf-8', errors='replace'):
        line = line.rstrip('\n')
        if not line.strip() or line.startswith('cpus=') or LOST.match(line):
            continue
        ev = parse(line)
        if ev is None:
            raise SystemExit('%s: cannot parse: %r' % (path, line))
        out.append(ev)
    return out


def differ(what, a, b):
    shown = 0
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else None
        y = b[i] if i < len(b) else None
        if x != y:
            print('# %s %d:\n#   ours:     %s\n#   trace-cmd: %s' % (what, i, x, y))
            shown += 1
            if shown == 5:
                break
    return shown


def cmd_text(args):
    ns_clock = '--ns-clock' in args
    args = [a for a in args if a != '--ns-clock']
    ours = events(args[0], ours_event)
    theirs = events(args[1], lambda l: report_event(l, ns_clock))
    if not ours:
        raise SystemExit('%s: no events' % args[0])
    if differ('event', ours, theirs) or len(ours) != len(theirs):
        print('# %d events in ours, %d in the report' % (len(ours), len(theirs)))
        return 1
    print('# %d events equal' % len(ours))
    return 0


def cmd_sample(args):
    want = {}
    for line in open(args[0], encoding='utf-8'):
        m = re.match(r'^(\d+): (.*)$', line.rstrip('\n'))
        if m:
            want.setdefault(int(m.group(1)), []).append(
                ARRAY.sub(fix_array, m.group(2)).strip())
    got = {}
    for ev in events(args[1], lambda l: report_event(l, False)):
        got.setdefault(ev[1], []).append(ev[5])
    if not want:
        raise SystemExit('%s: no events' % args[0])
    bad = 0
    for pid in sorted(set(want) | set(got)):
        bad += differ('pid %d event' % pid, want.get(pid, []), got.get(pid, []))
    if bad:
        return 1
    print('# %d events equal' % sum(len(v) for v in want.values()))
    return 0


def cmd_seq(args):
    worker, first, last = int(args[1]), int(args[2]), int(args[3])
    seqs = []
    for ev in events(args[0], lambda l: report_event(l, False)):
        m = re.match(r'worker=(\d+) seq=(\d+)$', ev[5])
        if ev[4] == 'rec_seq' and m and int(m.group(1)) == worker:
            seqs.append(int(m.group(2)))
    want = list(range(first, last + 1))
    if seqs != want:
        print('# worker %d: %d events, seq %s..%s; want %d..%d' % (
            worker, len(seqs), seqs[0] if seqs else '-', seqs[-1] if seqs else '-',
            first, last))
        return 1
    return 0


def formats(path):
    out = {}
    cur = []
    for line in open(path, encoding='utf-8'):
        if line.startswith('name: '):
            cur = [line]
        elif cur:
            if not line.startswith('ID: '):
                cur.append(line)
            if line.startswith('print fmt: '):
                out[cur[0].strip()] = ''.join(cur)
                cur = []
    return out


def cmd_formats(args):
    listed, dumped = formats(args[0]), formats(args[1])
    if not listed or listed != dumped:
        for name in sorted(set(listed) | set(dumped)):
            if listed.get(name) != dumped.get(name):
                print('# %s:\n#   listed: %r\n#   in the file: %r' % (
                    name, listed.get(name), dumped.get(name)))
        return 1
    print('# %d formats equal' % len(listed))
    return 0


def main(argv):
    cmds = {'text': cmd_text, 'sample': cmd_sample, 'seq': cmd_seq,
            'formats': cmd_formats}
    if len(argv) < 2 or argv[1] not in cmds:
        print(__doc__, file=sys.stderr)
        return 2
    return cmds[argv[1]](argv[2:])


if __name__ == '__main__':
    sys.exit(main(sys.argv))
