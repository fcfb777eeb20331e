//===- ElementwiseOpToGPU.cpp - arith, math, addptr -----------------------===//
//
// Ops that keep elements in place act on each thread's vector of elements:
// arith and math ops become the same ops on those vectors, tile.addptr an
// integer add of scaled offsets to 64-bit addresses; f32 exp2, on tiles
// and scalars, ex2.approx.ftz.f32; i32 mului_extended mul.hi.u32 and a
// 32-bit multiply.
//
//===----------------------------------------------------------------------===//

#include "PatternTileOpToGPU.h"

using namespace mlir;
using namespace llk;
using namespace llk::togpu;

namespace {

/// arith and math ops on tiles become the same ops on per-thread vectors.
struct ElementwiseLowering : ConversionPattern {
  ElementwiseLowering(const TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), 1, ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa_and_nonnull<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
        !hasTileType(op))
      return failure();
    SmallVector<Type> resultTypes;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(), resultTypes)))
      return failure();
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
      if (!dense || !dense.isSplat())
        return failure(); // Rejected before conversion.
      Attribute splat = dense.getSplatValue<Attribute>();
      auto resultType = cast<ShapedType>(resultTypes[0]);
      // fp8 constants become their bytes.
      if (auto value = dyn_cast<FloatAttr>(splat);
          value && isa<IntegerType>(resultType.getElementType()))
        splat = IntegerAttr::get(resultType.getElementType(),
                                 value.getValue().bitcastToAPInt());
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, resultType,
                                                     DenseElementsAttr::get(resultType, splat));
      return success();
    }
    OperationState state(op->getLoc(), op->getName(), operands, resultTypes,
                         op->getAttrs());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};

/// `intrinsic` (one result of type `elem`) on each element of `operands`:
/// scalars, or per-thread vectors of one shape, unrolled.
Value callPerElement(ConversionPatternRewriter &rewriter, Location loc,
                     StringRef intrinsic, Type elem, ValueRange operands) {
  auto call = [&](ValueRange args) -> Value {
    return LLVM::CallIntrinsicOp::create(rewriter, loc, elem,
                                         rewriter.getStringAttr(intrinsic), args)
        .getResult(0);
  };
  auto vecType = dyn_cast<VectorType>(operands.front().getType());
  if (!vecType)
    return call(operands);
  IndexEmitter e(rewriter, loc);
  SmallVector<Value> values;
  for (int64_t i = 0, n = vecType.getNumElements(); i < n; ++i) {
    SmallVector<Value> args;
    for (Value operand : operands)
      args.push_back(e.extract(operand, i));
    values.push_back(call(args));
  }
  return e.fromElements(elem, values);
}

/// f32 exp2 is one ex2.approx.ftz.f32 an element, as Triton's tl.math.exp2:
/// libdevice's non-flushing exp2f adds a compare and two predicated
/// multiplies an element around the same instruction (for subnormal
/// results), a quarter of a FlashAttention forward's instructions.
struct Exp2Lowering : OpConversionPattern<math::Exp2Op> {
  Exp2Lowering(const TypeConverter &converter, MLIRContext *ctx)
      : OpConversionPattern(converter, ctx, /*benefit=*/2) {}
  LogicalResult
  matchAndRewrite(math::Exp2Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!lowersToNvvmIntrinsic(op))
      return failure();
    rewriter.replaceOp(op, callPerElement(rewriter, op.getLoc(),
                                          "llvm.nvvm.ex2.approx.ftz.f32",
                                          rewriter.getF32Type(),
                                          adaptor.getOperand()));
    return success();
  }
};

/// i32 mului_extended (Philox's rounds, tile.rand's): the low word a 32-bit
/// multiply, the high word mul.hi.u32 an element. arith-to-llvm's 64-bit
/// multiply of zero-extended words is what the NVPTX back end gets
/// otherwise, and once LLVM has folded one round's truncation into the next
/// round's extension it no longer sees 32-bit operands: each round becomes
/// emulated 64-bit multiplies and 64-bit xors.
struct MulUIExtendedLowering : OpConversionPattern<arith::MulUIExtendedOp> {
  MulUIExtendedLowering(const TypeConverter &converter, MLIRContext *ctx)
      : OpConversionPattern(converter, ctx, /*benefit=*/2) {}
  LogicalResult
  matchAndRewrite(arith::MulUIExtendedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!lowersToNvvmIntrinsic(op))
      return failure();
    Value lhs = adaptor.getLhs(), rhs = adaptor.getRhs();
    Value low = arith::MulIOp::create(rewriter, op.getLoc(), lhs, rhs);
    Value high = callPerElement(rewriter, op.getLoc(), "llvm.nvvm.mulhi.ui",
                                rewriter.getI32Type(), {lhs, rhs});
    rewriter.replaceOp(op, {low, high});
    return success();
  }
};

struct AddPtrLowering : TilePattern<AddPtrOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(AddPtrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto ptrType = cast<PtrType>(getElementTypeOrSelf(op.getPtr().getType()));
    if (!isa<RankedTensorType>(op.getType())) {
      rewriter.replaceOpWithNewOp<LLVM::GEPOp>(
          op, adaptor.getPtr().getType(), ptrType.getPointeeType(),
          adaptor.getPtr(), ValueRange{adaptor.getOffset()});
      return success();
    }
    auto vecType = cast<VectorType>(adaptor.getPtr().getType());
    Value offset = adaptor.getOffset();
    if (getElementTypeOrSelf(offset.getType()).getIntOrFloatBitWidth() < 64)
      offset = arith::ExtSIOp::create(rewriter, loc, vecType, offset);
    Value scale = arith::ConstantOp::create(
        rewriter, loc,
        DenseIntElementsAttr::get(vecType,
                                  int64_t(byteWidth(ptrType.getPointeeType()))));
    Value bytes = arith::MulIOp::create(rewriter, loc, offset, scale);
    rewriter.replaceOpWithNewOp<arith::AddIOp>(op, adaptor.getPtr(), bytes);
    return success();
  }
};

} // namespace

void llk::togpu::populateElementwiseOpToGPUPatterns(const TypeConverter &converter,
                                                    RewritePatternSet &patterns,
                                                    LoweringState &state) {
  patterns.add<AddPtrLowering>(
      converter, patterns.getContext(), state);
  patterns.add<ElementwiseLowering, Exp2Lowering, MulUIExtendedLowering>(
      converter, patterns.getContext());
}
