"""On the GPU with torch (scripts/gpu-check.sh run python): torch tensors and
CuPy arrays, streams, CUDA graphs, bf16, tensor descriptors (TMA) and the
autotuner. Skipped on the interpreter and without torch."""
import os

import numpy as np
import pytest

import llk
from conftest import on_interpreter
from test_compile import ADD
from test_launch import SCALARS, rel_error, softmax_reference

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.skipif(on_interpreter() or not torch.cuda.is_available(),
                                reason="needs the GPU (LLK_BACKEND=cuda) and torch")

TOLERANCE = {"f32": 1e-6, "f16": 1e-3, "bf16": 8e-3}
TORCH = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}


def cdiv(a, b):
    return (a + b - 1) // b


@pytest.fixture
def gen(rng):
    g = torch.Generator(device="cuda")
    g.manual_seed(int(rng.integers(2**31)))
    return g


@pytest.mark.parametrize("t", ["f32", "f16", "bf16"])
def test_add_on_torch_tensors(t, gen):
    k = llk.compile(ADD, constants={"T": TORCH[t], "BLOCK": 1024}, num_warps=4)
    n = 100_000
    x = torch.randn(n, device="cuda", generator=gen).to(TORCH[t])
    y = torch.randn(n, device="cuda", generator=gen).to(TORCH[t])
    out = torch.full((n,), float("nan"), device="cuda", dtype=TORCH[t])
    k[cdiv(n, 1024)](x, y, out, n)
    torch.cuda.synchronize()
    # Against float64 of the rounded inputs; the output is rounded once.
    assert rel_error(out.double().cpu().numpy(), (x.double() + y.double()).cpu().numpy()) < \
        TOLERANCE[t]
    other = "f16" if t == "f32" else "f32"
    with pytest.raises(TypeError, match=f"argument 1 is an array of {other} but the parameter "
                                        f"is ptr<{t}>"):
        k[1](x, y.to(TORCH[other]), out, n)


def test_softmax_on_streams_and_graphs(examples, gen):
    softmax = llk.compile(examples / "softmax.mlir", constants={"BLOCK": 4096}, num_warps=8)
    rows, cols = 512, 3000
    x = torch.randn(rows, cols, device="cuda", generator=gen) * 3
    want = softmax_reference(x.cpu().numpy())
    s = torch.cuda.Stream()
    for how in ("current", "explicit"):
        out = torch.full_like(x, float("nan"))
        with torch.cuda.stream(s):
            if how == "current":  # torch's current stream, as Triton launches
                softmax[rows](out, x, cols, cols, cols)
            else:
                softmax[rows](out, x, cols, cols, cols, stream=s)
        s.synchronize()
        assert rel_error(out.cpu().numpy(), want) < 1e-6, how
    # A bound launch captured into a CUDA graph and replayed.
    out = torch.full_like(x, float("nan"))
    launch = softmax.bind(rows, out, x, cols, cols, cols)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        launch()
    out.fill_(float("nan"))
    graph.replay()
    torch.cuda.synchronize()
    assert rel_error(out.cpu().numpy(), want) < 1e-6


def test_scalars_and_host_arrays_on_the_gpu():
    k = llk.compile(SCALARS)
    out = torch.full((8,), float("nan"), device="cuda", dtype=torch.float64)
    k[1](out, -7, -300, 100000, -5000000000, -2.75, 1 / 3, 0.1, 1e300)
    torch.cuda.synchronize()
    assert out.cpu().tolist() == [-7, -300, 100000, -5000000000.0, -2.75, 0.333984375,
                                  float(np.float32(0.1)), 1e300]
    # numpy arrays are staged through device memory.
    host = np.full(8, np.nan)
    k[1](host, 1, 2, 3, 4, 5, 6, 7, 8)
    assert host.tolist() == [1, 2, 3, 4, 5, 6, 7, 8]


def test_cupy_arrays(gen):
    cupy = pytest.importorskip("cupy")
    k = llk.compile(ADD, constants={"T": "f32", "BLOCK": 1024})
    n = 5000
    x = cupy.random.standard_normal(n, dtype=cupy.float32)
    y = cupy.random.standard_normal(n, dtype=cupy.float32)
    out = cupy.full(n, cupy.nan, dtype=cupy.float32)
    k[cdiv(n, 1024)](x, y, out, n)
    cupy.cuda.get_current_stream().synchronize()
    assert rel_error(cupy.asnumpy(out), cupy.asnumpy(x).astype(np.float64) + cupy.asnumpy(y)) \
        < 1e-7


def test_dependent_launch(examples, gen):
    add = llk.compile(examples / "llama" / "binary.mlir", constants={"BLOCK": 1024, "OP": 0})
    rows, ky = 64, 4096
    x = torch.randn(rows * ky, device="cuda", generator=gen)
    y = torch.randn(ky, device="cuda", generator=gen)
    out = torch.full_like(x, float("nan"))
    add[(ky // 1024, rows)](x, y, out, ky, dependent=True)
    torch.cuda.synchronize()
    want = (x.double().view(rows, ky) + y.double()).cpu().numpy()
    assert rel_error(out.view(rows, ky).cpu().numpy(), want) < 1e-7


@pytest.mark.skipif(not torch.cuda.is_available() or torch.cuda.get_device_capability() < (9, 0),
                    reason="TMA needs sm_90")
@pytest.mark.parametrize("t", ["f16", "bf16"])
def test_tma_gemm_from_tensors_and_descriptors(examples, t, gen):
    k = llk.compile(examples / "gemm_tma.mlir",
                    constants={"T": t, "BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64},
                    num_warps=4, num_stages=4, arch="sm_90a")
    assert [p.kind for p in k.params[:3]] == ["tensordesc", "tensordesc", "pointer"]
    # The boxes are the blocks' 128-byte slabs (64 f16 columns): A's 128 x 64
    # block is one, B's 64 x 128 two of (64, 64).
    assert k.params[0].tma_box == (128, 64) and k.params[1].tma_box == (64, 64)
    M, N, K = 300, 264, 1000
    a = torch.randn(M, K, device="cuda", generator=gen).to(TORCH[t])
    b = torch.randn(K, N, device="cuda", generator=gen).to(TORCH[t])
    want = (a.double() @ b.double()).cpu().numpy()
    grid = (cdiv(M, 128), cdiv(N, 128))
    # Tensors where descriptors go (encoded and kept by the kernel), then
    # explicit descriptors.
    for a_arg, b_arg in ((a, b), (k.tensor_descriptor(0, a), k.tensor_descriptor(1, b))):
        c = torch.full((M, N), float("nan"), device="cuda", dtype=TORCH[t])
        k[grid](a_arg, b_arg, c, M, N, K, c.stride(0))
        torch.cuda.synchronize()
        assert rel_error(c.double().cpu().numpy(), want) < (2e-3 if t == "f16" else 1.6e-2)
    with pytest.raises(TypeError, match="a tensor descriptor needs a 2-D device tensor"):
        k[grid](a.view(-1), b, c, M, N, K, c.stride(0))
    with pytest.raises(llk.ArgumentError, match="16-byte aligned|multiple of 16"):
        odd = torch.randn(M, K + 1, device="cuda", generator=gen).to(TORCH[t])[:, :K]
        k[grid](odd, b, c, M, N, K, c.stride(0))


def test_autotune_on_the_gpu(examples, gen, capfd, monkeypatch):
    monkeypatch.setenv("LLK_PRINT_AUTOTUNING", "1")
    configs = [llk.Config({"BLOCK": 4096}, num_warps=w) for w in (2, 4, 8)]
    tuner = llk.autotune(examples / "softmax.mlir", configs, key=lambda o, x, *s: x.shape)
    rows, cols = 2048, 4096
    x = torch.randn(rows, cols, device="cuda", generator=gen)
    out = torch.full_like(x, float("nan"))
    tuner[rows](out, x, cols, cols, cols)
    torch.cuda.synchronize()
    assert rel_error(out.cpu().numpy(), softmax_reference(x.cpu().numpy())) < 1e-6
    err = capfd.readouterr().err
    assert "3/3 BLOCK=4096 num_warps=8: median" in err and ": best" in err
    times = tuner.timings(out, x, cols, cols, cols)
    assert all(t is not None and t[1] <= t[0] <= t[2] for t in times.values())


def test_load_llkc_ptx():
    path = os.environ.get("LLK_TEST_PTX")  # gpu-check.sh: ptx/add.ptx (vector_add, BLOCK 4096)
    if not path:
        pytest.skip("LLK_TEST_PTX names no llkc PTX")
    k = llk.load(path)
    assert k.name == "add_kernel"
    n = 10000
    x, y = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
    out = torch.full_like(x, float("nan"))
    k[cdiv(n, 4096)](x, y, out, n)
    torch.cuda.synchronize()
    assert rel_error(out.cpu().numpy(), (x.double() + y.double()).cpu().numpy()) < 1e-7
