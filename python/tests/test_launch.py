"""Launches on host arrays (numpy: staged through device buffers, or the
interpreter's host memory), checked against float64 references with
outputs poisoned first; argument conversion and its errors."""

import numpy as np
import pytest

import llk
from conftest import on_interpreter
from test_compile import ADD

# Each scalar parameter, converted to f64, into out[0..7].
SCALARS = """
func.func @scalars(%out: !tile.ptr<f64>, %a: i8, %b: i16, %c: i32, %d: i64, %e: f16,
                   %f: bf16, %g: f32, %h: f64) {
  %va = arith.sitofp %a : i8 to f64
  %vb = arith.sitofp %b : i16 to f64
  %vc = arith.sitofp %c : i32 to f64
  %vd = arith.sitofp %d : i64 to f64
  %ve = arith.extf %e : f16 to f64
  %vf = arith.extf %f : bf16 to f64
  %vg = arith.extf %g : f32 to f64
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %c6 = arith.constant 6 : i32
  %c7 = arith.constant 7 : i32
  %p1 = tile.addptr %out, %c1 : !tile.ptr<f64>, i32
  %p2 = tile.addptr %out, %c2 : !tile.ptr<f64>, i32
  %p3 = tile.addptr %out, %c3 : !tile.ptr<f64>, i32
  %p4 = tile.addptr %out, %c4 : !tile.ptr<f64>, i32
  %p5 = tile.addptr %out, %c5 : !tile.ptr<f64>, i32
  %p6 = tile.addptr %out, %c6 : !tile.ptr<f64>, i32
  %p7 = tile.addptr %out, %c7 : !tile.ptr<f64>, i32
  tile.store %va, %out : !tile.ptr<f64>
  tile.store %vb, %p1 : !tile.ptr<f64>
  tile.store %vc, %p2 : !tile.ptr<f64>
  tile.store %vd, %p3 : !tile.ptr<f64>
  tile.store %ve, %p4 : !tile.ptr<f64>
  tile.store %vf, %p5 : !tile.ptr<f64>
  tile.store %vg, %p6 : !tile.ptr<f64>
  tile.store %h, %p7 : !tile.ptr<f64>
  return
}
"""


def rel_error(got, want):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    assert np.isfinite(got).all(), "non-finite outputs (a poisoned element left unwritten?)"
    return np.linalg.norm(got - want) / max(np.linalg.norm(want), 1e-300)


def softmax_reference(x):
    x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


@pytest.fixture(scope="module")
def add32():
    return llk.compile(ADD, constants={"T": "f32", "BLOCK": 128})


def test_vector_add_against_float64(add32, rng):
    n = 1000
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    add32[(n + 127) // 128](x, y, out, n)
    assert rel_error(out, x.astype(np.float64) + y) < 1e-7
    # A grid from the meta-parameters, as Triton's lambdas.
    out[:] = np.nan
    add32[lambda meta: ((n + meta["BLOCK"] - 1) // meta["BLOCK"],)](x, y, out, n)
    assert rel_error(out, x.astype(np.float64) + y) < 1e-7


def test_softmax_on_strided_rows(examples, rng):
    # Rows 300 apart, 200 wide: a view, read and written in place.
    softmax = llk.compile(examples / "softmax.mlir", constants={"BLOCK": 256}, num_warps=4)
    base = rng.standard_normal((6, 300)).astype(np.float32) * 4
    x = base[:, :200]
    out = np.full((6, 300), np.nan, np.float32)
    view = out[:, 50:250]
    softmax[x.shape[0]](view, x, 300, 300, 200)
    assert rel_error(view, softmax_reference(x)) < 1e-6
    assert np.isnan(out[:, :50]).all() and np.isnan(out[:, 250:]).all()  # untouched


def test_in_place_arguments_share_memory(add32, rng):
    # out is x: one buffer, so the kernel sees its own writes' memory.
    n = 300
    x0 = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    x = x0.copy()
    add32[3](x, y, x, n)
    assert rel_error(x, x0.astype(np.float64) + y) < 1e-7


def test_every_scalar_type():
    k = llk.compile(SCALARS)
    out = np.full(8, np.nan)
    k[1](out, -7, -300, 100000, -5000000000, -2.75, 3.5, 0.1, 1e300)
    assert out.tolist() == [-7, -300, 100000, -5000000000.0, -2.75, 3.5,
                            float(np.float32(0.1)), 1e300]
    # Unsigned values pass as their bits; numpy scalars of the exact type.
    k[1](out, 255, 65535, np.int32(-1), np.int64(2**63 - 1), np.float16(0.5), 1, 2, np.float64(3))
    assert out[:3].tolist() == [-1, -1, -1] and out[3] == float(2**63 - 1)
    # f16 and bf16 round to nearest even: 1/3 is 0x3555 and 0x3eab.
    k[1](out, 0, 0, 0, 0, 1 / 3, 1 / 3, 0, 0)
    assert out[4] == 0.333251953125 and out[5] == 0.333984375


def test_packed_arguments_are_the_c_helpers(rng):
    # The launch path packs the C arguments itself (one struct.pack): each
    # must be the llk_arg the C API's helper makes of the value.
    from llk import _capi, _runtime
    k = llk.compile(SCALARS)
    L = _capi.lib()
    ints = [(-7, -300, 100000, -5000000000), (255, 65535, 2**32 - 1, 2**64 - 1),
            (np.int8(-128), np.int16(7), np.int32(-1), np.int64(2**63 - 1)), (True, 0, 1, -1)]
    floats = [(-2.75, 3.5, 0.1, 1e300), (1 / 3, 1 / 3, 1e300, -0.0),  # 1e300: an f32 inf
              (np.float16(0.5), 1, np.float32(2.5), np.float64(3)),
              tuple(float(v) for v in rng.standard_normal(4))]
    for i, f in zip(ints, floats):
        out = llk.Pointer(0x1000 + 8 * len(i), "f64")
        got = _runtime._PreparedArgs(k, (out,) + i + f).c_args
        signed = [int(v) - (1 << n) if int(v) >= 1 << (n - 1) else int(v)
                  for v, n in zip(i, (8, 16, 32, 64))]
        want = [L.llk_arg_ptr(out.address, _capi.TYPE_CODE["f64"])] + [
            getattr(L, f"llk_arg_{t}")(v) for t, v in zip(("i8", "i16", "i32", "i64"), signed)
        ] + [getattr(L, f"llk_arg_{t}")(float(v)) for t, v in zip(("f16", "bf16", "f32", "f64"), f)]
        assert [(a.is_pointer, a.type, a.bits) for a in got] == \
            [(a.is_pointer, a.type, a.bits) for a in want], (i, f)


def test_arguments_are_checked(add32):
    x = np.zeros(16, np.float32)
    sig = r"the signature is add\(ptr<f32>, ptr<f32>, ptr<f32>, i32\)"
    with pytest.raises(TypeError, match="takes 4 arguments, got 3"):
        add32[1](x, x, x)
    with pytest.raises(TypeError, match=r"argument 1 is an array of f64 but the parameter is "
                                        r"ptr<f32>; " + sig):
        add32[1](x, np.zeros(16), x, 16)
    with pytest.raises(TypeError, match="argument 2 is int 5 but the parameter is ptr<f32>"):
        add32[1](x, x, 5, 16)
    with pytest.raises(TypeError, match="argument 3 is float 16.0 but the parameter is i32"):
        add32[1](x, x, x, 16.0)
    with pytest.raises(ValueError, match="argument 3 is 4294967296, out of range"):
        add32[1](x, x, x, 2**32)
    with pytest.raises(TypeError, match="argument 3 is a int64 scalar but the parameter is i32"):
        add32[1](x, x, x, np.int64(16))
    with pytest.raises(TypeError, match="argument 3 is ndarray"):
        add32[1](x, x, x, x)
    with pytest.raises(TypeError, match="bool"):
        add32[1](x, x, np.zeros(16, bool), 16)
    with pytest.raises(ValueError, match="grid"):
        add32[0](x, x, x, 16)
    with pytest.raises(TypeError, match="a grid is"):
        add32["one"](x, x, x, 16)
    with pytest.raises(llk.ArgumentError, match="grid .* over the device's limit"):
        add32[(1, 1 << 20)](x, x, x, 16)


def test_pointers_retype_and_offset(rng):
    # llk.Pointer: a raw address with the type a parameter expects. On the
    # interpreter, device memory is the runtime's buffers' host memory.
    k = llk.compile(ADD.replace("arith.addf", "arith.addi"), constants={"T": "i32", "BLOCK": 64})
    n = 64
    a = rng.integers(-1000, 1000, n, dtype=np.int32)
    b = rng.integers(-1000, 1000, n, dtype=np.int32)
    out = np.zeros(n, np.uint32)  # unsigned passes as i32
    k[1](a, b, out, n)
    assert (out.astype(np.int64) % 2**32 == (a.astype(np.int64) + b) % 2**32).all()
    with pytest.raises(TypeError, match="llk.Pointer: 'f128'"):
        llk.Pointer(0, "f128")
    with pytest.raises(TypeError, match="a host array has no device address"):
        llk.ptr(a)
    with pytest.raises(TypeError, match="argument 0 is a pointer to f32 but the parameter is "
                                        "ptr<i32>"):
        k[1](llk.Pointer(0x1000, "f32"), b, out, n)


def test_bound_launches_convert_once(add32, rng):
    n = 256
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    launch = add32.bind(2, x, y, out, n)
    assert launch.grid == (2, 1, 1)
    for _ in range(2):
        out[:] = np.nan
        launch()
        assert rel_error(out, x.astype(np.float64) + y) < 1e-7


class DLPackOnly:
    """An array that speaks only DLPack (as a library without the array
    interfaces would)."""

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, stream=None):
        return self.array.__dlpack__()

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


def test_dlpack_host_arrays(add32, rng):
    if not hasattr(np.ndarray, "__dlpack__"):
        pytest.skip("numpy without DLPack")
    n = 128
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    add32[1](DLPackOnly(x), DLPackOnly(y), out, n)
    assert rel_error(out, x.astype(np.float64) + y) < 1e-7


def test_read_only_arrays_are_not_written_back(add32):
    x = np.arange(128, dtype=np.float32)
    x.setflags(write=False)
    add32[1](x, x, x, 128)  # the kernel writes x's staged copy only
    assert x[1] == 1.0


class FakeCudaArray:
    __cuda_array_interface__ = {"shape": (16,), "typestr": "<f4", "data": (0x7000000, False),
                                "version": 3}


@pytest.mark.skipif(not on_interpreter(), reason="the interpreter's errors")
def test_interpreter_refuses_gpu_memory_and_reports_faults(add32):
    x = np.zeros(100, np.float32)
    with pytest.raises(TypeError, match="in GPU memory, but the device is llk's interpreter"):
        add32[1](FakeCudaArray(), x, x, 16)
    with pytest.raises(llk.ExecutionError) as e:
        add32[2](x, x, x, 200)  # 2 programs of 128 over 100 floats with n = 200
    assert "kernel 'add' failed on the interpreter" in str(e.value)
    assert "out-of-bounds" in str(e.value) and "<source>:" in str(e.value)
    with pytest.raises(TypeError, match="stream"):
        add32[1](x, x, x, 16, stream="default")
    with pytest.raises(llk.ArgumentError, match="tile.grid_dependency_wait"):
        add32[1](x, x, x, 16, dependent=True)


def test_dependent_launches_of_kernels_that_wait(examples, rng):
    # binary.mlir waits in tile.grid_dependency_wait: it may be a dependent
    # launch (a plain one before sm_90 and on the interpreter).
    add = llk.compile(examples / "llama" / "binary.mlir", constants={"BLOCK": 1024, "OP": 0})
    assert add.grid_dependency_wait
    rows, ky = 3, 1024
    x = rng.standard_normal(rows * ky).astype(np.float32)
    y = rng.standard_normal(ky).astype(np.float32)
    out = np.full(rows * ky, np.nan, np.float32)
    add[(1, rows)](x, y, out, ky, dependent=True)
    want = x.astype(np.float64).reshape(rows, ky) + y
    assert rel_error(out.reshape(rows, ky), want) < 1e-7


def test_torch_cpu_tensors(rng):
    # Host tensors of every float type, bf16 included, staged as numpy's.
    torch = pytest.importorskip("torch")
    for t, tol in (("f32", 1e-7), ("f16", 1e-3), ("bf16", 8e-3)):
        dtype = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}[t]
        k = llk.compile(ADD, constants={"T": dtype, "BLOCK": 64})
        n = 150
        x = torch.from_numpy(rng.standard_normal(n)).to(dtype)
        y = torch.from_numpy(rng.standard_normal(n)).to(dtype)
        out = torch.full((n,), float("nan"), dtype=dtype)
        k[3](x, y, out, n)
        assert rel_error(out.double().numpy(), (x.double() + y.double()).numpy()) < tol, t
    if not on_interpreter():
        return
    with pytest.raises(TypeError, match="a torch tensor of torch.bool"):
        k[1](torch.zeros(4, dtype=torch.bool), x, out, 4)


def test_argument_contracts_are_checked_before_the_launch(examples, rng):
    # softmax.mlir promises 16-byte aligned pointers and strides and widths
    # that are multiples of 4 ({tile.divisibility}); the compiled kernel
    # relies on them (16-byte vectors), so a launch that breaks one is
    # refused, naming the argument, its value and the contract.
    softmax = llk.compile(examples / "softmax.mlir", constants={"BLOCK": 64})
    assert [p.divisibility for p in softmax.params] == [16, 16, 4, 4, 4]
    x = rng.standard_normal((2, 64)).astype(np.float32)
    out = np.full((2, 64), np.nan, np.float32)
    with pytest.raises(llk.ArgumentError,
                       match=r"kernel 'softmax_kernel': argument 4 \(i32\) is 62, which is not a "
                             r"multiple of 4 as its tile.divisibility = 4 promises; the "
                             r"signature is softmax_kernel\("):
        softmax[2](out, x, 64, 64, 62)
    with pytest.raises(llk.ArgumentError, match=r"argument 2 \(i32\) is -6, which is not"):
        softmax.bind(2, out, x, -6, 64, 64)  # refused when bound, before any launch
    with pytest.raises(llk.ArgumentError,
                       match=r"argument 1 \(ptr<f32>\) is the address 0x1004, which is not "
                             r"16-byte aligned as its tile.divisibility = 16 promises"):
        softmax[2](out, llk.Pointer(0x1004, "f32"), 64, 64, 64)
    # Host arrays are staged into aligned buffers; two views of one array
    # share one, where the runtime's own check (the C API's) refuses the
    # misaligned one.
    with pytest.raises(llk.ArgumentError,
                       match=r"argument 0 \(ptr<f32>\) is the address 0x[0-9a-f]+, which is not "
                             r"16-byte aligned"):
        softmax[1](x.reshape(-1)[1:], x, 64, 64, 60)
    assert np.isnan(out).all()  # nothing ran
    # Kept, the same launch runs.
    softmax[2](out, x, 64, 64, 64)
    assert rel_error(out, softmax_reference(x)) < 1e-6


def test_pointers_are_aligned_to_their_element():
    # Without a promise, a pointer still has its element's alignment.
    k = llk.compile(SCALARS)
    assert k.params[0].divisibility == 1 and k.params[2].divisibility == 1
    with pytest.raises(llk.ArgumentError, match=r"argument 0 \(ptr<f64>\) is the address "
                                                r"0x1004, which is not 8-byte aligned as its "
                                                r"element type f64 needs"):
        k[1](llk.Pointer(0x1004, "f64"), 0, 0, 0, 0, 0, 0, 0, 0)
