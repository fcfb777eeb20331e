"""llk.compile and llk.load: sources, constants, options and the metadata a
kernel reports."""
from pathlib import Path

import pytest

import llk
from conftest import on_interpreter

ADD = (Path(__file__).parent / "kernels" / "add.mlir").read_text()


def test_version_and_build_id():
    assert llk.version() == llk.__version__
    build = llk.build_id()
    assert len(build) == 16 and int(build, 16) >= 0


def test_device():
    d = llk.device()
    assert d is llk.device()  # opened once
    if on_interpreter():
        assert d.interpreter and d.arch == "interpreter"
        assert d.name == "llk interpreter (host)"
    else:
        assert d.arch.startswith("sm_")


def test_compile_a_file_reports_its_metadata(examples):
    k = llk.compile(examples / "softmax.mlir", constants={"BLOCK": 128}, num_warps=2)
    assert k.name == "softmax_kernel"
    assert k.num_warps == 2
    assert [str(p) for p in k.params] == ["ptr<f32>", "ptr<f32>", "i32", "i32", "i32"]
    assert [p.kind for p in k.params] == ["pointer", "pointer", "scalar", "scalar", "scalar"]
    assert k.signature == "softmax_kernel(ptr<f32>, ptr<f32>, i32, i32, i32)"
    assert k.meta == {"BLOCK": 128, "num_warps": 2, "num_stages": None}
    assert k.dynamic_shared_bytes == 0 and not k.grid_dependency_wait
    assert k.source_name.endswith("softmax.mlir")
    assert k.occupancy() >= 1
    k.set_shared_memory_carveout(100)
    with pytest.raises(llk.ArgumentError, match="carve-out"):
        k.set_shared_memory_carveout(120)
    # A path given as a string names the file too.
    same = llk.compile(str(examples / "softmax.mlir"), constants={"BLOCK": 128}, num_warps=2)
    assert same.signature == k.signature


def test_element_type_constants():
    for t in ("f16", "bf16", "f32"):
        k = llk.compile(ADD, constants={"T": t, "BLOCK": 64})
        assert [p.dtype for p in k.params] == [t, t, t, "i32"]
    try:
        import numpy as np
    except ImportError:  # pragma: no cover
        return
    k = llk.compile(ADD, constants={"T": np.float64, "BLOCK": 64})
    assert k.params[0].dtype == "f64"


def test_one_kernel_of_several(examples):
    source = examples / "llama" / "attn_decode.mlir"
    constants = {"BLOCK_T": 64, "D": 128, "MAX_CHUNKS": 32}
    with pytest.raises(llk.Error, match="name the one to launch"):
        llk.compile(source, constants=constants)
    k = llk.compile(source, constants=constants, kernel="attn_decode_combine_kernel")
    assert k.name == "attn_decode_combine_kernel"
    with pytest.raises(llk.Error, match="no kernel 'nope'"):
        llk.compile(source, constants=constants, kernel="nope")


def test_compile_errors_point_into_the_source():
    broken = "func.func @broken(%x: i32) {\n  return %x\n}\n"
    with pytest.raises(llk.CompileError) as e:
        llk.compile(broken)
    assert "<source>:2:" in str(e.value)
    assert e.value.status == "COMPILE"
    with pytest.raises(llk.CompileError, match=r"\$\{BLOCK\}|BLOCK"):
        llk.compile(ADD, constants={"T": "f32"})  # BLOCK unbound
    with pytest.raises(llk.Error, match="f128"):
        llk.compile(ADD, constants={"T": "f128", "BLOCK": 64})
    with pytest.raises(TypeError, match="neither an integer nor an element type"):
        llk.compile(ADD, constants={"T": 1.5, "BLOCK": 64})
    with pytest.raises(llk.ArgumentError, match="num-warps"):
        llk.compile(ADD, constants={"T": "f32", "BLOCK": 64}, num_warps=3)
    with pytest.raises(llk.ArgumentError, match="sm_70"):
        llk.compile(ADD, constants={"T": "f32", "BLOCK": 64}, arch="sm_70")
    with pytest.raises(llk.Error, match="cannot read the source"):
        llk.compile("no/such/kernel.mlir")
    with pytest.raises(TypeError):
        llk.compile(42)


def test_jit_stats_count_compiles_and_hits():
    before = llk.device().jit_stats()
    llk.compile(ADD, constants={"T": "f32", "BLOCK": 256}, num_warps=8)
    llk.compile(ADD, constants={"T": "f32", "BLOCK": 256}, num_warps=8)
    after = llk.device().jit_stats()
    assert after["compiles"] == before["compiles"] + 1


@pytest.mark.skipif(not on_interpreter(), reason="the interpreter refuses PTX")
def test_load_refuses_ptx_on_the_interpreter(tmp_path):
    (tmp_path / "k.ptx").write_text("//")
    with pytest.raises(llk.Error):
        llk.load(tmp_path / "k.ptx")
