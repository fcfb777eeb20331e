#!/usr/bin/env python3
"""Shrinks a failing tile kernel while it keeps failing the same way.

    scripts/reduce-tile-kernel.py CASE.mlir OUT.mlir -- CMD ARGS... {} ...

CMD runs with {} replaced by a candidate file and must exit 0 while the
candidate still shows the bug ("interesting"), e.g.

    scripts/reduce-tile-kernel.py case-17.mlir min.mlir -- sh -c \\
      'llkc {} --arch sm_90a -o /dev/null 2>&1 | grep -q "must be a multiple"'
    scripts/reduce-tile-kernel.py case-17.mlir min.mlir -- sh -c \\
      'llk-difftest --backend gpu --archs sm_90 {} | grep -q "^FAIL"'

Deletes, bottom-up and to a fixpoint, single operations (their results
unused, or the candidate stops verifying and so is not interesting) and
whole regions (scf.for/scf.if/generic_reduce with their bodies), then the
kernel parameters nothing uses, with their `// DIFFTEST:` lines. A delta
debugger in the way of C-Reduce, with the op as its unit.
"""
import os
import re
import subprocess
import sys
import tempfile


def interesting(lines, cmd, path):
    with open(path, 'w') as f:
        f.write(''.join(lines))
    argv = [a.replace('{}', path) for a in cmd]
    return subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


def region_end(lines, i):
    """The line that closes the region opened on line i (or i itself)."""
    depth = 0
    for j in range(i, len(lines)):
        depth += lines[j].count('{') - lines[j].count('}')
        if depth == 0:
            # `} else {` keeps the depth: continue to the real end.
            return j
    return i


def body_range(lines):
    start = next(i for i, l in enumerate(lines) if l.startswith('func.func')) + 1
    while not lines[start - 1].rstrip().endswith('{'):
        start += 1
    end = max(i for i, l in enumerate(lines) if l.strip() == 'return')
    return start, end


def reduce_ops(lines, cmd, path):
    changed = True
    while changed:
        changed = False
        start, end = body_range(lines)
        i = end - 1
        while i >= start:
            text = lines[i].strip()
            if not text or text.startswith('//') or text.startswith('^') or text == '}' \
                    or text.startswith('} else') or text.startswith('scf.yield') \
                    or text.startswith('tile.yield'):
                i -= 1
                continue
            j = region_end(lines, i) if text.endswith('{') else i
            candidate = lines[:i] + lines[j + 1:]
            if interesting(candidate, cmd, path):
                lines[:] = candidate
                changed = True
                start, end = body_range(lines)
            i -= 1
    return lines


def reduce_params(lines, cmd, path):
    """Drops the kernel parameters nothing uses, with their DIFFTEST lines."""
    text = ''.join(lines)
    signature = text[text.index('func.func'):]
    signature = signature[:signature.index(')')]
    for p in re.findall(r'(%\w+): ', signature):
        if len(re.findall(re.escape(p) + r'\b', text)) > 1:
            continue
        # "%p: type {attrs}," or, for the last one, ", %p: type {attrs}".
        m = (re.search(re.escape(p) + r': [^,)]*,\s*', text) or
             re.search(r',\s*' + re.escape(p) + r': [^,)]*', text))
        if not m:
            continue
        candidate = text[:m.start()] + text[m.end():]
        candidate = re.sub(r'// DIFFTEST: (buffer|scalar) ' + p[1:] + r' .*\n', '', candidate)
        if interesting(candidate.splitlines(keepends=True), cmd, path):
            text = candidate
    lines[:] = text.splitlines(keepends=True)
    return lines


def main():
    if '--' not in sys.argv or len(sys.argv) < 5:
        raise SystemExit(__doc__)
    sep = sys.argv.index('--')
    src, out = sys.argv[1], sys.argv[2]
    cmd = sys.argv[sep + 1:]
    lines = open(src).read().splitlines(keepends=True)
    fd, path = tempfile.mkstemp(suffix='.mlir')
    os.close(fd)
    try:
        if not interesting(lines, cmd, path):
            raise SystemExit('the input is not interesting: CMD fails on it')
        before = len(lines)
        reduce_ops(lines, cmd, path)
        reduce_params(lines, cmd, path)
        reduce_ops(lines, cmd, path)
        with open(out, 'w') as f:
            f.write(''.join(lines))
        print(f'{before} -> {len(lines)} lines: {out}')
    finally:
        os.unlink(path)


if __name__ == '__main__':
    main()
