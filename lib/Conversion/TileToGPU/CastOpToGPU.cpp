//===- CastOpToGPU.cpp - tile.cast and tile.bitcast -----------------------===//
//
// tile.cast converts each register with its rounding stated: directed
// narrowings step back from the nearest value, float-to-integer conversions
// saturate in the IR (LLVM's fptosi would be poison out of range), i8 to f32
// goes through the FP32 pipe. tile.bitcast reinterprets registers.
//
//===----------------------------------------------------------------------===//

#include "PatternTileOpToGPU.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace llk;
using namespace llk::togpu;

namespace {

/// i8 -> f32 for a thread's bytes, 4 to a word, without the integer-to-float
/// conversion unit (16 results a clock per SM on sm_80-sm_90, a quarter of
/// the FP32 rate: the limit of a dequantizing loop). Byte b, biased to
/// u = b ^ 0x80 = b + 128 (one xor per word) and placed by a prmt under the
/// exponent byte 0x4B, is the float 2^23 + u exactly; subtracting 2^23 + 128
/// leaves b exactly. A prmt and an FADD a value instead of an I2F.
Value bytesToF32(OpBuilder &b, Location loc, Value bytes) {
  auto type = cast<VectorType>(bytes.getType());
  int64_t n = type.getNumElements();
  Type i32 = b.getI32Type(), f32 = b.getF32Type();
  auto c32 = [&](uint32_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(int32_t(v)));
  };
  Value words = vector::BitCastOp::create(
      b, loc, VectorType::get({n / 4}, i32), bytes);
  Value exponent = c32(0x4B000000u);
  Value offset =
      arith::ConstantOp::create(b, loc, b.getF32FloatAttr(8388608.0f + 128.0f));
  SmallVector<Value> values;
  for (int64_t i = 0; i < n / 4; ++i) {
    Value word = vector::ExtractOp::create(b, loc, words, ArrayRef<int64_t>{i});
    Value biased = arith::XOrIOp::create(b, loc, word, c32(0x80808080u));
    for (uint32_t k = 0; k < 4; ++k) {
      // Result bytes: [0] = byte k of `biased`, [1], [2] = 0x00 and
      // [3] = 0x4B from `exponent` (pool bytes 4, 5 and 7).
      Value bits = NVVM::PermuteOp::create(b, loc, i32, biased, exponent,
                                           c32(0x7540u | k),
                                           NVVM::PermuteMode::DEFAULT);
      values.push_back(arith::SubFOp::create(
          b, loc, arith::BitcastOp::create(b, loc, f32, bits), offset));
    }
  }
  return vector::FromElementsOp::create(b, loc, VectorType::get({n}, f32), values);
}

/// `like`'s shape (vector or scalar) with elements of `elem`.
Type shapedLike(Type like, Type elem) {
  if (auto vec = dyn_cast<VectorType>(like))
    return VectorType::get(vec.getShape(), elem);
  return elem;
}

/// The constant `scalar` as a value of `type` (splat for vectors).
Value constantLike(OpBuilder &b, Location loc, Type type, TypedAttr scalar) {
  if (auto vec = dyn_cast<VectorType>(type))
    scalar = DenseElementsAttr::get(vec, scalar);
  return arith::ConstantOp::create(b, loc, scalar);
}
/// An integer constant of `type` (splat for vectors).
Value intConstant(OpBuilder &b, Location loc, Type type, int64_t v) {
  return constantLike(b, loc, type,
                      b.getIntegerAttr(cast<IntegerType>(getElementTypeOrSelf(type)), v));
}
Value intConstant(OpBuilder &b, Location loc, Type type, const APInt &v) {
  return constantLike(b, loc, type,
                      b.getIntegerAttr(cast<IntegerType>(getElementTypeOrSelf(type)), v));
}

/// x narrowed to `type`, rounded to nearest even or as `mode` directs: for
/// toward zero, down or up, rounded to nearest, then one step back toward x
/// where that went past it. (LLVM's NVPTX back
/// end selects directed conversions only for some pairs of types and targets
/// — f32 to f16, to bf16 on sm_90 — and aborts on others, such as f32 to
/// bf16 on sm_80 or f64 to f32: "unsupported library call operation".)
static Value narrowDirected(OpBuilder &b, Location loc, Value x, Type type,
                            RoundingMode mode) {
  Value y = arith::TruncFOp::create(b, loc, type, x);
  if (mode == RoundingMode::RNE)
    return y;
  Value back = arith::ExtFOp::create(b, loc, x.getType(), y); // exact
  unsigned width = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
  Type intType = shapedLike(type, b.getIntegerType(width));
  auto constant = [&](const APInt &v) { return intConstant(b, loc, intType, v); };
  APInt signBit = APInt::getSignMask(width);
  Value bits = arith::BitcastOp::create(b, loc, intType, y);
  Value one = constant(APInt(width, 1));
  // Steps of the magnitude (y is not a NaN where one is taken).
  Value towardZero = arith::SubIOp::create(b, loc, bits, one);
  Value past, step;
  if (mode == RoundingMode::RTZ) {
    past = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT,
                                 math::AbsFOp::create(b, loc, back),
                                 math::AbsFOp::create(b, loc, x));
    step = towardZero;
  } else {
    // The next value down (up): from a zero, the smallest negative
    // (positive) subnormal.
    bool down = mode == RoundingMode::RDN;
    Value awayFromZero = arith::AddIOp::create(b, loc, bits, one);
    Value zero = constant(APInt(width, 0));
    Value isZero = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq,
        arith::AndIOp::create(b, loc, bits, constant(~signBit)), zero);
    Value negative = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne,
        arith::AndIOp::create(b, loc, bits, constant(signBit)), zero);
    past = arith::CmpFOp::create(
        b, loc, down ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT, back, x);
    step = arith::SelectOp::create(
        b, loc, isZero, down ? constant(signBit | 1) : one,
        arith::SelectOp::create(b, loc, negative, down ? awayFromZero : towardZero,
                                down ? towardZero : awayFromZero));
  }
  Value stepped = arith::BitcastOp::create(b, loc, type, step);
  return arith::SelectOp::create(b, loc, past, stepped, y);
}

//===----------------------------------------------------------------------===//
// fp8 (e4m3fn, e5m2), held as bytes
//===----------------------------------------------------------------------===//

using tile::isFp8;

/// A value's elements (a scalar is its own), and back.
SmallVector<Value> elementsOf(OpBuilder &b, Location loc, Value v) {
  auto vec = dyn_cast<VectorType>(v.getType());
  if (!vec)
    return {v};
  SmallVector<Value> elems;
  for (int64_t i = 0; i < vec.getNumElements(); ++i)
    elems.push_back(vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{i}));
  return elems;
}
Value fromElements(OpBuilder &b, Location loc, Type type, ArrayRef<Value> elems) {
  if (!isa<VectorType>(type))
    return elems.front();
  return vector::FromElementsOp::create(b, loc, cast<VectorType>(type), elems);
}

/// The fields of an fp8 format that its conversions need.
struct Fp8Format {
  unsigned mantissaBits;
  int bias;
  uint32_t maxFinite; // the bits of the largest finite value
};
Fp8Format fp8Format(Type fp8) {
  return isa<Float8E4M3FNType>(fp8) ? Fp8Format{3, 7, 0x7e}
                                    : Fp8Format{2, 15, 0x7b};
}

/// f32 `x` to the bytes of `fp8`, to nearest even with saturation (NaN to
/// 0x7f), with integer ops: cvt.rn.satfinite's bits on targets without it.
/// Normal results round the f32 bits at the fp8 mantissa's last place (a
/// carry steps the exponent, past the largest value too, which the min
/// takes back); subnormal ones are |x| in units of the smallest subnormal,
/// rounded to an integer (exact: |x| scaled by a power of two).
Value f32ToFp8Bits(OpBuilder &b, Location loc, Value x, Type fp8) {
  Fp8Format format = fp8Format(fp8);
  Type i32 = shapedLike(x.getType(), b.getI32Type());
  auto c = [&](int64_t v) { return intConstant(b, loc, i32, v); };
  Value bits = arith::BitcastOp::create(b, loc, i32, x);
  Value abs = arith::AndIOp::create(b, loc, bits, c(0x7fffffff));
  Value sign = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, bits, c(24)), c(0x80));
  unsigned shift = 23 - format.mantissaBits;
  Value lsb = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, abs, c(shift)), c(1));
  Value rounded = arith::ShRUIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc, abs,
                            arith::AddIOp::create(b, loc, lsb,
                                                  c((1 << (shift - 1)) - 1))),
      c(shift));
  Value normal = arith::MinSIOp::create(
      b, loc,
      arith::SubIOp::create(b, loc, rounded,
                            c(int64_t(127 - format.bias) << format.mantissaBits)),
      c(format.maxFinite));
  Type f32 = shapedLike(x.getType(), b.getF32Type());
  auto splatF32 = [&](float v) -> Value {
    TypedAttr attr = b.getF32FloatAttr(v);
    if (auto vec = dyn_cast<VectorType>(f32))
      attr = DenseElementsAttr::get(vec, attr);
    return arith::ConstantOp::create(b, loc, attr);
  };
  Value scaled = arith::MulFOp::create(
      b, loc, arith::BitcastOp::create(b, loc, f32, abs),
      splatF32(std::ldexp(1.0f, format.bias + int(format.mantissaBits) - 1)));
  Value subnormal = arith::FPToSIOp::create(
      b, loc, i32, math::RoundEvenOp::create(b, loc, scaled));
  uint32_t minNormal = uint32_t(127 + 1 - format.bias) << 23;
  Value isSubnormal = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                            abs, c(minNormal));
  Value magnitude = arith::SelectOp::create(b, loc, isSubnormal, subnormal, normal);
  Value isNaN = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, abs,
                                      c(0x7f800000));
  Value result = arith::SelectOp::create(
      b, loc, isNaN, c(0x7f), arith::OrIOp::create(b, loc, sign, magnitude));
  return arith::TruncIOp::create(b, loc, shapedLike(x.getType(), b.getI8Type()),
                                 result);
}

/// The bytes of `fp8` to f16, exactly (NaN to 0x7fff), with integer ops and
/// an exact f16 scaling: what cvt.rn.f16x2.e4m3x2 gives, where it is missing.
/// e5m2 is f16's top byte; e4m3's magnitude placed in f16's fields is its
/// value times 2^-8, subnormals too.
Value fp8BitsToF16(OpBuilder &b, Location loc, Value bytes, Type fp8) {
  Type i16 = shapedLike(bytes.getType(), b.getI16Type());
  Type f16 = shapedLike(bytes.getType(), b.getF16Type());
  auto c = [&](int64_t v) { return intConstant(b, loc, i16, v); };
  Value wide = arith::ExtUIOp::create(b, loc, i16, bytes);
  Value magnitude = arith::AndIOp::create(b, loc, wide, c(0x7f));
  Value bits, isNaN;
  if (isa<Float8E5M2Type>(fp8)) {
    bits = arith::ShLIOp::create(b, loc, wide, c(8));
    isNaN = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, magnitude,
                                  c(0x7c));
  } else {
    TypedAttr scale = b.getF16FloatAttr(256.0f);
    if (auto vec = dyn_cast<VectorType>(f16))
      scale = DenseElementsAttr::get(vec, scale);
    Value value = arith::MulFOp::create(
        b, loc,
        arith::BitcastOp::create(b, loc, f16,
                                 arith::ShLIOp::create(b, loc, magnitude, c(7))),
        arith::ConstantOp::create(b, loc, scale));
    Value sign = arith::ShLIOp::create(
        b, loc, arith::AndIOp::create(b, loc, wide, c(0x80)), c(8));
    bits = arith::OrIOp::create(b, loc, arith::BitcastOp::create(b, loc, i16, value),
                                sign);
    isNaN = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, magnitude,
                                  c(0x7f));
  }
  return arith::BitcastOp::create(
      b, loc, f16, arith::SelectOp::create(b, loc, isNaN, c(0x7fff), bits));
}

/// f32 `x` to the bytes of `fp8` with cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32,
/// two elements an instruction.
Value f32ToFp8BitsCvt(OpBuilder &b, Location loc, Value x, Type fp8) {
  SmallVector<Value> in = elementsOf(b, loc, x), out;
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  auto pair = VectorType::get({2}, b.getI8Type());
  for (size_t i = 0; i < in.size(); i += 2) {
    Value lo = in[i], hi = i + 1 < in.size() ? in[i + 1] : zero;
    // The first operand goes to the high byte.
    Value bytes = NVVM::ConvertF32x2ToF8x2Op::create(
        b, loc, pair, hi, lo, NVVM::FPRoundingMode::RN,
        NVVM::SaturationMode::SATFINITE, /*relu=*/false, fp8);
    for (int64_t k = 0; k < 2 && i + k < in.size(); ++k)
      out.push_back(vector::ExtractOp::create(b, loc, bytes, ArrayRef<int64_t>{k}));
  }
  return fromElements(b, loc, shapedLike(x.getType(), b.getI8Type()), out);
}

/// The bytes of `fp8` to f16 with cvt.rn.f16x2.{e4m3x2,e5m2x2}.
Value fp8BitsToF16Cvt(OpBuilder &b, Location loc, Value bytes, Type fp8) {
  SmallVector<Value> in = elementsOf(b, loc, bytes), out;
  Value zero = arith::ConstantOp::create(b, loc, b.getI8IntegerAttr(0));
  auto pair = VectorType::get({2}, b.getI8Type());
  for (size_t i = 0; i < in.size(); i += 2) {
    Value two = vector::FromElementsOp::create(
        b, loc, pair, ValueRange{in[i], i + 1 < in.size() ? in[i + 1] : zero});
    Value halves = NVVM::ConvertF8x2ToF16x2Op::create(
        b, loc, VectorType::get({2}, b.getF16Type()), two, /*relu=*/false, fp8);
    for (int64_t k = 0; k < 2 && i + k < in.size(); ++k)
      out.push_back(vector::ExtractOp::create(b, loc, halves, ArrayRef<int64_t>{k}));
  }
  return fromElements(b, loc, shapedLike(bytes.getType(), b.getF16Type()), out);
}

/// tile.cast to or from fp8 (its bytes `x`): f32, f16 and bf16 go through
/// f32 to fp8 (both widenings exact) and fp8 comes back through f16.
Value castFp8(OpBuilder &b, Location loc, Value x, Type src, Type dst,
              Type resultType, bool hardware) {
  if (isFp8(dst)) {
    if (!src.isF32())
      x = arith::ExtFOp::create(b, loc, shapedLike(x.getType(), b.getF32Type()), x);
    return hardware ? f32ToFp8BitsCvt(b, loc, x, dst) : f32ToFp8Bits(b, loc, x, dst);
  }
  Value half = hardware ? fp8BitsToF16Cvt(b, loc, x, src) : fp8BitsToF16(b, loc, x, src);
  if (dst.isF16())
    return half;
  Value single = arith::ExtFOp::create(
      b, loc, shapedLike(x.getType(), b.getF32Type()), half);
  if (dst.isF32())
    return single;
  return arith::TruncFOp::create(b, loc, resultType, single); // bf16: exact
}

struct CastLowering : TilePattern<CastOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(CastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type resultType = getTypeConverter()->convertType(op.getType());
    Value x = adaptor.getSrc();
    Type src = getElementTypeOrSelf(x.getType());
    Type dst = getElementTypeOrSelf(resultType);
    Type srcElem = getElementTypeOrSelf(op.getSrc().getType());
    Type dstElem = getElementTypeOrSelf(op.getType());
    if ((isFp8(srcElem) || isFp8(dstElem)) && srcElem != dstElem) {
      rewriter.replaceOp(op, castFp8(rewriter, op.getLoc(), x, srcElem, dstElem,
                                     resultType, state.fp8Conversions));
      return success();
    }
    if (src == dst) { // folded away before here, unless canonicalization was skipped
      rewriter.replaceOp(op, x);
      return success();
    }
    auto zero = [&](Type type) -> Value {
      return arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(type));
    };
    std::optional<RoundingMode> rounding = op.getRounding();
    Value result;
    if (dst.isInteger(1)) {
      result = isa<FloatType>(src)
                   ? arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::UNE,
                                           x, zero(x.getType()))
                         .getResult()
                   : arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                                           x, zero(x.getType()))
                         .getResult();
    } else if (isa<FloatType>(src) && isa<FloatType>(dst)) {
      bool crossHalf = (src.isF16() && dst.isBF16()) || (src.isBF16() && dst.isF16());
      if (crossHalf)
        x = arith::ExtFOp::create(rewriter, loc, shapedLike(resultType, rewriter.getF32Type()), x);
      unsigned srcBits = getElementTypeOrSelf(x.getType()).getIntOrFloatBitWidth();
      RoundingMode mode = rounding.value_or(RoundingMode::RNE);
      if (dst.getIntOrFloatBitWidth() > srcBits) {
        result = arith::ExtFOp::create(rewriter, loc, resultType, x);
      } else {
        result = narrowDirected(rewriter, loc, x, resultType, mode);
      }
    } else if (isa<FloatType>(src)) {
      switch (rounding.value_or(RoundingMode::RTZ)) {
      case RoundingMode::RTZ: break;
      case RoundingMode::RNE: x = math::RoundEvenOp::create(rewriter, loc, x); break;
      case RoundingMode::RDN: x = math::FloorOp::create(rewriter, loc, x); break;
      case RoundingMode::RUP: x = math::CeilOp::create(rewriter, loc, x); break;
      }
      // Saturate as PTX cvt does (NaN to 0), in the IR itself: LLVM's
      // fptosi is poison out of range, which it exploits (i8 and i16 went
      // through a wider cvt and a truncation; a fptosi of a sitofp may
      // become a truncation). Clamp into range in the float type, convert,
      // and give 2^(w-1) and above the maximum, NaN 0.
      unsigned width = dst.getIntOrFloatBitWidth();
      auto floatElem = cast<FloatType>(getElementTypeOrSelf(x.getType()));
      auto splat = [&](Type type, TypedAttr attr) -> Value {
        if (auto vec = dyn_cast<VectorType>(type))
          attr = DenseElementsAttr::get(vec, attr);
        return arith::ConstantOp::create(rewriter, loc, attr);
      };
      APFloat limit = APFloat::getOne(floatElem.getFloatSemantics());
      limit = scalbn(limit, int(width) - 1, APFloat::rmNearestTiesToEven);
      APFloat below = limit;
      below.next(/*nextDown=*/true);
      Value low = splat(x.getType(), FloatAttr::get(floatElem, -limit));
      Value high = splat(x.getType(), FloatAttr::get(floatElem, below));
      Value clamped = arith::MinNumFOp::create(
          rewriter, loc, arith::MaxNumFOp::create(rewriter, loc, x, low), high);
      result = arith::FPToSIOp::create(rewriter, loc, resultType, clamped);
      Value atLimit = arith::CmpFOp::create(
          rewriter, loc, arith::CmpFPredicate::OGE, x,
          splat(x.getType(), FloatAttr::get(floatElem, limit)));
      auto dstInt = cast<IntegerType>(dst);
      result = arith::SelectOp::create(
          rewriter, loc, atLimit,
          splat(resultType, IntegerAttr::get(dstInt, APInt::getSignedMaxValue(width))),
          result);
      Value isNaN = arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::UNO, x, x);
      result = arith::SelectOp::create(
          rewriter, loc, isNaN, splat(resultType, IntegerAttr::get(dstInt, 0)), result);
    } else if (src.isInteger(8) && dst.isF32() &&
               isa<VectorType>(x.getType()) &&
               cast<VectorType>(x.getType()).getNumElements() % 4 == 0) {
      result = bytesToF32(rewriter, loc, x);
    } else if (isa<FloatType>(dst)) {
      result = src.isInteger(1)
                   ? arith::UIToFPOp::create(rewriter, loc, resultType, x).getResult()
                   : arith::SIToFPOp::create(rewriter, loc, resultType, x).getResult();
    } else if (dst.getIntOrFloatBitWidth() > src.getIntOrFloatBitWidth()) {
      result = src.isInteger(1)
                   ? arith::ExtUIOp::create(rewriter, loc, resultType, x).getResult()
                   : arith::ExtSIOp::create(rewriter, loc, resultType, x).getResult();
    } else {
      result = arith::TruncIOp::create(rewriter, loc, resultType, x);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct BitcastLowering : TilePattern<BitcastOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(BitcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultType = getTypeConverter()->convertType(op.getType());
    Value src = adaptor.getSrc();
    // Pointer tiles already are i64 address vectors.
    if (src.getType() == resultType)
      rewriter.replaceOp(op, src);
    else if (isa<LLVM::LLVMPointerType>(src.getType()))
      rewriter.replaceOpWithNewOp<LLVM::PtrToIntOp>(op, resultType, src);
    else if (isa<LLVM::LLVMPointerType>(resultType))
      rewriter.replaceOpWithNewOp<LLVM::IntToPtrOp>(op, resultType, src);
    else
      rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, resultType, src);
    return success();
  }
};

} // namespace

void llk::togpu::populateCastOpToGPUPatterns(const TypeConverter &converter,
                                             RewritePatternSet &patterns,
                                             LoweringState &state) {
  patterns.add<CastLowering, BitcastLowering>(
      converter, patterns.getContext(), state);
}
