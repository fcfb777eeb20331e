//===- KernelOpsTest.cpp - every op a kernel may contain, run and compiled ===//
//
// The table of KernelOps.h, proven: for each op a kernel that uses it runs
// on the interpreter and gives the expected values, and llkc compiles all of
// these kernels to PTX. An op added to the table without a kernel here, or a
// kernel whose op is missing from it, fails the coverage test; one without
// an interpreter handler (or a handler of an op not in the table) fails
// InterpreterHandlesExactlyTheTable.
//
//===----------------------------------------------------------------------===//

#include "Checks/KernelChecks.h"
#include "llk/Compiler/Compiler.h"
#include "llk/Dialect/Tile/IR/KernelOps.h"
#include "llk/Dialect/Tile/IR/Philox.h"
#include "llk/Dialect/Tile/IR/TileDialect.h"
#include "llk/Interpreter/Interpreter.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <set>

using namespace llk;
using namespace llk::interp;

namespace {

mlir::MLIRContext &context() {
  static std::unique_ptr<mlir::MLIRContext> ctx = checks::makeContext();
  return *ctx;
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

/// `x` rounded to f32, as the expected value of an f32 op.
double f(float x) { return x; }

/// A kernel of the table's test: `@NAME(%in: !tile.ptr<In>, %out:
/// !tile.ptr<Out>)` run over one program with `input` in `in`; `out` (as many
/// elements as `expected`, zeros at first) must end up holding `expected`.
struct OpCase {
  std::vector<std::string> ops; // the table entries it uses
  std::string kernel;           // the function, named @NAME
  ElemType in, out;
  std::vector<double> input, expected;
  /// Why llkc cannot compile it alone, if it cannot.
  std::string notCompiled;
};

/// The shaped type of `elem`: a 4-element tile, or the scalar.
std::string shaped(const std::string &elem, bool scalar) {
  return scalar ? elem : "tensor<4x" + elem + ">";
}

/// Replaces every `@ELEM@` of `body` with the shaped type of ELEM, and every
/// `@=VALUE:ELEM@` with an arith.constant of that type (a splat for a tile).
std::string instantiate(std::string body, bool scalar) {
  size_t at;
  while ((at = body.find('@')) != std::string::npos) {
    size_t end = body.find('@', at + 1);
    if (end == std::string::npos)
      break;
    std::string text = body.substr(at + 1, end - at - 1), replacement;
    if (text.size() > 1 && text[0] == '=') {
      size_t colon = text.find(':');
      std::string value = text.substr(1, colon - 1), elem = text.substr(colon + 1);
      replacement = "arith.constant " +
                    (scalar ? value : "dense<" + value + ">") + " : " +
                    shaped(elem, scalar);
    } else {
      replacement = shaped(text, scalar);
    }
    body.replace(at, end - at + 1, replacement);
  }
  return body;
}

/// An elementwise case, as a 4-element tile and (unless `tileOnly`) as a
/// scalar: %x and %w are elements 0-3 and 4-7 of `in` (their first elements
/// for the scalar), and `body` computes %y, which goes to `out` (see
/// instantiate for its `@...@`).
void addElementwise(std::vector<OpCase> &cases, std::vector<std::string> ops,
                    ElemType in, ElemType out, const std::string &body,
                    std::vector<double> x, std::vector<double> w,
                    std::vector<double> expected, bool tileOnly = false) {
  std::string I(elemTypeName(in)), O(elemTypeName(out));
  for (bool scalar : {false, true}) {
    if (scalar && tileOnly)
      continue;
    std::string T = shaped(I, scalar), U = shaped(O, scalar);
    std::string P = shaped("!tile.ptr<" + I + ">", scalar);
    std::string Q = shaped("!tile.ptr<" + O + ">", scalar);
    std::string k = "func.func @NAME(%in: !tile.ptr<" + I + ">, %out: !tile.ptr<" +
                    O + ">) {\n";
    if (scalar) {
      k += "  %c4 = arith.constant 4 : i32\n"
           "  %in4 = tile.addptr %in, %c4 : !tile.ptr<" + I + ">, i32\n"
           "  %x = tile.load %in : !tile.ptr<" + I + ">\n"
           "  %w = tile.load %in4 : !tile.ptr<" + I + ">\n";
    } else {
      k += "  %r = tile.make_range 0 to 4 : tensor<4xi32>\n"
           "  %r4 = tile.make_range 4 to 8 : tensor<4xi32>\n"
           "  %ib = tile.splat %in : !tile.ptr<" + I + "> -> " + P + "\n"
           "  %ip = tile.addptr %ib, %r : " + P + ", tensor<4xi32>\n"
           "  %iw = tile.addptr %ib, %r4 : " + P + ", tensor<4xi32>\n"
           "  %x = tile.load %ip : " + P + "\n"
           "  %w = tile.load %iw : " + P + "\n";
    }
    k += instantiate(body, scalar);
    if (scalar) {
      k += "  tile.store %y, %out : !tile.ptr<" + O + ">\n";
    } else {
      k += "  %ob = tile.splat %out : !tile.ptr<" + O + "> -> " + Q + "\n"
           "  %op = tile.addptr %ob, %r : " + Q + ", tensor<4xi32>\n"
           "  tile.store %y, %op : " + Q + "\n";
    }
    k += "  return\n}\n";
    std::vector<double> input = x;
    input.insert(input.end(), w.begin(), w.end());
    std::vector<double> want =
        scalar ? std::vector<double>{expected[0]} : expected;
    cases.push_back({ops, k, in, out, input, want, ""});
  }
}

std::vector<OpCase> makeCases() {
  using E = ElemType;
  std::vector<OpCase> c;
  auto binary = [&](const std::string &op, E type, std::vector<double> x,
                    std::vector<double> w, std::vector<double> expected) {
    std::string t(elemTypeName(type));
    addElementwise(c, {op}, type, type,
                   "  %y = " + op + " %x, %w : @" + t + "@\n", x, w, expected);
  };
  auto unary = [&](const std::string &op, E type, std::vector<double> x,
                   std::vector<double> expected) {
    std::string t(elemTypeName(type));
    addElementwise(c, {op}, type, type, "  %y = " + op + " %x : @" + t + "@\n",
                   x, {0, 0, 0, 0}, expected);
  };
  auto convert = [&](const std::string &op, E from, E to, std::vector<double> x,
                     std::vector<double> expected) {
    addElementwise(c, {op}, from, to,
                   "  %y = " + op + " %x : @" + std::string(elemTypeName(from)) +
                       "@ to @" + std::string(elemTypeName(to)) + "@\n",
                   x, {0, 0, 0, 0}, expected);
  };
  auto mathf = [&](const std::string &name, float (*fn)(float),
                   std::vector<double> x) {
    std::vector<double> expected;
    for (double v : x)
      expected.push_back(fn(static_cast<float>(v)));
    unary("math." + name, E::F32, x, expected);
  };
  const double kMin32 = -2147483648.0;

  // arith: integers wrap at their width.
  binary("arith.addi", E::I32, {2147483647, -5, 7, 0}, {1, 5, -9, 0},
         {kMin32, 0, -2, 0});
  binary("arith.subi", E::I32, {kMin32, 5, 7, 0}, {1, 5, 9, 0},
         {2147483647, 0, -2, 0});
  binary("arith.muli", E::I32, {65536, -3, 7, 0}, {65536, 5, -1, 9},
         {0, -15, -7, 0});
  binary("arith.andi", E::I32, {12, -1, 5, 0}, {10, 7, -8, 3}, {8, 7, 0, 0});
  binary("arith.ori", E::I32, {12, -8, 5, 0}, {10, 7, 2, 3}, {14, -1, 7, 3});
  binary("arith.xori", E::I32, {12, -1, 5, 0}, {10, 7, 5, 3}, {6, -8, 0, 3});
  binary("arith.divsi", E::I32, {7, -7, 7, -7}, {2, 2, -2, -2}, {3, -3, -3, 3});
  binary("arith.divui", E::I32, {-2, 7, 9, 0}, {2, 2, 3, 1},
         {2147483647, 3, 3, 0});
  binary("arith.remsi", E::I32, {7, -7, 7, -7}, {2, 2, -2, -2}, {1, -1, 1, -1});
  binary("arith.remui", E::I32, {-1, 7, 9, 0}, {10, 2, 4, 3}, {5, 1, 1, 0});
  binary("arith.ceildivsi", E::I32, {7, -7, 7, -7}, {2, 2, -2, -2},
         {4, -3, -3, 4});
  binary("arith.ceildivui", E::I32, {7, -1, 8, 0}, {2, 2, 3, 5},
         {4, kMin32, 3, 0});
  binary("arith.floordivsi", E::I32, {7, -7, 7, -7}, {2, 2, -2, -2},
         {3, -4, -4, 3});
  binary("arith.shli", E::I32, {1, 1, -1, 5}, {31, 3, 4, 0}, {kMin32, 8, -16, 5});
  binary("arith.shrsi", E::I32, {-16, 16, -1, 5}, {2, 2, 31, 0}, {-4, 4, -1, 5});
  binary("arith.shrui", E::I32, {-16, 16, -1, 5}, {28, 2, 31, 0}, {15, 4, 1, 5});
  binary("arith.maxsi", E::I32, {1, -1, 5, -7}, {2, 1, 4, -3}, {2, 1, 5, -3});
  binary("arith.minsi", E::I32, {1, -1, 5, -7}, {2, 1, 4, -3}, {1, -1, 4, -7});
  binary("arith.maxui", E::I32, {1, -1, 5, -7}, {2, 1, 4, -3}, {2, -1, 5, -3});
  binary("arith.minui", E::I32, {1, -1, 5, -7}, {2, 1, 4, -3}, {1, 1, 4, -7});
  // The carry and the double-width products, recombined into an i64.
  addElementwise(c, {"arith.addui_extended", "arith.extui", "arith.shli", "arith.ori"},
                 E::I32, E::I64,
                 "  %s, %o = arith.addui_extended %x, %w : @i32@, @i1@\n"
                 "  %s64 = arith.extui %s : @i32@ to @i64@\n"
                 "  %o64 = arith.extui %o : @i1@ to @i64@\n"
                 "  %one = @=1:i64@\n"
                 "  %s2 = arith.shli %s64, %one : @i64@\n"
                 "  %y = arith.ori %s2, %o64 : @i64@\n",
                 {-1, 1, kMin32, 5}, {1, 2, kMin32, -6}, {1, 6, 1, 8589934590.0});
  addElementwise(c, {"arith.mulsi_extended", "arith.extsi"}, E::I32, E::I64,
                 "  %lo, %hi = arith.mulsi_extended %x, %w : @i32@\n"
                 "  %lo64 = arith.extui %lo : @i32@ to @i64@\n"
                 "  %hi64 = arith.extsi %hi : @i32@ to @i64@\n"
                 "  %s = @=32:i64@\n"
                 "  %hs = arith.shli %hi64, %s : @i64@\n"
                 "  %y = arith.ori %hs, %lo64 : @i64@\n",
                 {65536, -1, 2147483647, kMin32}, {65536, 1, 2, kMin32},
                 {4294967296.0, -1, 4294967294.0, 4611686018427387904.0});
  addElementwise(c, {"arith.mului_extended"}, E::I32, E::I64,
                 "  %lo, %hi = arith.mului_extended %x, %w : @i32@\n"
                 "  %lo64 = arith.extui %lo : @i32@ to @i64@\n"
                 "  %hi64 = arith.extui %hi : @i32@ to @i64@\n"
                 "  %s = @=32:i64@\n"
                 "  %hs = arith.shli %hi64, %s : @i64@\n"
                 "  %y = arith.ori %hs, %lo64 : @i64@\n",
                 {65536, -1, 3, kMin32}, {65536, -1, 5, 2},
                 // (2^32 - 1)^2 = 0xFFFFFFFE00000001 as an i64
                 {4294967296.0, -8589934591.0, 15, 4294967296.0});
  // Comparisons, selection and constants.
  addElementwise(c, {"arith.cmpi", "arith.select"}, E::I32, E::I32,
                 "  %c = arith.cmpi ult, %x, %w : @i32@\n"
                 "  %y = arith.select %c, %x, %w : @i1@, @i32@\n",
                 {1, -1, 3, 5}, {2, 1, 3, -1}, {1, 1, 3, 5});
  addElementwise(c, {"arith.cmpf"}, E::F32, E::F32,
                 "  %c = arith.cmpf olt, %x, %w : @f32@\n"
                 "  %y = arith.select %c, %x, %w : @i1@, @f32@\n",
                 {1, kNaN, 3, -1}, {2, 1, 3, -2}, {1, 1, 3, -2});
  addElementwise(c, {"arith.constant", "arith.addf"}, E::F32, E::F32,
                 "  %h = @=0.5:f32@\n"
                 "  %y = arith.addf %x, %h : @f32@\n",
                 {1, -0.5, 1e30, 0.25}, {0, 0, 0, 0}, {1.5, 0, 1e30, 0.75});
  // Floats compute in their type's precision.
  binary("arith.addf", E::F32, {1.5, 0.1, 1e30, -0.0}, {2.25, 0.2, 1e30, -0.0},
         {3.75, f(0.1f + 0.2f), 2e30, -0.0});
  binary("arith.subf", E::F32, {1.5, 0.3, -1e38, 1}, {2.25, 0.1, 1e38, 1},
         {-0.75, f(0.3f - 0.1f), f(-2e38f), 0});
  binary("arith.mulf", E::F32, {1.5, 1e20, -2, 3}, {2, 1e20, 0.5, 0.1},
         {3, f(1e20f * 1e20f), -1, f(3 * 0.1f)});
  binary("arith.divf", E::F32, {1, 1, -1, 0}, {3, 0, 0, 0},
         {f(1.0f / 3.0f), kInf, -kInf, kNaN});
  binary("arith.remf", E::F32, {7.5, -7.5, 1, kInf}, {2, 2, 0, 1},
         {1.5, -1.5, kNaN, kNaN});
  binary("arith.maximumf", E::F32, {1, kNaN, -0.0, 3}, {2, 1, 0.0, -3},
         {2, kNaN, 0.0, 3});
  binary("arith.minimumf", E::F32, {1, kNaN, -0.0, 3}, {2, 1, 0.0, -3},
         {1, kNaN, -0.0, -3});
  binary("arith.maxnumf", E::F32, {1, kNaN, 5, 3}, {2, 1, 4, -3}, {2, 1, 5, 3});
  binary("arith.minnumf", E::F32, {1, kNaN, 5, 3}, {2, 1, 4, -3}, {1, 1, 4, -3});
  unary("arith.negf", E::F32, {1, -0.0, kNaN, kInf}, {-1, 0.0, kNaN, -kInf});
  // Conversions.
  convert("arith.extf", E::F16, E::F32, {0.5, -65504, 6e-8, 1}, {0.5, -65504, f(5.96046448e-08f), 1});
  convert("arith.truncf", E::F32, E::F16, {1.0 / 3, 65520, 1e-8, -2.5},
          {0.333251953125, kInf, 0, -2.5});
  convert("arith.extsi", E::I8, E::I32, {-1, 127, -128, 5}, {-1, 127, -128, 5});
  convert("arith.extui", E::I8, E::I32, {-1, 127, -128, 5}, {255, 127, 128, 5});
  convert("arith.trunci", E::I32, E::I16, {65537, -1, 32768, 5}, {1, -1, -32768, 5});
  convert("arith.sitofp", E::I32, E::F32, {16777217, -3, 0, 2147483647},
          {16777216, -3, 0, 2147483648.0});
  convert("arith.uitofp", E::I32, E::F32, {-1, 3, 0, kMin32},
          {4294967296.0, 3, 0, 2147483648.0});
  convert("arith.fptosi", E::F32, E::I32, {1.9, -1.9, 0, -2147483648.0},
          {1, -1, 0, kMin32});
  convert("arith.fptoui", E::F32, E::I32, {1.9, 0, 4e9, 7.5},
          {1, 0, 4e9 - 4294967296.0, 7});
  convert("arith.bitcast", E::F32, E::I32, {1, -0.0, kInf, 2},
          {1065353216, kMin32, 2139095040, 1073741824});
  addElementwise(c, {"arith.index_cast"}, E::I32, E::I32,
                 "  %i = arith.index_cast %x : @i32@ to @index@\n"
                 "  %j = arith.addi %i, %i : @index@\n"
                 "  %y = arith.index_cast %j : @index@ to @i32@\n",
                 {1, -2, 3, 4}, {0, 0, 0, 0}, {2, -4, 6, 8});
  // Zero-extended to index, so that the shift brings in zeros.
  addElementwise(c, {"arith.index_castui"}, E::I32, E::I32,
                 "  %i = arith.index_castui %x : @i32@ to @index@\n"
                 "  %one = @=1:index@\n"
                 "  %j = arith.shrui %i, %one : @index@\n"
                 "  %y = arith.index_castui %j : @index@ to @i32@\n",
                 {-1, 2, 6, 0}, {0, 0, 0, 0}, {2147483647, 1, 3, 0});

  // math, in the type's precision.
  mathf("absf", std::fabs, {-1.5, 2, -0.0, -kInf});
  mathf("acos", std::acos, {0.5, -1, 0.1, 2});
  mathf("acosh", std::acosh, {1, 2, 10, 0.5});
  mathf("asin", std::asin, {0.5, -1, 0.1, 2});
  mathf("asinh", std::asinh, {0, 1, -10, 0.5});
  mathf("atan", std::atan, {0, 1, -10, kInf});
  mathf("atanh", std::atanh, {0, 0.5, -0.9, 2});
  mathf("cbrt", std::cbrt, {27, -8, 2, 0});
  mathf("ceil", std::ceil, {1.5, -1.5, 2, -0.2});
  mathf("cos", std::cos, {0, 1, -2, 100});
  mathf("cosh", std::cosh, {0, 1, -2, 10});
  mathf("erf", std::erf, {0, 0.5, -1, 3});
  mathf("erfc", std::erfc, {0, 0.5, -1, 3});
  mathf("exp", std::exp, {0, 1, -2, 100});
  mathf("exp2", std::exp2, {0, 1, -2, 0.5});
  mathf("expm1", std::expm1, {0, 1e-5, -2, 1});
  mathf("floor", std::floor, {1.5, -1.5, 2, -0.2});
  mathf("log", std::log, {1, 2.5, 0, -1});
  mathf("log10", std::log10, {1, 1000, 0.5, -1});
  mathf("log1p", std::log1p, {0, 1e-5, -0.5, 3});
  mathf("log2", std::log2, {1, 8, 0.3, -1});
  mathf("round", std::round, {2.5, -2.5, 1.4, -0.5});
  mathf("roundeven", std::nearbyint, {2.5, -2.5, 1.5, -0.5});
  mathf("rsqrt", [](float x) { return 1.0f / std::sqrt(x); }, {4, 2, 0.25, 1});
  mathf("sin", std::sin, {0, 1, -2, 100});
  mathf("sinh", std::sinh, {0, 1, -2, 10});
  mathf("sqrt", std::sqrt, {4, 2, 0, -1});
  mathf("tan", std::tan, {0, 1, -2, 100});
  mathf("tanh", std::tanh, {0, 1, -2, 10});
  mathf("trunc", std::trunc, {2.7, -2.7, 1.4, -0.5});
  binary("math.atan2", E::F32, {1, -1, 0, 1}, {1, 1, -1, 0},
         {f(std::atan2(1.0f, 1.0f)), f(std::atan2(-1.0f, 1.0f)),
          f(std::atan2(0.0f, -1.0f)), f(std::atan2(1.0f, 0.0f))});
  binary("math.copysign", E::F32, {1, -2, 3, 4}, {-1, 1, -0.0, 0}, {-1, 2, -3, 4});
  binary("math.powf", E::F32, {2, 9, 2, -8}, {10, 0.5, -1, 3},
         {1024, 3, 0.5, -512});
  addElementwise(c, {"math.fma"}, E::F32, E::F32,
                 "  %y = math.fma %x, %w, %x : @f32@\n", {1.5, 2, -1, 0.1},
                 {2, 0.5, 3, 10},
                 {4.5, 3, -4, f(std::fma(0.1f, 10.0f, 0.1f))});
  addElementwise(c, {"math.fpowi"}, E::F32, E::F32,
                 "  %n = @=3:i32@\n"
                 "  %y = math.fpowi %x, %n : @f32@, @i32@\n",
                 {2, -1.5, 0.5, 10}, {0, 0, 0, 0}, {8, -3.375, 0.125, 1000});
  unary("math.absi", E::I32, {-5, 5, kMin32, 0}, {5, 5, kMin32, 0});
  unary("math.ctlz", E::I32, {1, -1, 0, 65536}, {31, 0, 32, 15});
  unary("math.cttz", E::I32, {1, kMin32, 0, 12}, {0, 31, 32, 2});
  unary("math.ctpop", E::I32, {1, -1, 0, 12}, {1, 32, 0, 2});
  for (const char *op : {"math.isfinite", "math.isinf", "math.isnan"}) {
    std::vector<double> x{1, kInf, kNaN, -kInf};
    std::vector<double> expected;
    for (double v : x)
      expected.push_back(std::string(op) == "math.isfinite" ? std::isfinite(v)
                         : std::string(op) == "math.isinf"  ? std::isinf(v)
                                                            : std::isnan(v));
    addElementwise(c, {op, "arith.uitofp"}, E::F32, E::F32,
                   "  %c = " + std::string(op) + " %x : @f32@\n"
                   "  %y = arith.uitofp %c : @i1@ to @f32@\n",
                   x, {0, 0, 0, 0}, expected);
  }

  // Control flow: scf.
  addElementwise(c, {"scf.for", "scf.yield"}, E::F32, E::F32,
                 "  %c0 = arith.constant 0 : i32\n"
                 "  %c1 = arith.constant 1 : i32\n"
                 "  %c3 = arith.constant 3 : i32\n"
                 "  %y = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x) -> (@f32@) : i32 {\n"
                 "    %next = arith.addf %acc, %w : @f32@\n"
                 "    scf.yield %next : @f32@\n"
                 "  }\n",
                 {1, 2, 3, 4}, {1, 0.5, -1, 0}, {4, 3.5, 0, 4});
  addElementwise(c, {"scf.if"}, E::F32, E::F32,
                 "  %pid = tile.program_id x\n"
                 "  %c0 = arith.constant 0 : i32\n"
                 "  %first = arith.cmpi eq, %pid, %c0 : i32\n"
                 "  %y = scf.if %first -> (@f32@) {\n"
                 "    %s = arith.addf %x, %w : @f32@\n"
                 "    scf.yield %s : @f32@\n"
                 "  } else {\n"
                 "    %d = arith.subf %x, %w : @f32@\n"
                 "    scf.yield %d : @f32@\n"
                 "  }\n",
                 {1, 2, 3, 4}, {1, 0.5, -1, 0}, {2, 2.5, 2, 4});
  addElementwise(c, {"scf.while", "scf.condition"}, E::F32, E::F32,
                 "  %c0 = arith.constant 0 : i32\n"
                 "  %c1 = arith.constant 1 : i32\n"
                 "  %c3 = arith.constant 3 : i32\n"
                 "  %n, %y = scf.while (%i = %c0, %acc = %x) : (i32, @f32@) -> (i32, @f32@) {\n"
                 "    %go = arith.cmpi slt, %i, %c3 : i32\n"
                 "    scf.condition(%go) %i, %acc : i32, @f32@\n"
                 "  } do {\n"
                 "  ^bb0(%i: i32, %acc: @f32@):\n"
                 "    %twice = arith.addf %acc, %acc : @f32@\n"
                 "    %next = arith.addi %i, %c1 : i32\n"
                 "    scf.yield %next, %twice : i32, @f32@\n"
                 "  }\n",
                 {1, 2, -3, 0.5}, {0, 0, 0, 0}, {8, 16, -24, 4});
  addElementwise(c, {"scf.index_switch"}, E::F32, E::F32,
                 "  %one = arith.constant 1 : index\n"
                 "  %y = scf.index_switch %one -> @f32@\n"
                 "  case 0 {\n"
                 "    scf.yield %x : @f32@\n"
                 "  }\n"
                 "  case 1 {\n"
                 "    %p = arith.mulf %x, %w : @f32@\n"
                 "    scf.yield %p : @f32@\n"
                 "  }\n"
                 "  default {\n"
                 "    scf.yield %w : @f32@\n"
                 "  }\n",
                 {1, 2, 3, 4}, {2, 3, 4, 5}, {2, 6, 12, 20});
  // Control flow: cf, with tiles in block arguments. Three rounds, each a
  // cf.switch case: acc = ((x + w) * w) - x.
  addElementwise(c, {"cf.br", "cf.cond_br", "cf.switch"}, E::F32, E::F32,
                 "  %c0 = arith.constant 0 : i32\n"
                 "  %c1 = arith.constant 1 : i32\n"
                 "  %c3 = arith.constant 3 : i32\n"
                 "  cf.br ^head(%c0, %x : i32, @f32@)\n"
                 "^head(%i: i32, %acc: @f32@):\n"
                 "  %go = arith.cmpi slt, %i, %c3 : i32\n"
                 "  %next = arith.addi %i, %c1 : i32\n"
                 "  cf.cond_br %go, ^body, ^done(%acc : @f32@)\n"
                 "^body:\n"
                 "  cf.switch %i : i32, [\n"
                 "    default: ^sub,\n"
                 "    0: ^add,\n"
                 "    1: ^mul\n"
                 "  ]\n"
                 "^add:\n"
                 "  %a = arith.addf %acc, %w : @f32@\n"
                 "  cf.br ^head(%next, %a : i32, @f32@)\n"
                 "^mul:\n"
                 "  %m = arith.mulf %acc, %w : @f32@\n"
                 "  cf.br ^head(%next, %m : i32, @f32@)\n"
                 "^sub:\n"
                 "  %s = arith.subf %acc, %x : @f32@\n"
                 "  cf.br ^head(%next, %s : i32, @f32@)\n"
                 "^done(%y: @f32@):\n",
                 {1, 2, 3, 4}, {2, 3, 4, 5}, {5, 13, 25, 41});

  // The tile dialect. (func.func, func.return, tile.load, store, splat,
  // addptr and make_range are in every kernel.)
  addElementwise(c, {"func.func", "func.return", "tile.load", "tile.store",
                     "tile.splat", "tile.addptr", "tile.make_range",
                     "tile.program_id", "tile.num_programs", "tile.barrier",
                     "tile.grid_dependency_wait", "tile.launch_dependents"},
                 E::I32, E::I32,
                 "  tile.launch_dependents\n"
                 "  tile.grid_dependency_wait\n"
                 "  %pid = tile.program_id x\n"
                 "  %np = tile.num_programs y\n"
                 "  %c10 = arith.constant 10 : i32\n"
                 "  %t = arith.muli %np, %c10 : i32\n"
                 "  %s = arith.addi %pid, %t : i32\n"
                 "  tile.barrier\n"
                 "  %b = tile.splat %s : i32 -> @i32@\n"
                 "  %y = arith.addi %x, %b : @i32@\n",
                 {1, 2, 3, 4}, {0, 0, 0, 0}, {11, 12, 13, 14}, /*tileOnly=*/true);
  addElementwise(c, {"tile.cast", "tile.bitcast"}, E::F32, E::I32,
                 "  %h = tile.cast %x : @f32@ to @f16@\n"
                 "  %i = tile.bitcast %h : @f16@ to @i16@\n"
                 "  %y = tile.cast %i : @i16@ to @i32@\n",
                 {1, -2, 0.5, 65504}, {0, 0, 0, 0}, {15360, -16384, 14336, 31743});
  // Hints: the operand, promised and checked (test/Interpreter/hints.test
  // breaks them): x a run of 4 from a multiple of 8, w uniform.
  addElementwise(c, {"tile.multiple_of", "tile.max_contiguous", "tile.max_constancy"},
                 E::I32, E::I32,
                 "  %xc = tile.max_contiguous %x, [4] : @i32@\n"
                 "  %xd = tile.multiple_of %xc, [8] : @i32@\n"
                 "  %wk = tile.max_constancy %w, [4] : @i32@\n"
                 "  %y = arith.addi %xd, %wk : @i32@\n",
                 {8, 9, 10, 11}, {5, 5, 5, 5}, {13, 14, 15, 16}, /*tileOnly=*/true);
  addElementwise(c, {"tile.prefetch"}, E::F32, E::F32,
                 "  %c0 = arith.constant 0 : i32\n"
                 "  %p = tile.addptr %in, %c0 : !tile.ptr<f32>, i32\n"
                 "  tile.prefetch %p : !tile.ptr<f32>\n"
                 "  %y = arith.addf %x, %w : @f32@\n",
                 {1, 2, 3, 4}, {1, 1, 1, 1}, {2, 3, 4, 5});

  // Scans: the cumulative sum of x, then the maxima of its suffixes.
  addElementwise(c, {"tile.scan", "tile.generic_scan"}, E::F32, E::F32,
                 "  %s = tile.scan sum %x axis = 0 : @f32@\n"
                 "  %y = tile.generic_scan %s axis = 0 reverse : @f32@ {\n"
                 "  ^bb0(%a: f32, %b: f32):\n"
                 "    %m = arith.maxnumf %a, %b : f32\n"
                 "    tile.yield %m : f32\n"
                 "  }\n",
                 {1, 2, -5, 0.5}, {0, 0, 0, 0}, {3, 3, -1.5, -1.5}, /*tileOnly=*/true);

  // Gathers, histograms: g[i] = x[w[i]], then g plus its histogram.
  addElementwise(c, {"tile.gather", "tile.histogram"}, E::I32, E::I32,
                 "  %g = tile.gather %x[%w] axis = 0 : @i32@, @i32@ -> @i32@\n"
                 "  %h = tile.histogram %g : @i32@ -> @i32@\n"
                 "  %y = arith.addi %g, %h : @i32@\n",
                 {2, 0, 3, 9}, {0, 2, 0, 1}, {3, 3, 4, 1}, /*tileOnly=*/true);

  // Sorts: x descending carrying w (s, v), the stable top-k of w's
  // smallest (positions i); y = s + v + i.
  addElementwise(c, {"tile.sort", "tile.topk"}, E::I32, E::I32,
                 "  %s, %v = tile.sort %x, %w axis = 0 descending : @i32@, @i32@\n"
                 "  %t, %i = tile.topk %w smallest : @i32@ -> @i32@, @i32@\n"
                 "  %sv = arith.addi %s, %v : @i32@\n"
                 "  %y = arith.addi %sv, %i : @i32@\n",
                 {2, 0, 3, 9}, {0, 2, 0, 1}, {10, 5, 5, 3}, /*tileOnly=*/true);

  // Shapes, reductions: s[i][j] = x[i] + x[j], its rows' sums and maxima.
  c.push_back({{"tile.expand_dims", "tile.broadcast", "tile.trans",
                "tile.reshape", "tile.convert_layout", "tile.reduce",
                "tile.generic_reduce", "tile.yield"},
               R"(func.func @NAME(%in: !tile.ptr<f32>, %out: !tile.ptr<f32>) {
  %r = tile.make_range 0 to 4 : tensor<4xi32>
  %ib = tile.splat %in : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>>
  %ip = tile.addptr %ib, %r : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  %x = tile.load %ip : tensor<4x!tile.ptr<f32>>
  %row = tile.expand_dims %x axis = 0 : tensor<4xf32> -> tensor<1x4xf32>
  %b = tile.broadcast %row : tensor<1x4xf32> -> tensor<4x4xf32>
  %t = tile.trans %b : tensor<4x4xf32> -> tensor<4x4xf32>
  %s = arith.addf %b, %t : tensor<4x4xf32>
  %flat = tile.reshape %s : tensor<4x4xf32> -> tensor<16xf32>
  %moved = tile.convert_layout %flat : tensor<16xf32> -> tensor<16xf32>
  %sum = tile.reduce sum %s axis = 1 : tensor<4x4xf32> -> tensor<4xf32>
  %max = tile.generic_reduce %s axis = 1 : tensor<4x4xf32> -> tensor<4xf32> {
  ^bb0(%a: f32, %c: f32):
    %m = arith.maxnumf %a, %c : f32
    tile.yield %m : f32
  }
  %r16 = tile.make_range 0 to 16 : tensor<16xi32>
  %ob = tile.splat %out : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>>
  %op = tile.addptr %ob, %r16 : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  tile.store %moved, %op : tensor<16x!tile.ptr<f32>>
  %o4 = tile.splat %out : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>>
  %c16 = arith.constant dense<16> : tensor<4xi32>
  %r20 = arith.addi %r, %c16 : tensor<4xi32>
  %ps = tile.addptr %o4, %r20 : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  tile.store %sum, %ps : tensor<4x!tile.ptr<f32>>
  %c20 = arith.constant dense<20> : tensor<4xi32>
  %r24 = arith.addi %r, %c20 : tensor<4xi32>
  %pm = tile.addptr %o4, %r24 : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  tile.store %max, %pm : tensor<4x!tile.ptr<f32>>
  return
}
)",
               E::F32, E::F32, {1, 2, 3, 4},
               {2, 3, 4, 5, 3, 4, 5, 6, 4, 5, 6, 7, 5, 6, 7, 8, // s
                14, 18, 22, 26,                                 // row sums
                5, 6, 7, 8},                                    // row maxima
               ""});

  // Atomics: out[0..4) starts at 0 and takes x by exchange, then w where
  // the mask is on; out[4..8) gets the adds' old values (0 where masked off,
  // as the op defines); out[8] the old value of a compare-and-swap.
  c.push_back({{"tile.atomic_rmw", "tile.atomic_cas"}, "", E::I32, E::I32,
               {1, 2, 3, 4, 10, 20, 30, 40},
               {11, 22, 3, 44, 1, 2, 0, 4, 7, 7}, ""});
  c.back().kernel = R"(func.func @NAME(%in: !tile.ptr<i32>, %out: !tile.ptr<i32>) {
  %r = tile.make_range 0 to 4 : tensor<4xi32>
  %c4 = arith.constant dense<4> : tensor<4xi32>
  %r4 = arith.addi %r, %c4 : tensor<4xi32>
  %ib = tile.splat %in : !tile.ptr<i32> -> tensor<4x!tile.ptr<i32>>
  %ipx = tile.addptr %ib, %r : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  %ipw = tile.addptr %ib, %r4 : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  %x = tile.load %ipx : tensor<4x!tile.ptr<i32>>
  %w = tile.load %ipw : tensor<4x!tile.ptr<i32>>
  %ob = tile.splat %out : !tile.ptr<i32> -> tensor<4x!tile.ptr<i32>>
  %target = tile.addptr %ob, %r : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  %olds = tile.addptr %ob, %r4 : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  %two = arith.constant dense<2> : tensor<4xi32>
  %m = arith.cmpi ne, %r, %two : tensor<4xi32>
  %zero = tile.atomic_rmw xchg %target, %x : tensor<4x!tile.ptr<i32>>
  %old = tile.atomic_rmw add %target, %w mask %m sem = relaxed : tensor<4x!tile.ptr<i32>>
  tile.store %old, %olds : tensor<4x!tile.ptr<i32>>
  %c8 = arith.constant 8 : i32
  %cas = tile.addptr %out, %c8 : !tile.ptr<i32>, i32
  %c0 = arith.constant 0 : i32
  %c7 = arith.constant 7 : i32
  %prev = tile.atomic_cas %cas, %c0, %c7 : !tile.ptr<i32>
  %again = tile.atomic_cas %cas, %c0, %c0 : !tile.ptr<i32>
  %c9 = arith.constant 9 : i32
  %p9 = tile.addptr %out, %c9 : !tile.ptr<i32>, i32
  %sum = arith.addi %prev, %again : i32
  tile.store %sum, %p9 : !tile.ptr<i32>
  return
}
)";

  // A 16x16x16 dot of f16 (small integers: every sum exact).
  {
    std::vector<double> input, expected(256);
    for (int i = 0; i < 512; ++i)
      input.push_back((i * 7) % 5 - 2);
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j)
        for (int k = 0; k < 16; ++k)
          expected[i * 16 + j] += input[i * 16 + k] * input[256 + k * 16 + j] + (k == 0);
    c.push_back({{"tile.dot"}, R"(func.func @NAME(%in: !tile.ptr<f16>, %out: !tile.ptr<f32>) {
  %rows = tile.make_range 0 to 16 : tensor<16xi32>
  %col = tile.expand_dims %rows axis = 0 : tensor<16xi32> -> tensor<1x16xi32>
  %row = tile.expand_dims %rows axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %c16 = arith.constant dense<16> : tensor<16x1xi32>
  %rs = arith.muli %row, %c16 : tensor<16x1xi32>
  %rb = tile.broadcast %rs : tensor<16x1xi32> -> tensor<16x16xi32>
  %cb = tile.broadcast %col : tensor<1x16xi32> -> tensor<16x16xi32>
  %idx = arith.addi %rb, %cb : tensor<16x16xi32>
  %ib = tile.splat %in : !tile.ptr<f16> -> tensor<16x16x!tile.ptr<f16>>
  %pa = tile.addptr %ib, %idx : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi32>
  %c256 = arith.constant dense<256> : tensor<16x16xi32>
  %idxb = arith.addi %idx, %c256 : tensor<16x16xi32>
  %pb = tile.addptr %ib, %idxb : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi32>
  %a = tile.load %pa : tensor<16x16x!tile.ptr<f16>>
  %b = tile.load %pb : tensor<16x16x!tile.ptr<f16>>
  %one = arith.constant dense<1.0> : tensor<16x16xf32>
  %c = tile.dot %a, %b, %one : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
  %ob = tile.splat %out : !tile.ptr<f32> -> tensor<16x16x!tile.ptr<f32>>
  %po = tile.addptr %ob, %idx : tensor<16x16x!tile.ptr<f32>>, tensor<16x16xi32>
  tile.store %c, %po : tensor<16x16x!tile.ptr<f32>>
  return
}
)",
                 E::F16, E::F32, input, expected, ""});
  }

  // Random numbers: Philox.h's definition, for an i32 seed of -5 (the high
  // word of its key is the sign) and for an i64 seed and offsets whose high
  // words count.
  {
    std::vector<double> offsets = {0, 1, -1, 1073741831};
    std::vector<double> offsets64 = {0, 4294967296.0, -1, 1099511627779.0};
    auto words = [](double offset, int64_t seed, bool is64Bit) {
      return tile::philox::philox(
          tile::philox::counter(uint64_t(int64_t(offset)), is64Bit),
          tile::philox::key(seed));
    };
    auto expect = [&](const std::vector<double> &at, int64_t seed, bool is64Bit,
                      auto f) {
      std::vector<double> out;
      for (double offset : at)
        out.push_back(f(words(offset, seed, is64Bit)));
      return out;
    };
    auto first = [](const auto &w) { return double(int32_t(w[0])); };
    auto all = [](const auto &w) { return double(int32_t(w[0] ^ w[1] ^ w[2] ^ w[3])); };
    auto uniform = [](const auto &w) { return double(tile::philox::uniform(w[0])); };
    auto normal = [](const auto &w) {
      return double(tile::philox::normal(tile::philox::uniform(w[0]),
                                         tile::philox::uniform(w[1])));
    };
    const std::string seed = "  %seed = arith.constant -5 : i32\n";
    addElementwise(c, {"tile.randint"}, E::I32, E::I32,
                   seed + "  %y = tile.randint %seed, %x : i32, @i32@\n", offsets,
                   {0, 0, 0, 0}, expect(offsets, -5, false, first));
    addElementwise(c, {"tile.randint"}, E::I64, E::I32,
                   "  %seed = arith.constant 81985529216486895 : i64\n"
                   "  %y = tile.randint %seed, %x : i64, @i64@\n",
                   offsets64, {0, 0, 0, 0},
                   expect(offsets64, 81985529216486895, true, first));
    addElementwise(c, {"tile.randint4x"}, E::I32, E::I32,
                   seed + "  %a, %b, %c, %d = tile.randint4x %seed, %x : i32, @i32@\n"
                          "  %ab = arith.xori %a, %b : @i32@\n"
                          "  %abc = arith.xori %ab, %c : @i32@\n"
                          "  %y = arith.xori %abc, %d : @i32@\n",
                   offsets, {0, 0, 0, 0}, expect(offsets, -5, false, all));
    addElementwise(c, {"tile.rand"}, E::I32, E::F32,
                   seed + "  %y = tile.rand %seed, %x : i32, @i32@\n", offsets,
                   {0, 0, 0, 0}, expect(offsets, -5, false, uniform));
    addElementwise(c, {"tile.randn"}, E::I32, E::F32,
                   seed + "  %y = tile.randn %seed, %x : i32, @i32@\n", offsets,
                   {0, 0, 0, 0}, expect(offsets, -5, false, normal));
  }

  // Debugging ops: they change no value (test/Interpreter/device-debug.test
  // has what they print and stop); tile.static_assert held when the kernel
  // was verified.
  addElementwise(c, {"tile.print", "tile.assert", "tile.static_assert"}, E::F32,
                 E::F32,
                 "  tile.print \"x: \", %x : @f32@\n"
                 "  %number = arith.cmpf ord, %x, %x : @f32@\n"
                 "  tile.assert %number, \"x is a number\" : @i1@\n"
                 "  %four = arith.constant 4 : i32\n"
                 "  %two = arith.constant 2 : i32\n"
                 "  %fits = arith.cmpi sge, %four, %two : i32\n"
                 "  tile.static_assert %fits, \"4 >= 2\"\n"
                 "  %y = arith.negf %x : @f32@\n",
                 {1.5, -2, 0, 3}, {0, 0, 0, 0}, {-1.5, 2, -0.0, -3});

  // A tensor descriptor's block, zeros past the tensor. The launch passes
  // the address of a TensorDescriptor (see DescriptorLoad below); llkc
  // lowers tile.descriptor_load only as a pipelined dot operand on sm_90a.
  c.push_back({{"tile.descriptor_load"}, "", E::F32, E::F32, {}, {},
               "a descriptor load compiles only as a software-pipelined dot "
               "operand on sm_90a (test/Target/gemm-tma-ptx.test)"});
  return c;
}

std::string name(size_t i) { return "op_case_" + std::to_string(i); }

std::string kernelText(const OpCase &c, size_t i) {
  std::string k = c.kernel;
  size_t at = k.find("@NAME");
  if (at != std::string::npos)
    k.replace(at, 5, "@" + name(i));
  return k;
}

/// Whether `got` holds `want` as an element of `type` (NaN equals NaN).
bool same(ElemType type, double got, double want) {
  if (isFloat(type) && std::isnan(want))
    return std::isnan(got);
  unsigned char a[8] = {}, b[8] = {};
  encodeElement(type, got, a);
  encodeElement(type, want, b);
  return std::memcmp(a, b, sizeof a) == 0;
}

TEST(KernelOps, TableIsSortedAndNamesRegisteredOps) {
  llvm::ArrayRef<llvm::StringLiteral> names = tile::getKernelOpNames();
  for (size_t i = 1; i < names.size(); ++i)
    EXPECT_LT(names[i - 1].str(), names[i].str()) << "KernelOps.cpp's table";
  for (llvm::StringRef name : names) {
    EXPECT_TRUE(mlir::RegisteredOperationName::lookup(name, &context()))
        << name.str() << " is not an op of a registered dialect";
    EXPECT_TRUE(tile::isKernelOp(name));
  }
  EXPECT_FALSE(tile::isKernelOp("gpu.printf"));
}

/// The fp8 allow-list is sorted, holds kernel ops only, and decides: an op
/// off it with an fp8 value is refused, one on it is not.
TEST(KernelOps, Fp8OpsAreAnAllowList) {
  llvm::ArrayRef<llvm::StringLiteral> names = tile::getFp8OpNames();
  for (size_t i = 1; i < names.size(); ++i)
    EXPECT_LT(names[i - 1].str(), names[i].str()) << "KernelOps.cpp's kFp8Ops";
  for (llvm::StringRef name : names) {
    EXPECT_TRUE(tile::isKernelOp(name)) << name.str() << " is no kernel op";
    EXPECT_TRUE(tile::holdsFp8(name));
  }
  for (llvm::StringRef name : {"tile.reduce", "tile.atomic_rmw", "tile.print",
                               "arith.addf", "math.exp", "tile.histogram"})
    EXPECT_FALSE(tile::holdsFp8(name)) << name.str();
}

/// Philox.h is Philox 4x32-10: Random123's known answers (kat_vectors),
/// which Triton's tl.randint4x computes too (same rounds, same constants).
TEST(KernelOps, PhiloxMatchesRandom123KnownAnswers) {
  using W = std::array<uint32_t, 4>;
  EXPECT_EQ(tile::philox::philox({0, 0, 0, 0}, {0, 0}),
            (W{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(tile::philox::philox({~0u, ~0u, ~0u, ~0u}, {~0u, ~0u}),
            (W{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(tile::philox::philox({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
                                 {0xa4093822, 0x299f31d0}),
            (W{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
  // Offset 0 and seed 0 are that first counter and key.
  EXPECT_EQ(tile::philox::counter(0, false), (W{0, 0, 0, 0}));
  EXPECT_EQ(tile::philox::key(-1), (std::array<uint32_t, 2>{~0u, ~0u}));
  EXPECT_EQ(tile::philox::counter(~uint64_t(0), false), (W{~0u, 0, 0, 0}));
}

/// The interpreter's op handler table (its op families, and what its core
/// runs itself) holds exactly the table's ops, each once: an op added to
/// KernelOps.h without a handler, a handler of an op kernels may not
/// contain, or an op registered by two families fails here.
TEST(KernelOps, InterpreterHandlesExactlyTheTable) {
  llvm::ArrayRef<llvm::StringLiteral> allowed = tile::getKernelOpNames();
  std::vector<llvm::StringRef> interpreted = getInterpretedOpNames();
  std::set<std::string> allowedSet(allowed.begin(), allowed.end());
  std::set<std::string> interpretedSet;
  for (llvm::StringRef name : interpreted) {
    EXPECT_TRUE(interpretedSet.insert(name.str()).second)
        << name.str() << " has two handlers in the interpreter";
    EXPECT_TRUE(allowedSet.count(name.str()))
        << "the interpreter handles " << name.str()
        << ", which KernelOps.h does not list";
  }
  for (llvm::StringRef name : allowed)
    EXPECT_TRUE(interpretedSet.count(name.str()))
        << name.str() << " is in KernelOps.h but the interpreter has no handler";
  EXPECT_EQ(interpreted.size(), allowed.size());
}

/// Every tile dialect op is either in the table or refused with what to use
/// instead (ops of the pipeliner, short forms that tile-desugar writes out).
TEST(KernelOps, EveryTileOpIsAllowedOrHasAReplacement) {
  for (mlir::RegisteredOperationName op :
       context().getRegisteredOperations()) {
    if (op.getDialectNamespace() != "tile" || tile::isKernelOp(op.getStringRef()))
      continue;
    std::optional<std::string> why = tile::whyNotKernelOp(op.getStringRef());
    ASSERT_TRUE(why);
    EXPECT_TRUE(why->find("tile-software-pipeline") != std::string::npos ||
                why->find("tile-desugar") != std::string::npos)
        << *why;
  }
}

TEST(KernelOps, EveryTableOpHasAKernelThatUsesIt) {
  std::vector<OpCase> cases = makeCases();
  std::set<std::string> covered;
  for (auto [i, c] : llvm::enumerate(cases)) {
    for (const std::string &op : c.ops)
      covered.insert(op);
    if (c.kernel.empty())
      continue;
    std::string error;
    auto module = parseKernelSource(context(), kernelText(c, i), name(i), {}, error);
    ASSERT_TRUE(module) << error << "\n" << kernelText(c, i);
    std::set<std::string> present;
    module->walk([&](mlir::Operation *op) {
      present.insert(op->getName().getStringRef().str());
    });
    for (const std::string &op : c.ops)
      EXPECT_TRUE(present.count(op)) << name(i) << " does not use " << op;
    for (const std::string &op : present)
      EXPECT_TRUE(op == "builtin.module" || tile::isKernelOp(op))
          << name(i) << " uses " << op << ", which KernelOps.h does not list";
  }
  for (llvm::StringRef op : tile::getKernelOpNames())
    EXPECT_TRUE(covered.count(op.str())) << "no kernel here uses " << op.str();
}

TEST(KernelOps, EveryKernelRunsOnTheInterpreter) {
  std::vector<OpCase> cases = makeCases();
  for (auto [i, c] : llvm::enumerate(cases)) {
    if (c.kernel.empty())
      continue; // descriptor_load: see Semantics.DescriptorLoadsZeroFillPastTheTensor
    std::string error;
    auto module = parseKernelSource(context(), kernelText(c, i), name(i), {}, error);
    ASSERT_TRUE(module) << error;
    mlir::func::FuncOp kernel = findKernel(*module, "", error);
    ASSERT_TRUE(kernel) << error;
    std::vector<unsigned char> in(std::max<size_t>(1, c.input.size()) * 8);
    std::vector<unsigned char> out(c.expected.size() * 8, 0);
    for (size_t k = 0; k < c.input.size(); ++k)
      encodeElement(c.in, c.input[k], &in[k * elemTypeSize(c.in)]);
    Interpreter interp;
    ASSERT_FALSE(interp.addBuffer(in.data(), in.size(), "in"));
    ASSERT_FALSE(interp.addBuffer(out.data(), out.size(), "out"));
    KernelArgs args;
    args.addPointer(in.data());
    args.addPointer(out.data());
    auto result = interp.run(kernel, {1, 1, 1}, args.pointers());
    ASSERT_FALSE(result) << c.ops.front() << " (" << name(i) << "): " << *result;
    for (size_t k = 0; k < c.expected.size(); ++k) {
      double got = decodeElement(c.out, &out[k * elemTypeSize(c.out)]);
      EXPECT_TRUE(same(c.out, got, c.expected[k]))
          << c.ops.front() << " (" << name(i) << "), element " << k << ": got "
          << got << ", expected " << c.expected[k];
    }
  }
}

/// llkc lowers every kernel of the table's test to PTX (all in one module).
TEST(KernelOps, EveryKernelCompilesToPTX) {
  std::vector<OpCase> cases = makeCases();
  std::string source;
  for (auto [i, c] : llvm::enumerate(cases))
    if (c.notCompiled.empty())
      source += kernelText(c, i) + "\n";
  std::string error;
  auto module = parseKernelSource(context(), source, "op-cases.mlir", {}, error);
  ASSERT_TRUE(module) << error;
  CompileOptions options;
  options.target.libdevicePath = LLK_LIBDEVICE_PATH;
  std::string diagnostics, ptx;
  llvm::raw_string_ostream ptxStream(ptx);
  mlir::ScopedDiagnosticHandler handler(&context(), [&](mlir::Diagnostic &diag) {
    llvm::raw_string_ostream os(diagnostics);
    os << diag.getLocation() << ": " << diag << "\n";
    return mlir::success();
  });
  EXPECT_TRUE(mlir::succeeded(
      compileModule(*module, options, Stage::PTX, ptxStream)))
      << diagnostics;
  for (auto [i, c] : llvm::enumerate(cases))
    if (c.notCompiled.empty())
      EXPECT_NE(ptx.find(".entry " + name(i) + "("), std::string::npos)
          << name(i) << " (" << c.ops.front() << ") is missing from the PTX";
}

//===----------------------------------------------------------------------===//
// What the table refuses
//===----------------------------------------------------------------------===//

/// The compiler and the interpreter refuse an op outside the table with the
/// same message, at the op's location, naming the replacement.
TEST(KernelOps, RefusedOpsAreRefusedByBothWithTheReplacement) {
  struct Refused {
    std::string line, where, message;
  };
  for (const Refused &r : std::vector<Refused>{
           {"gpu.printf \"%d\\n\", %n : i32", "refused.mlir:4:3: ",
            "'gpu.printf' cannot be used in a kernel: use tile.print, which "
            "prints each element once, labelled with its program and index "
            "(compiled in with --device-debug or LLK_DEVICE_DEBUG=1)"},
           {"cf.assert %ok, \"n > 0\"", "refused.mlir:4:3: ",
            "'cf.assert' cannot be used in a kernel: use tile.assert (compiled "
            "in with --device-debug or LLK_DEVICE_DEBUG=1), or "
            "tile.static_assert for a condition on constants"},
           {"%b = gpu.block_id x", "refused.mlir:4:8: ",
            "'gpu.block_id' cannot be used in a kernel: use tile.program_id"},
           {"%f = arith.sitofp %n : i32 to f32\n"
            "  %h = arith.truncf %f toward_zero : f32 to f16",
            "refused.mlir:5:8: ",
            "'arith.truncf' with a rounding mode cannot be used in a kernel: "
            "use tile.cast with rounding = rtz, rdn or rup"}}) {
    std::string source = "func.func @k(%out: !tile.ptr<i32>, %n: i32) {\n"
                         "  %c0 = arith.constant 0 : i32\n"
                         "  %ok = arith.cmpi sgt, %n, %c0 : i32\n  " +
                         r.line + "\n  tile.store %n, %out : !tile.ptr<i32>\n"
                                  "  return\n}\n";
    std::string error;
    auto module = parseKernelSource(context(), source, "refused.mlir", {}, error);
    ASSERT_TRUE(module) << error;
    // The compiler, before any pass.
    std::string diagnostics;
    {
      mlir::ScopedDiagnosticHandler handler(&context(), [&](mlir::Diagnostic &diag) {
        llvm::raw_string_ostream os(diagnostics);
        auto file = llvm::cast<mlir::FileLineColLoc>(diag.getLocation());
        os << file.getFilename().getValue() << ":" << file.getLine() << ":"
           << file.getColumn() << ": " << diag << "\n";
        return mlir::success();
      });
      std::string ignored;
      llvm::raw_string_ostream os(ignored);
      EXPECT_TRUE(mlir::failed(compileModule(*module, {}, Stage::Tile, os)));
    }
    EXPECT_EQ(diagnostics, r.where + r.message + "\n");
    // The interpreter, at launch.
    mlir::func::FuncOp kernel = findKernel(*module, "", error);
    int32_t out = 0;
    Interpreter interp;
    ASSERT_FALSE(interp.addBuffer(&out, 4, "out"));
    KernelArgs args;
    args.addPointer(&out);
    args.add<int32_t>(1);
    auto result = interp.run(kernel, {1, 1, 1}, args.pointers());
    ASSERT_TRUE(result);
    EXPECT_EQ(*result, r.where + r.message);
    EXPECT_EQ(out, 0);
  }
}

} // namespace
