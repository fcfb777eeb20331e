//===- DeviceProblem.h - a kernel check's problem on a device ---*- C++ -*-===//
//
// What llk-gpu-check and llk-difftest share: a test/lib/Checks problem (its
// inputs, outputs and arguments) compiled, uploaded and launched through the
// runtime on a device, its outputs copied back.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_RUNTIME_TOOLS_DEVICEPROBLEM_H
#define LLK_RUNTIME_TOOLS_DEVICEPROBLEM_H

#include "Checks/KernelChecks.h"
#include "llk/runtime/JIT.h"

#include <deque>
#include <string>
#include <vector>

namespace llk::tools {

/// The runtime's scalar type of an interpreter element type.
rt::ScalarType scalarType(interp::ElemType type);

/// A scalar argument's bits, as the kernel parameter holds them.
uint64_t scalarBits(interp::ElemType type, double value);

/// A problem on a device: its kernel compiled, its buffers uploaded (one
/// allocation per buffer, in order), its arguments.
struct DeviceProblem {
  rt::Kernel kernel;
  std::vector<rt::DeviceMemory> memory;
  std::deque<rt::TensorMap> maps; // alive as long as the arguments
  rt::ArgList args;
  rt::Grid grid;
};

/// Compiles the check's kernel with the problem's constants, warps and arch
/// (`arch`, when not empty, overrides the problem's) and uploads the
/// buffers' bytes as they are (poison the outputs first).
DeviceProblem uploadProblem(rt::Device &device, rt::JIT &jit,
                            const checks::KernelCheck &check,
                            const checks::Problem &problem,
                            const std::string &examplesDir,
                            const std::string &arch = "");

/// Launches once, synchronized, and copies every output back into the
/// problem's bytes.
void launchAndDownload(DeviceProblem &device, checks::Problem &problem);

} // namespace llk::tools

#endif // LLK_RUNTIME_TOOLS_DEVICEPROBLEM_H
