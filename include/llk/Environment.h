//===- Environment.h - every environment variable llk reads -----*- C++ -*-===//
//
// The one place that reads the environment: the LLK_* knobs, and the
// variables their defaults come from (XDG_CACHE_HOME, HOME, CUDA_HOME).
// docs/runtime.md lists them in one table. Values are read on every call,
// not cached, so a program (or a test) may change them as it runs. This
// header uses the standard library only: the runtime without the compiler
// (libllk_runtime.a) reads its knobs here too.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_ENVIRONMENT_H
#define LLK_ENVIRONMENT_H

#include "llk/Export.h"

#include <optional>
#include <string>

namespace llk::env {

enum class Knob {
  Backend,       // LLK_BACKEND: cuda (gpu, unset) or interpreter
  CudaLibrary,   // LLK_CUDA_LIBRARY: the driver library to dlopen
  CacheDir,      // LLK_CACHE_DIR: the JIT's disk cache
  Libdevice,     // LLK_LIBDEVICE: libdevice bitcode for math functions
  Ptxas,         // LLK_PTXAS: the ptxas that makes cubins
  AlwaysCompile, // LLK_ALWAYS_COMPILE: the JIT compiles, never reads its cache
  DumpIR,        // LLK_DUMP_IR: a directory for every JIT compile's stages
  PrintAutotuning, // LLK_PRINT_AUTOTUNING: a line per configuration tuned
  InterpMaxSteps, // LLK_INTERP_MAX_STEPS: the interpreter's watchdog, in ops
  DeviceDebug,   // LLK_DEVICE_DEBUG: tile.print / tile.assert compiled in (JIT, interpreter)
  KernelDir,     // LLK_KERNEL_DIR: where the Llama engine finds its kernels
  TestSeed,      // LLK_TEST_SEED: the unit tests' random seed
  FuzzIterations, // LLK_FUZZ_ITERATIONS: the GGUF fuzz test's length
  LlamaTestModel, // LLK_LLAMA_TEST_MODEL: a GGUF model for the engine's test
};

/// The variable's name: "LLK_BACKEND", ...
LLK_API const char *name(Knob knob);
/// Its value; nothing when it is unset or empty.
LLK_API std::optional<std::string> get(Knob knob);
/// Whether a switch is on: set to anything but "", "0", "false", "off", "no".
LLK_API bool isOn(Knob knob);

/// The driver library: LLK_CUDA_LIBRARY, else libcuda.so.1.
LLK_API std::string cudaLibrary();
/// The cache directory: LLK_CACHE_DIR, else $XDG_CACHE_HOME/llk, else
/// ~/.cache/llk, else <temporary directory>/llk-cache.
LLK_API std::string cacheDirectory();
/// libdevice: LLK_LIBDEVICE, else the toolkit's that the build found.
LLK_API std::string libdevicePath();
/// ptxas: LLK_PTXAS, else $CUDA_HOME/bin/ptxas, else
/// /usr/local/cuda/bin/ptxas; the first that is set (LLK_PTXAS) or exists
/// (the others). Nothing when none does.
LLK_API std::optional<std::string> ptxasPath();
/// LLK_ALWAYS_COMPILE: ignore cached kernels (they are still stored).
LLK_API bool alwaysCompile();
/// LLK_DUMP_IR: where each JIT compile writes its stages; empty: nowhere.
LLK_API std::string dumpIRDirectory();
/// LLK_PRINT_AUTOTUNING: the autotuner prints each configuration's time.
LLK_API bool printAutotuning();

} // namespace llk::env

#endif // LLK_ENVIRONMENT_H
