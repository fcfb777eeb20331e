#!/usr/bin/env python3
"""Mutation fuzzing of llkc: bad input must get an MLIR diagnostic, never a crash.

    scripts/fuzz-llkc.py [SEED] [COUNT]        # LLKC=path/to/llkc (default build/bin/llkc)
                                               # LLK_FUZZ_DIR: where mutants go

Takes the kernels of examples/kernels.list with their constants, applies one
random mutation each (delete or duplicate a line, change a number, a type, a
shape extent, swap two SSA names; or, a quarter of the time, leaves the
source alone and changes its compile-time configuration: each power-of-two
constant scaled by 1/4..4 and a random --num-warps, which exercises the
layouts and lowerings on shapes the examples do not use), compiles the
mutant to PTX for a random target, and reports every run that crashed
(signal, assertion, LLVM ERROR) or failed without a file:line:col
diagnostic, and every mutant it compiled whose PTX ptxas rejects; those
mutants are kept under $TMPDIR/llk-fuzz. A seed gives the same mutants of
the same sources: test/llkc/fuzz.test runs a fixed one in CI; other seeds
and counts, and scripts/sanitize.sh's build (sanitizers and assertions on),
search further. Exit status 1 if anything was reported.
"""
import os
import pathlib
import random
import re
import subprocess
import sys
import tempfile
random.seed(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
N = int(sys.argv[2]) if len(sys.argv) > 2 else 200
root = pathlib.Path(__file__).resolve().parent.parent
out_dir = pathlib.Path(os.environ.get('LLK_FUZZ_DIR', pathlib.Path(tempfile.gettempdir()) / 'llk-fuzz'))
out_dir.mkdir(parents=True, exist_ok=True)
lines = [l.split() for l in (root/'examples/kernels.list').read_text().splitlines() if l.strip() and not l.startswith('#')]
PTXAS = os.environ.get('PTXAS', '/usr/local/cuda/bin/ptxas')
PTXAS = PTXAS if os.path.exists(PTXAS) else None
TYPES = ['f32', 'f16', 'bf16', 'i32', 'i8', 'i1', 'i64', 'index', 'f64']
def mutate(t):
    ls = t.splitlines()
    kind = random.randrange(6)
    body = [i for i, l in enumerate(ls) if l.strip() and not l.strip().startswith('//')]
    i = random.choice(body)
    l = ls[i]
    if kind == 0:
        del ls[i]
    elif kind == 1:
        nums = list(re.finditer(r'(?<![\w%$])\d+', l))
        if not nums: return None
        m = random.choice(nums)
        ls[i] = l[:m.start()] + str(random.choice([0, 1, 2, 3, 5, 7, 64, 100000, 2**31])) + l[m.end():]
    elif kind == 2:
        ts = list(re.finditer(r'\b(f32|f16|bf16|i32|i8|i1|i64)\b', l))
        if not ts: return None
        m = random.choice(ts)
        ls[i] = l[:m.start()] + random.choice(TYPES) + l[m.end():]
    elif kind == 3:
        vs = list(re.finditer(r'%[\w]+', l))
        if len(vs) < 2: return None
        a, b = random.sample(vs, 2)
        ls[i] = l.replace(a.group(), '\0').replace(b.group(), a.group()).replace('\0', b.group())
    elif kind == 4:
        j = random.choice(body); ls.insert(j, ls[i])
    else:
        shp = list(re.finditer(r'(\d+)x', l))
        if not shp: return None
        m = random.choice(shp)
        ls[i] = l[:m.start()] + str(random.choice([1, 2, 3, 6, 128, 4096])) + 'x' + l[m.end():]
    return '\n'.join(ls) + '\n'
def scale_constant(binding):
    name, value = binding.split('=', 1)
    if not value.isdigit() or int(value) & (int(value) - 1):
        return binding
    return f'{name}={max(1, int(value) * random.choice([1, 1, 2, 4]) // random.choice([1, 1, 2, 4]))}'
bad = compiled = 0
for n in range(N):
    _, src, consts, warps = random.choice(lines)
    text = (root/'examples'/src).read_text()
    if random.randrange(4) == 0:  # the same source, another configuration
        m = text
        if consts != '-':
            consts = ','.join(scale_constant(b) for b in consts.split(','))
        warps = str(random.choice([1, 2, 4, 8, 16]))
    else:
        m = None
        while m is None:  # until a mutation applies (deleting a line always does)
            m = mutate(text)
    f = str(out_dir / f'm{n}.mlir'); open(f, 'w').write(m)
    arch = random.choice(['sm_90', 'sm_90a', 'sm_80'])
    ptx = f[:-5] + '.ptx'
    args = [os.environ.get('LLKC', str(root/'build/bin/llkc')), f, '--num-warps', warps, '--arch', arch, '-o', ptx, '--no-metadata']
    if consts != '-':
        for b in consts.split(','): args += ['-D', b]
    try:
        r = subprocess.run(args, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        print('TIMEOUT', f, src, consts, warps, arch); bad += 1; continue
    err = r.stderr
    crash = r.returncode < 0 or r.returncode >= 128 or any(s in err for s in ('Assertion', 'UNREACHABLE', 'Stack dump', 'LLVM ERROR', 'PLEASE submit'))
    # A -D constant the mutant no longer uses is the command line's error,
    # reported against the file as a whole.
    unused_constant = re.search(r"^\S+: error: constant '\w+' is bound but the source has no", err, re.M)
    nodiag = (r.returncode != 0 and not re.search(r':\d+:\d+: error', err) and not unused_constant
              and not crash)
    bad_ptx = ''
    compiled += r.returncode == 0
    if r.returncode == 0 and PTXAS:  # what llkc accepts, ptxas must accept too
        p = subprocess.run([PTXAS, f'-arch={arch}', ptx, '-o', os.devnull], capture_output=True, text=True)
        if p.returncode != 0:
            bad_ptx = p.stderr.strip().splitlines()[0][:200] if p.stderr.strip() else 'ptxas failed'
    if bad_ptx:
        bad += 1
        print('PTXAS', f, src, consts, warps, arch, '|', bad_ptx)
    elif crash or nodiag:
        bad += 1
        print('CRASH' if crash else 'NODIAG', r.returncode, f, src, consts, warps, arch, '|', err.strip().splitlines()[0][:200] if err.strip() else '')
    else:
        os.remove(f)
    if os.path.exists(ptx):
        os.remove(ptx)
print(f'{N} mutants, {compiled} compiled (PTX checked by ptxas: {bool(PTXAS)}), {bad} reported')
sys.exit(1 if bad else 0)
