//===- Values.h - the interpreter's values and their elements ---*- C++ -*-===//
//
// Values are dense row-major arrays of 8-byte elements: integers and
// pointers as int64 (integers sign-extended from their bit width, so i1 true
// is -1, as in LLVM), floats as the double holding their exact value (an f32,
// f16 or bf16 value is always representable). Every float op computes in the
// precision of its type (f32 and narrower in float, f64 in double) and rounds
// the result to the type, to nearest even.
//
// What every op family shares: the element encoding (bits to and from
// elements, rounding, wrapping) and the pieces of error messages. The helpers
// that the per-element loops call are defined here, inline.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_LIB_INTERPRETER_VALUES_H
#define LLK_LIB_INTERPRETER_VALUES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SmallVector.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace llk::interp::detail {

union Elem {
  int64_t i;
  double f;
};

/// A scalar (empty shape, one element) or a tile.
struct Tile {
  llvm::SmallVector<int64_t, 2> shape;
  std::vector<Elem> data;
  size_t size() const { return data.size(); }
};

enum class FloatKind { F16, BF16, F32, F64, F8E4M3FN, F8E5M2 };

inline bool isFp8(FloatKind kind) {
  return kind == FloatKind::F8E4M3FN || kind == FloatKind::F8E5M2;
}

/// What an element type is, as the interpreter computes with it.
struct ElemInfo {
  enum { Int, Float, Ptr } kind;
  unsigned bits;          // integer width; float width; 64 for pointers
  FloatKind floatKind;    // floats
  unsigned pointeeBytes;  // pointers: bytes per element pointed to
  mlir::Type pointee;     // pointers: the pointee type
};

inline mlir::Type elementTypeOf(mlir::Type type) {
  if (auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type))
    return tensor.getElementType();
  return type;
}

ElemInfo infoOf(mlir::Type elem);

/// Whether the interpreter computes with elements of type `elem`.
bool isSupportedElement(mlir::Type elem);

/// `value` wrapped to `bits` bits and sign-extended (two's complement).
inline int64_t wrapInt(uint64_t value, unsigned bits) {
  if (bits >= 64)
    return static_cast<int64_t>(value);
  uint64_t shift = 64 - bits;
  return static_cast<int64_t>(value << shift) >> shift;
}

/// `value` (a `bits`-bit integer) zero-extended.
inline uint64_t zextInt(int64_t value, unsigned bits) {
  if (bits >= 64)
    return static_cast<uint64_t>(value);
  return static_cast<uint64_t>(value) & ((uint64_t(1) << bits) - 1);
}

const llvm::fltSemantics &semanticsOf(FloatKind kind);

/// `x` rounded to the fp8 type `kind` to nearest even with saturation, as
/// PTX's cvt.rn.satfinite does: a value (infinities included) that rounds
/// past the largest finite one gives that value, with x's sign; a NaN gives
/// the canonical NaN (0x7f), whatever its sign.
double roundToFp8(FloatKind kind, double x);

/// `x` rounded to the float type `kind` in mode `mode`, as a double (fp8:
/// roundToFp8, to nearest even only).
inline double roundFloat(FloatKind kind, double x,
                         llvm::RoundingMode mode =
                             llvm::RoundingMode::NearestTiesToEven) {
  if (kind == FloatKind::F64)
    return x;
  if (isFp8(kind))
    return roundToFp8(kind, x);
  if (kind == FloatKind::F32 && mode == llvm::RoundingMode::NearestTiesToEven)
    return static_cast<double>(static_cast<float>(x));
  llvm::APFloat value(x);
  bool losesInfo;
  value.convert(semanticsOf(kind), mode, &losesInfo);
  value.convert(llvm::APFloat::IEEEdouble(),
                llvm::RoundingMode::NearestTiesToEven, &losesInfo); // exact
  return value.convertToDouble();
}

/// Bits of `x` (already a value of `kind`, or rounded to nearest even). A
/// NaN keeps its sign, quiet bit and payload (its high bits), as the GPU's
/// moves keep every bit: a float-to-double conversion would quiet a
/// signaling NaN.
uint64_t floatBits(FloatKind kind, double x);
/// The value of the `kind` float with bits `bits`, NaN payloads kept.
double floatFromBits(FloatKind kind, uint64_t bits);

/// The raw bits (zero-extended) of an element of type `info`.
inline uint64_t elemBits(const ElemInfo &info, Elem e) {
  if (info.kind == ElemInfo::Float)
    return floatBits(info.floatKind, e.f);
  return zextInt(e.i, info.bits);
}

inline Elem elemFromBits(const ElemInfo &info, uint64_t bits) {
  Elem e;
  if (info.kind == ElemInfo::Float)
    e.f = floatFromBits(info.floatKind, bits);
  else
    e.i = wrapInt(bits, info.bits);
  return e;
}

/// max.f32 / min.f32 as PTX defines them: a NaN operand is ignored, and
/// -0 < +0 (C's fmax and fmin may return either zero).
template <typename T> T maxNum(T x, T y) {
  if (x == y)
    return std::signbit(x) ? y : x;
  return std::fmax(x, y);
}
template <typename T> T minNum(T x, T y) {
  if (x == y)
    return std::signbit(x) ? x : y;
  return std::fmin(x, y);
}

/// Float to a `bits`-bit signed integer as PTX cvt.*i does: NaN to 0, values
/// out of range saturate. `x` is already rounded to an integral value.
int64_t saturateToInt(double x, unsigned bits, bool isUnsigned);

//===----------------------------------------------------------------------===//
// Pieces of messages
//===----------------------------------------------------------------------===//

/// "[i, j]": the index of the element at row-major position `flat`.
std::string formatIndex(llvm::ArrayRef<int64_t> shape, size_t flat);
/// file:line:col where `loc` has one, else the location as MLIR prints it.
std::string formatLocation(mlir::Location loc);
std::string hex(uint64_t value);

} // namespace llk::interp::detail

#endif // LLK_LIB_INTERPRETER_VALUES_H
