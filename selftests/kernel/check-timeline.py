#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""check-timeline.py - judge a file of ustrace record -K by what trace-cmd prints.

Usage: trace-cmd report -t -N FILE | check-timeline.py MODE [--stale-cpu] [EVENT]
       trace-cmd report -t -N -i k.dat -i u.dat | check-timeline.py MODE [EVENT]

MODE
  slices  for every program event EVENT (default ktl_mark) fired by thread
          T on CPU c at time t, the first sched_switch on CPU c after t
          switches T out: no program event falls inside another task's run
          slice.  Judged by switch-outs only: the kernel does not always
          record the switch-in from the idle task (seen on CPU 1 of a KVM
          guest).  Prints the counts; exit 1 with the first violations.
          --stale-cpu: a violation whose thread the kernel had switched in
          on another CPU before t (it migrated between the ring buffer's
          reading of the CPU and of the clock: the event is on the CPU it
          left, with a time from the one it reached) is counted apart and
          does not fail; the time is right, the CPU is the writer's.
  sync    ktl_sync(i, 0), the kernel's task:task_rename, ktl_sync(i, 1) of
          one thread: each rename must fall between its two events.
          Prints the smallest gap before and after it, in ns (how far the
          clocks could disagree and still order them right), and exit 1
          if any is negative.
  order   the lines are in time order, and both kinds are there.
"""
import re
import sys

# [FILE: ] COMM-PID [CPU] SECS.NSECS: EVENT: FIELDS (FILE: with several -i)
LINE = re.compile(r'^(?:\S+\.dat:)?\s*(.*)-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+([\w:]+):\s*(.*)$')


def records(stream):
    for line in stream:
        m = LINE.match(line)
        if not m:
            continue
        comm, pid, cpu, sec, frac, event, rest = m.groups()
        ts = int(sec) * 10**9 + int(frac.ljust(9, '0')[:9])
        yield dict(pid=int(pid), cpu=int(cpu), ts=ts, event=event, rest=rest, line=line.rstrip())


def field(rest, name):
    m = re.search(r'\b' + name + r'=(\S+)', rest)
    return m.group(1) if m else None


def slices(recs, event, stale_ok):
    pending = {}            # cpu -> program events not yet judged
    last_in = {}            # pid -> the CPU the kernel last switched it in on
    judged = bad = stale = switches = 0
    report = []
    for r in recs:
        if r['event'] == event:
            r['in_cpu'] = last_in.get(r['pid'])
            pending.setdefault(r['cpu'], []).append(r)
        elif r['event'] == 'sched_switch':
            switches += 1
            prev = int(field(r['rest'], 'prev_pid'))
            last_in[int(field(r['rest'], 'next_pid'))] = r['cpu']
            for ev in pending.pop(r['cpu'], []):
                judged += 1
                if ev['pid'] == prev:
                    continue
                if stale_ok and ev['in_cpu'] is not None and ev['in_cpu'] != ev['cpu']:
                    stale += 1
                    continue
                bad += 1
                if len(report) < 5:
                    report.append('%s\n  then: %s' % (ev['line'], r['line']))
    left = sum(len(v) for v in pending.values())
    print('program events judged: %d, violations: %d, not followed by a switch: %d, '
          'switches: %d%s' % (judged, bad, left, switches,
                              ', on a CPU the thread had left: %d' % stale if stale_ok else ''))
    for r in report:
        print('violation: ' + r)
    return 0 if judged and not bad and not left else 1


def sync(recs):
    before = None
    renames = []
    gaps_b, gaps_a = [], []
    bad = 0
    for r in recs:
        if r['event'] == 'ktl_sync':
            if field(r['rest'], 'after') == '0':
                before, renames = r, []
            elif before:
                for k in renames:
                    gaps_b.append(k['ts'] - before['ts'])
                    gaps_a.append(r['ts'] - k['ts'])
                    bad += k['ts'] < before['ts'] or k['ts'] > r['ts']
                before = None
        elif r['event'] == 'task_rename' and before and r['pid'] == before['pid']:
            renames.append(r)
    if not gaps_b:
        print('no task_rename between ktl_sync pairs')
        return 1
    gaps_b.sort()
    gaps_a.sort()
    print('pairs: %d, out of order: %d, gap before rename ns: min %d median %d, '
          'after: min %d median %d' % (len(gaps_b), bad, gaps_b[0], gaps_b[len(gaps_b) // 2],
                                       gaps_a[0], gaps_a[len(gaps_a) // 2]))
    return 1 if bad or len(gaps_b) < 10 else 0


def order(recs, event):
    last = -1
    kinds = set()
    for r in recs:
        if r['ts'] < last:
            print('out of order: %s' % r['line'])
            return 1
        last = r['ts']
        kinds.add('program' if r['event'] == event else 'kernel' if r['event'].startswith('sched_') else '?')
    print('kinds: %s' % ' '.join(sorted(kinds)))
    return 0 if {'program', 'kernel'} <= kinds else 1


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ('slices', 'sync', 'order'):
        print(__doc__, file=sys.stderr)
        return 2
    args = [a for a in sys.argv[2:] if a != '--stale-cpu']
    event = args[0] if args else 'ktl_mark'
    recs = list(records(sys.stdin))
    if sys.argv[1] == 'slices':
        return slices(recs, event, '--stale-cpu' in sys.argv)
    if sys.argv[1] == 'sync':
        return sync(recs)
    return order(recs, event)


if __name__ == '__main__':
    sys.exit(main())
