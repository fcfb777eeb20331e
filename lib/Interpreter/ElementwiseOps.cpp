//===- ElementwiseOps.cpp - arith and math, element by element ------------===//
//
// Integers wrap to their width, and an op whose result MLIR defines as
// poison for its operands (a shift by the width, a broken nsw/nuw/exact
// promise) or that is undefined (division by zero) stops the run: the
// compiled kernel's LLVM may assume it never happens. Floats compute in
// their type's precision (Values.h), math ops through the C library.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/bit.h"

#include <limits>
#include <optional>

using namespace mlir;
using namespace llk;
using namespace llk::interp::detail;
using llvm::APFloat;
using llvm::APInt;
using llvm::RoundingMode;

namespace {

//===----------------------------------------------------------------------===//
// Floats
//===----------------------------------------------------------------------===//

/// Applies `f` elementwise in the precision of `kind`: `f` is called with
/// float arguments for f32, f16 and bf16 (the result rounded to the type)
/// and double for f64.
template <typename F>
void floatMap(FloatKind kind, Tile &out, F f,
              std::initializer_list<const Tile *> ins) {
  const Tile *a = ins.begin()[0];
  const Tile *b = ins.size() > 1 ? ins.begin()[1] : a;
  const Tile *c = ins.size() > 2 ? ins.begin()[2] : a;
  size_t n = out.size();
  // A scalar operand (e.g. a select's condition) is not needed here; all
  // operands have the result's shape.
  if (kind == FloatKind::F64) {
    for (size_t i = 0; i < n; ++i)
      out.data[i].f = f(a->data[i].f, b->data[i].f, c->data[i].f);
  } else if (kind == FloatKind::F32) {
    for (size_t i = 0; i < n; ++i)
      out.data[i].f = f(static_cast<float>(a->data[i].f),
                        static_cast<float>(b->data[i].f),
                        static_cast<float>(c->data[i].f));
  } else {
    for (size_t i = 0; i < n; ++i)
      out.data[i].f = roundFloat(kind, f(static_cast<float>(a->data[i].f),
                                         static_cast<float>(b->data[i].f),
                                         static_cast<float>(c->data[i].f)));
  }
}

FloatKind resultFloatKind(Operation *op) {
  return infoOf(elementTypeOf(op->getResult(0).getType())).floatKind;
}

template <typename F> bool floatUnary(Executor &ex, Operation *op, F f) {
  const Tile &a = ex.get(op->getOperand(0));
  Tile out = Executor::makeTile(op->getResult(0).getType());
  floatMap(resultFloatKind(op), out, [&](auto x, auto, auto) { return f(x); },
           {&a});
  ex.set(op->getResult(0), std::move(out));
  return true;
}

template <typename F> bool floatBinary(Executor &ex, Operation *op, F f) {
  const Tile &a = ex.get(op->getOperand(0)), &b = ex.get(op->getOperand(1));
  Tile out = Executor::makeTile(op->getResult(0).getType());
  floatMap(resultFloatKind(op), out,
           [&](auto x, auto y, auto) { return f(x, y); }, {&a, &b});
  ex.set(op->getResult(0), std::move(out));
  return true;
}

/// f32 exp2 as the GPU runs it (ex2.approx.ftz.f32): results below the
/// smallest normal flushed to zero. Other types as libdevice: no flush.
bool exponent2(Executor &ex, math::Exp2Op op) {
  if (elementTypeOf(op.getType()).isF32())
    return floatUnary(ex, op, [](auto x) {
      auto r = std::exp2(x);
      return std::fabs(r) < std::numeric_limits<float>::min() ? decltype(r)(0) : r;
    });
  return floatUnary(ex, op, [](auto x) { return std::exp2(x); });
}

bool fusedMultiplyAdd(Executor &ex, math::FmaOp op) {
  const Tile &a = ex.get(op.getA()), &b = ex.get(op.getB()),
             &c = ex.get(op.getC());
  Tile out = Executor::makeTile(op.getType());
  floatMap(resultFloatKind(op), out,
           [](auto x, auto y, auto z) { return std::fma(x, y, z); },
           {&a, &b, &c});
  ex.set(op.getResult(), std::move(out));
  return true;
}

/// math.isfinite / isinf / isnan.
template <typename F> bool classify(Executor &ex, Operation *op, F f) {
  const Tile &a = ex.get(op->getOperand(0));
  Tile out = Executor::makeTile(op->getResult(0).getType());
  for (size_t i = 0; i < out.size(); ++i)
    out.data[i].i = f(a.data[i].f) ? -1 : 0;
  ex.set(op->getResult(0), std::move(out));
  return true;
}

/// math.fpowi: a float to an integer power, in the float's precision.
bool powi(Executor &ex, math::FPowIOp op) {
  const Tile &a = ex.get(op.getLhs()), &n = ex.get(op.getRhs());
  FloatKind kind = infoOf(elementTypeOf(op.getType())).floatKind;
  Tile out = Executor::makeTile(op.getType());
  for (size_t i = 0; i < out.size(); ++i)
    out.data[i].f =
        kind == FloatKind::F64
            ? std::pow(a.data[i].f, static_cast<double>(n.data[i].i))
            : roundFloat(kind, std::pow(static_cast<float>(a.data[i].f),
                                        static_cast<float>(n.data[i].i)));
  ex.set(op.getResult(), std::move(out));
  return true;
}

bool compareFloats(Executor &ex, arith::CmpFOp op) {
  const Tile &a = ex.get(op.getLhs()), &b = ex.get(op.getRhs());
  Tile out = Executor::makeTile(op.getType());
  using P = arith::CmpFPredicate;
  P pred = op.getPredicate();
  for (size_t i = 0; i < out.size(); ++i) {
    double x = a.data[i].f, y = b.data[i].f;
    bool unordered = std::isnan(x) || std::isnan(y);
    bool r = false;
    switch (pred) {
    case P::AlwaysFalse: r = false; break;
    case P::OEQ: r = !unordered && x == y; break;
    case P::OGT: r = !unordered && x > y; break;
    case P::OGE: r = !unordered && x >= y; break;
    case P::OLT: r = !unordered && x < y; break;
    case P::OLE: r = !unordered && x <= y; break;
    case P::ONE: r = !unordered && x != y; break;
    case P::ORD: r = !unordered; break;
    case P::UEQ: r = unordered || x == y; break;
    case P::UGT: r = unordered || x > y; break;
    case P::UGE: r = unordered || x >= y; break;
    case P::ULT: r = unordered || x < y; break;
    case P::ULE: r = unordered || x <= y; break;
    case P::UNE: r = unordered || x != y; break;
    case P::UNO: r = unordered; break;
    case P::AlwaysTrue: r = true; break;
    }
    out.data[i].i = r ? -1 : 0;
  }
  ex.set(op.getResult(), std::move(out));
  return true;
}

//===----------------------------------------------------------------------===//
// Integers
//===----------------------------------------------------------------------===//

unsigned resultBits(Operation *op) {
  return infoOf(elementTypeOf(op->getResult(0).getType())).bits;
}

/// `f(x, y, bits)` on sign-extended operands; the result is wrapped.
template <typename F> bool intBinary(Executor &ex, Operation *op, F f) {
  const Tile &a = ex.get(op->getOperand(0)), &b = ex.get(op->getOperand(1));
  unsigned bits = resultBits(op);
  Tile out = Executor::makeTile(op->getResult(0).getType());
  for (size_t i = 0; i < out.size(); ++i)
    out.data[i].i = wrapInt(f(a.data[i].i, b.data[i].i, bits), bits);
  ex.set(op->getResult(0), std::move(out));
  return true;
}

template <typename F> bool intUnary(Executor &ex, Operation *op, F f) {
  const Tile &a = ex.get(op->getOperand(0));
  unsigned bits = resultBits(op);
  Tile out = Executor::makeTile(op->getResult(0).getType());
  for (size_t i = 0; i < out.size(); ++i)
    out.data[i].i = wrapInt(f(a.data[i].i, bits), bits);
  ex.set(op->getResult(0), std::move(out));
  return true;
}

/// An integer op whose result MLIR defines as poison for some operands
/// (shifts by the width or more; nsw, nuw and exact promises broken): the
/// compiled kernel's LLVM may assume that never happens, so here it stops
/// the run. `f(x, y, bits)` gives the result (x and y sign-extended) or,
/// for poison, nothing and `why`.
template <typename F> bool intBinaryOrPoison(Executor &ex, Operation *op, F f) {
  const Tile &a = ex.get(op->getOperand(0)), &b = ex.get(op->getOperand(1));
  unsigned bits = resultBits(op);
  Tile out = Executor::makeTile(op->getResult(0).getType());
  std::string why;
  for (size_t i = 0; i < out.size(); ++i) {
    std::optional<uint64_t> r = f(a.data[i].i, b.data[i].i, bits, why);
    if (!r)
      return ex.fail(op, "'" + op->getName().getStringRef() + "' gives poison " +
                             why + " in " + ex.program() +
                             Executor::atElement(out.shape, i));
    out.data[i].i = wrapInt(*r, bits);
  }
  ex.set(op->getResult(0), std::move(out));
  return true;
}

enum class ArithKind { Add, Sub, Mul };

/// addi, subi, muli: wrapping, unless nsw / nuw promise no signed /
/// unsigned overflow.
bool addSubMul(Executor &ex, Operation *op, ArithKind kind) {
  auto flags = llvm::cast<arith::ArithIntegerOverflowFlagsInterface>(op);
  bool nsw = flags.hasNoSignedWrap(), nuw = flags.hasNoUnsignedWrap();
  return intBinaryOrPoison(ex, op, [&](int64_t x, int64_t y, unsigned bits,
                                       std::string &why) -> std::optional<uint64_t> {
    auto exact = [&](__int128 a, __int128 b) -> __int128 {
      return kind == ArithKind::Add   ? a + b
             : kind == ArithKind::Sub ? a - b
                                      : a * b;
    };
    __int128 s = exact(x, y);
    __int128 u = exact(static_cast<__int128>(zextInt(x, bits)),
                       static_cast<__int128>(zextInt(y, bits)));
    if (nsw && s != wrapInt(static_cast<uint64_t>(s), bits)) {
      why = "(nsw, but the result overflows as a signed number)";
      return std::nullopt;
    }
    if (nuw && (u < 0 || (bits < 64 ? u >> bits : u >> 64) != 0)) {
      why = "(nuw, but the result overflows as an unsigned number)";
      return std::nullopt;
    }
    return static_cast<uint64_t>(s);
  });
}

enum class DivKind { DivS, DivU, RemS, RemU, CeilDivS, CeilDivU, FloorDivS };

/// Integer division; division by zero and signed overflow (MIN / -1) are
/// errors rather than undefined results.
bool intDivide(Executor &ex, Operation *op, DivKind kind) {
  const Tile &a = ex.get(op->getOperand(0)), &b = ex.get(op->getOperand(1));
  unsigned bits = resultBits(op);
  Tile out = Executor::makeTile(op->getResult(0).getType());
  int64_t min = bits >= 64 ? std::numeric_limits<int64_t>::min()
                           : -(int64_t(1) << (bits - 1));
  bool isSigned = kind != DivKind::DivU && kind != DivKind::RemU &&
                  kind != DivKind::CeilDivU;
  bool exact = op->hasAttr("isExact"); // divsi, divui
  for (size_t i = 0; i < out.size(); ++i) {
    int64_t x = a.data[i].i, y = b.data[i].i;
    auto where = [&] { return Executor::atElement(out.shape, i); };
    if (y == 0)
      return ex.fail(op, "integer division by zero in " + ex.program() + where());
    if (isSigned && x == min && y == -1)
      return ex.fail(op, "signed division overflow (" + std::to_string(x) +
                             " / -1) in " + ex.program() + where());
    bool remainder = isSigned ? x % y != 0 : zextInt(x, bits) % zextInt(y, bits) != 0;
    if (exact && remainder)
      return ex.fail(op, "'" + op->getName().getStringRef() +
                             "' gives poison (exact, but " + std::to_string(x) +
                             " is not a multiple of " + std::to_string(y) +
                             ") in " + ex.program() + where());
    int64_t r = 0;
    switch (kind) {
    case DivKind::DivS: r = x / y; break;
    case DivKind::RemS: r = x % y; break;
    case DivKind::DivU:
      r = static_cast<int64_t>(zextInt(x, bits) / zextInt(y, bits));
      break;
    case DivKind::RemU:
      r = static_cast<int64_t>(zextInt(x, bits) % zextInt(y, bits));
      break;
    case DivKind::CeilDivS:
      r = x / y + ((x % y != 0) && ((x < 0) == (y < 0)) ? 1 : 0);
      break;
    case DivKind::CeilDivU: {
      uint64_t ux = zextInt(x, bits), uy = zextInt(y, bits);
      r = static_cast<int64_t>(ux / uy + (ux % uy != 0 ? 1 : 0));
      break;
    }
    case DivKind::FloorDivS:
      r = x / y - ((x % y != 0) && ((x < 0) != (y < 0)) ? 1 : 0);
      break;
    }
    out.data[i].i = wrapInt(static_cast<uint64_t>(r), bits);
  }
  ex.set(op->getResult(0), std::move(out));
  return true;
}

/// arith.addui_extended: the wrapped sum and whether it carried out.
bool addExtended(Executor &ex, arith::AddUIExtendedOp op) {
  const Tile &a = ex.get(op.getLhs()), &b = ex.get(op.getRhs());
  unsigned bits = infoOf(elementTypeOf(op.getSum().getType())).bits;
  Tile sum = Executor::makeTile(op.getSum().getType());
  Tile overflow = Executor::makeTile(op.getOverflow().getType());
  for (size_t i = 0; i < sum.size(); ++i) {
    uint64_t x = zextInt(a.data[i].i, bits);
    uint64_t total = zextInt(static_cast<int64_t>(x + zextInt(b.data[i].i, bits)), bits);
    sum.data[i].i = wrapInt(total, bits);
    overflow.data[i].i = total < x ? -1 : 0;
  }
  ex.set(op.getSum(), std::move(sum));
  ex.set(op.getOverflow(), std::move(overflow));
  return true;
}

/// arith.mulsi_extended / mului_extended: the low and high halves of the
/// double-width product.
bool mulExtended(Executor &ex, Operation *op, bool isSigned) {
  const Tile &a = ex.get(op->getOperand(0)), &b = ex.get(op->getOperand(1));
  unsigned bits = resultBits(op);
  Tile low = Executor::makeTile(op->getResult(0).getType());
  Tile high = Executor::makeTile(op->getResult(1).getType());
  for (size_t i = 0; i < low.size(); ++i) {
    int64_t x = a.data[i].i, y = b.data[i].i;
    // Exact in 128 bits, wrapped to 2 * bits.
    unsigned __int128 p =
        isSigned ? static_cast<unsigned __int128>(static_cast<__int128>(x) * y)
                 : static_cast<unsigned __int128>(zextInt(x, bits)) * zextInt(y, bits);
    low.data[i].i = wrapInt(static_cast<uint64_t>(p), bits);
    high.data[i].i = wrapInt(static_cast<uint64_t>(p >> bits), bits);
  }
  ex.set(op->getResult(0), std::move(low));
  ex.set(op->getResult(1), std::move(high));
  return true;
}

enum class BitCount { LeadingZeros, TrailingZeros, Population };

/// math.ctlz / cttz / ctpop within the operand's width (ctlz and cttz of
/// 0 are the width).
bool countBits(Executor &ex, Operation *op, BitCount which) {
  return intUnary(ex, op, [which](int64_t x, unsigned bits) -> uint64_t {
    uint64_t u = zextInt(x, bits);
    if (which == BitCount::Population)
      return llvm::popcount(u);
    if (u == 0)
      return bits;
    if (which == BitCount::LeadingZeros)
      return llvm::countl_zero(u) - (64 - bits);
    return llvm::countr_zero(u);
  });
}

enum class ShiftKind { Left, RightSigned, RightUnsigned };

/// shli, shrsi, shrui. A shift by the width or more is poison, and so are
/// bits shifted out against an nsw / nuw (shli) or exact (shrsi, shrui)
/// promise.
bool shift(Executor &ex, Operation *op, ShiftKind direction) {
  bool nsw = false, nuw = false;
  if (auto flags = dyn_cast<arith::ArithIntegerOverflowFlagsInterface>(op)) {
    nsw = flags.hasNoSignedWrap();
    nuw = flags.hasNoUnsignedWrap();
  }
  bool exact = static_cast<bool>(op->getAttrOfType<UnitAttr>("isExact"));
  return intBinaryOrPoison(ex, op, [&](int64_t x, int64_t y, unsigned bits,
                                       std::string &why) -> std::optional<uint64_t> {
    uint64_t amount = zextInt(y, bits);
    if (amount >= bits) {
      why = "(it shifts by " + std::to_string(amount) + ", not less than the "
            "width, " + std::to_string(bits) + " bits)";
      return std::nullopt;
    }
    uint64_t ux = zextInt(x, bits);
    if (direction == ShiftKind::Left) {
      uint64_t r = zextInt(static_cast<int64_t>(ux << amount), bits);
      if ((nsw && (wrapInt(r, bits) >> amount) != x) || (nuw && (r >> amount) != ux)) {
        why = std::string("(") + (nsw ? "nsw" : "nuw") + ", but it shifts out "
              "significant bits)";
        return std::nullopt;
      }
      return r;
    }
    if (exact && (ux & ((uint64_t(1) << amount) - 1)) != 0) {
      why = "(exact, but it shifts out nonzero bits)";
      return std::nullopt;
    }
    if (direction == ShiftKind::RightSigned)
      return static_cast<uint64_t>(x >> amount);
    return ux >> amount;
  });
}

bool compareInts(Executor &ex, arith::CmpIOp op) {
  const Tile &a = ex.get(op.getLhs()), &b = ex.get(op.getRhs());
  unsigned bits = infoOf(elementTypeOf(op.getLhs().getType())).bits;
  Tile out = Executor::makeTile(op.getType());
  auto pred = op.getPredicate();
  for (size_t i = 0; i < out.size(); ++i) {
    int64_t x = a.data[i].i, y = b.data[i].i;
    uint64_t ux = zextInt(x, bits), uy = zextInt(y, bits);
    bool r = false;
    switch (pred) {
    case arith::CmpIPredicate::eq: r = x == y; break;
    case arith::CmpIPredicate::ne: r = x != y; break;
    case arith::CmpIPredicate::slt: r = x < y; break;
    case arith::CmpIPredicate::sle: r = x <= y; break;
    case arith::CmpIPredicate::sgt: r = x > y; break;
    case arith::CmpIPredicate::sge: r = x >= y; break;
    case arith::CmpIPredicate::ult: r = ux < uy; break;
    case arith::CmpIPredicate::ule: r = ux <= uy; break;
    case arith::CmpIPredicate::ugt: r = ux > uy; break;
    case arith::CmpIPredicate::uge: r = ux >= uy; break;
    }
    out.data[i].i = r ? -1 : 0;
  }
  ex.set(op.getResult(), std::move(out));
  return true;
}

//===----------------------------------------------------------------------===//
// Constants and selection
//===----------------------------------------------------------------------===//

bool selectValues(Executor &ex, arith::SelectOp op) {
  const Tile &cond = ex.get(op.getCondition());
  const Tile &a = ex.get(op.getTrueValue()), &b = ex.get(op.getFalseValue());
  Tile out = Executor::makeTile(op.getType());
  bool scalarCond = cond.size() == 1 && out.size() != 1;
  for (size_t i = 0; i < out.size(); ++i)
    out.data[i] = cond.data[scalarCond ? 0 : i].i ? a.data[i] : b.data[i];
  ex.set(op.getResult(), std::move(out));
  return true;
}

bool materializeConstant(Executor &ex, arith::ConstantOp op) {
  Tile out = Executor::makeTile(op.getType());
  Attribute value = op.getValue();
  ElemInfo info = infoOf(elementTypeOf(op.getType()));
  auto fromInt = [&](const APInt &v) {
    Elem e;
    e.i = info.bits == 1 ? (v.isZero() ? 0 : -1) : v.getSExtValue();
    return e;
  };
  auto fromFloat = [&](APFloat v) {
    if (isFp8(info.floatKind)) { // a NaN keeps its byte, as on the GPU
      Elem e;
      e.f = floatFromBits(info.floatKind, v.bitcastToAPInt().getZExtValue());
      return e;
    }
    bool losesInfo;
    v.convert(APFloat::IEEEdouble(), RoundingMode::NearestTiesToEven, &losesInfo);
    Elem e;
    e.f = v.convertToDouble();
    return e;
  };
  if (auto i = dyn_cast<IntegerAttr>(value)) {
    out.data[0] = fromInt(i.getValue());
  } else if (auto f = dyn_cast<FloatAttr>(value)) {
    out.data[0] = fromFloat(f.getValue());
  } else if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    bool isFloatElem = info.kind == ElemInfo::Float;
    if (dense.isSplat()) {
      Elem e = isFloatElem ? fromFloat(dense.getSplatValue<APFloat>())
                           : fromInt(dense.getSplatValue<APInt>());
      std::fill(out.data.begin(), out.data.end(), e);
    } else if (isFloatElem) {
      size_t i = 0;
      for (APFloat v : dense.getValues<APFloat>())
        out.data[i++] = fromFloat(v);
    } else {
      size_t i = 0;
      for (APInt v : dense.getValues<APInt>())
        out.data[i++] = fromInt(v);
    }
  } else {
    return ex.fail(op, "the interpreter does not support this constant attribute");
  }
  ex.set(op.getResult(), std::move(out));
  return true;
}

} // namespace

/// A handler that calls `F(executor, op, ARG)`.
#define LLK_HANDLE_WITH(F, ARG)                                                \
  [](Executor &ex, Operation *op) { return F(ex, op, ARG); }

void llk::interp::detail::registerElementwiseOps(OpHandlerTable &table) {
  using namespace arith;
  table.add<materializeConstant>();
  table.add<compareInts>();
  table.add<compareFloats>();
  table.add<selectValues>();

  // Integers (wrapping).
  table.add<AddIOp>(LLK_HANDLE_WITH(addSubMul, ArithKind::Add));
  table.add<SubIOp>(LLK_HANDLE_WITH(addSubMul, ArithKind::Sub));
  table.add<MulIOp>(LLK_HANDLE_WITH(addSubMul, ArithKind::Mul));
  table.add<AndIOp>([](Executor &ex, Operation *op) {
    return intBinary(ex, op, [](int64_t x, int64_t y, unsigned) {
      return static_cast<uint64_t>(x & y);
    });
  });
  table.add<OrIOp>([](Executor &ex, Operation *op) {
    return intBinary(ex, op, [](int64_t x, int64_t y, unsigned) {
      return static_cast<uint64_t>(x | y);
    });
  });
  table.add<XOrIOp>([](Executor &ex, Operation *op) {
    return intBinary(ex, op, [](int64_t x, int64_t y, unsigned) {
      return static_cast<uint64_t>(x ^ y);
    });
  });
  table.add<MaxSIOp>([](Executor &ex, Operation *op) {
    return intBinary(ex, op, [](int64_t x, int64_t y, unsigned) {
      return static_cast<uint64_t>(std::max(x, y));
    });
  });
  table.add<MinSIOp>([](Executor &ex, Operation *op) {
    return intBinary(ex, op, [](int64_t x, int64_t y, unsigned) {
      return static_cast<uint64_t>(std::min(x, y));
    });
  });
  table.add<MaxUIOp>([](Executor &ex, Operation *op) {
    return intBinary(ex, op, [](int64_t x, int64_t y, unsigned bits) {
      return std::max(zextInt(x, bits), zextInt(y, bits));
    });
  });
  table.add<MinUIOp>([](Executor &ex, Operation *op) {
    return intBinary(ex, op, [](int64_t x, int64_t y, unsigned bits) {
      return std::min(zextInt(x, bits), zextInt(y, bits));
    });
  });
  table.add<DivSIOp>(LLK_HANDLE_WITH(intDivide, DivKind::DivS));
  table.add<DivUIOp>(LLK_HANDLE_WITH(intDivide, DivKind::DivU));
  table.add<RemSIOp>(LLK_HANDLE_WITH(intDivide, DivKind::RemS));
  table.add<RemUIOp>(LLK_HANDLE_WITH(intDivide, DivKind::RemU));
  table.add<CeilDivSIOp>(LLK_HANDLE_WITH(intDivide, DivKind::CeilDivS));
  table.add<CeilDivUIOp>(LLK_HANDLE_WITH(intDivide, DivKind::CeilDivU));
  table.add<FloorDivSIOp>(LLK_HANDLE_WITH(intDivide, DivKind::FloorDivS));
  table.add<addExtended>();
  table.add<MulSIExtendedOp>(LLK_HANDLE_WITH(mulExtended, true));
  table.add<MulUIExtendedOp>(LLK_HANDLE_WITH(mulExtended, false));
  table.add<ShLIOp>(LLK_HANDLE_WITH(shift, ShiftKind::Left));
  table.add<ShRSIOp>(LLK_HANDLE_WITH(shift, ShiftKind::RightSigned));
  table.add<ShRUIOp>(LLK_HANDLE_WITH(shift, ShiftKind::RightUnsigned));
  table.add<math::CountLeadingZerosOp>(
      LLK_HANDLE_WITH(countBits, BitCount::LeadingZeros));
  table.add<math::CountTrailingZerosOp>(
      LLK_HANDLE_WITH(countBits, BitCount::TrailingZeros));
  table.add<math::CtPopOp>(LLK_HANDLE_WITH(countBits, BitCount::Population));
  table.add<math::AbsIOp>([](Executor &ex, Operation *op) {
    return intUnary(ex, op, [](int64_t x, unsigned) {
      return x < 0 ? 0 - static_cast<uint64_t>(x) : static_cast<uint64_t>(x);
    });
  });

  // Floats, computed in their precision.
  table.add<AddFOp>(LLK_HANDLE_WITH(floatBinary, [](auto x, auto y) { return x + y; }));
  table.add<SubFOp>(LLK_HANDLE_WITH(floatBinary, [](auto x, auto y) { return x - y; }));
  table.add<MulFOp>(LLK_HANDLE_WITH(floatBinary, [](auto x, auto y) { return x * y; }));
  table.add<DivFOp>(LLK_HANDLE_WITH(floatBinary, [](auto x, auto y) { return x / y; }));
  table.add<RemFOp>(
      LLK_HANDLE_WITH(floatBinary, [](auto x, auto y) { return std::fmod(x, y); }));
  table.add<MaxNumFOp>(
      LLK_HANDLE_WITH(floatBinary, [](auto x, auto y) { return maxNum(x, y); }));
  table.add<MinNumFOp>(
      LLK_HANDLE_WITH(floatBinary, [](auto x, auto y) { return minNum(x, y); }));
  table.add<MaximumFOp>(LLK_HANDLE_WITH(floatBinary, [](auto x, auto y) {
    if (std::isnan(x) || std::isnan(y))
      return x + y; // NaN
    if (x == y)
      return std::signbit(x) ? y : x; // max(-0, +0) = +0
    return x > y ? x : y;
  }));
  table.add<MinimumFOp>(LLK_HANDLE_WITH(floatBinary, [](auto x, auto y) {
    if (std::isnan(x) || std::isnan(y))
      return x + y;
    if (x == y)
      return std::signbit(x) ? x : y;
    return x < y ? x : y;
  }));
  table.add<NegFOp>(LLK_HANDLE_WITH(floatUnary, [](auto x) { return -x; }));

  // math, through the C library in the type's precision.
#define LLK_MATH_UNARY(OP, EXPR)                                               \
  table.add<math::OP>(LLK_HANDLE_WITH(floatUnary, [](auto x) { return EXPR; }))
  LLK_MATH_UNARY(AbsFOp, std::fabs(x));
  LLK_MATH_UNARY(SqrtOp, std::sqrt(x));
  LLK_MATH_UNARY(RsqrtOp, decltype(x)(1) / std::sqrt(x));
  LLK_MATH_UNARY(ExpOp, std::exp(x));
  LLK_MATH_UNARY(ExpM1Op, std::expm1(x));
  LLK_MATH_UNARY(LogOp, std::log(x));
  LLK_MATH_UNARY(Log2Op, std::log2(x));
  LLK_MATH_UNARY(Log10Op, std::log10(x));
  LLK_MATH_UNARY(Log1pOp, std::log1p(x));
  LLK_MATH_UNARY(SinOp, std::sin(x));
  LLK_MATH_UNARY(CosOp, std::cos(x));
  LLK_MATH_UNARY(TanOp, std::tan(x));
  LLK_MATH_UNARY(TanhOp, std::tanh(x));
  LLK_MATH_UNARY(AtanOp, std::atan(x));
  LLK_MATH_UNARY(AcosOp, std::acos(x));
  LLK_MATH_UNARY(AsinOp, std::asin(x));
  LLK_MATH_UNARY(AcoshOp, std::acosh(x));
  LLK_MATH_UNARY(AsinhOp, std::asinh(x));
  LLK_MATH_UNARY(AtanhOp, std::atanh(x));
  LLK_MATH_UNARY(CoshOp, std::cosh(x));
  LLK_MATH_UNARY(SinhOp, std::sinh(x));
  LLK_MATH_UNARY(ErfOp, std::erf(x));
  LLK_MATH_UNARY(ErfcOp, std::erfc(x));
  LLK_MATH_UNARY(CbrtOp, std::cbrt(x));
  LLK_MATH_UNARY(FloorOp, std::floor(x));
  LLK_MATH_UNARY(CeilOp, std::ceil(x));
  LLK_MATH_UNARY(TruncOp, std::trunc(x));
  LLK_MATH_UNARY(RoundOp, std::round(x));
  LLK_MATH_UNARY(RoundEvenOp, std::nearbyint(x)); // the default FE mode
#undef LLK_MATH_UNARY
  table.add<math::Atan2Op>(
      LLK_HANDLE_WITH(floatBinary, [](auto x, auto y) { return std::atan2(x, y); }));
  table.add<math::PowFOp>(
      LLK_HANDLE_WITH(floatBinary, [](auto x, auto y) { return std::pow(x, y); }));
  table.add<math::CopySignOp>(LLK_HANDLE_WITH(
      floatBinary, [](auto x, auto y) { return std::copysign(x, y); }));
  table.add<exponent2>();
  table.add<fusedMultiplyAdd>();
  table.add<powi>();
  table.add<math::IsFiniteOp>(
      LLK_HANDLE_WITH(classify, [](double x) { return std::isfinite(x); }));
  table.add<math::IsInfOp>(
      LLK_HANDLE_WITH(classify, [](double x) { return std::isinf(x); }));
  table.add<math::IsNaNOp>(
      LLK_HANDLE_WITH(classify, [](double x) { return std::isnan(x); }));
}
#undef LLK_HANDLE_WITH
