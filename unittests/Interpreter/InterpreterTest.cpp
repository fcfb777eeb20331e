//===- InterpreterTest.cpp - the tile interpreter's semantics and checks --===//
//
// Every example kernel against its float64 reference on fresh random inputs,
// the dialect's numeric semantics op by op, and the errors the interpreter
// reports (out-of-bounds and uninitialized accesses, bad launches).
//
//===----------------------------------------------------------------------===//

#include "Checks/KernelChecks.h"
#include "llk/Environment.h"

#include "llk/Interpreter/Interpreter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace llk;
using namespace llk::interp;

namespace {

mlir::MLIRContext &context() {
  static std::unique_ptr<mlir::MLIRContext> ctx = checks::makeContext();
  return *ctx;
}

//===----------------------------------------------------------------------===//
// Example kernels
//===----------------------------------------------------------------------===//

class ExampleKernel : public ::testing::TestWithParam<checks::KernelCheck> {};

TEST_P(ExampleKernel, MatchesFloat64Reference) {
  const checks::KernelCheck &check = GetParam();
  uint64_t seed = std::random_device{}();
  if (auto env = llk::env::get(llk::env::Knob::TestSeed))
    seed = std::strtoull(env->c_str(), nullptr, 0);
  checks::CheckResult result =
      checks::runCheck(check, LLK_EXAMPLES_DIR, seed, context());
  EXPECT_TRUE(result.passed) << check.name << " (seed " << seed
                             << ", LLK_TEST_SEED to repeat): " << result.message;
  std::printf("  %s, seed %llu: %s\n", check.name.c_str(),
              static_cast<unsigned long long>(seed), result.message.c_str());
}

INSTANTIATE_TEST_SUITE_P(
    Examples, ExampleKernel, ::testing::ValuesIn(checks::kernelChecks()),
    [](const ::testing::TestParamInfo<checks::KernelCheck> &info) {
      return info.param.name;
    });

//===----------------------------------------------------------------------===//
// Helpers: run inline kernels
//===----------------------------------------------------------------------===//

struct Loaded {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::func::FuncOp kernel;
};

Loaded load(const std::string &source) {
  std::string error;
  Loaded loaded;
  loaded.module = parseKernelSource(context(), source, "test.mlir", {}, error);
  EXPECT_TRUE(loaded.module) << error;
  if (loaded.module)
    loaded.kernel = findKernel(*loaded.module, "", error);
  EXPECT_TRUE(loaded.kernel) << error;
  return loaded;
}

/// A kernel that loads a tile of N `in` elements from %in, computes %y from
/// %x with `body`, and stores %y to %out.
std::string mapKernel(const std::string &in, const std::string &out, int n,
                      const std::string &body) {
  std::string N = std::to_string(n);
  std::string T = "tensor<" + N + "x";
  return "func.func @k(%in: !tile.ptr<" + in + ">, %out: !tile.ptr<" + out + ">) {\n"
         "  %r = tile.make_range 0 to " + N + " : " + T + "i32>\n"
         "  %ib = tile.splat %in : !tile.ptr<" + in + "> -> " + T + "!tile.ptr<" + in + ">>\n"
         "  %ip = tile.addptr %ib, %r : " + T + "!tile.ptr<" + in + ">>, " + T + "i32>\n"
         "  %x = tile.load %ip : " + T + "!tile.ptr<" + in + ">>\n" +
         body +
         "  %ob = tile.splat %out : !tile.ptr<" + out + "> -> " + T + "!tile.ptr<" + out + ">>\n"
         "  %op = tile.addptr %ob, %r : " + T + "!tile.ptr<" + out + ">>, " + T + "i32>\n"
         "  tile.store %y, %op : " + T + "!tile.ptr<" + out + ">>\n"
         "  return\n}\n";
}

/// Runs a mapKernel over `input`; returns the output, or sets `error`.
template <typename In, typename Out>
std::vector<Out> runMap(const std::string &source, std::vector<In> input,
                        std::string *error = nullptr) {
  Loaded loaded = load(source);
  std::vector<Out> output(input.size());
  if (!loaded.kernel)
    return output;
  Interpreter interp;
  EXPECT_FALSE(interp.addBuffer(input.data(), input.size() * sizeof(In), "in"));
  EXPECT_FALSE(interp.addBuffer(output.data(), output.size() * sizeof(Out), "out"));
  KernelArgs args;
  args.addPointer(input.data());
  args.addPointer(output.data());
  auto result = interp.run(loaded.kernel, {1, 1, 1}, args.pointers());
  if (error)
    *error = result.value_or("");
  else
    EXPECT_FALSE(result) << *result;
  return output;
}

uint16_t toHalf(float x) {
  uint16_t bits;
  encodeElement(ElemType::F16, x, &bits);
  return bits;
}
float fromHalf(uint16_t bits) { return decodeElement(ElemType::F16, &bits); }

//===----------------------------------------------------------------------===//
// Numeric semantics
//===----------------------------------------------------------------------===//

TEST(Semantics, IntegerOpsWrapAtTheirWidth) {
  auto out = runMap<int8_t, int8_t>(
      mapKernel("i8", "i8", 4,
                "  %c = arith.constant dense<[1, 2, -1, 100]> : tensor<4xi8>\n"
                "  %s = arith.addi %x, %c : tensor<4xi8>\n"
                "  %y = arith.muli %s, %c : tensor<4xi8>\n"),
      {127, 127, -128, 100});
  // (127+1)*1 = -128; (127+2)*2 = -127*2 = 2 (mod 256); (-128-1)*-1 = -127;
  // (100+100)*100 = -56*100 = 32 (mod 256)
  EXPECT_EQ(out, (std::vector<int8_t>{-128, 2, -127, 32}));
}

TEST(Semantics, UnsignedOpsAndShifts) {
  auto out = runMap<int32_t, int32_t>(
      mapKernel("i32", "i32", 4,
                "  %c = arith.constant dense<[2, 31, 0, 4]> : tensor<4xi32>\n"
                "  %a = arith.shrui %x, %c : tensor<4xi32>\n"
                "  %b = arith.shrsi %x, %c : tensor<4xi32>\n"
                "  %y = arith.addi %a, %b : tensor<4xi32>\n"),
      {-8, -8, -8, 80});
  // shrui(-8, 2) = 0x3FFFFFFE, shrsi = -2; shift 31: 1 + -1; by 0: -8 + -8;
  // 80 >> 4: 5 + 5
  EXPECT_EQ(out, (std::vector<int32_t>{0x3FFFFFFE - 2, 0, -16, 10}));
}

/// What MLIR defines as poison is an error: the compiled kernel's LLVM may
/// assume it never happens (a shift by 32 of an i32 folds to nothing).
TEST(Semantics, PoisonIsAnError) {
  struct Case {
    std::string body, message;
  };
  for (const Case &c : std::vector<Case>{
           {"  %c = arith.constant dense<[1, 2, 32, 3]> : tensor<4xi32>\n"
            "  %y = arith.shli %x, %c : tensor<4xi32>\n",
            "'arith.shli' gives poison (it shifts by 32, not less than the "
            "width, 32 bits) in program (0, 0, 0) at element 2 of the tile "
            "(index [2])"},
           {"  %c = arith.constant dense<-1> : tensor<4xi32>\n"
            "  %y = arith.shrsi %x, %c : tensor<4xi32>\n",
            "'arith.shrsi' gives poison (it shifts by 4294967295, not less "
            "than the width, 32 bits) in program (0, 0, 0) at element 0"},
           {"  %c = arith.constant dense<2147483647> : tensor<4xi32>\n"
            "  %y = arith.addi %x, %c overflow<nsw> : tensor<4xi32>\n",
            "'arith.addi' gives poison (nsw, but the result overflows as a "
            "signed number) in program (0, 0, 0) at element 0"},
           {"  %c = arith.constant dense<5> : tensor<4xi32>\n"
            "  %y = arith.subi %x, %c overflow<nuw> : tensor<4xi32>\n",
            "'arith.subi' gives poison (nuw, but the result overflows as an "
            "unsigned number) in program (0, 0, 0) at element 0"},
           {"  %c = arith.constant dense<1073741824> : tensor<4xi32>\n"
            "  %y = arith.muli %x, %c overflow<nsw> : tensor<4xi32>\n",
            "'arith.muli' gives poison (nsw, but the result overflows as a "
            "signed number) in program (0, 0, 0) at element 1"},
           {"  %c = arith.constant dense<2> : tensor<4xi32>\n"
            "  %y = arith.divsi %x, %c exact : tensor<4xi32>\n",
            "'arith.divsi' gives poison (exact, but 1 is not a multiple of 2) "
            "in program (0, 0, 0) at element 0"},
           {"  %c = arith.constant dense<1> : tensor<4xi32>\n"
            "  %y = arith.shrui %x, %c exact : tensor<4xi32>\n",
            "'arith.shrui' gives poison (exact, but it shifts out nonzero "
            "bits) in program (0, 0, 0) at element 0"},
           {"  %c = arith.constant dense<30> : tensor<4xi32>\n"
            "  %y = arith.shli %x, %c overflow<nsw> : tensor<4xi32>\n",
            "'arith.shli' gives poison (nsw, but it shifts out significant "
            "bits) in program (0, 0, 0) at element 1"},
           {"  %t = arith.trunci %x overflow<nsw> : tensor<4xi32> to tensor<4xi8>\n"
            "  %y = arith.extsi %t : tensor<4xi8> to tensor<4xi32>\n",
            "'arith.trunci' gives poison (nsw, but 200 does not fit) in "
            "program (0, 0, 0) at element 3"}}) {
    std::string error;
    runMap<int32_t, int32_t>(mapKernel("i32", "i32", 4, c.body), {1, 2, 3, 200},
                             &error);
    EXPECT_NE(error.find(c.message), std::string::npos)
        << c.body << "gave: " << error;
  }
  // The promises kept: no error.
  auto out = runMap<int32_t, int32_t>(
      mapKernel("i32", "i32", 4,
                "  %c = arith.constant dense<2> : tensor<4xi32>\n"
                "  %s = arith.shli %x, %c overflow<nsw, nuw> : tensor<4xi32>\n"
                "  %d = arith.divui %s, %c exact : tensor<4xi32>\n"
                "  %y = arith.addi %d, %c overflow<nsw, nuw> : tensor<4xi32>\n"),
      {1, 2, 3, 200});
  EXPECT_EQ(out, (std::vector<int32_t>{4, 6, 8, 402}));
}

/// max/min of floats ignore NaN and order -0 below +0, as PTX's max.f32 and
/// min.f32 (C's fmax(-0, +0) may give -0).
TEST(Semantics, MaxAndMinOrderSignedZeros) {
  auto out = runMap<float, float>(
      mapKernel("f32", "f32", 4,
                "  %c = arith.constant dense<[0.0, -0.0, 0.0, -0.0]> : tensor<4xf32>\n"
                "  %mx = arith.maxnumf %x, %c : tensor<4xf32>\n"
                "  %mn = arith.minnumf %x, %c : tensor<4xf32>\n"
                "  %one = arith.constant dense<1.0> : tensor<4xf32>\n"
                "  %a = arith.divf %one, %mx : tensor<4xf32>\n"
                "  %b = arith.divf %one, %mn : tensor<4xf32>\n"
                "  %y = arith.subf %a, %b : tensor<4xf32>\n"),
      {-0.0f, 0.0f, 0.0f, -0.0f});
  // max is +0 and min -0 where the zeros differ: 1/+0 - 1/-0 = +inf.
  float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(out[0], inf);
  EXPECT_EQ(out[1], inf);
  EXPECT_TRUE(std::isnan(out[2])); // both +0: inf - inf
  EXPECT_TRUE(std::isnan(out[3]));
  auto reduced = runMap<float, float>(
      mapKernel("f32", "f32", 4,
                "  %m = tile.reduce max %x axis = 0 : tensor<4xf32> -> f32\n"
                "  %one = arith.constant 1.0 : f32\n"
                "  %inv = arith.divf %one, %m : f32\n"
                "  %y = tile.splat %inv : f32 -> tensor<4xf32>\n"),
      {-0.0f, 0.0f, -0.0f, -0.0f});
  EXPECT_EQ(reduced[0], inf);
}

/// A loop whose induction variable would wrap around is an error: the
/// compiled loop's increment wraps and goes on below the bound.
TEST(Semantics, LoopCounterOverflowIsAnError) {
  std::string error;
  runMap<int32_t, int32_t>(
      mapKernel("i32", "i32", 4,
                "  %lb = arith.constant 2147483632 : i32\n"
                "  %ub = arith.constant 2147483647 : i32\n"
                "  %st = arith.constant 8 : i32\n"
                "  %y = scf.for %i = %lb to %ub step %st iter_args(%a = %x) -> (tensor<4xi32>) : i32 {\n"
                "    scf.yield %a : tensor<4xi32>\n"
                "  }\n"),
      {1, 2, 3, 4}, &error);
  EXPECT_NE(error.find("the induction variable of scf.for overflows "
                       "(2147483640 + 8 wraps around) in program (0, 0, 0)"),
            std::string::npos)
      << error;
}

TEST(Semantics, DivisionByZeroIsAnError) {
  std::string error;
  runMap<int32_t, int32_t>(
      mapKernel("i32", "i32", 4,
                "  %c = arith.constant dense<[1, 2, 0, 4]> : tensor<4xi32>\n"
                "  %y = arith.divsi %x, %c : tensor<4xi32>\n"),
      {1, 2, 3, 4}, &error);
  EXPECT_EQ(error.rfind("test.mlir:7:8: ", 0), 0u) << error;
  EXPECT_NE(error.find("integer division by zero in program (0, 0, 0) at "
                       "element 2 of the tile (index [2])"),
            std::string::npos)
      << error;
}

TEST(Semantics, SignedDivisionOverflowIsAnError) {
  std::string error;
  runMap<int32_t, int32_t>(
      mapKernel("i32", "i32", 2,
                "  %c = arith.constant dense<-1> : tensor<2xi32>\n"
                "  %y = arith.remsi %x, %c : tensor<2xi32>\n"),
      {5, std::numeric_limits<int32_t>::min()}, &error);
  EXPECT_NE(error.find("signed division overflow (-2147483648 / -1)"),
            std::string::npos)
      << error;
}

TEST(Semantics, FloatToIntCastsSaturateLikePTX) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> in = {3e9f, -3e9f, nan, -1.5f, 2.5f, 1e30f, -0.5f, 7.99f};
  auto rtz = runMap<float, int32_t>(
      mapKernel("f32", "i32", 8, "  %y = tile.cast %x : tensor<8xf32> to tensor<8xi32>\n"), in);
  EXPECT_EQ(rtz, (std::vector<int32_t>{INT32_MAX, INT32_MIN, 0, -1, 2, INT32_MAX, 0, 7}));
  auto rne = runMap<float, int32_t>(
      mapKernel("f32", "i32", 8,
                "  %y = tile.cast %x rounding = rne : tensor<8xf32> to tensor<8xi32>\n"),
      in);
  EXPECT_EQ(rne, (std::vector<int32_t>{INT32_MAX, INT32_MIN, 0, -2, 2, INT32_MAX, 0, 8}));
  auto i8 = runMap<float, int8_t>(
      mapKernel("f32", "i8", 8, "  %y = tile.cast %x : tensor<8xf32> to tensor<8xi8>\n"), in);
  EXPECT_EQ(i8, (std::vector<int8_t>{127, -128, 0, -1, 2, 127, 0, 7}));
}

TEST(Semantics, MovesKeepEveryBitOfNaNs) {
  // Signaling and quiet NaNs with payloads, bitcast from integers and moved
  // (select, store): the GPU keeps their bits, so must the interpreter (a
  // float-to-double conversion sets the quiet bit). Found by the
  // differential test (scripts/gen-tile-kernel.py, seed 1088).
  std::vector<uint32_t> f32 = {0x7f800001u, 0xff8b1425u, 0x7fc00123u, 0x3f800000u};
  EXPECT_EQ((runMap<uint32_t, uint32_t>(
                mapKernel("i32", "f32", 4,
                          "  %f = tile.bitcast %x : tensor<4xi32> to tensor<4xf32>\n"
                          "  %t = arith.constant dense<true> : tensor<4xi1>\n"
                          "  %y = arith.select %t, %f, %f : tensor<4xi1>, tensor<4xf32>\n"),
                f32)),
            f32);
  for (const char *type : {"f16", "bf16"}) {
    std::vector<uint16_t> bits = {0x7c01, 0xfd5a, 0x7e01, 0x3c00};
    if (std::string(type) == "bf16")
      bits = {0x7f81, 0xffa5, 0x7fc1, 0x3f80};
    std::string n = std::to_string(bits.size());
    EXPECT_EQ((runMap<uint16_t, uint16_t>(
                  mapKernel("i16", type, bits.size(),
                            "  %y = tile.bitcast %x : tensor<" + n + "xi16> to tensor<" + n +
                                "x" + type + ">\n"),
                  bits)),
              bits)
        << type;
  }
}

TEST(Semantics, HalfPrecisionRoundsEveryOpToNearestEven) {
  // 1 + 2^-11 is halfway between 1 and the next f16 (1 + 2^-10): ties to
  // even give 1. 1 + 3 * 2^-11 rounds up to 1 + 2^-9.
  std::vector<uint16_t> in = {toHalf(1.0f), toHalf(1.0f)};
  auto out = runMap<uint16_t, uint16_t>(
      mapKernel("f16", "f16", 2,
                "  %c = arith.constant dense<[4.8828125e-04, 1.46484375e-03]> : tensor<2xf16>\n"
                "  %y = arith.addf %x, %c : tensor<2xf16>\n"),
      in);
  EXPECT_EQ(fromHalf(out[0]), 1.0f);
  EXPECT_EQ(fromHalf(out[1]), 1.0f + std::ldexp(1.0f, -9));
}

TEST(Semantics, CastRoundingModesToHalf) {
  float x = 1.0f + std::ldexp(1.0f, -12); // between two halves, nearer 1
  std::vector<float> in = {x, -x};
  auto up = runMap<float, uint16_t>(
      mapKernel("f32", "f16", 2,
                "  %y = tile.cast %x rounding = rup : tensor<2xf32> to tensor<2xf16>\n"),
      in);
  EXPECT_EQ(fromHalf(up[0]), 1.0f + std::ldexp(1.0f, -10));
  EXPECT_EQ(fromHalf(up[1]), -1.0f);
  auto nearest = runMap<float, uint16_t>(
      mapKernel("f32", "f16", 2, "  %y = tile.cast %x : tensor<2xf32> to tensor<2xf16>\n"), in);
  EXPECT_EQ(fromHalf(nearest[0]), 1.0f);
}

TEST(Semantics, F32OpsComputeInFloat) {
  // In double, 1 + 2^-30 - 1 would be 2^-30; in float it is 0.
  auto out = runMap<float, float>(
      mapKernel("f32", "f32", 1,
                "  %c = arith.constant dense<9.31322574615478515625e-10> : tensor<1xf32>\n"
                "  %s = arith.addf %x, %c : tensor<1xf32>\n"
                "  %y = arith.subf %s, %x : tensor<1xf32>\n"),
      {1.0f});
  EXPECT_EQ(out[0], 0.0f);
}

TEST(Semantics, ReductionsIgnoreNaNAndArgmaxTakesTheFirstIndex) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  auto out = runMap<float, float>(
      mapKernel("f32", "f32", 8,
                "  %m = tile.reduce max %x axis = 0 : tensor<8xf32> -> f32\n"
                "  %a = tile.reduce argmax %x axis = 0 : tensor<8xf32> -> i32\n"
                "  %n = tile.reduce argmin %x axis = 0 : tensor<8xf32> -> i32\n"
                "  %s = tile.reduce sum %x axis = 0 : tensor<8xf32> -> f32\n"
                "  %af = arith.sitofp %a : i32 to f32\n"
                "  %nf = arith.sitofp %n : i32 to f32\n"
                "  %z = arith.constant dense<0> : tensor<8xi32>\n"
                "  %e0 = arith.cmpi eq, %r, %z : tensor<8xi32>\n"
                "  %o = arith.constant dense<1> : tensor<8xi32>\n"
                "  %e1 = arith.cmpi eq, %r, %o : tensor<8xi32>\n"
                "  %t = arith.constant dense<2> : tensor<8xi32>\n"
                "  %e2 = arith.cmpi eq, %r, %t : tensor<8xi32>\n"
                "  %ms = tile.splat %m : f32 -> tensor<8xf32>\n"
                "  %as = tile.splat %af : f32 -> tensor<8xf32>\n"
                "  %ns = tile.splat %nf : f32 -> tensor<8xf32>\n"
                "  %ss = tile.splat %s : f32 -> tensor<8xf32>\n"
                "  %y2 = arith.select %e2, %ns, %ss : tensor<8xi1>, tensor<8xf32>\n"
                "  %y1 = arith.select %e1, %as, %y2 : tensor<8xi1>, tensor<8xf32>\n"
                "  %y = arith.select %e0, %ms, %y1 : tensor<8xi1>, tensor<8xf32>\n"),
      {1, nan, 5, -2, 5, 0, -2, 3});
  EXPECT_EQ(out[0], 5.0f); // max ignores NaN
  EXPECT_EQ(out[1], 2.0f); // first of the two 5s
  EXPECT_EQ(out[2], 3.0f); // first of the two -2s
  EXPECT_TRUE(std::isnan(out[3])); // sum propagates NaN
}

TEST(Semantics, TwoDimensionalShapesAndReductions) {
  // x is 4x8 row-major; y[i] = sum over rows of trans(x) broadcast ... checks
  // reshape (row-major), trans, expand_dims, broadcast and an axis-0 reduce.
  std::vector<float> in(32);
  for (int i = 0; i < 32; ++i)
    in[i] = static_cast<float>(i);
  auto out = runMap<float, float>(
      mapKernel("f32", "f32", 32,
                "  %m = tile.reshape %x : tensor<32xf32> -> tensor<4x8xf32>\n"
                "  %t = tile.trans %m : tensor<4x8xf32> -> tensor<8x4xf32>\n"
                "  %s = tile.reduce sum %t axis = 1 : tensor<8x4xf32> -> tensor<8xf32>\n"
                "  %e = tile.expand_dims %s axis = 0 : tensor<8xf32> -> tensor<1x8xf32>\n"
                "  %b = tile.broadcast %e : tensor<1x8xf32> -> tensor<4x8xf32>\n"
                "  %y = tile.reshape %b : tensor<4x8xf32> -> tensor<32xf32>\n"),
      in);
  // column c of the 4x8 matrix sums to 4c + 8(0+1+2+3) = 4c + 48
  for (int i = 0; i < 32; ++i)
    EXPECT_EQ(out[i], 4.0f * (i % 8) + 48.0f) << i;
}

TEST(Semantics, GenericReduceAndLoops) {
  auto out = runMap<int32_t, int32_t>(
      mapKernel("i32", "i32", 4,
                "  %p = tile.generic_reduce %x axis = 0 : tensor<4xi32> -> i32 {\n"
                "  ^bb0(%a: i32, %b: i32):\n"
                "    %c = arith.muli %a, %b : i32\n"
                "    tile.yield %c : i32\n"
                "  }\n"
                "  %lb = arith.constant 0 : index\n"
                "  %ub = arith.constant 3 : index\n"
                "  %st = arith.constant 1 : index\n"
                "  %acc = scf.for %i = %lb to %ub step %st iter_args(%v = %x) -> (tensor<4xi32>) {\n"
                "    %d = arith.addi %v, %v : tensor<4xi32>\n"
                "    scf.yield %d : tensor<4xi32>\n"
                "  }\n"
                "  %ps = tile.splat %p : i32 -> tensor<4xi32>\n"
                "  %y = arith.addi %acc, %ps : tensor<4xi32>\n"),
      {1, 2, 3, 4});
  EXPECT_EQ(out, (std::vector<int32_t>{8 + 24, 16 + 24, 24 + 24, 32 + 24}));
}

TEST(Semantics, WhileAndIf) {
  // Doubles each element until it exceeds 100, then negates odd results.
  auto out = runMap<int32_t, int32_t>(
      mapKernel("i32", "i32", 1,
                "  %v0 = tile.reduce sum %x axis = 0 : tensor<1xi32> -> i32\n"
                "  %lim = arith.constant 100 : i32\n"
                "  %r0 = scf.while (%v = %v0) : (i32) -> i32 {\n"
                "    %c = arith.cmpi sle, %v, %lim : i32\n"
                "    scf.condition(%c) %v : i32\n"
                "  } do {\n"
                "  ^bb0(%w: i32):\n"
                "    %d = arith.addi %w, %w : i32\n"
                "    scf.yield %d : i32\n"
                "  }\n"
                "  %two = arith.constant 2 : i32\n"
                "  %rem = arith.remsi %r0, %two : i32\n"
                "  %zero = arith.constant 0 : i32\n"
                "  %odd = arith.cmpi ne, %rem, %zero : i32\n"
                "  %r1 = scf.if %odd -> (i32) {\n"
                "    %n = arith.subi %zero, %r0 : i32\n"
                "    scf.yield %n : i32\n"
                "  } else {\n"
                "    scf.yield %r0 : i32\n"
                "  }\n"
                "  %y = tile.splat %r1 : i32 -> tensor<1xi32>\n"),
      {3});
  EXPECT_EQ(out, (std::vector<int32_t>{192}));
  auto odd = runMap<int32_t, int32_t>(
      mapKernel("i32", "i32", 1,
                "  %v0 = tile.reduce sum %x axis = 0 : tensor<1xi32> -> i32\n"
                "  %two = arith.constant 2 : i32\n"
                "  %rem = arith.remsi %v0, %two : i32\n"
                "  %zero = arith.constant 0 : i32\n"
                "  %odd = arith.cmpi ne, %rem, %zero : i32\n"
                "  %r1 = scf.if %odd -> (i32) {\n"
                "    %n = arith.subi %zero, %v0 : i32\n"
                "    scf.yield %n : i32\n"
                "  } else {\n"
                "    scf.yield %v0 : i32\n"
                "  }\n"
                "  %y = tile.splat %r1 : i32 -> tensor<1xi32>\n"),
      {101});
  EXPECT_EQ(odd, (std::vector<int32_t>{-101}));
}

TEST(Semantics, MaskedLoadsGiveOtherAndTouchNothing) {
  // Elements 4..7 are masked off and lie past the end of the 4-element
  // buffer: no access may happen, and the result is `other`.
  std::string source = R"(
func.func @k(%in: !tile.ptr<f32>, %out: !tile.ptr<f32>) {
  %r = tile.make_range 0 to 8 : tensor<8xi32>
  %four = arith.constant dense<4> : tensor<8xi32>
  %m = arith.cmpi slt, %r, %four : tensor<8xi32>
  %ib = tile.splat %in : !tile.ptr<f32> -> tensor<8x!tile.ptr<f32>>
  %ip = tile.addptr %ib, %r : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  %o = arith.constant dense<-7.0> : tensor<8xf32>
  %x = tile.load %ip mask %m other %o : tensor<8x!tile.ptr<f32>>
  %x2 = tile.load %ip mask %m : tensor<8x!tile.ptr<f32>>
  %y = arith.addf %x, %x2 : tensor<8xf32>
  %ob = tile.splat %out : !tile.ptr<f32> -> tensor<8x!tile.ptr<f32>>
  %op = tile.addptr %ob, %r : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %y, %op : tensor<8x!tile.ptr<f32>>
  return
})";
  Loaded loaded = load(source);
  ASSERT_TRUE(loaded.kernel);
  std::vector<float> in = {1, 2, 3, 4}, out(8, 0);
  Interpreter interp;
  ASSERT_FALSE(interp.addBuffer(in.data(), 16, "in"));
  ASSERT_FALSE(interp.addBuffer(out.data(), 32, "out"));
  KernelArgs args;
  args.addPointer(in.data());
  args.addPointer(out.data());
  auto error = interp.run(loaded.kernel, {1, 1, 1}, args.pointers());
  ASSERT_FALSE(error) << *error;
  EXPECT_EQ(out[0], 2.0f);
  EXPECT_EQ(out[3], 8.0f);
  EXPECT_TRUE(std::isnan(out[5])); // -7 + poison (NaN)
}

TEST(Semantics, AtomicsReturnOldValuesAcrossPrograms) {
  std::string source = R"(
func.func @k(%counter: !tile.ptr<i32>, %old: !tile.ptr<i32>) {
  %pid = tile.program_id x
  %one = arith.constant 1 : i32
  %prev = tile.atomic_rmw add %counter, %one : !tile.ptr<i32>
  %slot = tile.addptr %old, %pid : !tile.ptr<i32>, i32
  tile.store %prev, %slot : !tile.ptr<i32>
  return
})";
  Loaded loaded = load(source);
  ASSERT_TRUE(loaded.kernel);
  int32_t counter = 10;
  std::vector<int32_t> old(4, 0);
  Interpreter interp;
  ASSERT_FALSE(interp.addBuffer(&counter, 4, "counter"));
  ASSERT_FALSE(interp.addBuffer(old.data(), 16, "old"));
  KernelArgs args;
  args.addPointer(&counter);
  args.addPointer(old.data());
  auto error = interp.run(loaded.kernel, {4, 1, 1}, args.pointers());
  ASSERT_FALSE(error) << *error;
  EXPECT_EQ(counter, 14);
  EXPECT_EQ(old, (std::vector<int32_t>{10, 11, 12, 13}));
}

/// Masked-off elements of an atomic touch nothing and return 0 (as the GPU
/// lowering's predicated atom leaves its zeroed result register).
TEST(Semantics, MaskedOffAtomicsReturnZero) {
  std::string source = R"(
func.func @k(%x: !tile.ptr<f32>, %old: !tile.ptr<f32>) {
  %r = tile.make_range 0 to 4 : tensor<4xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  %two = arith.constant dense<2> : tensor<4xi32>
  %m = arith.cmpi slt, %r, %two : tensor<4xi32>
  %v = arith.constant dense<1.0> : tensor<4xf32>
  %prev = tile.atomic_rmw add %xp, %v mask %m : tensor<4x!tile.ptr<f32>>
  %ob = tile.splat %old : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>>
  %op = tile.addptr %ob, %r : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  tile.store %prev, %op : tensor<4x!tile.ptr<f32>>
  %f = arith.constant false
  %c8 = arith.constant 8.0 : f32
  %s = tile.atomic_rmw max %x, %c8 mask %f : !tile.ptr<f32>
  %c4 = arith.constant 4 : i32
  %last = tile.addptr %old, %c4 : !tile.ptr<f32>, i32
  tile.store %s, %last : !tile.ptr<f32>
  return
})";
  Loaded loaded = load(source);
  ASSERT_TRUE(loaded.kernel);
  std::vector<float> x{5, 6, 7, 8}, old(5, -1);
  Interpreter interp;
  ASSERT_FALSE(interp.addBuffer(x.data(), 16, "x"));
  ASSERT_FALSE(interp.addBuffer(old.data(), 20, "old"));
  KernelArgs args;
  args.addPointer(x.data());
  args.addPointer(old.data());
  auto error = interp.run(loaded.kernel, {1, 1, 1}, args.pointers());
  ASSERT_FALSE(error) << *error;
  EXPECT_EQ(x, (std::vector<float>{6, 7, 7, 8}));
  EXPECT_EQ(old, (std::vector<float>{5, 6, 0, 0, 0}));
}

/// f32 atomics as the GPU does them: max/min order the bits as integers
/// (signed where the new value's sign is clear, unsigned reversed where it
/// is set), so a NaN wins a max from its side of zero; an add flushes
/// subnormal inputs and results to (signed) zero.
TEST(Semantics, FloatAtomicsFollowTheGPUInstructions) {
  // %x[i] = atomic op(%x[i], %v[i]), for the op `KIND`.
  std::string source = R"(
func.func @k(%x: !tile.ptr<f32>, %v: !tile.ptr<f32>) {
  %r = tile.make_range 0 to 8 : tensor<8xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<8x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  %vb = tile.splat %v : !tile.ptr<f32> -> tensor<8x!tile.ptr<f32>>
  %vp = tile.addptr %vb, %r : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  %vals = tile.load %vp : tensor<8x!tile.ptr<f32>>
  %old = tile.atomic_rmw KIND %xp, %vals : tensor<8x!tile.ptr<f32>>
  return
})";
  auto run = [&](const std::string &kind, std::vector<float> x,
                 std::vector<float> v) {
    std::string text = source;
    text.replace(text.find("KIND"), 4, kind);
    Loaded loaded = load(text);
    EXPECT_TRUE(loaded.kernel);
    Interpreter interp;
    EXPECT_FALSE(interp.addBuffer(x.data(), 32, "x"));
    EXPECT_FALSE(interp.addBuffer(v.data(), 32, "v"));
    KernelArgs args;
    args.addPointer(x.data());
    args.addPointer(v.data());
    auto error = interp.run(loaded.kernel, {1, 1, 1}, args.pointers());
    EXPECT_FALSE(error) << *error;
    return x;
  };
  float nan = std::numeric_limits<float>::quiet_NaN();
  float denorm = std::numeric_limits<float>::denorm_min();
  // max: +NaN beats 1; -2 loses to -1; 5 loses to the +NaN in memory; -NaN
  // loses to 1; +0 beats -0; -0 loses to +0; -1 beats -2; 2 loses to 3.
  auto x = run("max", {1, -1, nan, 1, -0.0f, 0.0f, -2, 3},
               {nan, -2, 5, -nan, 0.0f, -0.0f, -1, 2});
  EXPECT_TRUE(std::isnan(x[0]));
  EXPECT_EQ(x[1], -1);
  EXPECT_TRUE(std::isnan(x[2]));
  EXPECT_EQ(x[3], 1);
  EXPECT_FALSE(std::signbit(x[4]));
  EXPECT_FALSE(std::signbit(x[5]));
  EXPECT_EQ(x[6], -1);
  EXPECT_EQ(x[7], 3);
  // min: -NaN beats -1 (its bits, unsigned, are the larger); +NaN loses.
  x = run("min", {-1, 1, 0, 0, 0, 0, 0, 0}, {-nan, nan, 0, 0, 0, 0, 0, 0});
  EXPECT_TRUE(std::isnan(x[0]));
  EXPECT_EQ(x[1], 1);
  // add: subnormal inputs and results are flushed to zero, sign kept.
  x = run("add", {1, denorm, -1.5e-38f, 2, 0, 0, 0, 0},
          {denorm, 1, 1.4e-38f, nan, 0, 0, 0, 0});
  EXPECT_EQ(x[0], 1);
  EXPECT_EQ(x[1], 1);
  EXPECT_EQ(x[2], 0); // -1e-39 is subnormal
  EXPECT_TRUE(std::signbit(x[2]));
  EXPECT_TRUE(std::isnan(x[3]));
}

/// The double-width products and carries that Philox-style generators need,
/// at 64 bits too.
TEST(Semantics, ExtendedArithmetic) {
  auto out = runMap<int64_t, int64_t>(
      mapKernel("i64", "i64", 4,
                "  %c = arith.constant dense<[-1, 3, -9223372036854775808, 7]> : tensor<4xi64>\n"
                "  %lo, %hi = arith.mului_extended %x, %c : tensor<4xi64>\n"
                "  %slo, %shi = arith.mulsi_extended %x, %c : tensor<4xi64>\n"
                "  %s, %o = arith.addui_extended %hi, %shi : tensor<4xi64>, tensor<4xi1>\n"
                "  %oe = arith.extui %o : tensor<4xi1> to tensor<4xi64>\n"
                "  %y = arith.xori %s, %oe : tensor<4xi64>\n"),
      {-1, INT64_C(0x100000000), -1, INT64_C(0x7fffffffffffffff)});
  // u: (2^64-1)^2 >> 64 = 2^64-2; s: (-1)(-1) >> 64 = 0; sum 2^64-2, no carry.
  // 2^32 * 3: both highs 0.
  // u: (2^64-1) * 2^63 >> 64 = 2^63 - 1; s: (-1)(-2^63) = 2^63 >> 64 = 0.
  // u: (2^63-1) * 7 >> 64 = 3; s: 3; 6, no carry.
  EXPECT_EQ(out, (std::vector<int64_t>{-2, 0, INT64_C(0x7fffffffffffffff), 6}));
  auto bits = runMap<int8_t, int8_t>(
      mapKernel("i8", "i8", 4,
                "  %l = math.ctlz %x : tensor<4xi8>\n"
                "  %t = math.cttz %x : tensor<4xi8>\n"
                "  %p = math.ctpop %x : tensor<4xi8>\n"
                "  %c16 = arith.constant dense<16> : tensor<4xi8>\n"
                "  %l16 = arith.muli %l, %c16 : tensor<4xi8>\n"
                "  %lt = arith.addi %l16, %t : tensor<4xi8>\n"
                "  %c4 = arith.constant dense<4> : tensor<4xi8>\n"
                "  %y = arith.xori %lt, %p : tensor<4xi8>\n"),
      {1, -128, 0, 12});
  // (ctlz * 16 + cttz) ^ ctpop, at 8 bits: 1 -> (7, 0, 1); -128 -> (0, 7, 1);
  // 0 -> (8, 8, 0); 12 -> (4, 2, 2).
  EXPECT_EQ(bits, (std::vector<int8_t>{int8_t(7 * 16 ^ 1), int8_t(7 ^ 1),
                                       int8_t(8 * 16 + 8), int8_t((4 * 16 + 2) ^ 2)}));
}

/// Blocks of a kernel run as the branches say, their arguments bound all at
/// once (here a block that passes its own arguments back swapped).
TEST(Semantics, BranchesBetweenBlocks) {
  auto out = runMap<float, float>(
      mapKernel("f32", "f32", 4,
                "  %c0 = arith.constant 0 : i32\n"
                "  %c1 = arith.constant 1 : i32\n"
                "  %c3 = arith.constant 3 : i32\n"
                "  %one = arith.constant dense<1.0> : tensor<4xf32>\n"
                "  cf.br ^loop(%c0, %x, %one : i32, tensor<4xf32>, tensor<4xf32>)\n"
                "^loop(%i: i32, %a: tensor<4xf32>, %b: tensor<4xf32>):\n"
                "  %next = arith.addi %i, %c1 : i32\n"
                "  %more = arith.cmpi slt, %next, %c3 : i32\n"
                "  %a2 = arith.addf %a, %a : tensor<4xf32>\n"
                "  cf.cond_br %more, ^loop(%next, %b, %a2 : i32, tensor<4xf32>, tensor<4xf32>), ^exit\n"
                "^exit:\n"
                "  %y = arith.subf %a2, %b : tensor<4xf32>\n"),
      {1, 2, 3, 4});
  // (a, b): (x, 1) -> (1, 2x) -> (2x, 2) -> exit with a2 = 4x, b = 2.
  EXPECT_EQ(out, (std::vector<float>{2, 6, 10, 14}));
}

/// A kernel that never finishes is stopped by the watchdog, which names the
/// kernel, the program and the op it stopped at; the limit comes from the
/// options, else LLK_INTERP_MAX_STEPS.
TEST(Watchdog, EndlessLoopsAreStopped) {
  std::string source = R"(
func.func @spin(%out: !tile.ptr<i32>) {
  %pid = tile.program_id x
  %c1 = arith.constant 1 : i32
  %go = arith.cmpi eq, %pid, %c1 : i32
  %n = scf.while (%i = %pid) : (i32) -> i32 {
    scf.condition(%go) %i : i32
  } do {
  ^bb0(%i: i32):
    %next = arith.addi %i, %c1 : i32
    scf.yield %next : i32
  }
  tile.store %n, %out : !tile.ptr<i32>
  cf.br ^forever
^forever:
  cf.br ^forever
})";
  Loaded loaded = load(source);
  ASSERT_TRUE(loaded.kernel);
  int32_t out = 0;
  KernelArgs args;
  args.addPointer(&out);
  {
    Options options;
    options.maxSteps = 1000;
    Interpreter interp(options);
    ASSERT_FALSE(interp.addBuffer(&out, 4, "out"));
    // Program 0 skips the while loop and spins in ^forever.
    auto error = interp.run(loaded.kernel, {2, 1, 1}, args.pointers());
    ASSERT_TRUE(error);
    EXPECT_EQ(*error, "test.mlir:16:3: program (0, 0, 0) of kernel 'spin' is "
                      "still running after 1000 ops, the interpreter's limit: "
                      "does a loop never end? (the limit is Options::maxSteps, "
                      "or LLK_INTERP_MAX_STEPS; 0 lifts it)");
  }
  {
    ::setenv("LLK_INTERP_MAX_STEPS", "500", 1);
    Interpreter interp;
    ASSERT_FALSE(interp.addBuffer(&out, 4, "out"));
    auto error = interp.run(loaded.kernel, {1, 1, 1}, args.pointers());
    ASSERT_TRUE(error);
    EXPECT_NE(error->find("still running after 500 ops"), std::string::npos)
        << *error;
    ::setenv("LLK_INTERP_MAX_STEPS", "many", 1);
    error = interp.run(loaded.kernel, {1, 1, 1}, args.pointers());
    ASSERT_TRUE(error);
    EXPECT_EQ(*error, "LLK_INTERP_MAX_STEPS must be a number of ops (0: no "
                      "limit), got 'many'");
    ::unsetenv("LLK_INTERP_MAX_STEPS");
  }
}

/// The limit counts ops per program: a finite loop under it runs, and 0
/// turns the watchdog off.
TEST(Watchdog, FiniteLoopsRun) {
  auto source = mapKernel("f32", "f32", 4,
                          "  %c0 = arith.constant 0 : i32\n"
                          "  %c1 = arith.constant 1 : i32\n"
                          "  %n = arith.constant 1000 : i32\n"
                          "  %y = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (tensor<4xf32>) : i32 {\n"
                          "    %b = arith.addf %a, %x : tensor<4xf32>\n"
                          "    scf.yield %b : tensor<4xf32>\n"
                          "  }\n");
  Loaded loaded = load(source);
  ASSERT_TRUE(loaded.kernel);
  std::vector<float> in{1, 2, 3, 4}, out(4);
  KernelArgs args;
  args.addPointer(in.data());
  args.addPointer(out.data());
  for (uint64_t limit : {uint64_t(0), uint64_t(2100), uint64_t(2000)}) {
    Options options;
    options.maxSteps = limit;
    Interpreter interp(options);
    ASSERT_FALSE(interp.addBuffer(in.data(), 16, "in"));
    ASSERT_FALSE(interp.addBuffer(out.data(), 16, "out"));
    auto error = interp.run(loaded.kernel, {3, 1, 1}, args.pointers());
    // 1000 iterations of 2 ops, plus 16 around the loop.
    EXPECT_EQ(bool(error), limit == 2000) << limit << ": " << error.value_or("");
  }
  EXPECT_EQ(out, (std::vector<float>{1001, 2002, 3003, 4004}));
}

TEST(Semantics, DotAccumulatesHalfProductsInFloat) {
  std::string source = R"(
func.func @k(%a: !tile.ptr<f16>, %out: !tile.ptr<f32>) {
  %r = tile.make_range 0 to 256 : tensor<256xi32>
  %ab = tile.splat %a : !tile.ptr<f16> -> tensor<256x!tile.ptr<f16>>
  %ap = tile.addptr %ab, %r : tensor<256x!tile.ptr<f16>>, tensor<256xi32>
  %av = tile.load %ap : tensor<256x!tile.ptr<f16>>
  %m = tile.reshape %av : tensor<256xf16> -> tensor<16x16xf16>
  %acc = arith.constant dense<1.0> : tensor<16x16xf32>
  %d = tile.dot %m, %m, %acc : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
  %y = tile.reshape %d : tensor<16x16xf32> -> tensor<256xf32>
  %ob = tile.splat %out : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %op = tile.addptr %ob, %r : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  tile.store %y, %op : tensor<256x!tile.ptr<f32>>
  return
})";
  Loaded loaded = load(source);
  ASSERT_TRUE(loaded.kernel);
  std::vector<uint16_t> a(256);
  std::vector<float> av(256), out(256);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> dist(-2, 2);
  for (int i = 0; i < 256; ++i) {
    a[i] = toHalf(dist(rng));
    av[i] = fromHalf(a[i]);
  }
  Interpreter interp;
  ASSERT_FALSE(interp.addBuffer(a.data(), 512, "a"));
  ASSERT_FALSE(interp.addBuffer(out.data(), 1024, "out"));
  KernelArgs args;
  args.addPointer(a.data());
  args.addPointer(out.data());
  auto error = interp.run(loaded.kernel, {1, 1, 1}, args.pointers());
  ASSERT_FALSE(error) << *error;
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      float sum = 1.0f;
      for (int k = 0; k < 16; ++k)
        sum = std::fma(av[i * 16 + k], av[k * 16 + j], sum);
      EXPECT_EQ(out[i * 16 + j], sum);
    }
}

//===----------------------------------------------------------------------===//
// Memory checking
//===----------------------------------------------------------------------===//

// A vector add without a mask: at n = 1000 and BLOCK = 128 the last program
// (7) reads elements 1000..1023.
const char *kUnmaskedAdd = R"(func.func @add_kernel(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>,
                      %out: !tile.ptr<f32>, %n: i32) {
  %pid = tile.program_id x
  %block = arith.constant 128 : i32
  %start = arith.muli %pid, %block : i32
  %range = tile.make_range 0 to 128 : tensor<128xi32>
  %starts = tile.splat %start : i32 -> tensor<128xi32>
  %offsets = arith.addi %starts, %range : tensor<128xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %offsets : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %xv = tile.load %xp : tensor<128x!tile.ptr<f32>>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %offsets : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %yv = tile.load %yp : tensor<128x!tile.ptr<f32>>
  %sum = arith.addf %xv, %yv : tensor<128xf32>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %op = tile.addptr %os, %offsets : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  tile.store %sum, %op : tensor<128x!tile.ptr<f32>>
  return
}
)";

TEST(MemoryCheck, OutOfBoundsLoadNamesProgramLocationAndElement) {
  Loaded loaded = load(kUnmaskedAdd);
  ASSERT_TRUE(loaded.kernel);
  // One allocation, so that the addresses past x are still ours to compute.
  std::vector<float> memory(3000 + 64, 1.0f);
  float *x = memory.data(), *y = x + 1000 + 32, *out = y + 1000 + 32;
  Interpreter interp;
  ASSERT_FALSE(interp.addBuffer(x, 4000, "x"));
  ASSERT_FALSE(interp.addBuffer(y, 4000, "y"));
  ASSERT_FALSE(interp.addBuffer(out, 4000, "out"));
  KernelArgs args;
  args.addPointer(x);
  args.addPointer(y);
  args.addPointer(out);
  args.add<int32_t>(1000);
  auto error = interp.run(loaded.kernel, {8, 1, 1}, args.pointers());
  ASSERT_TRUE(error);
  char address[32];
  std::snprintf(address, sizeof address, "%#llx",
                static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(x + 1000)));
  EXPECT_EQ(*error, std::string("test.mlir:11:9: out-of-bounds load in program "
                                "(7, 0, 0): element 104 of the tile (index "
                                "[104]) reads address ") +
                        address +
                        " which is 0 bytes past the end of buffer 'x' (4000 bytes)");
}

TEST(MemoryCheck, OutOfBoundsStoreAndScalarAccess) {
  std::string source = R"(
func.func @k(%p: !tile.ptr<i32>, %i: i32) {
  %q = tile.addptr %p, %i : !tile.ptr<i32>, i32
  %v = arith.constant 5 : i32
  tile.store %v, %q : !tile.ptr<i32>
  return
})";
  Loaded loaded = load(source);
  ASSERT_TRUE(loaded.kernel);
  int32_t data[4] = {};
  Interpreter interp;
  ASSERT_FALSE(interp.addBuffer(data, sizeof data, "data"));
  KernelArgs args;
  args.addPointer(data);
  args.add<int32_t>(-2);
  auto error = interp.run(loaded.kernel, {1, 2, 1}, args.pointers());
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("test.mlir:5:3: out-of-bounds store in program (0, 0, 0): "
                        "the scalar store writes address "),
            std::string::npos)
      << *error;
  EXPECT_NE(error->find("which is 8 bytes before the start of buffer 'data' (16 bytes)"),
            std::string::npos)
      << *error;
}

TEST(MemoryCheck, UninitializedReadsAreReported) {
  std::string source = R"(
func.func @k(%in: !tile.ptr<f32>, %out: !tile.ptr<f32>) {
  %r = tile.make_range 0 to 4 : tensor<4xi32>
  %ob = tile.splat %out : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>>
  %op = tile.addptr %ob, %r : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  %two = arith.constant dense<2> : tensor<4xi32>
  %m = arith.cmpi slt, %r, %two : tensor<4xi32>
  %one = arith.constant dense<1.0> : tensor<4xf32>
  tile.store %one, %op mask %m : tensor<4x!tile.ptr<f32>>
  %x = tile.load %op : tensor<4x!tile.ptr<f32>>
  return
})";
  Loaded loaded = load(source);
  ASSERT_TRUE(loaded.kernel);
  float in[4] = {}, out[4];
  Options options;
  options.checkUninitialized = true;
  Interpreter interp(options);
  ASSERT_FALSE(interp.addBuffer(in, sizeof in, "in"));
  ASSERT_FALSE(interp.addBuffer(out, sizeof out, "out", /*initialized=*/false));
  KernelArgs args;
  args.addPointer(in);
  args.addPointer(out);
  auto error = interp.run(loaded.kernel, {1, 1, 1}, args.pointers());
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("test.mlir:10:8: uninitialized load in program (0, 0, 0): "
                        "element 2 of the tile (index [2]) reads address "),
            std::string::npos)
      << *error;
  EXPECT_NE(error->find("(byte 8 of buffer 'out', 16 bytes), which nothing has written"),
            std::string::npos)
      << *error;
}

//===----------------------------------------------------------------------===//
// Launch errors
//===----------------------------------------------------------------------===//

TEST(Semantics, DescriptorLoadsZeroFillPastTheTensor) {
  // A 3x5 tensor (rows 8 elements apart) read in a 4x4 block at (1, 2):
  // rows 1..2 and columns 2..4 exist, the rest is zero, as TMA fills it;
  // nothing past the tensor is read (the buffer ends with it).
  std::string source = R"(
func.func @k(%d: !tile.tensordesc<4x4xf16>, %out: !tile.ptr<f16>) {
  %r = arith.constant 1 : i32
  %c = arith.constant 2 : i32
  %x = tile.descriptor_load %d[%r, %c] : !tile.tensordesc<4x4xf16> -> tensor<4x4xf16>
  %rows = tile.make_range 0 to 4 : tensor<4xi32>
  %re = tile.expand_dims %rows axis = 1 : tensor<4xi32> -> tensor<4x1xi32>
  %four = arith.constant dense<4> : tensor<4x1xi32>
  %ro = arith.muli %re, %four : tensor<4x1xi32>
  %rb = tile.broadcast %ro : tensor<4x1xi32> -> tensor<4x4xi32>
  %ce = tile.expand_dims %rows axis = 0 : tensor<4xi32> -> tensor<1x4xi32>
  %cb = tile.broadcast %ce : tensor<1x4xi32> -> tensor<4x4xi32>
  %off = arith.addi %rb, %cb : tensor<4x4xi32>
  %ob = tile.splat %out : !tile.ptr<f16> -> tensor<4x4x!tile.ptr<f16>>
  %op = tile.addptr %ob, %off : tensor<4x4x!tile.ptr<f16>>, tensor<4x4xi32>
  tile.store %x, %op : tensor<4x4x!tile.ptr<f16>>
  return
})";
  Loaded loaded = load(source);
  ASSERT_TRUE(loaded.kernel);
  std::vector<uint16_t> tensor(2 * 8 + 5), out(16);
  for (size_t i = 0; i < tensor.size(); ++i)
    encodeElement(ElemType::F16, double(i), &tensor[i]);
  Interpreter interp;
  ASSERT_FALSE(interp.addBuffer(tensor.data(), tensor.size() * 2, "t"));
  ASSERT_FALSE(interp.addBuffer(out.data(), 32, "out"));
  TensorDescriptor desc{tensor.data(), 3, 5, 8};
  KernelArgs args;
  args.addPointer(&desc);
  args.addPointer(out.data());
  auto error = interp.run(loaded.kernel, {1, 1, 1}, args.pointers());
  ASSERT_FALSE(error) << *error;
  std::vector<double> got;
  for (uint16_t bits : out)
    got.push_back(decodeElement(ElemType::F16, &bits));
  EXPECT_EQ(got, (std::vector<double>{10, 11, 12, 0, 18, 19, 20, 0, 0, 0, 0, 0,
                                      0, 0, 0, 0}));

  // A descriptor whose rows overlap (stride below the width) is refused.
  TensorDescriptor bad{tensor.data(), 3, 5, 4};
  KernelArgs badArgs;
  badArgs.addPointer(&bad);
  badArgs.addPointer(out.data());
  error = interp.run(loaded.kernel, {1, 1, 1}, badArgs.pointers());
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("must point at a tensor descriptor"), std::string::npos)
      << *error;
}

TEST(Launch, BadArgumentsAndGridsAreErrors) {
  Loaded loaded = load(kUnmaskedAdd);
  ASSERT_TRUE(loaded.kernel);
  Interpreter interp;
  KernelArgs args;
  args.add<int32_t>(1);
  auto error = interp.run(loaded.kernel, {1, 1, 1}, args.pointers());
  ASSERT_TRUE(error);
  EXPECT_EQ(*error, "kernel 'add_kernel' takes 4 arguments, but 1 were given");

  KernelArgs four;
  for (int i = 0; i < 3; ++i)
    four.addPointer(nullptr);
  four.add<int32_t>(0);
  error = interp.run(loaded.kernel, {0, 1, 1}, four.pointers());
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("is empty"), std::string::npos) << *error;
}

TEST(Launch, DivisibilityHintsAreChecked) {
  std::string source = R"(
func.func @k(%p: !tile.ptr<f32> {tile.divisibility = 16}, %n: i32 {tile.divisibility = 16}) {
  return
})";
  Loaded loaded = load(source);
  ASSERT_TRUE(loaded.kernel);
  alignas(64) float data[16];
  Interpreter interp;
  KernelArgs args;
  args.addPointer(data);
  args.add<int32_t>(100);
  auto error = interp.run(loaded.kernel, {1, 1, 1}, args.pointers());
  ASSERT_TRUE(error);
  EXPECT_EQ(*error, "argument 1 of kernel 'k' is 100, but its tile.divisibility "
                    "promises a multiple of 16");
}

TEST(Launch, OverlappingBuffersAreRejected) {
  float data[8];
  Interpreter interp;
  ASSERT_FALSE(interp.addBuffer(data, 16, "a"));
  auto error = interp.addBuffer(data + 2, 16, "b");
  ASSERT_TRUE(error);
  EXPECT_EQ(*error, "buffer 'b' overlaps buffer 'a'");
  EXPECT_TRUE(interp.addBuffer(data + 4, 0, "c"));
}

TEST(Launch, ParseErrorsComeBackAsText) {
  std::string error;
  auto module = parseKernelSource(context(), "func.func @k(%n: i32) { ${X} }",
                                  "bad.mlir", {}, error);
  EXPECT_FALSE(module);
  EXPECT_NE(error.find("bad.mlir:1:25: error: constant 'X' is not bound"),
            std::string::npos)
      << error;
}

} // namespace

//===----------------------------------------------------------------------===//
// fp8 (e4m3fn, e5m2)
//===----------------------------------------------------------------------===//

namespace {

/// An fp8 format, and a reference for its conversions written from its
/// definition (not from APFloat, which the interpreter uses).
struct Fp8Ref {
  const char *name;
  int mantissaBits, bias;
  bool hasInfinity; // e5m2; e4m3fn's only non-finite values are NaNs

  bool isNaN(uint8_t code) const {
    int magnitude = code & 0x7f;
    return hasInfinity ? magnitude > 0x7c : magnitude == 0x7f;
  }
  bool isInf(uint8_t code) const { return hasInfinity && (code & 0x7f) == 0x7c; }
  /// The value of a code that is not a NaN.
  double value(uint8_t code) const {
    int exponent = (code & 0x7f) >> mantissaBits;
    int mantissa = code & ((1 << mantissaBits) - 1);
    double magnitude =
        isInf(code) ? INFINITY
        : exponent == 0
            ? std::ldexp(double(mantissa), 1 - bias - mantissaBits)
            : std::ldexp(1.0 + std::ldexp(double(mantissa), -mantissaBits), exponent - bias);
    return code & 0x80 ? -magnitude : magnitude;
  }
  uint8_t maxFinite() const { return hasInfinity ? 0x7b : 0x7e; }
  /// x to nearest even with saturation (cvt.rn.satfinite): the finite code
  /// nearest |x| clamped to the largest finite value, the even one of two.
  uint8_t fromDouble(double x) const {
    if (std::isnan(x))
      return 0x7f;
    double a = std::min(std::fabs(x), value(maxFinite()));
    uint8_t best = 0;
    for (int code = 1; code <= maxFinite(); ++code) {
      double d = std::fabs(value(code) - a), bestD = std::fabs(value(best) - a);
      if (d < bestD || (d == bestD && code % 2 == 0))
        best = uint8_t(code);
    }
    return uint8_t(best | (std::signbit(x) ? 0x80 : 0));
  }
};

const Fp8Ref kFp8Formats[] = {{"f8E4M3FN", 3, 7, false}, {"f8E5M2", 2, 15, true}};

uint32_t bitsOf(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, 4);
  return bits;
}
float floatOf(uint32_t bits) {
  float x;
  std::memcpy(&x, &bits, 4);
  return x;
}

std::string castBody(const std::string &from, const std::string &to, size_t n) {
  std::string N = std::to_string(n);
  return "  %y = tile.cast %x : tensor<" + N + "x" + from + "> to tensor<" + N + "x" + to +
         ">\n";
}

} // namespace

TEST(Fp8, EveryEncodingWidensExactlyAndNarrowsBack) {
  for (const Fp8Ref &fmt : kFp8Formats) {
    std::vector<uint8_t> codes(256);
    for (int i = 0; i < 256; ++i)
      codes[i] = uint8_t(i);
    auto f32 = runMap<uint8_t, float>(mapKernel(fmt.name, "f32", 256, castBody(fmt.name, "f32", 256)),
                                      codes);
    auto f16 = runMap<uint8_t, uint16_t>(
        mapKernel(fmt.name, "f16", 256, castBody(fmt.name, "f16", 256)), codes);
    auto bf16 = runMap<uint8_t, uint16_t>(
        mapKernel(fmt.name, "bf16", 256, castBody(fmt.name, "bf16", 256)), codes);
    for (int i = 0; i < 256; ++i) {
      if (fmt.isNaN(uint8_t(i))) {
        // Through f16's canonical NaN, whatever the sign.
        EXPECT_EQ(f16[i], 0x7fff) << fmt.name << " code " << i;
        EXPECT_TRUE(std::isnan(f32[i])) << fmt.name << " code " << i;
        EXPECT_EQ(bf16[i] & 0x7f80, 0x7f80) << fmt.name << " code " << i;
        continue;
      }
      EXPECT_EQ(bitsOf(f32[i]), bitsOf(float(fmt.value(uint8_t(i)))))
          << fmt.name << " code " << i;
      EXPECT_EQ(bitsOf(fromHalf(f16[i])), bitsOf(f32[i])) << fmt.name << " code " << i;
      EXPECT_EQ(bitsOf(floatOf(uint32_t(bf16[i]) << 16)), bitsOf(f32[i]))
          << fmt.name << " code " << i;
    }
    // Back: every code but the NaNs (which become 0x7f) and e5m2's
    // infinities (which saturate) is itself.
    for (const char *wide : {"f32", "f16", "bf16"}) {
      auto back = runMap<uint8_t, uint8_t>(
          mapKernel(fmt.name, fmt.name, 256,
                    "  %w = tile.cast %x : tensor<256x" + std::string(fmt.name) +
                        "> to tensor<256x" + wide + ">\n"
                        "  %y = tile.cast %w : tensor<256x" + wide + "> to tensor<256x" +
                        fmt.name + ">\n"),
          codes);
      for (int i = 0; i < 256; ++i) {
        uint8_t expected = fmt.isNaN(uint8_t(i))   ? 0x7f
                           : fmt.isInf(uint8_t(i)) ? uint8_t((i & 0x80) | fmt.maxFinite())
                                                   : uint8_t(i);
        EXPECT_EQ(back[i], expected) << fmt.name << " via " << wide << " code " << i;
      }
    }
  }
}

TEST(Fp8, NarrowingRoundsToNearestEvenAndSaturates) {
  for (const Fp8Ref &fmt : kFp8Formats) {
    std::vector<float> in;
    // Every value, the midpoints to the next (ties), and one f32 ulp either
    // side of each; both signs.
    for (int code = 0; code <= fmt.maxFinite(); ++code) {
      float v = float(fmt.value(uint8_t(code)));
      float next = code < fmt.maxFinite() ? float(fmt.value(uint8_t(code + 1)))
                                          : v + (v - float(fmt.value(uint8_t(code - 1))));
      float mid = (v + next) / 2; // exact: a few bits more than fp8's
      for (float x : {v, mid, std::nextafter(mid, 0.0f), std::nextafter(mid, INFINITY)}) {
        in.push_back(x);
        in.push_back(-x);
      }
    }
    // Overflow, infinities, NaNs, zeros, f32 subnormals, below half the
    // smallest subnormal.
    float tiny = float(fmt.value(1));
    for (float x : {1e30f, 3.4e38f, INFINITY, -INFINITY, NAN, -NAN, floatOf(0x7f800001u),
                    floatOf(0xffc12345u), 0.0f, -0.0f, floatOf(1), floatOf(0x807fffffu),
                    tiny / 2, std::nextafter(tiny / 2, 1.0f), tiny / 4, -tiny / 2})
      in.push_back(x);
    // Random f32 bits over the whole range.
    std::mt19937 rng(0x8f8);
    for (int i = 0; i < 4000; ++i)
      in.push_back(floatOf(uint32_t(rng())));
    for (int i = 0; i < 4000; ++i) // and near fp8's range
      in.push_back(std::ldexp(std::uniform_real_distribution<float>(-2, 2)(rng),
                              int(rng() % 40) - 24));
    while (in.size() & (in.size() - 1)) // a power of two
      in.push_back(0.0f);
    size_t n = in.size();
    auto out = runMap<float, uint8_t>(mapKernel("f32", fmt.name, n, castBody("f32", fmt.name, n)),
                                      in);
    for (size_t i = 0; i < n; ++i)
      ASSERT_EQ(out[i], fmt.fromDouble(in[i]))
          << fmt.name << " from f32 0x" << std::hex << bitsOf(in[i]) << " (" << in[i] << ")";
    // f16 and bf16 sources round once too (their widening to f32 is exact).
    std::vector<uint16_t> halves, bhalves;
    for (size_t i = 0; i < n; ++i) {
      halves.push_back(toHalf(in[i]));
      bhalves.push_back(uint16_t(bitsOf(in[i]) >> 16));
    }
    auto fromF16 = runMap<uint16_t, uint8_t>(
        mapKernel("f16", fmt.name, n, castBody("f16", fmt.name, n)), halves);
    auto fromBF16 = runMap<uint16_t, uint8_t>(
        mapKernel("bf16", fmt.name, n, castBody("bf16", fmt.name, n)), bhalves);
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(fromF16[i], fmt.fromDouble(fromHalf(halves[i]))) << fmt.name << " from f16 " << i;
      ASSERT_EQ(fromBF16[i], fmt.fromDouble(floatOf(uint32_t(bhalves[i]) << 16)))
          << fmt.name << " from bf16 " << i;
    }
  }
}

TEST(Fp8, MaskedLoadsGiveOtherAndStoresMoveBytes) {
  // Bytes move unchanged, NaNs with their sign included; masked-off
  // elements read `other` (1.0: 0x38 in e4m3, 0x3c in e5m2).
  for (const Fp8Ref &fmt : kFp8Formats) {
    std::string T = fmt.name;
    std::vector<uint8_t> in = {0x01, 0xff, 0x7f, 0x80, 0x40, 0xfd, 0x12, 0x34};
    auto out = runMap<uint8_t, uint8_t>(
        "func.func @k(%in: !tile.ptr<" + T + ">, %out: !tile.ptr<" + T + ">) {\n"
        "  %r = tile.make_range 0 to 8 : tensor<8xi32>\n"
        "  %c4 = arith.constant dense<4> : tensor<8xi32>\n"
        "  %m = arith.cmpi slt, %r, %c4 : tensor<8xi32>\n"
        "  %one = arith.constant dense<1.0> : tensor<8x" + T + ">\n"
        "  %ib = tile.splat %in : !tile.ptr<" + T + "> -> tensor<8x!tile.ptr<" + T + ">>\n"
        "  %ip = tile.addptr %ib, %r : tensor<8x!tile.ptr<" + T + ">>, tensor<8xi32>\n"
        "  %x = tile.load %ip mask %m other %one : tensor<8x!tile.ptr<" + T + ">>\n"
        "  %ob = tile.splat %out : !tile.ptr<" + T + "> -> tensor<8x!tile.ptr<" + T + ">>\n"
        "  %op = tile.addptr %ob, %r : tensor<8x!tile.ptr<" + T + ">>, tensor<8xi32>\n"
        "  tile.store %x, %op : tensor<8x!tile.ptr<" + T + ">>\n"
        "  return\n}\n",
        in);
    uint8_t one = fmt.hasInfinity ? 0x3c : 0x38;
    EXPECT_EQ(out, (std::vector<uint8_t>{0x01, 0xff, 0x7f, 0x80, one, one, one, one}))
        << fmt.name;
  }
}

TEST(Fp8, ArithmeticInFp8IsRefused) {
  std::string error;
  runMap<uint8_t, uint8_t>(
      mapKernel("f8E4M3FN", "f8E4M3FN", 4, "  %y = arith.addf %x, %x : tensor<4xf8E4M3FN>\n"),
      {0, 0, 0, 0}, &error);
  EXPECT_NE(error.find("computes in fp8"), std::string::npos) << error;
}
