//===- Layout.cpp - how a tile is spread over threads ---------------------===//

#include "llk/Dialect/Tile/IR/Layout.h"

using namespace mlir;
using namespace llk::tile;

int64_t DistributedView::contigPerThread(unsigned d) const {
  return std::min<int64_t>(sizePerThread[d], shape[d]);
}

int64_t DistributedView::tileExtent(unsigned d) const {
  return int64_t(sizePerThread[d]) * threadsPerWarp[d] * warpsPerCTA[d];
}

int64_t DistributedView::localOffset(unsigned d, int64_t k) const {
  // Runs of contigPerThread elements, one per lane block; a warp takes
  // warpRepeat blocks in a row, then the pattern repeats.
  int64_t contig = contigPerThread(d), block = k / contig;
  int64_t repeat = warpRepeat[d], laneBlock = sizePerThread[d] * threadsPerWarp[d];
  return (block / repeat) * tileExtent(d) * repeat +
         (block % repeat) * laneBlock + k % contig;
}

int64_t DistributedView::elemsPerThread(unsigned d) const {
  return contigPerThread(d) * std::max<int64_t>(1, shape[d] / tileExtent(d));
}

unsigned DistributedView::distinctLanes(unsigned d) const {
  int64_t lanes = shape[d] / std::max<int64_t>(1, sizePerThread[d]);
  return std::clamp<int64_t>(lanes, 1, threadsPerWarp[d]);
}

unsigned DistributedView::distinctWarps(unsigned d) const {
  int64_t warps = shape[d] / (int64_t(sizePerThread[d]) * threadsPerWarp[d] *
                              warpRepeat[d]);
  return std::clamp<int64_t>(warps, 1, warpsPerCTA[d]);
}

int64_t DistributedView::totalElemsPerThread() const {
  int64_t total = 1;
  for (unsigned d = 0; d < shape.size(); ++d)
    total *= elemsPerThread(d);
  return total;
}

SmallVector<SmallVector<int64_t>> DistributedView::localIndices() const {
  SmallVector<SmallVector<int64_t>> result;
  int64_t total = totalElemsPerThread();
  result.reserve(total);
  for (int64_t r = 0; r < total; ++r) {
    SmallVector<int64_t> local(shape.size(), 0);
    int64_t rest = r;
    for (unsigned d : order) {
      local[d] = rest % elemsPerThread(d);
      rest /= elemsPerThread(d);
    }
    result.push_back(std::move(local));
  }
  return result;
}

int64_t DistributedView::registerIndex(ArrayRef<int64_t> local) const {
  int64_t index = 0, stride = 1;
  for (unsigned d : order) {
    index += local[d] * stride;
    stride *= elemsPerThread(d);
  }
  return index;
}

FailureOr<DistributedView>
llk::tile::getDistributedView(RankedTensorType type) {
  Attribute encoding = type.getEncoding();
  BlockedLayoutAttr blocked;
  std::optional<unsigned> slicedDim;
  if (auto slice = dyn_cast_or_null<SliceLayoutAttr>(encoding)) {
    blocked = slice.getParent();
    slicedDim = slice.getDim();
  } else {
    blocked = dyn_cast_or_null<BlockedLayoutAttr>(encoding);
  }
  if (!blocked)
    return failure();
  unsigned parentRank = blocked.getRank();
  if (type.getRank() + (slicedDim ? 1 : 0) != parentRank)
    return failure();

  // Lane and warp strides of each parent dimension, from the parent's order.
  SmallVector<unsigned> laneStride(parentRank), warpStride(parentRank);
  unsigned lane = 1, warp = 1;
  for (unsigned p : blocked.getOrder()) {
    laneStride[p] = lane;
    warpStride[p] = warp;
    lane *= blocked.getThreadsPerWarp()[p];
    warp *= blocked.getWarpsPerCTA()[p];
  }

  DistributedView view;
  view.numWarps = blocked.getNumWarps();
  view.shape.assign(type.getShape().begin(), type.getShape().end());
  auto parentDim = [&](unsigned d) {
    return slicedDim && d >= *slicedDim ? d + 1 : d;
  };
  for (unsigned d = 0; d < type.getRank(); ++d) {
    unsigned p = parentDim(d);
    view.sizePerThread.push_back(blocked.getSizePerThread()[p]);
    view.threadsPerWarp.push_back(blocked.getThreadsPerWarp()[p]);
    view.warpsPerCTA.push_back(blocked.getWarpsPerCTA()[p]);
    view.warpRepeat.push_back(blocked.getWarpRepeatOf(p));
    view.laneStride.push_back(laneStride[p]);
    view.warpStride.push_back(warpStride[p]);
  }
  if (slicedDim) {
    view.slicedLaneStride = laneStride[*slicedDim];
    view.slicedLanes = blocked.getThreadsPerWarp()[*slicedDim];
    view.slicedWarpStride = warpStride[*slicedDim];
    view.slicedWarps = blocked.getWarpsPerCTA()[*slicedDim];
  }
  for (unsigned p : blocked.getOrder()) {
    if (slicedDim && p == *slicedDim)
      continue;
    view.order.push_back(slicedDim && p > *slicedDim ? p - 1 : p);
  }
  return view;
}

std::optional<std::pair<unsigned, int64_t>>
llk::tile::getUnfitDimension(RankedTensorType type) {
  Attribute encoding = type.getEncoding();
  auto blocked = dyn_cast_or_null<BlockedLayoutAttr>(encoding);
  if (auto slice = dyn_cast_or_null<SliceLayoutAttr>(encoding))
    blocked = slice.getParent();
  // Only layouts that have a warpRepeat need the view.
  if (!blocked || blocked.getWarpRepeat().empty())
    return std::nullopt;
  FailureOr<DistributedView> view = getDistributedView(type);
  if (failed(view))
    return std::nullopt;
  for (auto [dim, size] : llvm::enumerate(type.getShape())) {
    int64_t span = view->tileExtent(dim) * view->warpRepeat[dim];
    // A dimension of one element is held by every thread (as any dimension
    // smaller than the pattern is): the 1 x N side of a broadcast into an
    // MMA accumulator's layout.
    if (view->warpRepeat[dim] > 1 && size != 1 && size % span != 0)
      return std::make_pair(unsigned(dim), span);
  }
  return std::nullopt;
}

bool llk::tile::layoutFits(RankedTensorType type, Attribute layout) {
  RankedTensorType laidOut = withLayout(type, layout);
  return succeeded(getDistributedView(laidOut)) && !getUnfitDimension(laidOut);
}

BlockedLayoutAttr llk::tile::getDefaultBlockedLayout(MLIRContext *ctx,
                                                     ArrayRef<int64_t> shape,
                                                     unsigned numWarps,
                                                     unsigned vector,
                                                     ArrayRef<unsigned> order) {
  unsigned rank = shape.size();
  SmallVector<unsigned> spt(rank, 1), tpw(rank, 1), wpc(rank, 1);
  // Vector width along the fastest dimension, never more than it holds.
  spt[order[0]] = std::max<int64_t>(1, std::min<int64_t>(vector, shape[order[0]]));
  // Lanes fill the fastest dimensions first, then warps; what is left over
  // goes to the slowest dimension as replication.
  unsigned lanesLeft = 32, warpsLeft = numWarps;
  for (unsigned d : order) {
    int64_t room = std::max<int64_t>(1, shape[d] / spt[d]);
    unsigned take = std::min<int64_t>(lanesLeft, room);
    tpw[d] = take;
    lanesLeft /= take;
  }
  tpw[order.back()] *= lanesLeft;
  for (unsigned d : order) {
    int64_t room = std::max<int64_t>(1, shape[d] / (int64_t(spt[d]) * tpw[d]));
    unsigned take = std::min<int64_t>(warpsLeft, room);
    wpc[d] = take;
    warpsLeft /= take;
  }
  wpc[order.back()] *= warpsLeft;
  return BlockedLayoutAttr::get(ctx, spt, tpw, wpc, order);
}

/// Whether whole warpgroups of `numWarps` can each take 64-row blocks of an
/// accumulator of `shape` with every warp along M (m64nNk16, N <= 256).
static bool warpgroupsFit(ArrayRef<int64_t> shape, unsigned numWarps) {
  return numWarps % 4 == 0 && shape[0] % (16 * numWarps) == 0 &&
         shape[1] % 8 == 0 && shape[1] <= 256;
}

bool llk::tile::warpgroupMmaFitsRegisters(int64_t n, unsigned numWarps,
                                          unsigned minProgramsPerSM) {
  int64_t threads = int64_t(numWarps) * 32 * minProgramsPerSM;
  int64_t perThread = std::min<int64_t>(255, (65536 / threads) / 8 * 8);
  return n / 2 + 32 <= perThread;
}

BlockedLayoutAttr llk::tile::getMmaAccumulatorLayout(MLIRContext *ctx,
                                                     ArrayRef<int64_t> shape,
                                                     unsigned numWarps,
                                                     bool warpgroupRows) {
  SmallVector<unsigned> spt{1, 2}, tpw{8, 4}, order{1, 0};
  if (warpgroupRows && warpgroupsFit(shape, numWarps))
    return BlockedLayoutAttr::get(ctx, spt, tpw, {numWarps, 1}, order,
                                  ArrayRef<unsigned>{2, 1});
  unsigned wm = 1, wn = 1;
  while (wm * wn < numWarps) {
    int64_t rowsPerWarp = shape[0] / wm, colsPerWarp = shape[1] / wn;
    bool canSplitM = rowsPerWarp >= 32;
    bool canSplitN = colsPerWarp >= 16;
    if (canSplitM && (rowsPerWarp >= colsPerWarp || !canSplitN))
      wm *= 2;
    else
      wn *= 2; // replicates along N once colsPerWarp < 8
  }
  return BlockedLayoutAttr::get(ctx, spt, tpw, {wm, wn}, order);
}

bool llk::tile::isMmaAccumulatorLayout(Attribute layout,
                                       ArrayRef<int64_t> shape) {
  auto blocked = dyn_cast_or_null<BlockedLayoutAttr>(layout);
  if (!blocked || blocked.getRank() != 2 || shape.size() != 2)
    return false;
  auto spt = blocked.getSizePerThread(), tpw = blocked.getThreadsPerWarp(),
       wpc = blocked.getWarpsPerCTA(), order = blocked.getOrder();
  return spt[0] == 1 && spt[1] == 2 && tpw[0] == 8 && tpw[1] == 4 &&
         order[0] == 1 && order[1] == 0 &&
         blocked.getWarpRepeatOf(1) == 1 && blocked.getWarpRepeatOf(0) <= 2 &&
         shape[0] >= 16 * int64_t(wpc[0]) && shape[1] >= 8;
}

bool llk::tile::isWarpgroupAccumulatorLayout(Attribute layout,
                                             ArrayRef<int64_t> shape) {
  auto blocked = dyn_cast_or_null<BlockedLayoutAttr>(layout);
  if (!blocked || shape.size() != 2)
    return false;
  unsigned numWarps = blocked.getNumWarps();
  return warpgroupsFit(shape, numWarps) &&
         blocked == getMmaAccumulatorLayout(layout.getContext(), shape,
                                            numWarps, /*warpgroupRows=*/true);
}

std::optional<unsigned> llk::tile::getMmaSyncK(DotOp dot) {
  Type elem = dot.getA().getType().getElementType();
  if (elem.isF16() || elem.isBF16())
    return 16;
  if (elem.isInteger(8))
    return 32;
  if (elem.isF32() &&
      dot.getPrecision().value_or(DotPrecision::TF32) == DotPrecision::TF32)
    return 8;
  return std::nullopt;
}

MmaEncodingAttr llk::tile::getMmaEncoding(DotOp dot, bool allowWarpgroup) {
  RankedTensorType aType = dot.getA().getType(), cType = dot.getType();
  auto layout = dyn_cast_or_null<BlockedLayoutAttr>(cType.getEncoding());
  // fp8 runs on warpgroup MMA (m64nNk32) only: elsewhere
  // tile-upcast-fp8-dots makes it an f16 dot.
  if (isFp8(aType.getElementType())) {
    if (!allowWarpgroup || !layout || aType.getDimSize(1) % 32 != 0 ||
        !cType.getElementType().isF32() ||
        !isWarpgroupAccumulatorLayout(layout, cType.getShape()))
      return nullptr;
    return MmaEncodingAttr::get(dot.getContext(), 3,
                                {64, unsigned(cType.getDimSize(1)), 32},
                                layout.getWarpsPerCTA());
  }
  std::optional<unsigned> k = getMmaSyncK(dot);
  if (!layout || !k || aType.getDimSize(1) % *k != 0 ||
      !isMmaAccumulatorLayout(layout, cType.getShape()))
    return nullptr;
  MLIRContext *ctx = dot.getContext();
  Type elem = aType.getElementType();
  if (allowWarpgroup && (elem.isF16() || elem.isBF16()) &&
      cType.getElementType().isF32() &&
      isWarpgroupAccumulatorLayout(layout, cType.getShape()))
    return MmaEncodingAttr::get(
        ctx, 3, {64, unsigned(cType.getDimSize(1)), 16}, layout.getWarpsPerCTA());
  return MmaEncodingAttr::get(ctx, 2, {16, 8, *k}, layout.getWarpsPerCTA());
}

bool llk::tile::suitsWarpgroupMma(DotOp dot,
                                  std::optional<unsigned> aContiguousDim,
                                  unsigned bContiguousDim) {
  RankedTensorType aType = dot.getA().getType(), cType = dot.getType();
  Type elem = aType.getElementType();
  int64_t K = aType.getDimSize(1), N = cType.getDimSize(1);
  if (!cType.getElementType().isF32() ||
      !isWarpgroupAccumulatorLayout(cType.getEncoding(), cType.getShape()))
    return false;
  // 8-bit wgmma reads both operands K-major from shared memory only (PTX
  // has no transpose for them, and no register A form here).
  // K in whole 128-byte slabs, or one 64-byte one (the 64-byte swizzle).
  if (isFp8(elem))
    return aContiguousDim && *aContiguousDim == 1 && bContiguousDim == 0 &&
           (K % 128 == 0 || K == 64);
  int64_t bInnerBytes = (bContiguousDim == 1 ? N : K) * 2;
  bool aFits = aContiguousDim ? *aContiguousDim == 1 && (K * 2) % 128 == 0
                              : K % 16 == 0;
  return (elem.isF16() || elem.isBF16()) && aFits && bInnerBytes % 128 == 0;
}

BlockedLayoutAttr
llk::tile::getWarpgroupRegisterOperandLayout(MLIRContext *ctx,
                                             ArrayRef<int64_t> shape,
                                             unsigned numWarps) {
  if (shape.size() != 2 || !warpgroupsFit(shape, numWarps))
    return nullptr;
  return getMmaAccumulatorLayout(ctx, shape, numWarps, /*warpgroupRows=*/true);
}

bool llk::tile::hasWarpgroupRegisterOperandA(DotOp dot) {
  RankedTensorType aType = dot.getA().getType(), cType = dot.getType();
  auto layout = dyn_cast_or_null<BlockedLayoutAttr>(cType.getEncoding());
  return layout && aType.getEncoding() &&
         aType.getEncoding() ==
             getWarpgroupRegisterOperandLayout(
                 dot.getContext(), aType.getShape(), layout.getNumWarps());
}

std::optional<unsigned> llk::tile::loopCarriedAccumulator(DotOp dot) {
  auto loop = dyn_cast<scf::ForOp>(dot->getParentOp());
  auto acc = dyn_cast<BlockArgument>(dot.getAcc());
  if (!loop || !acc || acc.getOwner() != loop.getBody() ||
      acc.getArgNumber() == 0 || !acc.hasOneUse() || !dot->hasOneUse())
    return std::nullopt;
  unsigned index = acc.getArgNumber() - 1;
  OpOperand &use = *dot->getUses().begin();
  if (!isa<scf::YieldOp>(use.getOwner()) || use.getOperandNumber() != index)
    return std::nullopt;
  return index;
}

RankedTensorType llk::tile::withLayout(RankedTensorType type,
                                       Attribute layout) {
  return RankedTensorType::get(type.getShape(), type.getElementType(), layout);
}
