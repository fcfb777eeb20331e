//===- SortOpToGPU.cpp - tile.sort and tile.topk --------------------------===//
//
// A bitonic sorting network along one axis. Every element travels with its
// original position along the axis, and the network compares (key,
// position) pairs, a strict total order, so it gives the one permutation a
// stable sort gives (the interpreter's). Merge k (k = 2, 4, ..., n) runs
// the stages j = k/2, ..., 2, 1; stage (k, j) compare-exchanges each element
// at axis coordinate c with the one at c ^ j, and keeps the earlier of the
// two where (c & j == 0) == (c & k == 0), the later elsewhere. Where the
// partner is depends on which part of the blocked layout bit j of the
// coordinate belongs to (slowest first: repetition, warp, warp repeat,
// lane, element of the run): the registers' parts pair registers of the
// thread, the lane part lanes by an xor shuffle, the warp part warps
// through shared memory.
//
// Unrolled, the network is log n (log n + 1) / 2 stages over all of a
// thread's elements (55 for n = 1024), and the code and the compile time
// grow with it. So the merges past the thread's own run are a loop over k,
// and in each merge the stages in lanes and in warps loops over j (the
// shuffle's xor mask, the partner's index and the directions computed from
// k and j at run time). Only the stages that pair registers are unrolled,
// as their partners are static register indices; one at a bit above the
// loop's first merge runs under an scf.if (j < k). The merges within the
// thread's run come first, unrolled.
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
  static StringRef nameOf(Place place) {
    return place == Place::Registers ? "registers"
           : place == Place::Lanes   ? "lanes"
                                     : "warps";
  }
  /// Bits [lo, hi) of the axis coordinate, all in one place.
  struct Segment {
    Place place;
    int64_t lo, hi;
  };

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
  Value bitClear(Value c, Value bit) {
    return arith::CmpIOp::create(e.b, e.loc, arith::CmpIPredicate::eq,
                                 arith::AndIOp::create(e.b, e.loc, c, bit), e.i32(0));
  }
  /// 1 << `bit`.
  Value powerOfTwo(Value bit) { return arith::ShLIOp::create(e.b, e.loc, e.i32(1), bit); }
  /// `self` after its compare-exchange with `partner` at stage (k, j).
  Element exchange(const Element &self, const Element &partner, Value coord, Value k,
                   Value j) {
    Value keepEarlier = arith::CmpIOp::create(e.b, e.loc, arith::CmpIPredicate::eq,
                                              bitClear(coord, j), bitClear(coord, k));
    Value partnerFirst = before(partner, self);
    Value takePartner = arith::CmpIOp::create(e.b, e.loc, arith::CmpIPredicate::eq,
                                              keepEarlier, partnerFirst);
    return select(takePartner, partner, self);
  }

  /// Stage (k, j) at a bit j of the registers: each pair of registers of a
  /// row j apart.
  void registerStage(int64_t j, Value k);
  /// Stage (k, j) at a bit j of the lanes: an xor shuffle.
  void laneStage(Value j, Value k);
  /// Stage (k, j) at a bit j of the warps, through shared memory: the tile
  /// stored row-major (by one owner of each element), each partner loaded
  /// at its index.
  void warpStage(Value j, Value k);
  /// `body(i)` for i = from, ..., to - 1, in an scf.for that carries the
  /// elements.
  void loopCarryingElements(Value from, Value to, llvm::function_ref<void(Value i)> body);
  /// `body` under an scf.if on `cond`; the elements stay as they are where
  /// `cond` does not hold.
  void onlyIf(Value cond, llvm::function_ref<void()> body);
  /// The elements' values, in the order a loop carries them, and back.
  SmallVector<Value> flatElements() const;
  void setElements(ValueRange flat);

  IndexEmitter &e;
  SharedScratch &scratch;
  Operation *op;
  RankedTensorType type;
  DistributedView view;
  unsigned axis;
  bool descending;
  /// The thread's elements, as the network has them so far.
  SmallVector<Element> elems;
  /// What each register's stage directions test k and j against: its
  /// coordinate along the axis, or (in the loop, where every mask tested is
  /// at least sizePerThread) that of the first register of its run, the
  /// same value for the whole run.
  SmallVector<Value> coord;
  /// The register at (row, offset along the axis from the thread's first
  /// element), the (row, offset) of each register, and the first register
  /// of each register's run.
  llvm::DenseMap<std::pair<int64_t, int64_t>, int64_t> registerAt;
  SmallVector<std::pair<int64_t, int64_t>> rowOffset;
  SmallVector<int64_t> runStart;
  /// For warpStage: the row-major element index of each register, the
  /// scratch buffer and the byte offsets of its position and value parts,
  /// and the threads that store (null: all).
  Value linear, base, writers;
  int64_t positionsAt = 0, valuesAt = 0;
};

SmallVector<Value> SortNetwork::flatElements() const {
  SmallVector<Value> flat;
  for (const Element &elem : elems) {
    flat.push_back(elem.key);
    flat.push_back(elem.position);
    if (elem.value)
      flat.push_back(elem.value);
  }
  return flat;
}

void SortNetwork::setElements(ValueRange flat) {
  for (Element &elem : elems) {
    elem.key = flat.front();
    elem.position = flat[1];
    flat = flat.drop_front(2);
    if (elem.value) {
      elem.value = flat.front();
      flat = flat.drop_front();
    }
  }
}

void SortNetwork::loopCarryingElements(Value from, Value to,
                                       llvm::function_ref<void(Value i)> body) {
  auto loop = scf::ForOp::create(e.b, e.loc, from, to, e.i32(1), flatElements());
  {
    OpBuilder::InsertionGuard guard(e.b);
    e.b.setInsertionPointToStart(loop.getBody());
    setElements(loop.getRegionIterArgs());
    body(loop.getInductionVar());
    scf::YieldOp::create(e.b, e.loc, flatElements());
  }
  setElements(loop.getResults());
}

void SortNetwork::onlyIf(Value cond, llvm::function_ref<void()> body) {
  SmallVector<Value> unchanged = flatElements();
  auto branch = scf::IfOp::create(e.b, e.loc, ValueRange(unchanged).getTypes(), cond,
                                  /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(e.b);
    e.b.setInsertionPointToStart(branch.thenBlock());
    body();
    scf::YieldOp::create(e.b, e.loc, flatElements());
    e.b.setInsertionPointToStart(branch.elseBlock());
    scf::YieldOp::create(e.b, e.loc, unchanged);
  }
  setElements(branch.getResults());
}

void SortNetwork::registerStage(int64_t j, Value k) {
  for (int64_t lo = 0; lo < int64_t(elems.size()); ++lo) {
    auto [row, offset] = rowOffset[lo];
    if (offset & j)
      continue;
    int64_t hi = registerAt.lookup({row, offset ^ j});
    // The lower element keeps the earlier where its block ascends.
    Value ascending = bitClear(coord[lo], k);
    Value swap = arith::CmpIOp::create(e.b, e.loc, arith::CmpIPredicate::eq, ascending,
                                       before(elems[hi], elems[lo]));
    Element low = select(swap, elems[hi], elems[lo]);
    elems[hi] = select(swap, elems[lo], elems[hi]);
    elems[lo] = low;
  }
}

void SortNetwork::laneStage(Value j, Value k) {
  // Lanes j / sizePerThread apart along the axis, laneStride a step.
  Value laneMask = arith::ShLIOp::create(
      e.b, e.loc,
      arith::ShRUIOp::create(e.b, e.loc, j,
                             e.i32(llvm::Log2_64(view.sizePerThread[axis]))),
      e.i32(llvm::Log2_64(view.laneStride[axis])));
  for (auto [r, elem] : llvm::enumerate(elems)) {
    auto across = [&](Value v) {
      return v ? shuffle(e, v, laneMask, gpu::ShuffleMode::XOR) : Value();
    };
    Element partner{across(elem.key), across(elem.position), across(elem.value)};
    elem = exchange(elem, partner, coord[r], k, j);
  }
}

void SortNetwork::warpStage(Value j, Value k) {
  SmallVector<int64_t> strides = rowMajorStrides(type.getShape());
  Type keyType = elems[0].key.getType();
  Type valueType = elems[0].value ? elems[0].value.getType() : Type();
  int64_t keyBytes = byteWidth(keyType), valueBytes = valueType ? byteWidth(valueType) : 0;
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

  gpu::BarrierOp::create(e.b, e.loc);
  {
    // Replicas (in other lanes or warps) hold the same elements: one owner
    // of each writes it.
    OpBuilder::InsertionGuard guard(e.b);
    if (writers)
      e.b.setInsertionPointToStart(
          scf::IfOp::create(e.b, e.loc, writers, /*withElseRegion=*/false).thenBlock());
    for (auto [r, elem] : llvm::enumerate(elems)) {
      Value index = e.extract(linear, r);
      for (const Part &part : parts)
        LLVM::StoreOp::create(e.b, e.loc, elem.*part.member,
                              address(index, part.at, part.bytes), part.bytes);
    }
  }
  gpu::BarrierOp::create(e.b, e.loc);
  // j is at least sizePerThread, so the partner of the run's element at
  // offset o is at the partner's index of the run's first element, plus o
  // along the axis: one index a run, constant offsets from it.
  Value partnerOffset = arith::MulIOp::create(e.b, e.loc, j, e.i32(strides[axis]));
  llvm::DenseMap<int64_t, Value> partnerOfRun;
  for (auto [r, elem] : llvm::enumerate(elems)) {
    int64_t first = runStart[r];
    Value &index = partnerOfRun[first];
    if (!index)
      index = arith::XOrIOp::create(e.b, e.loc, e.extract(linear, first), partnerOffset);
    int64_t inRun = (rowOffset[r].second - rowOffset[first].second) * strides[axis];
    Element partner;
    for (const Part &part : parts)
      partner.*part.member = LLVM::LoadOp::create(
          e.b, e.loc, part.type,
          address(index, part.at + inRun * part.bytes, part.bytes), part.bytes);
    elem = exchange(elem, partner, coord[r], k, j);
  }
}

FailureOr<SmallVector<Element>> SortNetwork::sort(Value keys, Value values) {
  int64_t n = type.getDimSize(axis), numRegs = view.totalElemsPerThread();
  for (auto [r, local] : llvm::enumerate(view.localIndices())) {
    SmallVector<int64_t> start(local);
    start[axis] = 0;
    std::pair<int64_t, int64_t> key{view.registerIndex(start),
                                    view.localOffset(axis, local[axis])};
    registerAt[key] = r;
    rowOffset.push_back(key);
  }
  int64_t runLength = view.sizePerThread[axis];
  for (auto [row, offset] : rowOffset)
    runStart.push_back(registerAt.lookup({row, offset / runLength * runLength}));
  // The coordinate's bits in runs of one place, lowest first; every
  // register has its partner at the registers' bits.
  SmallVector<Segment> segments;
  for (int64_t bit = 0; (int64_t(1) << bit) < n; ++bit) {
    int64_t j = int64_t(1) << bit;
    Place place = placeOf(j);
    if (place == Place::Registers)
      for (auto [row, offset] : rowOffset)
        if (!registerAt.contains({row, offset ^ j}))
          return failure();
    if (segments.empty() || segments.back().place != place)
      segments.push_back({place, bit, bit});
    segments.back().hi = bit + 1;
  }
  int64_t numBits = segments.empty() ? 0 : segments.back().hi;
  // Merges 1 << m for m up to `firstLooped` - 1 have all their stages in
  // the thread's run: unrolled. The others run in a loop over m.
  int64_t firstLooped =
      segments.empty() ? 1
      : segments[0].place == Place::Registers ? segments[0].hi + 1
                                              : 1;
  LLVM_DEBUG({
    llvm::dbgs() << "[sort] " << op->getName() << " at " << e.loc << ": " << n
                 << " along axis " << axis << ", bits";
    for (const Segment &segment : segments)
      llvm::dbgs() << " [" << segment.lo << ", " << segment.hi << ") in "
                   << nameOf(segment.place);
    llvm::dbgs() << "; merges 2^1 to 2^" << std::min(firstLooped - 1, numBits)
                 << " unrolled, the rest in a loop\n";
  });

  Value coords = e.coordinates(view, axis);
  for (int64_t r = 0; r < numRegs; ++r) {
    coord.push_back(e.extract(coords, r));
    elems.push_back({e.extract(keys, r), coord.back(),
                     values ? e.extract(values, r) : Value()});
  }
  for (int64_t m = 1; m < firstLooped && m <= numBits; ++m)
    for (int64_t bit = m - 1; bit >= 0; --bit)
      registerStage(int64_t(1) << bit, e.i32(int64_t(1) << m));
  if (firstLooped > numBits)
    return elems;
  // From here on every mask a direction tests is at least sizePerThread.
  for (int64_t r = 0; r < numRegs; ++r)
    coord[r] = coord[runStart[r]];

  if (llvm::any_of(segments, [](const Segment &s) { return s.place == Place::Warps; })) {
    int64_t numElems = type.getNumElements();
    int64_t keyBytes = byteWidth(elems[0].key.getType());
    int64_t valueBytes = values ? byteWidth(elems[0].value.getType()) : 0;
    positionsAt = llvm::alignTo(numElems * keyBytes, 16);
    valuesAt = positionsAt + llvm::alignTo(numElems * 4, 16);
    base = scratch.base(e.b, e.loc, op, valuesAt + numElems * valueBytes);
    linear = registerOffsets(e, view, rowMajorStrides(type.getShape()), 1);
    writers = e.ownerPredicate(view);
  }
  loopCarryingElements(e.i32(firstLooped), e.i32(numBits + 1), [&](Value m) {
    Value k = powerOfTwo(m);
    for (const Segment &segment : llvm::reverse(segments)) {
      if (segment.place == Place::Registers) {
        for (int64_t bit = segment.hi - 1; bit >= segment.lo; --bit) {
          auto stage = [&] { registerStage(int64_t(1) << bit, k); };
          if (bit < firstLooped) {
            stage();
            continue;
          }
          onlyIf(arith::CmpIOp::create(e.b, e.loc, arith::CmpIPredicate::slt,
                                       e.i32(bit), m),
                 stage);
        }
        continue;
      }
      // The segment's bits below k, highest first: iteration i runs bit
      // top - i, top = to + lo - 1.
      Value to = arith::MinSIOp::create(e.b, e.loc, m, e.i32(segment.hi));
      Value top = arith::AddIOp::create(e.b, e.loc, to, e.i32(segment.lo - 1));
      loopCarryingElements(e.i32(segment.lo), to, [&](Value i) {
        Value j = powerOfTwo(arith::SubIOp::create(e.b, e.loc, top, i));
        if (segment.place == Place::Lanes)
          laneStage(j, k);
        else
          warpStage(j, k);
      });
    }
  });
  return elems;
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
