//===- RuntimeTest.cpp - CPU-side tests of the llk runtime ----------------===//
//
// Signature checks, argument packing, grid and shared-memory checks,
// metadata parsing, cache keys, corrupt-cache recovery (and entries that are
// not files), concurrent compiles (threads and processes), behaviour with no
// CUDA driver, the interpreter backend (kernels, errors, graphs, events, the
// softmax example program with LLK_BACKEND=interpreter), the programs'
// argument checks and the C interface's handle checks. None needs a GPU.
// The binary re-runs itself (`--child=...`) for the multi-process and
// no-driver cases.
//
//===----------------------------------------------------------------------===//

#include "CheckRun.h"
#include "ProgramArgs.h"

#include "llk/Environment.h"
#include "llk/Interpreter/Interpreter.h"
#include "llk/Version.h"
#include "llk/runtime.h"
#include "llk/runtime/JIT.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <random>
#include <set>
#include <fstream>
#include <future>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <tuple>
#include <unistd.h>

using namespace llk::rt;
namespace fs = std::filesystem;
constexpr ParamInfo::Kind Pointer = ParamInfo::Kind::Pointer;
constexpr ParamInfo::Kind Scalar = ParamInfo::Kind::Scalar;

#ifndef LLK_SOURCE_DIR
#error "LLK_SOURCE_DIR must point at the llk sources"
#endif

static std::string selfPath;

static std::string examplePath(const std::string &name) {
  return std::string(LLK_SOURCE_DIR) + "/examples/" + name;
}

/// A fresh directory under the system's temporary directory.
static std::string freshDirectory(const std::string &tag) {
  std::string base = (fs::temp_directory_path() / ("llk-rt-test-" + tag + "-")).string();
  std::string dir = base + std::to_string(getpid()) + "-" + std::to_string(std::rand());
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

static std::string readAll(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

static void writeAll(const std::string &path, const std::string &data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << data;
}

/// Runs this binary with `args`, extra environment `env`; returns the exit
/// status and what it printed.
static int runProgram(const std::string &program, const std::vector<std::string> &args,
                      const std::vector<std::pair<std::string, std::string>> &env,
                      std::string *output);
static int runSelf(const std::vector<std::string> &args,
                   const std::vector<std::pair<std::string, std::string>> &env,
                   std::string *output) {
  return runProgram(selfPath, args, env, output);
}

/// Runs `program` with `args`, extra environment `env`; returns the exit
/// status and what it printed (stdout and stderr).
static int runProgram(const std::string &program, const std::vector<std::string> &args,
                      const std::vector<std::pair<std::string, std::string>> &env,
                      std::string *output) {
  std::string outFile = freshDirectory("child") + "/out.txt";
  pid_t pid = fork();
  if (pid == 0) {
    for (const auto &[k, v] : env)
      setenv(k.c_str(), v.c_str(), 1);
    FILE *f = freopen(outFile.c_str(), "w", stdout);
    (void)f;
    dup2(fileno(stdout), 2);
    std::vector<char *> argv{const_cast<char *>(program.c_str())};
    for (const std::string &a : args)
      argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    execv(program.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (output)
    *output = readAll(outFile);
  fs::remove_all(fs::path(outFile).parent_path());
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static KernelInfo softmaxInfo() {
  KernelInfo k;
  k.name = "softmax_kernel";
  k.numWarps = 8;
  k.sharedBytes = 64;
  k.params = {{Pointer, ScalarType::F32}, {Pointer, ScalarType::F32},
              {Scalar, ScalarType::I32}, {Scalar, ScalarType::I32},
              {Scalar, ScalarType::I32}};
  return k;
}

static const char *kMetadata = R"({
  "format": 2, "compiler": "llk 0.1.0", "arch": "sm_90",
  "constants": {"BLOCK": 1024},
  "kernels": [{"name": "softmax_kernel", "num_warps": 8, "shared_bytes": 64,
               "params": [{"kind": "pointer", "type": "f32"},
                          {"kind": "pointer", "type": "f32"},
                          {"kind": "scalar", "type": "i32"},
                          {"kind": "scalar", "type": "i32"},
                          {"kind": "scalar", "type": "i32"}]}]
})";

//===----------------------------------------------------------------------===//
// Metadata
//===----------------------------------------------------------------------===//

TEST(Metadata, ParsesWhatLlkcWrites) {
  ModuleInfo info = parseModuleInfo(kMetadata);
  EXPECT_EQ(info.arch, "sm_90");
  EXPECT_EQ(info.constants.at("BLOCK"), 1024);
  ASSERT_EQ(info.kernels.size(), 1u);
  const KernelInfo &k = info.kernels[0];
  EXPECT_EQ(k.signature(), "softmax_kernel(ptr<f32>, ptr<f32>, i32, i32, i32)");
  EXPECT_EQ(k.numWarps, 8u);
  EXPECT_EQ(k.sharedBytes, 64);
  EXPECT_EQ(k.dynamicSharedBytes, 0); // optional, absent here
  EXPECT_NE(info.find("softmax_kernel"), nullptr);
  EXPECT_EQ(info.find("nope"), nullptr);
  // Type constants are recorded by name; other strings are no constants.
  std::string typed = kMetadata;
  typed.replace(typed.find("\"BLOCK\": 1024"), 13, R"("BLOCK": 1024, "T": "bf16")");
  EXPECT_EQ(parseModuleInfo(typed).constants.at("T"), llk::ElementType::BF16);
  typed.replace(typed.find("bf16"), 4, "float7");
  EXPECT_THROW(parseModuleInfo(typed), Error);
}

static std::string metadataError(const std::string &json) {
  try {
    parseModuleInfo(json);
  } catch (const Error &e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
    return e.what();
  }
  return "<no error>";
}

TEST(Metadata, DynamicSharedBytes) {
  std::string json = kMetadata;
  json.replace(json.find("\"shared_bytes\": 64"), 18,
               "\"shared_bytes\": 0, \"dynamic_shared_bytes\": 98304");
  EXPECT_EQ(parseModuleInfo(json).kernels[0].dynamicSharedBytes, 98304);
  std::string negative = kMetadata;
  negative.replace(negative.find("\"shared_bytes\": 64"), 18,
                   "\"shared_bytes\": 0, \"dynamic_shared_bytes\": -1");
  EXPECT_NE(metadataError(negative).find("kernels[0].dynamic_shared_bytes"),
            std::string::npos);
}

TEST(Metadata, GridDependencyWait) {
  EXPECT_FALSE(parseModuleInfo(kMetadata).kernels[0].gridDependencyWait); // optional
  std::string json = kMetadata;
  json.replace(json.find("\"shared_bytes\": 64"), 18,
               "\"shared_bytes\": 64, \"grid_dependency_wait\": true");
  EXPECT_TRUE(parseModuleInfo(json).kernels[0].gridDependencyWait);
  json.replace(json.find("true"), 4, "1");
  EXPECT_NE(metadataError(json).find("kernels[0].grid_dependency_wait"), std::string::npos);
}

TEST(Metadata, ReadOverrunBytes) {
  EXPECT_EQ(parseModuleInfo(kMetadata).kernels[0].params[1].readOverrunBytes, 0);
  std::string json = kMetadata;
  size_t second = json.find(R"({"kind": "pointer", "type": "f32"})", json.find("pointer") + 1);
  json.replace(second, 34, R"({"kind": "pointer", "type": "f32", "read_overrun_bytes": 14})");
  EXPECT_EQ(parseModuleInfo(json).kernels[0].params[1].readOverrunBytes, 14);
  EXPECT_EQ(parseModuleInfo(json).kernels[0].params[0].readOverrunBytes, 0);
  // Past what the allocations' padding covers.
  std::string far = json;
  far.replace(far.find("14"), 2, "16");
  EXPECT_NE(metadataError(far).find("kernels[0].params[1].read_overrun_bytes: expected 0 to 15"),
            std::string::npos)
      << metadataError(far);
  far.replace(far.find("16"), 2, "-1");
  EXPECT_NE(metadataError(far).find("read_overrun_bytes"), std::string::npos);
}

TEST(Metadata, RejectsMalformedInput) {
  EXPECT_NE(metadataError("{").find("malformed"), std::string::npos);
  EXPECT_NE(metadataError("{} x").find("trailing"), std::string::npos);
  EXPECT_NE(metadataError(R"({"format": 3})").find("unsupported format 3"),
            std::string::npos);
  // Format 1 had no argument contracts: its kernels could not be checked.
  EXPECT_NE(metadataError(R"({"format": 1})")
                .find("unsupported format 1 (this runtime reads format 2)"),
            std::string::npos);
  std::string noKernels = R"({"format":2,"compiler":"c","arch":"sm_90","constants":{}})";
  EXPECT_NE(metadataError(noKernels).find("missing member 'kernels'"), std::string::npos);
  std::string badType = kMetadata;
  badType.replace(badType.find("\"i32\""), 5, "\"u7\"");
  EXPECT_NE(metadataError(badType).find("kernels[0].params[2].type"), std::string::npos);
  std::string badWarps = kMetadata;
  badWarps.replace(badWarps.find("\"num_warps\": 8"), 14, "\"num_warps\": 0");
  EXPECT_NE(metadataError(badWarps).find("num_warps"), std::string::npos);
}

//===----------------------------------------------------------------------===//
// Arguments, grids, shared memory
//===----------------------------------------------------------------------===//

static std::string packError(const KernelInfo &k, const ArgList &args) {
  try {
    packArgs(k, args);
  } catch (const Error &e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
    EXPECT_EQ(e.kernel(), k.name);
    return e.what();
  }
  return "<no error>";
}

TEST(Args, PacksInSourceOrder) {
  KernelInfo k = softmaxInfo();
  PackedArgs packed = packArgs(
      k, {Arg::pointer(0x7f0000001000, ScalarType::F32),
          Arg::pointer(0x7f0000002000, std::nullopt), int32_t(-1), 4096, 17});
  ASSERT_EQ(packed.slots.size(), 5u);
  EXPECT_EQ(packed.slots[0], 0x7f0000001000u);
  EXPECT_EQ(packed.slots[1], 0x7f0000002000u);
  EXPECT_EQ(packed.slots[2], 0xffffffffu); // i32 -1: four bytes, rest zero
  EXPECT_EQ(packed.slots[3], 4096u);
  std::vector<void *> pointers = packed.pointers();
  EXPECT_EQ(*static_cast<int32_t *>(pointers[4]), 17);

  KernelInfo scalars;
  scalars.name = "s";
  scalars.params = {{Scalar, ScalarType::F32}, {Scalar, ScalarType::I64},
                    {Scalar, ScalarType::F16}, {Scalar, ScalarType::F64}};
  packed = packArgs(scalars, {1.5f, int64_t(-2), Arg::f16(0x3c00), 2.0});
  EXPECT_EQ(packed.slots[0], 0x3fc00000u);
  EXPECT_EQ(packed.slots[1], uint64_t(-2));
  EXPECT_EQ(packed.slots[2], 0x3c00u);
  EXPECT_EQ(packed.slots[3], 0x4000000000000000u);
}

TEST(Args, SignatureChecks) {
  KernelInfo k = softmaxInfo();
  auto out = Arg::pointer(0x1000, ScalarType::F32);
  EXPECT_NE(packError(k, {out, out, 1, 2}).find("expected 5 arguments, got 4"),
            std::string::npos);
  EXPECT_NE(packError(k, {out, out, 1, 2, 3, 4}).find("expected 5 arguments, got 6"),
            std::string::npos);
  EXPECT_NE(packError(k, {out, 7, 1, 2, 3})
                .find("argument 1 is i32 but the parameter is ptr<f32>"),
            std::string::npos);
  EXPECT_NE(packError(k, {out, out, out, 2, 3})
                .find("argument 2 is ptr<f32> but the parameter is i32"),
            std::string::npos);
  EXPECT_NE(packError(k, {Arg::pointer(0x1000, ScalarType::F16), out, 1, 2, 3})
                .find("argument 0 is ptr<f16> but the parameter is ptr<f32>"),
            std::string::npos);
  EXPECT_NE(packError(k, {out, out, int64_t(1), 2, 3})
                .find("argument 2 is i64 but the parameter is i32"),
            std::string::npos);
  EXPECT_NE(packError(k, {out, out, 1.0f, 2, 3}).find("is f32 but the parameter is i32"),
            std::string::npos);
  // The message names the signature.
  EXPECT_NE(packError(k, {}).find("softmax_kernel(ptr<f32>, ptr<f32>, i32, i32, i32)"),
            std::string::npos);
}

/// softmaxInfo with the example's contracts: 16-byte aligned pointers,
/// strides and n_cols multiples of 4.
static KernelInfo softmaxWithContracts() {
  std::string json = kMetadata;
  for (size_t at = 0; (at = json.find(R"("type": "f32"})", at)) != std::string::npos; at += 16)
    json.replace(at, 14, R"("type": "f32", "divisibility": 16})");
  for (size_t at = 0; (at = json.find(R"("type": "i32"})", at)) != std::string::npos; at += 16)
    json.replace(at, 14, R"("type": "i32", "divisibility": 4})");
  return parseModuleInfo(json).kernels[0];
}

TEST(Metadata, ArgumentContracts) {
  KernelInfo k = softmaxWithContracts();
  EXPECT_EQ(k.params[0].divisibility, 16);
  EXPECT_EQ(k.params[4].divisibility, 4);
  EXPECT_EQ(softmaxInfo().params[0].divisibility, 1); // absent: no promise
  // A power of two, on a pointer or an integer.
  std::string json = kMetadata;
  json.replace(json.find(R"("type": "i32"})"), 14, R"("type": "i32", "divisibility": 12})");
  EXPECT_NE(metadataError(json).find(
                "kernels[0].params[2].divisibility: expected a power of two"),
            std::string::npos)
      << metadataError(json);
  json.replace(json.find("12"), 2, "0");
  EXPECT_NE(metadataError(json).find("divisibility"), std::string::npos);
  std::string onFloat = R"({"format": 2, "compiler": "c", "arch": "sm_90", "constants": {},
      "kernels": [{"name": "k", "num_warps": 1, "shared_bytes": 0,
                   "params": [{"kind": "scalar", "type": "f32", "divisibility": 4}]}]})";
  EXPECT_NE(metadataError(onFloat).find("on a pointer or integer parameter"),
            std::string::npos)
      << metadataError(onFloat);
}

TEST(Args, ContractsAreChecked) {
  KernelInfo k = softmaxWithContracts();
  auto out = Arg::pointer(0x7f0000001000, ScalarType::F32);
  // Kept: multiples, negative ones included.
  EXPECT_EQ(packError(k, {out, out, 64, -8, 0}), "<no error>");
  EXPECT_EQ(packError(k, {out, Arg::pointer(0, ScalarType::F32), 4, 4, 4}), "<no error>");
  // A misaligned pointer, and integers that are no multiple.
  EXPECT_EQ(packError(k, {out, Arg::pointer(0x7f0000001004, ScalarType::F32), 64, 64, 64}),
            "kernel 'softmax_kernel': argument 1 (ptr<f32>) is the address "
            "0x7f0000001004, which is not 16-byte aligned as its "
            "tile.divisibility = 16 promises; the signature is "
            "softmax_kernel(ptr<f32>, ptr<f32>, i32, i32, i32)");
  EXPECT_NE(packError(k, {out, out, 64, 64, 90})
                .find("argument 4 (i32) is 90, which is not a multiple of 4 as its "
                      "tile.divisibility = 4 promises"),
            std::string::npos);
  EXPECT_NE(packError(k, {out, out, -6, 64, 64}).find("argument 2 (i32) is -6, which"),
            std::string::npos);
  // Without a promise, a pointer is still aligned to its element.
  KernelInfo plain = softmaxInfo();
  EXPECT_NE(packError(plain, {out, Arg::pointer(0x1002, ScalarType::F32), 1, 2, 3})
                .find("argument 1 (ptr<f32>) is the address 0x1002, which is not "
                      "4-byte aligned as its element type f32 needs"),
            std::string::npos);
  EXPECT_EQ(packError(plain, {out, Arg::pointer(0x1004, std::nullopt), 1, 2, 3}),
            "<no error>");
  // An i8 parameter's contract applies to its 8 bits.
  KernelInfo bytes;
  bytes.name = "bytes";
  bytes.params = {{Scalar, ScalarType::I8}};
  bytes.params[0].divisibility = 4;
  EXPECT_EQ(packError(bytes, {Arg::scalar(ScalarType::I8, uint8_t(-4))}), "<no error>");
  EXPECT_NE(packError(bytes, {Arg::scalar(ScalarType::I8, uint8_t(-3))}).find("is -3, which"),
            std::string::npos);
}

TEST(Metadata, TensorDescriptors) {
  std::string json = kMetadata;
  std::string pointer = R"({"kind": "pointer", "type": "f32"})";
  json.replace(json.find(pointer), pointer.size(),
               R"({"kind": "tensordesc", "type": "f16", "tma_box": [8, 64], "tma_swizzle": 128})");
  KernelInfo k = parseModuleInfo(json).kernels[0];
  EXPECT_TRUE(k.params[0].isTensorDesc());
  EXPECT_TRUE(k.params[0].passedAsPointer());
  EXPECT_EQ(k.params[0].tmaBox, (std::vector<int64_t>{8, 64}));
  EXPECT_EQ(k.params[0].str(), "tensordesc<f16>");
  // A descriptor parameter takes a TensorMap, not a plain buffer.
  auto out = Arg::pointer(0x1000, ScalarType::F32);
  EXPECT_NE(packError(k, {Arg::pointer(0x2000, ScalarType::F16), out, 1, 2, 3})
                .find("argument 0 is ptr<f16> but the parameter is tensordesc<f16>"),
            std::string::npos);
  std::string badBox = json;
  badBox.replace(badBox.find("[8, 64]"), 7, "[8]");
  EXPECT_NE(metadataError(badBox).find("kernels[0].params[0].tma_box"),
            std::string::npos);
  // TensorMap encodes the 128-byte swizzle only: another is refused.
  std::string badSwizzle = json;
  badSwizzle.replace(badSwizzle.find("\"tma_swizzle\": 128"), 18, "\"tma_swizzle\": 64");
  EXPECT_NE(metadataError(badSwizzle).find("kernels[0].params[0].tma_swizzle: expected 128"),
            std::string::npos)
      << metadataError(badSwizzle);
}

static std::string gridError(const Grid &grid, unsigned warps = 8) {
  KernelInfo k = softmaxInfo();
  k.numWarps = warps;
  DeviceLimits limits; // H100-like defaults
  limits.maxThreadsPerBlock = 1024;
  try {
    checkGrid(k, grid, limits);
  } catch (const Error &e) {
    EXPECT_EQ(e.kernel(), "softmax_kernel");
    return e.what();
  }
  return "<no error>";
}

TEST(Launch, GridChecks) {
  EXPECT_EQ(gridError({1, 1, 1}), "<no error>");
  EXPECT_EQ(gridError({2147483647u, 65535, 65535}), "<no error>");
  EXPECT_NE(gridError({0}).find("grid (0, 1, 1) has a zero dimension"), std::string::npos);
  EXPECT_NE(gridError({4, 0, 1}).find("zero dimension"), std::string::npos);
  EXPECT_NE(gridError({4, 1, 65536}).find("over the device's limit of 65535 in z"),
            std::string::npos);
  EXPECT_NE(gridError({4, 65536}).find("in y"), std::string::npos);
  EXPECT_NE(gridError({1}, 64).find("2048 threads per block"), std::string::npos);
}

TEST(Launch, SharedMemoryChecks) {
  KernelInfo k = softmaxInfo();
  DeviceLimits limits;
  limits.sharedPerBlockOptin = 227 * 1024;
  EXPECT_NO_THROW(checkSharedMemory(k, 100 * 1024, limits));
  EXPECT_NO_THROW(checkSharedMemory(k, 227 * 1024 - 64, limits));
  try {
    checkSharedMemory(k, 227 * 1024, limits);
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("64 bytes of static plus 232448 of dynamic"),
              std::string::npos)
        << e.what();
  }
  // The kernel's own dynamic shared memory counts on every launch.
  k.sharedBytes = 0;
  k.dynamicSharedBytes = 200 * 1024;
  EXPECT_NO_THROW(checkSharedMemory(k, 27 * 1024, limits));
  EXPECT_THROW(checkSharedMemory(k, 28 * 1024, limits), Error);
}

//===----------------------------------------------------------------------===//
// JIT and cache
//===----------------------------------------------------------------------===//

static JITOptions softmaxOptions(int64_t block = 1024, unsigned warps = 4) {
  JITOptions o;
  o.constants["BLOCK"] = block;
  o.numWarps = warps;
  o.arch = "sm_90";
  return o;
}

TEST(CacheKey, DependsOnWhatTheResultDependsOn) {
  Source s = Source::fromText("func.func @k() { return }", "a.mlir");
  CacheKey base = CacheKey::make(s, softmaxOptions(), "sm_90");
  EXPECT_EQ(base.hash, CacheKey::make(s, softmaxOptions(), "sm_90").hash);
  EXPECT_EQ(base.hex().size(), 16u);
  // The name is only for diagnostics.
  EXPECT_EQ(base.hash,
            CacheKey::make(Source::fromText(s.text, "b.mlir"), softmaxOptions(), "sm_90").hash);
  EXPECT_NE(base.hash, CacheKey::make(s, softmaxOptions(2048), "sm_90").hash);
  EXPECT_NE(base.hash, CacheKey::make(s, softmaxOptions(1024, 8), "sm_90").hash);
  JITOptions noWarps = softmaxOptions();
  noWarps.numWarps.reset();
  EXPECT_NE(base.hash, CacheKey::make(s, noWarps, "sm_90").hash);
  EXPECT_NE(base.hash, CacheKey::make(s, softmaxOptions(), "sm_80").hash);
  EXPECT_NE(base.hash,
            CacheKey::make(Source::fromText(s.text + " ", "a.mlir"), softmaxOptions(), "sm_90").hash);
  JITOptions more = softmaxOptions();
  more.constants["A"] = 1;
  EXPECT_NE(base.hash, CacheKey::make(s, more, "sm_90").hash);
  // Type constants are part of the key: T=f16 and T=bf16 are two kernels.
  JITOptions f16 = softmaxOptions(), bf16 = softmaxOptions();
  f16.constants["T"] = llk::ElementType::F16;
  bf16.constants["T"] = llk::ElementType::BF16;
  EXPECT_NE(CacheKey::make(s, f16, "sm_90").hash, CacheKey::make(s, bf16, "sm_90").hash);
  EXPECT_NE(CacheKey::make(s, f16, "sm_90").description.find("T=f16"), std::string::npos);
  JITOptions stages = softmaxOptions();
  stages.numStages = 4;
  EXPECT_NE(base.hash, CacheKey::make(s, stages, "sm_90").hash);
  JITOptions programs = softmaxOptions();
  programs.minProgramsPerSM = 2;
  EXPECT_NE(base.hash, CacheKey::make(s, programs, "sm_90").hash);
  // The compiler's version and build id, and LLVM's version, are part of
  // the key.
  EXPECT_NE(base.description.find("llk 0.1.0 build " + llk::buildId()), std::string::npos)
      << base.description;
  EXPECT_NE(base.description.find(" LLVM 22."), std::string::npos) << base.description;
}

/// Sets an environment variable for a scope.
struct ScopedEnv {
  std::string name;
  std::optional<std::string> saved;
  ScopedEnv(std::string n, const std::string &value) : name(std::move(n)) {
    if (const char *old = std::getenv(name.c_str()))
      saved = old;
    setenv(name.c_str(), value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (saved)
      setenv(name.c_str(), saved->c_str(), 1);
    else
      unsetenv(name.c_str());
  }
};

TEST(CacheKey, ARebuiltCompilerHasOtherKeys) {
  Source s = Source::fromText("func.func @k() { return }", "a.mlir");
  CacheKey built = CacheKey::make(s, softmaxOptions(), "sm_90");
  EXPECT_EQ(llk::buildId().size(), 16u);
  llk::setBuildIdForTesting("0123456789abcdef");
  CacheKey rebuilt = CacheKey::make(s, softmaxOptions(), "sm_90");
  llk::setBuildIdForTesting("");
  EXPECT_NE(built.hash, rebuilt.hash);
  EXPECT_NE(rebuilt.description.find("build 0123456789abcdef"), std::string::npos);
  EXPECT_EQ(built.hash, CacheKey::make(s, softmaxOptions(), "sm_90").hash);
}

TEST(CacheKey, DependsOnLibdevicesBytes) {
  // A copy of libdevice (or of any file: the key hashes bytes) with one
  // byte changed, the size and path the same.
  std::string dir = freshDirectory("libdevice");
  std::string original = llk::env::libdevicePath();
  std::string bytes = fs::exists(original) ? readAll(original) : std::string(4096, 'x');
  std::string copy = dir + "/libdevice.10.bc";
  writeAll(copy, bytes);
  ScopedEnv libdevice("LLK_LIBDEVICE", copy);
  Source s = Source::fromText("func.func @k() { return }", "a.mlir");
  CacheKey before = CacheKey::make(s, softmaxOptions(), "sm_90");
  EXPECT_NE(before.description.find("libdevice " + toHex(hash64(bytes)) + " " + copy),
            std::string::npos)
      << before.description;
  bytes[bytes.size() / 2] ^= 1;
  writeAll(copy, bytes);
  // The digest is kept per path, size and modification time: make the
  // change visible even on a file system with coarse times.
  fs::last_write_time(copy, fs::last_write_time(copy) + std::chrono::seconds(2));
  CacheKey after = CacheKey::make(s, softmaxOptions(), "sm_90");
  EXPECT_NE(before.hash, after.hash);
  EXPECT_EQ(after.hash, CacheKey::make(s, softmaxOptions(), "sm_90").hash);
  // No libdevice at all is a key too (kernels without math still compile).
  ScopedEnv missing("LLK_LIBDEVICE", dir + "/none.bc");
  EXPECT_NE(CacheKey::make(s, softmaxOptions(), "sm_90").description.find("libdevice missing"),
            std::string::npos);
  fs::remove_all(dir);
}

TEST(JIT, CompilesSoftmaxWithMetadata) {
  JIT jit(std::make_shared<Cache>(freshDirectory("meta")));
  CompiledModule m = jit.compileModule(Source::fromFile(examplePath("softmax.mlir")),
                                       softmaxOptions(1024, 8));
  EXPECT_NE(m.ptx.find(".entry softmax_kernel"), std::string::npos);
  EXPECT_NE(m.ptx.find(".target sm_90"), std::string::npos);
  ModuleInfo info = parseModuleInfo(m.metadataJson);
  ASSERT_EQ(info.kernels.size(), 1u);
  EXPECT_EQ(info.kernels[0].signature(),
            "softmax_kernel(ptr<f32>, ptr<f32>, i32, i32, i32)");
  EXPECT_EQ(info.kernels[0].numWarps, 8u);
  EXPECT_GT(info.kernels[0].sharedBytes, 0); // cross-warp reductions
  EXPECT_EQ(info.constants.at("BLOCK"), 1024);
  EXPECT_EQ(info.arch, "sm_90");
  fs::remove_all(jit.cache().directory());
}

TEST(JIT, PipelinedGemmNeedsDynamicSharedMemory) {
  JIT jit(std::make_shared<Cache>(freshDirectory("gemm")));
  JITOptions o;
  o.constants = {{"T", llk::ElementType::F16},
                 {"BLOCK_M", 128},
                 {"BLOCK_N", 128},
                 {"BLOCK_K", 64}};
  o.arch = "sm_90";
  // 3 stages (the default) of 128x64 and 64x128 f16 tiles: 96 KB, dynamic.
  CompiledModule three =
      jit.compileModule(Source::fromFile(examplePath("gemm.mlir")), o);
  EXPECT_NE(three.ptx.find("cp.async.cg.shared.global"), std::string::npos);
  const KernelInfo &k = parseModuleInfo(three.metadataJson).kernels[0];
  EXPECT_EQ(k.dynamicSharedBytes, 98304);
  EXPECT_EQ(k.sharedBytes, 0);
  // One stage: no pipelining; static memory for the operands' staging
  // (32 KB) and, reusing it, the epilogue's layout exchange: 128 rows of 128
  // f16 padded to 272 bytes, 127 * 272 + 256 = 34800 bytes.
  o.numStages = 1;
  CompiledModule one =
      jit.compileModule(Source::fromFile(examplePath("gemm.mlir")), o);
  EXPECT_EQ(one.ptx.find("cp.async"), std::string::npos);
  const KernelInfo &k1 = parseModuleInfo(one.metadataJson).kernels[0];
  EXPECT_EQ(k1.dynamicSharedBytes, 0);
  EXPECT_EQ(k1.sharedBytes, 34800);
  fs::remove_all(jit.cache().directory());
}

TEST(JIT, MinProgramsPerSMReachesThePTX) {
  JIT jit(std::make_shared<Cache>(freshDirectory("programs")));
  JITOptions o;
  o.constants = {{"BLOCK", 1024}};
  o.arch = "sm_90";
  Source add = Source::fromFile(examplePath("vector_add.mlir"));
  EXPECT_EQ(jit.compileModule(add, o).ptx.find(".minnctapersm"), std::string::npos);
  o.minProgramsPerSM = 2;
  EXPECT_NE(jit.compileModule(add, o).ptx.find(".minnctapersm 2"), std::string::npos);
  fs::remove_all(jit.cache().directory());
}

TEST(JIT, TypeConstantSpecializesTheGemm) {
  JIT jit(std::make_shared<Cache>(freshDirectory("gemm-bf16")));
  JITOptions o;
  o.constants = {{"T", llk::ElementType::BF16},
                 {"BLOCK_M", 128},
                 {"BLOCK_N", 128},
                 {"BLOCK_K", 32}};
  o.arch = "sm_90";
  Source gemm = Source::fromFile(examplePath("gemm.mlir"));
  CompiledModule m = jit.compileModule(gemm, o);
  EXPECT_NE(m.ptx.find("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"),
            std::string::npos);
  ModuleInfo info = parseModuleInfo(m.metadataJson);
  EXPECT_EQ(info.constants.at("T"), llk::ElementType::BF16);
  EXPECT_EQ(info.kernels[0].signature(),
            "gemm_kernel(ptr<bf16>, ptr<bf16>, ptr<bf16>, i32, i32, i32, i32, i32, i32)");
  // The f16 kernel is another compile, not the bf16 one from the cache.
  unsigned compiles = jit.compileCount();
  o.constants["T"] = llk::ElementType::F16;
  EXPECT_EQ(jit.compileModule(gemm, o).ptx.find("bf16"), std::string::npos);
  EXPECT_EQ(jit.compileCount(), compiles + 1);
  fs::remove_all(jit.cache().directory());
}

TEST(JIT, MatVecDeclaresItsReadOverrun) {
  // The q8_0 quants are realigned from aligned 16-byte windows: the weights
  // (2-byte aligned runs) are read up to 14 bytes past their last byte, the
  // q8_1 vector (4-byte aligned) 12; the output not at all.
  JIT jit(std::make_shared<Cache>(freshDirectory("mmvq")));
  JITOptions o;
  o.constants = {{"ROWS", 4}, {"BLOCKS", 32}};
  o.arch = "sm_90";
  const KernelInfo &k = parseModuleInfo(
      jit.compileModule(Source::fromFile(examplePath("llama/mul_mat_vec_q.mlir")), o)
          .metadataJson).kernels[0];
  ASSERT_EQ(k.params.size(), 5u);
  EXPECT_EQ(k.params[0].readOverrunBytes, 0);
  EXPECT_EQ(k.params[1].readOverrunBytes, 14);
  EXPECT_EQ(k.params[2].readOverrunBytes, 12);
  EXPECT_LT(k.params[1].readOverrunBytes, int64_t(kBufferGranule));
  fs::remove_all(jit.cache().directory());
}

TEST(JIT, DefaultWarpsAndNoSharedMemory) {
  JIT jit(std::make_shared<Cache>(freshDirectory("add")));
  JITOptions o;
  o.constants["BLOCK"] = 1024;
  o.arch = "sm_80";
  ModuleInfo info = parseModuleInfo(
      jit.compileModule(Source::fromFile(examplePath("vector_add.mlir")), o).metadataJson);
  EXPECT_EQ(info.kernels[0].signature(), "add_kernel(ptr<f32>, ptr<f32>, ptr<f32>, i32)");
  EXPECT_EQ(info.kernels[0].numWarps, 4u);
  EXPECT_EQ(info.kernels[0].sharedBytes, 0);
  fs::remove_all(jit.cache().directory());
}

static std::string compileError(const std::string &text, JITOptions o) {
  try {
    compileToPTX(Source::fromText(text, "bad.mlir"), o);
  } catch (const Error &e) {
    return std::string(toString(e.code())) + ": " + e.what();
  }
  return "<no error>";
}

TEST(JIT, CompileErrorsAreValues) {
  std::string softmax = readAll(examplePath("softmax.mlir"));
  JITOptions unbound = softmaxOptions();
  unbound.constants.clear();
  std::string e = compileError(softmax, unbound);
  EXPECT_NE(e.find("compile error"), std::string::npos) << e;
  EXPECT_NE(e.find("constant 'BLOCK' is not bound"), std::string::npos) << e;
  EXPECT_NE(e.find("bad.mlir:"), std::string::npos) << e;
  // (No constants: a binding the source does not use is an error of its own.)
  e = compileError("func.func @k(%x: i32) { tile.nonsense }", unbound);
  EXPECT_NE(e.find("compile error"), std::string::npos) << e;
  EXPECT_NE(e.find("bad.mlir:1:"), std::string::npos) << e;
  EXPECT_NE(compileError("  \n", softmaxOptions()).find("is empty"), std::string::npos);
  JITOptions noArch = softmaxOptions();
  noArch.arch = "";
  EXPECT_NE(compileError(softmax, noArch).find("no target"), std::string::npos);
  noArch.arch = "sm_75";
  EXPECT_NE(compileError(softmax, noArch).find("invalid argument"), std::string::npos);
  JIT jit(std::make_shared<Cache>(freshDirectory("noarch")));
  JITOptions o = softmaxOptions();
  o.arch.clear();
  EXPECT_THROW(jit.compileModule(Source::fromText(softmax), o), Error);
  fs::remove_all(jit.cache().directory());
}

// What the NVPTX back end would abort on (report_fatal_error ends the host
// process) is checked before code generation: a kernel name that is no PTX
// identifier, too many parameter bytes. Both are errors to the caller.
TEST(JIT, BackEndRejectionsAreErrors) {
  JITOptions o = softmaxOptions();
  o.constants.clear();
  std::string e = compileError("func.func @\"k k\"(%x: i32) { return }", o);
  EXPECT_NE(e.find("compile error"), std::string::npos) << e;
  EXPECT_NE(e.find("bad.mlir:1:1: error: kernel name 'k k' is not a PTX identifier"),
            std::string::npos)
      << e;
  std::string params;
  for (int i = 0; i < 545; ++i)
    params += (i ? ", %p" : "%p") + std::to_string(i) + ": !tile.ptr<f32>";
  e = compileError("func.func @k(" + params + ") { return }", o);
  EXPECT_NE(e.find("takes 4360 bytes of parameters, more than the 4352"),
            std::string::npos)
      << e;
}

TEST(Cache, MemoryAndDiskHits) {
  std::string dir = freshDirectory("hits");
  Source src = Source::fromFile(examplePath("softmax.mlir"));
  CompiledModule first;
  {
    JIT jit(std::make_shared<Cache>(dir));
    first = jit.compileModule(src, softmaxOptions());
    EXPECT_EQ(jit.compileCount(), 1u);
    EXPECT_EQ(jit.cache().stats().stores, 1u);
    CompiledModule again = jit.compileModule(src, softmaxOptions());
    EXPECT_EQ(jit.compileCount(), 1u);
    EXPECT_EQ(jit.cache().stats().memoryHits, 1u);
    EXPECT_EQ(again.ptx, first.ptx);
  }
  JIT fresh(std::make_shared<Cache>(dir));
  CompiledModule disk = fresh.compileModule(src, softmaxOptions());
  EXPECT_EQ(fresh.compileCount(), 0u);
  EXPECT_EQ(fresh.cache().stats().diskHits, 1u);
  EXPECT_EQ(disk.ptx, first.ptx);
  EXPECT_EQ(disk.metadataJson, first.metadataJson);
  fs::remove_all(dir);
}

TEST(Cache, ARebuiltCompilerMissesTheOldEntries) {
  std::string dir = freshDirectory("rebuilt");
  Source src = Source::fromFile(examplePath("softmax.mlir"));
  JIT(std::make_shared<Cache>(dir)).compileModule(src, softmaxOptions());
  // Another build of the compiler (another build id): nothing to reuse.
  llk::setBuildIdForTesting("00000000deadbeef");
  JIT rebuilt(std::make_shared<Cache>(dir));
  rebuilt.compileModule(src, softmaxOptions());
  llk::setBuildIdForTesting("");
  EXPECT_EQ(rebuilt.compileCount(), 1u);
  EXPECT_EQ(rebuilt.cache().stats().diskHits, 0u);
  // The first build's entry is still there for it.
  JIT again(std::make_shared<Cache>(dir));
  again.compileModule(src, softmaxOptions());
  EXPECT_EQ(again.compileCount(), 0u);
  EXPECT_EQ(again.cache().stats().diskHits, 1u);
  fs::remove_all(dir);
}

TEST(Cache, AnotherLibdeviceMissesTheOldEntries) {
  std::string dir = freshDirectory("libdevice-entries");
  std::string original = llk::env::libdevicePath();
  if (!fs::exists(original))
    GTEST_SKIP() << "no libdevice at " << original;
  std::string bytes = readAll(original), copy = dir + "/libdevice.10.bc";
  writeAll(copy, bytes);
  ScopedEnv libdevice("LLK_LIBDEVICE", copy);
  // Softmax calls exp: libdevice is linked into it.
  Source src = Source::fromFile(examplePath("softmax.mlir"));
  JIT(std::make_shared<Cache>(dir + "/cache")).compileModule(src, softmaxOptions());
  // One byte changed, the path and size the same. The compile may fail (the
  // bitcode may no longer parse); either way the old entry is not used.
  bytes[bytes.size() - 1] ^= 1;
  writeAll(copy, bytes);
  fs::last_write_time(copy, fs::last_write_time(copy) + std::chrono::seconds(2));
  JIT changed(std::make_shared<Cache>(dir + "/cache"));
  try {
    changed.compileModule(src, softmaxOptions());
  } catch (const Error &) {
    // A libdevice that no longer parses fails the compile: still a miss.
  }
  EXPECT_EQ(changed.cache().stats().diskHits, 0u);
  EXPECT_EQ(changed.cache().stats().misses, 1u);
  fs::remove_all(dir);
}

TEST(Cache, EntriesHoldACubinWhenPtxasIsThere) {
  std::optional<std::string> ptxas = llk::env::ptxasPath();
  if (!ptxas)
    GTEST_SKIP() << "no ptxas";
  std::string dir = freshDirectory("cubin");
  Source src = Source::fromFile(examplePath("softmax.mlir"));
  CompiledModule compiled;
  {
    JIT jit(std::make_shared<Cache>(dir));
    compiled = jit.compileModule(src, softmaxOptions());
    EXPECT_EQ(jit.lastCubinIssue(), "");
  }
  ASSERT_GE(compiled.cubin.size(), 4u);
  EXPECT_EQ(compiled.cubin.substr(0, 4), "\x7f" "ELF");
  // A second process (a fresh JIT) gets the same cubin from the disk.
  JIT fresh(std::make_shared<Cache>(dir));
  CompiledModule disk = fresh.compileModule(src, softmaxOptions());
  EXPECT_EQ(fresh.cache().stats().diskHits, 1u);
  EXPECT_EQ(disk.cubin, compiled.cubin);
  EXPECT_EQ(disk.ptx, compiled.ptx);
  fs::remove_all(dir);
}

TEST(Cache, WithoutPtxasEntriesHoldPTX) {
  std::string dir = freshDirectory("no-ptxas");
  ScopedEnv ptxas("LLK_PTXAS", dir + "/no-such-ptxas");
  Source src = Source::fromFile(examplePath("softmax.mlir"));
  JIT jit(std::make_shared<Cache>(dir));
  CompiledModule m = jit.compileModule(src, softmaxOptions());
  EXPECT_TRUE(m.cubin.empty());
  EXPECT_NE(m.ptx.find(".entry softmax_kernel"), std::string::npos);
  EXPECT_NE(jit.lastCubinIssue().find("cannot run ptxas"), std::string::npos)
      << jit.lastCubinIssue();
  JIT fresh(std::make_shared<Cache>(dir));
  EXPECT_EQ(fresh.compileModule(src, softmaxOptions()).ptx, m.ptx);
  EXPECT_EQ(fresh.cache().stats().diskHits, 1u);
  fs::remove_all(dir);
}

TEST(Cache, AlwaysCompileIgnoresTheCache) {
  std::string dir = freshDirectory("always");
  Source src = Source::fromFile(examplePath("softmax.mlir"));
  JIT(std::make_shared<Cache>(dir)).compileModule(src, softmaxOptions());
  ScopedEnv always("LLK_ALWAYS_COMPILE", "1");
  JIT jit(std::make_shared<Cache>(dir));
  jit.compileModule(src, softmaxOptions());
  jit.compileModule(src, softmaxOptions());
  EXPECT_EQ(jit.compileCount(), 2u);
  EXPECT_EQ(jit.cache().stats().diskHits + jit.cache().stats().memoryHits, 0u);
  ScopedEnv off("LLK_ALWAYS_COMPILE", "0");
  JIT cached(std::make_shared<Cache>(dir));
  cached.compileModule(src, softmaxOptions());
  EXPECT_EQ(cached.compileCount(), 0u);
  fs::remove_all(dir);
}

TEST(Cache, DumpIRWritesEveryStage) {
  std::string dir = freshDirectory("dump");
  ScopedEnv dump("LLK_DUMP_IR", dir + "/ir");
  Source src = Source::fromFile(examplePath("softmax.mlir"));
  JIT jit(std::make_shared<Cache>(dir + "/cache"));
  CompiledModule m = jit.compileModule(src, softmaxOptions());
  std::string stages = dir + "/ir/" + CacheKey::make(src, softmaxOptions(), "sm_90").hex();
  EXPECT_EQ(readAll(stages + "/0-source.mlir"), src.text);
  EXPECT_NE(readAll(stages + "/key.txt").find("arch sm_90"), std::string::npos);
  EXPECT_NE(readAll(stages + "/1-tile.mlir").find("tile.num_warps = 4"), std::string::npos);
  EXPECT_NE(readAll(stages + "/2-layout.mlir").find("#tile.blocked"), std::string::npos);
  EXPECT_NE(readAll(stages + "/3-llvm.mlir").find("gpu.module"), std::string::npos);
  EXPECT_NE(readAll(stages + "/4-llvm-ir.ll").find("define ptx_kernel void @softmax_kernel"),
            std::string::npos);
  EXPECT_EQ(readAll(stages + "/5-kernel.ptx"), m.ptx);
  if (!m.cubin.empty()) {
    EXPECT_EQ(readAll(stages + "/6-kernel.cubin"), m.cubin);
  }
  fs::remove_all(dir);
}

TEST(Environment, EveryKnobIsNamedOnce) {
  using llk::env::Knob;
  std::set<std::string> names;
  for (Knob k : {Knob::Backend, Knob::CudaLibrary, Knob::CacheDir, Knob::Libdevice,
                 Knob::Ptxas, Knob::AlwaysCompile, Knob::DumpIR, Knob::InterpMaxSteps,
                 Knob::DeviceDebug, Knob::KernelDir, Knob::TestSeed, Knob::FuzzIterations,
                 Knob::LlamaTestModel}) {
    std::string name = llk::env::name(k);
    EXPECT_EQ(name.rfind("LLK_", 0), 0u) << name;
    EXPECT_TRUE(names.insert(name).second) << name;
  }
  for (const char *off : {"", "0", "false", "off", "no"}) {
    ScopedEnv e("LLK_ALWAYS_COMPILE", off);
    EXPECT_FALSE(llk::env::alwaysCompile()) << "'" << off << "'";
  }
  ScopedEnv on("LLK_ALWAYS_COMPILE", "yes");
  EXPECT_TRUE(llk::env::alwaysCompile());
  ScopedEnv ptxas("LLK_PTXAS", "/opt/x/ptxas");
  EXPECT_EQ(llk::env::ptxasPath().value_or(""), "/opt/x/ptxas");
}

/// Damages the cached entry with `damage`, then checks that a fresh cache
/// reports it corrupt, the JIT rebuilds it, and the rebuilt entry is good.
static void checkRecovery(const std::function<void(std::string &)> &damage) {
  std::string dir = freshDirectory("corrupt");
  Source src = Source::fromFile(examplePath("softmax.mlir"));
  JITOptions o = softmaxOptions();
  CompiledModule good;
  std::string path;
  {
    JIT jit(std::make_shared<Cache>(dir));
    good = jit.compileModule(src, o);
    path = jit.cache().entryPath(CacheKey::make(src, o, "sm_90"));
  }
  std::string bytes = readAll(path);
  ASSERT_FALSE(bytes.empty());
  damage(bytes);
  writeAll(path, bytes);
  {
    JIT jit(std::make_shared<Cache>(dir));
    CompiledModule rebuilt = jit.compileModule(src, o);
    EXPECT_EQ(jit.cache().stats().corrupt, 1u);
    EXPECT_EQ(jit.compileCount(), 1u);
    EXPECT_EQ(rebuilt.ptx, good.ptx);
  }
  JIT after(std::make_shared<Cache>(dir));
  after.compileModule(src, o);
  EXPECT_EQ(after.cache().stats().diskHits, 1u);
  EXPECT_EQ(after.cache().stats().corrupt, 0u);
  EXPECT_EQ(after.compileCount(), 0u);
  fs::remove_all(dir);
}

TEST(Cache, TruncatedEntryIsRebuilt) {
  checkRecovery([](std::string &b) { b.resize(b.size() / 2); });
}
TEST(Cache, EmptyEntryIsRebuilt) {
  checkRecovery([](std::string &b) { b.clear(); });
}
TEST(Cache, GarbledPayloadIsRebuilt) {
  checkRecovery([](std::string &b) { b[b.size() - 100] ^= 0x20; });
}
TEST(Cache, GarbledHeaderIsRebuilt) {
  checkRecovery([](std::string &b) { b[3] = 'X'; });
}
TEST(Cache, ExtendedEntryIsRebuilt) {
  checkRecovery([](std::string &b) { b += "junk"; });
}
TEST(Cache, EntryOfAnotherKeyIsRebuilt) {
  checkRecovery([](std::string &b) {
    // A valid entry of another source: right shape, wrong key.
    std::string dir = freshDirectory("other");
    JIT jit(std::make_shared<Cache>(dir));
    Source other = Source::fromFile(examplePath("vector_add.mlir"));
    JITOptions o = softmaxOptions();
    jit.compileModule(other, o);
    b = readAll(jit.cache().entryPath(CacheKey::make(other, o, "sm_90")));
    fs::remove_all(dir);
  });
}

TEST(Cache, UnwritableDirectoryStillCompiles) {
  std::string dir = freshDirectory("ro");
  writeAll(dir + "/file", "x");
  // A cache "directory" that is a file: every write fails.
  JIT jit(std::make_shared<Cache>(dir + "/file"));
  CompiledModule m = jit.compileModule(Source::fromFile(examplePath("softmax.mlir")),
                                       softmaxOptions());
  EXPECT_FALSE(m.ptx.empty());
  EXPECT_EQ(jit.storeFailures(), 1u);
  fs::remove_all(dir);
}

/// Puts `make`'s non-file where a key's entry goes, then checks that a
/// lookup returns (within seconds: a FIFO once blocked it for good), counts
/// it corrupt, and that a store replaces it (`replaceable`) or fails as IO.
static void checkNotAFile(const std::function<void(const std::string &)> &make,
                          bool replaceable) {
  std::string dir = freshDirectory("special");
  Source src = Source::fromText("func.func @k() { return }", "k.mlir");
  CacheKey key = CacheKey::make(src, softmaxOptions(), "sm_90");
  CompiledModule module{"// ptx", kMetadata};
  auto cache = std::make_shared<Cache>(dir);
  std::string path = cache->entryPath(key);
  make(path);
  auto lookup = std::async(std::launch::async, [&] { return cache->lookup(key); });
  if (lookup.wait_for(std::chrono::seconds(20)) != std::future_status::ready) {
    ADD_FAILURE() << "the lookup of " << path << " hangs";
    // A reader waiting on a FIFO: a writer that comes and goes lets it go.
    int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK);
    if (fd >= 0)
      ::close(fd);
  }
  EXPECT_FALSE(lookup.get());
  EXPECT_EQ(cache->stats().corrupt, 1u);
  EXPECT_EQ(cache->stats().misses, 1u);
  EXPECT_FALSE(cache->loadRecord("autotune", key)); // the same reader
  if (replaceable) {
    cache->store(key, module);
    Cache fresh(dir);
    std::optional<CompiledModule> hit = fresh.lookup(key);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->ptx, module.ptx);
    EXPECT_EQ(fresh.stats().diskHits, 1u);
  } else {
    try {
      cache->store(key, module);
      ADD_FAILURE() << "stored over " << path;
    } catch (const Error &e) {
      EXPECT_EQ(e.code(), ErrorCode::IO);
    }
  }
  fs::remove_all(dir);
}

TEST(Cache, FIFOEntryIsReplaced) {
  checkNotAFile([](const std::string &p) { ASSERT_EQ(::mkfifo(p.c_str(), 0600), 0); },
                true);
}
TEST(Cache, SymlinkLoopEntryIsReplaced) {
  checkNotAFile([](const std::string &p) { fs::create_symlink(p, p); }, true);
}
TEST(Cache, SymlinkToAFIFOIsReplaced) {
  // (A link is never followed: to /dev/zero, reading it would never end.)
  checkNotAFile(
      [](const std::string &p) {
        ASSERT_EQ(::mkfifo((p + ".fifo").c_str(), 0600), 0);
        fs::create_symlink(p + ".fifo", p);
      },
      true);
}
TEST(Cache, DirectoryEntryIsSkipped) {
  checkNotAFile([](const std::string &p) { fs::create_directories(p + "/x"); }, false);
}

TEST(Cache, FIFOEntryDoesNotBlockTheJIT) {
  std::string dir = freshDirectory("fifo");
  Source src = Source::fromFile(examplePath("vector_add.mlir"));
  JITOptions o;
  o.constants["BLOCK"] = 256;
  o.arch = "sm_80";
  JIT jit(std::make_shared<Cache>(dir));
  std::string path = jit.cache().entryPath(CacheKey::make(src, o, "sm_80"));
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  auto compile = std::async(std::launch::async, [&] { return jit.compileModule(src, o); });
  if (compile.wait_for(std::chrono::seconds(60)) != std::future_status::ready) {
    ADD_FAILURE() << "compileModule hangs on a FIFO entry";
    int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK);
    if (fd >= 0)
      ::close(fd);
  }
  EXPECT_FALSE(compile.get().ptx.empty());
  EXPECT_EQ(jit.compileCount(), 1u);
  EXPECT_EQ(jit.storeFailures(), 0u); // the FIFO was replaced by the entry
  struct stat st;
  ASSERT_EQ(::lstat(path.c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
  fs::remove_all(dir);
}

TEST(Cache, DefaultDirectoryFollowsEnvironment) {
  const char *old = std::getenv("LLK_CACHE_DIR");
  std::string saved = old ? old : "";
  setenv("LLK_CACHE_DIR", "/tmp/llk-custom-cache", 1);
  EXPECT_EQ(Cache::defaultDirectory(), "/tmp/llk-custom-cache");
  EXPECT_EQ(Cache().directory(), "/tmp/llk-custom-cache");
  unsetenv("LLK_CACHE_DIR");
  if (const char *home = std::getenv("HOME"); home && !std::getenv("XDG_CACHE_HOME")) {
    EXPECT_EQ(Cache::defaultDirectory(), std::string(home) + "/.cache/llk");
  }
  if (old)
    setenv("LLK_CACHE_DIR", saved.c_str(), 1);
}

TEST(Concurrency, ThreadsCompileOnce) {
  std::string dir = freshDirectory("threads");
  JIT jit(std::make_shared<Cache>(dir));
  Source src = Source::fromFile(examplePath("softmax.mlir"));
  std::vector<std::string> ptx(8);
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&, i] { ptx[i] = jit.compileModule(src, softmaxOptions()).ptx; });
  for (auto &t : threads)
    t.join();
  EXPECT_EQ(jit.compileCount(), 1u);
  for (int i = 1; i < 8; ++i)
    EXPECT_EQ(ptx[i], ptx[0]);
  fs::remove_all(dir);
}

TEST(Concurrency, ThreadsCompileDifferentKernels) {
  std::string dir = freshDirectory("threads2");
  JIT jit(std::make_shared<Cache>(dir));
  Source src = Source::fromFile(examplePath("softmax.mlir"));
  std::vector<std::thread> threads;
  std::vector<int> ok(4, 0);
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&, i] {
      ModuleInfo info = parseModuleInfo(
          jit.compileModule(src, softmaxOptions(256 << i, 4)).metadataJson);
      ok[i] = info.constants.at("BLOCK") == (256 << i);
    });
  for (auto &t : threads)
    t.join();
  EXPECT_EQ(jit.compileCount(), 4u);
  for (int i = 0; i < 4; ++i)
    EXPECT_TRUE(ok[i]);
  fs::remove_all(dir);
}

TEST(Concurrency, ProcessesShareOneDirectory) {
  std::string dir = freshDirectory("procs");
  constexpr int kProcesses = 6;
  std::vector<pid_t> pids;
  std::vector<std::string> outputs(kProcesses);
  std::vector<std::thread> waiters;
  for (int i = 0; i < kProcesses; ++i)
    waiters.emplace_back([&, i] {
      int status = runSelf({"--child=compile", dir}, {}, &outputs[i]);
      EXPECT_EQ(status, 0) << outputs[i];
    });
  for (auto &t : waiters)
    t.join();
  // Every process printed the same PTX hash.
  for (int i = 1; i < kProcesses; ++i)
    EXPECT_EQ(outputs[i], outputs[0]);
  EXPECT_NE(outputs[0].find("ptx "), std::string::npos) << outputs[0];
  // One entry, no temporaries left, and it reads back.
  int entries = 0, temporaries = 0;
  for (const auto &e : fs::directory_iterator(dir)) {
    std::string name = e.path().filename().string();
    entries += name.size() > 5 && name.substr(name.size() - 5) == ".llkc";
    temporaries += name.find(".tmp.") != std::string::npos;
  }
  EXPECT_EQ(entries, 1);
  EXPECT_EQ(temporaries, 0);
  JIT jit(std::make_shared<Cache>(dir));
  jit.compileModule(Source::fromFile(examplePath("softmax.mlir")), softmaxOptions());
  EXPECT_EQ(jit.cache().stats().diskHits, 1u);
  fs::remove_all(dir);
}

static int childCompile(const std::string &dir) {
  try {
    JIT jit(std::make_shared<Cache>(dir));
    CompiledModule m =
        jit.compileModule(Source::fromFile(examplePath("softmax.mlir")), softmaxOptions());
    std::printf("ptx %s\n", toHex(hash64(m.ptx)).c_str());
    return 0;
  } catch (const std::exception &e) {
    std::printf("error: %s\n", e.what());
    return 1;
  }
}

//===----------------------------------------------------------------------===//
// No driver
//===----------------------------------------------------------------------===//

/// Runs in a child whose LLK_CUDA_LIBRARY names a library that does not
/// exist: every driver call must fail with NoDriver, as a value.
static int childNoDriver() {
  int failures = 0;
  auto expect = [&](bool ok, const std::string &what) {
    if (!ok) {
      std::printf("FAILED: %s\n", what.c_str());
      ++failures;
    }
  };
  std::string why;
  expect(!driverAvailable(&why), "driverAvailable() is false");
  expect(why.find("no CUDA driver: cannot load libllk-no-such-driver.so") == 0,
         "reason: " + why);
  try {
    Device::open(0);
    expect(false, "Device::open throws");
  } catch (const Error &e) {
    expect(e.code() == ErrorCode::NoDriver, "code NoDriver");
    expect(std::string(e.what()).find("no CUDA driver") != std::string::npos,
           std::string("message: ") + e.what());
  }
  try {
    Device::count();
    expect(false, "Device::count throws");
  } catch (const Error &e) {
    expect(e.code() == ErrorCode::NoDriver, "count: code NoDriver");
  }
  llk_device dev = nullptr;
  expect(llk_device_open(0, &dev) == LLK_ERROR_NO_DRIVER, "C: LLK_ERROR_NO_DRIVER");
  expect(dev == nullptr, "C: no handle");
  expect(std::string(llk_last_error()).find("no CUDA driver") != std::string::npos,
         std::string("C: llk_last_error: ") + llk_last_error());
  int count = -1;
  expect(llk_device_count(&count) == LLK_ERROR_NO_DRIVER, "C: count");
  // The interpreter backend needs no driver: its one device is counted and
  // opens, in C++ and in C.
  setenv("LLK_BACKEND", "interpreter", 1);
  try {
    expect(Device::count() == 1, "interpreter: Device::count() == 1");
    expect(Device::count(Backend::Interpreter) == 1, "Device::count(Interpreter)");
  } catch (const Error &e) {
    expect(false, std::string("interpreter count: ") + e.what());
  }
  count = -1;
  expect(llk_device_count(&count) == LLK_SUCCESS && count == 1,
         std::string("C: interpreter count 1: ") + llk_last_error());
  expect(llk_device_open(0, &dev) == LLK_SUCCESS, "C: interpreter device 0 opens");
  expect(std::string(llk_device_arch(dev)) == "interpreter", "C: interpreter arch");
  expect(llk_device_destroy(dev) == LLK_SUCCESS, "C: destroy");
  unsetenv("LLK_BACKEND");
  // The compiler half works without a driver.
  try {
    JIT jit(std::make_shared<Cache>(freshDirectory("nodrv")));
    CompiledModule m = jit.compileModule(Source::fromFile(examplePath("softmax.mlir")),
                                         softmaxOptions());
    expect(!m.ptx.empty(), "JIT to PTX without a driver");
    fs::remove_all(jit.cache().directory());
  } catch (const std::exception &e) {
    expect(false, std::string("JIT without a driver: ") + e.what());
  }
  std::printf("%s\n", failures ? "no-driver child: FAILED" : "no-driver child: ok");
  return failures ? 1 : 0;
}

TEST(NoDriver, MissingLibraryIsAnError) {
  std::string output;
  int status = runSelf({"--child=no-driver"},
                       {{"LLK_CUDA_LIBRARY", "libllk-no-such-driver.so"}}, &output);
  EXPECT_EQ(status, 0) << output;
  EXPECT_NE(output.find("no-driver child: ok"), std::string::npos) << output;
}

TEST(NoDriver, ThisMachine) {
  // On a machine without libcuda.so.1 (CI's), the default load fails as a
  // value; with one, a device count comes back.
  std::string why;
  if (driverAvailable(&why)) {
    EXPECT_GE(Device::count(), 0);
  } else {
    EXPECT_NE(why.find("libcuda.so.1"), std::string::npos) << why;
    EXPECT_THROW(Device::open(0), Error);
  }
}

//===----------------------------------------------------------------------===//
// The interpreter backend
//===----------------------------------------------------------------------===//

static Device interpreterDevice() { return Device::open(0, Backend::Interpreter); }

/// A JIT on the interpreter with a cache of its own (the interpreter does not
/// write it, which the tests check).
struct InterpreterJIT {
  Device device = interpreterDevice();
  std::shared_ptr<Cache> cache = std::make_shared<Cache>(freshDirectory("interp"));
  JIT jit{device, cache};
  ~InterpreterJIT() { fs::remove_all(cache->directory()); }
};

static JITOptions interpreterSoftmax(int64_t block = 128) {
  JITOptions o;
  o.constants["BLOCK"] = block;
  o.numWarps = 4;
  return o;
}

static std::vector<float> randomFloats(size_t n, unsigned seed) {
  std::vector<float> v(n);
  unsigned state = seed;
  for (float &x : v) {
    state = state * 1664525u + 1013904223u;
    x = (float(state >> 8) / float(1u << 24) - 0.5f) * 12.0f;
  }
  return v;
}

/// Max relative error of `y` against a float64 softmax of the rows of `x`.
static double softmaxError(const std::vector<float> &x, const std::vector<float> &y,
                           int rows, int cols) {
  double worst = 0;
  for (int r = 0; r < rows; ++r) {
    const float *row = &x[size_t(r) * cols];
    double m = -INFINITY, sum = 0;
    for (int c = 0; c < cols; ++c)
      m = std::max(m, double(row[c]));
    for (int c = 0; c < cols; ++c)
      sum += std::exp(double(row[c]) - m);
    for (int c = 0; c < cols; ++c) {
      double want = std::exp(double(row[c]) - m) / sum;
      double got = y[size_t(r) * cols + c];
      worst = std::max(worst, std::isnan(got) ? INFINITY : std::abs(got - want) / want);
    }
  }
  return worst;
}

TEST(Interpreter, DeviceNeedsNoDriver) {
  Device device = interpreterDevice();
  EXPECT_EQ(device.backend(), Backend::Interpreter);
  EXPECT_EQ(device.arch(), "interpreter");
  EXPECT_EQ(device.driverVersion(), 0);
  device.synchronize();
  EXPECT_THROW(Device::open(1, Backend::Interpreter), Error);
  // Host memory: copies are memcpy, fill is memset, fresh memory is poison.
  DeviceBuffer<int32_t> b(device, 5);
  EXPECT_EQ(b.address() % 256, 0u);
  EXPECT_EQ(b.toVector()[0], -1);
  b.copyFrom({1, 2, 3, 4, 5});
  EXPECT_EQ(b.toVector(), (std::vector<int32_t>{1, 2, 3, 4, 5}));
  b.fillBytes(0);
  EXPECT_EQ(b.toVector(), std::vector<int32_t>(5, 0));
  DeviceBuffer<float> empty(device, 0);
  EXPECT_EQ(empty.address(), 0u);
}

TEST(Interpreter, AllocationsCoverWholeGranules) {
  // The buffer contract: an allocation is rounded up to 16-byte granules,
  // the padding zeroed; the buffer itself is poison and has its own size.
  Device device = interpreterDevice();
  DeviceMemory m(device, 5);
  EXPECT_EQ(m.bytes(), 5u);
  EXPECT_EQ(m.address() % 256, 0u);
  const auto *bytes = reinterpret_cast<const uint8_t *>(m.address());
  for (size_t i = 0; i < kBufferGranule; ++i)
    EXPECT_EQ(bytes[i], i < 5 ? 0xff : 0) << "byte " << i;
  m.fill(7); // fills the buffer, not the padding
  EXPECT_EQ(bytes[4], 7);
  EXPECT_EQ(bytes[5], 0);
  uint8_t host[6] = {};
  EXPECT_THROW(m.copyFromHost(host, 6), Error); // only bytes() are the buffer's
  DeviceBuffer<Half> h(device, 9); // 18 bytes: two granules
  const auto *hb = reinterpret_cast<const uint8_t *>(h.address());
  EXPECT_EQ(hb[17], 0xff);
  for (size_t i = 18; i < 32; ++i)
    EXPECT_EQ(hb[i], 0) << "byte " << i;
}

static std::string allocationError(const std::function<void()> &allocate) {
  try {
    allocate();
  } catch (const Error &e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
    return e.what();
  }
  return "<no error>";
}

TEST(Interpreter, SizesThatOverflowAreErrors) {
  Device device = interpreterDevice();
  // Rounding up to a granule, or to the host alignment, would wrap.
  EXPECT_NE(allocationError([&] { DeviceMemory(device, SIZE_MAX); })
                .find("cannot allocate 18446744073709551615 bytes"),
            std::string::npos);
  EXPECT_NE(allocationError([&] { DeviceMemory(device, SIZE_MAX - 100); })
                .find("cannot allocate"),
            std::string::npos);
  // More than the host has.
  EXPECT_NE(allocationError([&] { DeviceMemory(device, size_t(1) << 62); })
                .find("cannot allocate"),
            std::string::npos);
  // count * sizeof(T) over SIZE_MAX, and just under it.
  EXPECT_NE(allocationError([&] { DeviceBuffer<float>(device, (size_t(1) << 62) + 1); })
                .find("a buffer of 4611686018427387905 elements of 4 bytes"),
            std::string::npos);
  EXPECT_NE(allocationError([&] { DeviceBuffer<double>(device, SIZE_MAX / 8); })
                .find("cannot allocate"),
            std::string::npos);
  // The C interface reports it as a status.
  std::string saved = std::getenv("LLK_BACKEND") ? std::getenv("LLK_BACKEND") : "";
  setenv("LLK_BACKEND", "interpreter", 1);
  llk_device dev = nullptr;
  ASSERT_EQ(llk_device_open(0, &dev), LLK_SUCCESS) << llk_last_error();
  llk_buffer buffer = nullptr;
  EXPECT_EQ(llk_buffer_create(dev, SIZE_MAX, &buffer), LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(buffer, nullptr);
  EXPECT_NE(std::string(llk_last_error()).find("cannot allocate"), std::string::npos)
      << llk_last_error();
  ASSERT_EQ(llk_buffer_create(dev, 3, &buffer), LLK_SUCCESS);
  EXPECT_EQ(llk_buffer_address(buffer) % 256, 0u);
  llk_buffer_destroy(buffer);
  llk_device_destroy(dev);
  if (saved.empty())
    unsetenv("LLK_BACKEND");
  else
    setenv("LLK_BACKEND", saved.c_str(), 1);
}

TEST(Interpreter, BackendFromEnvironment) {
  std::string saved = std::getenv("LLK_BACKEND") ? std::getenv("LLK_BACKEND") : "";
  setenv("LLK_BACKEND", "interpreter", 1);
  EXPECT_EQ(defaultBackend(), Backend::Interpreter);
  EXPECT_EQ(Device::open().backend(), Backend::Interpreter);
  setenv("LLK_BACKEND", "cuda", 1);
  EXPECT_EQ(defaultBackend(), Backend::Cuda);
  setenv("LLK_BACKEND", "tpu", 1);
  try {
    Device::open();
    ADD_FAILURE() << "LLK_BACKEND=tpu accepted";
  } catch (const Error &e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
    EXPECT_NE(std::string(e.what()).find("LLK_BACKEND='tpu'"), std::string::npos)
        << e.what();
  }
  if (saved.empty())
    unsetenv("LLK_BACKEND");
  else
    setenv("LLK_BACKEND", saved.c_str(), 1);
}

TEST(Interpreter, SoftmaxThroughTheJITMatchesFloat64) {
  InterpreterJIT t;
  Kernel softmax = t.jit.compile(Source::fromFile(examplePath("softmax.mlir")),
                                 interpreterSoftmax());
  EXPECT_EQ(softmax.info().signature(),
            "softmax_kernel(ptr<f32>, ptr<f32>, i32, i32, i32)");
  EXPECT_EQ(softmax.numWarps(), 4u);
  EXPECT_EQ(t.jit.compileCount(), 1u);
  // A second compile is the JIT's loaded module.
  t.jit.compile(Source::fromFile(examplePath("softmax.mlir")), interpreterSoftmax());
  EXPECT_EQ(t.jit.compileCount(), 1u);
  EXPECT_TRUE(fs::is_empty(t.cache->directory())); // no PTX, no disk entry

  int rows = 6, cols = 112; // a masked tail: BLOCK = 128
  std::vector<float> x = randomFloats(size_t(rows) * cols, 7);
  DeviceBuffer<float> in(t.device, x.size()), out(t.device, x.size());
  in.copyFrom(x);
  LaunchOptions wait;
  wait.synchronize = true;
  softmax.launch(rows, {out, in, cols, cols, cols}, wait);
  EXPECT_LT(softmaxError(x, out.toVector(), rows, cols), 1e-5);
}

TEST(Interpreter, ArgumentsAreCheckedAsOnTheGPU) {
  InterpreterJIT t;
  Kernel softmax = t.jit.compile(Source::fromFile(examplePath("softmax.mlir")),
                                 interpreterSoftmax());
  DeviceBuffer<float> in(t.device, 64), out(t.device, 64);
  DeviceBuffer<int32_t> ints(t.device, 64);
  auto error = [&](const Grid &grid, const ArgList &args) -> std::string {
    try {
      softmax.launch(grid, args);
    } catch (const Error &e) {
      EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
      EXPECT_EQ(e.kernel(), "softmax_kernel");
      return e.what();
    }
    return "no error";
  };
  // The very messages of packArgs and checkGrid, which the GPU path uses.
  EXPECT_EQ(error(1, {out, ints, 16, 16, 16}),
            packError(softmax.info(), {out, ints, 16, 16, 16}));
  EXPECT_EQ(error(1, {out, in, 16, 16}), packError(softmax.info(), {out, in, 16, 16}));
  EXPECT_EQ(error(1, {out, in, 16, 16, 16.0f}),
            packError(softmax.info(), {out, in, 16, 16, 16.0f}));
  EXPECT_NE(error(Grid(0), {out, in, 16, 16, 16}).find("grid"), std::string::npos);
  EXPECT_NE(error(Grid(1, 70000), {out, in, 16, 16, 16}).find("grid"), std::string::npos);
  LaunchOptions raw;
  raw.rawStream = reinterpret_cast<CUstream_st *>(uintptr_t(1));
  EXPECT_EQ(error(1, {out, in, 16, 16, 16}), "no error"); // a good launch runs
  try {
    softmax.launch(1, {out, in, 16, 16, 16}, raw);
    ADD_FAILURE() << "a raw CUstream accepted";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("interpreter"), std::string::npos);
  }
}

TEST(Interpreter, DependentLaunchNeedsTheWait) {
  InterpreterJIT t;
  // y = x + 1 over 128 elements, behind tile.grid_dependency_wait.
  Kernel inc = t.jit.compile(
      Source::fromFile(std::string(LLK_SOURCE_DIR) + "/test/llkc/Inputs/dependent-launch.mlir"),
      JITOptions());
  EXPECT_TRUE(inc.info().gridDependencyWait);
  JITOptions addOptions;
  addOptions.constants["BLOCK"] = 128;
  Kernel add = t.jit.compile(Source::fromFile(examplePath("vector_add.mlir")), addOptions);
  EXPECT_FALSE(add.info().gridDependencyWait);
  std::vector<float> x = randomFloats(128, 21);
  DeviceBuffer<float> in(t.device, 128), mid(t.device, 128), out(t.device, 128);
  in.copyFrom(x);
  LaunchOptions dependent;
  dependent.dependentLaunch = true;
  // Two dependent launches in a row: the second reads what the first wrote.
  inc.launch(1, {in, mid}, dependent);
  inc.launch(1, {mid, out}, dependent);
  std::vector<float> y = out.toVector();
  for (int i = 0; i < 128; ++i)
    ASSERT_EQ(y[i], (x[i] + 1.0f) + 1.0f) << i;
  try {
    add.launch(1, {in, in, out, 128}, dependent);
    ADD_FAILURE() << "a dependent launch of a kernel without the wait";
  } catch (const Error &e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
    EXPECT_NE(std::string(e.what()).find("tile.grid_dependency_wait"), std::string::npos);
  }
}

TEST(Interpreter, OutOfBoundsIsAnErrorNamingKernelAndLocation) {
  InterpreterJIT t;
  Kernel softmax = t.jit.compile(Source::fromFile(examplePath("softmax.mlir")),
                                 interpreterSoftmax());
  // Three rows of 96, but the input holds two: program 2 reads past it.
  DeviceBuffer<float> in(t.device, 2 * 96), out(t.device, 3 * 96);
  in.copyFrom(randomFloats(2 * 96, 3));
  try {
    softmax.launch(3, {out, in, 96, 96, 96});
    ADD_FAILURE() << "the out-of-bounds launch succeeded";
  } catch (const Error &e) {
    std::string what = e.what();
    EXPECT_EQ(e.code(), ErrorCode::Execution);
    EXPECT_EQ(e.kernel(), "softmax_kernel");
    EXPECT_EQ(toString(e.code()), std::string("execution error"));
    EXPECT_NE(what.find("kernel 'softmax_kernel' failed on the interpreter"),
              std::string::npos) << what;
    EXPECT_NE(what.find("softmax.mlir:"), std::string::npos) << what; // file:line:col
    EXPECT_NE(what.find("out-of-bounds load in program (2, 0, 0)"), std::string::npos)
        << what;
    EXPECT_NE(what.find("argument 1"), std::string::npos) << what; // the buffer
  }
  // A broken divisibility promise (n_cols is {tile.divisibility = 4}), and a
  // misaligned pointer (16): refused at the launch, as on the GPU.
  try {
    softmax.launch(1, {out, in, 96, 96, 90});
    ADD_FAILURE() << "the broken promise was accepted";
  } catch (const Error &e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument) << e.what();
    EXPECT_EQ(e.kernel(), "softmax_kernel");
    EXPECT_NE(std::string(e.what()).find("argument 4 (i32) is 90, which is not a "
                                         "multiple of 4"),
              std::string::npos)
        << e.what();
  }
  try {
    softmax.launch(1, {out, Arg::pointer(in.address() + 4, ScalarType::F32), 92, 92, 92});
    ADD_FAILURE() << "the misaligned pointer was accepted";
  } catch (const Error &e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument) << e.what();
    EXPECT_NE(std::string(e.what()).find("argument 1 (ptr<f32>) is the address 0x"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("which is not 16-byte aligned as its "
                                         "tile.divisibility = 16 promises"),
              std::string::npos)
        << e.what();
  }
  // The same kernel with its contracts kept runs (the launches above).
  softmax.launch(1, {out, in, 96, 96, 96});
}

TEST(Interpreter, CompileErrorsAreValues) {
  InterpreterJIT t;
  try {
    t.jit.compile(Source::fromText("func.func @k(%x: i32) {\n  %y = tile.bogus\n}\n",
                                   "bad.mlir"),
                  {});
    ADD_FAILURE() << "a bad source compiled";
  } catch (const Error &e) {
    EXPECT_EQ(e.code(), ErrorCode::Compile);
    EXPECT_NE(std::string(e.what()).find("bad.mlir:2:"), std::string::npos) << e.what();
  }
  // (Bad options: OptionsAreCheckedAsOnTheGPU.)
  // PTX needs a target, which the interpreter is not.
  EXPECT_THROW(t.jit.compileModule(Source::fromFile(examplePath("softmax.mlir")),
                                   interpreterSoftmax()),
               Error);
}

/// The error `jit.compile` of the softmax example throws with `options`, or
/// "<no error>".
static std::string optionsError(JIT &jit, const JITOptions &options) {
  try {
    jit.compile(Source::fromFile(examplePath("softmax.mlir")), options);
  } catch (const Error &e) {
    return std::string(toString(e.code())) + ": " + e.what();
  }
  return "<no error>";
}

TEST(Interpreter, OptionsAreCheckedAsOnTheGPU) {
  // The same checks and messages as compileToPTX, the GPU path's: the
  // interpreter ignores the arch, but "garbage" is still a bad call.
  InterpreterJIT t;
  std::string softmax = readAll(examplePath("softmax.mlir"));
  auto expect = [&](const JITOptions &o, const std::string &needle) {
    std::string e = optionsError(t.jit, o);
    EXPECT_EQ(e.rfind("invalid argument: ", 0), 0u) << e;
    EXPECT_NE(e.find(needle), std::string::npos) << e;
    JITOptions gpu = o;
    if (gpu.arch.empty())
      gpu.arch = "sm_90";
    EXPECT_EQ(compileError(softmax, gpu), e);
  };
  JITOptions o = interpreterSoftmax();
  o.arch = "garbage";
  expect(o, "unsupported --arch 'garbage'");
  o = interpreterSoftmax();
  o.numWarps = 3;
  expect(o, "power of two");
  o = interpreterSoftmax();
  o.numStages = 0;
  expect(o, "--num-stages must be in [1, 8]");
  o = interpreterSoftmax();
  o.numStages = 9;
  expect(o, "--num-stages must be in [1, 8]");
  o = interpreterSoftmax();
  o.minProgramsPerSM = 33;
  expect(o, "--min-programs-per-sm must be in [1, 32]");
  o = interpreterSoftmax();
  o.arch = "sm_90a"; // a good one: the interpreter runs the tile IR anyway
  EXPECT_EQ(optionsError(t.jit, o), "<no error>");
}

TEST(Interpreter, GraphCaptureAndReplay) {
  InterpreterJIT t;
  Kernel softmax = t.jit.compile(Source::fromFile(examplePath("softmax.mlir")),
                                 interpreterSoftmax());
  JITOptions addOptions;
  addOptions.constants["BLOCK"] = 64;
  Kernel add = t.jit.compile(Source::fromFile(examplePath("vector_add.mlir")), addOptions);
  int rows = 4, cols = 64, n = rows * cols;
  std::vector<float> x = randomFloats(n, 11), host(n);
  DeviceBuffer<float> in(t.device, n), doubled(t.device, n), out(t.device, n);
  Stream stream(t.device);
  LaunchOptions on;
  on.stream = &stream;
  // Copy in, in + in, softmax of that, copy out: recorded, not run.
  Graph graph = Graph::capture(stream, [&] {
    in.copyFrom(x.data(), n, &stream);
    add.launch((n + 63) / 64, {in, in, doubled, n}, on);
    softmax.launch(rows, {out, doubled, cols, cols, cols}, on);
    out.copyTo(host.data(), n, &stream);
  });
  EXPECT_EQ(graph.nodeCount(), 4u);
  EXPECT_TRUE(std::isnan(out.toVector()[0])); // nothing ran yet (poison)
  EXPECT_EQ(host[0], 0.0f);
  auto reference = [&] {
    std::vector<float> twice(n);
    for (int i = 0; i < n; ++i)
      twice[i] = x[i] + x[i];
    return twice;
  };
  graph.launch(stream);
  stream.synchronize();
  EXPECT_LT(softmaxError(reference(), host, rows, cols), 1e-5);
  // A replay reads the host memory anew.
  std::vector<float> next = randomFloats(n, 12);
  std::copy(next.begin(), next.end(), x.begin()); // the captured copy reads x.data()
  graph.launch(stream);
  EXPECT_LT(softmaxError(reference(), host, rows, cols), 1e-5);
  EXPECT_EQ(out.toVector(), host);
  // A launch outside a capture runs at once.
  softmax.launch(rows, {out, in, cols, cols, cols}, on);
  EXPECT_LT(softmaxError(x, out.toVector(), rows, cols), 1e-5);
  // A failing body ends the capture.
  EXPECT_THROW(Graph::capture(stream, [&] { softmax.launch(rows, {out}, on); }), Error);
  EXPECT_EQ(Graph::capture(stream, [] {}).nodeCount(), 0u);
}

TEST(Interpreter, EventsMeasureHostTime) {
  InterpreterJIT t;
  Kernel softmax = t.jit.compile(Source::fromFile(examplePath("softmax.mlir")),
                                 interpreterSoftmax());
  DeviceBuffer<float> in(t.device, 64 * 128), out(t.device, 64 * 128);
  in.copyFrom(randomFloats(64 * 128, 5));
  Event start(t.device), end(t.device), never(t.device);
  start.record();
  softmax.launch(64, {out, in, 128, 128, 128});
  end.record();
  end.synchronize();
  float ms = Event::elapsedMs(start, end);
  EXPECT_GT(ms, 0.0f);
  EXPECT_LT(ms, 60000.0f);
  EXPECT_THROW(Event::elapsedMs(start, never), Error);
  // The autotuner times configurations with these events.
  std::vector<Config> configs{{{{"BLOCK", 128}}, 2}, {{{"BLOCK", 256}}, 4}};
  Autotuner tuner(t.jit, Source::fromFile(examplePath("softmax.mlir")), "softmax_kernel",
                  configs, [](const Config &) { return Grid(64); }, {}, {1, 2});
  const Autotuner::Result &r = tuner.tune("64x128", {out, in, 128, 128, 128});
  EXPECT_TRUE(std::isfinite(r.ms[r.best]));
  // Launches run the winner, compiled while tuning: no compile, and right.
  unsigned compiles = t.jit.compileCount();
  std::vector<float> x = in.toVector();
  for (int i = 0; i < 2; ++i) {
    out.copyFrom(std::vector<float>(64 * 128, 0.0f));
    tuner.launch("64x128", {out, in, 128, 128, 128});
    EXPECT_LT(softmaxError(x, out.toVector(), 64, 128), 1e-5);
  }
  EXPECT_EQ(t.jit.compileCount(), compiles);
}

TEST(Autotuner, TimingsAreMedianAndPercentiles) {
  // numpy's default quantiles (linear between the closest ranks).
  Timing t = Timing::of({5, 1, 3, 2, 4});
  EXPECT_DOUBLE_EQ(t.median, 3);
  EXPECT_DOUBLE_EQ(t.p20, 1.8);
  EXPECT_DOUBLE_EQ(t.p80, 4.2);
  EXPECT_DOUBLE_EQ(t.min, 1);
  EXPECT_DOUBLE_EQ(t.max, 5);
  EXPECT_EQ(t.reps, 5);
  EXPECT_DOUBLE_EQ(Timing::of({2, 1}).median, 1.5);
  EXPECT_EQ(Timing::of({}).reps, 0);
  EXPECT_EQ((Config{{{"BLOCK", 64}}, 2, 3}).str(), "BLOCK=64 num_warps=2 num_stages=3");
  EXPECT_EQ((Config{{{"BLOCK", 64}}, 2}).str(), "BLOCK=64 num_warps=2");
}

/// x[i] *= 2 for i < n, in place: what tuning must not leave changed (the
/// Python package's tests tune it too).
static std::string doubleInPlacePath() {
  return std::string(LLK_SOURCE_DIR) + "/python/tests/kernels/double_in_place.mlir";
}

TEST(Interpreter, AutotunerRestoresWhatItOverwrites) {
  InterpreterJIT t;
  ScopedEnv print("LLK_PRINT_AUTOTUNING", "1");
  const int n = 200;
  std::vector<Config> configs{{{{"BLOCK", 64}}, 1}, {{{"BLOCK", 128}}, 2, 2}};
  auto grid = [&](const Config &c) {
    return Grid(unsigned((n + c.constants.at("BLOCK").getInteger() - 1) /
                         c.constants.at("BLOCK").getInteger()));
  };
  Source source = Source::fromFile(doubleInPlacePath());
  std::vector<float> x0 = randomFloats(n, 11);
  DeviceBuffer<float> x(t.device, n);
  x.copyFrom(x0);
  AutotuneOptions quick;
  quick.warmupMs = 0;
  quick.repMs = 1;
  Autotuner tuner(t.jit, source, "double_in_place", configs, grid, JITOptions{}, quick);
  testing::internal::CaptureStderr();
  const Autotuner::Result &r =
      tuner.tune("n=200", {x, n}, {}, {BufferRegion{x.address(), x.bytes()}});
  std::string printed = testing::internal::GetCapturedStderr();
  // Each configuration ran many times, yet x is as it was.
  EXPECT_EQ(x.toVector(), x0);
  ASSERT_EQ(r.timings.size(), 2u);
  for (const Timing &timing : r.timings) {
    EXPECT_GE(timing.reps, 1);
    EXPECT_LE(timing.p20, timing.median);
    EXPECT_LE(timing.median, timing.p80);
  }
  EXPECT_NE(printed.find("llk autotune 'double_in_place' [n=200]: 1/2 BLOCK=64 num_warps=1: median"),
            std::string::npos) << printed;
  EXPECT_NE(printed.find("2/2 BLOCK=128 num_warps=2 num_stages=2: median"), std::string::npos)
      << printed;
  EXPECT_NE(printed.find(": best BLOCK="), std::string::npos) << printed;
  // The launch runs once, on the restored data.
  tuner.launch("n=200", {x, n});
  std::vector<float> y = x.toVector();
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(y[i], 2 * x0[i]) << i;
  // Without the region, tuning leaves the launches' writes behind.
  Autotuner careless(t.jit, source, "double_in_place", configs, grid, JITOptions{}, quick);
  x.copyFrom(x0);
  careless.tune("n=200 again", {x, n});
  EXPECT_NE(x.toVector(), x0);
  // A region outside the device's allocations is refused, not copied.
  float elsewhere[4] = {};
  Autotuner strict(t.jit, source, "double_in_place", configs, grid, JITOptions{}, quick);
  EXPECT_THROW(strict.tune("n=4", {x, n}, {},
                           {BufferRegion{uint64_t(reinterpret_cast<uintptr_t>(elsewhere)), 16}}),
               Error);
}

TEST(JIT, CompileAllCompilesInParallel) {
  std::string dir = freshDirectory("compile-all");
  JIT jit(std::make_shared<Cache>(dir));
  Source softmax = Source::fromFile(examplePath("softmax.mlir"));
  std::vector<JITOptions> options;
  for (int64_t block : {128, 256, 3, 512}) { // 3: not a power of two
    JITOptions o;
    o.arch = "sm_90";
    o.constants["BLOCK"] = block;
    options.push_back(o);
  }
  std::vector<std::exception_ptr> failures = jit.compileAll(softmax, options, 2);
  ASSERT_EQ(failures.size(), 4u);
  EXPECT_FALSE(failures[0] || failures[1] || failures[3]);
  ASSERT_TRUE(failures[2]);
  try {
    std::rethrow_exception(failures[2]);
  } catch (const Error &e) {
    EXPECT_EQ(e.code(), ErrorCode::Compile) << e.what();
  }
  EXPECT_EQ(jit.compileCount(), 3u);
  // Each is in the cache now.
  for (size_t i : {0, 1, 3})
    EXPECT_NE(jit.compileModule(softmax, options[i]).ptx.find(".entry softmax_kernel"),
              std::string::npos);
  EXPECT_EQ(jit.compileCount(), 3u);
  fs::remove_all(dir);
}

TEST(Interpreter, CopiesFromAddressesStayInAllocations) {
  Device device = interpreterDevice();
  DeviceMemory a(device, 64), b(device, 64);
  std::vector<uint8_t> bytes(64);
  for (int i = 0; i < 64; ++i)
    bytes[i] = uint8_t(i);
  a.copyFromHost(bytes.data(), 64);
  b.copyFromAddress(a.address() + 16, 48, {});
  std::vector<uint8_t> got(48);
  b.copyToHost(got.data(), 48);
  EXPECT_EQ(got, std::vector<uint8_t>(bytes.begin() + 16, bytes.end()));
  b.copyToAddress(a.address(), 64, {});
  EXPECT_THROW(b.copyFromAddress(a.address() + 16, 64, {}), Error); // past a's end
  EXPECT_THROW(b.copyToAddress(reinterpret_cast<uintptr_t>(got.data()), 16, {}), Error);
  EXPECT_THROW(b.copyToAddress(a.address(), 65, {}), Error); // past b's end
  LaunchOptions raw;
  raw.rawStream = reinterpret_cast<CUstream_st *>(uintptr_t(0x10));
  EXPECT_THROW(b.fill(0, raw), Error);
  b.fill(7, LaunchOptions{});
  b.copyToHost(got.data(), 48);
  EXPECT_EQ(got[0], 7);
}

TEST(Interpreter, TensorMapsPassDescriptorsToKernels) {
  // examples/gemm_tma.mlir through the JIT and rt::TensorMap as on the GPU:
  // the interpreter reads the descriptors' blocks with TMA's zero fill past
  // the edges (M, N and K no multiples of the 64 x 64 x 64 blocks). Inputs
  // are multiples of 1/4 in [-4, 4], exact in f16; the reference is float64.
  InterpreterJIT t;
  JITOptions o;
  o.constants = {{"T", llk::ElementType::F16}, {"BLOCK_M", 64}, {"BLOCK_N", 64},
                 {"BLOCK_K", 64}};
  o.arch = "sm_90a";
  Kernel k = t.jit.compile(Source::fromFile(examplePath("gemm_tma.mlir")), o);
  const auto &params = k.info().params;
  ASSERT_TRUE(params[0].isTensorDesc());
  EXPECT_EQ(params[0].tmaBox, (std::vector<int64_t>{64, 64})); // the block
  const int M = 100, N = 72, K = 80;
  std::vector<int> qa(size_t(M) * K), qb(size_t(K) * N);
  std::vector<Half> ha(qa.size()), hb(qb.size());
  unsigned state = 11;
  auto quarter = [&] {
    state = state * 1664525u + 1013904223u;
    return int(state >> 16) % 33 - 16;
  };
  for (size_t i = 0; i < qa.size(); ++i)
    ha[i].bits = toHalfBits((qa[i] = quarter()) * 0.25f);
  for (size_t i = 0; i < qb.size(); ++i)
    hb[i].bits = toHalfBits((qb[i] = quarter()) * 0.25f);
  DeviceBuffer<Half> a(t.device, ha.size()), b(t.device, hb.size()),
      c(t.device, size_t(M) * N);
  a.copyFrom(ha);
  b.copyFrom(hb);
  c.fillBytes(0xff); // NaN: every element must be written
  TensorMap aMap(t.device, params[0], a.address(), M, K, K * 2);
  TensorMap bMap(t.device, params[1], b.address(), K, N, N * 2);
  k.launch({(M + 63) / 64, (N + 63) / 64, 1}, {aMap, bMap, c, M, N, K, N});
  std::vector<Half> hc = c.toVector();
  double num = 0, den = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double want = 0;
      for (int l = 0; l < K; ++l)
        want += qa[size_t(i) * K + l] * 0.25 * qb[size_t(l) * N + j] * 0.25;
      double got = fromHalfBits(hc[size_t(i) * N + j].bits);
      ASSERT_TRUE(std::isfinite(got)) << "element " << i << ", " << j << " is not finite";
      num += (got - want) * (got - want);
      den += want * want;
    }
  EXPECT_LT(std::sqrt(num / den), 2e-3);
  // The tensor is checked as on the GPU, then every block element like a load.
  EXPECT_THROW(TensorMap(t.device, params[0], a.address() + 2, M, K, K * 2), Error);
  TensorMap tooTall(t.device, params[0], a.address(), 2 * M, K, K * 2);
  try {
    k.launch({(2 * M + 63) / 64, 1, 1}, {tooTall, bMap, c, M, N, K, N});
    ADD_FAILURE() << "a descriptor past its buffer was read";
  } catch (const Error &e) {
    EXPECT_EQ(e.code(), ErrorCode::Execution) << e.what();
  }
}

TEST(Interpreter, PTXIsRefused) {
  Device device = interpreterDevice();
  for (int which = 0; which < 2; ++which) {
    try {
      if (which == 0)
        Module::loadPTXFile(device, examplePath("softmax.ptx"));
      else
        Module::loadPTX(device, ".version 8.0", kMetadata);
      ADD_FAILURE() << "PTX loaded on the interpreter";
    } catch (const Error &e) {
      EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
      EXPECT_NE(std::string(e.what()).find(
                    "the interpreter runs DSL sources; use the JIT"),
                std::string::npos)
          << e.what();
    }
  }
}

TEST(Interpreter, SoftmaxExampleProgramRunsWithoutAGPU) {
  // The host program of docs/runtime.md, unchanged, with LLK_BACKEND set and
  // no CUDA driver to be found.
  std::string output;
  int status = runProgram(std::string(LLK_BINARY_DIR) + "/llk-softmax-jit",
                          {examplePath("softmax.mlir"), "16", "3008"},
                          {{"LLK_BACKEND", "interpreter"},
                           {"LLK_CUDA_LIBRARY", "libllk-no-such-driver.so"}},
                          &output);
  EXPECT_EQ(status, 0) << output;
  EXPECT_NE(output.find("backend: interpreter"), std::string::npos) << output;
  EXPECT_NE(output.find("softmax 16x3008: max relative error"), std::string::npos)
      << output;
  EXPECT_NE(output.find("PASS"), std::string::npos) << output;
}

TEST(Errors, StickyCudaErrorsLoseTheContext) {
  // A fault: every later driver call fails with it.
  for (int sticky : {700, 702, 710, 714, 715, 716, 717, 718, 719})
    EXPECT_TRUE(isStickyCudaError(sticky)) << sticky;
  // The context stays usable: success, an invalid value, out of memory, too
  // many resources or a grid too large for one launch, not ready.
  for (int usable : {0, 1, 2, 3, 201, 400, 600, 701, 720, 999})
    EXPECT_FALSE(isStickyCudaError(usable)) << usable;
  Error misaligned(ErrorCode::Cuda, "cuStreamSynchronize failed",
                   "CUDA_ERROR_MISALIGNED_ADDRESS", 716, "k");
  EXPECT_TRUE(misaligned.contextLost());
  EXPECT_FALSE(Error(ErrorCode::Cuda, "x", "CUDA_ERROR_OUT_OF_MEMORY", 2).contextLost());
  // Only a driver error loses it.
  EXPECT_FALSE(Error(ErrorCode::InvalidArgument, "x", "", 716).contextLost());
}

/// The GPU check programs' runs: after a sticky error, the checks left are
/// NOT RUN, counted, and the cause is named.
TEST(Programs, ChecksStopWhenTheContextIsLost) {
  using llk::rt::programs::CheckRun;
  using llk::rt::programs::CheckStatus;
  bool faultPending = false; // what cuCtxSynchronize would report
  CheckRun run([&] {
    if (faultPending)
      throw Error(ErrorCode::Cuda, "cuCtxSynchronize failed: CUDA_ERROR_ILLEGAL_ADDRESS",
                  "CUDA_ERROR_ILLEGAL_ADDRESS", 700);
  });
  std::string detail;
  EXPECT_EQ(run.run("passes", [](std::string &d) { d = "ok"; return true; }, detail),
            CheckStatus::Passed);
  EXPECT_EQ(run.run("fails", [](std::string &d) { d = "wrong"; return false; }, detail),
            CheckStatus::Failed);
  EXPECT_EQ(detail, "wrong");
  // A usable context after an ordinary error: the next check runs.
  EXPECT_EQ(run.run("throws",
                    [](std::string &) -> bool {
                      throw Error(ErrorCode::Cuda, "out of memory", "CUDA_ERROR_OUT_OF_MEMORY", 2);
                    },
                    detail),
            CheckStatus::Failed);
  EXPECT_FALSE(run.contextLost());
  // An asynchronous fault: the check itself saw nothing, the probe does.
  EXPECT_EQ(run.run("faults",
                    [&](std::string &d) {
                      faultPending = true;
                      d = "launched";
                      return true;
                    },
                    detail),
            CheckStatus::Failed);
  EXPECT_TRUE(run.contextLost());
  EXPECT_EQ(run.lostBy(), "faults");
  EXPECT_EQ(run.lostError(), "CUDA_ERROR_ILLEGAL_ADDRESS");
  EXPECT_NE(detail.find("then the context: cuCtxSynchronize failed"), std::string::npos)
      << detail;
  bool ran = false;
  EXPECT_EQ(run.run("later", [&](std::string &) { return ran = true; }, detail),
            CheckStatus::NotRun);
  EXPECT_FALSE(ran);
  EXPECT_EQ(detail, "the CUDA context was lost to 'faults'");
  EXPECT_EQ(run.run("later too", [&](std::string &) { return ran = true; }, detail),
            CheckStatus::NotRun);
  EXPECT_EQ(run.passed(), 1);
  EXPECT_EQ(run.failed(), 3);
  EXPECT_EQ(run.notRun(), 2);
  EXPECT_EQ(run.exitCode(), 1);
  EXPECT_EQ(run.summary().substr(0, run.summary().find('\n')),
            "1 passed, 3 failed, 2 not run");
  EXPECT_NE(run.summary().find("the CUDA context was lost to 'faults' "
                               "(CUDA_ERROR_ILLEGAL_ADDRESS)"),
            std::string::npos)
      << run.summary();

  // A fault the check throws itself is its own; with no probe.
  CheckRun direct;
  EXPECT_EQ(direct.run("misaligned",
                       [](std::string &) -> bool {
                         throw Error(ErrorCode::Cuda, "cuStreamSynchronize failed",
                                     "CUDA_ERROR_MISALIGNED_ADDRESS", 716, "k");
                       },
                       detail),
            CheckStatus::Failed);
  EXPECT_EQ(direct.lostBy(), "misaligned");
  EXPECT_EQ(direct.run("next", [](std::string &) { return true; }, detail),
            CheckStatus::NotRun);
  CheckRun clean;
  EXPECT_EQ(clean.run("a", [](std::string &) { return true; }, detail), CheckStatus::Passed);
  EXPECT_EQ(clean.summary(), "1 passed, 0 failed");
  EXPECT_EQ(clean.exitCode(), 0);
}

TEST(Programs, IntegersAreParsedWholeAndInRange) {
  using llk::rt::programs::parseInteger;
  int v = 7;
  EXPECT_FALSE(parseInteger("--n", "42", 1, 100, v));
  EXPECT_EQ(v, 42);
  for (const char *bad : {"", "-1", "0", "101", "4x", "1e3", " 5", "+5", "99999999999",
                          "0x10"}) {
    std::optional<std::string> why = parseInteger("--n", bad, 1, 100, v);
    ASSERT_TRUE(why) << bad;
    EXPECT_EQ(*why, std::string("--n expects an integer in [1, 100], got '") + bad + "'");
    EXPECT_EQ(v, 42);
  }
  uint64_t seed = 0;
  EXPECT_FALSE(parseInteger("--seed", "18446744073709551615", uint64_t(0), UINT64_MAX, seed));
  EXPECT_EQ(seed, UINT64_MAX);
  EXPECT_TRUE(parseInteger("--seed", "18446744073709551616", uint64_t(0), UINT64_MAX, seed));
  EXPECT_TRUE(parseInteger("--seed", "-1", uint64_t(0), UINT64_MAX, seed));
}

TEST(Programs, SoftmaxExampleRefusesBadArguments) {
  // Each a message and exit status 2, before any device or allocation (these
  // were a std::length_error or bad_alloc, and an abort).
  for (auto [rows, cols, needle] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"-1", "64", "rows expects an integer in [1, 2147483647], got '-1'"},
           {"99999999999", "64", "rows expects an integer in [1, 2147483647]"},
           {"4x", "64", "rows expects an integer"},
           {"16", "0", "cols expects an integer in [4, 4096], got '0'"},
           {"16", "4097", "cols expects an integer in [4, 4096]"},
           {"16", "30", "cols must be a multiple of 4"},
           {"2147483647", "4096", "2147483647x4096 is more than 268435456 elements"}}) {
    std::string output;
    int status = runProgram(std::string(LLK_BINARY_DIR) + "/llk-softmax-jit",
                            {examplePath("softmax.mlir"), rows, cols},
                            {{"LLK_BACKEND", "interpreter"}}, &output);
    EXPECT_EQ(status, 2) << rows << " " << cols << ": " << output;
    EXPECT_NE(output.find("llk-softmax-jit: " + needle), std::string::npos) << output;
  }
  std::string output;
  EXPECT_EQ(runProgram(std::string(LLK_BINARY_DIR) + "/llk-softmax-jit",
                       {examplePath("softmax.mlir"), "1", "4", "5"}, {}, &output),
            2);
  EXPECT_NE(output.find("usage: llk-softmax-jit"), std::string::npos) << output;
}

TEST(CAPI, VersionAndBuildId) {
  EXPECT_STREQ(llk_version(), LLK_VERSION_STRING);
  EXPECT_EQ(std::string(llk_build_id()), llk::buildId());
  EXPECT_EQ(std::string(llk_build_id()).size(), 16u);
}

TEST(CAPI, ArgumentOfEveryScalarType) {
  auto scalar = [](llk_arg a, llk_type type, uint64_t bits) {
    EXPECT_EQ(a.is_pointer, 0);
    EXPECT_EQ(a.type, type);
    EXPECT_EQ(a.bits, bits) << "type " << int(type);
  };
  scalar(llk_arg_i8(-2), LLK_I8, 0xfe);
  scalar(llk_arg_i16(-2), LLK_I16, 0xfffe);
  scalar(llk_arg_i32(-2), LLK_I32, 0xfffffffe);
  scalar(llk_arg_i64(-2), LLK_I64, 0xfffffffffffffffeull);
  scalar(llk_arg_f16(1.0f), LLK_F16, 0x3c00);
  scalar(llk_arg_f16_bits(0x7bff), LLK_F16, 0x7bff);
  scalar(llk_arg_bf16(1.0f), LLK_BF16, 0x3f80);
  scalar(llk_arg_bf16_bits(0xff80), LLK_BF16, 0xff80);
  scalar(llk_arg_f32(-0.5f), LLK_F32, 0xbf000000);
  scalar(llk_arg_f64(-0.5), LLK_F64, 0xbfe0000000000000ull);
  llk_arg p = llk_arg_ptr(0x1000, LLK_BF16);
  EXPECT_EQ(p.is_pointer, 1);
  EXPECT_EQ(p.type, LLK_BF16);
}

TEST(CAPI, HalfConversionsRoundToNearestEven) {
  // Against the interpreter's f16 and bf16 (APFloat), over special values
  // and random bit patterns: normals, subnormals, overflow, ties, NaNs.
  std::vector<float> values = {0.0f, -0.0f, 1.0f, 0.1f, 65504.0f, 65519.0f, 65520.0f,
                               1e-8f, 2.98e-8f, 5.96e-8f, 6.1e-5f, 3.0e38f,
                               INFINITY, -INFINITY};
  std::mt19937 rng(7);
  for (int i = 0; i < 200000; ++i) {
    uint32_t bits = rng();
    float f;
    std::memcpy(&f, &bits, 4);
    values.push_back(f);
  }
  int wrong = 0;
  for (float f : values) {
    uint16_t half = 0, bf16 = 0;
    llk::interp::encodeElement(llk::interp::ElemType::F16, f, &half);
    llk::interp::encodeElement(llk::interp::ElemType::BF16, f, &bf16);
    if (std::isnan(f)) { // any quiet NaN will do
      wrong += (toHalfBits(f) & 0x7e00) != 0x7e00 || (toBFloat16Bits(f) & 0x7fc0) != 0x7fc0;
      continue;
    }
    if ((toHalfBits(f) != half || toBFloat16Bits(f) != bf16) && wrong++ < 5)
      ADD_FAILURE() << f << ": f16 " << std::hex << toHalfBits(f) << " vs " << half
                    << ", bf16 " << toBFloat16Bits(f) << " vs " << bf16;
  }
  EXPECT_EQ(wrong, 0);
}

TEST(Interpreter, GPUCheckRunsOneCheckAtItsSmallShape) {
  // What `gpu-check.sh run sanitize` runs in each process: the names, then
  // one check at its small shape, untimed (here on the interpreter).
  std::string tool = std::string(LLK_BINARY_DIR) + "/llk-gpu-check";
  std::string output;
  ASSERT_EQ(runProgram(tool, {"--list"}, {}, &output), 0) << output;
  EXPECT_NE(output.find("\nlinear_q8_0\n"), std::string::npos) << output;
  EXPECT_EQ(output.find("PASS"), std::string::npos) << output; // nothing ran
  std::vector<std::string> one = {"--examples", std::string(LLK_SOURCE_DIR) + "/examples",
                                  "--only", "mul_mat_vec_q", "--small", "--no-time"};
  EXPECT_EQ(runProgram(tool, one, {{"LLK_BACKEND", "interpreter"}}, &output), 0) << output;
  EXPECT_NE(output.find("mul_mat_vec_q | small | PASS"), std::string::npos) << output;
  EXPECT_NE(output.find("1 passed, 0 failed"), std::string::npos) << output;
  // A name that is no check's is an error, not an empty pass.
  EXPECT_EQ(runProgram(tool, {"--only", "mul_mat_vec"}, {}, &output), 2) << output;
  EXPECT_NE(output.find("no check named 'mul_mat_vec'"), std::string::npos) << output;
}

TEST(CAPI, NullHandlesAreErrors) {
  EXPECT_EQ(llk_device_open(0, nullptr), LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(llk_last_error()).find("null"), std::string::npos);
  EXPECT_EQ(llk_module_get_kernel(nullptr, "k", nullptr), LLK_ERROR_INVALID_ARGUMENT);
  unsigned grid[3] = {1, 1, 1};
  EXPECT_EQ(llk_kernel_launch(nullptr, grid, nullptr, 0, nullptr, 0),
            LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(llk_kernel_num_params(nullptr), 0u);
  llk_arg a = llk_arg_f32(1.0f);
  EXPECT_EQ(a.bits, 0x3f800000u);
  EXPECT_EQ(llk_arg_i32(-1).bits, 0xffffffffu);
}

/// The C interface on the interpreter backend (LLK_BACKEND), with the
/// softmax example at BLOCK = 64 and buffers for one row of 64.
struct CInterpreter {
  ScopedEnv backend{"LLK_BACKEND", "interpreter"};
  std::string cacheDir = freshDirectory("capi");
  llk_device device = nullptr;
  llk_jit jit = nullptr;
  llk_buffer in = nullptr, out = nullptr;

  CInterpreter() {
    EXPECT_EQ(llk_device_open(0, &device), LLK_SUCCESS) << llk_last_error();
    EXPECT_EQ(llk_jit_create(device, cacheDir.c_str(), &jit), LLK_SUCCESS)
        << llk_last_error();
    EXPECT_EQ(llk_buffer_create(device, 64 * 4, &in), LLK_SUCCESS) << llk_last_error();
    EXPECT_EQ(llk_buffer_create(device, 64 * 4, &out), LLK_SUCCESS) << llk_last_error();
    std::vector<float> x = randomFloats(64, 3);
    EXPECT_EQ(llk_buffer_copy_from_host(in, x.data(), 64 * 4), LLK_SUCCESS);
  }
  ~CInterpreter() {
    // Some were destroyed by the test already: statuses do not matter here.
    (void)llk_buffer_destroy(in);
    (void)llk_buffer_destroy(out);
    (void)llk_jit_destroy(jit);
    (void)llk_device_destroy(device);
    fs::remove_all(cacheDir);
  }
  llk_kernel softmax(const char *arch = nullptr) {
    std::string text = readAll(examplePath("softmax.mlir"));
    const char *defines[] = {"BLOCK=64"};
    llk_kernel k = nullptr;
    EXPECT_EQ(llk_jit_compile(jit, text.c_str(), "softmax.mlir", defines, 1, 4, 0, arch,
                              nullptr, &k),
              LLK_SUCCESS)
        << llk_last_error();
    return k;
  }
  llk_status launch(llk_kernel k) {
    unsigned grid[3] = {1, 1, 1};
    llk_arg args[] = {llk_arg_ptr(llk_buffer_address(out), LLK_F32),
                      llk_arg_ptr(llk_buffer_address(in), LLK_F32), llk_arg_i32(64),
                      llk_arg_i32(64), llk_arg_i32(64)};
    return llk_kernel_launch(k, grid, args, 5, nullptr, 0);
  }
};

static bool lastErrorHas(const std::string &needle) {
  return std::string(llk_last_error()).find(needle) != std::string::npos;
}

TEST(CAPI, DeviceCountFollowsTheBackend) {
  ScopedEnv backend("LLK_BACKEND", "interpreter");
  int count = -1;
  ASSERT_EQ(llk_device_count(&count), LLK_SUCCESS) << llk_last_error();
  EXPECT_EQ(count, 1);
  llk_device dev = nullptr;
  ASSERT_EQ(llk_device_open(count - 1, &dev), LLK_SUCCESS) << llk_last_error();
  EXPECT_STREQ(llk_device_arch(dev), "interpreter");
  EXPECT_EQ(llk_device_open(count, &dev), LLK_ERROR_NOT_FOUND);
  EXPECT_EQ(llk_device_destroy(dev), LLK_SUCCESS);
  ScopedEnv bad("LLK_BACKEND", "tpu");
  EXPECT_EQ(llk_device_count(&count), LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(lastErrorHas("LLK_BACKEND='tpu'")) << llk_last_error();
}

TEST(CAPI, StaleHandlesAreErrors) {
  CInterpreter c;
  llk_kernel k = c.softmax();
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(llk_kernel_num_params(k), 5u);
  EXPECT_EQ(c.launch(k), LLK_SUCCESS) << llk_last_error();
  // Destroyed: every use is an error, a second destroy too.
  EXPECT_EQ(llk_kernel_destroy(k), LLK_SUCCESS);
  EXPECT_EQ(c.launch(k), LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(lastErrorHas("kernel is not a live llk_kernel")) << llk_last_error();
  EXPECT_EQ(llk_kernel_num_params(k), 0u);
  EXPECT_TRUE(lastErrorHas("not a live llk_kernel")) << llk_last_error();
  EXPECT_EQ(llk_kernel_num_warps(k), 0u);
  EXPECT_EQ(llk_kernel_destroy(k), LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(lastErrorHas("destroyed already")) << llk_last_error();
  EXPECT_EQ(llk_kernel_destroy(nullptr), LLK_SUCCESS); // as free(NULL)

  // Never handed out, or of another type.
  llk_kernel garbage = reinterpret_cast<llk_kernel>(uintptr_t(0x5eed1234));
  EXPECT_EQ(c.launch(garbage), LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(llk_kernel_destroy(garbage), LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(c.launch(reinterpret_cast<llk_kernel>(c.device)), LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(llk_synchronize(reinterpret_cast<llk_device>(c.in)),
            LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(lastErrorHas("device is not a live llk_device")) << llk_last_error();
  EXPECT_EQ(llk_device_destroy(reinterpret_cast<llk_device>(c.jit)),
            LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(llk_device_arch(reinterpret_cast<llk_device>(c.jit)), "");
  // (The interpreter loads no PTX, so no module handle here: the GPU check
  // destroys a real one twice.)
  llk_module notAModule = reinterpret_cast<llk_module>(c.in);
  llk_kernel none = nullptr;
  EXPECT_EQ(llk_module_get_kernel(notAModule, "softmax_kernel", &none),
            LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(lastErrorHas("module is not a live llk_module")) << llk_last_error();
  EXPECT_EQ(llk_module_destroy(notAModule), LLK_ERROR_INVALID_ARGUMENT);
  llk_module module = nullptr;
  EXPECT_EQ(llk_module_load_ptx(reinterpret_cast<llk_device>(c.jit), "", "{}", &module),
            LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(lastErrorHas("device is not a live llk_device")) << llk_last_error();

  // Buffers.
  llk_buffer b = nullptr;
  ASSERT_EQ(llk_buffer_create(c.device, 16, &b), LLK_SUCCESS);
  EXPECT_NE(llk_buffer_address(b), 0u);
  EXPECT_EQ(llk_buffer_destroy(b), LLK_SUCCESS);
  EXPECT_EQ(llk_buffer_address(b), 0u);
  float host[4] = {};
  EXPECT_EQ(llk_buffer_copy_from_host(b, host, 16), LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(llk_buffer_copy_to_host(b, host, 16), LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(llk_buffer_destroy(b), LLK_ERROR_INVALID_ARGUMENT);

  // A kernel keeps what it needs: it outlives the JIT's and the device's
  // handles; the JIT's handle, once destroyed, compiles nothing.
  llk_kernel kept = c.softmax();
  EXPECT_EQ(llk_jit_destroy(c.jit), LLK_SUCCESS);
  EXPECT_EQ(llk_device_destroy(c.device), LLK_SUCCESS);
  EXPECT_EQ(c.launch(kept), LLK_SUCCESS) << llk_last_error();
  std::vector<float> y(64);
  EXPECT_EQ(llk_buffer_copy_to_host(c.out, y.data(), 64 * 4), LLK_SUCCESS);
  double sum = 0;
  for (float v : y)
    sum += v;
  EXPECT_NEAR(sum, 1.0, 1e-5);
  std::string text = "func.func @k() { return }";
  EXPECT_EQ(llk_jit_compile(c.jit, text.c_str(), nullptr, nullptr, 0, 0, 0, nullptr,
                            nullptr, &none),
            LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(none, nullptr);
  EXPECT_EQ(llk_buffer_create(c.device, 16, &b), LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(llk_kernel_destroy(kept), LLK_SUCCESS);
}

TEST(CAPI, HandlesAreThreadSafe) {
  CInterpreter c;
  // Launches on 4 threads while the main thread destroys the kernel: each
  // launch runs or finds the handle gone, none touches freed memory.
  llk_kernel k = c.softmax();
  std::atomic<int> ran{0}, refused{0}, other{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 25; ++i) {
        llk_status s = c.launch(k);
        (s == LLK_SUCCESS ? ran : s == LLK_ERROR_INVALID_ARGUMENT ? refused : other)++;
      }
    });
  while (ran.load() < 4 && ran + refused + other < 100)
    std::this_thread::yield();
  EXPECT_EQ(llk_kernel_destroy(k), LLK_SUCCESS);
  for (std::thread &t : threads)
    t.join();
  EXPECT_GE(ran.load(), 4);
  EXPECT_EQ(ran + refused, 100);
  EXPECT_EQ(other.load(), 0);
  EXPECT_EQ(c.launch(k), LLK_ERROR_INVALID_ARGUMENT);

  // One handle destroyed by 8 threads at once: one of them destroys it.
  llk_buffer b = nullptr;
  ASSERT_EQ(llk_buffer_create(c.device, 256, &b), LLK_SUCCESS);
  std::atomic<int> destroyed{0};
  threads.clear();
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&] { destroyed += llk_buffer_destroy(b) == LLK_SUCCESS; });
  for (std::thread &t : threads)
    t.join();
  EXPECT_EQ(destroyed.load(), 1);
}

TEST(CAPI, JITOptionsAreCheckedOnEveryBackend) {
  CInterpreter c;
  std::string text = readAll(examplePath("softmax.mlir"));
  const char *defines[] = {"BLOCK=64"};
  llk_kernel k = nullptr;
  EXPECT_EQ(llk_jit_compile(c.jit, text.c_str(), "softmax.mlir", defines, 1, 4, 0,
                            "garbage", nullptr, &k),
            LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(lastErrorHas("unsupported --arch 'garbage'")) << llk_last_error();
  EXPECT_EQ(k, nullptr);
  EXPECT_EQ(llk_jit_compile(c.jit, text.c_str(), "softmax.mlir", defines, 1, 6, 0,
                            nullptr, nullptr, &k),
            LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(lastErrorHas("power of two")) << llk_last_error();
  EXPECT_EQ(llk_jit_compile(c.jit, text.c_str(), "softmax.mlir", defines, 1, 4, 9,
                            nullptr, nullptr, &k),
            LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(lastErrorHas("--num-stages must be in [1, 8]")) << llk_last_error();
  const char *nullDefine[] = {nullptr};
  EXPECT_EQ(llk_jit_compile(c.jit, text.c_str(), "softmax.mlir", nullDefine, 1, 4, 0,
                            nullptr, nullptr, &k),
            LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(lastErrorHas("null define 0")) << llk_last_error();
  const char *badDefine[] = {"BLOCK=sixty-four"};
  EXPECT_EQ(llk_jit_compile(c.jit, text.c_str(), "softmax.mlir", badDefine, 1, 4, 0,
                            nullptr, nullptr, &k),
            LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(lastErrorHas("BLOCK=sixty-four")) << llk_last_error();
  k = c.softmax("sm_90");
  EXPECT_NE(k, nullptr);
  EXPECT_EQ(llk_kernel_destroy(k), LLK_SUCCESS);
}

TEST(CAPI, JITCompileErrorIsStatus) {
  llk_jit jit = nullptr;
  // JIT handles need a device; without one the call fails cleanly.
  llk_status s = llk_jit_create(nullptr, nullptr, &jit);
  EXPECT_EQ(s, LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(jit, nullptr);
}

TEST(CAPI, KernelNameAndParameters) {
  CInterpreter c;
  llk_kernel k = c.softmax();
  EXPECT_STREQ(llk_kernel_name(k), "softmax_kernel");
  int pointer = -1;
  llk_type type = LLK_UNTYPED;
  ASSERT_EQ(llk_kernel_num_params(k), 5u);
  EXPECT_EQ(llk_kernel_param(k, 0, &pointer, &type), LLK_SUCCESS);
  EXPECT_EQ(pointer, 1);
  EXPECT_EQ(type, LLK_F32);
  EXPECT_EQ(llk_kernel_param(k, 4, &pointer, &type), LLK_SUCCESS);
  EXPECT_EQ(pointer, 0);
  EXPECT_EQ(type, LLK_I32);
  EXPECT_EQ(llk_kernel_param(k, 5, &pointer, &type), LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(lastErrorHas("has 5 parameters")) << llk_last_error();
  EXPECT_EQ(llk_kernel_param(k, 0, nullptr, &type), LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(llk_device_name(c.device), "llk interpreter (host)");
  llk_jit_stats stats;
  ASSERT_EQ(llk_jit_get_stats(c.jit, &stats), LLK_SUCCESS);
  EXPECT_EQ(stats.compiles, 1u);
  EXPECT_EQ(llk_kernel_destroy(k), LLK_SUCCESS);
  EXPECT_STREQ(llk_kernel_name(k), "");
  EXPECT_EQ(llk_jit_get_stats(c.jit, nullptr), LLK_ERROR_INVALID_ARGUMENT);
}

TEST(CAPI, KernelMetadataAndLaunchOptions) {
  CInterpreter c;
  llk_kernel k = c.softmax();
  llk_param_info info;
  ASSERT_EQ(llk_kernel_param_info(k, 1, &info), LLK_SUCCESS) << llk_last_error();
  EXPECT_EQ(info.is_pointer, 1);
  EXPECT_EQ(info.type, LLK_F32);
  EXPECT_EQ(info.is_tensor_desc, 0);
  EXPECT_EQ(info.tma_box[0], 0);
  EXPECT_EQ(info.read_overrun_bytes, 0);
  ASSERT_EQ(llk_kernel_param_info(k, 2, &info), LLK_SUCCESS);
  EXPECT_EQ(info.is_pointer, 0);
  EXPECT_EQ(info.type, LLK_I32);
  EXPECT_EQ(llk_kernel_param_info(k, 5, &info), LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(llk_kernel_param_info(k, 0, nullptr), LLK_ERROR_INVALID_ARGUMENT);
  // The contracts (softmax.mlir: 16-byte aligned pointers, multiples of 4).
  int64_t divisibility = 0;
  EXPECT_EQ(llk_kernel_param_divisibility(k, 0, &divisibility), LLK_SUCCESS);
  EXPECT_EQ(divisibility, 16);
  EXPECT_EQ(llk_kernel_param_divisibility(k, 4, &divisibility), LLK_SUCCESS);
  EXPECT_EQ(divisibility, 4);
  EXPECT_EQ(llk_kernel_param_divisibility(k, 5, &divisibility), LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(llk_kernel_param_divisibility(k, 0, nullptr), LLK_ERROR_INVALID_ARGUMENT);
  {
    unsigned grid[3] = {1, 1, 1};
    llk_arg misaligned[] = {llk_arg_ptr(llk_buffer_address(c.out), LLK_F32),
                            llk_arg_ptr(llk_buffer_address(c.in) + 8, LLK_F32),
                            llk_arg_i32(56), llk_arg_i32(56), llk_arg_i32(56)};
    EXPECT_EQ(llk_kernel_launch(k, grid, misaligned, 5, nullptr, 0),
              LLK_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(lastErrorHas("kernel 'softmax_kernel': argument 1 (ptr<f32>) is the "
                             "address 0x"))
        << llk_last_error();
    EXPECT_TRUE(lastErrorHas("not 16-byte aligned as its tile.divisibility = 16 promises"))
        << llk_last_error();
    llk_arg odd[] = {llk_arg_ptr(llk_buffer_address(c.out), LLK_F32),
                     llk_arg_ptr(llk_buffer_address(c.in), LLK_F32), llk_arg_i32(64),
                     llk_arg_i32(64), llk_arg_i32(63)};
    EXPECT_EQ(llk_kernel_launch(k, grid, odd, 5, nullptr, 0), LLK_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(lastErrorHas("argument 4 (i32) is 63, which is not a multiple of 4"))
        << llk_last_error();
    EXPECT_EQ(c.launch(k), LLK_SUCCESS) << llk_last_error(); // kept: it runs
  }
  EXPECT_EQ(llk_kernel_shared_bytes(k), 0); // the interpreter has none
  EXPECT_EQ(llk_kernel_dynamic_shared_bytes(k), 0);
  EXPECT_EQ(llk_kernel_grid_dependency_wait(k), 0);
  EXPECT_EQ(llk_kernel_shared_bytes(nullptr), 0);
  EXPECT_TRUE(lastErrorHas("null kernel")) << llk_last_error();
  int programs = 0;
  EXPECT_EQ(llk_kernel_occupancy(k, 0, &programs), LLK_SUCCESS);
  EXPECT_EQ(programs, 1); // the interpreter runs one at a time
  EXPECT_EQ(llk_kernel_occupancy(k, 0, nullptr), LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(llk_kernel_set_shared_memory_carveout(k, 100), LLK_SUCCESS);
  EXPECT_EQ(llk_kernel_set_shared_memory_carveout(k, -1), LLK_SUCCESS);
  EXPECT_EQ(llk_kernel_set_shared_memory_carveout(k, 101), LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(lastErrorHas("carve-out is -1 or 0 to 100")) << llk_last_error();

  unsigned grid[3] = {1, 1, 1};
  llk_arg args[] = {llk_arg_ptr(llk_buffer_address(c.out), LLK_F32),
                    llk_arg_ptr(llk_buffer_address(c.in), LLK_F32), llk_arg_i32(64),
                    llk_arg_i32(64), llk_arg_i32(64)};
  EXPECT_EQ(llk_kernel_launch_ex(k, grid, args, 5, nullptr), LLK_SUCCESS) << llk_last_error();
  llk_launch_options sync = {nullptr, 0, 0, 1};
  EXPECT_EQ(llk_kernel_launch_ex(k, grid, args, 5, &sync), LLK_SUCCESS) << llk_last_error();
  llk_launch_options dependent = {nullptr, 0, 1, 0};
  EXPECT_EQ(llk_kernel_launch_ex(k, grid, args, 5, &dependent), LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(lastErrorHas("tile.grid_dependency_wait")) << llk_last_error();

  // Tensor maps: softmax has no descriptor, and the interpreter no TMA.
  llk_tensor_map map = nullptr;
  EXPECT_EQ(llk_tensor_map_create(c.device, k, 1, llk_buffer_address(c.in), 8, 8, 32, &map),
            LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(lastErrorHas("is not a !tile.tensordesc")) << llk_last_error();
  EXPECT_EQ(map, nullptr);
  EXPECT_EQ(llk_tensor_map_create(c.device, k, 9, 0, 8, 8, 32, &map),
            LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(llk_tensor_map_address(map), 0u);
  llk_arg stale = llk_arg_tensor_map(reinterpret_cast<llk_tensor_map>(uintptr_t(0x5eed)));
  EXPECT_EQ(stale.is_pointer, LLK_ARG_TENSOR_MAP);
  EXPECT_EQ(stale.type, LLK_UNTYPED);
  llk_arg withStale[] = {stale, args[1], args[2], args[3], args[4]};
  EXPECT_EQ(llk_kernel_launch_ex(k, grid, withStale, 5, nullptr), LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(lastErrorHas("tensor map that is not live")) << llk_last_error();
  // A tensor map's address where a pointer goes: the types disagree.
  llk_arg mapArg = {LLK_ARG_TENSOR_MAP, LLK_F32, llk_buffer_address(c.out)};
  llk_arg asMap[] = {mapArg, args[1], args[2], args[3], args[4]};
  EXPECT_EQ(llk_kernel_launch_ex(k, grid, asMap, 5, nullptr), LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(lastErrorHas("tensormap<f32> but the parameter is ptr<f32>")) << llk_last_error();
  EXPECT_EQ(llk_tensor_map_destroy(nullptr), LLK_SUCCESS);
  EXPECT_EQ(llk_kernel_destroy(k), LLK_SUCCESS);
}

TEST(CAPI, AutotunerTunesAndRestores) {
  CInterpreter c;
  const int n = 100;
  const std::string doubleInPlace = readAll(doubleInPlacePath());
  std::vector<float> x0 = randomFloats(n, 5);
  llk_buffer x = nullptr;
  ASSERT_EQ(llk_buffer_create(c.device, n * 4, &x), LLK_SUCCESS);
  ASSERT_EQ(llk_buffer_copy_from_host(x, x0.data(), n * 4), LLK_SUCCESS);
  const char *small[] = {"BLOCK=64"}, *large[] = {"BLOCK=128"};
  llk_config configs[] = {{small, 1, 1, 0}, {large, 1, 2, 2}};
  llk_autotune_options quick = {0.0, 1.0, 1};
  llk_autotuner tuner = nullptr;
  ASSERT_EQ(llk_autotuner_create(c.jit, doubleInPlace.c_str(), "double.mlir", nullptr, configs, 2,
                                 &quick, &tuner),
            LLK_SUCCESS)
      << llk_last_error();
  unsigned grids[6] = {2, 1, 1, 1, 1, 1};
  llk_arg args[] = {llk_arg_ptr(llk_buffer_address(x), LLK_F32), llk_arg_i32(n)};
  llk_region region = {llk_buffer_address(x), size_t(n) * 4};
  size_t best = 99;
  ASSERT_EQ(llk_autotuner_tune(tuner, "n=100", grids, args, 2, nullptr, &region, 1, &best),
            LLK_SUCCESS)
      << llk_last_error();
  EXPECT_LT(best, 2u);
  std::vector<float> y(n);
  ASSERT_EQ(llk_buffer_copy_to_host(x, y.data(), n * 4), LLK_SUCCESS);
  EXPECT_EQ(y, x0);
  llk_timing timing;
  for (size_t i = 0; i < 2; ++i) {
    ASSERT_EQ(llk_autotuner_timing(tuner, "n=100", i, &timing), LLK_SUCCESS);
    EXPECT_GE(timing.reps, 1);
    EXPECT_LE(timing.p20_ms, timing.median_ms);
    EXPECT_EQ(timing.from_cache, 0);
  }
  EXPECT_EQ(llk_autotuner_timing(tuner, "n=7", 0, &timing), LLK_ERROR_NOT_FOUND);
  EXPECT_EQ(llk_autotuner_timing(tuner, "n=100", 2, &timing), LLK_ERROR_INVALID_ARGUMENT);
  // The winner's kernel, launched on its grid, doubles x once.
  llk_kernel k = nullptr;
  ASSERT_EQ(llk_autotuner_kernel(tuner, best, &k), LLK_SUCCESS) << llk_last_error();
  EXPECT_EQ(llk_kernel_num_warps(k), best == 0 ? 1u : 2u);
  ASSERT_EQ(llk_kernel_launch(k, grids + 3 * best, args, 2, nullptr, 0), LLK_SUCCESS);
  ASSERT_EQ(llk_buffer_copy_to_host(x, y.data(), n * 4), LLK_SUCCESS);
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(y[i], 2 * x0[i]);
  EXPECT_EQ(llk_autotuner_kernel(tuner, 2, &k), LLK_ERROR_INVALID_ARGUMENT);
  // A second tuner over the same cache finds the winner there.
  llk_autotuner again = nullptr;
  ASSERT_EQ(llk_autotuner_create(c.jit, doubleInPlace.c_str(), "double.mlir", nullptr, configs, 2,
                                 &quick, &again),
            LLK_SUCCESS);
  size_t best2 = 99;
  ASSERT_EQ(llk_autotuner_tune(again, "n=100", grids, args, 2, nullptr, &region, 1, &best2),
            LLK_SUCCESS);
  EXPECT_EQ(best2, best);
  ASSERT_EQ(llk_autotuner_timing(again, "n=100", best, &timing), LLK_SUCCESS);
  EXPECT_EQ(timing.from_cache, 1);
  EXPECT_EQ(timing.reps, 0);
  // Bad configurations and calls are errors.
  const char *bad[] = {"BLOCK"};
  llk_config broken[] = {{bad, 1, 1, 0}};
  llk_autotuner none = nullptr;
  EXPECT_EQ(llk_autotuner_create(c.jit, doubleInPlace.c_str(), nullptr, nullptr, broken, 1, nullptr,
                                 &none),
            LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(llk_autotuner_create(c.jit, doubleInPlace.c_str(), nullptr, nullptr, configs, 0, nullptr,
                                 &none),
            LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(lastErrorHas("at least one config")) << llk_last_error();
  EXPECT_EQ(llk_autotuner_tune(tuner, "k", nullptr, args, 2, nullptr, nullptr, 0, &best),
            LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(llk_autotuner_destroy(again), LLK_SUCCESS);
  EXPECT_EQ(llk_autotuner_destroy(tuner), LLK_SUCCESS);
  EXPECT_EQ(llk_autotuner_destroy(tuner), LLK_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(llk_kernel_destroy(k), LLK_SUCCESS);
  EXPECT_EQ(llk_buffer_destroy(x), LLK_SUCCESS);
}

TEST(CAPI, ElementTypeDefines) {
  // -D T=bf16 through the C interface: the GEMM specialized for bf16.
  CInterpreter c;
  std::string text = readAll(examplePath("gemm.mlir"));
  const char *defines[] = {"BLOCK_M=32", "BLOCK_N=32", "BLOCK_K=16", "T=bf16"};
  llk_kernel k = nullptr;
  ASSERT_EQ(llk_jit_compile(c.jit, text.c_str(), "gemm.mlir", defines, 4, 4, 0, nullptr,
                            nullptr, &k),
            LLK_SUCCESS)
      << llk_last_error();
  int pointer = 0;
  llk_type type = LLK_UNTYPED;
  EXPECT_EQ(llk_kernel_param(k, 0, &pointer, &type), LLK_SUCCESS);
  EXPECT_EQ(type, LLK_BF16);
  EXPECT_EQ(llk_kernel_destroy(k), LLK_SUCCESS);
}

int main(int argc, char **argv) {
  selfPath = fs::canonical("/proc/self/exe").string();
  std::srand(static_cast<unsigned>(getpid()));
  if (argc >= 2 && std::string(argv[1]) == "--child=compile" && argc == 3)
    return childCompile(argv[2]);
  if (argc >= 2 && std::string(argv[1]) == "--child=no-driver")
    return childNoDriver();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
