#!/usr/bin/env python3
"""Mutation fuzzing of llkc: bad input must get a diagnostic, never a crash.

    scripts/fuzz-llkc.py [SEED] [COUNT] [CLASSES]   # LLKC=path/to/llkc (default build/bin/llkc)
                                                    # LLK_FUZZ_DIR: where mutants go

Takes the kernels of examples/kernels.list with their constants and makes
COUNT mutants, each of one mutation class (CLASSES: a comma-separated subset,
default all, drawn in turn):

  source   one random edit of the text: delete or duplicate a line, change a
           number, a type, a shape extent, swap two SSA names
  config   the source unchanged at another configuration: each power-of-two
           constant scaled by 1/4..4, a random --num-warps, and half the time
           a random --min-programs-per-sm and --num-stages (layouts and
           lowerings on shapes and register budgets the examples do not use)
  name     a kernel renamed: names that are no PTX identifiers ('k-1', 'k k',
           '%k', UTF-8, '1k', 'k.1', '_', ''), reserved ones, a long one,
           another kernel's, and names at the edge of what PTX takes
  params   a kernel's parameter list edited: a parameter added, removed,
           duplicated or retyped (odd types: i1, i2, i48, i128, f80, f128,
           index, ui32, vectors, tiles, ...), or hundreds added around the
           4352 bytes of the PTX parameter space
  defines  one -D value changed: huge, negative, zero, not a power of two,
           a type name where an integer is expected or an integer where a
           type is, an odd type, or a binding the source does not use

compiles each mutant to PTX for a random target, and reports every run that
crashed (signal, assertion, LLVM ERROR, a fatal error in LLVM) or took more
than 300 s of CPU time, failed without a diagnostic (a file:line:col error
for mutated text; a `file: error:` or `llkc: error:` line for the command
line), and every mutant it compiled whose PTX ptxas rejects; those mutants
are kept under $TMPDIR/llk-fuzz (with the command line in <mutant>.cmd).
It prints the counts of each class. A seed gives the same mutants of the
same sources: test/llkc/fuzz.test runs fixed ones in CI; other seeds and
counts, and scripts/sanitize.sh's build (sanitizers and assertions on),
search further. Exit status 1 if anything was reported.
"""
import os
import pathlib
import random
import re
import resource
import shlex
import signal
import subprocess
import sys
import tempfile

CLASSES = ['source', 'config', 'name', 'params', 'defines']
random.seed(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
N = int(sys.argv[2]) if len(sys.argv) > 2 else 200
classes = sys.argv[3].split(',') if len(sys.argv) > 3 else CLASSES
unknown = [c for c in classes if c not in CLASSES]
if unknown:
    sys.exit(f'unknown mutation class {unknown[0]!r}; expected some of {", ".join(CLASSES)}')
root = pathlib.Path(__file__).resolve().parent.parent
out_dir = pathlib.Path(os.environ.get('LLK_FUZZ_DIR', pathlib.Path(tempfile.gettempdir()) / 'llk-fuzz'))
out_dir.mkdir(parents=True, exist_ok=True)
lines = [l.split() for l in (root/'examples/kernels.list').read_text().splitlines() if l.strip() and not l.startswith('#')]
PTXAS = os.environ.get('PTXAS', '/usr/local/cuda/bin/ptxas')
PTXAS = PTXAS if os.path.exists(PTXAS) else None
TYPES = ['f32', 'f16', 'bf16', 'i32', 'i8', 'i1', 'i64', 'index', 'f64']
# Kernel parameter types: what launchers pass, and what they cannot.
PARAM_TYPES = ['!tile.ptr<f32>', '!tile.ptr<f16>', '!tile.ptr<i8>', '!tile.ptr<f64>', 'i8', 'i16', 'i32',
               'i64', 'f16', 'bf16', 'f32', 'f64']
ODD_PARAM_TYPES = ['i1', 'i2', 'i7', 'i48', 'i128', 'f80', 'f128', 'f8E4M3FN', 'tf32', 'index', 'ui32', 'si8',
                   'vector<4xf32>', 'complex<f32>', 'tuple<i32>', 'none', 'tensor<4xf32>', 'memref<4xf32>',
                   '!tile.ptr<i1>', '!tile.ptr<f128>', '!tile.ptr<i48>', '!tile.tensordesc<128x64xf16>']
KERNEL_NAMES = ['k-1', 'k k', '%k', 'kü', '\u00e9t\u00e9', '1k', 'k.1', '_', '', '$', 'k\\0A', 'k\\22',
                'WARP_SZ', '__nv_expf', '__llk_smem_k', 'llvm.k', 'k' * 5000,
                # at the edge of what PTX takes: these compile
                '_k', '$k', 'k$1', '__k', 'ret', 'main', 'llk_kernels', 'K' * 300]
DEFINE_VALUES = ['0', '-1', '-4', '3', '6', '100', '1000', '65535', '65536', str(2**20), str(2**31 - 1),
                 str(2**31), str(2**32), str(2**40), str(2**62), str(2**63 - 1), str(-2**63), str(2**64),
                 '0x10', '010', '1e3', '', 'x', 'f32', 'bf16', 'i1', 'i64', 'f64', 'index', 'f80', '4']


def mutate_source(t):
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


def kernels(t):
    """(name span, parameter-list span) of each func.func in `t`."""
    found = []
    # Names may hold placeholders (@apex_layer_norm_fwd_${T}).
    for m in re.finditer(r'func\.func\s+(?:private\s+)?@("(?:[^"\\]|\\.)*"|[\w$.{}]+)\s*\(', t):
        depth, j = 1, m.end()
        while j < len(t) and depth:
            depth += {'(': 1, ')': -1}.get(t[j], 0)
            j += 1
        found.append((m.span(1), (m.end(), j - 1)))
    return found


def split_params(text):
    """The parameters of a parameter list (commas inside <>, {}, () kept)."""
    params, depth, start = [], 0, 0
    for j, c in enumerate(text):
        depth += {'<': 1, '{': 1, '(': 1, '>': -1, '}': -1, ')': -1}.get(c, 0)
        if c == ',' and depth == 0:
            params.append(text[start:j].strip()); start = j + 1
    if text[start:].strip():
        params.append(text[start:].strip())
    return params


def mutate_name(t):
    ks = kernels(t)
    (a, b), _ = random.choice(ks)
    others = [t[s:e] for (s, e), _ in ks if (s, e) != (a, b)]
    name = random.choice(KERNEL_NAMES + ([None] if others else []))
    new = random.choice(others) if name is None else '"' + name + '"'
    return t[:a] + new + t[b:]


def mutate_params(t):
    _, (a, b) = random.choice(kernels(t))
    params = split_params(t[a:b])
    kind = random.randrange(5)
    fresh = lambda i, ty: f'%fz{i}: {ty}'
    if kind == 0:  # add one, at any position
        params.insert(random.randrange(len(params) + 1), fresh(0, random.choice(PARAM_TYPES + ODD_PARAM_TYPES)))
    elif kind == 1:  # remove one
        if not params: return None
        del params[random.randrange(len(params))]
    elif kind == 2:  # duplicate one (its SSA name too, or a fresh one)
        if not params: return None
        p = random.choice(params)
        params.insert(random.randrange(len(params) + 1),
                      p if random.randrange(2) else re.sub(r'^%[\w$.]+', '%fz_dup', p))
    elif kind == 3:  # retype one to an odd type
        if not params: return None
        i = random.randrange(len(params))
        params[i] = re.sub(r':\s*.*?(\s*\{.*\})?$', lambda m: ': ' + random.choice(ODD_PARAM_TYPES) + (m.group(1) or ''),
                           params[i], count=1)
    else:  # many, around the 4352 bytes of the PTX parameter space
        count = random.choice([100, 530, 540, 541, 542, 543, 544, 545, 546, 600, 1100, 2000, 5000])
        types = random.choice([['!tile.ptr<f32>'], ['i32'], ['i8'], ['i64', 'i8'], PARAM_TYPES])
        params += [fresh(i, random.choice(types)) for i in range(count - len(params))]
    return t[:a] + ', '.join(params) + t[b:]


def mutate_defines(consts):
    bindings = consts.split(',') if consts != '-' else []
    if bindings and random.randrange(8):
        i = random.randrange(len(bindings))
        name = bindings[i].split('=', 1)[0]
        bindings[i] = f'{name}={random.choice(DEFINE_VALUES)}'
    else:  # one the source does not use, or a malformed one
        bindings.append(random.choice(['UNUSED=4', 'UNUSED=f32', '=4', '1X=4', 'X', 'X==4']))
    return ','.join(bindings)


def scale_constant(binding):
    name, value = binding.split('=', 1)
    if not value.isdigit() or int(value) & (int(value) - 1):
        return binding
    return f'{name}={max(1, int(value) * random.choice([1, 1, 2, 4]) // random.choice([1, 1, 2, 4]))}'


# A compilation may take CPU_LIMIT seconds of CPU time: the largest tiles
# (1024 elements a thread) take minutes in the NVPTX back end's instruction
# selection and scheduling. The wall-clock limit only catches a process that
# hangs without computing, whatever the machine's load.
CPU_LIMIT, WALL_LIMIT = 300, 1800


def limit_cpu():
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_LIMIT, CPU_LIMIT + 5))


CRASH = ('Assertion', 'UNREACHABLE', 'Stack dump', 'LLVM ERROR', 'PLEASE submit', 'fatal error in LLVM')
bad = compiled = 0
per_class = {c: [0, 0, 0] for c in classes}  # mutants, compiled, reported
for n in range(N):
    cls = classes[n % len(classes)]
    options = []
    _, src, consts, warps = random.choice(lines)
    text = (root/'examples'/src).read_text()
    m = None
    if cls == 'config':
        m = text
        if consts != '-':
            consts = ','.join(scale_constant(b) for b in consts.split(','))
        warps = str(random.choice([1, 2, 4, 8, 16]))
        # Half the time, register and pipelining pressure as well.
        if random.randrange(2):
            options = ['--min-programs-per-sm', str(random.choice([1, 2, 3, 4, 8, 16, 32])),
                       '--num-stages', str(random.choice([1, 2, 3, 4, 6, 8]))]
    elif cls == 'defines':
        m = text
        consts = mutate_defines(consts)
    else:
        mutate = {'source': mutate_source, 'name': mutate_name, 'params': mutate_params}[cls]
        while m is None:  # until a mutation applies (deleting a line always does)
            m = mutate(text)
    f = str(out_dir / f'm{n}.mlir'); open(f, 'w').write(m)
    arch = random.choice(['sm_90', 'sm_90a', 'sm_80'])
    ptx = f[:-5] + '.ptx'
    args = [os.environ.get('LLKC', str(root/'build/bin/llkc')), f, '--num-warps', warps, '--arch', arch, '-o', ptx,
            '--no-metadata'] + options
    if consts and consts != '-':
        for b in consts.split(','): args += ['-D', b]
    per_class[cls][0] += 1
    try:
        r = subprocess.run(args, capture_output=True, text=True, errors='replace', timeout=WALL_LIMIT,
                           preexec_fn=limit_cpu)
        timeout = r.returncode == -signal.SIGXCPU
    except subprocess.TimeoutExpired:
        r, timeout = None, True
    if timeout:
        print('TIMEOUT', cls, f, src, consts, warps, arch); bad += 1; per_class[cls][2] += 1
        open(f[:-5] + '.cmd', 'w').write(shlex.join(args) + '\n')
        continue
    err = r.stderr
    crash = r.returncode < 0 or r.returncode >= 128 or any(s in err for s in CRASH)
    # Errors in the text are at a position in it. A -D constant the mutant no
    # longer uses, or a bad -D or configuration, is the command line's error,
    # reported against the file as a whole or by llkc.
    positioned = re.search(r':\d+:\d+: error', err)
    command_line = re.search(r"^\S+: error: constant '\w+' is bound but the source has no", err, re.M) or (
        cls in ('defines', 'config') and re.search(r'^(\S+|llkc): error: ', err, re.M))
    nodiag = r.returncode != 0 and not positioned and not command_line and not crash
    bad_ptx = ''
    compiled += r.returncode == 0
    per_class[cls][1] += r.returncode == 0
    if r.returncode == 0 and PTXAS:  # what llkc accepts, ptxas must accept too
        p = subprocess.run([PTXAS, f'-arch={arch}', ptx, '-o', os.devnull], capture_output=True, text=True)
        if p.returncode != 0:
            bad_ptx = p.stderr.strip().splitlines()[0][:200] if p.stderr.strip() else 'ptxas failed'
    if bad_ptx:
        bad += 1
        print('PTXAS', cls, f, src, consts, warps, arch, '|', bad_ptx)
    elif crash or nodiag:
        bad += 1
        print('CRASH' if crash else 'NODIAG', r.returncode, cls, f, src, consts, warps, arch, '|',
              err.strip().splitlines()[0][:200] if err.strip() else '')
    else:
        os.remove(f)
    if bad_ptx or crash or nodiag:
        per_class[cls][2] += 1
        open(f[:-5] + '.cmd', 'w').write(shlex.join(args) + '\n')
    if os.path.exists(ptx):
        os.remove(ptx)
for c in classes:
    print(f'  {c}: {per_class[c][0]} mutants, {per_class[c][1]} compiled, {per_class[c][2]} reported')
print(f'{N} mutants, {compiled} compiled (PTX checked by ptxas: {bool(PTXAS)}), {bad} reported')
sys.exit(1 if bad else 0)
