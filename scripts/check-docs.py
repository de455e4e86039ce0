#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""check-docs.py - keep the documentation of ustrace honest.

Usage:
  check-docs.py [options] [COMMAND [FILE...]]

Commands (each prints TAP on stdout and exits 1 if a test failed):
  symbols     every symbol libustrace.so exports, except the __ustrace_
              internals, is named in the NAME or SYNOPSIS section of a man
              page in Documentation/man/; a function of the C library that
              libustrace defines over libc's (_exit, execve...) is named in
              an INTERPOSED FUNCTIONS section instead
  man         every man page renders without warnings and has NAME,
              SYNOPSIS, DESCRIPTION and SEE ALSO; every name in a NAME
              section has a page or a .so link, every .so link points to
              a page that exists, and the program in every EXAMPLE section
              compiles, links, runs and prints what the page shows
  examples    every C example in the given .rst and .md files (default:
              Documentation/**/*.rst and README.md) compiles, and runs
              when it has a main(); unmarked C blocks are errors
  rst         the given .rst files parse without docutils warnings
              (skipped when docutils is not installed)
  claims      every statement of the given .rst files and man pages
              (default: Documentation/**/*.rst and Documentation/man/*)
              that something does not work names the test that shows it
              (see below)
  all         symbols, man, rst and claims (the default)
  extract FILE NAME DIR
              write the files of example NAME of FILE into DIR (no test)

Options:
  --srctree DIR   source tree (default: $USTRACE_SRCTREE, else this
                  script's parent directory)
  --objtree DIR   build directory holding libustrace.so and
                  include/generated/ (default: $USTRACE_OBJTREE, else the
                  source tree)
  --keep DIR      build examples in DIR and keep them (default: a
                  temporary directory, removed at exit)
  -v              show the commands

The compiler and flags come from $USTRACE_CC, $USTRACE_CFLAGS and
$USTRACE_LDFLAGS (the test runner sets them to the build's), else cc and
flags derived from the two trees.  Examples are compiled with -Werror.

How examples are marked
-----------------------
In reStructuredText a C block belongs to example NAME when a comment
names it right before the code-block directive:

  .. ustrace-example: NAME file=PATH so=LIB.so expect=run

  .. code-block:: c

and an expected output is written the same way:

  .. ustrace-output: NAME stream=stdout

  .. code-block:: text

In Markdown the comment is <!-- ustrace-example: NAME ... --> before a
```c fence (```text for outputs).  In a man page of section 2 or 3 the
EXAMPLE section's .EX/.EE blocks are the program (one file), except a block
preceded by the comment '.\\" ustrace-output', which is its expected
standard output; in other sections only blocks preceded by
'.\\" ustrace-example' are C.

Options of an example (on any of its blocks; a value with spaces is
quoted as in the shell, e.g. ldflags="-L. -lfoo"):
  file=PATH       where the block is written, relative to the example's
                  directory (default NAME.c; required when NAME has
                  several blocks).  Blocks naming the same file are joined
                  in order.  The directory and its include/ are on the
                  include path.
  so=LIB.so       the file belongs to shared object LIB.so, built before
                  the program (which may dlopen("./LIB.so")) and linked
                  with libustrace; so=A.so,B.so puts it in both
  expect=WHAT     run (default), compile-error or link-error
  error=TEXT      text the compiler's or linker's message must contain
                  (with expect=compile-error or link-error)
  exit=N          expected exit status of the program (default 0)
  cflags=FLAGS    extra flags for compiling every file of the example
  ldflags=FLAGS   extra flags for linking the program, after its objects,
                  e.g. ldflags=-rdynamic
  config=notracepoints
                  build with CONFIG_TRACEPOINTS unset
The program (the .c files without so=) runs when one of them defines
main(), in the example's directory, and its standard output and error must
equal the ustrace-output blocks given for them.  Without a main() the
program's files are linked into a shared object instead, which resolves
them against libustrace.

What does not work, and its test
--------------------------------
A paragraph or list item of a page that says something is not supported,
unsupported, not implemented, not available, not honoured or does not
work (outside ``literal`` text in reStructuredText: a quoted error
message is not a statement), and every list item of a section titled
"What does not work", names the test that shows it:

  ... the per-CPU snapshot files do not exist. (test:
  ``selftests/tracefs/tree.c``)

in a man page the same without the backquotes.  "(tests: A, B)" names
several.  Each must be a file of the source tree under selftests/; the
claims command fails for a statement that names none, or a file that
does not exist.
"""

import difflib
import glob
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

RUN_TIMEOUT = 30
BUILD_TIMEOUT = 120

# Symbols that a sanitizer or the toolchain may add to the library's
# dynamic symbol table; they are not ustrace's API.
FOREIGN_SYMBOL = re.compile(
    r'^(__asan_|__odr_asan|__tsan_|__ubsan_|__lsan_|__sanitizer_|'
    r'_init$|_fini$|_edata$|_end$|__bss_start$)')

MAN_SUFFIXES = tuple('.%d' % i for i in range(1, 9))

MAIN_RE = re.compile(r'^\s*int\s+main\s*\(', re.M)


class Tap:
    """Collects TAP results; prints the plan at the end (TAP allows it)."""

    def __init__(self):
        self.n = 0
        self.failed = 0
        print('TAP version 13', flush=True)

    def result(self, ok, desc, diag=None, skip=None):
        self.n += 1
        line = '%s %d - %s' % ('ok' if ok or skip else 'not ok', self.n, desc)
        if skip:
            line += ' # SKIP ' + skip
        print(line)
        if not ok and not skip:
            self.failed += 1
            for d in (diag or '').rstrip('\n').split('\n'):
                if d:
                    print('#   ' + d)
        sys.stdout.flush()

    def done(self):
        print('1..%d' % self.n)
        return 1 if self.failed else 0


class DocError(Exception):
    pass


# ---- reading the documents -------------------------------------------------

def parse_opts(text, where):
    """'NAME k=v k=v' -> (NAME, {k: v})"""
    try:
        words = shlex.split(text)
    except ValueError as e:
        raise DocError('%s: %s' % (where, e))
    if not words:
        raise DocError('%s: marker without a name' % where)
    opts = {}
    for w in words[1:]:
        if '=' not in w:
            raise DocError('%s: option "%s" is not key=value' % (where, w))
        k, v = w.split('=', 1)
        opts[k] = v
    return words[0], opts


class Block:
    def __init__(self, kind, name, opts, lang, text, where):
        self.kind = kind        # 'example', 'output' or None (unmarked)
        self.name = name
        self.opts = opts
        self.lang = lang
        self.text = text
        self.where = where


def rst_blocks(path):
    """The code-block directives of an .rst file, with their markers."""
    lines = open(path, encoding='utf-8').read().split('\n')
    blocks = []
    marker = None
    i = 0
    while i < len(lines):
        line = lines[i]
        where = '%s:%d' % (path, i + 1)
        m = re.match(r'^\.\. ustrace-(example|output):(.*)$', line)
        if m:
            text = m.group(2)
            # Options may continue on indented comment lines.
            while i + 1 < len(lines) and re.match(r'^\s+\S', lines[i + 1]):
                i += 1
                text += ' ' + lines[i].strip()
            name, opts = parse_opts(text, where)
            marker = (m.group(1), name, opts, where)
            i += 1
            continue
        m = re.match(r'^(\s*)\.\. code-block::\s*(\S*)\s*$', line)
        if m:
            indent = len(m.group(1))
            lang = m.group(2)
            i += 1
            # Directive options, then a blank line, then the content.
            while i < len(lines) and re.match(r'^\s+:\w[\w-]*:', lines[i]):
                i += 1
            body = []
            while i < len(lines):
                cur = lines[i]
                if cur.strip() and len(cur) - len(cur.lstrip()) <= indent:
                    break
                body.append(cur)
                i += 1
            while body and not body[-1].strip():
                body.pop()
            while body and not body[0].strip():
                body.pop(0)
            strip = min((len(b) - len(b.lstrip()) for b in body if b.strip()),
                        default=0)
            text = '\n'.join(b[strip:] for b in body) + '\n'
            if marker:
                kind, name, opts, mwhere = marker
                blocks.append(Block(kind, name, opts, lang, text, mwhere))
            else:
                blocks.append(Block(None, None, {}, lang, text, where))
            marker = None
            continue
        if line.strip() and marker and not line.startswith('.. '):
            raise DocError('%s: ustrace-%s marker is not followed by a '
                           'code-block' % (marker[3], marker[0]))
        i += 1
    return blocks


def md_blocks(path):
    """The fenced code blocks of a Markdown file, with their markers."""
    lines = open(path, encoding='utf-8').read().split('\n')
    blocks = []
    marker = None
    i = 0
    while i < len(lines):
        line = lines[i]
        where = '%s:%d' % (path, i + 1)
        m = re.match(r'^<!--\s*ustrace-(example|output):(.*?)-->\s*$', line)
        if m:
            name, opts = parse_opts(m.group(2), where)
            marker = (m.group(1), name, opts, where)
            i += 1
            continue
        m = re.match(r'^(```+)\s*(\S*)\s*$', line)
        if m:
            fence, lang = m.group(1), m.group(2)
            i += 1
            body = []
            while i < len(lines) and not lines[i].startswith(fence):
                body.append(lines[i])
                i += 1
            i += 1
            text = '\n'.join(body) + '\n'
            if marker:
                kind, name, opts, mwhere = marker
                blocks.append(Block(kind, name, opts, lang, text, mwhere))
            else:
                blocks.append(Block(None, None, {}, lang, text, where))
            marker = None
            continue
        if line.strip() and marker:
            raise DocError('%s: ustrace-%s marker is not followed by a '
                           'code fence' % (marker[3], marker[0]))
        i += 1
    return blocks


ROFF_ESCAPES = [
    ('\\(aq', "'"), ('\\(dq', '"'), ('\\(rs', '\\'), ('\\(ti', '~'),
    ('\\(ha', '^'), ('\\(ga', '`'), ('\\-', '-'), ('\\&', ''), ('\\~', ' '),
    ('\\ ', ' '), ('\\%', ''), ('\\e', '\\'),
]


def roff_text(line):
    """The text a roff input line stands for (the escapes man pages use)."""
    out = []
    i = 0
    while i < len(line):
        for esc, rep in ROFF_ESCAPES:
            if line.startswith(esc, i):
                out.append(rep)
                i += len(esc)
                break
        else:
            if line.startswith('\\f', i):
                # Font changes: \fB, \fI, \fR, \fP, \f(CW, \f[...]
                if line.startswith('\\f(', i):
                    i += 5
                elif line.startswith('\\f[', i):
                    i = line.index(']', i) + 1
                else:
                    i += 3
                continue
            if line.startswith('\\"', i):
                break
            out.append(line[i])
            i += 1
    return ''.join(out)


def man_sections(path):
    """{SECTION: [roff lines]} of a man page, in order."""
    sections = {}
    cur = None
    for line in open(path, encoding='utf-8').read().split('\n'):
        m = re.match(r'^\.SH\s+"?([^"]*)"?\s*$', line)
        if m:
            cur = m.group(1).strip().upper()
            sections[cur] = []
            continue
        if cur:
            sections[cur].append(line)
    return sections


def man_blocks(path):
    """The EXAMPLE section of a man page as blocks (one program).

    In sections 2 and 3 every .EX/.EE block of the section is C, except
    those marked as output; elsewhere (a command's page, an overview) only
    blocks preceded by '.\\" ustrace-example' are.
    """
    secs = man_sections(path)
    lines = secs.get('EXAMPLE', secs.get('EXAMPLES'))
    if lines is None:
        return []
    name = os.path.basename(path)
    all_c = os.path.splitext(path)[1] in ('.2', '.3')
    blocks = []
    program = []
    output_next = False
    example_next = False
    in_ex = None
    for line in lines:
        if line.startswith('.EX'):
            in_ex = []
            continue
        if line.startswith('.EE'):
            text = '\n'.join(in_ex) + '\n'
            if output_next:
                blocks.append(Block('output', name, {}, 'text', text, path))
            elif all_c or example_next:
                program.append(text)
            in_ex = None
            output_next = example_next = False
            continue
        if in_ex is not None:
            if line.startswith('.\\"'):
                continue
            if line.startswith('.') or line.startswith("'"):
                raise DocError('%s: request "%s" inside .EX/.EE; escape the '
                               'line with \\&' % (path, line))
            in_ex.append(roff_text(line))
            continue
        if re.match(r'^\.\\"\s*ustrace-output', line):
            output_next = True
        elif re.match(r'^\.\\"\s*ustrace-example', line):
            example_next = True
    if program:
        blocks.insert(0, Block('example', name, {'file': 'example.c'}, 'c',
                               '\n'.join(program), path))
    return blocks


class Example:
    def __init__(self, name, where):
        self.name = name
        self.where = where
        self.files = []         # [(path, text, so)]
        self.opts = {}
        self.outputs = {}       # stream -> text


def collect_examples(blocks):
    """Group marked blocks by name.  Returns (examples, errors)."""
    examples = {}
    order = []
    errors = []
    for b in blocks:
        if b.kind is None:
            if b.lang in ('c', 'C'):
                errors.append('%s: C code-block without an ustrace-example '
                              'marker' % b.where)
            continue
        ex = examples.get(b.name)
        if b.kind == 'example':
            if ex is None:
                ex = examples[b.name] = Example(b.name, b.where)
                order.append(ex)
            path = b.opts.get('file')
            so = b.opts.get('so')
            for k, v in b.opts.items():
                if k not in ('file', 'so'):
                    ex.opts[k] = v
            for i, (p, text, s) in enumerate(ex.files):
                if path is not None and p == path:
                    # A file shown in pieces: the blocks are joined.
                    ex.files[i] = (p, text + '\n' + b.text, s or so)
                    break
            else:
                ex.files.append((path, b.text, so))
        else:
            if ex is None:
                errors.append('%s: output for example "%s", which is not '
                              'defined above it' % (b.where, b.name))
                continue
            stream = b.opts.get('stream', 'stdout')
            if stream not in ('stdout', 'stderr'):
                errors.append('%s: stream=%s' % (b.where, stream))
                continue
            ex.outputs[stream] = ex.outputs.get(stream, '') + b.text
    for ex in order:
        if len(ex.files) == 1 and ex.files[0][0] is None:
            ex.files[0] = (ex.name + '.c',) + ex.files[0][1:]
        for path, _, _ in ex.files:
            if path is None:
                errors.append('%s: example "%s" has several blocks; each needs '
                              'file=' % (ex.where, ex.name))
                break
        unknown = set(ex.opts) - {'expect', 'error', 'exit', 'cflags',
                                  'ldflags', 'config'}
        if unknown:
            errors.append('%s: example "%s": unknown option %s' %
                          (ex.where, ex.name, ', '.join(sorted(unknown))))
    return order, errors


# ---- building and running --------------------------------------------------

class Toolchain:
    def __init__(self, srctree, objtree, verbose):
        self.srctree = srctree
        self.objtree = objtree
        self.verbose = verbose
        self.cc = shlex.split(os.environ.get('USTRACE_CC') or 'cc')
        cflags = os.environ.get('USTRACE_CFLAGS')
        if cflags:
            self.cflags = shlex.split(cflags)
        else:
            self.cflags = ['-std=gnu11', '-O2', '-Wall', '-Wextra',
                           '-D_GNU_SOURCE', '-I' + objtree + '/include',
                           '-I' + srctree + '/include']
        self.cflags.append('-Werror')
        self.ldflags = shlex.split(os.environ.get('USTRACE_LDFLAGS') or '')
        self.libs = ['-L' + objtree, '-lustrace', '-Wl,-rpath,' + objtree,
                     '-ldl']
        # The sanitizers' runtimes are not linked into shared objects.
        self.no_undefined = [] if os.environ.get('USTRACE_SANITIZE') else \
            ['-Wl,--no-undefined']

    def run(self, argv, cwd, timeout, env=None):
        if self.verbose:
            print('# $ ' + ' '.join(shlex.quote(a) for a in argv), flush=True)
        try:
            p = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, timeout=timeout,
                               env=env, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            return None, '', 'timed out after %ds' % timeout
        except OSError as e:
            return None, '', str(e)
        return (p.returncode, p.stdout.decode('utf-8', 'replace'),
                p.stderr.decode('utf-8', 'replace'))


def show_cmd(argv):
    return '$ ' + ' '.join(shlex.quote(a) for a in argv)


def diff_text(want, got):
    return ''.join(difflib.unified_diff(want.splitlines(True),
                                        got.splitlines(True),
                                        'documented', 'actual'))


def build_example(ex, dirpath, tc):
    """Returns None on success, else a description of what went wrong."""
    os.makedirs(dirpath, exist_ok=True)
    for path, text, _ in ex.files:
        full = os.path.join(dirpath, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, 'w', encoding='utf-8') as f:
            f.write(text)

    expect = ex.opts.get('expect', 'run')
    if expect not in ('run', 'compile-error', 'link-error'):
        return 'expect=%s is not run, compile-error or link-error' % expect
    want_error = ex.opts.get('error')

    incs = ['-I' + dirpath, '-I' + os.path.join(dirpath, 'include')]
    if ex.opts.get('config') == 'notracepoints':
        gen = os.path.join(dirpath, '.config-override', 'generated')
        os.makedirs(gen, exist_ok=True)
        with open(os.path.join(gen, 'autoconf.h'), 'w') as f:
            f.write('/* CONFIG_TRACEPOINTS is not set */\n')
        incs.insert(0, '-I' + os.path.dirname(gen))
    elif 'config' in ex.opts:
        return 'config=%s: only config=notracepoints is known' % \
            ex.opts['config']

    # Compile every .c file on its own, so that a compile error is told
    # apart from a link error.
    objs = {}                   # so (None for the program) -> [objects]
    compile_err = []
    cflags = shlex.split(ex.opts.get('cflags', ''))
    for path, _, so in ex.files:
        if not path.endswith('.c'):
            continue
        src = os.path.join(dirpath, path)
        obj = src[:-2] + '.o'
        argv = tc.cc + incs + tc.cflags + cflags + \
            ['-fPIC', '-c', '-o', obj, src]
        rc, out, err = tc.run(argv, dirpath, BUILD_TIMEOUT)
        if rc != 0:
            compile_err.append(show_cmd(argv) + '\n' + out + err)
        for one in so.split(',') if so else [None]:
            objs.setdefault(one, []).append(obj)

    if expect == 'compile-error':
        if not compile_err:
            return 'compiled, but the document says it does not'
        if want_error and want_error not in ''.join(compile_err):
            return ('the compiler did not say "%s":\n' % want_error +
                    ''.join(compile_err))
        return None
    if compile_err:
        return 'does not compile:\n' + ''.join(compile_err)

    link_err = []
    for so, files in objs.items():
        if so is None:
            continue
        argv = tc.cc + tc.ldflags + ['-shared', '-o',
                                     os.path.join(dirpath, so)] + files + \
            tc.libs
        rc, out, err = tc.run(argv, dirpath, BUILD_TIMEOUT)
        if rc != 0:
            link_err.append(show_cmd(argv) + '\n' + out + err)
    has_main = any(MAIN_RE.search(text) for path, text, so in ex.files
                   if so is None and path.endswith('.c'))
    prog = None
    if None in objs:
        # Without a main() the program's files are linked into a shared
        # object, which still resolves them against libustrace.
        prog = os.path.join(dirpath, 'example' if has_main else 'example.so')
        extra = shlex.split(ex.opts.get('ldflags', ''))
        kind = [] if has_main else ['-shared'] + tc.no_undefined
        argv = tc.cc + tc.ldflags + kind + ['-o', prog] + objs[None] + \
            extra + tc.libs
        rc, out, err = tc.run(argv, dirpath, BUILD_TIMEOUT)
        if rc != 0:
            link_err.append(show_cmd(argv) + '\n' + out + err)

    if expect == 'link-error':
        if not link_err:
            return 'linked, but the document says it does not'
        if want_error and want_error not in ''.join(link_err):
            return ('the linker did not say "%s":\n' % want_error +
                    ''.join(link_err))
        return None
    if link_err:
        return 'does not link:\n' + ''.join(link_err)

    if not prog or not has_main:
        if ex.outputs:
            return 'has an expected output but no main()'
        return None

    rc, out, err = tc.run([prog], dirpath, RUN_TIMEOUT)
    want_rc = int(ex.opts.get('exit', '0'))
    problems = []
    if rc != want_rc:
        problems.append('exit status %s, expected %d' % (rc, want_rc))
    for stream, got in (('stdout', out), ('stderr', err)):
        if stream in ex.outputs and got != ex.outputs[stream]:
            problems.append('%s differs from the document:\n%s' %
                            (stream, diff_text(ex.outputs[stream], got)))
    if problems:
        return '\n'.join(problems) + '\n--- stdout:\n' + out + \
            '--- stderr:\n' + err
    return None


def check_examples(tap, tc, files, workdir):
    for path in files:
        rel = os.path.relpath(path, tc.srctree)
        try:
            examples, errors = collect_examples(read_blocks(path))
        except (DocError, OSError, ValueError) as e:
            tap.result(False, '%s: readable markers' % rel, str(e))
            continue
        if errors or not path.endswith(MAN_SUFFIXES):
            tap.result(not errors, '%s: every C block is a marked example' %
                       rel, '\n'.join(errors))
        for ex in examples:
            where = os.path.relpath(ex.where.split(':')[0], tc.srctree)
            line = ex.where.split(':')[1] if ':' in ex.where else ''
            dirpath = os.path.join(workdir, re.sub(r'[^\w.-]', '_', rel),
                                   ex.name)
            problem = build_example(ex, dirpath, tc)
            expect = ex.opts.get('expect', 'run')
            if expect == 'run' and not any(
                    MAIN_RE.search(text) for path, text, so in ex.files
                    if so is None and path and path.endswith('.c')):
                expect = 'build'
            tap.result(problem is None, '%s%s: example %s (%s)' %
                       (where, ':' + line if line else '', ex.name, expect),
                       problem)


# ---- man pages -------------------------------------------------------------

def man_pages(srctree):
    return sorted(glob.glob(os.path.join(srctree, 'Documentation', 'man',
                                         '*.[1-8]')))


def so_target(path):
    """'man3/FOO.3' for a page that is only a .so link, else None."""
    with open(path, encoding='utf-8') as f:
        lines = [l for l in f.read().split('\n')
                 if l.strip() and not l.startswith('.\\"')]
    if len(lines) == 1 and lines[0].startswith('.so '):
        return lines[0][4:].strip()
    return None


def exported_symbols(lib, foreign=True):
    p = subprocess.run(['nm', '-D', '--defined-only', lib],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        raise DocError('nm %s: %s' % (lib, p.stderr.decode().strip()))
    syms = set()
    for line in p.stdout.decode().split('\n'):
        f = line.split()
        if len(f) == 3 and f[1] not in 'aAU':
            syms.add(f[2].split('@')[0])
    if not foreign:
        return sorted(syms)
    return sorted(s for s in syms
                  if not s.startswith('__ustrace_') and
                  not FOREIGN_SYMBOL.match(s))


def libc_symbols():
    """The functions the C library this script runs on exports."""
    libc = None
    for line in open('/proc/self/maps'):
        f = line.split()
        if len(f) >= 6 and re.search(r'/libc(\.so|-[0-9.]+\.so)', f[5]):
            libc = f[5]
            break
    return set(exported_symbols(libc, foreign=False)) if libc else set()


def documented_names(srctree, sections=('NAME', 'SYNOPSIS')):
    """identifier -> [man pages] from every NAME and SYNOPSIS section."""
    names = {}
    for page in man_pages(srctree):
        if so_target(page):
            continue
        secs = man_sections(page)
        for sec in sections:
            for line in secs.get(sec, []):
                if line.startswith('.\\"'):
                    continue
                text = roff_text(re.sub(r'^\.\w+\s*', '', line))
                for ident in re.findall(r'[A-Za-z_]\w*', text):
                    names.setdefault(ident, []).append(
                        os.path.basename(page))
    return names


def check_symbols(tap, tc):
    lib = os.path.join(tc.objtree, 'libustrace.so')
    if not os.path.exists(lib):
        tap.result(False, 'libustrace.so exists', '%s is missing; build the '
                   'library first' % lib)
        return
    try:
        syms = exported_symbols(lib)
    except DocError as e:
        tap.result(False, 'nm reads libustrace.so', str(e))
        return
    names = documented_names(tc.srctree)
    interposed = documented_names(tc.srctree, ('INTERPOSED FUNCTIONS',))
    libc = libc_symbols()
    for s in syms:
        pages = names.get(s) or (interposed.get(s) if s in libc else None)
        tap.result(bool(pages), '%s is documented%s' %
                   (s, ' in ' + ', '.join(sorted(set(pages))) if pages else ''),
                   'check-docs: %s is exported by libustrace.so but no man '
                   'page in Documentation/man/ names it in NAME or SYNOPSIS%s'
                   % (s, ' (or, a C library function, in INTERPOSED '
                      'FUNCTIONS)' if s in libc else ''))


def check_man(tap, tc, workdir):
    pages = man_pages(tc.srctree)
    if not pages:
        tap.result(False, 'Documentation/man has man pages', 'none found')
        return
    have_man = shutil.which('man') is not None
    mandir = os.path.dirname(pages[0])
    for page in pages:
        rel = os.path.relpath(page, tc.srctree)
        target = so_target(page)
        if target:
            ok = os.path.exists(os.path.join(mandir,
                                             os.path.basename(target)))
            tap.result(ok, '%s: .so link to %s' % (rel, target),
                       'Documentation/man/%s does not exist' %
                       os.path.basename(target))
            continue
        if not have_man:
            tap.result(True, '%s renders' % rel, skip='man is not installed')
        else:
            env = dict(os.environ, MANWIDTH='80', LC_ALL='C.UTF-8',
                       MAN_KEEP_FORMATTING='')
            rc, out, err = tc.run(['man', '--warnings', '-l', page],
                                  tc.srctree, 60, env)
            tap.result(rc == 0 and not err.strip() and out.strip() != '',
                       '%s renders without warnings' % rel,
                       'man exit status %s\n%s' % (rc, err))
        secs = man_sections(page)
        missing = [s for s in ('NAME', 'SYNOPSIS', 'DESCRIPTION',
                               'SEE ALSO') if s not in secs]
        tap.result(not missing, '%s has NAME, SYNOPSIS, DESCRIPTION and '
                   'SEE ALSO' % rel, 'missing: ' + ', '.join(missing))
        # "man NAME" must find the page for every name it lists.
        text = ' '.join(roff_text(l) for l in secs.get('NAME', [])
                        if not l.startswith('.'))
        names = [n.strip() for n in text.split(' - ')[0].split(',')]
        suffix = os.path.splitext(page)[1]
        nolink = [n for n in names if n and not os.path.exists(
            os.path.join(mandir, n + suffix))]
        tap.result(not nolink, '%s: every name in NAME has a page or a .so '
                   'link' % rel, 'no Documentation/man/NAME%s for: %s' %
                   (suffix, ', '.join(nolink)))
    check_examples(tap, tc, [p for p in pages if not so_target(p) and
                             ('EXAMPLE' in man_sections(p) or
                              'EXAMPLES' in man_sections(p))], workdir)


# ---- reStructuredText --------------------------------------------------------

def check_rst(tap, tc, files):
    try:
        import docutils.core
        import docutils.utils
        from docutils.parsers.rst import Directive, directives
    except ImportError:
        tap.result(True, 'the .rst files parse', skip='docutils is not '
                   'installed')
        return

    class Toctree(Directive):
        """Sphinx's toctree, accepted and ignored."""
        has_content = True
        option_spec = {'maxdepth': directives.unchanged,
                       'caption': directives.unchanged,
                       'hidden': directives.flag}

        def run(self):
            return []

    directives.register_directive('toctree', Toctree)
    for path in files:
        rel = os.path.relpath(path, tc.srctree)
        warnings = io.StringIO()
        try:
            docutils.core.publish_doctree(
                open(path, encoding='utf-8').read(), source_path=path,
                settings_overrides={'report_level': 2, 'halt_level': 5,
                                    'warning_stream': warnings,
                                    'syntax_highlight': 'none'})
        except Exception as e:     # a crash in docutils is a failure too
            warnings.write(str(e))
        tap.result(not warnings.getvalue(), '%s parses without warnings' %
                   rel, warnings.getvalue())


# ---- what does not work, and its test ---------------------------------------

CLAIM_RE = re.compile(r'\b(not\s+(yet\s+)?(supported|implemented|available|'
                      r'honou?red)|unsupported|does\s+not\s+work)\b', re.I)
TEST_MARK_RE = re.compile(r'\(tests?:\s*([^)]*)\)')
TEST_PATH_RE = re.compile(r'selftests/[A-Za-z0-9_./+-]+[A-Za-z0-9_+-]')
LIMITS_SECTION_RE = re.compile(r'does not work', re.I)
RST_ADORN_RE = re.compile(r'^([=\-~^"\'`#*+:.])\1{2,}\s*$')
RST_ITEM_RE = re.compile(r'^\s*([-*+]|#\.|\d+\.)\s+\S')


def rst_units(path):
    """(line, text, section, is_item) of each paragraph and list item of an
    .rst file, outside literal blocks and directives."""
    lines = open(path, encoding='utf-8').read().split('\n')
    units = []
    cur = None
    section = ''
    skip_indent = None      # inside a literal block or directive body

    def indent(l):
        return len(l) - len(l.lstrip())

    def close():
        nonlocal cur
        if cur:
            units.append((cur[0], ' '.join(cur[1]), section, cur[2]))
        cur = None

    for i, line in enumerate(lines):
        if skip_indent is not None:
            if not line.strip() or indent(line) > skip_indent:
                continue
            skip_indent = None
        if not line.strip():
            close()
            continue
        if i + 1 < len(lines) and RST_ADORN_RE.match(lines[i + 1]) and \
                not RST_ADORN_RE.match(line):
            close()
            section = line.strip()
            continue
        if RST_ADORN_RE.match(line):
            close()
            continue
        if line.lstrip().startswith('.. '):
            close()
            skip_indent = indent(line)
            continue
        if RST_ITEM_RE.match(line):
            close()
            cur = [i + 1, [], True]
        elif cur is None:
            cur = [i + 1, [], False]
        cur[1].append(line.strip())
        if line.rstrip().endswith('::'):
            close()
            skip_indent = indent(line)
    close()
    return units


MAN_BREAK_RE = re.compile(r'^\.(PP|LP|P|TP|IP|HP|SH|SS|EX|EE|nf|fi|RS|RE)\b')


def man_units(path):
    """(line, text, section, False) of each paragraph of a man page, its
    examples left out."""
    units = []
    cur = None
    section = ''
    in_ex = False
    for i, line in enumerate(open(path, encoding='utf-8').read().split('\n')):
        m = MAN_BREAK_RE.match(line)
        if m or not line.strip():
            if cur:
                units.append((cur[0], ' '.join(cur[1]), section, False))
            cur = None
            if m and m.group(1) == 'SH':
                section = line[3:].strip().strip('"')
            if m and m.group(1) == 'EX':
                in_ex = True
            if m and m.group(1) == 'EE':
                in_ex = False
            continue
        if in_ex or line.startswith('.\\"') or line.startswith("'"):
            continue
        if line.startswith('.'):
            # A font macro's arguments are text; other requests are not.
            m = re.match(r'^\.(B|I|R|BR|RB|IR|RI|BI|IB|SM|SB)\s+(.*)$', line)
            if not m:
                continue
            text = ' '.join(a.strip('"') for a in
                            re.findall(r'"[^"]*"|\S+', m.group(2)))
        else:
            text = line
        if cur is None:
            cur = [i + 1, []]
        cur[1].append(roff_text(text))
    if cur:
        units.append((cur[0], ' '.join(cur[1]), section, False))
    return units


def claim_problems(srctree, path):
    """[(line, problem)] of the statements of one page."""
    units = man_units(path) if path.endswith(MAN_SUFFIXES) else \
        rst_units(path)
    problems = []
    for line, text, section, is_item in units:
        plain = re.sub(r'``.*?``', '', text) if path.endswith('.rst') \
            else text
        claim = CLAIM_RE.search(plain)
        if not claim and not (is_item and LIMITS_SECTION_RE.search(section)):
            continue
        what = claim.group(0) if claim else 'an item of "%s"' % section
        marks = TEST_MARK_RE.findall(text)
        tests = [t for m in marks for t in TEST_PATH_RE.findall(m)]
        excerpt = text if len(text) <= 100 else text[:97] + '...'
        if not tests:
            problems.append((line, '%s, and no "(test: selftests/...)": %s'
                             % (what, excerpt)))
            continue
        for t in tests:
            if not os.path.isfile(os.path.join(srctree, t)):
                problems.append((line, 'names %s, which does not exist' % t))
    return problems


def check_claims(tap, srctree, files):
    for path in files:
        rel = os.path.relpath(path, srctree)
        problems = claim_problems(srctree, path)
        tap.result(not problems, '%s: every statement that something does '
                   'not work names its test' % rel,
                   '\n'.join('%s:%d: %s' % (rel, l, p) for l, p in problems))


def claim_docs(srctree):
    return [f for f in default_docs(srctree) if f.endswith('.rst')] + \
        [p for p in man_pages(srctree) if not so_target(p)]


# ---- main -------------------------------------------------------------------

def read_blocks(path):
    if path.endswith('.md'):
        return md_blocks(path)
    if path.endswith('.rst'):
        return rst_blocks(path)
    return man_blocks(path)


def extract(args):
    if len(args) != 3:
        print('usage: check-docs.py extract FILE NAME DIR', file=sys.stderr)
        return 2
    path, name, outdir = args
    try:
        examples, errors = collect_examples(read_blocks(path))
    except (DocError, OSError) as e:
        print('check-docs.py: %s' % e, file=sys.stderr)
        return 1
    for ex in examples:
        if ex.name != name:
            continue
        for p, text, _ in ex.files:
            full = os.path.join(outdir, p)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, 'w', encoding='utf-8') as f:
                f.write(text)
        for stream, text in ex.outputs.items():
            with open(os.path.join(outdir, 'expected.' + stream), 'w',
                      encoding='utf-8') as f:
                f.write(text)
        return 0
    print('check-docs.py: %s has no example %s' % (path, name),
          file=sys.stderr)
    return 1


def default_docs(srctree):
    files = sorted(glob.glob(os.path.join(srctree, 'Documentation', '**',
                                          '*.rst'), recursive=True))
    readme = os.path.join(srctree, 'README.md')
    if os.path.exists(readme):
        files.append(readme)
    return files


def main(argv):
    args = argv[1:]
    srctree = os.environ.get('USTRACE_SRCTREE') or \
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    objtree = os.environ.get('USTRACE_OBJTREE')
    keep = None
    verbose = False
    while args and args[0].startswith('-'):
        opt = args.pop(0)
        if opt == '--srctree':
            srctree = args.pop(0)
        elif opt == '--objtree':
            objtree = args.pop(0)
        elif opt == '--keep':
            keep = args.pop(0)
        elif opt == '-v':
            verbose = True
        elif opt in ('-h', '--help'):
            print(__doc__)
            return 0
        else:
            print('check-docs.py: unknown option %s' % opt, file=sys.stderr)
            return 2
    srctree = os.path.abspath(srctree)
    objtree = os.path.abspath(objtree or srctree)
    cmd = args.pop(0) if args else 'all'
    files = [os.path.abspath(a) for a in args]
    if cmd not in ('symbols', 'man', 'examples', 'rst', 'claims', 'all',
                   'extract'):
        print('check-docs.py: unknown command %s' % cmd, file=sys.stderr)
        return 2
    if cmd == 'extract':
        return extract(args)

    tc = Toolchain(srctree, objtree, verbose)
    tap = Tap()
    workdir = keep or tempfile.mkdtemp(prefix='ustrace-docs.')
    try:
        if cmd in ('symbols', 'all'):
            check_symbols(tap, tc)
        if cmd in ('man', 'all'):
            check_man(tap, tc, workdir)
        if cmd == 'examples':
            check_examples(tap, tc, files or default_docs(srctree), workdir)
        if cmd in ('rst', 'all'):
            check_rst(tap, tc, files or [f for f in default_docs(srctree)
                                         if f.endswith('.rst')])
        if cmd in ('claims', 'all'):
            check_claims(tap, srctree, files or claim_docs(srctree))
    finally:
        if not keep:
            shutil.rmtree(workdir, ignore_errors=True)
    return tap.done()


if __name__ == '__main__':
    sys.exit(main(sys.argv))
