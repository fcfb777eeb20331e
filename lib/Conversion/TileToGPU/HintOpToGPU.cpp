//===- HintOpToGPU.cpp - tile.multiple_of, max_contiguous, max_constancy --===//
//
// The hints are promises about their operand, which the contiguity analysis
// (run on the tile IR before this conversion) has already used to size the
// memory accesses; at run time they are the operand itself.
//
//===----------------------------------------------------------------------===//

#include "PatternTileOpToGPU.h"

using namespace mlir;
using namespace llk;
using namespace llk::togpu;

namespace {

template <typename OpTy>
struct HintLowering : TilePattern<OpTy> {
  using TilePattern<OpTy>::TilePattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

} // namespace

void llk::togpu::populateHintOpToGPUPatterns(const TypeConverter &converter,
                                             RewritePatternSet &patterns,
                                             LoweringState &state) {
  patterns.add<HintLowering<MultipleOfOp>, HintLowering<MaxContiguousOp>,
               HintLowering<MaxConstancyOp>>(converter, patterns.getContext(),
                                             state);
}
