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
  Type intElem = b.getIntegerType(width);
  Type intType = intElem;
  if (auto vec = dyn_cast<VectorType>(type))
    intType = VectorType::get(vec.getShape(), intElem);
  auto constant = [&](const APInt &v) -> Value {
    TypedAttr attr = b.getIntegerAttr(intElem, v);
    if (auto vec = dyn_cast<VectorType>(intType))
      attr = DenseElementsAttr::get(vec, attr);
    return arith::ConstantOp::create(b, loc, attr);
  };
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
    auto withElem = [&](Type elem) -> Type {
      if (auto vec = dyn_cast<VectorType>(resultType))
        return VectorType::get(vec.getShape(), elem);
      return elem;
    };
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
        x = arith::ExtFOp::create(rewriter, loc, withElem(rewriter.getF32Type()), x);
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
