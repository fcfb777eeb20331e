# -*- Python -*-
#
# lit configuration of the llk tests. The site configuration that CMake
# writes into <build>/test/lit.site.cfg.py sets llvm_tools_dir, llk_src_root,
# llk_obj_root, llk_tools_dir and cuda_root, then loads this file.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "LLK"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)

# .mlir: dialect and compiler tests; .test: driver tests whose input is
# elsewhere (Inputs/, or nothing at all).
config.suffixes = [".mlir", ".test"]

config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.llk_obj_root, "test")

# Inputs/ holds files that tests read, not tests; lib/ the code tests share.
config.excludes = ["Inputs", "lib", "CMakeLists.txt", "README.txt", "lit.cfg.py",
                   "lit.site.cfg.py", "lit.site.cfg.py.in"]

llvm_config.with_system_environment(["HOME", "TMP", "TEMP"])
# FileCheck, `| not`, `| count`, %python, all from the LLVM 22 tools dir.
llvm_config.use_default_substitutions()

# Tools named at the start of a RUN line (`not llkc ...`) resolve through
# PATH: ours first, then LLVM 22's (not, count, FileCheck).
llvm_config.with_environment(
    "PATH", [config.llk_tools_dir, config.llvm_tools_dir], append_path=True)

# Results must not depend on the caller's libdevice choice.
config.environment.pop("LLK_LIBDEVICE", None)

tool_dirs = [config.llk_tools_dir, config.llvm_tools_dir]
tools = [
    ToolSubst("llk-opt", unresolved="fatal"),
    ToolSubst("llkc", unresolved="fatal"),
    ToolSubst("llk-run", unresolved="fatal"),
    ToolSubst("llk-interp-tests", unresolved="fatal"),
    ToolSubst("llk-check-kernels", unresolved="fatal"),
    ToolSubst("llk-gguf", unresolved="fatal"),
    ToolSubst("llk-llama-tests", unresolved="fatal"),
    ToolSubst("llk-llama-engine-tests", unresolved="ignore"),
    ToolSubst("llk-llama", unresolved="ignore"),
]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# llk-llama and its engine tests exist where the runtime is built (cuda.h):
# `REQUIRES: llk-llama`.
if os.path.exists(os.path.join(config.llk_tools_dir, "llk-llama")):
    config.available_features.add("llk-llama")
# %llk_tools_dir: where the built programs are (scripts that take --bin).
config.substitutions.append(("%llk_tools_dir", config.llk_tools_dir))
# llk-difftest (runtime/, built where cuda.h is): the differential test's
# runner (`REQUIRES: llk-difftest`).
if os.path.exists(os.path.join(config.llk_tools_dir, "llk-difftest")):
    config.available_features.add("llk-difftest")

# Builds with LLK_ENABLE_DEBUG_OUTPUT: llkc and llk-opt take -debug and
# -debug-only, and the passes trace their decisions (`REQUIRES:
# llk-debug-output`; `UNSUPPORTED:` it for what holds of the others).
if config.llk_debug_output:
    config.available_features.add("llk-debug-output")

# %examples: the DSL examples shipped with the sources.
config.substitutions.append(
    ("%examples", os.path.join(config.llk_src_root, "examples")))

# %ptxas and the `ptxas` feature: PTX assembler of the CUDA toolkit, for tests
# that check that emitted PTX assembles (`REQUIRES: ptxas`).
ptxas = os.path.join(config.cuda_root or "/usr/local/cuda", "bin", "ptxas")
if not os.path.exists(ptxas):
    ptxas = "/usr/local/cuda/bin/ptxas"
if os.path.exists(ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))

# %numpy_python and the `numpy` feature: a Python 3 that has NumPy, for the
# benchmarks' CPU self-tests (lit's own Python first, then the system's:
# scripts/build.sh installs python3-numpy there).
import subprocess
import sys
for python in (sys.executable, "/usr/bin/python3"):
    if os.path.exists(python) and subprocess.run(
            [python, "-c", "import numpy"], capture_output=True).returncode == 0:
        config.available_features.add("numpy")
        config.substitutions.append(("%numpy_python", python))
        break
