//===- Environment.cpp - every environment variable llk reads -------------===//

#include "llk/Environment.h"

#include <cstdlib>
#include <filesystem>
#include <unistd.h>

using namespace llk;

#ifndef LLK_DEFAULT_LIBDEVICE
#define LLK_DEFAULT_LIBDEVICE "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc"
#endif

const char *env::name(Knob knob) {
  switch (knob) {
  case Knob::Backend: return "LLK_BACKEND";
  case Knob::CudaLibrary: return "LLK_CUDA_LIBRARY";
  case Knob::CacheDir: return "LLK_CACHE_DIR";
  case Knob::Libdevice: return "LLK_LIBDEVICE";
  case Knob::Ptxas: return "LLK_PTXAS";
  case Knob::AlwaysCompile: return "LLK_ALWAYS_COMPILE";
  case Knob::DumpIR: return "LLK_DUMP_IR";
  case Knob::PrintAutotuning: return "LLK_PRINT_AUTOTUNING";
  case Knob::InterpMaxSteps: return "LLK_INTERP_MAX_STEPS";
  case Knob::DeviceDebug: return "LLK_DEVICE_DEBUG";
  case Knob::KernelDir: return "LLK_KERNEL_DIR";
  case Knob::TestSeed: return "LLK_TEST_SEED";
  case Knob::FuzzIterations: return "LLK_FUZZ_ITERATIONS";
  case Knob::LlamaTestModel: return "LLK_LLAMA_TEST_MODEL";
  }
  return "";
}

/// A variable's value; nothing when unset or empty.
static std::optional<std::string> read(const char *variable) {
  const char *value = std::getenv(variable);
  if (!value || !*value)
    return std::nullopt;
  return std::string(value);
}

std::optional<std::string> env::get(Knob knob) { return read(name(knob)); }

bool env::isOn(Knob knob) {
  std::optional<std::string> value = get(knob);
  return value && *value != "0" && *value != "false" && *value != "off" &&
         *value != "no";
}

std::string env::cudaLibrary() {
  return get(Knob::CudaLibrary).value_or("libcuda.so.1");
}

std::string env::cacheDirectory() {
  if (auto dir = get(Knob::CacheDir))
    return *dir;
  if (auto xdg = read("XDG_CACHE_HOME"))
    return *xdg + "/llk";
  if (auto home = read("HOME"))
    return *home + "/.cache/llk";
  return (std::filesystem::temp_directory_path() / "llk-cache").string();
}

std::string env::libdevicePath() {
  return get(Knob::Libdevice).value_or(LLK_DEFAULT_LIBDEVICE);
}

std::optional<std::string> env::ptxasPath() {
  if (auto ptxas = get(Knob::Ptxas))
    return ptxas; // as given: a path that does not run is reported as such
  std::string candidates[2] = {"", "/usr/local/cuda/bin/ptxas"};
  if (auto cuda = read("CUDA_HOME"))
    candidates[0] = *cuda + "/bin/ptxas";
  for (const std::string &candidate : candidates)
    if (!candidate.empty() && ::access(candidate.c_str(), X_OK) == 0)
      return candidate;
  return std::nullopt;
}

bool env::alwaysCompile() { return isOn(Knob::AlwaysCompile); }

std::string env::dumpIRDirectory() { return get(Knob::DumpIR).value_or(""); }

bool env::printAutotuning() { return isOn(Knob::PrintAutotuning); }
