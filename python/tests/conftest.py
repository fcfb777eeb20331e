"""Shared fixtures: the examples folder, a fresh random generator (its seed
printed, LLK_TEST_SEED repeats it) and a private JIT cache. The tests run
on the interpreter unless LLK_BACKEND says otherwise (CI: the interpreter;
scripts/gpu-check.sh run python: cuda, with torch). They test the installed
package (pip install -e python), not the source folder."""
import os
import random
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def pytest_configure(config):
    os.environ.setdefault("LLK_BACKEND", "interpreter")


@pytest.fixture(scope="session", autouse=True)
def private_cache(tmp_path_factory):
    """Every test run compiles into a cache of its own (no winner or kernel
    of an earlier run)."""
    os.environ["LLK_CACHE_DIR"] = str(tmp_path_factory.mktemp("llk-cache"))
    yield


@pytest.fixture
def rng(request):
    import numpy as np
    seed = int(os.environ.get("LLK_TEST_SEED", random.randrange(2**31)))
    request.node.user_properties.append(("seed", seed))
    print(f"seed {seed} (LLK_TEST_SEED={seed} repeats it)")
    return np.random.default_rng(seed)


def on_interpreter():
    return os.environ.get("LLK_BACKEND") == "interpreter"


@pytest.fixture
def examples():
    return EXAMPLES
