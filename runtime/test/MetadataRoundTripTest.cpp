//===- MetadataRoundTripTest.cpp - the compiler writes, the runtime reads -===//
//
// One schema (llk/KernelMetadata.h), two implementations: the compiler's
// writer (llk::metadataToJSON, over LLVM's JSON) and the runtime's reader
// (rt::parseModuleInfo, LLVM-free). Metadata with every field set to a value
// other than its default goes through both and comes back the same, field
// by field. The comparisons bind every member by structured bindings, so a
// field added to a struct fails to compile here until it is compared (and
// so written and read).
//
//===----------------------------------------------------------------------===//

#include "llk/Compiler/Metadata.h"
#include "llk/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <string>

using namespace llk;

namespace {

void expectSameParam(const KernelParam &read, const KernelParam &written,
                     const std::string &where) {
  const auto &[kind, type, tmaBox, readOverrunBytes, divisibility] = read;
  const auto &[wKind, wType, wTmaBox, wReadOverrunBytes, wDivisibility] = written;
  EXPECT_EQ(kind, wKind) << where;
  EXPECT_EQ(type, wType) << where;
  EXPECT_EQ(tmaBox, wTmaBox) << where;
  EXPECT_EQ(readOverrunBytes, wReadOverrunBytes) << where;
  EXPECT_EQ(divisibility, wDivisibility) << where;
}

void expectSameKernel(const KernelMetadata &read, const KernelMetadata &written) {
  const auto &[name, params, numWarps, sharedBytes, dynamicSharedBytes,
               gridDependencyWait] = read;
  const auto &[wName, wParams, wNumWarps, wSharedBytes, wDynamicSharedBytes,
               wGridDependencyWait] = written;
  EXPECT_EQ(name, wName);
  EXPECT_EQ(numWarps, wNumWarps) << name;
  EXPECT_EQ(sharedBytes, wSharedBytes) << name;
  EXPECT_EQ(dynamicSharedBytes, wDynamicSharedBytes) << name;
  EXPECT_EQ(gridDependencyWait, wGridDependencyWait) << name;
  ASSERT_EQ(params.size(), wParams.size()) << name;
  for (size_t i = 0; i < params.size(); ++i)
    expectSameParam(params[i], wParams[i], name + " param " + std::to_string(i));
}

void expectSameModule(const ModuleMetadata &read, const ModuleMetadata &written) {
  const auto &[compiler, arch, constants, kernels] = read;
  const auto &[wCompiler, wArch, wConstants, wKernels] = written;
  EXPECT_EQ(compiler, wCompiler);
  EXPECT_EQ(arch, wArch);
  EXPECT_EQ(constants, wConstants);
  ASSERT_EQ(kernels.size(), wKernels.size());
  for (size_t i = 0; i < kernels.size(); ++i)
    expectSameKernel(kernels[i], wKernels[i]);
}

KernelParam param(KernelParam::Kind kind, ScalarType type,
                  std::vector<int64_t> tmaBox = {}, int64_t readOverrunBytes = 0,
                  int64_t divisibility = 1) {
  KernelParam p;
  p.divisibility = divisibility;
  p.kind = kind;
  p.type = type;
  p.tmaBox = std::move(tmaBox);
  p.readOverrunBytes = readOverrunBytes;
  return p;
}

/// Every field away from its default somewhere: each parameter kind, each
/// scalar type, a read overrun (the buffer contract), TMA boxes, dynamic
/// shared memory, a dependent launch, integer and type constants; and a
/// kernel that leaves the optional fields at their defaults.
ModuleMetadata everyField() {
  using Kind = KernelParam::Kind;
  ModuleMetadata m;
  m.compiler = "llk 9.8.7";
  m.arch = "sm_90a";
  m.constants["BLOCK_M"] = 128;
  m.constants["NEG"] = -3;
  m.constants["T"] = ElementType::BF16;
  KernelMetadata gemm;
  gemm.name = "gemm_tma";
  gemm.numWarps = 8;
  gemm.sharedBytes = 1234;
  gemm.dynamicSharedBytes = 98304;
  gemm.gridDependencyWait = true;
  gemm.params = {param(Kind::TensorDesc, ScalarType::F16, {128, 64}),
                 param(Kind::TensorDesc, ScalarType::BF16, {64, 256}),
                 param(Kind::Pointer, ScalarType::I8, {}, 14),
                 param(Kind::Pointer, ScalarType::F32, {}, 1, 16),
                 param(Kind::Pointer, ScalarType::F64),
                 param(Kind::Pointer, ScalarType::F8E4M3FN),
                 param(Kind::Pointer, ScalarType::F8E5M2)};
  // (fp8 is passed by pointer only.)
  for (int t = 0; t <= static_cast<int>(ScalarType::F64); ++t)
    gemm.params.push_back(param(Kind::Scalar, static_cast<ScalarType>(t)));
  // An integer's contract (a pointer's is above).
  gemm.params.push_back(param(Kind::Scalar, ScalarType::I32, {}, 0, 1 << 30));
  KernelMetadata plain;
  plain.name = "plain";
  plain.numWarps = 1;
  plain.params = {param(Kind::Pointer, ScalarType::I32),
                  param(Kind::Scalar, ScalarType::I64)};
  m.kernels = {gemm, plain};
  return m;
}

TEST(MetadataRoundTrip, EveryFieldWrittenByTheCompilerIsReadByTheRuntime) {
  ModuleMetadata written = everyField();
  std::string json = metadataToJSON(written);
  ModuleMetadata read = rt::parseModuleInfo(json);
  expectSameModule(read, written);
  // The same once more, from what was read.
  EXPECT_EQ(metadataToJSON(read), json);
}

TEST(MetadataRoundTrip, TheWriterWritesEveryMemberOfTheSchema) {
  std::string json = metadataToJSON(everyField());
  for (std::string_view name : metadata::kMemberNames)
    EXPECT_NE(json.find("\"" + std::string(name) + "\":"), std::string::npos)
        << "the compiler writes no '" << name << "'\n"
        << json;
  for (std::string_view name : metadata::kKindNames)
    EXPECT_NE(json.find("\"" + std::string(name) + "\""), std::string::npos) << name;
  for (std::string_view name : metadata::kScalarTypeNames)
    EXPECT_NE(json.find("\"" + std::string(name) + "\""), std::string::npos) << name;
}

/// The compiler omits what is at its default where the reader allows it
/// (read_overrun_bytes 0, divisibility 1), and writes what the reader
/// requires.
TEST(MetadataRoundTrip, DefaultsSurvive) {
  ModuleMetadata written = everyField();
  written.kernels = {written.kernels[1]};
  std::string json = metadataToJSON(written);
  EXPECT_EQ(json.find("read_overrun_bytes"), std::string::npos) << json;
  EXPECT_EQ(json.find("tma_box"), std::string::npos) << json;
  EXPECT_EQ(json.find("divisibility"), std::string::npos) << json;
  expectSameModule(rt::parseModuleInfo(json), written);
}

} // namespace
