#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""compare-text.py OURS THEIRS EXPECTED: the trace text against trace-cmd report.

OURS is what reading the trace file gave (trace_print_file()), THEIRS what
"trace-cmd report -N" printed for the recording of the same events, fired
once in the same order.  For each event the n-th line of one is compared
with the n-th line of the other, the text after "name: ".

A line that differs may still agree but for one of libtraceevent's own
ways of printing, which it has on the kernel's records too; each is a
rule that rewrites both texts, and EXPECTED ("event rule[,rule]  # why")
says which events need which.  The rules:

  ptr       plain %p: the kernel (and ustrace) print a hash, 00000000
            and 8 hex digits (NULL as 16 zeros), libtraceevent the value
            as 0x... or (nil); the texts must agree elsewhere
  symsize   %pS: the kernel prints name+0xoff/0xsize, libtraceevent
            name+0xoff
  value:F   the value of field F ("F=..." or "F ...") is not compared:
            libtraceevent cannot evaluate what the print fmt says for it
            (an enum constant the kernel leaves as a name, a kernel
            variable, an expression it parses wrongly); EXPECTED says which
  last      the same for the text's last word, which may be empty: a
            __print_flags() of enum names the kernel leaves as names
            (ustrace and the kernel print nothing for 0)
  array     __print_array(): the kernel prints {0x5dc,0x7d0}, libtraceevent
            {1500 2000}; the braces' contents are not compared
  hexdump   %*phD of a field's array, which libtraceevent does not
            evaluate: the [...] that holds it is not compared
  lead      the text's leading blanks ("%8s" of a short name): trace-cmd
            report pads the event's name, and they cannot be told apart

TAP on stdout: one result per event, then the figures.
"""
import re
import sys

LINE_OURS = re.compile(r'^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+\S+\s+[\d.]+: (\w+): (.*)$')
LINE_THEIRS = re.compile(r'^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+[\d.]+: (\w+): ?(.*)$')


def lines_of(path, pattern):
    by_event = {}
    order = []
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('#') or line.startswith('cpus=') or line.startswith('version'):
                continue
            m = pattern.match(line)
            if not m:
                continue
            name, text = m.group(4), m.group(5)
            if pattern is LINE_THEIRS:
                text = text.lstrip(' ')
            if name not in by_event:
                by_event[name] = []
                order.append(name)
            by_event[name].append(text)
    return by_event, order


HASHED = re.compile(r'(?<![0-9a-f])(?:00000000[0-9a-f]{8}|0{16})(?![0-9a-f])')
VALUE = r'(?:0x[0-9a-f]+|\(nil\))'
SYMSIZE = re.compile(r'(\b[A-Za-z_.][\w.]*\+0x[0-9a-f]+)/0x[0-9a-f]+')


def rule_ptr(ours, theirs):
    """Where ours has a hashed pointer, theirs may have any value."""
    pieces = HASHED.split(ours)
    pattern = VALUE.join(re.escape(p) for p in pieces)
    if len(pieces) > 1 and re.fullmatch(pattern, theirs):
        return theirs, theirs
    return ours, theirs


def rule_symsize(ours, theirs):
    return SYMSIZE.sub(r'\1', ours), theirs


def rule_value(field):
    pattern = re.compile(r'(?<![\w.>-])(%s)([= ])\S*' % re.escape(field))

    def rule(ours, theirs):
        return pattern.sub(r'\1\2*', ours), pattern.sub(r'\1\2*', theirs)
    return rule


def rule_last(ours, theirs):
    return re.sub(r' \S*$', ' *', ours), re.sub(r' \S*$', ' *', theirs)


ARRAY = re.compile(r'\{\{?[^{}]*\}?\}')


def rule_array(ours, theirs):
    return ARRAY.sub('{*}', ours), ARRAY.sub('{*}', theirs)


HEXDUMP = re.compile(r'\[[^\]]*\]$')


def rule_hexdump(ours, theirs):
    return HEXDUMP.sub('[*]', ours), HEXDUMP.sub('[*]', theirs)


def rule_lead(ours, theirs):
    return ours.lstrip(' '), theirs


RULES = {'ptr': rule_ptr, 'symsize': rule_symsize, 'last': rule_last,
         'array': rule_array, 'hexdump': rule_hexdump, 'lead': rule_lead}


def agree(ours, theirs, rules):
    # The value rules first, the pointer rule last: it must see the rest equal.
    for r in sorted(rules, key=lambda r: (r == 'ptr', not r.startswith('value:'))):
        fn = rule_value(r[6:]) if r.startswith('value:') else RULES[r]
        ours, theirs = fn(ours, theirs)
    return ours == theirs


def main():
    ours, order = lines_of(sys.argv[1], LINE_OURS)
    theirs, _ = lines_of(sys.argv[2], LINE_THEIRS)
    expected = {}
    with open(sys.argv[3]) as f:
        for line in f:
            line = line.split('#', 1)[0].strip()
            if not line:
                continue
            name, quirks = line.split()[:2]
            expected[name] = [q for q in quirks.split(',') if q]
    print('TAP version 13')
    print('1..%d' % (len(order) + 1))
    n = exact = quirky = bad = 0
    for name in order:
        n += 1
        a, b = ours[name], theirs.get(name, [])
        rules = expected.get(name, [])
        if len(a) != len(b):
            print('not ok %d - %s: %d lines, trace-cmd report has %d' % (n, name, len(a), len(b)))
            bad += 1
            continue
        if a == b:
            if rules:
                print('not ok %d - %s: the same text, but listed with %s' %
                      (n, name, ','.join(rules)))
                bad += 1
            else:
                print('ok %d - %s' % (n, name))
                exact += 1
            continue
        if rules and all(agree(x, y, rules) for x, y in zip(a, b)):
            # Each rule listed must be needed: drop one, it must fail.
            needless = [r for r in rules
                        if all(agree(x, y, [q for q in rules if q != r]) for x, y in zip(a, b))]
            if needless:
                print('not ok %d - %s: %s not needed' % (n, name, ','.join(needless)))
                bad += 1
                continue
            print('ok %d - %s # libtraceevent: %s' % (n, name, ','.join(rules)))
            quirky += 1
            continue
        print('not ok %d - %s' % (n, name))
        for x, y in zip(a, b):
            if not agree(x, y, rules):
                print('#   trace:      %s' % x)
                print('#   libtraceevent: %s' % y)
                break
        bad += 1
    missing = [e for e in expected if e not in ours]
    n += 1
    if missing:
        print('not ok %d - listed but not recorded: %s' % (n, ' '.join(missing)))
        bad += 1
    else:
        print('ok %d - every listed event was recorded' % n)
    print('# trace text equal to libtraceevent\'s: %d/%d; %d more but for '
          'libtraceevent\'s quirks; %d differ' % (exact, len(order), quirky, bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
