//===- DotOps.cpp - tile.dot ----------------------------------------------===//
//
// As the tensor cores compute it: i8 products summed into the i32
// accumulator (wrapping); f16, bf16 and f32 products (f32 rounded to tf32
// unless the precision is ieee) summed into the f32 accumulator with fma,
// in k order.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

using namespace mlir;
using namespace llk;
using namespace llk::interp::detail;

namespace {

/// Rounds an f32 to tf32 (10 mantissa bits), to nearest with ties away from
/// zero, as cvt.rna.tf32.f32 does.
float toTF32(float x) {
  if (!std::isfinite(x))
    return x;
  uint32_t bits;
  std::memcpy(&bits, &x, 4);
  bits = (bits + 0x1000u) & 0xffffe000u;
  float r;
  std::memcpy(&r, &bits, 4);
  return r;
}

bool dot(Executor &ex, tile::DotOp op) {
  const Tile &a = ex.get(op.getA()), &b = ex.get(op.getB()),
             &acc = ex.get(op.getAcc());
  Type elemA = op.getA().getType().getElementType();
  int64_t m = a.shape[0], k = a.shape[1], n = b.shape[1];
  Tile out = Executor::makeTile(op.getType());
  if (elemA.isInteger(8)) {
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        uint64_t sum = static_cast<uint64_t>(acc.data[i * n + j].i);
        for (int64_t p = 0; p < k; ++p)
          sum += static_cast<uint64_t>(a.data[i * k + p].i * b.data[p * n + j].i);
        out.data[i * n + j].i = wrapInt(sum, 32);
      }
  } else {
    bool tf32 = elemA.isF32() &&
                op.getPrecision().value_or(tile::DotPrecision::TF32) ==
                    tile::DotPrecision::TF32;
    auto input = [&](double x) {
      return tf32 ? toTF32(static_cast<float>(x)) : static_cast<float>(x);
    };
    // Products of f16, bf16 and tf32 values are exact in f32; the sum is
    // accumulated in f32, in k order.
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        float sum = static_cast<float>(acc.data[i * n + j].f);
        for (int64_t p = 0; p < k; ++p)
          sum = std::fma(input(a.data[i * k + p].f), input(b.data[p * n + j].f), sum);
        out.data[i * n + j].f = sum;
      }
  }
  ex.set(op.getResult(), std::move(out));
  return true;
}

} // namespace

void llk::interp::detail::registerDotOps(OpHandlerTable &table) {
  table.add<dot>();
}
