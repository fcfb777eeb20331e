//===- FuncOpToGPU.cpp - kernels to gpu.func ------------------------------===//
//
// A kernel func.func becomes a gpu.func kernel of num_warps * 32 threads,
// with what the host needs to launch it as attributes: the TMA boxes of its
// descriptor arguments, how far its realigned loads read past their
// pointers' data, and its minimum programs per SM.
//
//===----------------------------------------------------------------------===//

#include "PatternTileOpToGPU.h"

using namespace mlir;
using namespace llk;
using namespace llk::togpu;

namespace {

struct FuncLowering : TilePattern<func::FuncOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(func::FuncOp func, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    TypeConverter::SignatureConversion signature(func.getNumArguments());
    for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
      signature.addInputs(i, getTypeConverter()->convertType(type));
    auto kernel = gpu::GPUFuncOp::create(
        rewriter, func.getLoc(), func.getName(),
        rewriter.getFunctionType(signature.getConvertedTypes(), {}));
    kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                    rewriter.getUnitAttr());
    int32_t threads = getNumWarps(func) * 32;
    kernel.setKnownBlockSizeAttr(rewriter.getDenseI32ArrayAttr({threads, 1, 1}));
    // The box the host encodes each descriptor argument with.
    SmallVector<Attribute> boxes;
    for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
      if (auto desc = dyn_cast<TensorDescType>(type)) {
        auto [rows, cols] = tmaBoxOf(desc);
        boxes.push_back(rewriter.getDenseI64ArrayAttr({int64_t(i), rows, cols}));
      }
    if (!boxes.empty())
      kernel->setAttr(kTmaBoxesAttr, rewriter.getArrayAttr(boxes));
    // How far past its last accessed byte each pointer argument is read.
    SmallVector<Attribute> overruns;
    for (auto [i, bytes] :
         llvm::enumerate(getReadOverruns(func, state.axisInfoOf(func))))
      if (bytes)
        overruns.push_back(rewriter.getDenseI64ArrayAttr({int64_t(i), bytes}));
    if (!overruns.empty())
      kernel->setAttr(kReadOverrunAttr, rewriter.getArrayAttr(overruns));
    // .minnctapersm: ptxas fits the registers to that many programs an SM.
    if (auto min = func->getAttrOfType<IntegerAttr>(
            tile::TileDialect::kMinProgramsPerSMAttr))
      kernel->setAttr("nvvm.minctasm",
                      rewriter.getI32IntegerAttr(int32_t(min.getInt())));
    rewriter.eraseBlock(&kernel.getBody().front());
    rewriter.inlineRegionBefore(func.getBody(), kernel.getBody(), kernel.end());
    if (failed(rewriter.convertRegionTypes(&kernel.getBody(), *getTypeConverter(),
                                           &signature)))
      return failure();
    rewriter.eraseOp(func);
    return success();
  }
};

struct ReturnLowering : TilePattern<func::ReturnOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(func::ReturnOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<gpu::ReturnOp>(op);
    return success();
  }
};

} // namespace

void llk::togpu::populateFuncOpToGPUPatterns(const TypeConverter &converter,
                                             RewritePatternSet &patterns,
                                             LoweringState &state) {
  patterns.add<FuncLowering, ReturnLowering>(
      converter, patterns.getContext(), state);
}
