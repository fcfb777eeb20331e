"""llk.autotune: configurations (num_stages included) tuned per key, the
winner launched, what the kernel overwrites restored, progress lines."""
from pathlib import Path

import numpy as np
import pytest

import llk
from test_compile import ADD
from test_launch import rel_error

# x[i] *= 2 in place: tuning runs it many times.
DOUBLE = Path(__file__).parent / "kernels" / "double_in_place.mlir"

CONFIGS = [llk.Config({"BLOCK": 64}, num_warps=1), llk.Config({"BLOCK": 128}, num_warps=2),
           llk.Config({"BLOCK": 128}, num_warps=4, num_stages=2)]


def grid(n):
    return lambda meta: ((n + meta["BLOCK"] - 1) // meta["BLOCK"],)


def test_tunes_once_per_key_and_launches_the_winner(rng, monkeypatch, capfd):
    monkeypatch.setenv("LLK_PRINT_AUTOTUNING", "1")
    tuner = llk.autotune(ADD, [llk.Config(dict(c.constants, T="f32"), c.num_warps, c.num_stages)
                               for c in CONFIGS], key=[3], warmup=0, rep=2)
    for n in (200, 300):
        x = rng.standard_normal(n).astype(np.float32)
        y = rng.standard_normal(n).astype(np.float32)
        out = np.full(n, np.nan, np.float32)
        tuner[grid(n)](x, y, out, n)
        assert rel_error(out, x.astype(np.float64) + y) < 1e-7
    printed = capfd.readouterr().err
    assert "llk autotune 'add' [(200,)]: 3 configurations compiled" in printed
    assert "1/3 BLOCK=64 T=f32 num_warps=1: median" in printed
    assert "3/3 BLOCK=128 T=f32 num_warps=4 num_stages=2: median" in printed
    assert printed.count(": best ") == 2  # one tuning a key
    # The same key again: no tuning, the winner straight away.
    x = rng.standard_normal(200).astype(np.float32)
    out = np.full(200, np.nan, np.float32)
    tuner[grid(200)](x, x, out, 200)
    assert ": best" not in capfd.readouterr().err
    assert rel_error(out, 2.0 * x) < 1e-7
    times = tuner.timings(x, x, out, 200)
    assert len(times) == 3 and all(t is not None for t in times.values())
    assert all(p20 <= median <= p80 for median, p20, p80 in times.values())
    best = tuner.best_config(grid(200), x, x, out, 200)
    assert best in tuner.configs
    assert tuner.kernel(tuner.configs.index(best)).num_warps == best.num_warps


def test_restores_what_the_kernel_overwrites(rng):
    n = 250
    x0 = rng.standard_normal(n).astype(np.float32)
    x = x0.copy()
    tuner = llk.autotune(DOUBLE, CONFIGS, restore=[0], warmup=0, rep=2)
    tuner[grid(n)](x, n)
    assert (x == 2 * x0).all()  # tuned many times, launched once
    # Another key (not the winner the first one cached): tuned, nothing restored.
    careless = llk.autotune(DOUBLE, CONFIGS, key=lambda x, n: "careless", warmup=0, rep=2)
    x = x0.copy()
    careless[grid(n)](x, n)
    assert not (x == 2 * x0).all()


def test_the_winner_persists_in_the_cache(rng):
    n = 130
    x = rng.standard_normal(n).astype(np.float32)
    first = llk.autotune(DOUBLE, CONFIGS, key=lambda x, n: ("n", n), restore=[0], warmup=0,
                         rep=2)
    best = first.tune(grid(n), x, n)
    second = llk.autotune(DOUBLE, CONFIGS, key=lambda x, n: ("n", n), restore=[0], warmup=0,
                          rep=2)
    assert second.tune(grid(n), x, n) == best
    # From the cache: no measurements behind it.
    times = second.timings(x, n)
    assert all(t is None or t[1] != t[1] for t in times.values()), times


def test_errors():
    with pytest.raises(ValueError, match="at least one Config"):
        llk.autotune(DOUBLE, [])
    with pytest.raises(llk.ArgumentError):
        llk.autotune(DOUBLE, [llk.Config({"BLOCK": 64}, num_warps=3)]).kernel(0)
    tuner = llk.autotune(DOUBLE, CONFIGS, restore=[1], warmup=0, rep=1)
    with pytest.raises(TypeError, match="restore names argument 1, which is not an array"):
        tuner[grid(4)](np.zeros(4, np.float32), 4)
