#!/usr/bin/env python3
"""Benchmark of the Llama kernels (issue 5): llk vs Triton vs seed-style CUDA.

Runs ON THE GPU MACHINE (torch, triton, cupy, numpy, nvcc), from the repo root:

    python3 bench/llama/bench.py --ptx-dir DIR [--only kernel,...] [--quick]

For every kernel and shape: fresh random inputs, outputs poisoned (NaN, or
0xFF bytes for quantized outputs), each implementation run once and checked
against a float64 reference computed by torch on the CPU, then timed (median
per launch, CUDA events; see Timer). One Markdown table, then summary lines;
also written to $OUT/llama-bench[-graph][-dependent].md when $OUT is set, and
the rows as CSV (bench/common/benchlib.py) to --csv, by default
$OUT/llama[-graph][-dependent].csv. See README.md here.
"""
import argparse
import ctypes
import datetime
import hashlib
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path
from types import SimpleNamespace

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "common"))
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402
import torch  # noqa: E402

import benchlib  # noqa: E402
import llk_specs  # noqa: E402

GB = 1e9


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def P(t, off=0):
    """A device pointer argument for a CuPy launch."""
    return np.uint64(t.data_ptr() + off)


def cdiv(a, b):
    return (a + b - 1) // b


# ===================================================================== timing
class Timer:
    """Median time per launch. Each sample is one batch of k back-to-back
    launches between two CUDA events, divided by k; the batch is queued behind
    a GPU spin (torch.cuda._sleep) long enough for the host to enqueue all k
    launches first, so host launch overhead (Python, Triton's launcher) is not
    timed, only the GPU's. Inputs that would stay in L2 are rotated among
    several copies (the callables in `fns`, used round-robin).

    With graph=True the k launches are captured once into a CUDA graph and
    each sample is one replay of it: how the kernels run in a decode step
    (llk-decode-block replays the block as a graph), without the stream's
    per-launch front-end cost between back-to-back kernels."""

    def __init__(self, batches, graph=False):
        self.batches = batches
        self.graph = graph
        self.s = torch.cuda.Event(enable_timing=True)
        self.e = torch.cuda.Event(enable_timing=True)
        self.has_sleep = hasattr(torch.cuda, "_sleep")
        self.cyc_per_us = 1500.0
        self.flush = None
        if self.has_sleep:
            self.cyc_per_us = benchlib.spin_cycles_per_us()
        else:  # fallback: keep the GPU busy with a large memset
            self.flush = torch.empty(64 * 2**20, dtype=torch.int32, device="cuda")

    def _batch(self, fns, k, sleep_us):
        n = len(fns)
        if self.has_sleep:
            torch.cuda._sleep(int(sleep_us * self.cyc_per_us))
        else:
            self.flush.zero_()
        self.s.record()
        h0 = time.perf_counter()
        for i in range(k):
            fns[i % n]()
        self.e.record()
        host_us = (time.perf_counter() - h0) * 1e6
        self.e.synchronize()
        return self.s.elapsed_time(self.e) * 1000.0 / k, host_us

    def _graph_time(self, fns, k):
        n = len(fns)
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            for i in range(k):
                fns[i % n]()
        g.replay()  # upload
        torch.cuda.synchronize()
        samples = []
        for _ in range(self.batches):
            self.s.record()
            g.replay()
            self.e.record()
            self.e.synchronize()
            samples.append(self.s.elapsed_time(self.e) * 1000.0 / k)
        del g
        return SimpleNamespace(median=statistics.median(samples), lo=min(samples), hi=max(samples),
                               k=k, sets=n)

    def time(self, fns):
        n = len(fns)
        for f in fns:  # warm-up: module load, JIT, first-touch
            f()
        torch.cuda.synchronize()
        t_est, host = self._batch(fns, n, 200.0 * n)
        host_per = host / n
        k = max(n, min(1000, math.ceil(2000.0 / max(t_est, 0.5))))  # ~2 ms of GPU work
        k = cdiv(k, n) * n
        if self.graph:
            return self._graph_time(fns, k)
        sleep_us = 1.5 * host_per * k + 100.0
        samples, retries = [], 0
        while len(samples) < self.batches:
            t, host = self._batch(fns, k, sleep_us)
            if host > 0.8 * sleep_us and retries < 6:  # host did not stay ahead: longer spin
                sleep_us = 2.0 * host + 100.0
                retries += 1
                continue
            samples.append(t)
        return SimpleNamespace(median=statistics.median(samples), lo=min(samples), hi=max(samples),
                               k=k, sets=n)


def copy_bandwidth(timer):
    """Bytes a second of a 256 MiB device-to-device torch copy (read +
    write), the median of `timer`: what the floors are computed from."""
    n_copy = 64 * 2**20  # f32
    src = torch.randn(n_copy, device="cuda")
    dst = torch.empty_like(src)
    tc = timer.time([lambda: dst.copy_(src)])
    copy_bw = 2 * n_copy * 4 / (tc.median * 1e-6)
    del src, dst
    torch.cuda.empty_cache()
    log(f"copy bandwidth: {copy_bw / GB:.1f} GB/s ({tc.median:.2f} us per 256 MiB copy)")
    return copy_bw


# ======================================================== loaders (CuPy)
class CupyLauncher:
    """Launches on the torch current stream: through CuPy, or, for a
    dependent launch (programmatic dependent launch: the kernel may start
    while the one before it in the stream runs, and waits for it in
    tile.grid_dependency_wait), through the driver's cuLaunchKernelEx with
    CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION, as the llk
    runtime's LaunchOptions::dependentLaunch does."""

    class _Attribute(ctypes.Structure):  # CUlaunchAttribute: id, pad to 8, 64-byte value
        _fields_ = [("id", ctypes.c_int), ("pad", ctypes.c_char * 4), ("value", ctypes.c_char * 64)]

    class _Config(ctypes.Structure):  # CUlaunchConfig
        _fields_ = [("grid", ctypes.c_uint * 3), ("block", ctypes.c_uint * 3), ("shared", ctypes.c_uint),
                    ("stream", ctypes.c_void_p), ("attrs", ctypes.c_void_p), ("num_attrs", ctypes.c_uint)]

    PROGRAMMATIC_STREAM_SERIALIZATION = 6

    def __init__(self, cupy):
        self.cupy = cupy
        self._libcuda = None

    def launch(self, fn, grid, block, args, shared=0):
        sp = torch.cuda.current_stream().cuda_stream
        if sp == 0:
            fn(grid, block, tuple(args), shared_mem=shared)
        else:
            with self.cupy.cuda.ExternalStream(sp):
                fn(grid, block, tuple(args), shared_mem=shared)

    def bind(self, fn, grid, block, args, shared=0, dependent=False):
        """A callable that launches fn(args) on the stream current when it is
        called; a dependent launch's driver arguments are packed once, here."""
        if not dependent:
            args = tuple(args)
            return lambda: self.launch(fn, grid, block, args, shared)
        if self._libcuda is None:
            self._libcuda = ctypes.CDLL("libcuda.so.1")
            self._libcuda.cuLaunchKernelEx.argtypes = [ctypes.c_void_p] * 4
        attr = self._Attribute(id=self.PROGRAMMATIC_STREAM_SERIALIZATION,
                               value=(1).to_bytes(4, "little").ljust(64, b"\0"))
        cfg = self._Config(grid=(ctypes.c_uint * 3)(*grid), block=(ctypes.c_uint * 3)(*block),
                           shared=shared, attrs=ctypes.addressof(attr), num_attrs=1)
        values = [ctypes.create_string_buffer(np.asarray(v).tobytes()) for v in args]
        params = (ctypes.c_void_p * len(values))(*[ctypes.addressof(v) for v in values])
        function = ctypes.c_void_p(getattr(fn, "kernel", fn).ptr)  # a RawKernel's CUfunction

        def run():
            cfg.stream = torch.cuda.current_stream().cuda_stream
            rc = self._libcuda.cuLaunchKernelEx(ctypes.byref(cfg), function, params, None)
            if rc != 0:
                name = ctypes.c_char_p()
                self._libcuda.cuGetErrorName(rc, ctypes.byref(name))
                raise RuntimeError(f"cuLaunchKernelEx (dependent launch) failed: "
                                   f"{(name.value or b'CUresult').decode()} ({rc})")
        run.keep = (attr, values)  # the config points into these
        return run


class SeedModule:
    """bench/llama/seed_kernels.cu, built with nvcc to a cubin (cached by
    content hash), else with NVRTC through CuPy."""

    def __init__(self, cupy, arch):
        src_path = HERE / "seed_kernels.cu"
        src = src_path.read_text()
        self.cupy = cupy
        self.how = None
        nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
        err = None
        if os.path.exists(nvcc):
            h = hashlib.sha256((src + arch).encode()).hexdigest()[:16]
            cubin = Path(tempfile.gettempdir()) / f"llk_seed_{h}.cubin"
            try:
                if not cubin.exists():
                    tmp = cubin.with_suffix(f".{os.getpid()}.tmp")
                    subprocess.run([nvcc, f"-arch={arch}", "-O3", "-cubin", "-o", str(tmp), str(src_path)],
                                   check=True, capture_output=True, text=True)
                    os.replace(tmp, cubin)
                self.mod = cupy.RawModule(path=str(cubin))
                ver = subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout.strip().splitlines()
                self.how = f"nvcc -arch={arch} -O3 -cubin ({nvcc}; {ver[-1] if ver else '?'})"
            except subprocess.CalledProcessError as e:
                err = e.stderr
                log("nvcc failed, falling back to NVRTC:\n" + (e.stderr or ""))
        if self.how is None:
            self.mod = cupy.RawModule(code=src, options=(f"-arch={arch}", "-std=c++17"))
            self.how = f"NVRTC via cupy.RawModule (-arch={arch})" + (" after an nvcc failure" if err else "")
        self.fns = {}

    def __getitem__(self, name):
        if name not in self.fns:
            self.fns[name] = self.mod.get_function(name)
        return self.fns[name]


class LlkMissing(Exception):
    pass


class LlkModules:
    """PTX from llkc, loaded with cupy.RawModule(path=...) (cuModuleLoad JITs
    PTX), with the launch metadata from <ptx>.json (llkc's format 1), or, if
    that is absent, from the PTX text."""

    def __init__(self, cupy, ptx_dir):
        self.cupy = cupy
        self.dir = Path(ptx_dir) if ptx_dir else None
        self.cache = {}

    @staticmethod
    def _meta_from_ptx(text):
        kernels = []
        entries = list(re.finditer(r"\.entry\s+([A-Za-z_$][\w$]*)\s*\((.*?)\)(.*?)\{", text, re.S))
        for i, m in enumerate(entries):
            name, params, attrs = m.group(1), m.group(2), m.group(3)
            body = text[m.end():entries[i + 1].start() if i + 1 < len(entries) else len(text)]
            ps = []
            for p in re.finditer(r"\.param\s+\.(\w+)", params):
                w = p.group(1)
                ps.append({"kind": "pointer_or_scalar", "type": w})
            nt = re.search(r"\.maxntid\s+(\d+)(?:\s*,\s*(\d+))?(?:\s*,\s*(\d+))?", attrs)
            threads = 1
            if nt:
                for g in nt.groups():
                    threads *= int(g) if g else 1
            kernels.append({"name": name, "params": ps, "num_warps": threads // 32 if nt else None,
                            "shared_bytes": None, "_ptx_params": True,
                            "grid_dependency_wait": "griddepcontrol.wait" in body})
        return {"format": "ptx", "kernels": kernels}

    def get(self, ptx, entry):
        if self.dir is None:
            raise LlkMissing("no --ptx-dir")
        path = self.dir / ptx
        if not path.exists():
            raise LlkMissing(f"{ptx} not in {self.dir}")
        key = (str(path), entry)
        if key in self.cache:
            return self.cache[key]
        meta_path = Path(str(path) + ".json")
        if meta_path.exists():
            meta = json.loads(meta_path.read_text())
            if meta.get("format") != 2:
                raise RuntimeError(f"{meta_path}: metadata format {meta.get('format')} (expected 2)")
        else:
            meta = self._meta_from_ptx(path.read_text())
        ks = meta["kernels"]
        if entry is None:
            if len(ks) != 1:
                raise RuntimeError(f"{ptx}: {len(ks)} kernels, the spec must name the entry")
            k = ks[0]
        else:
            cand = [k for k in ks if k["name"] == entry]
            if not cand:
                raise RuntimeError(f"{ptx}: no kernel {entry} (has {[k['name'] for k in ks]})")
            k = cand[0]
        if not k.get("num_warps"):
            raise RuntimeError(f"{ptx}: block size unknown (no .json and no .maxntid)")
        mod = self.cupy.RawModule(path=str(path))
        fn = mod.get_function(k["name"])
        res = (fn, k, meta)
        self.cache[key] = (mod,) + res
        return self.cache[key]

    @staticmethod
    def check_args(k, args, ptx):
        ps = k["params"]
        if len(ps) != len(args):
            raise RuntimeError(f"{ptx}:{k['name']}: {len(args)} arguments for {len(ps)} parameters")
        for i, (p, a) in enumerate(zip(ps, args)):
            if not isinstance(a, llk_specs.Arg):
                raise RuntimeError(f"{ptx}: argument {i} is not built with ptr()/i32()/f32()/...")
            if k.get("_ptx_params"):  # PTX only: check widths
                width = {"u64": 8, "b64": 8, "s64": 8, "u32": 4, "b32": 4, "s32": 4, "f32": 4,
                         "b16": 2, "u16": 2, "f16": 2}.get(p["type"])
                if width is not None and width != a.value.nbytes:
                    raise RuntimeError(f"{ptx}: argument {i} is {a.value.nbytes} bytes, .param .{p['type']}")
                continue
            if p["kind"] != a.kind:
                raise RuntimeError(f"{ptx}: argument {i} is a {a.kind}, the kernel takes a {p['kind']} {p['type']}")
            if a.kind == "scalar" and p["type"] != a.type:
                raise RuntimeError(f"{ptx}: argument {i} is {a.type}, the kernel takes {p['type']}")
            if a.kind == "pointer" and p["type"] != a.type:
                log(f"  note: {ptx} argument {i}: pointer to {a.type} passed for !tile.ptr<{p['type']}>")
            # The contract ({tile.divisibility}, and a pointer's element
            # alignment), as the runtime checks it: broken, the GPU faults.
            need = p.get("divisibility", 1)
            if a.kind == "pointer":
                need = max(need, _ELEMENT_BYTES.get(p["type"], 1))
            if need > 1 and int(a.value) % need:
                raise RuntimeError(f"{ptx}: argument {i} is {int(a.value):#x}, not a multiple of "
                                   f"{need} (its contract)")


_ELEMENT_BYTES = {"i8": 1, "i16": 2, "i32": 4, "i64": 8, "f16": 2, "bf16": 2, "f32": 4,
                  "f64": 8, "f8E4M3FN": 1, "f8E5M2": 1}


class LlkKernels:
    """The llk kernels of --ptx-dir through the llk package: llkc's PTX and
    its metadata loaded with llk.load (cuModuleLoad, as CuPy's RawModule
    does), the arguments checked against the metadata and converted once
    (Kernel.bind), each launch on torch's current stream (a dependent launch
    for a kernel that waits in tile.grid_dependency_wait, when asked)."""

    def __init__(self, ptx_dir):
        import llk
        self.llk = llk
        self.dir = Path(ptx_dir) if ptx_dir else None
        self.cache = {}

    def kernel(self, ptx, entry=None):
        if self.dir is None:
            raise LlkMissing("no --ptx-dir")
        path = self.dir / ptx
        if not path.exists():
            raise LlkMissing(f"{ptx} not in {self.dir}")
        if (ptx, entry) not in self.cache:
            self.cache[(ptx, entry)] = self.llk.load(path, kernel=entry)
        return self.cache[(ptx, entry)]

    def bind(self, ptx, entry, grid, args, dependent=False):
        """A callable that launches the kernel of `ptx` on llk_specs args."""
        k = self.kernel(ptx, entry)
        launch = k.bind(grid, *[a.llk_value() for a in args],
                        dependent=dependent and k.grid_dependency_wait)
        return lambda: launch(torch.cuda.current_stream().cuda_stream)


# ============================================================ formats (torch)
def llk_buffer(t):
    """A copy of `t` in storage zero-padded to whole 16-byte granules, for
    llk kernels: a kernel may read the rest of the 16-byte granule holding
    the last byte it accesses (the metadata's read_overrun_bytes; the buffer
    contract of docs/runtime.md), as the runtime's own allocations allow.
    Every q8_0 / q8_1 tensor an llk mat-vec reads is made by this (a clone
    would drop the padding)."""
    n = t.numel() * t.element_size()
    storage = torch.zeros(-(-n // 16) * 16, dtype=torch.uint8, device=t.device)
    storage[:n].copy_(t.contiguous().view(-1).view(torch.uint8))
    return storage[:n].view(t.dtype).view(t.shape)


def pack_q8_0(d16, qs):
    """d16 [N, nb] f16, qs [N, nb, 32] int8 -> uint8 [N, nb*34]."""
    N, nb = d16.shape
    db = d16.contiguous().unsqueeze(-1).view(torch.uint8)  # [N, nb, 2], little-endian
    qb = qs.contiguous().view(torch.uint8)
    return torch.cat([db, qb], dim=-1).reshape(N, nb * 34).contiguous()


def unpack_q8_0(w, nb):
    b = w.reshape(-1, nb, 34)
    d = b[..., 0:2].contiguous().view(torch.float16)[..., 0]
    qs = b[..., 2:34].contiguous().view(torch.int8)
    return d, qs


def deq_q8_0(w, N, K):
    """q8_0 bytes of N rows of K -> float64 [N, K] on the host."""
    d, qs = unpack_q8_0(w.cpu(), K // 32)
    return (d.double()[..., None] * qs.double()).reshape(N, K)


def pack_q8_1(d16, s16, qs):
    """d16, s16 [..., nb] f16; qs [..., nb, 32] int8 -> uint8 [..., nb*36]."""
    lead = d16.shape[:-1]
    nb = d16.shape[-1]
    db = d16.contiguous().unsqueeze(-1).view(torch.uint8)
    sb = s16.contiguous().unsqueeze(-1).view(torch.uint8)
    qb = qs.contiguous().view(torch.uint8)
    return torch.cat([db, sb, qb], dim=-1).reshape(*lead, nb * 36).contiguous()


def unpack_q8_1(y, nb):
    b = y.reshape(-1, nb, 36)
    d = b[..., 0:2].contiguous().view(torch.float16)[..., 0]
    s = b[..., 2:4].contiguous().view(torch.float16)[..., 0]
    qs = b[..., 4:36].contiguous().view(torch.int8)
    return d, s, qs


# Device helpers of the hand-written CUDA probes (probes/mmvq_*_probe.py):
# f16 bits to f32, dp4a, 16-byte loads and their realignment.
PROBE_CUDA_PRELUDE = r'''
typedef unsigned short half_t;
__device__ __forceinline__ float h2f(half_t h){float f;asm("cvt.f32.f16 %0, %1;":"=f"(f):"h"(h));return f;}
__device__ __forceinline__ int dp4a(int a,int b,int c){int d;asm("dp4a.s32.s32 %0, %1, %2, %3;":"=r"(d):"r"(a),"r"(b),"r"(c));return d;}
// Word q + i of w, for q in 0..3, by selects (no local memory).
__device__ __forceinline__ unsigned pick(const unsigned* w, unsigned q, int i){
  unsigned a = w[i], b = w[i + 1], c = w[i + 2], d = w[i + 3];
  return q == 0 ? a : q == 1 ? b : q == 2 ? c : d;
}
// The 16 bytes at addr (2-byte aligned) as 4 words, out of the aligned
// 16-byte windows v0, v1 that hold their first and last byte (as llk lowers
// a run of 34-byte q8_0 blocks' quants).
__device__ __forceinline__ void realign(uint4 v0, uint4 v1, unsigned addr, unsigned out[4]){
  unsigned w[8] = {v0.x, v0.y, v0.z, v0.w, v1.x, v1.y, v1.z, v1.w};
  unsigned off = addr & 15, q = off >> 2, sh = (off & 3) * 8;
  #pragma unroll
  for (int i = 0; i < 4; ++i) out[i] = __funnelshift_r(pick(w, q, i), pick(w, q, i + 1), sh);
}
__device__ __forceinline__ uint4 ldg16(const char* p){
  uint4 v; asm volatile("ld.global.L1::evict_first.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p)); return v;
}
'''


def probe_runner(timer, weights, ref, y, rows):
    """For the mat-vec probes: run(name, launch) poisons y, checks
    launch(weights) against the float64 `ref` (relative error), then times
    launch(copy) over copies of the weights that rotate them out of L2, and
    appends (name, median us, error) to `rows`."""
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    ref = ref.cpu()  # rel_err compares on the host
    flat = weights.view(-1)
    sets = [flat] + [llk_buffer(flat) for _ in range(cdiv(4 * l2, flat.numel()) - 1)]

    def run(name, launch):
        y.fill_(float("nan"))
        launch(sets[0])
        torch.cuda.synchronize()
        err = rel_err(y, ref)[0]
        t = timer.time([(lambda s=s: launch(s)) for s in sets])
        rows.append((name, t.median, err))
    return run


def matvec_probe_table(cupy, ptx_dir, variants):
    """For the hand-written mat-vec probes: graph then stream timing of each
    variant beside the seed-style mmvq and the kept llk PTX (PTX_DIR, if
    given), checked against float64, at the three Llama-2 7B shapes.
    `variants` maps "mmvq" (q8_1 vector) and "linear" (f32 vector) to
    [(name, kernel, programs(N)[, threads[, dynamic shared bytes]])]; a
    kernel takes (y, w, x, n_rows, n_cols) and runs `threads` (128 unless
    given) a program."""
    kept = {}  # kind -> the kept llk kernel and its rows a program
    if ptx_dir:
        kernels = LlkKernels(ptx_dir)
        for kind, name in (("mmvq", "mul_mat_vec_q"), ("linear", "linear_q8_0")):
            kept[kind] = (kernels.kernel(f"{name}.ptx", name), llk_specs.MATVEC_ROWS[name])
    seed = SeedModule(cupy, "sm_90")["mul_mat_vec_q8_0_q8_1"]
    L = CupyLauncher(cupy)
    P = lambda t: np.uint64(t.data_ptr())
    shapes = ((4096, 4096), (11008, 4096), (4096, 11008))
    operands = {}  # (kind, N, K) -> weights, vector, float64 reference; both timings use them
    for N, K in shapes:
        wb, xq, ref_q = random_mmvq_operands(N, K, N + K)
        operands[("mmvq", N, K)] = (wb, xq, ref_q)
        g = torch.Generator(device="cuda")  # an f32 vector against the same weights
        g.manual_seed(K)
        xf = torch.randn(K, device="cuda", generator=g)
        operands[("linear", N, K)] = (wb, xf, deq_q8_0(wb, N, K) @ xf.double().cpu())
    for graph in (True, False):
        timer = Timer(11, graph=graph)
        copy_bw = copy_bandwidth(timer)
        print(f"== {'graph' if graph else 'stream'} timing, copy {copy_bw / GB:.1f} GB/s")
        for kind in (k for k in ("mmvq", "linear") if k in variants):
            for N, K in shapes:
                nb = K // 32
                wb, xv, ref = operands[(kind, N, K)]
                xbytes = nb * 36 if kind == "mmvq" else K * 4
                floor = (N * nb * 34 + xbytes + N * 4) / copy_bw * 1e6
                y = torch.empty(N, device="cuda")
                rows = []
                run = probe_runner(timer, wb, ref, y, rows)
                args = lambda s: [P(y), P(s), P(xv), np.int32(N), np.int32(K)]
                if kind == "mmvq":
                    run("seed", lambda s: L.launch(seed, (1, N, 1), (32, 1, 1),
                                                   [P(s), P(xv), P(y), np.int32(K), np.int32(N)]))
                if kind in kept:
                    k, rows_a_program = kept[kind]
                    run("llk kept", lambda s: k[cdiv(N, rows_a_program)](
                        y, s, xv, N, K, stream=torch.cuda.current_stream().cuda_stream))
                for name, fn, programs, *launch in variants[kind]:
                    threads, shared = (launch + [128, 0][len(launch):])[:2]
                    if shared:
                        fn.max_dynamic_shared_size_bytes = shared
                    run(name, lambda s, fn=fn, programs=programs, t=threads, sh=shared:
                        L.launch(fn, (programs(N),), (t,), args(s), sh))
                print(f"[{kind} {N}x{K}] floor {floor:.2f} us"
                      + (f"; 1.5x the seed needs {rows[0][1] / 1.5:.2f} us" if kind == "mmvq" else ""))
                for name, t, err in rows:
                    ok = "PASS" if err < 1e-4 else "FAIL"
                    print(f"  {name:12s} {t:7.2f} us {100 * floor / t:5.1f}% of floor  "
                          f"{rows[0][1] / t:4.2f}x {rows[0][0]}  err {err:.1e} {ok}")


def random_mmvq_operands(N, K, seed):
    """Random q8_0 weights [N, K] and a q8_1 vector [K] on the GPU, with the
    float64 mul_mat_vec_q of them (the probes' inputs): (w uint8 [N, K/32*34],
    xq uint8 [K/32*36], ref float64 [N] on the GPU)."""
    nb = K // 32
    g = torch.Generator(device="cuda")
    g.manual_seed(seed)
    qs = torch.randint(-127, 128, (N, nb, 32), dtype=torch.int8, device="cuda", generator=g)
    d = (torch.rand(N, nb, device="cuda", generator=g) * 0.01).half()
    xq_q = torch.randint(-127, 128, (nb, 32), dtype=torch.int8, device="cuda", generator=g)
    xd = (torch.rand(nb, device="cuda", generator=g) * 0.02).half()
    w = llk_buffer(pack_q8_0(d, qs))
    xq = llk_buffer(pack_q8_1(xd, torch.zeros_like(xd), xq_q))
    ref = ((qs.double() * xq_q.double()[None]).sum(-1) * d.double() * xd.double()[None]).sum(-1)
    return w, xq, ref


def quantize_q8_1_ref(x64, Kp):
    """float64 reference of quantize_q8_1 for rows of x64 [R, K]: d = amax/127,
    q = round-half-away(x/d) (0 when amax = 0), s = sum; padded with zeros."""
    R, K = x64.shape
    xp = torch.zeros(R, Kp, dtype=torch.float64)
    xp[:, :K] = x64
    xb = xp.view(R, Kp // 32, 32)
    amax = xb.abs().amax(-1)
    d = amax / 127.0
    v = xb / torch.where(d == 0, torch.ones_like(d), d)[..., None]
    q = torch.sign(v) * torch.floor(v.abs() + 0.5)
    q = torch.where(amax[..., None] == 0, torch.zeros_like(q), q)
    return d, xb.sum(-1), q


# ================================================================ checking
def rel_err(out, ref):
    o = out.detach().to("cpu", torch.float64).reshape(-1)
    r = ref.to(torch.float64).reshape(-1)
    bad = (~torch.isfinite(o)).sum().item()
    if bad:
        return float("nan"), f"{bad} non-finite"
    rn = r.norm().item()
    return (o - r).norm().item() / (rn if rn > 0 else 1.0), ""


# ================================================================== cases
class Case:
    """kernel, label, shape (dict), inputs (names), outputs {name: (shape, dtype)},
    make(gen) -> inputs, ref(inputs_cpu) -> ref, check(outs_cpu, ref) ->
    (err, note), tol, bytes, triton(t), seed(t)."""

    def __init__(self, **kw):
        self.__dict__.update(kw)


def _randn(gen, *shape, scale=1.0, dtype=torch.float32):
    return (torch.randn(*shape, generator=gen, device="cuda", dtype=torch.float32) * scale).to(dtype)


def build_cases(a, S, L, tk):
    """S: SeedModule, L: CupyLauncher, tk: triton_kernels."""
    big_rows = 1024 if a.quick else 16384
    H = 4096
    cases = []

    def simple_check(outs, ref):
        return rel_err(outs["out"], ref)

    # --------------------------------------------------------- rms_norm
    def rms_case(R, C):
        eps = 1e-5
        sh = dict(R=R, C=C, eps=eps)

        def make(g):
            return dict(x=_randn(g, R, C), gamma=1.0 + 0.1 * _randn(g, C))

        def ref(i):
            x = i["x"].double()
            return x * torch.rsqrt((x * x).mean(1, keepdim=True) + eps) * i["gamma"].double()

        return Case(kernel="rms_norm", label=f"{R}×{C}", shape=sh, inputs=["x", "gamma"],
                    outputs={"out": ((R, C), torch.float32)}, make=make, ref=ref, check=simple_check,
                    tol=1e-5, bytes=2 * R * C * 4 + C * 4,
                    triton=lambda t: tk.run_rms_norm(t["out"], t["x"], t["gamma"], eps),
                    seed=lambda t: L.launch(S["rms_norm_f32"], (R, 1, 1), (32, 1, 1),
                                            [P(t["x"]), P(t["gamma"]), P(t["out"]), np.int32(C), np.float32(eps)]),
                    seed_note="one warp per row; gamma fused")

    cases.append(rms_case(big_rows, H))

    # ---------------------------------------------------------- softmax
    def softmax_case(R, C):
        sh = dict(R=R, C=C)
        return Case(kernel="softmax", label=f"{R}×{C}", shape=sh, inputs=["x"],
                    outputs={"out": ((R, C), torch.float32)},
                    make=lambda g: dict(x=_randn(g, R, C, scale=2.0)),
                    ref=lambda i: torch.softmax(i["x"].double(), dim=1), check=simple_check,
                    tol=1e-5, bytes=2 * R * C * 4,
                    triton=lambda t: tk.run_softmax(t["out"], t["x"]),
                    seed=lambda t: L.launch(S["soft_max_f32"], (1, R, 1), (32, 1, 1),
                                            [P(t["x"]), P(t["out"]), np.int32(C)]),
                    seed_note="one warp per row; max pass added")

    cases.append(softmax_case(big_rows, H))

    # ----------------------------------------------------------- swiglu
    def swiglu_case(R, C):
        n = R * C
        sh = dict(n=n, R=R, C=C)

        def ref(i):
            g, u = i["gate"].double(), i["up"].double()
            return g / (1.0 + torch.exp(-g)) * u

        return Case(kernel="swiglu", label=f"{R}×{C}", shape=sh, inputs=["gate", "up"],
                    outputs={"out": ((n,), torch.float32)},
                    make=lambda g: dict(gate=_randn(g, n, scale=2.0), up=_randn(g, n)),
                    ref=ref, check=simple_check, tol=1e-5, bytes=3 * n * 4,
                    triton=lambda t: tk.run_swiglu(t["out"], t["gate"], t["up"]),
                    seed=lambda t: L.launch(S["swiglu_f32"], (cdiv(n, 256), 1, 1), (256, 1, 1),
                                            [P(t["gate"]), P(t["up"]), P(t["out"]), np.int64(n)]),
                    seed_note="silu_f32 with the mul fused, 256/block")

    cases.append(swiglu_case(big_rows, H))

    # -------------------------------------------------------------- add
    def add_case(R, C):
        n = R * C
        sh = dict(n=n, ky=n, R=R, C=C)
        return Case(kernel="add", label=f"{R}×{C}", shape=sh, inputs=["x", "y"],
                    outputs={"out": ((n,), torch.float32)},
                    make=lambda g: dict(x=_randn(g, n), y=_randn(g, n)),
                    ref=lambda i: i["x"].double() + i["y"].double(), check=simple_check,
                    tol=1e-5, bytes=3 * n * 4,
                    triton=lambda t: tk.run_add(t["out"], t["x"], t["y"]),
                    seed=lambda t: L.launch(S["add_f32"], (cdiv(n, 256), 1, 1), (256, 1, 1),
                                            [P(t["x"]), P(t["y"]), P(t["out"]), np.int64(n), np.int64(n)]),
                    seed_note="add_f32, ky = n, 256/block")

    cases.append(add_case(big_rows, H))

    # ------------------------------------------------------------- rope
    def rope_case(T, NH, D, n_past):
        rows = T * NH
        base = 10000.0
        theta_scale = base ** (-2.0 / D)
        sh = dict(T=T, NH=NH, D=D, n_past=n_past, base=base, theta_scale=theta_scale)
        max_pos = n_past + T - 1

        def ref(i):
            x = i["x"].double().view(T, NH, D // 2, 2)
            pos = (n_past + torch.arange(T, dtype=torch.float64)).view(T, 1, 1)
            k = torch.arange(D // 2, dtype=torch.float64).view(1, 1, D // 2)
            theta = pos * base ** (-2.0 * k / D)
            c, s = torch.cos(theta), torch.sin(theta)
            x0, x1 = x[..., 0], x[..., 1]
            return torch.stack([x0 * c - x1 * s, x0 * s + x1 * c], dim=-1).reshape(rows, D)

        gy = cdiv(rows, 65535)
        while rows % gy:
            gy += 1
        gz, gy = gy, rows // gy  # grid (.., rows/gz, gz): row = y + gy*z
        return Case(kernel="rope", label=f"{T}·{NH}×{D} pos<{max_pos + 1}", shape=sh, inputs=["x"],
                    outputs={"out": ((rows, D), torch.float32)},
                    make=lambda g: dict(x=_randn(g, rows, D)), ref=ref, check=simple_check,
                    # f32 theta = pos*theta_scale^k carries |theta|*2^-24 of rounding: the
                    # tolerance grows with the largest position.
                    tol=1e-5 + 3e-7 * max_pos, bytes=2 * rows * D * 4,
                    triton=lambda t: tk.run_rope(t["out"], t["x"], NH, n_past, base),
                    seed=lambda t: L.launch(S["rope_f32"], (cdiv(D, 512), gy, gz), (512, 1, 1),
                                            [P(t["x"]), P(t["out"]), np.int32(D), np.float32(n_past),
                                             np.float32(1.0), np.int32(NH), np.float32(theta_scale)]),
                    seed_note="seed launch: 512 threads/row, 64 active")

    cases.append(rope_case(big_rows, 32, 128, 0))

    # -------------------------------------------------------------- cpy
    def cpy_case(which, T, E, C, n_past):
        # src: [T][E] f32 (E = NH*D) contiguous. cpy_k: into K cache [C][E] f16 at row
        # n_past; cpy_v: transposed into V cache [E][C] f16 at column n_past.
        if which == "k":
            p = dict(ne=T * E, ne00=E, ne01=T, nb00=4, nb01=E * 4, nb02=T * E * 4,
                     ne10=E, ne11=T, nb10=2, nb11=E * 2, nb12=T * E * 2, dst_offset_bytes=n_past * E * 2)
            dshape = (C, E)
        else:
            p = dict(ne=T * E, ne00=T, ne01=E, nb00=E * 4, nb01=4, nb02=T * E * 4,
                     ne10=T, ne11=E, nb10=2, nb11=C * 2, nb12=C * E * 2, dst_offset_bytes=n_past * 2)
            dshape = (E, C)
        sh = dict(p, T=T, C=C, NH=E // 128, D=128)
        names = ["ne", "ne00", "ne01", "nb00", "nb01", "nb02", "ne10", "ne11", "nb10", "nb11", "nb12"]
        assert n_past == 0 and T == C  # the whole cache is written and checked

        def ref(i):
            s = i["src"].double()
            return s if which == "k" else s.t()

        def check(outs, r):
            return rel_err(outs["dst"], r)

        return Case(kernel=f"cpy_{which}", label=f"{T}×{E} → {'K' if which == 'k' else 'V (transposed)'} f16",
                    shape=sh, inputs=["src"], outputs={"dst": (dshape, torch.float16)},
                    make=lambda g: dict(src=_randn(g, T, E)), ref=ref, check=check,
                    tol=1e-3, bytes=T * E * (4 + 2),
                    triton=lambda t: tk.run_cpy_f32_f16(t["dst"], t["src"], p),
                    seed=lambda t: L.launch(S["cpy_f32_f16"], (cdiv(p["ne"], 32), 1, 1), (32, 1, 1),
                                            [P(t["src"]), P(t["dst"], p["dst_offset_bytes"])]
                                            + [np.int32(p[k]) for k in names]),
                    seed_note="one element per thread, 32/block")

    cases.append(cpy_case("k", big_rows, H, big_rows, 0))
    cases.append(cpy_case("v", big_rows, H, big_rows, 0))

    # --------------------------------------------------------- quantize
    def quant_case(R, K):
        Kp = cdiv(K, 512) * 512
        nbp = Kp // 32
        sh = dict(R=R, K=K, Kp=Kp)

        def ref(i):
            return quantize_q8_1_ref(i["x"].double(), Kp)

        def check(outs, r):
            d_ref, s_ref, q_ref = r
            d, s, q = unpack_q8_1(outs["out"].cpu(), nbp)
            d, s = d.double().view(R, nbp), s.double().view(R, nbp)
            q = q.view(R, nbp, 32).to(torch.int32)
            if not (torch.isfinite(d).all() and torch.isfinite(s).all()):
                return float("nan"), "non-finite d or s"
            dq = q.to(torch.int64) - q_ref.to(torch.int64)
            nmis = (dq != 0).sum().item()
            worst = dq.abs().max().item()
            deq = (d[..., None] * q).reshape(-1)
            deq_ref = (d_ref[..., None] * q_ref).reshape(-1)
            e1 = (deq - deq_ref).norm().item() / deq_ref.norm().item()
            e2 = (s - s_ref).norm().item() / s_ref.norm().item()
            note = f"qs≠ref: {nmis}/{q.numel()} (max {worst})"
            if worst > 1 or nmis > 1e-3 * q.numel():
                return float("inf"), note + " TOO MANY"
            return max(e1, e2), note

        return Case(kernel="quantize_q8_1", label=f"{R}×{K}" + (f" (pad {Kp})" if Kp != K else ""),
                    shape=sh, inputs=["x"], outputs={"out": ((R, nbp * 36), torch.uint8)},
                    make=lambda g: dict(x=_randn(g, R, K)), ref=ref, check=check,
                    tol=1e-2, bytes=R * K * 4 + R * nbp * 36,
                    triton=lambda t: tk.run_quantize_q8_1(t["out"], t["x"], Kp),
                    seed=lambda t: L.launch(S["quantize_q8_1"], (cdiv(Kp, 256), R, 1), (256, 1, 1),
                                            [P(t["x"]), P(t["out"]), np.int32(K), np.int32(Kp)]),
                    seed_note="one value per thread, 256/block")

    cases.append(quant_case(big_rows, H))
    cases.append(quant_case(1, 11008))

    # ------------------------------------------------------------ mat-vecs
    def make_q8_0(g, N, K):
        nb = K // 32
        d = (torch.rand(N, nb, generator=g, device="cuda") * 0.02 + 0.001).half()
        qs = torch.randint(-127, 128, (N, nb, 32), generator=g, device="cuda", dtype=torch.int8)
        return llk_buffer(pack_q8_0(d, qs))

    def linear_case(N, K):
        sh = dict(N=N, K=K)

        def ref(i):
            return deq_q8_0(i["w"], N, K) @ i["x"].double()

        return Case(kernel="linear_q8_0", label=f"{N}×{K}", shape=sh, inputs=["w", "x"],
                    outputs={"out": ((N,), torch.float32)},
                    make=lambda g: dict(w=make_q8_0(g, N, K), x=_randn(g, K)), ref=ref, check=simple_check,
                    tol=1e-4, bytes=N * K // 32 * 34 + K * 4 + N * 4,
                    triton=lambda t: tk.run_linear_q8_0(t["out"], t["w"], t["x"]),
                    seed=lambda t: L.launch(S["dequantize_mul_mat_vec_q8_0"], (1, N, 1), (32, 1, 1),
                                            [P(t["w"]), P(t["x"]), P(t["out"]), np.int32(K), np.int32(N)]),
                    seed_note="dmmv: one warp per row")

    def mmvq_case(N, K):
        Kp = cdiv(K, 512) * 512
        nbp = Kp // 32
        sh = dict(N=N, K=K, Kp=Kp)

        def make(g):
            x = torch.randn(1, K, generator=g, device="cuda", dtype=torch.float32).cpu().double()
            d, s, q = quantize_q8_1_ref(x, Kp)
            yq = llk_buffer(pack_q8_1(d.half(), s.half(), q.to(torch.int8)).reshape(nbp * 36).cuda())
            return dict(w=make_q8_0(g, N, K), yq=yq)

        def ref(i):
            d0, q0 = unpack_q8_0(i["w"].cpu(), K // 32)                 # [N, nb], [N, nb, 32]
            d1, _, q1 = unpack_q8_1(i["yq"].cpu(), nbp)                 # [1, nbp], ..
            nb = K // 32
            d1, q1 = d1[0, :nb].double(), q1[0, :nb].to(torch.int32)
            isum = (q0.to(torch.int32) * q1[None]).sum(-1)             # exact
            return (isum.double() * d0.double() * d1[None]).sum(1)

        return Case(kernel="mul_mat_vec_q", label=f"{N}×{K}", shape=sh, inputs=["w", "yq"],
                    outputs={"out": ((N,), torch.float32)}, make=make, ref=ref, check=simple_check,
                    tol=1e-4, bytes=N * K // 32 * 34 + nbp * 36 + N * 4,
                    triton=lambda t: tk.run_mul_mat_vec_q(t["out"], t["w"], t["yq"], K),
                    seed=lambda t: L.launch(S["mul_mat_vec_q8_0_q8_1"], (1, N, 1), (32, 1, 1),
                                            [P(t["w"]), P(t["yq"]), P(t["out"]), np.int32(K), np.int32(N)]),
                    seed_note="mmvq: one warp per row, dp4a")

    # Llama-2 7B's mat-vec shapes; LLK_MATVEC_SHAPES="4224x11008,..." (N x K)
    # times others instead (tuning). K must be a multiple of 256: the seed
    # kernels' mmvq takes 8 blocks a step and checks no bounds.
    matvec_shapes = []
    for entry in os.environ.get("LLK_MATVEC_SHAPES", "4096x4096,11008x4096,4096x11008").split(","):
        m = re.fullmatch(r"\s*(\d+)x(\d+)\s*", entry)
        if not m and entry.strip():
            raise SystemExit(f"LLK_MATVEC_SHAPES: '{entry}' is not NxK")
        if m:
            N, K = int(m.group(1)), int(m.group(2))
            if K % 256:
                raise SystemExit(f"LLK_MATVEC_SHAPES: K = {K} is not a multiple of 256")
            matvec_shapes.append((N, K))
    for N, K in matvec_shapes:
        cases.append(linear_case(N, K))
    for N, K in matvec_shapes:
        cases.append(mmvq_case(N, K))

    # -------------------------------------------------------- attention
    def attn_case(NH, D, C, n_kv):
        NH_KV = NH
        scale = 1.0 / math.sqrt(D)
        sh = dict(NH=NH, NH_KV=NH_KV, D=D, C=C, n_kv=n_kv, scale=scale)

        def make(g):
            return dict(q=_randn(g, NH, D), k_cache=_randn(g, C, NH_KV, D, dtype=torch.float16),
                        v_cache=_randn(g, NH_KV, D, C, dtype=torch.float16))

        def ref(i):
            q = i["q"].double()
            K = i["k_cache"].double()[:n_kv]                            # [n_kv, NH_KV, D]
            V = i["v_cache"].double()[:, :, :n_kv]                      # [NH_KV, D, n_kv]
            g = NH // NH_KV
            out = torch.empty(NH, D, dtype=torch.float64)
            for h in range(NH):
                s = (K[:, h // g, :] @ q[h]) * scale
                p = torch.softmax(s, 0)
                out[h] = V[h // g] @ p
            return out

        ws = {}

        def triton_run(t):
            if "tws" not in ws:
                ws["tws"] = tk.attn_workspace(NH, n_kv, D, "cuda")
            tk.run_attention(t["out"], t["q"], t["k_cache"], t["v_cache"], n_kv, scale, ws["tws"])

        def seed_run(t):
            if "s" not in ws:
                ws["s"] = [torch.empty(NH * n_kv, device="cuda") for _ in range(3)]
            sc, sc2, pr = ws["s"]
            L.launch(S["mul_mat_p021_f16_f32"], (1, n_kv, NH), (32, 1, 1),
                     [P(t["k_cache"]), P(t["q"]), P(sc), np.int32(D), np.int32(n_kv), np.int32(NH_KV), np.int32(NH)])
            L.launch(S["scale_f32"], (cdiv(NH * n_kv, 256), 1, 1), (256, 1, 1),
                     [P(sc), P(sc2), np.float32(scale), np.int32(NH * n_kv)])
            L.launch(S["soft_max_f32"], (1, NH, 1), (32, 1, 1), [P(sc2), P(pr), np.int32(n_kv)])
            L.launch(S["mul_mat_vec_nc_f16_f32"], (1, D, NH), (32, 1, 1),
                     [P(t["v_cache"]), P(pr), P(t["out"]), np.int32(n_kv), np.int32(D), np.int32(C),
                      np.int32(D * C), np.int32(NH // NH_KV)])

        return Case(kernel="attention", label=f"decode {NH}×{D}, {n_kv} tok f16", shape=sh,
                    inputs=["q", "k_cache", "v_cache"], outputs={"out": ((NH, D), torch.float32)},
                    make=make, ref=ref, check=simple_check, tol=1e-3,
                    bytes=2 * n_kv * NH_KV * D * 2 + 2 * NH * D * 4,
                    triton=triton_run, seed=seed_run,
                    seed_note="4 kernels: p021 scores, scale, softmax, nc values")

    cases.append(attn_case(32, 128, 4096, 4096))
    return cases


def build_llk_runs(case, sets, kernels, floor_us, table, dependent=False):
    """The llk implementation(s) of a case from its launch spec, through
    `kernels` (LlkKernels): a list of (label, [callable per input set], note)
    (labels "llk" or "llk:<variant>"), and a reason when there is none. Rows
    for variants that cannot run (PTX missing, bad arguments) are added to
    `table` directly. With `dependent`, kernels that hold
    tile.grid_dependency_wait are launched as dependent launches."""
    fn = llk_specs.SPECS.get(case.kernel)
    if fn is None:
        return [], "no launch spec"
    scratch = {}

    def view(t):
        def scr(name, numel, dtype):
            if name not in scratch:
                scratch[name] = torch.empty(numel, dtype=dtype, device="cuda")
            return scratch[name]
        return SimpleNamespace(shape=case.shape, t=t, scratch=scr)

    try:
        specs = [fn(view(t)) for t in sets]
    except Exception as e:  # a spec that raises is a spec bug: show it
        traceback.print_exc()
        return [], f"spec error: {e}"
    if specs[0] is None:
        return [], "spec: shape not supported"
    variants = list(specs[0].keys()) if isinstance(specs[0], dict) else [None]
    runs, reasons = [], []
    for v in variants:
        label = "llk" if v is None else f"llk:{v}"
        try:
            bound = [[kernels.bind(ln.ptx, ln.entry, ln.grid, ln.args, dependent=dependent)
                      for ln in (s[v] if v is not None else s)] for s in specs]
        except Exception as e:
            if not isinstance(e, LlkMissing):
                traceback.print_exc()
            msg = str(e).splitlines()[0] if str(e) else type(e).__name__
            reasons.append(f"{label}: {msg}")
            table.add(case, label, floor_us, check="skip" if isinstance(e, LlkMissing) else "ERROR",
                      notes=msg)
            continue

        def runner(steps):
            def r():
                for step in steps:
                    step()
            return r
        runs.append((label, [runner(s) for s in bound], ""))
    return runs, ("; ".join(reasons) if not runs else None)


# ================================================================ running
class Table:
    """The rows of a run, twice: Markdown lines (the printed table) and the
    CSV (benchlib.ResultsCsv). An impl label `llk:<variant>` is impl llk,
    that variant, in the CSV."""

    def __init__(self, csv, timing):
        self.lines = []
        self.csv = csv
        self.timing = timing

    def add(self, case, label, floor_us, tm=None, err=None, ok=None, check=None, notes=""):
        """A timed row (tm from Timer.time, err, ok), or one that did not run
        (check: skip or ERROR, notes: why)."""
        impl, _, variant = label.partition(":")
        row = dict(kernel=case.kernel, shape=case.label, impl=impl, variant=variant, timing=self.timing,
                   ceiling="copy", ceiling_us=floor_us, tol=case.tol, notes=notes)
        if tm is None:
            self.lines.append(f"| {case.kernel} | {case.label} | {label} | – | {floor_us:.2f} | – | – | – | – "
                              f"| {check} | {notes} |")
            self.csv.add(check=check, **row)
            return
        gbs = case.bytes / (tm.median * 1e-6) / GB
        pct = 100.0 * floor_us / tm.median
        check = "PASS" if ok else "FAIL"
        self.lines.append(f"| {case.kernel} | {case.label} | {label} | {tm.median:.2f} | {floor_us:.2f} "
                          f"| {gbs:.1f} | {pct:.1f}% | {err:.1e} | {case.tol:.2g} | {check} | {notes} |")
        self.csv.add(median_us=tm.median, lo_us=tm.lo, hi_us=tm.hi, pct_of_ceiling=pct, throughput=gbs,
                     unit="GB/s", rel_err=err, check=check, **row)


def poison(t):
    if t.dtype == torch.uint8:
        t.fill_(0xFF)
    else:
        t.fill_(float("nan"))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ptx-dir", default=None, help="llkc output (PTX + .json); without it llk rows are skipped")
    ap.add_argument("--only", default="", help="comma-separated kernel names (rms_norm,softmax,swiglu,add,rope,"
                    "cpy_k,cpy_v,quantize_q8_1,linear_q8_0,mul_mat_vec_q,attention)")
    ap.add_argument("--impls", default="llk,triton,seed", help="which implementations (llk,triton,seed)")
    ap.add_argument("--seed", type=int, default=None, help="random seed (default: from the clock)")
    ap.add_argument("--batches", type=int, default=15, help="timed batches per row (median)")
    ap.add_argument("--quick", action="store_true", help="1024 rows instead of 16384 for the large shapes")
    ap.add_argument("--graph", action="store_true",
                    help="time each batch as one CUDA-graph replay of its launches (as in a decode step)")
    ap.add_argument("--dependent", action="store_true",
                    help="launch llk kernels that wait in tile.grid_dependency_wait as dependent launches "
                    "(programmatic dependent launch: each may start during the launch before it, as in "
                    "llk-decode-block's graph of dependent launches), with or without --graph; other "
                    "implementations launch as usual")
    ap.add_argument("--csv", default=None,
                    help="write the rows as CSV there (default: $OUT/llama[-graph][-dependent].csv when $OUT is set)")
    a = ap.parse_args()

    import cupy
    import triton
    import triton_kernels as tk

    torch.set_num_threads(os.cpu_count() or 1)
    dev = torch.cuda.current_device()
    props = torch.cuda.get_device_properties(dev)
    cap = torch.cuda.get_device_capability(dev)
    arch = f"sm_{cap[0]}{cap[1]}"
    l2 = getattr(props, "L2_cache_size", 50 * 2**20) or 50 * 2**20
    seed = a.seed if a.seed is not None else int(time.time()) % 2**31
    only = {s.strip() for s in a.only.split(",") if s.strip()}
    impls = [s.strip() for s in a.impls.split(",") if s.strip()]

    L = CupyLauncher(cupy)
    S = SeedModule(cupy, arch) if "seed" in impls else None
    kernels = LlkKernels(a.ptx_dir) if "llk" in impls else None
    timer = Timer(a.batches, graph=a.graph)

    copy_bw = copy_bandwidth(timer)

    suffix = ("-graph" if a.graph else "") + ("-dependent" if a.dependent else "")
    timing = ("graph" if a.graph else "stream") + ("-dependent" if a.dependent else "")
    csv_path = Path(a.csv) if a.csv else benchlib.default_csv_path("llama" + suffix)
    date = datetime.datetime.now().isoformat(timespec="seconds")
    gpu = f"{props.name} ({arch}, {props.multi_processor_count} SMs, L2 {l2 / 2**20:.0f} MiB)"
    run_csv = benchlib.ResultsCsv(
        "llama", benchlib.command_line(), gpu, date,
        ceiling=f"copy {copy_bw / GB:.1f} GB/s (torch device-to-device copy of 256 MiB, read + write, median); "
        "ceiling_us = bytes counted / that bandwidth",
        anchor="seed-cuda", timing=timing + (" (llk kernels with tile.grid_dependency_wait as dependent launches)"
                                             if a.dependent else ""),
        software=f"torch {torch.__version__}, triton {triton.__version__}, cupy {cupy.__version__}; "
        f"seed CUDA: {S.how if S else 'not run'}",
        random_seed=seed, llk_ptx=a.ptx_dir or "(none: llk rows skipped)",
        llk_launcher="the llk package (llk.load + Kernel.bind)")
    table = Table(run_csv, timing)

    header = [
        f"# llama kernels: llk vs Triton vs seed-style CUDA",
        "",
        f"- date: {date}",
        f"- device: {gpu}",
        f"- torch {torch.__version__}, triton {triton.__version__}, cupy {cupy.__version__}",
        f"- seed CUDA kernels: {S.how if S else 'not run'}",
        f"- llk PTX: {a.ptx_dir or '(none: llk rows skipped)'}; launcher: {run_csv.meta['llk-launcher']}",
        f"- command: {run_csv.meta['command']}",
        f"- random seed: {seed}",
        f"- timing: {'one CUDA-graph replay of k launches a batch' if a.graph else 'k stream launches a batch'}"
        + ("; llk kernels with tile.grid_dependency_wait as dependent launches (each may start during "
           "the one before it and waits for it)" if a.dependent else ""),
        f"- copy bandwidth (torch D2D copy of 256 MiB, read + write, median): **{copy_bw / GB:.1f} GB/s**",
        "",
        "| kernel | shape | impl | median µs | floor µs | GB/s | % of copy | rel err | tol | check | notes |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    summary = []
    failures = 0

    cases = build_cases(a, S, L, tk)
    dead = False
    for ci, case in enumerate(cases):
        if dead:
            summary.append(f"- {case.kernel} at {case.label}: not run (CUDA context lost earlier)")
            continue
        if only and case.kernel not in only:
            continue
        log(f"[{case.kernel} {case.label}]")
        gen = torch.Generator(device="cuda")
        gen.manual_seed(seed + 7919 * ci)
        inputs = case.make(gen)
        outs = {k: torch.empty(shape, dtype=dt, device="cuda") for k, (shape, dt) in case.outputs.items()}
        t0 = dict(inputs, **outs)
        in_bytes = sum(inputs[k].numel() * inputs[k].element_size() for k in case.inputs)
        ref = case.ref({k: v.cpu() for k, v in inputs.items()})
        floor_us = case.bytes / copy_bw * 1e6

        # input sets for timing: rotate copies when one set would stay in L2
        if in_bytes < 2**20:
            nsets, set_note = 1, "L2-resident (tiny; launch-bound)"
        elif in_bytes < 4 * l2:
            nsets = min(64, cdiv(4 * l2, in_bytes))
            set_note = f"{nsets} input sets rotated (> 4×L2)"
        else:
            nsets, set_note = 1, ""
        sets = [t0] + [dict(t0, **{k: llk_buffer(inputs[k]) for k in case.inputs}) for _ in range(nsets - 1)]

        # implementations: (label, [callable per set], note)
        runs = []
        if "triton" in impls:
            runs.append(("triton", [(lambda t=t: case.triton(t)) for t in sets], ""))
        if "seed" in impls:
            runs.append(("seed-cuda", [(lambda t=t: case.seed(t)) for t in sets], case.seed_note))
        llk_note = None      # why no llk row ran (summary)
        if "llk" in impls:
            llk_runs, llk_note = build_llk_runs(case, sets, kernels, floor_us, table, dependent=a.dependent)
            runs = llk_runs + runs
            if llk_note and not llk_note.startswith("llk"):  # no per-variant row was written
                table.add(case, "llk", floor_us, check="skip", notes=llk_note)

        results = {}
        for label, fns, note in runs:
            try:
                for o in outs.values():
                    poison(o)
                torch.cuda.synchronize()
                fns[0]()
                torch.cuda.synchronize()
                err, cnote = case.check({k: v.cpu() for k, v in outs.items()}, ref)
                ok = err == err and err <= case.tol  # NaN fails
                tm = timer.time(fns)
                pct = 100.0 * floor_us / tm.median
                notes = "; ".join(x for x in (note, cnote, set_note) if x)
                table.add(case, label, floor_us, tm=tm, err=err, ok=ok, notes=notes)
                log(f"  {label:10s} {tm.median:9.2f} us  {pct:6.1f}% of copy  err {err:.1e} "
                    f"{'PASS' if ok else 'FAIL'}  (batches {tm.lo:.2f}..{tm.hi:.2f}, k={tm.k})")
                if not ok:
                    failures += 1
                results[label] = (tm.median, ok, pct)
            except Exception as e:
                failures += 1
                msg = str(e).splitlines()[0] if str(e) else type(e).__name__
                table.add(case, label, floor_us, check="ERROR", notes=msg)
                log(f"  {label}: ERROR {msg}")
                traceback.print_exc()
                try:
                    torch.cuda.synchronize()
                except Exception:
                    log("CUDA context is unusable after this error; stopping.")
                    dead = True
                    break

        # summary line
        llk = {k: v for k, v in results.items() if k.partition(":")[0] == "llk" and v[1]}
        parts = []
        if llk:
            best = min(llk, key=lambda k: llk[k][0])
            tl_ = llk[best][0]
            if "triton" in results:
                parts.append(f"llk/triton = {results['triton'][0] / tl_:.2f}×")
            if "seed-cuda" in results:
                parts.append(f"llk/seed-cuda = {results['seed-cuda'][0] / tl_:.2f}×")
            parts.append(f"llk % of copy = {llk[best][2]:.1f}%" + (f" ({best})" if best != "llk" else ""))
        else:
            parts.append("llk: not run" + (f" ({llk_note})" if llk_note else ""))
            for k in ("triton", "seed-cuda"):
                if k in results:
                    parts.append(f"{k} % of copy = {results[k][2]:.1f}%")
        summary.append(f"- {case.kernel} at {case.label}: " + ", ".join(parts))

        del sets, t0, inputs, outs, runs
        torch.cuda.empty_cache()

    text = "\n".join(header + table.lines + ["", "Speed ratios are times: llk/triton = Triton time ÷ llk time "
                                      "(above 1: llk is faster); % of copy = floor ÷ time.", ""] + summary) + "\n"
    print(text)
    if os.environ.get("OUT"):
        Path(os.environ["OUT"]).mkdir(parents=True, exist_ok=True)
        (Path(os.environ["OUT"]) / f"llama-bench{suffix}.md").write_text(text)
    if csv_path:
        run_csv.fill_ratios()
        log(f"CSV: {run_csv.write(csv_path)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
