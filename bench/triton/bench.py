#!/usr/bin/env python3
"""Triton's tutorials: llk's ports (examples/triton/) beside Triton kernels
written after them (bench/triton/triton_kernels.py), in one run, on the GPU
machine (torch, triton, cupy):

    python3 bench/triton/build_ptx.py DIR          # here: llkc -> PTX
    python3 bench/triton/bench.py --ptx-dir DIR [--only 02,05] [--csv PATH]

For each tutorial and shape: fresh random inputs, outputs poisoned (NaN)
before every checked run, each implementation run once and checked against a
float64 reference computed by torch, then timed with bench/llama's Timer
(the median of batches of back-to-back launches queued behind a GPU spin, so
that host launch overhead is not timed; 11 launches as dependent launches).
Every llk configuration of the case is timed (rows `llk`, variant = the PTX's
name; the fastest that passes stands for llk) beside Triton's. The ceiling:
the copy bandwidth's floor for memory-bound kernels, cuBLAS (torch.matmul)
for GEMMs, measured in the same run. Rows go to --csv (bench/common/
benchlib.py; default $OUT/triton.csv when $OUT is set); exit 1 on a failed
check. About a minute on an H100.
"""
import argparse
import ctypes
import datetime
import importlib.util
import math
import os
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "common"))
sys.path.insert(0, str(HERE.parents[1] / "scripts"))

import cupy  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402
import triton  # noqa: E402

import benchlib  # noqa: E402
import triton_random  # noqa: E402  (scripts/)
import triton_kernels as tk  # noqa: E402
from variants import BLOCKWISE_FP8_VARIANTS, PER_TENSOR_FP8, TMA_FP8_VARIANTS, VARIANTS  # noqa: E402


def _load(name, path):
    """A sibling suite's module (both are called bench.py)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


llama_bench = _load("llama_bench", HERE.parent / "llama" / "bench.py")
gemm_bench = _load("gemm_bench", HERE.parent / "gemm" / "bench.py")
log = llama_bench.log
cdiv = llama_bench.cdiv
GB = 1e9


def u64(t):
    return np.uint64(t.data_ptr())


def i32(v):
    return np.int32(v)


def f32(v):
    return np.float32(v)


def rel_err(out, ref):
    """||out - ref|| / ||ref|| in float64 (NaN where out has any)."""
    got = out.double()
    return (torch.linalg.norm(got - ref) / torch.linalg.norm(ref)).item()


class Llk:
    """The kernels of one PTX of bench/triton/variants.py, launched through
    CuPy on the torch stream (bench/llama's CupyLauncher)."""

    def __init__(self, modules, launcher, name):
        self.name = name
        self.modules = modules
        self.launcher = launcher
        self.source, self.constants, self.warps, self.arch = VARIANTS[name]

    def kernel(self, entry):
        _, fn, meta, _ = self.modules.get(f"{self.name}.ptx", entry)
        shared = meta.get("dynamic_shared_bytes", 0) or 0
        if shared:
            fn.max_dynamic_shared_size_bytes = shared
        return fn, meta, shared

    def bind(self, entry, grid, args, dependent=False):
        """A callable launching `entry` over `grid` with `args` (numpy
        scalars and u64 addresses, in the kernel's parameter order)."""
        fn, meta, shared = self.kernel(entry)
        if len(meta["params"]) != len(args):
            raise RuntimeError(f"{self.name}:{entry}: {len(args)} arguments for {len(meta['params'])} parameters")
        grid = tuple(grid) + (1,) * (3 - len(grid))
        return self.launcher.bind(fn, grid, (32 * meta["num_warps"], 1, 1), args, shared, dependent)

    def resident(self, entry):
        """Programs of `entry` resident on the GPU at once."""
        fn, meta, shared = self.kernel(entry)
        return occupancy(fn.kernel.ptr, 32 * meta["num_warps"], shared)

    def tensor_map(self, entry, index, t):
        """A CUtensorMap of `t` with the box the metadata gives parameter
        `index` of `entry`, in device memory (the kernel takes its address)."""
        _, meta, _ = self.kernel(entry)
        return gemm_bench.encode_tensor_map(t, meta["params"][index]["tma_box"])


def occupancy(function, threads, shared):
    """Programs of a CUfunction resident at once on the whole GPU."""
    per_sm = ctypes.c_int()
    gemm_bench.check_cu(gemm_bench.libcuda().cuOccupancyMaxActiveBlocksPerMultiprocessor(
        ctypes.byref(per_sm), ctypes.c_void_p(function), threads, ctypes.c_size_t(shared)),
        "cuOccupancyMaxActiveBlocksPerMultiprocessor")
    return max(1, per_sm.value) * torch.cuda.get_device_properties(0).multi_processor_count


def triton_resident(compiled, num_warps):
    """The same for a compiled Triton kernel (as tutorial 02 sizes its grid)."""
    compiled._init_handles()
    return occupancy(compiled.function, 32 * num_warps, compiled.metadata.shared)


def rand_reference(seed, n):
    """tl.rand(seed, arange(n)) on the host: scripts/triton_random.py's
    Philox 4x32-10 and uniform map, vectorized in numpy (products of 32-bit
    words are exact in uint64, the uniform's product rounds once in f32)."""
    mask = np.uint64(0xFFFFFFFF)
    c0 = np.arange(n, dtype=np.uint64)
    c1, c2, c3 = (np.zeros(n, dtype=np.uint64) for _ in range(3))
    k0, k1 = seed & 0xFFFFFFFF, (seed & (2**64 - 1)) >> 32
    for _ in range(10):
        a, b = np.uint64(triton_random.ROUND_A) * c0, np.uint64(triton_random.ROUND_B) * c2
        c0, c1, c2, c3 = ((b >> np.uint64(32)) ^ c1 ^ np.uint64(k0)) & mask, b & mask, \
            ((a >> np.uint64(32)) ^ c3 ^ np.uint64(k1)) & mask, a & mask
        k0, k1 = (k0 + triton_random.KEY_A) & 0xFFFFFFFF, (k1 + triton_random.KEY_B) & 0xFFFFFFFF
    x = c0.astype(np.uint32).view(np.int32).astype(np.int64)
    x = np.where(x < 0, -x - 1, x)
    return x.astype(np.float32) * np.float32(triton_random.UNIFORM_SCALE)


class Case:
    """One tutorial at one shape. `make(gen)` returns (inputs, outputs,
    reference): dicts of CUDA tensors and the float64 reference of each
    output; `llk[variant](t)` and `triton(t)` return callables that run the
    kernels on the tensors t (inputs and outputs). `ceiling(timer)` is
    ("copy" or "cuBLAS", µs); `work` the bytes (unit GB/s) or flops (TFLOP/s)
    of a run. `triton_outputs`: the outputs the Triton column writes, where it
    is another computation (llk's per-tensor fp8 GEMM beside the
    block-scaled one); each side is checked on its own outputs."""

    def __init__(self, key, label, make, llk, triton, tol, work, unit, ceiling, dependent=False, notes="",
                 triton_outputs=()):
        self.key, self.label, self.make, self.llk, self.triton = key, label, make, llk, triton
        self.tol, self.work, self.unit, self.ceiling = tol, work, unit, ceiling
        self.dependent, self.notes, self.triton_outputs = dependent, notes, tuple(triton_outputs)

    def checked(self, impl, refs):
        """The outputs whose references check `impl`'s run."""
        if not self.triton_outputs:
            return list(refs)
        keys = [k for k in refs if (k in self.triton_outputs) == (impl == "triton")]
        if not keys:
            raise ValueError(f"{self.key}: no output checks {impl}")
        return keys


# ============================================================== the cases
def randn(gen, *shape, dtype=torch.float32, scale=1.0, shift=0.0):
    return (torch.randn(*shape, generator=gen, device="cuda") * scale + shift).to(dtype)


def build_cases(M, L, copy_us, cublas_us):
    cases = []

    # out = x + y (f32): tutorials 01 and 11.
    def add_problem(n):
        def make(gen):
            x, y = randn(gen, n), randn(gen, n)
            return {"x": x, "y": y}, {"out": torch.empty_like(x)}, {"out": x.double() + y.double()}
        return make

    def add_llk(n, dependent=False):
        def llk(name):
            k = Llk(M, L, name)
            return lambda t: k.bind("add_kernel", (cdiv(n, k.constants["BLOCK"]),),
                                    [u64(t["x"]), u64(t["y"]), u64(t["out"]), i32(n)], dependent=dependent)
        return llk

    # 01 vector add.
    def vector_add(n):
        make, llk = add_problem(n), add_llk(n)

        def tri(t):
            grid = (cdiv(n, 1024),)
            return lambda: tk.add_kernel[grid](t["x"], t["y"], t["out"], n, BLOCK_SIZE=1024)
        return Case("01_vector_add", f"{n}", make, {v: llk(v) for v in ("add_b1024_w4", "add_b4096_w4")},
                    tri, 1e-6, 12.0 * n, "GB/s", lambda: ("copy", copy_us(12.0 * n)))
    cases.append(vector_add(1 << 24))

    # 02 fused softmax over rows (f32), a persistent grid sized by occupancy.
    def softmax(rows, cols, variants, tri_warps):
        block = triton.next_power_of_2(cols)

        def make(gen):
            x = randn(gen, rows, cols)
            return {"x": x}, {"y": torch.empty_like(x)}, {"y": torch.softmax(x.double(), dim=1)}

        def llk(name):
            k = Llk(M, L, name)
            programs = min(rows, k.resident("softmax_kernel"))
            return lambda t: k.bind("softmax_kernel", (programs,),
                                    [u64(t["y"]), u64(t["x"]), i32(cols), i32(cols), i32(rows), i32(cols)])

        def tri(t):
            compiled = tk.softmax_kernel.warmup(t["y"], t["x"], cols, cols, rows, cols, BLOCK_SIZE=block,
                                                num_stages=4, num_warps=tri_warps, grid=(1,))
            programs = min(rows, triton_resident(compiled, tri_warps))
            return lambda: tk.softmax_kernel[(programs,)](t["y"], t["x"], cols, cols, rows, cols,
                                                          BLOCK_SIZE=block, num_stages=4, num_warps=tri_warps)
        bytes_ = 8.0 * rows * cols
        return Case("02_fused_softmax", f"{rows}x{cols}", make, {v: llk(v) for v in variants}, tri, 1e-5,
                    bytes_, "GB/s", lambda: ("copy", copy_us(bytes_)))
    cases.append(softmax(4096, 1024, ("softmax_b1024_w4", "softmax_b1024_w8"), 4))
    cases.append(softmax(4096, 4096, ("softmax_b4096_w8", "softmax_b4096_w16"), 16))

    # 03 matmul with leaky_relu (f16 in and out, f32 accumulation).
    def matmul(m, n, k_):
        def make(gen):
            a, b = randn(gen, m, k_, dtype=torch.float16), randn(gen, k_, n, dtype=torch.float16)
            c = a.double() @ b.double()
            return {"a": a, "b": b}, {"c": torch.empty(m, n, dtype=torch.float16, device="cuda")}, \
                {"c": torch.where(c >= 0, c, 0.01 * c)}

        def llk(name):
            k = Llk(M, L, name)
            c = k.constants
            grid = (cdiv(m, c["BLOCK_M"]) * cdiv(n, c["BLOCK_N"]),)
            return lambda t: k.bind("matmul_kernel", grid, [u64(t["a"]), u64(t["b"]), u64(t["c"]), i32(m),
                                                            i32(n), i32(k_), i32(k_), i32(n), i32(n)])

        def tri(t):
            grid = (cdiv(m, 128) * cdiv(n, 256),)
            return lambda: tk.matmul_kernel[grid](t["a"], t["b"], t["c"], m, n, k_, k_, 1, n, 1, n, 1,
                                                  BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=64,
                                                  GROUP_SIZE_M=8, ACTIVATION="leaky_relu",
                                                  num_stages=3, num_warps=8)
        flops = 2.0 * m * n * k_
        return Case("03_matrix_multiplication", f"{m}x{n}x{k_}", make,
                    {v: llk(v) for v in ("matmul_128x128x32_w4", "matmul_128x128x64_w4_sm90a",
                                         "matmul_128x256x64_w8_sm90a", "matmul_128x256x64_w8_s4_sm90a")},
                    tri, 2e-3, flops, "TFLOP/s", lambda: ("cuBLAS", cublas_us(m, n, k_)),
                    notes="Triton: the tutorial's first CUDA config (128x256x64 w8 s3)")
    cases.append(matmul(4096, 4096, 4096))

    # 04 low-memory dropout (f32): the keep bits from tl.rand's Philox,
    # recomputed on the host (rand_reference), so both kernels are held to
    # them exactly; the kept elements to x / (1 - p) in float64.
    def dropout(n, p, seed):
        def make(gen):
            x = randn(gen, n)
            keep = torch.from_numpy(rand_reference(seed, n) > np.float32(p)).cuda()
            scale = float(np.float32(1) - np.float32(p))
            return {"x": x}, {"out": torch.empty_like(x)}, {"out": torch.where(keep, x.double() / scale, 0.0)}

        def llk(name):
            k = Llk(M, L, name)
            return lambda t: k.bind("seeded_dropout", (cdiv(n, k.constants["BLOCK"]),),
                                    [u64(t["x"]), u64(t["out"]), i32(n), f32(p), i32(seed)])

        def tri(t):
            return lambda: tk._seeded_dropout[(cdiv(n, 1024),)](t["x"], t["out"], n, p, seed, BLOCK_SIZE=1024)
        return Case("04_low_memory_dropout", f"{n} p={p}", make,
                    {v: llk(v) for v in ("dropout_b1024_w4", "dropout_b4096_w4")},
                    tri, 1e-6, 8.0 * n, "GB/s", lambda: ("copy", copy_us(8.0 * n)))
    cases.append(dropout(1 << 24, 0.5, 123))

    # 05 layer norm, forward and backward (f16, statistics in f32).
    eps = 1e-5

    def ln_inputs(gen, m, n):
        x = randn(gen, m, n, dtype=torch.float16, scale=0.5, shift=-2.3)
        w = torch.rand(n, generator=gen, device="cuda").half()
        b = torch.rand(n, generator=gen, device="cuda").half()
        return x, w, b

    def layer_norm_fwd(m, n):
        block = triton.next_power_of_2(n)

        def make(gen):
            x, w, b = ln_inputs(gen, m, n)
            y = torch.nn.functional.layer_norm(x.double(), (n,), w.double(), b.double(), eps)
            outs = {"y": torch.empty_like(x), "mean": torch.empty(m, device="cuda"),
                    "rstd": torch.empty(m, device="cuda")}
            return {"x": x, "w": w, "b": b}, outs, {"y": y}

        def args(t):
            return [t["x"], t["y"], t["w"], t["b"], t["mean"], t["rstd"]]

        def llk(name):
            k = Llk(M, L, name)
            return lambda t: k.bind("layer_norm_fwd_fused", (m,), [u64(a) for a in args(t)]
                                    + [i32(n), i32(n), f32(eps)])

        def tri(t):
            warps = min(max(block // 256, 1), 8)
            return lambda: tk._layer_norm_fwd_fused[(m,)](*args(t), n, n, eps, BLOCK_SIZE=block,
                                                           num_warps=warps, num_ctas=1)
        bytes_ = 2.0 * (2 * m * n + 2 * n) + 8.0 * m
        return Case("05_layer_norm_fwd", f"{m}x{n} f16", make,
                    {v: llk(v) for v in ("ln_fwd_b4096_w8", "ln_fwd_b4096_w16")}, tri, 2e-3, bytes_, "GB/s",
                    lambda: ("copy", copy_us(bytes_)))
    cases.append(layer_norm_fwd(4096, 4096))

    def layer_norm_bwd(m, n):
        """dx_fused then dwdb, as the tutorial's backward launches them (the
        locks cleared before each run, as it allocates them zeroed)."""
        block = triton.next_power_of_2(n)
        group = 64 if n > 8192 else 96 if n > 4096 else 128 if n > 1024 else 256

        def make(gen):
            x, w, b = ln_inputs(gen, m, n)
            dy = randn(gen, m, n, dtype=torch.float16, scale=0.1)
            x64 = x.double().requires_grad_()
            w64 = w.double().requires_grad_()
            b64 = b.double().requires_grad_()
            torch.nn.functional.layer_norm(x64, (n,), w64, b64, eps).backward(dy.double())
            mean = x.float().mean(dim=1)
            rstd = 1 / torch.sqrt(x.float().var(dim=1, unbiased=False) + eps)
            ins = {"x": x, "w": w, "dy": dy, "mean": mean, "rstd": rstd,
                   "locks": torch.zeros(2 * group, dtype=torch.int32, device="cuda"),
                   "dw_part": torch.zeros(group, n, dtype=torch.float16, device="cuda"),
                   "db_part": torch.zeros(group, n, dtype=torch.float16, device="cuda")}
            outs = {"dx": torch.empty_like(x), "dw": torch.empty_like(w), "db": torch.empty_like(w)}
            return ins, outs, {"dx": x64.grad, "dw": w64.grad, "db": b64.grad}

        def llk(name):
            k = Llk(M, L, name)

            def run(t):
                dx = k.bind("layer_norm_bwd_dx_fused", (m,), [
                    u64(t["dx"]), u64(t["dy"]), u64(t["dw_part"]), u64(t["db_part"]), u64(t["x"]), u64(t["w"]),
                    u64(t["mean"]), u64(t["rstd"]), u64(t["locks"]), i32(n), i32(n)])
                dwdb = k.bind("layer_norm_bwd_dwdb", (cdiv(n, k.constants["BLOCK_N"]),), [
                    u64(t["dw_part"]), u64(t["db_part"]), u64(t["dw"]), u64(t["db"]), i32(group), i32(n)])
                return lambda: (t["locks"].zero_(), dx(), dwdb())
            return run

        def tri(t):
            warps = min(max(block // 256, 1), 8)

            def run():
                t["locks"].zero_()
                tk._layer_norm_bwd_dx_fused[(m,)](t["dx"], t["dy"], t["dw_part"], t["db_part"], t["x"], t["w"],
                                                  t["mean"], t["rstd"], t["locks"], n, n, BLOCK_SIZE_N=block,
                                                  GROUP_SIZE_M=group, num_warps=warps)
                tk._layer_norm_bwd_dwdb[(cdiv(n, 128),)](t["dw_part"], t["db_part"], t["dw"], t["db"], group, n,
                                                         BLOCK_SIZE_M=32, BLOCK_SIZE_N=128, num_ctas=1)
            return run
        bytes_ = 2.0 * (3 * m * n + 3 * n) + 8.0 * m
        if n != 4096:
            raise ValueError("the llk backward variants are built for GROUP_SIZE_M = 128 (n = 4096)")
        return Case("05_layer_norm_bwd", f"{m}x{n} f16", make, {"ln_bwd_b4096_w8": llk("ln_bwd_b4096_w8")},
                    tri, 2e-2, bytes_, "GB/s", lambda: ("copy", copy_us(bytes_)),
                    notes="dx_fused + dwdb + the locks' memset; dw, db summed in f16 partials as the tutorial")
    cases.append(layer_norm_bwd(4096, 4096))

    # 07 libdevice asin (f32).
    def asin(n):
        def make(gen):
            x = torch.rand(n, generator=gen, device="cuda") * 2 - 1
            return {"x": x}, {"y": torch.empty_like(x)}, {"y": torch.asin(x.double())}

        def llk(name):
            k = Llk(M, L, name)
            return lambda t: k.bind("asin_kernel", (cdiv(n, k.constants["BLOCK"]),),
                                    [u64(t["x"]), u64(t["y"]), i32(n)])

        def tri(t):
            return lambda: tk.asin_kernel[(cdiv(n, 1024),)](t["x"], t["y"], n, BLOCK_SIZE=1024)
        return Case("07_libdevice_asin", f"{n}", make, {v: llk(v) for v in ("asin_b1024_w4", "asin_b4096_w4")},
                    tri, 1e-6, 8.0 * n, "GB/s", lambda: ("copy", copy_us(8.0 * n)))
    cases.append(asin(1 << 24))

    # 08 grouped GEMM (f16): the tutorial's group of square problems.
    def grouped(sizes):
        def make(gen):
            ins, outs, refs = {}, {}, {}
            for g, s in enumerate(sizes):
                a, b = randn(gen, s, s, dtype=torch.float16), randn(gen, s, s, dtype=torch.float16)
                ins[f"a{g}"], ins[f"b{g}"] = a, b
                outs[f"c{g}"] = torch.empty(s, s, dtype=torch.float16, device="cuda")
                refs[f"c{g}"] = a.double() @ b.double()
            # The tables point at the tensors above (kept alive by ins and outs).
            ins["a_ptrs"] = torch.tensor([ins[f"a{g}"].data_ptr() for g in range(len(sizes))], device="cuda")
            ins["b_ptrs"] = torch.tensor([ins[f"b{g}"].data_ptr() for g in range(len(sizes))], device="cuda")
            ins["c_ptrs"] = torch.tensor([outs[f"c{g}"].data_ptr() for g in range(len(sizes))], device="cuda")
            ins["sizes"] = torch.tensor([[s, s, s] for s in sizes], dtype=torch.int32, device="cuda")
            ins["lds"] = torch.tensor([[s, s, s] for s in sizes], dtype=torch.int32, device="cuda")
            return ins, outs, refs

        sms = torch.cuda.get_device_properties(0).multi_processor_count

        def llk(name):
            k = Llk(M, L, name)
            return lambda t: k.bind("grouped_matmul_kernel", (sms,), [
                u64(t["a_ptrs"]), u64(t["b_ptrs"]), u64(t["c_ptrs"]), u64(t["sizes"]), u64(t["lds"]),
                i32(len(sizes))])

        def tri(t):
            return lambda: tk.grouped_matmul_kernel[(sms,)](
                t["a_ptrs"], t["b_ptrs"], t["c_ptrs"], t["sizes"], t["lds"], len(sizes), NUM_SM=sms,
                BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=32, num_warps=4)
        flops = sum(2.0 * s ** 3 for s in sizes)
        return Case("08_grouped_gemm", "+".join(map(str, sizes)) + " square", make,
                    {v: llk(v) for v in ("grouped_128x128x32_w4", "grouped_128x128x32_w4_s4",
                                         "grouped_128x128x32_w8", "grouped_128x128x32_w8_s4",
                                         "grouped_128x128x64_w4_sm90a", "grouped_128x128x64_w8_sm90a",
                                         "grouped_128x256x64_w8_sm90a", "grouped_128x256x64_w8_s4_sm90a")},
                    tri, 2e-3,
                    flops, "TFLOP/s",
                    lambda: ("cuBLAS", sum(cublas_us(s, s, s) for s in sizes)),
                    notes="ceiling: the sum of cuBLAS's times of the problems; Triton 128x128x32 w4")
    cases.append(grouped([1024, 2048, 4096, 4096]))

    # 09 persistent matmul on TMA (f16), the grid one program per resident slot.
    def persistent(m, n, k_):
        def make(gen):
            a, b = randn(gen, m, k_, dtype=torch.float16), randn(gen, k_, n, dtype=torch.float16)
            return {"a": a, "b": b}, {"c": torch.empty(m, n, dtype=torch.float16, device="cuda")}, \
                {"c": a.double() @ b.double()}

        def llk(name):
            k = Llk(M, L, name)
            entry = "gemm_tma_persistent_kernel"

            def run(t):
                t["a_map"] = k.tensor_map(entry, 0, t["a"])
                t["b_map"] = k.tensor_map(entry, 1, t["b"])
                c = k.constants
                programs = min(k.resident(entry), cdiv(m, c["BLOCK_M"]) * cdiv(n, c["BLOCK_N"]))
                return k.bind(entry, (programs,), [np.uint64(t["a_map"].data.ptr), np.uint64(t["b_map"].data.ptr),
                                                   u64(t["c"]), i32(m), i32(n), i32(k_), i32(n)])
            return run

        def tri(t):
            from triton.tools.tensor_descriptor import TensorDescriptor
            sms = torch.cuda.get_device_properties(0).multi_processor_count
            bm, bn, bk = 128, 256, 64
            a_desc = TensorDescriptor.from_tensor(t["a"], [bm, bk])
            b_desc = TensorDescriptor.from_tensor(t["b"], [bk, bn])
            c_desc = TensorDescriptor.from_tensor(t["c"], [bm, bn])
            programs = min(sms, cdiv(m, bm) * cdiv(n, bn))
            return lambda: tk.matmul_kernel_tma_persistent[(programs,)](
                a_desc, b_desc, c_desc, m, n, k_, BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
                GROUP_SIZE_M=8, NUM_SMS=sms, num_stages=3, num_warps=8)
        flops = 2.0 * m * n * k_
        return Case("09_persistent_matmul", f"{m}x{n}x{k_}", make,
                    {v: llk(v) for v in ("persistent_128x128x64_w4", "persistent_128x256x64_w8")}, tri, 2e-3,
                    flops, "TFLOP/s", lambda: ("cuBLAS", cublas_us(m, n, k_)),
                    notes="Triton: 128x256x64 w8 s3, host tensor descriptors")
    cases.append(persistent(8192, 8192, 512))
    cases.append(persistent(4096, 4096, 4096))

    # 10 (stand-in for the block-scaled tutorial, which needs sm_100): fp8
    # e4m3 GEMM, C = (A B^T) * sa * sb in bf16, A M x K and B N x K (both
    # K-major), beside torch._scaled_mm with the same scales (the "triton"
    # row), per tensor and per row.
    def fp8_launch(name, entry, m, n, k_, out, sa, sb, stride):
        """A launch of an fp8 GEMM of tutorial 10 (A M x K and B N x K packed,
        C = t[out], scales t[sa] and t[sb] `stride` apart): @fp8_gemm and
        @fp8_gemm_blockwise take pointers, @fp8_gemm_tma descriptors."""
        k = Llk(M, L, name)
        c = k.constants
        grid = (cdiv(m, c["BLOCK_M"]), cdiv(n, c["BLOCK_N"]))

        def run(t):
            if entry == "fp8_gemm_tma":
                t["a_map"] = k.tensor_map(entry, 0, t["a"])
                t["b_map"] = k.tensor_map(entry, 1, t["b"])
                operands, strides = [np.uint64(t["a_map"].data.ptr), np.uint64(t["b_map"].data.ptr)], []
            else:
                operands, strides = [u64(t["a"]), u64(t["b"])], [i32(k_), i32(k_)]
            return k.bind(entry, grid, operands + [u64(t[out]), u64(t[sa]), u64(t[sb]), i32(stride), i32(stride),
                                                   i32(m), i32(n), i32(k_)] + strides + [i32(n)])
        return run

    def fp8_gemm(m, n, k_, rowwise):
        def make(gen):
            a = randn(gen, m, k_).to(torch.float8_e4m3fn)
            b = randn(gen, n, k_).to(torch.float8_e4m3fn)
            sa = torch.rand(m if rowwise else 1, 1, generator=gen, device="cuda") + 0.5
            sb = torch.rand(1, n if rowwise else 1, generator=gen, device="cuda") + 0.5
            ref = (a.double() @ b.double().t()) * sa.double() * sb.double()
            return {"a": a, "b": b, "sa": sa.contiguous(), "sb": sb.contiguous()}, \
                {"c": torch.empty(m, n, dtype=torch.bfloat16, device="cuda")}, {"c": ref}

        def llk(name, entry="fp8_gemm"):
            return fp8_launch(name, entry, m, n, k_, "c", "sa", "sb", 1 if rowwise else 0)

        def scaled_mm(t):
            sa = t["sa"] if rowwise else t["sa"].reshape(())
            sb = t["sb"] if rowwise else t["sb"].reshape(())

            def run():
                torch._scaled_mm(t["a"], t["b"].t(), scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16,
                                 out=t["c"])
            return run
        flops = 2.0 * m * n * k_
        return Case("10_fp8_gemm", f"{m}x{n}x{k_} {'per-row' if rowwise else 'per-tensor'}", make,
                    {**{v: llk(v) for v in ("fp8_gemm_128x128x128_w4_sm90a", "fp8_gemm_128x128x128_w4_s4_sm90a",
                                            "fp8_gemm_128x256x128_w8_sm90a", "fp8_gemm_128x128x64_w4",
                                            "fp8_gemm_128x128x32_w4_sm90")},
                     **{v: llk(v, "fp8_gemm_tma") for v in TMA_FP8_VARIANTS}}, scaled_mm,
                    1.6e-2, flops, "TFLOP/s", lambda: ("cuBLAS", cublas_us(m, n, k_)),
                    notes="the Triton column is torch._scaled_mm; ceiling: cuBLAS f16")
    for rowwise in (False, True):
        cases.append(fp8_gemm(4096, 4096, 4096, rowwise))

    # 10, DeepSeek-V3's block scales (1x128 for A, 128x128 for B; torch here
    # refuses them): llk's @fp8_gemm_blockwise beside llk's per-tensor fp8
    # GEMM on the same operands (the "triton" column, its own output c_pt).
    def fp8_blockwise(m, n, k_):
        kb, nb = cdiv(k_, 128), cdiv(n, 128)

        def make(gen):
            a = randn(gen, m, k_).to(torch.float8_e4m3fn)
            b = randn(gen, n, k_).to(torch.float8_e4m3fn)
            sa = torch.rand(m, kb, generator=gen, device="cuda") + 0.5
            sb = torch.rand(nb, kb, generator=gen, device="cuda") + 0.5
            ad, bd = a.double(), b.double()
            ref = torch.zeros(m, n, dtype=torch.float64, device="cuda")
            for q in range(kb):
                part = ad[:, q * 128:(q + 1) * 128] @ bd[:, q * 128:(q + 1) * 128].t()
                ref += part * sa[:, q:q + 1].double() * sb[:, q].double().repeat_interleave(128)[:n][None, :]
            one = torch.ones(1, device="cuda")
            return {"a": a, "b": b, "sa": sa, "sb": sb, "one": one}, \
                {"c": torch.empty(m, n, dtype=torch.bfloat16, device="cuda"),
                 "c_pt": torch.empty(m, n, dtype=torch.bfloat16, device="cuda")}, \
                {"c": ref, "c_pt": ad @ bd.t()}

        per_tensor = fp8_launch(PER_TENSOR_FP8, "fp8_gemm_tma", m, n, k_, "c_pt", "one", "one", 0)
        return Case("10_fp8_gemm", f"{m}x{n}x{k_} block-scaled", make,
                    {v: fp8_launch(v, "fp8_gemm_blockwise", m, n, k_, "c", "sa", "sb", kb)
                     for v in BLOCKWISE_FP8_VARIANTS}, per_tensor, 1.6e-2, 2.0 * m * n * k_, "TFLOP/s",
                    lambda: ("cuBLAS", cublas_us(m, n, k_)), triton_outputs=("c_pt",),
                    notes=f"the Triton column is llk's per-tensor fp8 GEMM ({PER_TENSOR_FP8}); ceiling: cuBLAS f16")
    cases.append(fp8_blockwise(4096, 4096, 4096))

    # 11 vector add as dependent launches (launch_pdl): back-to-back launches
    # of a small add, where the next launch's setup overlaps this one's tail.
    def pdl(n):
        make, llk = add_problem(n), add_llk(n, dependent=True)

        def tri(t):
            grid = (cdiv(n, 1024),)
            return lambda: tk.pdl_add_kernel[grid](t["x"], t["y"], t["out"], n, BLOCK_SIZE=1024, USE_GDC=True,
                                                   launch_pdl=True)
        return Case("11_programmatic_dependent_launch", f"{n}", make,
                    {v: llk(v) for v in ("pdl_add_b1024_w4", "pdl_add_b4096_w4")}, tri, 1e-6, 12.0 * n, "GB/s",
                    lambda: ("copy", copy_us(12.0 * n)), dependent=True,
                    notes="dependent launches back to back (launch_pdl=True)")
    cases.append(pdl(1 << 20))
    cases.append(pdl(1 << 24))
    return cases


# ============================================================== the run
def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ptx-dir", required=True, help="bench/triton/build_ptx.py's output")
    ap.add_argument("--only", default="", help="comma-separated tutorial numbers or names (02,05_layer_norm_fwd)")
    ap.add_argument("--batches", type=int, default=11, help="timed batches per row (median)")
    ap.add_argument("--seed", type=int, default=None, help="random seed (default: from the clock)")
    ap.add_argument("--csv", default=None, help="default: $OUT/triton.csv when $OUT is set")
    a = ap.parse_args()

    props = torch.cuda.get_device_properties(0)
    cap = torch.cuda.get_device_capability()
    seed = a.seed if a.seed is not None else int(time.time()) % 2**31
    only = [s.strip() for s in a.only.split(",") if s.strip()]
    timer = llama_bench.Timer(a.batches)
    copy_bw = llama_bench.copy_bandwidth(timer)
    modules = llama_bench.LlkModules(cupy, a.ptx_dir)
    launcher = llama_bench.CupyLauncher(cupy)

    cublas = {}

    def cublas_us(m, n, k):
        if (m, n, k) not in cublas:
            x = torch.randn(m, k, device="cuda", dtype=torch.float16)
            y = torch.randn(k, n, device="cuda", dtype=torch.float16)
            cublas[(m, n, k)] = timer.time([lambda: torch.matmul(x, y)]).median
        return cublas[(m, n, k)]

    software = f"torch {torch.__version__}, triton {triton.__version__}, cupy {cupy.__version__}"
    gpu = f"{props.name} (sm_{cap[0]}{cap[1]}, {props.multi_processor_count} SMs)"
    run_csv = benchlib.ResultsCsv(
        "triton", benchlib.command_line(), gpu, datetime.datetime.now().isoformat(timespec="seconds"),
        ceiling=f"copy {copy_bw / GB:.1f} GB/s (256 MiB device-to-device copy; ceiling_us = bytes / that) for "
        "memory-bound kernels, cuBLAS (torch.matmul, f16) for GEMMs",
        anchor="triton", timing="stream: bench/llama Timer (median of batches of back-to-back launches behind a "
        "GPU spin; host launch overhead not timed)", software=software, random_seed=seed, llk_ptx=a.ptx_dir)
    cases = build_cases(modules, launcher, lambda b: b / copy_bw * 1e6, cublas_us)
    failures = 0
    summary = []
    for ci, case in enumerate(cases):
        number = case.key.split("_")[0]
        if only and not any(o in (number, case.key) for o in only):
            continue
        log(f"[{case.key} {case.label}]")
        gen = torch.Generator(device="cuda")
        gen.manual_seed(seed + 7919 * ci)
        try:
            ins, outs, refs = case.make(gen)
            ceiling, ceiling_us = case.ceiling()
        except Exception as e:  # a case that cannot be set up fails alone
            failures += 1
            traceback.print_exc()
            run_csv.add(kernel=case.key, shape=case.label, impl="llk", timing="stream", check="ERROR",
                        notes=str(e).splitlines()[0] if str(e) else type(e).__name__)
            continue
        t = dict(ins, **outs)
        runs = [(f"llk:{v}", make) for v, make in case.llk.items()] + [("triton", case.triton)]
        times = {}
        for label, make in runs:
            impl, _, variant = label.partition(":")
            row = dict(kernel=case.key, shape=case.label, impl=impl, variant=variant, timing="stream",
                       ceiling=ceiling, ceiling_us=ceiling_us, tol=case.tol, notes=case.notes)
            try:
                fn = make(t)
                for o in outs.values():
                    o.fill_(float("nan"))
                torch.cuda.synchronize()
                fn()
                torch.cuda.synchronize()
                err = max(rel_err(outs[k], refs[k]) for k in case.checked(impl, refs))
                ok = err == err and err <= case.tol
                tm = timer.time([fn])
                throughput = case.work / (tm.median * 1e-6) / (GB if case.unit == "GB/s" else 1e12)
                run_csv.add(median_us=tm.median, lo_us=tm.lo, hi_us=tm.hi, throughput=throughput, unit=case.unit,
                            rel_err=err, check="PASS" if ok else "FAIL", **row)
                log(f"  {label:32s} {tm.median:10.2f} us  {throughput:8.1f} {case.unit}  err {err:.1e} "
                    f"{'PASS' if ok else 'FAIL'}")
                failures += not ok
                if ok:
                    times[label] = tm.median
            except Exception as e:
                failures += 1
                msg = str(e).splitlines()[0] if str(e) else type(e).__name__
                run_csv.add(check="ERROR", **dict(row, notes=msg))
                log(f"  {label}: ERROR {msg}")
                traceback.print_exc()
                try:
                    torch.cuda.synchronize()
                except Exception:
                    log("CUDA context is unusable after this error; stopping.")
                    return 1
        llk = {k: v for k, v in times.items() if k.startswith("llk")}
        if llk and "triton" in times:
            best = min(llk, key=llk.get)
            summary.append(f"- {case.key} {case.label}: llk {times['triton'] / llk[best]:.3f}x Triton ({best})")
        else:
            summary.append(f"- {case.key} {case.label}: no comparison (a side failed)")
        del t, ins, outs, refs
        torch.cuda.empty_cache()
    print("\n".join(["", "llk vs Triton (Triton's time / llk's best; above 1: llk is faster):"] + summary))
    csv_path = Path(a.csv) if a.csv else benchlib.default_csv_path("triton")
    if csv_path:
        run_csv.fill_ratios()
        log(f"CSV: {run_csv.write(csv_path)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
