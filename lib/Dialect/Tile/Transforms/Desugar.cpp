//===- Desugar.cpp - the short forms, written out -------------------------===//
//
// Rewrites what TileShortForms.td and the broadcasting operands of
// tile.addptr allow into the explicit ops, which
// are all the rest of the compiler and the interpreter accept:
//
//   tile.add %x, %s : tensor<64x1xf32>, f32      %s1 = tile.splat %s : f32 -> tensor<64x32xf32>
//   (broadcast against a 64x32 tile)       =>    %x1 = tile.broadcast %x : ... -> tensor<64x32xf32>
//                                                %r = arith.addf %x1, %s1 : tensor<64x32xf32>
//
// An operand of another element type is cast first (tile.cast, as Triton
// promotes), a scalar operand is splat, a lower-rank one gains leading
// dimensions of size 1 (tile.expand_dims axis = 0), and dimensions of size 1
// are repeated (tile.broadcast), as NumPy and Triton broadcast; loads and stores of a
// descriptor made in the kernel become masked pointer tiles. One walk, no
// folding: what the user wrote explicitly is left exactly as it is.
//
//===----------------------------------------------------------------------===//

#include "llk/Dialect/Tile/IR/ShortForms.h"
#include "llk/Dialect/Tile/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "tile-desugar"

namespace llk::tile {
#define GEN_PASS_DEF_TILEDESUGAR
#include "llk/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace llk::tile

using namespace mlir;
using namespace llk::tile;

namespace {

ArrayRef<int64_t> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getShape();
  return {};
}

/// `value` (a scalar or a tile) as `elem` (tile.cast, before it grows) and
/// broadcast to the shape of `like`; itself when nothing changes.
Value broadcastTo(PatternRewriter &rewriter, Location loc, Value value,
                  Type like, Type elem) {
  if (getElementTypeOrSelf(value.getType()) != elem)
    value = CastOp::create(rewriter, loc, withElementType(value.getType(), elem), value,
                           RoundingModeAttr());
  auto target = dyn_cast<RankedTensorType>(like);
  if (!target)
    return value;
  ArrayRef<int64_t> shape = target.getShape();
  auto type = RankedTensorType::get(shape, elem);
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  if (!tensor)
    return SplatOp::create(rewriter, loc, type, value);
  while (tensor.getRank() < target.getRank()) {
    SmallVector<int64_t> expanded(tensor.getShape());
    expanded.insert(expanded.begin(), 1);
    tensor = RankedTensorType::get(expanded, elem);
    value = ExpandDimsOp::create(rewriter, loc, tensor, value,
                                 rewriter.getI32IntegerAttr(0));
  }
  if (tensor.getShape() != shape)
    value = BroadcastOp::create(rewriter, loc, type, value);
  return value;
}

/// `value` broadcast to the shape of `like`, in its own element type.
Value broadcastTo(PatternRewriter &rewriter, Location loc, Value value,
                  Type like) {
  return broadcastTo(rewriter, loc, value, like,
                     getElementTypeOrSelf(value.getType()));
}

/// tile.add etc.: the arith op for the element type, on broadcast operands.
template <typename SugarOp, typename IntOp, typename FloatOp>
struct ExpandBinary : OpRewritePattern<SugarOp> {
  using OpRewritePattern<SugarOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(SugarOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = op.getType(), elem = getElementTypeOrSelf(type);
    Value lhs = broadcastTo(rewriter, loc, op.getLhs(), type, elem);
    Value rhs = broadcastTo(rewriter, loc, op.getRhs(), type, elem);
    if constexpr (!std::is_same_v<FloatOp, void>) {
      if (isa<FloatType>(elem)) {
        rewriter.replaceOpWithNewOp<FloatOp>(op, lhs, rhs);
        return success();
      }
    }
    rewriter.replaceOpWithNewOp<IntOp>(op, lhs, rhs);
    return success();
  }
};

struct ExpandCmp : OpRewritePattern<CmpOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CmpOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = op.getType();
    Type elem = getPromotedElementType(getElementTypeOrSelf(op.getLhs().getType()),
                                       getElementTypeOrSelf(op.getRhs().getType()));
    Value lhs = broadcastTo(rewriter, loc, op.getLhs(), type, elem);
    Value rhs = broadcastTo(rewriter, loc, op.getRhs(), type, elem);
    if (isa<FloatType>(getElementTypeOrSelf(lhs.getType()))) {
      // Python's comparisons: ordered, except != (true for a NaN).
      arith::CmpFPredicate predicate = arith::CmpFPredicate::OLT;
      switch (op.getPredicate()) {
      case Comparison::LT: predicate = arith::CmpFPredicate::OLT; break;
      case Comparison::LE: predicate = arith::CmpFPredicate::OLE; break;
      case Comparison::GT: predicate = arith::CmpFPredicate::OGT; break;
      case Comparison::GE: predicate = arith::CmpFPredicate::OGE; break;
      case Comparison::EQ: predicate = arith::CmpFPredicate::OEQ; break;
      case Comparison::NE: predicate = arith::CmpFPredicate::UNE; break;
      }
      rewriter.replaceOpWithNewOp<arith::CmpFOp>(op, predicate, lhs, rhs);
      return success();
    }
    arith::CmpIPredicate predicate = arith::CmpIPredicate::slt;
    switch (op.getPredicate()) {
    case Comparison::LT: predicate = arith::CmpIPredicate::slt; break;
    case Comparison::LE: predicate = arith::CmpIPredicate::sle; break;
    case Comparison::GT: predicate = arith::CmpIPredicate::sgt; break;
    case Comparison::GE: predicate = arith::CmpIPredicate::sge; break;
    case Comparison::EQ: predicate = arith::CmpIPredicate::eq; break;
    case Comparison::NE: predicate = arith::CmpIPredicate::ne; break;
    }
    rewriter.replaceOpWithNewOp<arith::CmpIOp>(op, predicate, lhs, rhs);
    return success();
  }
};

struct ExpandWhere : OpRewritePattern<WhereOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(WhereOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = op.getType(), elem = getElementTypeOrSelf(type);
    Value condition = broadcastTo(rewriter, loc, op.getCondition(), type);
    Value trueValue = broadcastTo(rewriter, loc, op.getTrueValue(), type, elem);
    Value falseValue =
        broadcastTo(rewriter, loc, op.getFalseValue(), type, elem);
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, condition, trueValue,
                                                 falseValue);
    return success();
  }
};

/// tile.addptr of a scalar pointer and tile offsets (or the reverse, or
/// tiles that broadcast): both as tiles of the result's shape.
struct ExpandAddPtr : OpRewritePattern<AddPtrOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AddPtrOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (op.getPtr().getType() == type &&
        shapeOf(op.getOffset().getType()) == shapeOf(type))
      return failure();
    Location loc = op.getLoc();
    Value ptr = broadcastTo(rewriter, loc, op.getPtr(), type);
    Value offset = broadcastTo(rewriter, loc, op.getOffset(), type);
    rewriter.replaceOpWithNewOp<AddPtrOp>(op, type, ptr, offset);
    return success();
  }
};

/// The pointers and in-tensor mask of the block of a made descriptor at
/// (row, col): base + (row + i) * stride + (col + j), with 64-bit address
/// arithmetic for the block's first row and 32-bit within the block.
std::pair<Value, Value> blockPointers(PatternRewriter &rewriter, Location loc,
                                      MakeTensorDescOp desc, Value row,
                                      Value col) {
  auto descType = cast<TensorDescType>(desc.getType());
  ArrayRef<int64_t> block = descType.getBlockShape();
  Type i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
  auto tile = [&](ArrayRef<int64_t> shape, Type elem) {
    return RankedTensorType::get(shape, elem);
  };
  Value stride = desc.getRowStride();
  // (One statement each: the ops come out in a fixed order.)
  Value row64 = arith::ExtSIOp::create(rewriter, loc, i64, row);
  Value stride64 = arith::ExtSIOp::create(rewriter, loc, i64, stride);
  Value rowStart = arith::MulIOp::create(rewriter, loc, row64, stride64);
  Value base = AddPtrOp::create(rewriter, loc, desc.getBase().getType(),
                                desc.getBase(), rowStart);
  // Row and column indices, [BM, 1] and [1, BN].
  auto indices = [&](int64_t size, Value start, int64_t axis) {
    Value range = MakeRangeOp::create(rewriter, loc, tile({size}, i32), 0, size);
    Value starts = SplatOp::create(rewriter, loc, tile({size}, i32), start);
    Value index = arith::AddIOp::create(rewriter, loc, starts, range);
    SmallVector<int64_t> shape = {1, 1};
    shape[axis] = size;
    return std::pair<Value, Value>(
        range, ExpandDimsOp::create(rewriter, loc, tile(shape, i32), index,
                                    rewriter.getI32IntegerAttr(1 - axis)));
  };
  auto [rowRange, rows] = indices(block[0], row, 0);
  auto [colRange, cols] = indices(block[1], col, 1);
  Type full = tile(block, i32);
  // Offsets within the block: i * stride + col + j.
  Value rowRange2 = ExpandDimsOp::create(rewriter, loc, tile({block[0], 1}, i32),
                                         rowRange, rewriter.getI32IntegerAttr(1));
  Value rowOffsets = arith::MulIOp::create(
      rewriter, loc, rowRange2,
      SplatOp::create(rewriter, loc, tile({block[0], 1}, i32), stride));
  Value rowOffsetsFull = BroadcastOp::create(rewriter, loc, full, rowOffsets);
  Value colsFull = BroadcastOp::create(rewriter, loc, full, cols);
  Value offsets = arith::AddIOp::create(rewriter, loc, rowOffsetsFull, colsFull);
  auto ptrType = tile(block, desc.getBase().getType());
  Value ptrs = AddPtrOp::create(rewriter, loc, ptrType,
                                SplatOp::create(rewriter, loc, ptrType, base),
                                offsets);
  // In the tensor: 0 <= index < extent, along both dimensions.
  auto inside = [&](Value index, Value extent, ArrayRef<int64_t> shape) {
    Type type = tile(shape, i32);
    Value zero = arith::ConstantOp::create(
        rewriter, loc, DenseElementsAttr::get(cast<ShapedType>(type),
                                              rewriter.getI32IntegerAttr(0)));
    Value low = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge,
                                      index, zero);
    Value high = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::slt, index,
        SplatOp::create(rewriter, loc, type, extent));
    return BroadcastOp::create(rewriter, loc, tile(block, rewriter.getI1Type()),
                               arith::AndIOp::create(rewriter, loc, low, high));
  };
  Value rowsInside = inside(rows, desc.getRows(), {block[0], 1});
  Value colsInside = inside(cols, desc.getCols(), {1, block[1]});
  Value mask = arith::AndIOp::create(rewriter, loc, rowsInside, colsInside);
  return {ptrs, mask};
}

struct ExpandDescriptorLoad : OpRewritePattern<DescriptorLoadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DescriptorLoadOp op,
                                PatternRewriter &rewriter) const override {
    auto desc = op.getDesc().getDefiningOp<MakeTensorDescOp>();
    if (!desc) // a kernel argument: a CUtensorMap, loaded by TMA
      return failure();
    Location loc = op.getLoc();
    auto [ptrs, mask] =
        blockPointers(rewriter, loc, desc, op.getRow(), op.getCol());
    RankedTensorType type = op.getType();
    Value zero = arith::ConstantOp::create(
        rewriter, loc,
        DenseElementsAttr::get(type, rewriter.getZeroAttr(type.getElementType())));
    rewriter.replaceOpWithNewOp<LoadOp>(op, type, ptrs, mask, zero,
                                        CacheModifierAttr(), EvictionPolicyAttr(),
                                        /*isVolatile=*/false);
    return success();
  }
};

struct ExpandDescriptorStore : OpRewritePattern<DescriptorStoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DescriptorStoreOp op,
                                PatternRewriter &rewriter) const override {
    auto desc = op.getDesc().getDefiningOp<MakeTensorDescOp>();
    if (!desc) // the verifier requires one
      return failure();
    auto [ptrs, mask] =
        blockPointers(rewriter, op.getLoc(), desc, op.getRow(), op.getCol());
    rewriter.replaceOpWithNewOp<StoreOp>(op, ptrs, op.getValue(), mask,
                                         CacheModifierAttr(),
                                         EvictionPolicyAttr());
    return success();
  }
};

struct TileDesugarPass
    : public llk::tile::impl::TileDesugarBase<TileDesugarPass> {
  void runOnOperation() override {
    if (failed(desugar(getOperation())))
      signalPassFailure();
  }
};

/// Puts every use list in the order the parser leaves it: the newest use
/// first, an op's operands created when the op is (after the ops of its
/// regions: post-order), the last operand first. The ops the patterns made
/// put their uses at the front instead, and passes that visit uses in order
/// (layout assignment) would then make different code of a short form than
/// of the explicit ops it stands for.
void restoreParsedUseOrder(Operation *root) {
  llvm::DenseMap<Operation *, unsigned> created;
  root->walk([&](Operation *op) { created[op] = created.size(); });
  auto reorder = [&](Value value) {
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : value.getUses())
      uses.push_back(&use);
    if (uses.size() < 2)
      return;
    // The parsed order of each use, newest first.
    auto newer = [&](OpOperand *a, OpOperand *b) {
      unsigned ca = created.lookup(a->getOwner()), cb = created.lookup(b->getOwner());
      if (ca != cb)
        return ca > cb;
      return a->getOperandNumber() > b->getOperandNumber();
    };
    SmallVector<OpOperand *> sorted(uses);
    llvm::stable_sort(sorted, newer);
    if (sorted == uses)
      return;
    // shuffleUseList: indices[i] is the new position of the i-th use.
    llvm::DenseMap<OpOperand *, unsigned> position;
    for (auto [i, use] : llvm::enumerate(sorted))
      position[use] = i;
    SmallVector<unsigned> indices;
    for (OpOperand *use : uses)
      indices.push_back(position[use]);
    value.shuffleUseList(indices);
  };
  root->walk([&](Operation *op) {
    for (Value result : op->getResults())
      reorder(result);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          reorder(arg);
  });
}

} // namespace

void llk::tile::populateDesugarPatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<ExpandBinary<AddOp, arith::AddIOp, arith::AddFOp>,
               ExpandBinary<SubOp, arith::SubIOp, arith::SubFOp>,
               ExpandBinary<MulOp, arith::MulIOp, arith::MulFOp>,
               ExpandBinary<DivOp, arith::DivSIOp, arith::DivFOp>,
               ExpandBinary<RemOp, arith::RemSIOp, arith::RemFOp>,
               ExpandBinary<MinOp, arith::MinSIOp, arith::MinNumFOp>,
               ExpandBinary<MaxOp, arith::MaxSIOp, arith::MaxNumFOp>,
               ExpandBinary<AndOp, arith::AndIOp, void>,
               ExpandBinary<OrOp, arith::OrIOp, void>,
               ExpandBinary<XOrOp, arith::XOrIOp, void>, ExpandCmp,
               ExpandWhere, ExpandAddPtr, ExpandDescriptorLoad, ExpandDescriptorStore>(context);
}

LogicalResult llk::tile::desugar(Operation *root) {
  LLVM_DEBUG(root->walk([](Operation *op) {
    if (isShortForm(op))
      llvm::dbgs() << "[tile-desugar] writing out " << op->getName() << " at "
                   << op->getLoc() << "\n";
  }));
  RewritePatternSet patterns(root->getContext());
  populateDesugarPatterns(patterns);
  walkAndApplyPatterns(root, std::move(patterns));
  restoreParsedUseOrder(root);
  // The descriptors made in the kernel, now unused: their loads and stores
  // are pointer tiles.
  root->walk([](MakeTensorDescOp op) {
    if (op->use_empty())
      op->erase();
  });
  // What is left is a short form the patterns could not expand (in an
  // unreachable block, which the walk skips).
  WalkResult left = root->walk([](Operation *op) {
    if (isShortForm(op)) {
      op->emitError("cannot be written out as explicit ops here (is it in "
                    "an unreachable block?)");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(left.wasInterrupted());
}
