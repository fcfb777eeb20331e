//===- ProgramOpToGPU.cpp - the program in its grid -----------------------===//
//
// tile.program_id and tile.num_programs read the block's index and the
// grid's size; tile.barrier is bar.sync; tile.grid_dependency_wait and
// tile.launch_dependents are griddepcontrol where the target has it.
//
//===----------------------------------------------------------------------===//

#include "PatternTileOpToGPU.h"

using namespace mlir;
using namespace llk;
using namespace llk::togpu;

namespace {

/// program_id and num_programs: the block's index or the grid's size along
/// an axis, as i32.
template <typename OpTy, typename GpuOpTy>
struct GridQueryLowering : TilePattern<OpTy> {
  using TilePattern<OpTy>::TilePattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value value = GpuOpTy::create(rewriter, op.getLoc(),
                                  gpu::Dimension(int(op.getAxis())));
    rewriter.replaceOpWithNewOp<arith::IndexCastOp>(op, rewriter.getI32Type(),
                                                    value);
    return success();
  }
};
using ProgramIdLowering = GridQueryLowering<ProgramIdOp, gpu::BlockIdOp>;
using NumProgramsLowering = GridQueryLowering<NumProgramsOp, gpu::GridDimOp>;

struct BarrierLowering : TilePattern<BarrierOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(BarrierOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<gpu::BarrierOp>(op);
    return success();
  }
};

/// griddepcontrol, or nothing on targets without it (the ops only relax
/// or restore the order of a dependent launch, which those cannot make).
/// Inline assembly that clobbers memory rather than nvvm.griddepcontrol:
/// LLVM's intrinsics are IntrNoMem, so loads could be hoisted above the wait.
template <typename OpTy>
struct GridDependencyLowering : TilePattern<OpTy> {
  GridDependencyLowering(const TypeConverter &converter, MLIRContext *ctx,
                         LoweringState &state, StringRef instruction)
      : TilePattern<OpTy>(converter, ctx, state), instruction(instruction) {}
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (this->state.gridDependencyControl) {
      IndexEmitter e(rewriter, op.getLoc());
      e.inlineAsm(Type(), {}, instruction, "~{memory}");
    }
    rewriter.eraseOp(op);
    return success();
  }
  std::string instruction;
};

} // namespace

void llk::togpu::populateProgramOpToGPUPatterns(const TypeConverter &converter,
                                                RewritePatternSet &patterns,
                                                LoweringState &state) {
  patterns.add<ProgramIdLowering, NumProgramsLowering, BarrierLowering>(
      converter, patterns.getContext(), state);
  patterns.add<GridDependencyLowering<GridDependencyWaitOp>>(
      converter, patterns.getContext(), state, "griddepcontrol.wait;");
  patterns.add<GridDependencyLowering<LaunchDependentsOp>>(
      converter, patterns.getContext(), state,
      "griddepcontrol.launch_dependents;");
}
