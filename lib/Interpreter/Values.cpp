//===- Values.cpp - the interpreter's element encoding --------------------===//

#include "Values.h"

#include "llk/Dialect/Tile/IR/DeviceDebug.h"
#include "llk/Dialect/Tile/IR/TileDialect.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>

using namespace mlir;
using namespace llk;
using namespace llk::interp::detail;
using llvm::APFloat;
using llvm::RoundingMode;

ElemInfo llk::interp::detail::infoOf(Type elem) {
  ElemInfo info{};
  if (auto ptr = dyn_cast<tile::PtrType>(elem)) {
    info.kind = ElemInfo::Ptr;
    info.bits = 64;
    info.pointee = ptr.getPointeeType();
    info.pointeeBytes = (info.pointee.getIntOrFloatBitWidth() + 7) / 8;
  } else if (elem.isIndex()) {
    info.kind = ElemInfo::Int;
    info.bits = 64;
  } else if (auto ft = dyn_cast<FloatType>(elem)) {
    info.kind = ElemInfo::Float;
    info.bits = ft.getWidth();
    info.floatKind = elem.isF16()                   ? FloatKind::F16
                     : elem.isBF16()                ? FloatKind::BF16
                     : elem.isF32()                 ? FloatKind::F32
                     : isa<Float8E4M3FNType>(elem)  ? FloatKind::F8E4M3FN
                     : isa<Float8E5M2Type>(elem)    ? FloatKind::F8E5M2
                                                    : FloatKind::F64;
  } else {
    info.kind = ElemInfo::Int;
    info.bits = elem.getIntOrFloatBitWidth();
  }
  return info;
}

bool llk::interp::detail::isSupportedElement(Type elem) {
  if (isa<tile::PtrType>(elem) || elem.isIndex())
    return true;
  if (isa<FloatType>(elem))
    return elem.isF16() || elem.isBF16() || elem.isF32() || elem.isF64() ||
           isa<Float8E4M3FNType, Float8E5M2Type>(elem);
  if (auto it = dyn_cast<IntegerType>(elem))
    return it.getWidth() <= 64;
  return false;
}

const llvm::fltSemantics &llk::interp::detail::semanticsOf(FloatKind kind) {
  switch (kind) {
  case FloatKind::F16: return APFloat::IEEEhalf();
  case FloatKind::BF16: return APFloat::BFloat();
  case FloatKind::F32: return APFloat::IEEEsingle();
  case FloatKind::F64: return APFloat::IEEEdouble();
  case FloatKind::F8E4M3FN: return APFloat::Float8E4M3FN();
  case FloatKind::F8E5M2: return APFloat::Float8E5M2();
  }
  llvm_unreachable("float kind");
}

/// An fp8 NaN as a double: the byte in the payload's low bits, so that a
/// loaded NaN stores back unchanged (the GPU moves bytes as they are).
static double fp8NaN(uint8_t byte) {
  uint64_t d = uint64_t(byte >> 7) << 63 | uint64_t(0x7ff) << 52 |
               uint64_t(1) << 51 | (byte & 0x7f);
  double nan;
  std::memcpy(&nan, &d, 8);
  return nan;
}

/// The byte of an fp8 NaN made by fp8NaN, or the canonical NaN 0x7f.
static uint8_t fp8NaNByte(FloatKind kind, double x) {
  uint64_t d;
  std::memcpy(&d, &x, 8);
  uint8_t byte = uint8_t((d >> 63) << 7 | (d & 0x7f));
  bool isNaN = kind == FloatKind::F8E4M3FN ? (byte & 0x7f) == 0x7f
                                           : (byte & 0x7f) > 0x7c;
  return isNaN ? byte : 0x7f;
}

double llk::interp::detail::roundToFp8(FloatKind kind, double x) {
  if (std::isnan(x))
    return fp8NaN(0x7f);
  APFloat value(x);
  bool losesInfo;
  APFloat::opStatus status = value.convert(
      semanticsOf(kind), RoundingMode::NearestTiesToEven, &losesInfo);
  // Saturate what overflowed (e4m3fn, which has no infinities, gives a NaN
  // there; e5m2 an infinity) and the infinities themselves (which e4m3fn
  // converts to a NaN without an overflow).
  if (std::isinf(x) || (status & APFloat::opOverflow))
    value = APFloat::getLargest(semanticsOf(kind), /*Negative=*/std::signbit(x));
  value.convert(APFloat::IEEEdouble(), RoundingMode::NearestTiesToEven,
                &losesInfo); // exact
  return value.convertToDouble();
}

static float halfToFloat(uint16_t h) {
  uint32_t sign = (h >> 15) & 1, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  float magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);
  } else if (exponent == 31) {
    uint32_t bits = 0x7f800000u | (mantissa << 13);
    std::memcpy(&magnitude, &bits, 4);
  } else {
    uint32_t bits = ((exponent + 112) << 23) | (mantissa << 13);
    std::memcpy(&magnitude, &bits, 4);
  }
  return sign ? -magnitude : magnitude;
}

namespace {
/// Where a float kind's NaN payload lies in its bits.
struct NaNLayout {
  unsigned width, mantissa;
};
} // namespace

static NaNLayout nanLayout(FloatKind kind) {
  switch (kind) {
  case FloatKind::F16: return {16, 10};
  case FloatKind::BF16: return {16, 7};
  case FloatKind::F32: return {32, 23};
  case FloatKind::F64: return {64, 52};
  case FloatKind::F8E4M3FN: case FloatKind::F8E5M2: break; // no such layout
  }
  llvm_unreachable("float kind");
}

uint64_t llk::interp::detail::floatBits(FloatKind kind, double x) {
  if (isFp8(kind) && std::isnan(x))
    return fp8NaNByte(kind, x);
  if (kind != FloatKind::F64 && std::isnan(x)) {
    auto [width, mantissa] = nanLayout(kind);
    uint64_t d;
    std::memcpy(&d, &x, 8);
    uint64_t payload = (d & ((uint64_t(1) << 52) - 1)) >> (52 - mantissa);
    if (payload == 0) // only low payload bits: still a NaN
      payload = uint64_t(1) << (mantissa - 1);
    uint64_t exponent = ((uint64_t(1) << (width - 1 - mantissa)) - 1) << mantissa;
    return (d >> 63) << (width - 1) | exponent | payload;
  }
  switch (kind) {
  case FloatKind::F64: {
    uint64_t bits;
    std::memcpy(&bits, &x, 8);
    return bits;
  }
  case FloatKind::F32: {
    float f = static_cast<float>(x);
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return bits;
  }
  default: {
    APFloat value(x);
    bool losesInfo;
    value.convert(semanticsOf(kind), RoundingMode::NearestTiesToEven, &losesInfo);
    return value.bitcastToAPInt().getZExtValue();
  }
  }
}

double llk::interp::detail::floatFromBits(FloatKind kind, uint64_t bits) {
  if (isFp8(kind)) {
    APFloat value(semanticsOf(kind), llvm::APInt(8, bits & 0xff));
    if (value.isNaN())
      return fp8NaN(uint8_t(bits));
    bool losesInfo;
    value.convert(APFloat::IEEEdouble(), RoundingMode::NearestTiesToEven,
                  &losesInfo); // exact
    return value.convertToDouble();
  }
  if (kind != FloatKind::F64) {
    auto [width, mantissa] = nanLayout(kind);
    uint64_t exponent = ((uint64_t(1) << (width - 1 - mantissa)) - 1) << mantissa;
    uint64_t payload = bits & ((uint64_t(1) << mantissa) - 1);
    if ((bits & exponent) == exponent && payload) {
      uint64_t d = ((bits >> (width - 1)) & 1) << 63 | uint64_t(0x7ff) << 52 |
                   payload << (52 - mantissa);
      double nan;
      std::memcpy(&nan, &d, 8);
      return nan;
    }
  }
  switch (kind) {
  case FloatKind::F64: {
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
  case FloatKind::F32: {
    uint32_t b = static_cast<uint32_t>(bits);
    float f;
    std::memcpy(&f, &b, 4);
    return f;
  }
  case FloatKind::F16:
    return halfToFloat(static_cast<uint16_t>(bits));
  case FloatKind::BF16: {
    uint32_t b = static_cast<uint32_t>(bits & 0xffff) << 16;
    float f;
    std::memcpy(&f, &b, 4);
    return f;
  }
  case FloatKind::F8E4M3FN: case FloatKind::F8E5M2: break; // above
  }
  llvm_unreachable("float kind");
}

int64_t llk::interp::detail::saturateToInt(double x, unsigned bits,
                                           bool isUnsigned) {
  if (std::isnan(x))
    return 0;
  if (isUnsigned) {
    double max = std::ldexp(1.0, bits) - 1;
    if (x <= 0)
      return 0;
    if (x >= max)
      return wrapInt(bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1, bits);
    return wrapInt(static_cast<uint64_t>(x), bits);
  }
  double min = -std::ldexp(1.0, bits - 1);
  double max = std::ldexp(1.0, bits - 1); // exclusive
  if (x <= min)
    return bits >= 64 ? std::numeric_limits<int64_t>::min()
                      : -(int64_t(1) << (bits - 1));
  if (x >= max)
    return bits >= 64 ? std::numeric_limits<int64_t>::max()
                      : (int64_t(1) << (bits - 1)) - 1;
  return static_cast<int64_t>(x);
}

std::string llk::interp::detail::formatIndex(ArrayRef<int64_t> shape,
                                             size_t flat) {
  llvm::SmallVector<int64_t, 4> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = flat % shape[d];
    flat /= shape[d];
  }
  std::string text = "[";
  for (size_t d = 0; d < index.size(); ++d)
    text += (d ? ", " : "") + std::to_string(index[d]);
  return text + "]";
}

std::string llk::interp::detail::formatLocation(Location loc) {
  return tile::locationText(loc);
}

std::string llk::interp::detail::hex(uint64_t value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format_hex(value, 2);
  return text;
}
