//===- CastOps.cpp - conversions between element types --------------------===//
//
// tile.cast and tile.bitcast, and arith's extensions, truncations,
// int/float conversions and bitcast. Float-to-integer conversions saturate
// (NaN to 0), as PTX's cvt does; float roundings are to nearest even unless
// tile.cast names a mode.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace llk;
using namespace llk::interp::detail;
using llvm::APFloat;
using llvm::APInt;
using llvm::RoundingMode;

namespace {

double roundIntegral(double x, tile::RoundingMode mode) {
  switch (mode) {
  case tile::RoundingMode::RTZ: return std::trunc(x);
  case tile::RoundingMode::RNE: return std::nearbyint(x); // default FE mode
  case tile::RoundingMode::RDN: return std::floor(x);
  case tile::RoundingMode::RUP: return std::ceil(x);
  }
  return x;
}

RoundingMode apfloatMode(tile::RoundingMode mode) {
  switch (mode) {
  case tile::RoundingMode::RNE: return RoundingMode::NearestTiesToEven;
  case tile::RoundingMode::RTZ: return RoundingMode::TowardZero;
  case tile::RoundingMode::RDN: return RoundingMode::TowardNegative;
  case tile::RoundingMode::RUP: return RoundingMode::TowardPositive;
  }
  return RoundingMode::NearestTiesToEven;
}

/// Signed (or unsigned) `bits`-bit integer to the float type `kind`, rounded
/// to nearest even once.
double intToFloat(int64_t value, unsigned bits, bool isUnsigned, FloatKind kind) {
  if (isUnsigned) {
    uint64_t u = zextInt(value, bits);
    if (kind == FloatKind::F64)
      return static_cast<double>(u);
    if (kind == FloatKind::F32)
      return static_cast<float>(u);
  } else {
    if (kind == FloatKind::F64)
      return static_cast<double>(value);
    if (kind == FloatKind::F32)
      return static_cast<float>(value);
  }
  APFloat result(semanticsOf(kind));
  result.convertFromAPInt(APInt(64, isUnsigned ? zextInt(value, bits)
                                               : static_cast<uint64_t>(value)),
                          !isUnsigned, RoundingMode::NearestTiesToEven);
  bool losesInfo;
  result.convert(APFloat::IEEEdouble(), RoundingMode::NearestTiesToEven, &losesInfo);
  return result.convertToDouble();
}

ElemInfo operandInfo(Operation *op) {
  return infoOf(elementTypeOf(op->getOperand(0).getType()));
}
ElemInfo resultInfo(Operation *op) {
  return infoOf(elementTypeOf(op->getResult(0).getType()));
}

/// Elementwise conversion with `f(Elem) -> Elem`.
template <typename F> bool convert(Executor &ex, Operation *op, F f) {
  const Tile &a = ex.get(op->getOperand(0));
  Tile out = Executor::makeTile(op->getResult(0).getType());
  for (size_t i = 0; i < out.size(); ++i)
    out.data[i] = f(a.data[i]);
  ex.set(op->getResult(0), std::move(out));
  return true;
}

/// tile.cast, as its description says.
bool tileCast(Executor &ex, tile::CastOp op) {
  Type srcType = elementTypeOf(op.getSrc().getType());
  Type dstType = elementTypeOf(op.getType());
  ElemInfo src = infoOf(srcType), dst = infoOf(dstType);
  bool srcFloat = src.kind == ElemInfo::Float, dstFloat = dst.kind == ElemInfo::Float;
  std::optional<tile::RoundingMode> rounding = op.getRounding();
  // The identity, as the folder makes it: every bit kept, NaN payloads too.
  if (srcType == dstType)
    return convert(ex, op, [](Elem x) { return x; });
  if (dstType.isInteger(1))
    return convert(ex, op, [&](Elem x) {
      Elem e;
      e.i = (srcFloat ? x.f != 0 : x.i != 0) ? -1 : 0; // NaN != 0
      return e;
    });
  if (srcFloat && dstFloat) {
    RoundingMode mode = apfloatMode(rounding.value_or(tile::RoundingMode::RNE));
    // fp8 widens through f16, as cvt.rn.f16x2.e4m3x2 does: a NaN becomes
    // f16's canonical NaN (0x7fff), whatever its sign.
    double fp8NaN = floatFromBits(FloatKind::F16, 0x7fff);
    bool fromFp8 = isFp8(src.floatKind);
    return convert(ex, op, [&](Elem x) {
      Elem e;
      if (fromFp8 && std::isnan(x.f))
        x.f = fp8NaN;
      e.f = roundFloat(dst.floatKind, x.f, mode); // widening is exact
      return e;
    });
  }
  if (srcFloat) {
    tile::RoundingMode mode = rounding.value_or(tile::RoundingMode::RTZ);
    return convert(ex, op, [&](Elem x) {
      Elem e;
      e.i = saturateToInt(roundIntegral(x.f, mode), dst.bits, false);
      return e;
    });
  }
  bool srcBool = srcType.isInteger(1);
  if (dstFloat)
    return convert(ex, op, [&](Elem x) {
      Elem e;
      e.f = srcBool ? (x.i ? 1.0 : 0.0)
                    : intToFloat(x.i, src.bits, false, dst.floatKind);
      return e;
    });
  return convert(ex, op, [&](Elem x) {
    Elem e;
    e.i = wrapInt(srcBool ? zextInt(x.i, 1) : static_cast<uint64_t>(x.i), dst.bits);
    return e;
  });
}

/// tile.bitcast and arith.bitcast: the same bits, read as the result type.
bool bitcast(Executor &ex, Operation *op) {
  ElemInfo src = operandInfo(op), dst = resultInfo(op);
  return convert(ex, op, [&](Elem x) { return elemFromBits(dst, elemBits(src, x)); });
}

bool truncInt(Executor &ex, arith::TruncIOp op) {
  unsigned srcBits = operandInfo(op).bits, bits = resultInfo(op).bits;
  bool nsw = op.hasNoSignedWrap(), nuw = op.hasNoUnsignedWrap();
  const Tile &a = ex.get(op.getIn());
  for (size_t i = 0; i < a.size(); ++i) {
    int64_t x = a.data[i].i;
    if ((nsw && wrapInt(static_cast<uint64_t>(x), bits) != x) ||
        (nuw && zextInt(x, srcBits) != zextInt(x, bits)))
      return ex.fail(op, std::string("'arith.trunci' gives poison (") +
                             (nsw ? "nsw" : "nuw") + ", but " +
                             std::to_string(x) + " does not fit) in " +
                             ex.program() + Executor::atElement(a.shape, i));
  }
  return convert(ex, op, [bits](Elem x) {
    x.i = wrapInt(static_cast<uint64_t>(x.i), bits);
    return x;
  });
}

/// extsi, index_cast. Operands are sign-extended already: extending keeps
/// the value, truncating wraps it to the result's width.
bool signExtend(Executor &ex, Operation *op) {
  unsigned bits = resultInfo(op).bits;
  return convert(ex, op, [bits](Elem x) {
    x.i = wrapInt(static_cast<uint64_t>(x.i), bits);
    return x;
  });
}

/// extui, index_castui.
bool zeroExtend(Executor &ex, Operation *op) {
  unsigned srcBits = operandInfo(op).bits, bits = resultInfo(op).bits;
  return convert(ex, op, [=](Elem x) {
    x.i = wrapInt(zextInt(x.i, srcBits), bits);
    return x;
  });
}

/// sitofp, uitofp.
bool intToFloatOp(Executor &ex, Operation *op) {
  unsigned srcBits = operandInfo(op).bits;
  FloatKind kind = resultInfo(op).floatKind;
  bool isUnsigned = isa<arith::UIToFPOp>(op);
  return convert(ex, op, [=](Elem x) {
    Elem e;
    e.f = intToFloat(x.i, srcBits, isUnsigned, kind);
    return e;
  });
}

/// fptosi, fptoui: toward zero, saturating.
bool floatToIntOp(Executor &ex, Operation *op) {
  unsigned bits = resultInfo(op).bits;
  bool isUnsigned = isa<arith::FPToUIOp>(op);
  return convert(ex, op, [=](Elem x) {
    Elem e;
    e.i = saturateToInt(std::trunc(x.f), bits, isUnsigned);
    return e;
  });
}

/// To nearest even (KernelOps.h refuses rounding modes).
bool truncFloat(Executor &ex, arith::TruncFOp op) {
  FloatKind kind = resultInfo(op).floatKind;
  return convert(ex, op, [=](Elem x) {
    x.f = roundFloat(kind, x.f);
    return x;
  });
}

} // namespace

void llk::interp::detail::registerCastOps(OpHandlerTable &table) {
  using namespace arith;
  table.add<tileCast>();
  table.add<tile::BitcastOp, arith::BitcastOp>(bitcast);
  table.add<truncInt>();
  table.add<ExtSIOp, IndexCastOp>(signExtend);
  table.add<ExtUIOp, IndexCastUIOp>(zeroExtend);
  table.add<SIToFPOp, UIToFPOp>(intToFloatOp);
  table.add<FPToSIOp, FPToUIOp>(floatToIntOp);
  table.add<ExtFOp>([](Executor &ex, Operation *op) { // exact
    return convert(ex, op, [](Elem x) { return x; });
  });
  table.add<truncFloat>();
}
