//===- DeviceProblem.cpp - a kernel check's problem on a device -----------===//

#include "DeviceProblem.h"

#include "llk/Compiler/Compiler.h"

#include <algorithm>

using namespace llk;
using checks::HostBuffer;
using checks::Problem;
using interp::ElemType;

rt::ScalarType llk::tools::scalarType(ElemType type) {
  switch (type) {
  case ElemType::F64: return rt::ScalarType::F64;
  case ElemType::F32: return rt::ScalarType::F32;
  case ElemType::F16: return rt::ScalarType::F16;
  case ElemType::BF16: return rt::ScalarType::BF16;
  case ElemType::I64: return rt::ScalarType::I64;
  case ElemType::I32: return rt::ScalarType::I32;
  case ElemType::I16: return rt::ScalarType::I16;
  case ElemType::I8: return rt::ScalarType::I8;
  case ElemType::F8E4M3FN: return rt::ScalarType::F8E4M3FN;
  case ElemType::F8E5M2: return rt::ScalarType::F8E5M2;
  }
  return rt::ScalarType::I8;
}

uint64_t llk::tools::scalarBits(ElemType type, double value) {
  uint64_t bits = 0;
  switch (type) {
  case ElemType::I64: bits = uint64_t(int64_t(value)); break;
  case ElemType::I32: bits = uint32_t(int32_t(value)); break;
  case ElemType::I16: bits = uint16_t(int16_t(value)); break;
  case ElemType::I8: bits = uint8_t(int8_t(value)); break;
  default: interp::encodeElement(type, value, &bits); break;
  }
  return bits;
}

tools::DeviceProblem llk::tools::uploadProblem(rt::Device &device, rt::JIT &jit,
                                               const checks::KernelCheck &check,
                                               const Problem &problem,
                                               const std::string &examplesDir,
                                               const std::string &arch) {
  rt::JITOptions jitOptions;
  jitOptions.constants = check.constants;
  for (const auto &[name, value] : problem.constants)
    jitOptions.constants[name] = value;
  if (problem.numWarps)
    jitOptions.numWarps = problem.numWarps;
  if (problem.numStages)
    jitOptions.numStages = problem.numStages;
  jitOptions.arch = arch.empty() ? problem.arch : arch;
  if (unsigned programs = llk::hasWgmma(jitOptions.arch) ? problem.wgmmaMinProgramsPerSM
                                                         : problem.minProgramsPerSM)
    jitOptions.minProgramsPerSM = programs;
  DeviceProblem result{
      jit.compile(rt::Source::fromFile(examplesDir + "/" + check.source),
                  jitOptions, check.kernel),
      {}, {}, {}, rt::Grid(problem.grid.x, problem.grid.y, problem.grid.z)};

  result.memory.reserve(problem.buffers.size());
  for (const HostBuffer &buffer : problem.buffers)
    result.memory.emplace_back(device, std::max<size_t>(1, buffer.bytes.size()));
  auto memoryOf = [&](const HostBuffer *buffer) -> rt::DeviceMemory & {
    size_t i = 0;
    for (const HostBuffer &b : problem.buffers) {
      if (&b == buffer)
        return result.memory[i];
      ++i;
    }
    throw rt::Error(rt::ErrorCode::InvalidArgument, "argument buffer not found");
  };
  size_t i = 0;
  for (const HostBuffer &buffer : problem.buffers) {
    const HostBuffer *contents = &buffer;
    HostBuffer table; // an address table, with the device addresses
    if (!buffer.addresses.empty()) {
      table = buffer;
      checks::writeAddresses(table, [&](const HostBuffer &b) {
        return static_cast<uint64_t>(memoryOf(&b).address());
      });
      contents = &table;
    }
    result.memory[i++].copyFromHost(contents->bytes.data(), contents->bytes.size());
  }
  for (const Problem::Arg &arg : problem.args) {
    if (arg.descriptor) {
      // A CUtensorMap with the box the kernel's metadata gives.
      const std::vector<int64_t> &shape = arg.buffer->shape;
      result.maps.emplace_back(device, result.kernel.info().params[result.args.size()],
                               memoryOf(arg.buffer).address(), shape[0], shape[1],
                               shape[1] * interp::elemTypeSize(arg.buffer->type));
      result.args.push_back(result.maps.back());
      continue;
    }
    // Pointers go untyped: a check may hand a kernel raw bytes (a byte
    // pointer over f32 data, as ggml's cpy does), which the interpreter
    // accepts too; only scalars must match the signature exactly.
    result.args.push_back(
        arg.buffer ? rt::Arg::pointer(memoryOf(arg.buffer).address(), std::nullopt)
                   : rt::Arg::scalar(scalarType(arg.type),
                                     scalarBits(arg.type, arg.value)));
  }
  return result;
}

void llk::tools::launchAndDownload(DeviceProblem &device, Problem &problem) {
  rt::LaunchOptions checked;
  checked.synchronize = true;
  device.kernel.launch(device.grid, device.args, checked);
  size_t i = 0;
  for (HostBuffer &buffer : problem.buffers) {
    if (buffer.isOutput)
      device.memory[i].copyToHost(buffer.bytes.data(), buffer.bytes.size());
    ++i;
  }
}
