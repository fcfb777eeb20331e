//===- SortOpToGPU.cpp - tile.sort and tile.topk --------------------------===//
//
// A bitonic sorting network along one axis. Every element travels with its
// original position along the axis, and the network compares (key,
// position) pairs, a strict total order, so it gives the one permutation a
// stable sort gives (the interpreter's). Merge stage (k, j) compare-
// exchanges each element at axis coordinate c with the one at c ^ j, and
// keeps the earlier of the two where (c & j == 0) == (c & k == 0), the
// later elsewhere. Where the partner is depends on which part of the
// blocked layout bit j of the coordinate belongs to (slowest first:
// repetition, warp, warp repeat, lane, element of the run): the registers'
// parts pair registers of the thread, the lane part lanes by an xor
// shuffle, the warp part warps through shared memory.
//
//===----------------------------------------------------------------------===//

#include "PatternTileOpToGPU.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "convert-tile-to-gpu"

using namespace mlir;
using namespace llk;
using namespace llk::togpu;

namespace {

/// One element on its way through the network: its key, its original
/// position along the axis, and the value it carries (or null).
struct Element {
  Value key, position, value;
};

/// The network for one tile, on the registers of each thread.
class SortNetwork {
public:
  SortNetwork(IndexEmitter &e, SharedScratch &scratch, Operation *op,
              RankedTensorType type, unsigned axis, bool descending)
      : e(e), scratch(scratch), op(op), type(type), view(viewOf(type)),
        axis(axis), descending(descending) {}

  /// The thread's elements of `keys` (and `values`, if any) sorted; the
  /// positions are those each element had along the axis.
  FailureOr<SmallVector<Element>> sort(Value keys, Value values);

private:
  enum class Place { Registers, Lanes, Warps };
  /// Where bit `j` of the axis coordinate lies in the layout.
  Place placeOf(int64_t j) const {
    int64_t spt = view.sizePerThread[axis], lanes = spt * view.threadsPerWarp[axis];
    int64_t repeat = lanes * view.warpRepeat[axis];
    int64_t warps = repeat * view.warpsPerCTA[axis];
    if (j < spt || (j >= lanes && j < repeat) || j >= warps)
      return Place::Registers;
    return j < lanes ? Place::Lanes : Place::Warps;
  }

  /// Whether key `a` is before key `b` in ascending order: NaN after every
  /// number, NaNs (and -0.0, +0.0) equal; integers signed.
  Value keyLess(Value a, Value b) {
    if (isa<FloatType>(a.getType())) {
      Value isNumber = arith::CmpFOp::create(e.b, e.loc, arith::CmpFPredicate::ORD, a, a);
      Value lessOrNaN = arith::CmpFOp::create(e.b, e.loc, arith::CmpFPredicate::ULT, a, b);
      return arith::AndIOp::create(e.b, e.loc, isNumber, lessOrNaN);
    }
    return arith::CmpIOp::create(e.b, e.loc, arith::CmpIPredicate::slt, a, b);
  }
  /// Whether `a` comes before `b` in the sorted row.
  Value before(const Element &a, const Element &b) {
    Value less = descending ? keyLess(b.key, a.key) : keyLess(a.key, b.key);
    Value greater = descending ? keyLess(a.key, b.key) : keyLess(b.key, a.key);
    Value earlier = arith::CmpIOp::create(e.b, e.loc, arith::CmpIPredicate::ult,
                                          a.position, b.position);
    Value tie = arith::AndIOp::create(
        e.b, e.loc, arith::XOrIOp::create(e.b, e.loc, greater, e.i1(true)), earlier);
    return arith::OrIOp::create(e.b, e.loc, less, tie);
  }
  Element select(Value cond, const Element &a, const Element &b) {
    auto pick = [&](Value x, Value y) {
      return x ? arith::SelectOp::create(e.b, e.loc, cond, x, y).getResult() : Value();
    };
    return {pick(a.key, b.key), pick(a.position, b.position), pick(a.value, b.value)};
  }
  /// (c & bit) == 0 for the coordinate c.
  Value bitClear(Value c, int64_t bit) {
    return arith::CmpIOp::create(
        e.b, e.loc, arith::CmpIPredicate::eq,
        arith::AndIOp::create(e.b, e.loc, c, e.i32(bit)), e.i32(0));
  }
  /// `self` after its compare-exchange with `partner` at stage (k, j).
  Element exchange(const Element &self, const Element &partner, Value coord,
                   int64_t k, int64_t j) {
    Value keepEarlier = arith::CmpIOp::create(e.b, e.loc, arith::CmpIPredicate::eq,
                                              bitClear(coord, j), bitClear(coord, k));
    Value partnerFirst = before(partner, self);
    Value takePartner = arith::CmpIOp::create(e.b, e.loc, arith::CmpIPredicate::eq,
                                              keepEarlier, partnerFirst);
    return select(takePartner, partner, self);
  }
  /// Each element's partner at stage j from another warp, through shared
  /// memory: the tile stored row-major, each partner loaded at its index.
  SmallVector<Element> partnersThroughShared(ArrayRef<Element> elems, int64_t j);

  IndexEmitter &e;
  SharedScratch &scratch;
  Operation *op;
  RankedTensorType type;
  DistributedView view;
  unsigned axis;
  bool descending;
  /// Row-major element index of each register (for partnersThroughShared).
  Value linear;
  /// The scratch buffer and the byte offsets of its position and value parts.
  Value base;
  int64_t positionsAt = 0, valuesAt = 0;
};

FailureOr<SmallVector<Element>> SortNetwork::sort(Value keys, Value values) {
  int64_t n = type.getDimSize(axis), numRegs = view.totalElemsPerThread();
  Value coords = e.coordinates(view, axis);
  SmallVector<Value> coord;
  SmallVector<Element> elems;
  for (int64_t r = 0; r < numRegs; ++r) {
    coord.push_back(e.extract(coords, r));
    elems.push_back({e.extract(keys, r), coord.back(),
                     values ? e.extract(values, r) : Value()});
  }
  // The register of each (row, offset along the axis from the thread's
  // first element): registers pair up within a row.
  llvm::DenseMap<std::pair<int64_t, int64_t>, int64_t> registerAt;
  SmallVector<std::pair<int64_t, int64_t>> rowOffset;
  for (auto [r, local] : llvm::enumerate(view.localIndices())) {
    SmallVector<int64_t> start(local);
    start[axis] = 0;
    std::pair<int64_t, int64_t> key{view.registerIndex(start),
                                    view.localOffset(axis, local[axis])};
    registerAt[key] = r;
    rowOffset.push_back(key);
  }
  LLVM_DEBUG({
    llvm::dbgs() << "[sort] " << op->getName() << " at " << e.loc << ": " << n
                 << " along axis " << axis << ", bits in";
    for (int64_t j = 1; j < n; j *= 2)
      llvm::dbgs() << " " << (placeOf(j) == Place::Registers ? "registers"
                              : placeOf(j) == Place::Lanes   ? "lanes"
                                                             : "warps");
    llvm::dbgs() << "\n";
  });

  for (int64_t k = 2; k <= n; k *= 2)
    for (int64_t j = k / 2; j >= 1; j /= 2) {
      switch (placeOf(j)) {
      case Place::Registers:
        for (int64_t lo = 0; lo < numRegs; ++lo) {
          auto [row, offset] = rowOffset[lo];
          if (offset & j)
            continue;
          auto it = registerAt.find({row, offset ^ j});
          if (it == registerAt.end())
            return failure();
          int64_t hi = it->second;
          // The lower element keeps the earlier where its block ascends.
          Value ascending = bitClear(coord[lo], k);
          Value swap = arith::CmpIOp::create(e.b, e.loc, arith::CmpIPredicate::eq,
                                             ascending, before(elems[hi], elems[lo]));
          Element low = select(swap, elems[hi], elems[lo]);
          elems[hi] = select(swap, elems[lo], elems[hi]);
          elems[lo] = low;
        }
        break;
      case Place::Lanes: {
        Value laneMask = e.i32(j / view.sizePerThread[axis] * view.laneStride[axis]);
        for (int64_t r = 0; r < numRegs; ++r) {
          auto across = [&](Value v) {
            return v ? shuffle(e, v, laneMask, gpu::ShuffleMode::XOR) : Value();
          };
          Element partner{across(elems[r].key), across(elems[r].position),
                          across(elems[r].value)};
          elems[r] = exchange(elems[r], partner, coord[r], k, j);
        }
        break;
      }
      case Place::Warps: {
        SmallVector<Element> partners = partnersThroughShared(elems, j);
        for (int64_t r = 0; r < numRegs; ++r)
          elems[r] = exchange(elems[r], partners[r], coord[r], k, j);
        break;
      }
      }
    }
  return elems;
}

SmallVector<Element> SortNetwork::partnersThroughShared(ArrayRef<Element> elems,
                                                        int64_t j) {
  SmallVector<int64_t> strides = rowMajorStrides(type.getShape());
  int64_t numElems = type.getNumElements();
  Type keyType = elems[0].key.getType();
  Type valueType = elems[0].value ? elems[0].value.getType() : Type();
  int64_t keyBytes = byteWidth(keyType), valueBytes = valueType ? byteWidth(valueType) : 0;
  if (!base) {
    positionsAt = llvm::alignTo(numElems * keyBytes, 16);
    valuesAt = positionsAt + llvm::alignTo(numElems * 4, 16);
    base = scratch.base(e.b, e.loc, op, valuesAt + numElems * valueBytes);
    linear = registerOffsets(e, view, strides, 1);
  }
  auto address = [&](Value index, int64_t at, int64_t bytes) {
    Value offset = arith::AddIOp::create(
        e.b, e.loc, arith::MulIOp::create(e.b, e.loc, index, e.i32(bytes)), e.i32(at));
    return byteAddress(e, base, offset);
  };
  struct Part {
    Value Element::*member;
    Type type;
    int64_t at, bytes;
  };
  SmallVector<Part> parts{{&Element::key, keyType, 0, keyBytes},
                          {&Element::position, e.b.getI32Type(), positionsAt, 4}};
  if (valueType)
    parts.push_back({&Element::value, valueType, valuesAt, valueBytes});

  // Replicas (lanes, warps) store the same values at the same places.
  gpu::BarrierOp::create(e.b, e.loc);
  for (auto [r, elem] : llvm::enumerate(elems)) {
    Value index = e.extract(linear, r);
    for (const Part &part : parts)
      LLVM::StoreOp::create(e.b, e.loc, elem.*part.member,
                            address(index, part.at, part.bytes), part.bytes);
  }
  gpu::BarrierOp::create(e.b, e.loc);
  SmallVector<Element> partners(elems.size());
  for (int64_t r = 0; r < int64_t(elems.size()); ++r) {
    Value index = arith::XOrIOp::create(e.b, e.loc, e.extract(linear, r),
                                        e.i32(j * strides[axis]));
    for (const Part &part : parts)
      partners[r].*part.member = LLVM::LoadOp::create(
          e.b, e.loc, part.type, address(index, part.at, part.bytes), part.bytes);
  }
  return partners;
}

/// The members `member` of `elems`, as the vector of a lowered tile.
Value gatherMember(IndexEmitter &e, ArrayRef<Element> elems, Value Element::*member) {
  SmallVector<Value> regs;
  for (const Element &elem : elems)
    regs.push_back(elem.*member);
  return e.fromElements(regs[0].getType(), regs);
}

struct SortLowering : TilePattern<SortOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(SortOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    SortNetwork network(e, state.scratch, op, op.getKeys().getType(), op.getAxis(),
                        op.getDescending());
    FailureOr<SmallVector<Element>> sorted =
        network.sort(adaptor.getKeys(), adaptor.getValues());
    if (failed(sorted))
      return rewriter.notifyMatchFailure(op, "the layout pairs no registers");
    SmallVector<Value> results{gatherMember(e, *sorted, &Element::key)};
    if (op.getValues())
      results.push_back(gatherMember(e, *sorted, &Element::value));
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// The rows sorted, then their first k elements moved into the results'
/// layout through shared memory.
struct TopKLowering : TilePattern<TopKOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(TopKOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    RankedTensorType srcType = op.getSrc().getType();
    SortNetwork network(e, state.scratch, op, srcType, srcType.getRank() - 1,
                        !op.getSmallest());
    FailureOr<SmallVector<Element>> sorted = network.sort(adaptor.getSrc(), Value());
    if (failed(sorted))
      return rewriter.notifyMatchFailure(op, "the layout pairs no registers");
    // Result element (..., i) is the sorted row's element i.
    SmallVector<int64_t> strides = rowMajorStrides(srcType.getShape());
    SmallVector<Value> results;
    for (auto [member, result] :
         {std::pair{&Element::key, op.getValues()}, {&Element::position, op.getIndices()}})
      results.push_back(exchangeThroughShared(e, state.scratch, op,
                                              gatherMember(e, *sorted, member), srcType,
                                              result.getType(), strides, strides));
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void llk::togpu::populateSortOpToGPUPatterns(const TypeConverter &converter,
                                             RewritePatternSet &patterns,
                                             LoweringState &state) {
  patterns.add<SortLowering, TopKLowering>(converter, patterns.getContext(), state);
}
