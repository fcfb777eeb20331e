#!/usr/bin/env python3
"""Random valid tile kernels for differential testing (GPU vs interpreter).

    scripts/gen-tile-kernel.py --seed S [--count N] [--out DIR] [--enable F,..] [--disable F,..]

Writes N self-contained cases, DIR/case-<seed>.mlir for seeds S..S+N-1 (one
case per seed, so `--seed X --count 1` regenerates case X alone; without
--out, one case goes to stdout). Each case is a kernel in the DSL and, in
`// DIFFTEST:` comment lines, what llk-difftest needs to run it: the grid,
num_warps, and every argument in order with how to fill it (seeded random
inputs) and how its final bytes are compared between the two backends:

    // DIFFTEST: kernel k grid 2 3 1 warps 4 seed 17
    // DIFFTEST: buffer in0 f16 4096 grid -8 8 0.25      (k*0.25, k in [-8, 8])
    // DIFFTEST: buffer in1 f32 1000 uniform -2 2        (rounded to the type)
    // DIFFTEST: buffer in2 i32 4096 int -100 100        (or: bits, random bits)
    // DIFFTEST: buffer out0 f32 4096 poison check exact (every byte)
    // DIFFTEST: buffer out1 f32 4096 poison check exact0  (+0 and -0 equal)
    // DIFFTEST: buffer out2 f32 4096 poison check tol 1e-5 4.8e-7  (atol rtol)
    // DIFFTEST: scalar n i32 1000

The kernel mixes, at random: loads (contiguous, permuted, transposed,
gathered through loaded indices, broadcast rows/columns, scalar; masked by
a buffer's tail or by data, with `other`), elementwise arith/math on
i8..i64/f16/bf16/f32/f64, tile.cast with rounding modes, tile.bitcast,
compares and selects, expand_dims/broadcast/reshape/trans, tile.reduce and
tile.generic_reduce, scf.for loops carrying tiles, scf.if, atomics (each
lane its own address and the old values used, or colliding lanes with
order-independent results), tile.dot (f16/bf16/i8/f32, also in a K loop
that the pipeliner turns into cp.async/wgmma), and stores (permuted,
masked, inside loops and branches).

Valid by construction: every address stays inside its buffer unless masked
off, integer divisors are nonzero (and never -1 with a MIN numerator),
shift amounts are below the width, float values stay finite and away from
the domains' edges, no lane's undefined value (a masked load without
`other`) reaches anything but a store under the same mask, and no result
depends on the order in which programs or lanes run.

Exact or not: each float value carries an interval, a granule (the value
is a multiple of it and exactly representable, so sums of such values are
exact in any order) and a bound on how far the two backends may differ
(0 through exactly rounded ops: + - * / fma casts, min/max, selects,
memory; > 0 from math functions, sqrt too (llkc's f32 sqrt is
sqrt.approx), non-exact sums, dots). A value that may
differ never reaches an op that is discontinuous in it (compares, casts to
integers, floor, bitcasts), and an output's tolerance is the propagated
bound. Features (--enable/--disable): reduce64 (tile.reduce on i64/f64,
off by default), and the ones named in FEATURES.
"""
import argparse
import math
import os
import random
import sys

FEATURES = {
    'reduce64': False,   # tile.reduce/generic_reduce on i64/f64
    'remf': True,        # arith.remf (fmod)
    'dot': True,
    'dot_loop': True,    # a K loop of loads feeding a dot (pipelined)
    'atomics': True,
    'loops': True,
    'branches': True,
    'reduce': True,
    'math': True,
    'bitcast': True,
    'f64': True,
    'i64': True,
    'masked_nootherload': True,  # masked load without `other`, stored under the same mask
    'gather': True,
    # Once compiler gaps (llkc could not lower them): on.
    'math_trunc': True,   # math.trunc
    'absi': True,         # math.absi on i8/i16/i64
}

# name: (precision bits incl. the implicit one, minimum normal exponent, largest finite)
FLOAT = {'f16': (11, -14, 65504.0), 'bf16': (8, -126, 3.3e38),
         'f32': (24, -126, 3.4e38), 'f64': (53, -1022, 1.7e308)}
INT = {'i8': 8, 'i16': 16, 'i32': 32, 'i64': 64}
# Value bounds kept far below the types' ranges, so nothing overflows.
LIMIT = {'f16': 2048.0, 'bf16': 1e6, 'f32': 1e6, 'f64': 1e6}


def is_float(t): return t in FLOAT
def is_int(t): return t in INT
def unit_roundoff(t): return 2.0 ** -FLOAT[t][0]
def tiny(t):  # the smallest subnormal
    p, emin, _ = FLOAT[t]
    return 2.0 ** (emin - p + 1)
def ulp(x, t):
    p, emin, _ = FLOAT[t]
    x = abs(x)
    e = max(math.floor(math.log2(x)) if x > 0 else emin, emin)
    return 2.0 ** (e - p + 1)
def int_range(t):
    b = INT[t]
    return -(1 << (b - 1)), (1 << (b - 1)) - 1


def fmt_float(x):
    r = repr(float(x))
    if 'e' not in r and '.' not in r:
        r += '.0'
    return r


class V:
    """A value of the kernel and what the generator knows about it."""
    def __init__(self, name, elem, shape, lo=0.0, hi=0.0, g=0.0, D=0.0, r=0.0,
                 zs=False, raw=False, valid=None):
        self.name, self.elem, self.shape = name, elem, tuple(shape)
        self.lo, self.hi = lo, hi   # interval (floats and integers)
        self.g = g        # floats: every value is a multiple of g, exactly (0: unknown)
        self.D = D        # floats: |gpu - interp| <= D + r * |interp|
        self.r = r
        self.zs = zs      # floats: the sign of a zero may differ
        self.raw = raw    # any bits (a bitcast int): move, never compute
        self.valid = valid  # a mask name: lanes off it are undefined
        self.depth = 0

    @property
    def B(self): return max(abs(self.lo), abs(self.hi))
    @property
    def exact(self): return self.D == 0 and self.r == 0
    @property
    def is_tile(self): return len(self.shape) > 0


def tstr(elem, shape):
    if not shape:
        return elem
    return 'tensor<' + 'x'.join(str(d) for d in shape) + 'x' + elem + '>'


def ptrstr(elem, shape):
    p = f'!tile.ptr<{elem}>'
    return tstr(p, shape) if shape else p


def nelems(shape):
    n = 1
    for d in shape:
        n *= d
    return n


class Skip(Exception):
    """This attempt at an op does not fit; try another."""


class Gen:
    def __init__(self, seed, features):
        self.seed = seed
        self.rng = random.Random(seed)
        self.f = features
        self.params = []   # (ssa name, type string, attr string)
        self.spec = []     # DIFFTEST lines, in parameter order
        self.lines = []
        self.counter = 0
        self.pool = []
        self.depth = 0
        self.cache = {}    # per-scope memo of index tiles, constants
        self.scope_keys = [[]]
        self.outputs = 0
        self.inputs = 0

    # ---- emission helpers -------------------------------------------------
    def fresh(self, prefix='v'):
        self.counter += 1
        return f'%{prefix}{self.counter}'

    def emit(self, text):
        self.lines.append('  ' * (self.depth + 1) + text)

    def op(self, text, elem, shape, **kw):
        name = self.fresh()
        self.emit(f'{name} = {text}')
        v = V(name, elem, shape, **kw)
        v.depth = self.depth
        return v

    def memo(self, key, make):
        for d in range(len(self.scope_keys)):
            if (d, key) in self.cache:
                return self.cache[(d, key)]
        v = make()
        d = len(self.scope_keys) - 1
        self.cache[(d, key)] = v
        self.scope_keys[-1].append((d, key))
        return v

    def push_scope(self):
        self.depth += 1
        self.scope_keys.append([])

    def pop_scope(self):
        for k in self.scope_keys.pop():
            del self.cache[k]
        self.pool = [v for v in self.pool if v.depth < self.depth]
        self.depth -= 1

    def add(self, v):
        v.depth = self.depth
        self.pool.append(v)
        return v

    def save(self):
        return (len(self.lines), list(self.pool), self.depth,
                [list(k) for k in self.scope_keys], dict(self.cache), len(self.params),
                len(self.spec), self.outputs)

    def restore(self, state):
        (n, pool, self.depth, keys, cache, nparams, nspec, self.outputs) = state
        del self.lines[n:]
        self.pool, self.scope_keys, self.cache = pool, keys, cache
        del self.params[nparams:]
        del self.spec[nspec:]

    def choice(self, xs):
        return self.rng.choice(xs)

    def chance(self, p):
        return self.rng.random() < p

    # ---- arguments --------------------------------------------------------
    def buffer(self, prefix, elem, count, fill, check=None, divisibility=16):
        name = f'{prefix}{len(self.params)}'
        attr = f' {{tile.divisibility = {divisibility}}}' if divisibility else ''
        self.params.append((f'%{name}', f'!tile.ptr<{elem}>', attr))
        line = f'buffer {name} {elem} {count} {fill}'
        if check:
            line += f' check {check}'
        self.spec.append(line)
        return f'%{name}', len(self.spec) - 1

    def set_check(self, index, check):
        self.spec[index] = self.spec[index].split(' check ')[0] + f' check {check}'

    def scalar_arg(self, elem, value, divisibility=None):
        name = f'a{len(self.params)}'
        attr = f' {{tile.divisibility = {divisibility}}}' if divisibility else ''
        self.params.append((f'%{name}', elem, attr))
        self.spec.append(f'scalar {name} {elem} {value}')
        return f'%{name}'

    # ---- constants and index tiles -----------------------------------------
    def const(self, elem, shape, value):
        def make():
            if elem == 'i1':
                lit = 'true' if value else 'false'
            elif is_float(elem):
                lit = fmt_float(value)
            else:
                lit = str(int(value))
            if shape:
                return self.op(f'arith.constant dense<{lit}> : {tstr(elem, shape)}',
                               elem, shape, lo=value, hi=value,
                               g=self.granule_of(value) if is_float(elem) else 0)
            return self.op(f'arith.constant {lit} : {elem}', elem, shape,
                           lo=value, hi=value,
                           g=self.granule_of(value) if is_float(elem) else 0)
        return self.memo(('const', elem, shape, value), make)

    @staticmethod
    def granule_of(x):
        if x == 0:
            return 1.0
        g = 1.0
        while x / g != math.floor(x / g):
            g /= 2
            if g < 2.0 ** -30:
                return 0.0
        while (x / (g * 2)) == math.floor(x / (g * 2)) and g < 2 ** 20:
            g *= 2
        return g

    def splat(self, s, shape):
        return self.op(f'tile.splat {s.name} : {tstr(s.elem, ())} -> {tstr(s.elem, shape)}',
                       s.elem, shape, lo=s.lo, hi=s.hi, g=s.g, D=s.D, r=s.r, zs=s.zs,
                       raw=s.raw)

    def rng_tile(self, n):
        return self.memo(('range', n), lambda: self.op(
            f'tile.make_range 0 to {n} : tensor<{n}xi32>', 'i32', (n,), lo=0, hi=n - 1))

    def lin(self, shape, transposed=False):
        """i32 tile of `shape`: each element's row-major index (or the
        column-major one), 0..T-1."""
        def make():
            if len(shape) == 1:
                return self.rng_tile(shape[0])
            m, n = shape
            r = self.rng_tile(m)
            c = self.rng_tile(n)
            r2 = self.op(f'tile.expand_dims {r.name} axis = 1 : tensor<{m}xi32> -> tensor<{m}x1xi32>',
                         'i32', (m, 1))
            c2 = self.op(f'tile.expand_dims {c.name} axis = 0 : tensor<{n}xi32> -> tensor<1x{n}xi32>',
                         'i32', (1, n))
            rb = self.op(f'tile.broadcast {r2.name} : tensor<{m}x1xi32> -> tensor<{m}x{n}xi32>',
                         'i32', shape)
            cb = self.op(f'tile.broadcast {c2.name} : tensor<1x{n}xi32> -> tensor<{m}x{n}xi32>',
                         'i32', shape)
            if not transposed:
                k = self.const('i32', shape, n)
                t = self.op(f'arith.muli {rb.name}, {k.name} : {tstr("i32", shape)}', 'i32', shape)
                return self.op(f'arith.addi {t.name}, {cb.name} : {tstr("i32", shape)}', 'i32',
                               shape, lo=0, hi=m * n - 1)
            k = self.const('i32', shape, m)
            t = self.op(f'arith.muli {cb.name}, {k.name} : {tstr("i32", shape)}', 'i32', shape)
            return self.op(f'arith.addi {t.name}, {rb.name} : {tstr("i32", shape)}', 'i32',
                           shape, lo=0, hi=m * n - 1)
        return self.memo(('lin', shape, transposed), make)

    def perm(self, shape, kind=None):
        """A bijection of 0..T-1 over the tile (distinct offsets)."""
        T = nelems(shape)
        kinds = ['id', 'id', 'xor', 'mul', 'rev'] + (['trans'] if len(shape) == 2 else [])
        kind = kind or self.choice(kinds)
        ty = tstr('i32', shape)
        if kind == 'trans':
            return self.lin(shape, transposed=True)
        base = self.lin(shape)
        if kind == 'id' or T == 1:
            return base
        if kind == 'xor':
            c = self.const('i32', shape, self.rng.randrange(1, T))
            return self.op(f'arith.xori {base.name}, {c.name} : {ty}', 'i32', shape, lo=0, hi=T - 1)
        if kind == 'rev':
            c = self.const('i32', shape, T - 1)
            return self.op(f'arith.subi {c.name}, {base.name} : {ty}', 'i32', shape, lo=0, hi=T - 1)
        odd = self.rng.randrange(1, 2 * T, 2)
        c = self.const('i32', shape, odd)
        m = self.const('i32', shape, T - 1)
        t = self.op(f'arith.muli {base.name}, {c.name} : {ty}', 'i32', shape)
        return self.op(f'arith.andi {t.name}, {m.name} : {ty}', 'i32', shape, lo=0, hi=T - 1)

    # ---- the program's place in the grid ----------------------------------
    def setup_grid(self):
        P = self.choice([1, 2, 3, 4, 4, 6, 8])
        dims = [(P, 1, 1)]
        for a in range(1, P + 1):
            for b in range(1, P // a + 1):
                if P % (a * b) == 0:
                    dims.append((a, b, P // (a * b)))
        self.grid = self.choice(dims)
        self.P = P
        gx, gy, gz = self.grid
        x = self.op('tile.program_id x', 'i32', (), lo=0, hi=gx - 1)
        p = x
        if gy > 1 or gz > 1 or self.chance(0.3):
            y = self.op('tile.program_id y', 'i32', (), lo=0, hi=gy - 1)
            z = self.op('tile.program_id z', 'i32', (), lo=0, hi=gz - 1)
            nx = self.op('tile.num_programs x', 'i32', ())
            ny = self.op('tile.num_programs y', 'i32', ())
            t = self.op(f'arith.muli {ny.name}, {z.name} : i32', 'i32', ())
            t = self.op(f'arith.addi {t.name}, {y.name} : i32', 'i32', ())
            t = self.op(f'arith.muli {nx.name}, {t.name} : i32', 'i32', ())
            p = self.op(f'arith.addi {t.name}, {x.name} : i32', 'i32', (), lo=0, hi=P - 1)
        self.p = p

    def region_base(self, region, extra=None):
        """Scalar i32: the first element of this program's region of
        `region` elements (regions in program order)."""
        def make():
            c = self.const('i32', (), region)
            return self.op(f'arith.muli {self.p.name}, {c.name} : i32', 'i32', ())
        return self.memo(('base', region), make)

    def pointers(self, ptr, elem, shape, offsets, scalar_base=None):
        """ptr + offsets as a pointer tile (sometimes through a scalar base
        pointer, sometimes with i64 offsets)."""
        if scalar_base is not None and self.chance(0.5):
            b = self.op(f'tile.addptr {ptr}, {scalar_base.name} : !tile.ptr<{elem}>, i32',
                        f'!tile.ptr<{elem}>', ())
            ps = self.op(f'tile.splat {b.name} : !tile.ptr<{elem}> -> {ptrstr(elem, shape)}',
                         'ptr', shape)
        else:
            ps = self.op(f'tile.splat {ptr} : !tile.ptr<{elem}> -> {ptrstr(elem, shape)}',
                         'ptr', shape)
            if scalar_base is not None:
                bs = self.op(f'tile.splat {scalar_base.name} : i32 -> {tstr("i32", shape)}',
                             'i32', shape)
                offsets = self.op(f'arith.addi {bs.name}, {offsets.name} : {tstr("i32", shape)}',
                                  'i32', shape, lo=offsets.lo, hi=offsets.hi)
        oty = 'i32'
        if self.chance(0.15):
            offsets = self.op(f'arith.extsi {offsets.name} : {tstr("i32", shape)} to {tstr("i64", shape)}',
                              'i64', shape)
            oty = 'i64'
        return self.op(f'tile.addptr {ps.name}, {offsets.name} : {ptrstr(elem, shape)}, {tstr(oty, shape)}',
                       'ptr', shape)

    def global_index(self, region, local):
        """base + local as an i32 tile (for tail masks)."""
        base = self.region_base(region)
        bs = self.op(f'tile.splat {base.name} : i32 -> {tstr("i32", local.shape)}', 'i32', local.shape)
        return self.op(f'arith.addi {bs.name}, {local.name} : {tstr("i32", local.shape)}', 'i32',
                       local.shape)

    # ---- inputs -------------------------------------------------------------
    def fill_for(self, elem, purpose=None):
        """A fill spec and the interval/granule of its values."""
        if is_int(elem):
            lo_t, hi_t = int_range(elem)
            c = self.rng.random()
            if c < 0.25:
                return 'bits', lo_t, hi_t, 0
            if c < 0.5:
                return 'int 0 100', 0, 100, 0
            a = self.choice([1, 3, 8, 100, 1000])
            a = min(a, hi_t)
            return f'int {-a} {a}', -a, a, 0
        c = self.rng.random()
        if purpose == 'positive' or c < 0.15:
            lo, hi = self.choice([(0.5, 2.0), (0.25, 4.0), (1.0, 8.0)])
            return f'uniform {lo} {hi}', lo, hi, 0.0
        if c < 0.6:
            g = self.choice([1.0, 0.5, 0.25, 0.125, 0.0625])
            k = self.choice([4, 8, 16])
            klo = self.choice([-k, -k, 0, 1])
            return f'grid {klo} {k} {g}', klo * g, k * g, g
        lo, hi = self.choice([(-1.0, 1.0), (-2.0, 2.0), (-4.0, 4.0), (-0.5, 1.5)])
        return f'uniform {lo} {hi}', lo, hi, 0.0

    def load_tile(self, elem, shape, purpose=None, allow_undefined=True):
        """Loads a tile of `shape` from a new input buffer, by some pattern."""
        T = nelems(shape)
        fill, lo, hi, g = self.fill_for(elem, purpose)
        if not is_float(elem):
            g = 0
        kind = self.rng.random()
        # A row or column loaded once and broadcast.
        if len(shape) == 2 and kind < 0.12 and shape[0] > 1 and shape[1] > 1:
            axis = self.choice([0, 1])
            small = (1, shape[1]) if axis == 0 else (shape[0], 1)
            v = self.load_tile(elem, small, purpose, allow_undefined=False)
            return self.op(f'tile.broadcast {v.name} : {tstr(elem, small)} -> {tstr(elem, shape)}',
                           elem, shape, lo=v.lo, hi=v.hi, g=v.g)
        # A scalar, loaded once per program and splat.
        if kind < 0.18:
            ptr, _ = self.buffer('in', elem, self.P, fill)
            base = self.region_base(1)
            sp = self.op(f'tile.addptr {ptr}, {base.name} : !tile.ptr<{elem}>, i32',
                         f'!tile.ptr<{elem}>', ())
            s = self.op(f'tile.load {sp.name} : !tile.ptr<{elem}>', elem, (), lo=lo, hi=hi, g=g)
            return self.splat(s, shape)
        # Gathered through indices loaded from another buffer.
        if kind < 0.28 and self.f['gather']:
            idx_fill = 'bits' if self.chance(0.5) else f'int 0 {4 * T}'
            ip, _ = self.buffer('in', 'i32', self.P * T, idx_fill)
            local = self.lin(shape)
            ipp = self.pointers(ip, 'i32', shape, local, self.region_base(T))
            iv = self.op(f'tile.load {ipp.name} : {ptrstr("i32", shape)}', 'i32', shape)
            m = self.const('i32', shape, T - 1)
            off = self.op(f'arith.andi {iv.name}, {m.name} : {tstr("i32", shape)}', 'i32', shape,
                          lo=0, hi=T - 1)
            ptr, _ = self.buffer('in', elem, self.P * T, fill)
            pp = self.pointers(ptr, elem, shape, off, self.region_base(T))
            return self.op(f'tile.load {pp.name}{self.load_hints()} : {ptrstr(elem, shape)}',
                           elem, shape, lo=lo, hi=hi, g=g)
        # A permutation of this program's region, maybe with a tail.
        local = self.perm(shape)
        tail = self.rng.randrange(1, T) if T > 1 and self.chance(0.35) else 0
        count = self.P * T - tail
        ptr, _ = self.buffer('in', elem, count, fill)
        pp = self.pointers(ptr, elem, shape, local, self.region_base(T))
        if tail:
            n = self.scalar_arg('i32', count)
            gidx = self.global_index(T, local)
            ns = self.op(f'tile.splat {n} : i32 -> {tstr("i32", shape)}', 'i32', shape)
            mask = self.op(f'arith.cmpi slt, {gidx.name}, {ns.name} : {tstr("i32", shape)}',
                           'i1', shape)
            if self.f['masked_nootherload'] and allow_undefined and self.chance(0.2):
                return self.op(f'tile.load {pp.name} mask {mask.name}{self.load_hints()} : {ptrstr(elem, shape)}',
                               elem, shape, lo=lo, hi=hi, g=g, valid=mask.name)
            ov = self.rand_const_value(elem, lo, hi, g)
            o = self.const(elem, shape, ov)
            return self.op(f'tile.load {pp.name} mask {mask.name} other {o.name}{self.load_hints()} : {ptrstr(elem, shape)}',
                           elem, shape, lo=min(lo, ov), hi=max(hi, ov), g=self.gmin(g, o.g))
        if self.chance(0.2):
            # A data-dependent mask on a full region.
            mask = self.cond_tile(shape)
            if mask is not None:
                ov = self.rand_const_value(elem, lo, hi, g)
                o = self.const(elem, shape, ov)
                return self.op(f'tile.load {pp.name} mask {mask.name} other {o.name}{self.load_hints()} : {ptrstr(elem, shape)}',
                               elem, shape, lo=min(lo, ov), hi=max(hi, ov), g=self.gmin(g, o.g))
        return self.op(f'tile.load {pp.name}{self.load_hints()} : {ptrstr(elem, shape)}',
                       elem, shape, lo=lo, hi=hi, g=g)

    def load_hints(self):
        c = self.rng.random()
        if c < 0.08:
            return ' cache = ' + self.choice(['ca', 'cg', 'cs', 'cv'])
        if c < 0.14:
            return ' evict = ' + self.choice(['evict_first', 'evict_last', 'evict_normal'])
        if c < 0.17:
            return ' volatile'
        return ''

    def rand_const_value(self, elem, lo, hi, g):
        if is_int(elem):
            lo_t, hi_t = int_range(elem)
            return self.rng.randint(max(lo_t, -100), min(hi_t, 100))
        if elem == 'i1':
            return self.chance(0.5)
        gg = g if g else 0.25
        k = self.rng.randint(-8, 8)
        return k * gg

    @staticmethod
    def gmin(a, b):
        if a == 0 or b == 0:
            return 0.0
        return min(a, b)

    # ---- picking operands ---------------------------------------------------
    def pick(self, shape, pred, avoid_valid=False):
        c = [v for v in self.pool if v.shape == shape and pred(v)
             and not (avoid_valid and v.valid)]
        if not c:
            raise Skip
        # Prefer recent values: deeper dataflow.
        if self.chance(0.6):
            c = c[-4:]
        return self.choice(c)

    def compatible_valid(self, *vs):
        masks = {v.valid for v in vs if v.valid}
        if len(masks) > 1:
            raise Skip
        return masks.pop() if masks else None

    def cond_tile(self, shape):
        """An i1 tile computed from exact values (no undefined lanes)."""
        try:
            v = self.pick(shape, lambda v: (is_int(v.elem) or (is_float(v.elem) and v.exact and not v.raw)),
                          avoid_valid=True)
        except Skip:
            return None
        ty = tstr(v.elem, shape)
        if is_int(v.elem):
            k = self.rng.randint(int(max(v.lo, -1000)), int(min(v.hi, 1000))) if v.lo <= v.hi else 0
            c = self.const(v.elem, shape, k)
            pred = self.choice(['eq', 'ne', 'slt', 'sle', 'sgt', 'sge', 'ult', 'ule', 'ugt', 'uge'])
            return self.op(f'arith.cmpi {pred}, {v.name}, {c.name} : {ty}', 'i1', shape, lo=0, hi=1)
        c = self.const(v.elem, shape, self.rand_const_value(v.elem, v.lo, v.hi, v.g))
        pred = self.choice(['oeq', 'one', 'olt', 'ole', 'ogt', 'oge', 'ueq', 'une', 'ult', 'ule',
                            'ugt', 'uge', 'ord'])
        return self.op(f'arith.cmpf {pred}, {v.name}, {c.name} : {ty}', 'i1', shape, lo=0, hi=1)

    # ---- float analysis -----------------------------------------------------
    def float_result(self, elem, lo, hi, g, D, zs=False, r=0.0):
        """Checks the bounds and normalizes granule and difference."""
        if not (math.isfinite(lo) and math.isfinite(hi)) or max(abs(lo), abs(hi)) > LIMIT[elem]:
            raise Skip
        B = max(abs(lo), abs(hi))
        if g and (B / g > 2.0 ** FLOAT[elem][0] or g < tiny(elem)):
            g = 0.0  # this op may round
        return dict(lo=lo, hi=hi, g=g, D=D, zs=zs, r=r)

    def round_diff(self, elem, B, D):
        """D after an op that rounds: a difference in the operands may move
        the result across a rounding boundary."""
        return D + ulp(B, elem) if D else 0.0

    def absD(self, v):
        return v.D + v.r * v.B

    # ---- elementwise ops ----------------------------------------------------
    def gen_elementwise(self, shape):
        kinds = ['fbin', 'fbin', 'fbin', 'ibin', 'ibin', 'cmpsel', 'cast', 'cast', 'unary',
                 'idiv', 'shift', 'fma', 'scalar']
        if self.f['math']:
            kinds += ['math', 'math']
        if self.f['bitcast']:
            kinds += ['bitcast']
        k = self.choice(kinds)
        return getattr(self, 'ew_' + k)(shape)

    def ew_fbin(self, shape):
        a = self.pick(shape, lambda v: is_float(v.elem) and not v.raw)
        b = self.pick(shape, lambda v: v.elem == a.elem and not v.raw)
        valid = self.compatible_valid(a, b)
        ty = tstr(a.elem, shape)
        e = a.elem
        Da, Db = self.absD(a), self.absD(b)
        opn = self.choice(['addf', 'subf', 'mulf', 'divf', 'maxnumf', 'minnumf', 'maximumf',
                           'minimumf'] + (['remf'] if self.f['remf'] else []))
        zs = a.zs or b.zs
        if opn in ('addf', 'subf'):
            if opn == 'addf':
                lo, hi = a.lo + b.lo, a.hi + b.hi
            else:
                lo, hi = a.lo - b.hi, a.hi - b.lo
            g = self.gmin(a.g, b.g)
            B = max(abs(lo), abs(hi))
            res = self.float_result(e, lo, hi, g, self.round_diff(e, B, Da + Db), zs)
        elif opn == 'mulf':
            ps = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]
            lo, hi = min(ps), max(ps)
            g = a.g * b.g
            B = max(abs(lo), abs(hi))
            res = self.float_result(e, lo, hi, g, self.round_diff(e, B, Da * b.B + Db * a.B + Da * Db), zs)
        elif opn in ('divf', 'remf'):
            # Divisors stay away from zero.
            if b.lo <= 0 <= b.hi or min(abs(b.lo), abs(b.hi)) < 0.25:
                b = self.away_from_zero(b)
            m = min(abs(b.lo), abs(b.hi))
            if opn == 'divf':
                ps = [a.lo / b.lo, a.lo / b.hi, a.hi / b.lo, a.hi / b.hi]
                lo, hi = min(ps), max(ps)
                D = (Da * b.B + a.B * Db) / (m * m) if (Da or Db) else 0.0
                B = max(abs(lo), abs(hi))
                res = self.float_result(e, lo, hi, 0.0, self.round_diff(e, B, D), zs)
            else:
                if Da or Db:
                    raise Skip  # discontinuous
                lo, hi = -b.B, b.B
                if a.lo >= 0:
                    lo = 0.0
                if a.hi <= 0:
                    hi = 0.0
                lo, hi = max(lo, -a.B), min(hi, a.B)
                res = self.float_result(e, lo, hi, self.gmin(a.g, b.g), 0.0, True)
        else:
            lo = min(a.lo, b.lo) if 'min' in opn else max(a.lo, b.lo)
            hi = min(a.hi, b.hi) if 'min' in opn else max(a.hi, b.hi)
            zs = zs or (opn in ('maxnumf', 'minnumf') and lo <= 0 <= hi)
            res = self.float_result(e, lo, hi, self.gmin(a.g, b.g), max(Da, Db), zs)
        return self.op(f'arith.{opn} {a.name}, {b.name} : {ty}', e, shape, valid=valid, **res)

    def away_from_zero(self, b):
        """|b| + c: a divisor at least c from zero."""
        ty = tstr(b.elem, b.shape)
        a = self.op(f'math.absf {b.name} : {ty}', b.elem, b.shape, lo=0 if b.lo <= 0 <= b.hi else min(abs(b.lo), abs(b.hi)),
                    hi=b.B, g=b.g, D=self.absD(b), valid=b.valid)
        c = self.const(b.elem, b.shape, self.choice([0.5, 1.0, 2.0]))
        lo, hi = a.lo + c.lo, a.hi + c.hi
        res = self.float_result(b.elem, lo, hi, self.gmin(a.g, c.g),
                                self.round_diff(b.elem, hi, a.D))
        return self.op(f'arith.addf {a.name}, {c.name} : {ty}', b.elem, b.shape, valid=b.valid, **res)

    def ew_ibin(self, shape):
        a = self.pick(shape, lambda v: is_int(v.elem))
        b = self.pick(shape, lambda v: v.elem == a.elem)
        valid = self.compatible_valid(a, b)
        e = a.elem
        lo_t, hi_t = int_range(e)
        opn = self.choice(['addi', 'subi', 'muli', 'andi', 'ori', 'xori', 'maxsi', 'minsi',
                           'maxui', 'minui'])
        lo, hi = lo_t, hi_t
        if opn == 'addi':
            lo, hi = a.lo + b.lo, a.hi + b.hi
        elif opn == 'subi':
            lo, hi = a.lo - b.hi, a.hi - b.lo
        elif opn == 'muli':
            ps = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]
            lo, hi = min(ps), max(ps)
        elif opn == 'andi' and (a.lo >= 0 or b.lo >= 0):
            lo, hi = 0, min(x.hi for x in (a, b) if x.lo >= 0)
        elif opn in ('ori', 'xori') and a.lo >= 0 and b.lo >= 0:
            lo, hi = 0, (1 << max(int(a.hi), int(b.hi), 1).bit_length()) - 1
        elif opn == 'maxsi':
            lo, hi = max(a.lo, b.lo), max(a.hi, b.hi)
        elif opn == 'minsi':
            lo, hi = min(a.lo, b.lo), min(a.hi, b.hi)
        elif opn in ('maxui', 'minui') and a.lo >= 0 and b.lo >= 0:
            lo, hi = (max(a.lo, b.lo), max(a.hi, b.hi)) if opn == 'maxui' else (min(a.lo, b.lo), min(a.hi, b.hi))
        if lo < lo_t or hi > hi_t:
            lo, hi = lo_t, hi_t  # wraps
        return self.op(f'arith.{opn} {a.name}, {b.name} : {tstr(e, shape)}', e, shape,
                       lo=lo, hi=hi, valid=valid)

    def ew_idiv(self, shape):
        a = self.pick(shape, lambda v: is_int(v.elem))
        d = self.pick(shape, lambda v: v.elem == a.elem)
        valid = self.compatible_valid(a, d)
        e = a.elem
        ty = tstr(e, shape)
        lo_t, hi_t = int_range(e)
        negative = self.chance(0.3)
        # d & 7 | 1 is in [1, 7]; (d & 15) - 8 | 1 in [-7, 7], odd.
        m = self.const(e, shape, 15 if negative else 7)
        t = self.op(f'arith.andi {d.name}, {m.name} : {ty}', e, shape, lo=0, hi=m.lo)
        if negative:
            c8 = self.const(e, shape, 8)
            t = self.op(f'arith.subi {t.name}, {c8.name} : {ty}', e, shape, lo=-8, hi=7)
        one = self.const(e, shape, 1)
        den = self.op(f'arith.ori {t.name}, {one.name} : {ty}', e, shape,
                      lo=-7 if negative else 1, hi=7)
        num = a
        if negative and a.lo <= lo_t:
            # MIN / -1 overflows: halve the numerator first.
            num = self.op(f'arith.shrsi {a.name}, {one.name} : {ty}', e, shape,
                          lo=a.lo // 2, hi=a.hi // 2, valid=a.valid)
        opn = self.choice(['divsi', 'remsi', 'ceildivsi', 'floordivsi'] +
                          ([] if negative else ['divui', 'remui']))
        if opn in ('divsi', 'ceildivsi', 'floordivsi'):
            lo, hi = -abs(num.B) - 1, abs(num.B) + 1
        elif opn == 'remsi':
            lo, hi = -6, 6
        elif num.lo >= 0:
            lo, hi = 0, num.hi
        else:
            lo, hi = lo_t, hi_t
        return self.op(f'arith.{opn} {num.name}, {den.name} : {ty}', e, shape,
                       lo=max(lo, lo_t), hi=min(hi, hi_t), valid=valid)

    def ew_shift(self, shape):
        a = self.pick(shape, lambda v: is_int(v.elem))
        s = self.pick(shape, lambda v: v.elem == a.elem)
        valid = self.compatible_valid(a, s)
        e = a.elem
        ty = tstr(e, shape)
        if self.chance(0.3):
            amt = self.const(e, shape, self.rng.randrange(0, INT[e]))
        else:
            m = self.const(e, shape, INT[e] - 1)
            amt = self.op(f'arith.andi {s.name}, {m.name} : {ty}', e, shape, lo=0, hi=INT[e] - 1)
        opn = self.choice(['shli', 'shrsi', 'shrui'])
        lo_t, hi_t = int_range(e)
        lo, hi = lo_t, hi_t
        if opn == 'shrsi':
            lo, hi = min(a.lo, 0), max(a.hi, 0)
        elif opn == 'shrui' and a.lo >= 0:
            lo, hi = 0, a.hi
        return self.op(f'arith.{opn} {a.name}, {amt.name} : {ty}', e, shape, lo=lo, hi=hi,
                       valid=valid)

    def ew_cmpsel(self, shape):
        if self.chance(0.5):
            c = self.cond_tile(shape)
            if c is None:
                raise Skip
        else:
            c = self.pick(shape, lambda v: v.elem == 'i1')
        a = self.pick(shape, lambda v: v.elem not in ('i1',) and v.elem != 'ptr')
        b = self.pick(shape, lambda v: v.elem == a.elem)
        valid = self.compatible_valid(a, b, c)
        kw = dict(lo=min(a.lo, b.lo), hi=max(a.hi, b.hi), valid=valid)
        if is_float(a.elem):
            kw.update(g=self.gmin(a.g, b.g), D=max(self.absD(a), self.absD(b)),
                      zs=a.zs or b.zs, raw=a.raw or b.raw)
            if kw['raw']:
                kw.update(lo=0.0, hi=0.0)
        return self.op(f'arith.select {c.name}, {a.name}, {b.name} : {tstr("i1", shape)}, {tstr(a.elem, shape)}',
                       a.elem, shape, **kw)

    def ew_unary(self, shape):
        a = self.pick(shape, lambda v: v.elem != 'i1' and not v.raw)
        ty = tstr(a.elem, shape)
        if is_int(a.elem):
            if a.elem != 'i32' and not self.f['absi']:
                raise Skip
            lo_t, hi_t = int_range(a.elem)
            lo, hi = (0, max(abs(a.lo), abs(a.hi))) if a.lo > lo_t else (lo_t, hi_t)
            return self.op(f'math.absi {a.name} : {ty}', a.elem, shape, lo=lo, hi=hi, valid=a.valid)
        opn = self.choice(['negf', 'absf', 'floor', 'ceil', 'round', 'roundeven', 'sqrt',
                           'copysign'] + (['trunc'] if self.f['math_trunc'] else []))
        D = self.absD(a)
        if opn == 'negf':
            return self.op(f'arith.negf {a.name} : {ty}', a.elem, shape, lo=-a.hi, hi=-a.lo, g=a.g,
                           D=D, zs=a.zs, valid=a.valid)
        if opn == 'absf':
            lo = 0.0 if a.lo <= 0 <= a.hi else min(abs(a.lo), abs(a.hi))
            return self.op(f'math.absf {a.name} : {ty}', a.elem, shape, lo=lo, hi=a.B, g=a.g, D=D,
                           valid=a.valid)
        if opn == 'copysign':
            b = self.pick(shape, lambda v: v.elem == a.elem and v.exact and not v.zs and not v.raw)
            valid = self.compatible_valid(a, b)
            return self.op(f'math.copysign {a.name}, {b.name} : {ty}', a.elem, shape, lo=-a.B,
                           hi=a.B, g=a.g, D=D, zs=a.zs, valid=valid)
        if opn == 'sqrt':
            if a.lo < 0:
                a = self.op(f'math.absf {a.name} : {ty}', a.elem, shape, lo=0.0, hi=a.B, g=a.g, D=D,
                            valid=a.valid)
            hi = math.sqrt(a.hi)
            if D and a.lo < 1e-3:
                raise Skip
            # A math function: llkc's f32 sqrt is sqrt.approx (within 2^-23
            # relative), the interpreter's correctly rounded.
            e = a.elem
            uf = unit_roundoff('f32') if e in ('f16', 'bf16') else unit_roundoff(e)
            r = 4 * uf + (2 * unit_roundoff(e) if e in ('f16', 'bf16') else 0)
            Dr = (D / math.sqrt(max(a.lo, 1e-30)) if D else 0) + 4 * 2.0 ** FLOAT[e][1]
            return self.op(f'math.sqrt {a.name} : {ty}', e, shape, lo=math.sqrt(a.lo), hi=hi,
                           D=Dr, r=r, zs=a.zs, valid=a.valid)
        # Rounding to integers: discontinuous.
        if D:
            raise Skip
        g = max(a.g, 1.0) if a.g else 1.0
        # The result's sign of zero is its operand's.
        return self.op(f'math.{opn} {a.name} : {ty}', a.elem, shape, lo=math.floor(a.lo),
                       hi=math.ceil(a.hi), g=g, zs=a.zs, valid=a.valid)

    def ew_fma(self, shape):
        a = self.pick(shape, lambda v: is_float(v.elem) and not v.raw)
        b = self.pick(shape, lambda v: v.elem == a.elem and not v.raw)
        c = self.pick(shape, lambda v: v.elem == a.elem and not v.raw)
        valid = self.compatible_valid(a, b, c)
        e = a.elem
        ps = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]
        lo, hi = min(ps) + c.lo, max(ps) + c.hi
        D = self.absD(a) * b.B + self.absD(b) * a.B + self.absD(c)
        B = max(abs(lo), abs(hi))
        g = self.gmin(a.g * b.g, c.g)
        D = self.round_diff(e, B, D)
        res = self.float_result(e, lo, hi, g, D, a.zs or b.zs or c.zs)
        if e in ('f16', 'bf16') and not res['g']:
            # The interpreter rounds fma to f32 first, then to the type.
            res['D'] += ulp(B, e)
        return self.op(f'math.fma {a.name}, {b.name}, {c.name} : {tstr(e, shape)}', e, shape,
                       valid=valid, **res)

    def ew_math(self, shape):
        a = self.pick(shape, lambda v: is_float(v.elem) and v.exact and not v.raw, avoid_valid=False)
        e = a.elem
        ty = tstr(e, shape)
        fn = self.choice(['exp', 'exp2', 'expm1', 'log', 'log2', 'log10', 'log1p', 'sin', 'cos',
                          'tan', 'tanh', 'atan', 'erf', 'cbrt', 'rsqrt', 'powf', 'atan2'])
        x = a
        # Bring the argument into the function's comfortable domain.
        if fn in ('log', 'log2', 'log10', 'rsqrt', 'powf') and (a.lo < 0.25):
            x = self.away_from_zero(a)
            if x.lo < 0:
                raise Skip
        if fn == 'log1p' and a.lo <= -0.5:
            x = self.away_from_zero(a)
        if fn in ('exp', 'exp2', 'expm1') and x.B > 8:
            raise Skip
        if fn in ('sin', 'cos') and x.B > 64:
            raise Skip
        if fn == 'tan' and x.B > 1.2:
            raise Skip
        if e in ('f16', 'bf16') and fn in ('exp', 'exp2', 'expm1') and x.B > 6:
            raise Skip
        if not x.exact:
            raise Skip
        u = unit_roundoff(e)
        uf = unit_roundoff('f32') if e in ('f16', 'bf16') else u
        r = 8 * uf + (2 * u if e in ('f16', 'bf16') else 0)
        atol = 8 * uf * max(1.0, x.B) + 4 * 2.0 ** FLOAT[e][1]
        y = None
        if fn == 'powf':
            y = self.pick(shape, lambda v: v.elem == e and v.exact and not v.raw and v.B <= 3)
            if x.hi ** max(abs(y.lo), abs(y.hi)) > 1e4 or (1 / x.lo) ** max(abs(y.lo), abs(y.hi)) > 1e4:
                raise Skip
            lo, hi = 0.0, max(x.hi, 1 / x.lo) ** max(abs(y.lo), abs(y.hi))
            atol = 8 * uf * hi * (1 + max(abs(y.lo), abs(y.hi)) * max(abs(math.log(x.hi)), abs(math.log(x.lo)))) + 4 * 2.0 ** FLOAT[e][1]
        elif fn == 'atan2':
            # atan2(y, x) with x > 0: continuous, in (-pi/2, pi/2).
            y = self.pick(shape, lambda v: v.elem == e and v.exact and not v.raw and not v.zs)
            if x.lo < 0.25:
                x = self.away_from_zero(x)
            lo, hi = -math.pi / 2, math.pi / 2
        else:
            f = {'exp': math.exp, 'exp2': lambda t: 2.0 ** t, 'expm1': math.expm1,
                 'log': math.log, 'log2': math.log2, 'log10': math.log10, 'log1p': math.log1p,
                 'tanh': math.tanh, 'atan': math.atan, 'erf': math.erf,
                 'cbrt': lambda t: math.copysign(abs(t) ** (1 / 3), t),
                 'rsqrt': lambda t: 1 / math.sqrt(t)}.get(fn)
            if f:
                a_, b_ = f(x.lo), f(x.hi)
                lo, hi = min(a_, b_), max(a_, b_)
            elif fn == 'tan':
                lo, hi = math.tan(x.lo), math.tan(x.hi)
            else:
                lo, hi = -1.0, 1.0
            if fn in ('exp', 'exp2', 'expm1', 'rsqrt'):
                atol = 8 * uf * max(1.0, hi) + 4 * 2.0 ** FLOAT[e][1]
            if fn == 'tan':
                atol = 8 * uf * max(1.0, hi * hi + 1) * max(1.0, x.B) + 4 * 2.0 ** FLOAT[e][1]
        if max(abs(lo), abs(hi)) > LIMIT[e]:
            raise Skip
        args = (x.name if y is None else f'{y.name}, {x.name}' if fn == 'atan2'
                else f'{x.name}, {y.name}')
        valid = self.compatible_valid(x, y) if y is not None else x.valid
        return self.op(f'math.{fn} {args} : {ty}', e, shape, lo=lo, hi=hi, D=atol, r=r,
                       zs=x.zs, valid=valid)

    def ew_cast(self, shape):
        a = self.pick(shape, lambda v: v.elem != 'ptr' and not v.raw)
        targets = [t for t in list(FLOAT) + list(INT) + ['i1'] if t != a.elem]
        if not self.f['f64']:
            targets = [t for t in targets if t != 'f64']
        if not self.f['i64']:
            targets = [t for t in targets if t != 'i64']
        t = self.choice(targets)
        src, dst = a.elem, t
        rounding = ''
        kw = {}
        if is_float(src) and is_float(dst):
            narrowing = FLOAT[dst][0] < FLOAT[src][0] or FLOAT[dst][2] < FLOAT[src][2]
            if narrowing and self.chance(0.5):
                rounding = self.choice(['rne', 'rtz', 'rdn', 'rup'])
            if a.B > LIMIT[dst]:
                raise Skip
            D = self.absD(a)
            g = a.g if a.g and a.B / a.g <= 2.0 ** FLOAT[dst][0] and a.g >= tiny(dst) else 0.0
            if narrowing and D:
                D += 2 * ulp(a.B, dst)
            kw = dict(lo=a.lo, hi=a.hi, g=g, D=D, zs=a.zs)
        elif is_float(src):
            if not a.exact:
                raise Skip
            if dst == 'i1':
                kw = dict(lo=0, hi=1)
            else:
                if self.chance(0.5):
                    rounding = self.choice(['rne', 'rtz', 'rdn', 'rup'])
                lo_t, hi_t = int_range(dst)
                kw = dict(lo=max(lo_t, math.floor(a.lo)), hi=min(hi_t, math.ceil(a.hi)))
        elif is_int(src) or src == 'i1':
            if is_float(dst):
                if self.chance(0.3):
                    rounding = 'rne'
                lo, hi = float(a.lo), float(a.hi)
                if max(abs(lo), abs(hi)) > LIMIT[dst]:
                    if dst == 'f16':
                        raise Skip  # i16+ values overflow f16's range
                    kw = dict(lo=lo, hi=hi, g=0.0)
                else:
                    B = max(abs(lo), abs(hi))
                    kw = dict(lo=lo, hi=hi, g=1.0 if B <= 2.0 ** FLOAT[dst][0] else 0.0)
                if max(abs(lo), abs(hi)) > FLOAT[dst][2] / 2:
                    raise Skip
            elif dst == 'i1':
                kw = dict(lo=0, hi=1)
            else:
                lo_t, hi_t = int_range(dst)
                lo, hi = a.lo, a.hi
                if src == 'i1':
                    lo, hi = 0, 1
                if lo < lo_t or hi > hi_t:
                    lo, hi = lo_t, hi_t
                kw = dict(lo=lo, hi=hi)
        else:
            raise Skip
        r = f' rounding = {rounding}' if rounding else ''
        if is_int(src) and is_int(dst) and self.chance(0.3):
            # The arith forms of the same conversions.
            opn = 'extsi' if INT[dst] > INT[src] else 'trunci'
            return self.op(f'arith.{opn} {a.name} : {tstr(src, shape)} to {tstr(dst, shape)}',
                           dst, shape, valid=a.valid, **kw)
        return self.op(f'tile.cast {a.name}{r} : {tstr(src, shape)} to {tstr(dst, shape)}', dst,
                       shape, valid=a.valid, **kw)

    def ew_bitcast(self, shape):
        a = self.pick(shape, lambda v: v.elem not in ('i1', 'ptr') and not v.zs)
        bits = {'f16': 16, 'bf16': 16, 'f32': 32, 'f64': 64, 'i8': 8, 'i16': 16, 'i32': 32,
                'i64': 64}[a.elem]
        targets = [t for t, b in {'f16': 16, 'bf16': 16, 'f32': 32, 'f64': 64, 'i16': 16,
                                  'i32': 32, 'i64': 64}.items() if b == bits and t != a.elem]
        if not targets:
            raise Skip
        t = self.choice(targets)
        if is_float(a.elem) and not a.exact:
            raise Skip
        if is_int(t):
            lo, hi = int_range(t)
            kw = dict(lo=lo, hi=hi)
        else:
            kw = dict(raw=True)  # any bits: NaNs, infinities, subnormals
        return self.op(f'tile.bitcast {a.name} : {tstr(a.elem, shape)} to {tstr(t, shape)}', t,
                       shape, valid=a.valid, **kw)

    def ew_scalar(self, shape):
        """A scalar computed from the program id and a scalar argument, splat."""
        e = self.choice(['i32', 'f32', 'i64', 'f16'])
        if e in ('i32', 'i64'):
            k = self.rng.randint(-50, 50)
            s = self.scalar_arg(e, k)
            pid = self.p
            if e == 'i64':
                pid = self.op(f'arith.extsi {self.p.name} : i32 to i64', 'i64', (), lo=0, hi=self.P - 1)
            c = self.const(e, (), self.rng.randint(1, 9))
            t = self.op(f'arith.muli {pid.name}, {c.name} : {e}', e, (), lo=0, hi=(self.P - 1) * c.lo)
            v = self.op(f'arith.addi {t.name}, {s} : {e}', e, (), lo=k, hi=t.hi + k)
        else:
            k = self.rng.randint(-16, 16) * 0.25
            s = self.scalar_arg(e, k)
            pf = self.op(f'tile.cast {self.p.name} : i32 to {e}', e, (), lo=0, hi=self.P - 1, g=1.0)
            v = self.op(f'arith.addf {pf.name}, {s} : {e}', e, (), lo=k, hi=k + self.P - 1, g=0.25)
        return self.splat(v, shape)

    # ---- shape ops ------------------------------------------------------------
    def gen_shape_roundtrip(self, shape):
        """trans/reshape/expand+reduce shapes back to `shape` (exercises the
        layout conversions)."""
        a = self.pick(shape, lambda v: v.elem != 'ptr', avoid_valid=True)
        ty = tstr(a.elem, shape)
        kw = self.copy_kw(a)
        if len(shape) == 2 and shape[0] == shape[1] and self.chance(0.5):
            return self.op(f'tile.trans {a.name} : {ty} -> {ty}', a.elem, shape, **kw)
        if len(shape) == 2 and self.chance(0.5):
            m, n = shape
            t = self.op(f'tile.trans {a.name} : {ty} -> {tstr(a.elem, (n, m))}', a.elem, (n, m), **kw)
            return self.op(f'tile.trans {t.name} : {tstr(a.elem, (n, m))} -> {ty}', a.elem, shape, **kw)
        T = nelems(shape)
        if T < 2:
            raise Skip
        other = self.choice([(T,), (2, T // 2), (T // 2, 2), (T // 4, 4)] if T >= 4 else [(T,)])
        if other == shape:
            other = (T,) if len(shape) == 2 else (T // 2, 2)
        t = self.op(f'tile.reshape {a.name} : {ty} -> {tstr(a.elem, other)}', a.elem, other, **kw)
        if self.chance(0.5):
            self.add(t)  # the other shape feeds stores too
        return self.op(f'tile.reshape {t.name} : {tstr(a.elem, other)} -> {ty}', a.elem, shape, **kw)

    @staticmethod
    def copy_kw(a):
        return dict(lo=a.lo, hi=a.hi, g=a.g, D=a.D, r=a.r, zs=a.zs, raw=a.raw, valid=a.valid)

    # ---- reductions ------------------------------------------------------------
    def reduce_ok(self, v):
        if v.elem in ('i1', 'ptr') or v.raw or v.valid:
            return False
        if v.elem in ('i64', 'f64') and not self.f['reduce64']:
            return False
        return True

    def sum_result(self, e, a, L):
        """Interval, granule and difference of a float sum of L values of a."""
        lo, hi = a.lo * L if a.lo < 0 else a.lo, a.hi * L if a.hi > 0 else a.hi
        lo, hi = min(lo, a.lo * L), max(hi, a.hi * L)
        B = max(abs(lo), abs(hi))
        if B > LIMIT[e]:
            raise Skip
        D = L * self.absD(a)
        g = a.g
        if not (g and B / g <= 2.0 ** FLOAT[e][0] and g >= tiny(e)):
            g = 0.0
            D += 2 * (L - 1) * unit_roundoff(e) * L * a.B + ulp(B, e)
        return dict(lo=lo, hi=hi, g=g, D=D, zs=a.zs)

    def gen_reduce(self, shape):
        a = self.pick(shape, self.reduce_ok)
        e = a.elem
        axis = self.rng.randrange(len(shape))
        L = shape[axis]
        out_shape = tuple(d for i, d in enumerate(shape) if i != axis)
        generic = self.chance(0.35)
        if not generic:
            kinds = ['sum', 'max', 'min', 'argmax', 'argmin']
            kind = self.choice(kinds)
            if kind in ('argmax', 'argmin'):
                if is_float(e) and not a.exact:
                    raise Skip
                kw, re = dict(lo=0, hi=L - 1), 'i32'
            elif kind == 'sum':
                re = e
                if is_float(e):
                    kw = self.sum_result(e, a, L)
                else:
                    lo_t, hi_t = int_range(e)
                    lo, hi = min(a.lo * L, a.lo), max(a.hi * L, a.hi)
                    kw = dict(lo=lo, hi=hi) if lo >= lo_t and hi <= hi_t else dict(lo=lo_t, hi=hi_t)
            else:
                re = e
                kw = dict(lo=a.lo, hi=a.hi)
                if is_float(e):
                    kw.update(g=a.g, D=self.absD(a), zs=True if a.lo <= 0 <= a.hi else a.zs)
            r = self.op(f'tile.reduce {kind} {a.name} axis = {axis} : {tstr(e, shape)} -> {tstr(re, out_shape)}',
                        re, out_shape, **kw)
        else:
            r = self.generic_reduce(a, axis, L, out_shape)
        return r

    def generic_reduce(self, a, axis, L, out_shape):
        e = a.elem
        if is_float(e):
            comb = self.choice(['addf', 'maxnumf', 'minimumf', 'select_max', 'mulf'])
            if comb == 'mulf' and not (a.B <= 1.0 and a.exact):
                comb = 'addf'
        else:
            comb = self.choice(['addi', 'muli', 'xori', 'andi', 'ori', 'maxsi', 'minui'])
        if comb == 'addf':
            kw = self.sum_result(e, a, L)
        elif comb == 'mulf':
            kw = dict(lo=-1.0, hi=1.0, D=2 * L * unit_roundoff(e) + 2 * 2.0 ** FLOAT[e][1])
        elif is_float(e):
            kw = dict(lo=a.lo, hi=a.hi, g=a.g, D=self.absD(a), zs=a.zs or a.lo <= 0 <= a.hi)
            if comb == 'select_max' and not a.exact:
                raise Skip
        else:
            lo_t, hi_t = int_range(e)
            kw = dict(lo=lo_t, hi=hi_t)
            if comb == 'maxsi':
                kw = dict(lo=a.lo, hi=a.hi)
            if comb == 'addi':
                lo, hi = min(a.lo * L, a.lo), max(a.hi * L, a.hi)
                if lo >= lo_t and hi <= hi_t:
                    kw = dict(lo=lo, hi=hi)
        name = self.fresh()
        self.emit(f'{name} = tile.generic_reduce {a.name} axis = {axis} : {tstr(e, a.shape)} -> {tstr(e, out_shape)} {{')
        self.emit(f'^bb0(%x: {e}, %y: {e}):')
        if comb == 'select_max':
            self.emit(f'  %gt = arith.cmpf ogt, %x, %y : {e}')
            self.emit(f'  %c = arith.select %gt, %x, %y : {e}')
            kw['zs'] = True if a.lo <= 0 <= a.hi else a.zs
        else:
            self.emit(f'  %c = arith.{comb} %x, %y : {e}')
        self.emit(f'  tile.yield %c : {e}')
        self.emit('}')
        v = V(name, e, out_shape, **kw)
        v.depth = self.depth
        return v

    def reduce_back(self, r, shape, axis=None):
        """A reduction's result broadcast back to `shape`."""
        if not r.shape:
            return self.splat(r, shape)
        if len(shape) != 2:
            raise Skip
        # r has shape[1 - axis]: expand along the reduced axis.
        axis = 0 if r.shape == (shape[1],) else 1
        if r.shape != (shape[1 - axis],):
            raise Skip
        small = (1, shape[1]) if axis == 0 else (shape[0], 1)
        kw = self.copy_kw(r)
        t = self.op(f'tile.expand_dims {r.name} axis = {axis} : {tstr(r.elem, r.shape)} -> {tstr(r.elem, small)}',
                    r.elem, small, **kw)
        return self.op(f'tile.broadcast {t.name} : {tstr(r.elem, small)} -> {tstr(r.elem, shape)}',
                       r.elem, shape, **kw)

    # ---- stores ---------------------------------------------------------------
    def check_of(self, v):
        """How an output compares: bit-exact, exact but for the sign of
        zero, or within the propagated bound (2x headroom). Raw bits (NaNs
        among them) selected with a value that has a tolerance compare by
        their bits where they are NaN, within the tolerance elsewhere."""
        if is_float(v.elem):
            if not v.exact:
                atol = 2 * v.D
                rtol = 2 * v.r
                return f'tol {atol:.6g} {rtol:.6g}'
            if v.zs:
                return 'exact0'
        return 'exact'

    def store(self, v, region_count=1, region_index=None, cond_mask=None):
        """Stores v into a new output buffer, this program's region (or
        region_index's of region_count regions per program)."""
        shape, e = v.shape, v.elem
        if e == 'i1':
            v = self.op(f'tile.cast {v.name} : {tstr("i1", shape)} to {tstr("i8", shape)}', 'i8',
                        shape, lo=0, hi=1, valid=v.valid)
            e = 'i8'
        if not shape:
            ptr, idx = self.buffer('out', e, self.P * region_count, 'poison', self.check_of(v))
            base = self.region_base(1) if region_count == 1 else None
            if region_index is not None:
                base = self.op(f'arith.addi {self.region_base(region_count).name}, {region_index.name} : i32',
                               'i32', ())
            sp = self.op(f'tile.addptr {ptr}, {base.name} : !tile.ptr<{e}>, i32', f'!tile.ptr<{e}>', ())
            self.emit(f'tile.store {v.name}, {sp.name}{self.store_hints()} : !tile.ptr<{e}>')
            self.outputs += 1
            return
        T = nelems(shape)
        local = self.perm(shape)
        mask = None
        tail = 0
        if v.valid:
            mask = v.valid
        elif cond_mask is not None:
            mask = cond_mask.name
        elif self.chance(0.25) and T > 1 and region_count == 1:
            tail = self.rng.randrange(1, T)
        elif self.chance(0.15):
            m = self.cond_tile(shape)
            mask = m.name if m is not None else None
        count = self.P * T * region_count - tail
        ptr, idx = self.buffer('out', e, count, 'poison', self.check_of(v))
        if region_index is None:
            base = self.region_base(T)
        else:
            rb = self.region_base(T * region_count)
            c = self.const('i32', (), T)
            t = self.op(f'arith.muli {region_index.name}, {c.name} : i32', 'i32', ())
            base = self.op(f'arith.addi {rb.name}, {t.name} : i32', 'i32', ())
        pp = self.pointers(ptr, e, shape, local, base)
        if tail:
            n = self.scalar_arg('i32', count, divisibility=self.choice([None, None, 2, 4]) if count % 4 == 0 else None)
            gidx = self.global_index(T, local)
            ns = self.op(f'tile.splat {n} : i32 -> {tstr("i32", shape)}', 'i32', shape)
            mask = self.op(f'arith.cmpi slt, {gidx.name}, {ns.name} : {tstr("i32", shape)}',
                           'i1', shape).name
        m = f' mask {mask}' if mask else ''
        self.emit(f'tile.store {v.name}, {pp.name}{m}{self.store_hints()} : {ptrstr(e, shape)}')
        self.outputs += 1

    def store_hints(self):
        c = self.rng.random()
        if c < 0.08:
            return ' cache = ' + self.choice(['wb', 'cg', 'cs', 'wt'])
        if c < 0.12:
            return ' evict = ' + self.choice(['evict_first', 'evict_last', 'evict_normal'])
        return ''

    # ---- control flow -----------------------------------------------------------
    def gen_loop(self, shape):
        """scf.for over L steps carrying 1-2 tiles: each step loads this
        step's region of a loop input and folds it in; sometimes stores
        inside the loop too."""
        carried = []
        for _ in range(self.choice([1, 1, 2])):
            c = self.pick(shape, lambda v: v.elem in ('f32', 'f16', 'bf16', 'f64', 'i32', 'i16',
                                                      'i8', 'i64') and not v.raw and not v.valid)
            if c not in carried:
                carried.append(c)
        L = self.choice([1, 2, 3, 4])
        T = nelems(shape)
        # Each carried value folds in one load per step; what it is after
        # L steps (the steps' intermediate values lie within that too).
        plans = []
        for c in carried:
            e = c.elem
            fill, lo, hi, g = self.fill_for(e)
            if is_float(e):
                opn = self.choice(['addf', 'maxnumf', 'minimumf', 'addf'])
                if opn == 'addf':
                    acc_lo, acc_hi = c.lo + L * min(lo, 0), c.hi + L * max(hi, 0)
                    B = max(abs(acc_lo), abs(acc_hi))
                    if B > LIMIT[e]:
                        raise Skip
                    gg = self.gmin(c.g, g)
                    D = self.absD(c)
                    if not (gg and B / gg <= 2.0 ** FLOAT[e][0] and gg >= tiny(e)):
                        gg = 0.0
                        # Both backends add in the same order: only the
                        # carried value's difference grows.
                        D = D + (L * ulp(B, e) if D else 0)
                    kw = dict(lo=acc_lo, hi=acc_hi, g=gg, D=D, zs=c.zs)
                else:
                    kw = dict(lo=min(c.lo, lo), hi=max(c.hi, hi), g=self.gmin(c.g, g),
                              D=self.absD(c), zs=c.zs or opn == 'maxnumf')
            else:
                opn = self.choice(['addi', 'xori', 'maxsi', 'muli'])
                lo_t, hi_t = int_range(e)
                kw = dict(lo=lo_t, hi=hi_t)
                if opn == 'maxsi':
                    kw = dict(lo=max(c.lo, lo), hi=max(c.hi, hi))
            ptr, _ = self.buffer('in', e, self.P * L * T, fill)
            plans.append((c, e, ptr, opn, kw))
        c0 = self.const('i32', (), 0)
        c1 = self.const('i32', (), 1)
        lc = self.const('i32', (), L)
        tc = self.const('i32', (), T)
        ub = self.scalar_arg('i32', L) if self.chance(0.4) else lc.name
        names = [self.fresh('it') for _ in carried]
        res = self.fresh('loop')
        types = ', '.join(tstr(c.elem, shape) for c in carried)
        inits = ', '.join(f'{n} = {c.name}' for n, c in zip(names, carried))
        count = f':{len(carried)}' if len(carried) > 1 else ''
        iv = self.fresh('i')
        self.emit(f'{res}{count} = scf.for {iv} = {c0.name} to {ub} step {c1.name} '
                  f'iter_args({inits}) -> ({types}) : i32 {{')
        self.push_scope()
        step = self.op(f'arith.muli {self.p.name}, {lc.name} : i32', 'i32', ())
        step = self.op(f'arith.addi {step.name}, {iv} : i32', 'i32', ())
        base = self.op(f'arith.muli {step.name}, {tc.name} : i32', 'i32', ())
        yields = []
        for name, (c, e, ptr, opn, kw) in zip(names, plans):
            pp = self.pointers(ptr, e, shape, self.perm(shape), base)
            x = self.op(f'tile.load {pp.name}{self.load_hints()} : {ptrstr(e, shape)}', e, shape)
            yields.append(self.op(f'arith.{opn} {name}, {x.name} : {tstr(e, shape)}', e, shape,
                                  **kw))
        if self.chance(0.3):
            # A store in the body: this step's region of an output.
            self.store(yields[0], region_count=L, region_index=V(iv, 'i32', (), lo=0, hi=L - 1))
        self.emit(f'scf.yield {", ".join(y.name for y in yields)} : {types}')
        self.pop_scope()
        self.emit('}')
        out = None
        for i, (c, e, ptr, opn, kw) in enumerate(plans):
            name = f'{res}#{i}' if len(carried) > 1 else res
            out = self.add(V(name, e, shape, **kw))
        return out

    def scalar_cond(self):
        """A scalar i1, uniform in the program: the program id's parity, or
        an argument compared with it."""
        c = self.rng.random()
        if c < 0.5:
            two = self.const('i32', (), self.choice([2, 3]))
            r = self.op(f'arith.remsi {self.p.name}, {two.name} : i32', 'i32', ())
            zero = self.const('i32', (), 0)
            return self.op(f'arith.cmpi eq, {r.name}, {zero.name} : i32', 'i1', ())
        k = self.scalar_arg('i32', self.rng.randint(0, self.P))
        return self.op(f'arith.cmpi slt, {self.p.name}, {k} : i32', 'i1', ())

    def gen_if(self, shape):
        cond = self.scalar_cond()
        if self.chance(0.3):
            # A branch that only stores.
            self.emit(f'scf.if {cond.name} {{')
            self.push_scope()
            try:
                v = self.gen_elementwise(shape)
            except Skip:
                v = self.pick(shape, lambda v: v.elem != 'ptr')
            self.store(v)
            self.pop_scope()
            self.emit('}')
            return None
        res = self.fresh('if')
        # The two branches compute a value of the same type each.
        lines_before = len(self.lines)
        self.emit('IF-PLACEHOLDER')
        self.push_scope()
        t = None
        for _ in range(10):
            try:
                t = self.gen_elementwise(shape)
                break
            except Skip:
                continue
        if t is None or t.valid or t.elem == 'ptr':
            t = self.pick(shape, lambda v: v.elem != 'ptr' and not v.valid)
        self.emit(f'scf.yield {t.name} : {tstr(t.elem, shape)}')
        self.pop_scope()
        self.emit('} else {')
        self.push_scope()
        f = None
        for _ in range(20):
            try:
                f = self.gen_elementwise(shape)
                if f.elem == t.elem and not f.valid:
                    break
                f = None
            except Skip:
                continue
        if f is None:
            f = self.pick(shape, lambda v: v.elem == t.elem and not v.valid)
        self.emit(f'scf.yield {f.name} : {tstr(t.elem, shape)}')
        self.pop_scope()
        self.emit('}')
        self.lines[lines_before] = '  ' * (self.depth + 1) + f'{res} = scf.if {cond.name} -> ({tstr(t.elem, shape)}) {{'
        kw = dict(lo=min(t.lo, f.lo), hi=max(t.hi, f.hi))
        if is_float(t.elem):
            kw.update(g=self.gmin(t.g, f.g), D=max(self.absD(t), self.absD(f)), zs=t.zs or f.zs,
                      raw=t.raw or f.raw)
        return self.add(V(res, t.elem, shape, **kw))

    # ---- atomics ------------------------------------------------------------------
    def gen_atomic(self, shape):
        T = nelems(shape)
        e = self.choice(['i32', 'f32'])
        mode = self.choice(['distinct', 'distinct', 'collide', 'scalar', 'cas'])
        sem = self.choice(['', '', ' sem = relaxed', ' sem = acquire', ' sem = release',
                           ' sem = acq_rel'])
        if mode == 'scalar':
            # One atomic per program on one counter: the final count is
            # order-independent, the old values are not.
            ptr, idx = self.buffer('acc', 'i32', 1, 'int 0 0', 'exact')
            k = self.const('i32', (), self.rng.randint(1, 5))
            self.op(f'tile.atomic_rmw add {ptr}, {k.name}{sem} : !tile.ptr<i32>', 'i32', ())
            return None
        if mode == 'cas':
            e = 'i32'
            fill, lo, hi, _ = self.fill_for(e)
            ptr, idx = self.buffer('acc', e, self.P * T, fill, 'exact')
            pp = self.pointers(ptr, e, shape, self.perm(shape), self.region_base(T))
            cmpv = self.pick(shape, lambda v: v.elem == e and not v.valid)
            val = self.pick(shape, lambda v: v.elem == e and not v.valid)
            old = self.op(f'tile.atomic_cas {pp.name}, {cmpv.name}, {val.name}{sem} : {ptrstr(e, shape)}',
                          e, shape, lo=lo, hi=hi)
            return self.add(old)
        kind = self.choice(['add', 'max', 'min', 'xchg'])
        if mode == 'collide':
            kind = self.choice(['add', 'max', 'min'])
        ok = (lambda v: v.elem == e and not v.valid and not v.raw and
              (is_int(e) or v.exact and not v.zs))
        val = self.pick(shape, ok)
        fill, lo, hi, g = self.fill_for(e)
        if mode == 'collide':
            # Lanes and programs share R addresses: add on integers, max/min,
            # or add on floats whose sums are all exact.
            R = self.choice([1, 2, 4, 8, 16])
            R = min(R, T)
            n = T * self.P // R  # values per address, at most
            if e == 'f32':
                if kind == 'add':
                    gg = self.gmin(val.g, g)
                    B = hi + n * val.B
                    if not (gg and B / gg <= 2.0 ** 24):
                        kind = 'max'
                if kind != 'add' and (val.zs or lo <= 0 <= hi or val.lo <= 0 <= val.hi):
                    check = 'exact0'
                else:
                    check = 'exact'
            else:
                check = 'exact'
            if e == 'f32' and fill.startswith('uniform') and kind == 'add':
                kind = 'max'
            ptr, idx = self.buffer('acc', e, R, fill, check)
            m = self.const('i32', shape, R - 1)
            local = self.op(f'arith.andi {self.perm(shape).name}, {m.name} : {tstr("i32", shape)}',
                            'i32', shape, lo=0, hi=R - 1)
            pp = self.pointers(ptr, e, shape, local)
            mask = ''
            if self.chance(0.3):
                mt = self.cond_tile(shape)
                mask = f' mask {mt.name}' if mt is not None else ''
            self.op(f'tile.atomic_rmw {kind} {pp.name}, {val.name}{mask}{sem} : {ptrstr(e, shape)}', e, shape)
            return None
        # Every lane of every program its own address: the old values are
        # the buffer's initial ones.
        check = 'exact'
        if e == 'f32' and kind in ('max', 'min') and (val.zs or lo <= 0 <= hi or val.lo <= 0 <= val.hi):
            check = 'exact0'
        if e == 'f32' and kind == 'add':
            # One add each: exactly rounded.
            if val.B + hi > LIMIT[e]:
                raise Skip
        ptr, idx = self.buffer('acc', e, self.P * T, fill, check)
        pp = self.pointers(ptr, e, shape, self.perm(shape), self.region_base(T))
        mask_v = None
        if self.chance(0.3):
            mask_v = self.cond_tile(shape)
        mask = f' mask {mask_v.name}' if mask_v is not None else ''
        old = self.op(f'tile.atomic_rmw {kind} {pp.name}, {val.name}{mask}{sem} : {ptrstr(e, shape)}',
                      e, shape, lo=lo, hi=hi, g=g if e == 'f32' else 0)
        if mask_v is not None:
            # Masked-off lanes' old values are undefined: select them away.
            z = self.const(e, shape, 0 if e == 'i32' else 0.0)
            old = self.op(f'arith.select {mask_v.name}, {old.name}, {z.name} : {tstr("i1", shape)}, {tstr(e, shape)}',
                          e, shape, lo=min(lo, 0), hi=max(hi, 0), g=g if e == 'f32' else 0)
        return self.add(old)

    # ---- dots ---------------------------------------------------------------------
    def gen_dot(self, shape):
        if len(shape) != 2 or shape[0] < 16 or shape[1] < 16:
            raise Skip
        M, N = shape
        # Warpgroup MMA on sm_90a wants a pipelined f16/bf16 dot with M a
        # multiple of 64 (4 warps), N >= 64, A K-contiguous and 128-byte K
        # steps (K = 64): make that likely where the shape allows it.
        wgmma = (self.f['dot_loop'] and M % 64 == 0 and N >= 64 and self.warps == 4
                 and self.chance(0.6))
        ab = self.choice(['f16', 'bf16'] if wgmma else ['f16', 'f16', 'bf16', 'i8', 'f32'])
        K = 64 if wgmma else self.choice([16, 32, 64] if ab != 'i8' else [32, 64])
        acc_e = 'i32' if ab == 'i8' else 'f32'
        precision = ''
        if ab == 'f32':
            precision = self.choice(['', ' precision = tf32', ' precision = ieee'])
        in_loop = wgmma or (self.f['dot_loop'] and self.chance(0.5))
        steps = self.choice([2, 3, 4] if wgmma else [1, 2, 3]) if in_loop else 1
        try:
            acc = self.pick(shape, lambda v: v.elem == acc_e and not v.valid and not v.raw
                            and (v.exact or acc_e == 'f32'))
        except Skip:
            acc = self.const(acc_e, shape, 0 if acc_e == 'i32' else 0.0)
        fa, alo, ahi, ag = self.fill_for(ab)
        fb, blo, bhi, bg = self.fill_for(ab)
        if ab == 'i8':
            fa, alo, ahi = 'int -100 100', -100, 100
            fb, blo, bhi = 'int -100 100', -100, 100
        aptr, _ = self.buffer('in', ab, self.P * M * K * steps, fa)
        bptr, _ = self.buffer('in', ab, self.P * K * N * steps, fb)
        # A row-major [M, K] per step (or column-major: K-contiguous or not),
        # B [K, N].
        a_t = not wgmma and self.chance(0.3)
        b_t = not wgmma and self.chance(0.3)
        Ba, Bb = max(abs(alo), abs(ahi)), max(abs(blo), abs(bhi))
        Kt = K * steps
        if ab == 'i8':
            kw = dict(lo=acc.lo - Kt * Ba * Bb, hi=acc.hi + Kt * Ba * Bb)
            lo_t, hi_t = int_range('i32')
            if kw['lo'] < lo_t or kw['hi'] > hi_t:
                kw = dict(lo=lo_t, hi=hi_t)
        else:
            g = ag * bg if ag and bg else 0.0
            if ab == 'f32' and precision != ' precision = ieee' and g:
                # tf32 keeps 11 bits: exact only if the inputs fit.
                if Ba / ag > 2 ** 11 or Bb / bg > 2 ** 11:
                    g = 0.0
            g = self.gmin(g, acc.g)
            lo, hi = acc.lo - Kt * Ba * Bb, acc.hi + Kt * Ba * Bb
            B = max(abs(lo), abs(hi))
            if B > LIMIT['f32']:
                raise Skip
            D = self.absD(acc)
            if not (g and B / g <= 2.0 ** 24 and g >= tiny('f32')):
                g = 0.0
                # Any order of the K products (rounded to tf32 if so).
                D += 2 * (Kt + 1) * unit_roundoff('f32') * (Kt * Ba * Bb + acc.B) + ulp(B, 'f32')
                if ab == 'f32' and precision != ' precision = ieee':
                    D += 2 * 2.0 ** -11 * Kt * Ba * Bb
            kw = dict(lo=lo, hi=hi, g=g, D=D, zs=acc.zs)
        a_shape, b_shape = (M, K), (K, N)

        def operand(ptr, e, shp, transposed, step_base):
            local = self.lin(shp, transposed=transposed)
            pp = self.pointers(ptr, e, shp, local, step_base)
            zero = self.const(e, shp, 0 if e == 'i8' else 0.0)
            if self.chance(0.3):
                # A masked K tail (other = 0, as the pipeliner needs).
                kidx = self.lin(shp, transposed=transposed)
                # (Whole 16-byte chunks for warpgroup MMA's cp.async.)
                lim = self.const('i32', shp, nelems(shp) - self.choice([8, 64] if wgmma else [1, 3, 8]))
                m = self.op(f'arith.cmpi slt, {kidx.name}, {lim.name} : {tstr("i32", shp)}', 'i1', shp)
                return self.op(f'tile.load {pp.name} mask {m.name} other {zero.name} : {ptrstr(e, shp)}', e, shp)
            return self.op(f'tile.load {pp.name} : {ptrstr(e, shp)}', e, shp)

        if not in_loop:
            a = operand(aptr, ab, a_shape, a_t, self.region_base(M * K))
            b = operand(bptr, ab, b_shape, b_t, self.region_base(K * N))
            return self.op(f'tile.dot {a.name}, {b.name}, {acc.name}{precision} : {tstr(ab, a_shape)}, {tstr(ab, b_shape)} -> {tstr(acc_e, shape)}',
                           acc_e, shape, **kw)
        c0 = self.const('i32', (), 0)
        c1 = self.const('i32', (), 1)
        cs = self.const('i32', (), steps)
        res, it, iv = self.fresh('dot'), self.fresh('acc'), self.fresh('k')
        self.emit(f'{res} = scf.for {iv} = {c0.name} to {cs.name} step {c1.name} iter_args({it} = {acc.name}) -> ({tstr(acc_e, shape)}) : i32 {{')
        self.push_scope()
        st = self.op(f'arith.muli {self.p.name}, {cs.name} : i32', 'i32', ())
        st = self.op(f'arith.addi {st.name}, {iv} : i32', 'i32', ())
        ka = self.const('i32', (), M * K)
        kb = self.const('i32', (), K * N)
        abase = self.op(f'arith.muli {st.name}, {ka.name} : i32', 'i32', ())
        bbase = self.op(f'arith.muli {st.name}, {kb.name} : i32', 'i32', ())
        a = operand(aptr, ab, a_shape, a_t, abase)
        b = operand(bptr, ab, b_shape, b_t, bbase)
        d = self.op(f'tile.dot {a.name}, {b.name}, {it}{precision} : {tstr(ab, a_shape)}, {tstr(ab, b_shape)} -> {tstr(acc_e, shape)}',
                    acc_e, shape)
        self.emit(f'scf.yield {d.name} : {tstr(acc_e, shape)}')
        self.pop_scope()
        self.emit('}')
        return V(res, acc_e, shape, **kw)

    # ---- the kernel ------------------------------------------------------------------
    def choose_shape(self):
        c = self.rng.random()
        if c < 0.35:
            return (self.choice([1, 2, 16, 32, 64, 128, 256, 512, 1024]),)
        if c < 0.55 and self.f['dot']:
            return (self.choice([16, 32, 64, 64]), self.choice([16, 32, 64, 128]))
        while True:
            m = self.choice([1, 2, 4, 8, 16, 32, 64, 128])
            n = self.choice([1, 2, 4, 8, 16, 32, 64, 128, 256])
            if 2 <= m * n <= 2048:
                return (m, n)

    def generate(self):
        shape = self.choose_shape()
        T = nelems(shape)
        self.warps = self.choice([1, 2, 4, 4, 8])
        if len(shape) == 2 and shape[0] == 64 and shape[1] >= 64 and self.chance(0.8):
            self.warps = 4  # warpgroup MMA wants whole warpgroups
        self.setup_grid()
        # Inputs of the main shape, of a few element types.
        types = ['f32', 'f32', 'f16', 'bf16', 'i32', 'i32', 'i8', 'i16']
        if self.f['f64']:
            types.append('f64')
        if self.f['i64']:
            types.append('i64')
        main_types = [self.choice(types) for _ in range(self.choice([1, 2, 2, 3]))]
        for e in main_types:
            self.add(self.load_tile(e, shape))
            if self.chance(0.4):
                self.add(self.load_tile(e, shape))
        steps = self.rng.randint(4, 16)
        extras = []
        if self.f['reduce']:
            extras += ['reduce'] * 3
        if self.f['loops']:
            extras += ['loop'] * 2
        if self.f['branches']:
            extras += ['if'] * 2
        if self.f['atomics']:
            extras += ['atomic'] * 2
        if self.f['dot'] and len(shape) == 2 and shape[0] >= 16 and shape[1] >= 16:
            extras += ['dot'] * 4
        extras += ['shape', 'load']
        stores = 0
        for i in range(steps):
            state = self.save()
            try:
                if extras and self.chance(0.35):
                    k = self.choice(extras)
                    if k == 'reduce':
                        r = self.gen_reduce(shape)
                        if self.chance(0.5):
                            self.store(r)
                            stores += 1
                        else:
                            try:
                                self.add(self.reduce_back(r, shape))
                            except Skip:
                                self.store(r)
                                stores += 1
                    elif k == 'loop':
                        self.gen_loop(shape)
                    elif k == 'if':
                        self.gen_if(shape)
                    elif k == 'atomic':
                        self.gen_atomic(shape)
                    elif k == 'dot':
                        self.add(self.gen_dot(shape))
                    elif k == 'shape':
                        self.add(self.gen_shape_roundtrip(shape))
                    else:
                        self.add(self.load_tile(self.choice(types), shape))
                else:
                    self.add(self.gen_elementwise(shape))
            except Skip:
                self.restore(state)
        # Store some values: the last ones, and a few others.
        candidates = [v for v in self.pool if v.elem != 'ptr' and v.shape]
        chosen = candidates[-2:] + self.rng.sample(candidates, min(len(candidates), self.choice([0, 1, 2])))
        seen = set()
        for v in chosen:
            if v.name in seen:
                continue
            seen.add(v.name)
            state = self.save()
            try:
                self.store(v)
            except Skip:
                self.restore(state)
        if self.outputs == 0:
            self.store(self.pool[-1])

    def text(self):
        gx, gy, gz = self.grid
        head = [f'// Generated by scripts/gen-tile-kernel.py --seed {self.seed} --count 1',
                f'// DIFFTEST: kernel k grid {gx} {gy} {gz} warps {self.warps} seed {self.seed}']
        head += [f'// DIFFTEST: {s}' for s in self.spec]
        params = ',\n    '.join(f'{n}: {t}{a}' for n, t, a in self.params)
        attrs = f' attributes {{tile.num_warps = {self.warps} : i32}}' if self.chance(0.5) else ''
        return ('\n'.join(head) + f'\nfunc.func @k(\n    {params}){attrs} {{\n' +
                '\n'.join(self.lines) + '\n  return\n}\n')


def generate(seed, features):
    # A case whose kernel came out too small is regenerated from a derived
    # seed (still a function of `seed`).
    for attempt in range(20):
        g = Gen(seed * 1000 + attempt if attempt else seed, features)
        g.seed = seed
        try:
            g.generate()
        except Skip:
            continue
        if g.outputs:
            return g.text()
    raise SystemExit(f'seed {seed}: no kernel generated')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--count', type=int, default=1)
    ap.add_argument('--out', help='directory for case-<seed>.mlir (default: stdout)')
    ap.add_argument('--enable', default='', help='features to turn on: ' + ','.join(FEATURES))
    ap.add_argument('--disable', default='', help='features to turn off')
    args = ap.parse_args()
    features = dict(FEATURES)
    for names, value in ((args.enable, True), (args.disable, False)):
        for n in filter(None, names.split(',')):
            if n not in features:
                raise SystemExit(f'unknown feature {n!r}; known: {", ".join(FEATURES)}')
            features[n] = value
    if args.out:
        os.makedirs(args.out, exist_ok=True)
    for s in range(args.seed, args.seed + args.count):
        text = generate(s, features)
        if args.out:
            with open(os.path.join(args.out, f'case-{s}.mlir'), 'w') as f:
                f.write(text)
        else:
            sys.stdout.write(text)


if __name__ == '__main__':
    main()
