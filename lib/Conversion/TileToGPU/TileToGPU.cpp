//===- TileToGPU.cpp - laid-out tile kernels to per-thread GPU code -------===//
//
// A tile with a distributed layout becomes, in each thread, the vector of the
// elements that thread holds (Layout.h says which, and in which order). Ops
// that keep elements in place (arith, math, casts, pointer arithmetic) then
// act on those vectors; ops that move elements between threads use
// gpu.shuffle and shared memory.
//
//===----------------------------------------------------------------------===//

#include "TileToGPUInternal.h"

#include "llk/Analysis/AxisInfo.h"
#include "llk/Conversion/Passes.h"
#include "llk/Dialect/Tile/IR/Layout.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

namespace llk {
#define GEN_PASS_DEF_CONVERTTILETOGPU
#include "llk/Conversion/Passes.h.inc"
} // namespace llk

using namespace mlir;
using namespace llk;
using namespace llk::tile;
using namespace llk::togpu;

namespace {

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

class TileTypeConverter : public TypeConverter {
public:
  explicit TileTypeConverter(MLIRContext *ctx) {
    addConversion([](Type type) { return type; });
    addConversion([ctx](PtrType) {
      return LLVM::LLVMPointerType::get(ctx, kGlobalAddressSpace);
    });
    // A ring of shared-memory buffers is the address of its first slot.
    addConversion([ctx](SharedType) {
      return LLVM::LLVMPointerType::get(ctx, kSharedAddressSpace);
    });
    // A tensor descriptor is the (generic) address of its CUtensorMap.
    addConversion([ctx](TensorDescType) {
      return LLVM::LLVMPointerType::get(ctx, 0);
    });
    addConversion([ctx](RankedTensorType type) -> std::optional<Type> {
      auto view = getDistributedView(type);
      if (failed(view))
        return std::nullopt;
      Type elem = type.getElementType();
      if (isa<PtrType>(elem))
        elem = IntegerType::get(ctx, 64);
      return VectorType::get({view->totalElemsPerThread()}, elem);
    });
    auto cast = [](OpBuilder &builder, Type type, ValueRange inputs,
                   Location loc) -> Value {
      return UnrealizedConversionCastOp::create(builder, loc, type, inputs)
          .getResult(0);
    };
    addSourceMaterialization(cast);
    addTargetMaterialization(cast);
  }
};

bool hasTileType(Operation *op) {
  auto isTile = [](Type t) { return isa<RankedTensorType>(t); };
  return llvm::any_of(op->getOperandTypes(), isTile) ||
         llvm::any_of(op->getResultTypes(), isTile);
}

/// Element types as stored in shared memory: i1 travels as i8.
Type storageType(Type elem) {
  return elem.isInteger(1) ? IntegerType::get(elem.getContext(), 8) : elem;
}

/// Moves a tile between layouts (and, for reshape and transpose, between
/// index spaces) through shared memory: every thread writes its elements at
/// `sum(coord[d] * srcStrides[d])`, and reads those of its new layout at
/// `sum(coord[d] * dstStrides[d])`. With `writers`, only the threads where
/// it holds write (the others' copies of their elements may differ).
Value exchangeThroughShared(IndexEmitter &e, SharedScratch &scratch,
                            Operation *op, Value src, Type srcTileType,
                            Type dstTileType, ArrayRef<int64_t> srcStrides,
                            ArrayRef<int64_t> dstStrides, Value writers = Value()) {
  DistributedView srcView = viewOf(srcTileType), dstView = viewOf(dstTileType);
  auto srcVec = cast<VectorType>(src.getType());
  Type elem = srcVec.getElementType();
  Type stored = storageType(elem);
  int64_t bytes = byteWidth(stored);
  // Elements the two index spaces span (padding included).
  auto span = [](Type tileType, ArrayRef<int64_t> strides) {
    int64_t last = 0;
    for (auto [size, stride] :
         llvm::zip(cast<RankedTensorType>(tileType).getShape(), strides))
      last += (size - 1) * stride;
    return last + 1;
  };
  int64_t numElems =
      std::max(span(srcTileType, srcStrides), span(dstTileType, dstStrides));
  Value base = scratch.base(e.b, e.loc, op, numElems * bytes);
  if (elem != stored)
    src = arith::ExtUIOp::create(e.b, e.loc,
                                 VectorType::get(srcVec.getShape(), stored), src);

  // Byte offset of each register, and how many registers in a row are
  // adjacent in shared memory (then one vector access moves them).
  auto offsets = [&](const DistributedView &view, ArrayRef<int64_t> strides) {
    Value total;
    for (unsigned d = 0; d < view.shape.size(); ++d) {
      Value term = arith::MulIOp::create(
          e.b, e.loc, e.coordinates(view, d),
          arith::ConstantOp::create(
              e.b, e.loc,
              DenseIntElementsAttr::get(
                  VectorType::get({view.totalElemsPerThread()}, e.b.getI32Type()),
                  int32_t(strides[d] * bytes))));
      total = total ? arith::AddIOp::create(e.b, e.loc, total, term).getResult()
                    : term;
    }
    return total;
  };
  auto runLength = [&](const DistributedView &view, ArrayRef<int64_t> strides) {
    return sharedRunLength(view, strides[view.order[0]] == 1, bytes);
  };

  gpu::BarrierOp::create(e.b, e.loc);
  Value srcOffsets = offsets(srcView, srcStrides);
  {
    OpBuilder::InsertionGuard guard(e.b);
    if (writers)
      e.b.setInsertionPointToStart(
          scf::IfOp::create(e.b, e.loc, writers, /*withElseRegion=*/false).thenBlock());
    storeRuns(e, src, runLength(srcView, srcStrides), bytes, [&](int64_t r) {
      return byteAddress(e, base, e.extract(srcOffsets, r));
    });
  }
  gpu::BarrierOp::create(e.b, e.loc);

  Value dstOffsets = offsets(dstView, dstStrides);
  auto dstVecType = VectorType::get({dstView.totalElemsPerThread()}, stored);
  Value result =
      loadRuns(e, dstVecType, runLength(dstView, dstStrides), bytes, [&](int64_t r) {
        return byteAddress(e, base, e.extract(dstOffsets, r));
      });
  if (elem != stored)
    result = arith::TruncIOp::create(
        e.b, e.loc, VectorType::get(dstVecType.getShape(), elem), result);
  return result;
}

SmallVector<int64_t> rowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int d = int(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

//===----------------------------------------------------------------------===//
// Global memory
//===----------------------------------------------------------------------===//

std::string cacheSuffix(std::optional<CacheModifier> cache,
                        std::optional<EvictionPolicy> evict) {
  std::string s;
  if (cache)
    s += "." + stringifyCacheModifier(*cache).str();
  if (evict)
    s += ".L1::" + stringifyEvictionPolicy(*evict).str();
  return s;
}

/// How a chunk of `bytes` travels in PTX registers: `count` words of
/// `bits` each.
struct WordShape {
  unsigned bits, count;
  static WordShape of(int64_t bytes) {
    if (bytes >= 4)
      return {32, unsigned(bytes / 4)};
    return {unsigned(bytes * 8), 1};
  }
  std::string ptxType() const { return bits == 8 ? "u8" : "b" + std::to_string(bits); }
  /// Register constraint: 8-bit loads land in 16-bit registers.
  std::string constraint() const { return bits == 32 ? "r" : "h"; }
  Type regType(MLIRContext *ctx) const {
    return IntegerType::get(ctx, bits == 32 ? 32 : 16);
  }
};

std::string operandList(unsigned first, unsigned count) {
  std::string s = count > 1 ? "{" : "";
  for (unsigned i = 0; i < count; ++i)
    s += (i ? ", $" : "$") + std::to_string(first + i);
  return s + (count > 1 ? "}" : "");
}

std::string vecSuffix(unsigned count) {
  return count > 1 ? ".v" + std::to_string(count) : "";
}

/// Reinterprets the bits of a scalar or 1-D vector as `type` (same width).
Value bitcastTo(IndexEmitter &e, Value value, Type type) {
  Type from = value.getType();
  if (from == type)
    return value;
  auto fromVec = dyn_cast<VectorType>(from), toVec = dyn_cast<VectorType>(type);
  if (!fromVec && !toVec)
    return arith::BitcastOp::create(e.b, e.loc, type, value);
  auto asVector = [](Type t) {
    return isa<VectorType>(t) ? cast<VectorType>(t) : VectorType::get({1}, t);
  };
  if (!fromVec)
    value = vector::BroadcastOp::create(e.b, e.loc, asVector(from), value);
  Value cast = vector::BitCastOp::create(e.b, e.loc, asVector(type), value);
  return toVec ? cast : e.extract(cast, 0);
}

/// Splits a value of `chunkType` (a scalar or vector) into PTX words.
SmallVector<Value> toWords(IndexEmitter &e, Value chunk, WordShape words) {
  MLIRContext *ctx = e.b.getContext();
  Type wordType = IntegerType::get(ctx, words.bits);
  Type asWords = words.count == 1 ? wordType
                                  : VectorType::get({words.count}, wordType);
  Value bits = bitcastTo(e, chunk, asWords);
  SmallVector<Value> result;
  for (unsigned i = 0; i < words.count; ++i) {
    Value w = words.count == 1 ? bits : e.extract(bits, i);
    if (words.bits == 8)
      w = arith::ExtUIOp::create(e.b, e.loc, words.regType(ctx), w);
    result.push_back(w);
  }
  return result;
}

Value fromWords(IndexEmitter &e, ArrayRef<Value> regs, WordShape words,
                Type chunkType) {
  MLIRContext *ctx = e.b.getContext();
  Type wordType = IntegerType::get(ctx, words.bits);
  SmallVector<Value> ws;
  for (Value r : regs)
    ws.push_back(words.bits == 8
                     ? arith::TruncIOp::create(e.b, e.loc, wordType, r).getResult()
                     : r);
  Value bits = words.count == 1 ? ws[0] : e.fromElements(wordType, ws);
  return bitcastTo(e, bits, chunkType);
}

/// Bytes of a chunk of registers: a scalar or a vector of them.
int64_t chunkBytes(Type chunkType) {
  if (auto vec = dyn_cast<VectorType>(chunkType))
    return vec.getNumElements() * byteWidth(vec.getElementType());
  return byteWidth(chunkType);
}

/// Loads a chunk (scalar or vector type) from `addr`. Unpredicated plain
/// loads stay LLVM loads; masked or hinted ones become one predicated PTX
/// instruction so that a masked-off vector costs no branch.
Value loadChunk(IndexEmitter &e, Value addr, Value pred, Value other,
                Type chunkType, LoadOp op) {
  int64_t bytes = chunkBytes(chunkType);
  std::string hints = cacheSuffix(op.getCache(), op.getEvict());
  if (!pred && hints.empty() && !op.getIsVolatile())
    return LLVM::LoadOp::create(e.b, e.loc, chunkType, addr, bytes);

  MLIRContext *ctx = e.b.getContext();
  WordShape words = WordShape::of(bytes);
  std::string asmText, constraints;
  SmallVector<Value> operands{addr};
  unsigned next = words.count + 1;
  if (pred)
    operands.push_back(pred), ++next;
  if (other) {
    for (auto [i, w] : llvm::enumerate(toWords(e, other, words))) {
      asmText += "mov.b" + std::to_string(words.bits == 8 ? 16 : words.bits) +
                 " $" + std::to_string(i) + ", $" + std::to_string(next + i) + ";\n\t";
      operands.push_back(w);
    }
  }
  if (pred)
    asmText += "@$" + std::to_string(words.count + 1) + " ";
  asmText += std::string("ld") + (op.getIsVolatile() ? ".volatile" : "") +
             ".global" + hints + vecSuffix(words.count) + "." + words.ptxType() +
             " " + operandList(0, words.count) + ", [$" +
             std::to_string(words.count) + "];";
  for (unsigned i = 0; i < words.count; ++i)
    constraints += "=" + words.constraint() + ",";
  constraints += "l";
  if (pred)
    constraints += ",b";
  if (other)
    for (unsigned i = 0; i < words.count; ++i)
      constraints += "," + words.constraint();

  Type reg = words.regType(ctx);
  Type resultType =
      words.count == 1
          ? reg
          : LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(words.count, reg));
  auto inlineAsm = e.inlineAsm(resultType, operands, asmText, constraints,
                               /*sideEffects=*/op.getIsVolatile());
  SmallVector<Value> regs;
  for (unsigned i = 0; i < words.count; ++i)
    regs.push_back(words.count == 1
                       ? inlineAsm.getResult(0)
                       : LLVM::ExtractValueOp::create(e.b, e.loc, inlineAsm.getResult(0),
                                                      ArrayRef<int64_t>{i})
                             .getResult());
  return fromWords(e, regs, words, chunkType);
}

void storeChunk(IndexEmitter &e, Value addr, Value pred, Value chunk,
                StoreOp op) {
  Type chunkType = chunk.getType();
  int64_t bytes = chunkBytes(chunkType);
  std::string hints = cacheSuffix(op.getCache(), op.getEvict());
  if (!pred && hints.empty()) {
    LLVM::StoreOp::create(e.b, e.loc, chunk, addr, bytes);
    return;
  }
  WordShape words = WordShape::of(bytes);
  SmallVector<Value> operands{addr};
  llvm::append_range(operands, toWords(e, chunk, words));
  std::string constraints = "l";
  for (unsigned i = 0; i < words.count; ++i)
    constraints += "," + words.constraint();
  std::string asmText;
  if (pred) {
    operands.push_back(pred);
    constraints += ",b";
    asmText += "@$" + std::to_string(words.count + 1) + " ";
  }
  asmText += "st.global" + hints + vecSuffix(words.count) + "." +
             words.ptxType() + " [$0], " + operandList(1, words.count) + ";";
  e.inlineAsm(Type(), operands, asmText, constraints);
}

/// A run of `bytes` (4, 8 or 16) contiguous bytes at an address known to be
/// a multiple of `align` bytes only, read as the two aligned windows of
/// `bytes` bytes that hold its first and its last byte. Each window holds a
/// byte of the run, so it is as valid to read as the run: memory is mapped in
/// pages, and an aligned window never crosses one. When the run happens to be
/// aligned both windows are the same one (an L1 hit).
struct RealignedRun {
  Value address;
  SmallVector<Value> words; // both windows' words, in address order
};

RealignedRun loadWindows(IndexEmitter &e, Value address, Value pred,
                         int64_t bytes, LoadOp op) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  Type i32 = b.getI32Type();
  auto c64 = [&](int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
  };
  unsigned n = bytes / 4;
  Type windowType = n == 1 ? i32 : Type(VectorType::get({n}, i32));
  Value windowMask = c64(~(bytes - 1));
  Value lo = arith::AndIOp::create(b, loc, address, windowMask);
  Value hi = arith::AndIOp::create(
      b, loc, arith::AddIOp::create(b, loc, address, c64(bytes - 1)), windowMask);
  RealignedRun run{address, {}};
  for (Value window : {lo, hi}) {
    Value loaded = loadChunk(e, toGlobalPtr(e, window), pred, Value(), windowType, op);
    for (unsigned i = 0; i < n; ++i)
      run.words.push_back(n == 1 ? loaded : e.extract(loaded, i));
  }
  return run;
}

/// Shifts a run out of its windows: whole words by selects on the offset's
/// word bits (only those `align` leaves unknown), then the bytes within a
/// word by funnel shifts (PTX prmt/shf) where `align` < 4.
Value realign(IndexEmitter &e, const RealignedRun &run, Type chunkType,
              int64_t bytes, int64_t align) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  Type i32 = b.getI32Type();
  unsigned n = bytes / 4;
  Value offset = arith::AndIOp::create(
      b, loc, arith::TruncIOp::create(b, loc, i32, run.address), e.i32(bytes - 1));
  SmallVector<Value> words = run.words;
  Value wordOffset = arith::ShRUIOp::create(b, loc, offset, e.i32(2));
  for (unsigned m = 1; m < n; m *= 2) {
    if (4 * int64_t(m) < align)
      continue;
    Value bit = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne,
        arith::AndIOp::create(b, loc, wordOffset, e.i32(m)), e.i32(0));
    SmallVector<Value> shifted;
    for (unsigned j = 0; j + m < words.size(); ++j)
      shifted.push_back(arith::SelectOp::create(b, loc, bit, words[j + m], words[j]));
    words = std::move(shifted);
  }
  SmallVector<Value> result(words.begin(), words.begin() + n);
  if (align < 4) {
    Value shift = arith::ShLIOp::create(
        b, loc, arith::AndIOp::create(b, loc, offset, e.i32(3)), e.i32(3));
    for (unsigned i = 0; i < n; ++i)
      result[i] = LLVM::FshrOp::create(b, loc, i32, words[i + 1], words[i], shift);
  }
  Value bits = n == 1 ? result[0] : e.fromElements(i32, result);
  return bitcastTo(e, bits, chunkType);
}

Value andPredicates(IndexEmitter &e, Value a, Value b) {
  if (!a)
    return b;
  if (!b)
    return a;
  return arith::AndIOp::create(e.b, e.loc, a, b);
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//


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
    for (auto [i, bytes] : llvm::enumerate(state.readOverrun.lookup(func.getOperation())))
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
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, resultTypes[0],
          DenseElementsAttr::get(cast<ShapedType>(resultTypes[0]),
                                 dense.getSplatValue<Attribute>()));
      return success();
    }
    OperationState state(op->getLoc(), op->getName(), operands, resultTypes,
                         op->getAttrs());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};

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

struct MakeRangeLowering : TilePattern<MakeRangeOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(MakeRangeOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    DistributedView view = viewOf(op.getType());
    Value coords = e.coordinates(view, 0);
    if (op.getStart() != 0)
      coords = arith::AddIOp::create(
          rewriter, op.getLoc(), coords,
          arith::ConstantOp::create(
              rewriter, op.getLoc(),
              DenseIntElementsAttr::get(cast<VectorType>(coords.getType()),
                                        int32_t(op.getStart()))));
    rewriter.replaceOp(op, coords);
    return success();
  }
};

struct SplatLowering : TilePattern<SplatOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value src = adaptor.getSrc();
    if (isa<LLVM::LLVMPointerType>(src.getType()))
      src = LLVM::PtrToIntOp::create(rewriter, op.getLoc(), rewriter.getI64Type(), src);
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(
        op, getTypeConverter()->convertType(op.getType()), src);
    return success();
  }
};

struct BroadcastLowering : TilePattern<BroadcastOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    DistributedView src = viewOf(op.getSrc().getType());
    DistributedView dst = viewOf(op.getType());
    // Same layout: each result register reads the source register with the
    // broadcast dimensions' local index at 0.
    SmallVector<int64_t> mask;
    for (auto local : dst.localIndices()) {
      for (unsigned d = 0; d < local.size(); ++d)
        if (src.shape[d] == 1)
          local[d] = 0;
      mask.push_back(src.registerIndex(local));
    }
    rewriter.replaceOpWithNewOp<vector::ShuffleOp>(op, adaptor.getSrc(),
                                                   adaptor.getSrc(), mask);
    return success();
  }
};

struct ExpandDimsLowering : TilePattern<ExpandDimsOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(ExpandDimsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // A slice and its parent with a size-1 dimension put the same elements
    // in the same registers.
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

/// Recomputes the integer index tile `v` (built from make_range, splats of
/// scalars, splat constants, expand_dims, layout conversions and +, -, *) in
/// the layout of `dst`, from each thread's own coordinates; `dims[d]` is the
/// dimension of the target tile that `v`'s dimension d becomes. Null where
/// `v` is anything else (ops already created for it are then dead).
Value rematerializeIndices(IndexEmitter &e, ConversionPatternRewriter &rewriter,
                           Value v, const DistributedView &dst,
                           ArrayRef<unsigned> dims, int depth = 0) {
  auto tile = dyn_cast<RankedTensorType>(v.getType());
  Operation *def = v.getDefiningOp();
  if (!tile || !tile.getElementType().isInteger(32) || !def || depth > 32)
    return Value();
  auto type = VectorType::get({dst.totalElemsPerThread()}, e.b.getI32Type());
  if (auto range = dyn_cast<MakeRangeOp>(def)) {
    Value coords = e.coordinates(dst, dims[0]);
    if (range.getStart() == 0)
      return coords;
    return arith::AddIOp::create(
        e.b, e.loc, coords,
        arith::ConstantOp::create(
            e.b, e.loc, DenseIntElementsAttr::get(type, int32_t(range.getStart()))));
  }
  if (auto expand = dyn_cast<ExpandDimsOp>(def)) {
    SmallVector<unsigned> srcDims;
    for (unsigned d = 0; d + 1 < dims.size(); ++d)
      srcDims.push_back(dims[d < expand.getAxis() ? d : d + 1]);
    return rematerializeIndices(e, rewriter, expand.getSrc(), dst, srcDims,
                                depth + 1);
  }
  if (auto convert = dyn_cast<ConvertLayoutOp>(def))
    return rematerializeIndices(e, rewriter, convert.getSrc(), dst, dims,
                                depth + 1);
  if (auto splat = dyn_cast<SplatOp>(def)) {
    Value scalar = rewriter.getRemappedValue(splat.getSrc());
    if (!scalar || !scalar.getType().isInteger(32))
      return Value();
    return vector::BroadcastOp::create(e.b, e.loc, type, scalar);
  }
  if (auto constant = dyn_cast<arith::ConstantOp>(def)) {
    auto dense = dyn_cast<DenseIntElementsAttr>(constant.getValue());
    if (!dense || !dense.isSplat())
      return Value();
    return arith::ConstantOp::create(
        e.b, e.loc, DenseIntElementsAttr::get(type, dense.getSplatValue<APInt>()));
  }
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def)) {
    Value a = rematerializeIndices(e, rewriter, def->getOperand(0), dst, dims, depth + 1);
    Value b = a ? rematerializeIndices(e, rewriter, def->getOperand(1), dst, dims,
                                       depth + 1)
                : Value();
    if (!b)
      return Value();
    OperationState state(e.loc, def->getName(), ValueRange{a, b}, TypeRange{type},
                         def->getAttrs());
    return e.b.create(state)->getResult(0);
  }
  return Value();
}

/// Row-major strides for moving a tile between the layouts of `src` and
/// `dst` through shared memory. When a row is a whole number of bank periods
/// (128 bytes), rows get padded by the widest access either side makes (so
/// those stay aligned): then threads that hold the same columns of
/// consecutive rows (an mma accumulator's 8 rows a warp, or a column read)
/// no longer all hit the same banks.
static SmallVector<int64_t> exchangeStrides(RankedTensorType src,
                                            RankedTensorType dst) {
  ArrayRef<int64_t> shape = dst.getShape();
  SmallVector<int64_t> strides = rowMajorStrides(shape);
  int64_t bytes = byteWidth(storageType(dst.getElementType()));
  unsigned last = shape.size() - 1;
  if (shape.size() < 2 || (shape.back() * bytes) % 128 != 0)
    return strides;
  int64_t accessBytes = bytes;
  for (RankedTensorType type : {src, dst}) {
    DistributedView view = viewOf(type);
    accessBytes = std::max(
        accessBytes, sharedRunLength(view, view.order[0] == last, bytes) * bytes);
  }
  strides[last - 1] = shape.back() + accessBytes / bytes;
  for (int d = int(last) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

struct ConvertLayoutLowering : TilePattern<ConvertLayoutOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    // Index tiles are cheaper to recompute in the new layout than to move
    // through shared memory (two barriers). 3-D kernels need this: their
    // index tiles come from chains of expand_dims, whose intermediate tiles
    // must be blocked where the next expand_dims wants a slice.
    SmallVector<unsigned> dims =
        llvm::to_vector(llvm::seq<unsigned>(0, op.getType().getRank()));
    if (Value recomputed = rematerializeIndices(e, rewriter, op.getSrc(),
                                                viewOf(op.getType()), dims)) {
      rewriter.replaceOp(op, recomputed);
      return success();
    }
    auto strides = exchangeStrides(op.getSrc().getType(), op.getType());
    rewriter.replaceOp(op, exchangeThroughShared(e, state.scratch, op,
                                                 adaptor.getSrc(),
                                                 op.getSrc().getType(),
                                                 op.getType(), strides, strides));
    return success();
  }
};

struct ReshapeLowering : TilePattern<ReshapeOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    rewriter.replaceOp(
        op, exchangeThroughShared(
                e, state.scratch, op, adaptor.getSrc(), op.getSrc().getType(),
                op.getType(), rowMajorStrides(op.getSrc().getType().getShape()),
                rowMajorStrides(op.getType().getShape())));
    return success();
  }
};

struct TransLowering : TilePattern<TransOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(TransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    DistributedView src = viewOf(op.getSrc().getType());
    DistributedView dst = viewOf(op.getType());
    bool relabel = src.sizePerThread[0] == dst.sizePerThread[1] &&
                   src.sizePerThread[1] == dst.sizePerThread[0] &&
                   src.threadsPerWarp[0] == dst.threadsPerWarp[1] &&
                   src.threadsPerWarp[1] == dst.threadsPerWarp[0] &&
                   src.warpsPerCTA[0] == dst.warpsPerCTA[1] &&
                   src.warpsPerCTA[1] == dst.warpsPerCTA[0] &&
                   src.warpRepeat[0] == dst.warpRepeat[1] &&
                   src.warpRepeat[1] == dst.warpRepeat[0] &&
                   src.laneStride[0] == dst.laneStride[1] &&
                   src.warpStride[0] == dst.warpStride[1];
    if (relabel) {
      // The transposed layout keeps every element in its thread.
      SmallVector<int64_t> mask;
      for (auto local : dst.localIndices())
        mask.push_back(src.registerIndex({local[1], local[0]}));
      rewriter.replaceOpWithNewOp<vector::ShuffleOp>(op, adaptor.getSrc(),
                                                     adaptor.getSrc(), mask);
      return success();
    }
    IndexEmitter e(rewriter, op.getLoc());
    auto srcShape = op.getSrc().getType().getShape();
    rewriter.replaceOp(op, exchangeThroughShared(
                               e, state.scratch, op, adaptor.getSrc(),
                               op.getSrc().getType(), op.getType(),
                               rowMajorStrides(srcShape), {1, srcShape[1]}));
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

/// The access pattern of a tile memory op: chunk size and the register
/// ranges it covers.
struct Access {
  DistributedView view;
  unsigned width;
};

Access accessOf(Operation *op, LoweringState &state) {
  Access a{viewOf(op->getOperand(0).getType()), 1};
  auto it = state.accessWidth.find(op);
  if (it != state.accessWidth.end())
    a.width = it->second;
  return a;
}

struct LoadLowering : TilePattern<LoadOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    if (!isa<RankedTensorType>(op.getType())) {
      rewriter.replaceOp(op, loadChunk(e, adaptor.getPtr(), adaptor.getMask(),
                                       adaptor.getOther(), op.getType(), op));
      return success();
    }
    Access access = accessOf(op, state);
    auto resultType = cast<VectorType>(getTypeConverter()->convertType(op.getType()));
    Type elem = resultType.getElementType();
    Value result = e.poison(resultType);
    int64_t w = access.width;
    Type chunkType = w == 1 ? elem : VectorType::get({w}, elem);
    auto realignFrom = state.realignFrom.find(op);
    bool realigned = realignFrom != state.realignFrom.end();
    // Realigned runs: every window load of the op is issued before any
    // register shuffling, so that they are all in flight at once.
    SmallVector<RealignedRun> runs;
    if (realigned)
      for (int64_t r = 0; r < resultType.getNumElements(); r += w)
        runs.push_back(loadWindows(
            e, e.extract(adaptor.getPtr(), r),
            adaptor.getMask() ? e.extract(adaptor.getMask(), r) : Value(),
            chunkBytes(chunkType), op));
    for (int64_t r = 0; r < resultType.getNumElements(); r += w) {
      Value pred = adaptor.getMask() ? e.extract(adaptor.getMask(), r) : Value();
      Value other = adaptor.getOther()
                        ? (w == 1 ? e.extract(adaptor.getOther(), r)
                                  : e.slice(adaptor.getOther(), r, w))
                        : Value();
      Value chunk;
      if (realigned) {
        chunk = realign(e, runs[r / w], chunkType, chunkBytes(chunkType),
                        realignFrom->second);
        // Masked-off runs read nothing: they take `other`.
        if (pred && other)
          chunk = arith::SelectOp::create(rewriter, op.getLoc(), pred, chunk, other);
      } else {
        Value addr = toGlobalPtr(e, e.extract(adaptor.getPtr(), r));
        chunk = loadChunk(e, addr, pred, other, chunkType, op);
      }
      result = e.insertSlice(chunk, result, r);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct StoreLowering : TilePattern<StoreOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    if (!isa<RankedTensorType>(op.getPtr().getType())) {
      // A scalar store happens once, from thread 0.
      Value first = arith::CmpIOp::create(rewriter, op.getLoc(),
                                          arith::CmpIPredicate::eq,
                                          e.threadId(), e.i32(0));
      storeChunk(e, adaptor.getPtr(), andPredicates(e, first, adaptor.getMask()),
                 adaptor.getValue(), op);
      rewriter.eraseOp(op);
      return success();
    }
    Access access = accessOf(op, state);
    Value owner = e.ownerPredicate(access.view);
    int64_t w = access.width;
    int64_t n = access.view.totalElemsPerThread();
    for (int64_t r = 0; r < n; r += w) {
      Value addr = toGlobalPtr(e, e.extract(adaptor.getPtr(), r));
      Value pred = andPredicates(
          e, owner, adaptor.getMask() ? e.extract(adaptor.getMask(), r) : Value());
      Value chunk = w == 1 ? e.extract(adaptor.getValue(), r)
                           : e.slice(adaptor.getValue(), r, w);
      storeChunk(e, addr, pred, chunk, op);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// One `prefetch.global.L2` per contiguous run a thread holds (the run's
/// first address: a warp's runs tile its lines), predicated by the mask of
/// the run's first element; once per element where layouts replicate.
struct PrefetchLowering : TilePattern<PrefetchOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(PrefetchOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    auto emit = [&](Value address, Value pred) {
      SmallVector<Value> operands{toGlobalPtr(e, address)};
      std::string text = "prefetch.global.L2 [$0];", constraints = "l";
      if (pred) {
        operands.push_back(pred);
        text = "@$1 " + text;
        constraints += ",b";
      }
      e.inlineAsm(Type(), operands, text, constraints);
    };
    if (!isa<RankedTensorType>(op.getPtr().getType())) {
      emit(adaptor.getPtr(), adaptor.getMask());
      rewriter.eraseOp(op);
      return success();
    }
    DistributedView view = viewOf(op.getPtr().getType());
    Value owner = e.ownerPredicate(view);
    int64_t run = view.contigPerThread(view.order[0]);
    for (int64_t r = 0; r < view.totalElemsPerThread(); r += run)
      emit(e.extract(adaptor.getPtr(), r),
           andPredicates(e, owner,
                         adaptor.getMask() ? e.extract(adaptor.getMask(), r) : Value()));
    rewriter.eraseOp(op);
    return success();
  }
};

/// One atomic instruction on one element, predicated, ordered by `sem` at
/// GPU scope (PTX's default, relaxed, needs no qualifier); returns the old
/// value.
Value emitAtomic(IndexEmitter &e, MemorySemantic sem, StringRef opcode,
                 Value addr, ArrayRef<Value> values, Value pred) {
  Type type = values[0].getType();
  bool isFloat = isa<FloatType>(type);
  std::string reg = isFloat ? "f" : "r";
  std::string order = sem == MemorySemantic::Relaxed
                          ? ""
                          : "." + stringifyMemorySemantic(sem).str() + ".gpu";
  // A thread whose predicate is off gets 0: the old value of a masked-off
  // element (as tile.atomic_rmw defines it), never a stale register.
  std::string text = std::string(isFloat ? "mov.f32 $0, 0f00000000;"
                                         : "mov.b32 $0, 0;") +
                     "\n\t@$" + std::to_string(values.size() + 2) + " atom" +
                     order + ".global." + opcode.str() + " $0, [$1]";
  std::string constraints = "=" + reg + ",l";
  SmallVector<Value> operands{addr};
  for (auto [i, v] : llvm::enumerate(values)) {
    text += ", $" + std::to_string(i + 2);
    constraints += "," + reg;
    operands.push_back(v);
  }
  text += ";";
  constraints += ",b";
  operands.push_back(pred ? pred : e.i1(true));
  return e.inlineAsm(type, operands, text, constraints).getResult(0);
}

/// atomic_rmw on one element. f32 max/min use the integer order of IEEE
/// bits: signed max for non-negative values, unsigned min for negative ones.
Value emitAtomicRMW(IndexEmitter &e, AtomicRMWKind kind, MemorySemantic sem,
                    Value addr, Value value, Value pred) {
  Type type = value.getType();
  bool isFloat = type.isF32();
  switch (kind) {
  case AtomicRMWKind::Add:
    return emitAtomic(e, sem, isFloat ? "add.f32" : "add.s32", addr, value, pred);
  case AtomicRMWKind::Xchg:
    return emitAtomic(e, sem, "exch.b32", addr, value, pred);
  case AtomicRMWKind::Max:
  case AtomicRMWKind::Min: {
    bool isMax = kind == AtomicRMWKind::Max;
    if (!isFloat)
      return emitAtomic(e, sem, isMax ? "max.s32" : "min.s32", addr, value, pred);
    Value bits = arith::BitcastOp::create(e.b, e.loc, e.b.getI32Type(), value);
    Value nonNegative = arith::CmpIOp::create(e.b, e.loc, arith::CmpIPredicate::sge,
                                              bits, e.i32(0));
    Value negative = arith::XOrIOp::create(e.b, e.loc, nonNegative, e.i1(true));
    // max: for v >= 0 signed max of the bits; for v < 0 unsigned min.
    // min: for v >= 0 signed min; for v < 0 unsigned max.
    Value a = emitAtomic(e, sem, isMax ? "max.s32" : "min.s32", addr, bits,
                         andPredicates(e, pred, nonNegative));
    Value b = emitAtomic(e, sem, isMax ? "min.u32" : "max.u32", addr, bits,
                         andPredicates(e, pred, negative));
    Value old = arith::SelectOp::create(e.b, e.loc, nonNegative, a, b);
    return arith::BitcastOp::create(e.b, e.loc, type, old);
  }
  }
  llvm_unreachable("unknown atomic kind");
}

/// Runs `perElement(register, pred)` for every register of a tile atomic
/// (or once for a scalar one, from thread 0, broadcasting the old value).
/// A scalar atomic is the program's: with release ordering, a barrier first
/// puts every thread's earlier accesses before thread 0's atomic.
template <typename Fn>
Value lowerAtomic(IndexEmitter &e, LoweringState &state, Operation *op,
                  MemorySemantic sem, Value mask, Type convertedResult,
                  Fn perElement) {
  if (!isa<VectorType>(convertedResult)) {
    if (sem == MemorySemantic::Release || sem == MemorySemantic::AcqRel)
      gpu::BarrierOp::create(e.b, e.loc);
    Value first = arith::CmpIOp::create(e.b, e.loc, arith::CmpIPredicate::eq,
                                        e.threadId(), e.i32(0));
    Value old = perElement(-1, andPredicates(e, first, mask));
    // Thread 0 holds the old value; hand it to every thread.
    Value base = state.scratch.base(e.b, e.loc, op, 4);
    gpu::BarrierOp::create(e.b, e.loc);
    scf::IfOp guard = scf::IfOp::create(e.b, e.loc, first, false);
    {
      OpBuilder::InsertionGuard g(e.b);
      e.b.setInsertionPointToStart(guard.thenBlock());
      LLVM::StoreOp::create(e.b, e.loc, old, base, 4);
    }
    gpu::BarrierOp::create(e.b, e.loc);
    return LLVM::LoadOp::create(e.b, e.loc, old.getType(), base, 4);
  }
  DistributedView view = viewOf(op->getOperand(0).getType());
  Value owner = e.ownerPredicate(view);
  SmallVector<Value> olds;
  for (int64_t r = 0; r < view.totalElemsPerThread(); ++r)
    olds.push_back(perElement(
        r, andPredicates(e, owner, mask ? e.extract(mask, r) : Value())));
  Value result =
      e.fromElements(cast<VectorType>(convertedResult).getElementType(), olds);
  if (!owner || op->getResult(0).use_empty())
    return result;
  // Where the layout replicates elements, only their owners ran the atomics:
  // hand the old values to the other threads that hold those elements.
  Type tile = op->getResult(0).getType();
  SmallVector<int64_t> strides =
      rowMajorStrides(cast<RankedTensorType>(tile).getShape());
  return exchangeThroughShared(e, state.scratch, op, result, tile, tile, strides,
                               strides, owner);
}

struct AtomicRMWLowering : TilePattern<AtomicRMWOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(AtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    Value result = lowerAtomic(
        e, state, op, op.getSem(), adaptor.getMask(),
        getTypeConverter()->convertType(op.getType()),
        [&](int64_t r, Value pred) {
          Value addr = r < 0 ? adaptor.getPtr()
                             : toGlobalPtr(e, e.extract(adaptor.getPtr(), r));
          Value value = r < 0 ? adaptor.getValue() : e.extract(adaptor.getValue(), r);
          return emitAtomicRMW(e, op.getKind(), op.getSem(), addr, value, pred);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct AtomicCASLowering : TilePattern<AtomicCASOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(AtomicCASOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    Value result = lowerAtomic(
        e, state, op, op.getSem(), Value(),
        getTypeConverter()->convertType(op.getType()),
        [&](int64_t r, Value pred) {
          Value addr = r < 0 ? adaptor.getPtr()
                             : toGlobalPtr(e, e.extract(adaptor.getPtr(), r));
          Value cmp = r < 0 ? adaptor.getCmp() : e.extract(adaptor.getCmp(), r);
          Value value = r < 0 ? adaptor.getValue() : e.extract(adaptor.getValue(), r);
          Type type = value.getType();
          if (type.isF32()) {
            cmp = arith::BitcastOp::create(e.b, e.loc, e.b.getI32Type(), cmp);
            value = arith::BitcastOp::create(e.b, e.loc, e.b.getI32Type(), value);
          }
          Value old = emitAtomic(e, op.getSem(), "cas.b32", addr, {cmp, value}, pred);
          return type.isF32()
                     ? arith::BitcastOp::create(e.b, e.loc, type, old).getResult()
                     : old;
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

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

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

/// A partial reduction: the value, and for argmax/argmin its index.
struct Partial {
  Value value, index;
};

/// Combines two partials of a reduction.
class Combiner {
public:
  Combiner(Operation *op) : op(op) {
    // A float sum of products that the kernel marked contractable
    // (`arith.mulf ... fastmath<contract>`) adds with `contract` too, so that
    // LLVM fuses each product into its addition (FFMA): half the FP
    // instructions of a dot product. Without the flag, products round first.
    if (auto reduce = dyn_cast<ReduceOp>(op))
      if (reduce.getKind() == ReduceKind::Sum)
        if (auto mul = reduce.getSrc().getDefiningOp<arith::MulFOp>())
          if (bitEnumContainsAll(mul.getFastmath(), arith::FastMathFlags::contract))
            addFlags = arith::FastMathFlags::contract;
  }

  bool hasIndex() const {
    auto reduce = dyn_cast<ReduceOp>(op);
    return reduce && (reduce.getKind() == ReduceKind::ArgMax ||
                      reduce.getKind() == ReduceKind::ArgMin);
  }

  Partial combine(IndexEmitter &e, Partial a, Partial b) const {
    OpBuilder &builder = e.b;
    Location loc = e.loc;
    if (auto generic = dyn_cast<GenericReduceOp>(op)) {
      Block &body = generic.getCombiner().front();
      IRMapping map;
      map.map(body.getArgument(0), a.value);
      map.map(body.getArgument(1), b.value);
      for (Operation &inner : body.without_terminator())
        builder.clone(inner, map);
      return {map.lookup(body.getTerminator()->getOperand(0)), Value()};
    }
    auto reduce = cast<ReduceOp>(op);
    bool isFloat = isa<FloatType>(a.value.getType());
    switch (reduce.getKind()) {
    case ReduceKind::Sum:
      return {isFloat ? arith::AddFOp::create(builder, loc, a.value, b.value, addFlags)
                            .getResult()
                      : arith::AddIOp::create(builder, loc, a.value, b.value).getResult(),
              Value()};
    case ReduceKind::Max:
      return {isFloat ? arith::MaxNumFOp::create(builder, loc, a.value, b.value).getResult()
                      : arith::MaxSIOp::create(builder, loc, a.value, b.value).getResult(),
              Value()};
    case ReduceKind::Min:
      return {isFloat ? arith::MinNumFOp::create(builder, loc, a.value, b.value).getResult()
                      : arith::MinSIOp::create(builder, loc, a.value, b.value).getResult(),
              Value()};
    case ReduceKind::ArgMax:
    case ReduceKind::ArgMin: {
      bool isMax = reduce.getKind() == ReduceKind::ArgMax;
      Value better =
          isFloat ? arith::CmpFOp::create(builder, loc,
                                          isMax ? arith::CmpFPredicate::OGT
                                                : arith::CmpFPredicate::OLT,
                                          b.value, a.value)
                        .getResult()
                  : arith::CmpIOp::create(builder, loc,
                                          isMax ? arith::CmpIPredicate::sgt
                                                : arith::CmpIPredicate::slt,
                                          b.value, a.value)
                        .getResult();
      Value equal =
          isFloat ? arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::OEQ,
                                          b.value, a.value)
                        .getResult()
                  : arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                          b.value, a.value)
                        .getResult();
      // Ties go to the first index.
      Value earlier = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                                            b.index, a.index);
      Value takeB = arith::OrIOp::create(
          builder, loc, better, arith::AndIOp::create(builder, loc, equal, earlier));
      return {arith::SelectOp::create(builder, loc, takeB, b.value, a.value),
              arith::SelectOp::create(builder, loc, takeB, b.index, a.index)};
    }
    }
    llvm_unreachable("unknown reduction");
  }

private:
  Operation *op;
  arith::FastMathFlags addFlags = arith::FastMathFlags::none;
};

/// Exchanges `value` with the lane `offset` away (xor). Shuffles move 32-bit
/// registers: narrower values are widened, 64-bit ones split.
Value shuffleXor(IndexEmitter &e, Value value, unsigned offset) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  Type type = value.getType();
  unsigned bits = type.getIntOrFloatBitWidth();
  auto shuffle32 = [&](Value v) {
    return gpu::ShuffleOp::create(b, loc, v, offset, 32, gpu::ShuffleMode::XOR)
        .getShuffleResult();
  };
  if (bits == 32)
    return shuffle32(value);
  if (bits == 64) {
    // As a vector of its two 32-bit halves (llvm.bitcast: arith.bitcast
    // keeps shapes), each shuffled, then joined again.
    auto halvesType = VectorType::get({2}, b.getI32Type());
    Value halves = LLVM::BitcastOp::create(b, loc, halvesType, value);
    Value lo = shuffle32(e.extract(halves, 0)), hi = shuffle32(e.extract(halves, 1));
    return LLVM::BitcastOp::create(b, loc, type,
                                   e.fromElements(b.getI32Type(), {lo, hi}));
  }
  Type intType = b.getIntegerType(bits);
  Value asInt = type.isInteger() ? value
                                 : arith::BitcastOp::create(b, loc, intType, value).getResult();
  Value wide = arith::ExtUIOp::create(b, loc, b.getI32Type(), asInt);
  Value narrow = arith::TruncIOp::create(b, loc, intType, shuffle32(wide));
  return type.isInteger() ? narrow
                          : arith::BitcastOp::create(b, loc, type, narrow).getResult();
}

/// For an i32 sum of products of sign-extended i8 tiles (tile.cast or
/// arith.extsi), the converted i8 operands: such a reduction runs on dp4a,
/// four products and their sum a instruction. Integer sums wrap, so the
/// order dp4a adds in gives the same result.
std::optional<std::pair<Value, Value>>
byteProductOperands(Operation *op, ConversionPatternRewriter &rewriter) {
  auto reduce = dyn_cast<ReduceOp>(op);
  if (!reduce || reduce.getKind() != ReduceKind::Sum ||
      !getElementTypeOrSelf(reduce.getSrc().getType()).isInteger(32))
    return std::nullopt;
  auto mul = reduce.getSrc().getDefiningOp<arith::MulIOp>();
  if (!mul)
    return std::nullopt;
  auto bytes = [&](Value v) -> Value {
    Value src;
    if (auto cast = v.getDefiningOp<CastOp>())
      src = cast.getSrc();
    else if (auto ext = v.getDefiningOp<arith::ExtSIOp>())
      src = ext.getIn();
    if (!src || !getElementTypeOrSelf(src.getType()).isInteger(8))
      return Value();
    Value converted = rewriter.getRemappedValue(src);
    auto vec = dyn_cast_or_null<VectorType>(converted ? converted.getType() : Type());
    return vec && vec.getElementType().isInteger(8) ? converted : Value();
  };
  Value a = bytes(mul.getLhs()), b = bytes(mul.getRhs());
  if (!a || !b)
    return std::nullopt;
  return std::make_pair(a, b);
}

template <typename OpTy>
struct ReduceLowering : TilePattern<OpTy> {
  using TilePattern<OpTy>::TilePattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    Combiner combiner(op);
    unsigned axis = op.getAxis();
    DistributedView src = viewOf(op.getSrc().getType());
    Value input = adaptor.getSrc();
    Value axisCoords = combiner.hasIndex() ? e.coordinates(src, axis) : Value();

    // Registers of each output element, gathered by their local indices on
    // the kept dimensions.
    auto resultTile = dyn_cast<RankedTensorType>(op.getType());
    std::optional<DistributedView> out;
    if (resultTile)
      out = viewOf(resultTile);
    int64_t numOut = out ? out->totalElemsPerThread() : 1;
    SmallVector<Partial> partials(numOut);
    SmallVector<SmallVector<int64_t>> outLocals =
        out ? out->localIndices() : SmallVector<SmallVector<int64_t>>{{}};
    std::optional<std::pair<Value, Value>> bytePairs;
    if (src.elemsPerThread(axis) % 4 == 0)
      bytePairs = byteProductOperands(op, rewriter);
    for (int64_t o = 0; o < numOut; ++o) {
      if (bytePairs) {
        auto signedType = NVVM::DotAccumulateTypeAttr::get(
            rewriter.getContext(), NVVM::DotAccumulateType::SIGNED);
        Value acc = e.i32(0);
        for (int64_t k = 0; k < src.elemsPerThread(axis); k += 4) {
          SmallVector<int64_t> regs;
          for (int64_t j = 0; j < 4; ++j) {
            SmallVector<int64_t> local = outLocals[o];
            local.insert(local.begin() + axis, k + j);
            regs.push_back(src.registerIndex(local));
          }
          auto four = [&](Value v) {
            return vector::ShuffleOp::create(rewriter, op.getLoc(), v, v, regs);
          };
          acc = NVVM::DotAccumulate4WayOp::create(
              rewriter, op.getLoc(), rewriter.getI32Type(),
              four(bytePairs->first), signedType, four(bytePairs->second),
              signedType, acc);
        }
        partials[o] = {acc, Value()};
        continue;
      }
      for (int64_t k = 0; k < src.elemsPerThread(axis); ++k) {
        SmallVector<int64_t> local = outLocals[o];
        local.insert(local.begin() + axis, k);
        int64_t r = src.registerIndex(local);
        Partial p{e.extract(input, r),
                  axisCoords ? e.extract(axisCoords, r) : Value()};
        partials[o] = partials[o].value ? combiner.combine(e, partials[o], p) : p;
      }
    }

    // Across lanes: butterfly over the lanes that hold distinct elements.
    for (unsigned m = 1; m < src.distinctLanes(axis); m *= 2) {
      unsigned offset = m * src.laneStride[axis];
      for (Partial &p : partials) {
        Partial other{shuffleXor(e, p.value, offset),
                      p.index ? shuffleXor(e, p.index, offset) : Value()};
        p = combiner.combine(e, p, other);
      }
    }

    // Across warps: through shared memory, one slot per (element, warp).
    unsigned numWarps = src.distinctWarps(axis);
    if (numWarps > 1) {
      Type valueType = partials[0].value.getType();
      int64_t valueBytes = byteWidth(valueType);
      int64_t outElems = resultTile ? resultTile.getNumElements() : 1;
      // The i32 indices follow the values, 4-byte aligned (values of i8 or
      // i16 may end anywhere).
      int64_t indexBase = llvm::alignTo(outElems * numWarps * valueBytes, 4);
      int64_t bytes = indexBase + (combiner.hasIndex() ? outElems * numWarps * 4 : 0);
      Value base = this->state.scratch.base(rewriter, op.getLoc(), op, bytes);
      SmallVector<Value> slots;
      auto strides = resultTile ? rowMajorStrides(resultTile.getShape())
                                : SmallVector<int64_t>{};
      SmallVector<Value> outCoords;
      for (unsigned d = 0; out && d < out->shape.size(); ++d)
        outCoords.push_back(e.coordinates(*out, d));
      for (int64_t o = 0; o < numOut; ++o) {
        Value linear = e.i32(0);
        for (unsigned d = 0; d < outCoords.size(); ++d)
          linear = arith::AddIOp::create(
              rewriter, op.getLoc(), linear,
              arith::MulIOp::create(rewriter, op.getLoc(),
                                    e.extract(outCoords[d], o), e.i32(strides[d])));
        slots.push_back(arith::MulIOp::create(rewriter, op.getLoc(), linear,
                                              e.i32(numWarps)));
      }
      Value warp = arith::AndIOp::create(rewriter, op.getLoc(),
                                         e.warpCoord(src, axis), e.i32(numWarps - 1));
      auto slotAddr = [&](Value slot, Value w, int64_t scale, int64_t offset) {
        Value index = arith::AddIOp::create(rewriter, op.getLoc(), slot, w);
        Value byteOffset = arith::AddIOp::create(
            rewriter, op.getLoc(),
            arith::MulIOp::create(rewriter, op.getLoc(), index, e.i32(scale)),
            e.i32(offset));
        return byteAddress(e, base, byteOffset);
      };
      gpu::BarrierOp::create(rewriter, op.getLoc());
      for (int64_t o = 0; o < numOut; ++o) {
        LLVM::StoreOp::create(rewriter, op.getLoc(), partials[o].value,
                              slotAddr(slots[o], warp, valueBytes, 0), valueBytes);
        if (partials[o].index)
          LLVM::StoreOp::create(rewriter, op.getLoc(), partials[o].index,
                                slotAddr(slots[o], warp, 4, indexBase), 4);
      }
      gpu::BarrierOp::create(rewriter, op.getLoc());
      for (int64_t o = 0; o < numOut; ++o) {
        Partial acc;
        for (unsigned w = 0; w < numWarps; ++w) {
          Partial p{LLVM::LoadOp::create(rewriter, op.getLoc(), valueType,
                                         slotAddr(slots[o], e.i32(w), valueBytes, 0),
                                         valueBytes),
                    Value()};
          if (combiner.hasIndex())
            p.index = LLVM::LoadOp::create(rewriter, op.getLoc(), rewriter.getI32Type(),
                                           slotAddr(slots[o], e.i32(w), 4, indexBase), 4);
          acc = acc.value ? combiner.combine(e, acc, p) : p;
        }
        partials[o] = acc;
      }
    }

    SmallVector<Value> results;
    for (const Partial &p : partials)
      results.push_back(combiner.hasIndex() ? p.index : p.value);
    if (!resultTile) {
      rewriter.replaceOp(op, results[0]);
      return success();
    }
    rewriter.replaceOp(op, e.fromElements(results[0].getType(), results));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// Reports what the lowering cannot handle, in the user's terms, before any
/// rewriting starts.
LogicalResult checkLowerable(ModuleOp module) {
  bool ok = true;
  module.walk([&](DescriptorLoadOp load) {
    load.emitOpError(
        "is lowered only as a tile.dot operand in a software-pipelined loop "
        "on sm_90a (llkc --arch sm_90a, --num-stages 2 or more), where TMA "
        "copies it into the layout warpgroup MMA reads");
    ok = false;
  });
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isDeclaration()) {
      func.emitError("kernel '") << func.getName() << "' has no body";
      ok = false;
      continue;
    }
    if (func.getNumResults() != 0) {
      func.emitError("kernel '")
          << func.getName() << "' must not return values; store results";
      ok = false;
    }
    for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
      if (isa<RankedTensorType>(type)) {
        func.emitError("kernel argument ")
            << i << " is a tile (" << type << "); pass a !tile.ptr and load it";
        ok = false;
      } else if (type.isInteger(1)) {
        func.emitError("kernel argument ")
            << i << " is i1, which kernels cannot take; pass an i32";
        ok = false;
      }
    }
  }
  // One report per kernel of a layout for another warp count.
  llvm::SmallPtrSet<Operation *, 4> reportedWarps;
  module.walk([&](Operation *op) {
    if (isa<CallOpInterface>(op)) {
      op->emitOpError("is not supported: kernels cannot call functions "
                      "(every func.func is a kernel); inline the callee");
      ok = false;
      return WalkResult::advance();
    }
    for (Type type : op->getResultTypes())
      if (auto tile = dyn_cast<RankedTensorType>(type)) {
        FailureOr<DistributedView> view = getDistributedView(tile);
        if (failed(view)) {
          op->emitError("tile ") << tile << " has no distributed layout; run "
                                 << "tile-assign-layouts first";
          ok = false;
          return WalkResult::interrupt();
        }
        // A layout spreads a tile over its own warp count: in a kernel of
        // fewer warps, the missing warps' parts would be dropped.
        auto func = op->getParentOfType<func::FuncOp>();
        if (func && view->numWarps != getNumWarps(func) &&
            reportedWarps.insert(func).second) {
          op->emitError("tile ")
              << tile << " is laid out for " << view->numWarps
              << " warps, but kernel '" << func.getName() << "' runs "
              << getNumWarps(func) << " (tile.num_warps)";
          ok = false;
        }
      }
    if (auto constant = dyn_cast<arith::ConstantOp>(op))
      if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
        if (isa<RankedTensorType>(dense.getType()) && !dense.isSplat()) {
          op->emitError("only uniform (splat) tile constants are supported; "
                        "build others from tile.make_range");
          ok = false;
        }
    return WalkResult::advance();
  });
  return success(ok);
}

/// The pointer arguments of `func` that `ptr` (a pointer or pointer tile)
/// may point into, following pointer arithmetic, shape ops and loop-carried
/// values back to them; every pointer argument where a pointer comes from
/// elsewhere (a loaded pointer, an integer).
llvm::SmallSetVector<unsigned, 4> pointerRoots(func::FuncOp func, Value ptr) {
  llvm::SmallSetVector<unsigned, 4> roots;
  bool unknown = false;
  llvm::SmallPtrSet<Value, 16> seen;
  SmallVector<Value> work{ptr};
  auto isPointerLike = [](Type type) {
    if (auto tile = dyn_cast<RankedTensorType>(type))
      type = tile.getElementType();
    return isa<PtrType>(type);
  };
  while (!work.empty() && !unknown) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      Operation *owner = arg.getOwner()->getParentOp();
      if (owner == func.getOperation()) {
        roots.insert(arg.getArgNumber());
      } else if (auto loop = dyn_cast<scf::ForOp>(owner);
                 loop && arg.getArgNumber() > 0) {
        unsigned i = arg.getArgNumber() - 1;
        work.push_back(loop.getInitArgs()[i]);
        work.push_back(loop.getYieldedValues()[i]);
      } else {
        unknown = true;
      }
      continue;
    }
    Operation *def = v.getDefiningOp();
    unsigned result = cast<OpResult>(v).getResultNumber();
    if (auto loop = dyn_cast<scf::ForOp>(def)) {
      work.push_back(loop.getInitArgs()[result]);
      work.push_back(loop.getYieldedValues()[result]);
    } else if (auto branch = dyn_cast<scf::IfOp>(def)) {
      work.push_back(branch.thenYield().getOperand(result));
      if (!branch.getElseRegion().empty())
        work.push_back(branch.elseYield().getOperand(result));
    } else if (isa<AddPtrOp, SplatOp, BroadcastOp, ExpandDimsOp, ReshapeOp,
                   TransOp, ConvertLayoutOp, BitcastOp, arith::SelectOp>(def)) {
      for (Value operand : def->getOperands())
        if (isPointerLike(operand.getType()))
          work.push_back(operand);
    } else {
      unknown = true;
    }
  }
  if (unknown)
    for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
      if (isa<PtrType>(type))
        roots.insert(i);
  return roots;
}

struct ConvertTileToGPUPass
    : llk::impl::ConvertTileToGPUBase<ConvertTileToGPUPass> {
  using ConvertTileToGPUBase::ConvertTileToGPUBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    LoweringState state;
    state.gridDependencyControl = gridDependencyControl;

    if (failed(checkLowerable(module)))
      return signalPassFailure();

    // Access widths from the contiguity analysis, on the tile IR.
    for (auto func : module.getOps<func::FuncOp>()) {
      AxisInfoAnalysis axisInfo(func);
      if (wgmma)
        findWgmmaDots(func, state);
      if (failed(findTmaBuffers(func, state)))
        return signalPassFailure();
      // Shared-memory buffers live for the whole kernel, before the scratch.
      func.walk([&](LocalAllocOp alloc) {
        SharedType type = alloc.getType();
        int64_t bytes = byteWidth(type.getElementType());
        for (int64_t size : type.getShape())
          bytes *= size;
        int64_t align = state.wgmmaBuffers.count(alloc) ? kWgmmaBufferAlign : 128;
        state.allocOffsets[alloc.getOperation()] =
            state.scratch.reserve(func.getName(), bytes, align);
        // The buffers are live from the allocation to their last use (the
        // pipelined loop); scratch used in between must not overlap them.
        Block *block = alloc->getBlock();
        Operation *last = alloc;
        for (Operation *user : alloc->getUsers())
          if (Operation *inBlock = block->findAncestorOpInBlock(*user))
            if (last->isBeforeInBlock(inBlock))
              last = inBlock;
        for (Operation *op = alloc->getNextNode(); op; op = op->getNextNode()) {
          state.scratch.markBuffersLive(op);
          if (op == last)
            break;
        }
      });
      func.walk([&](Operation *op) {
        if (!isa<LoadOp, StoreOp, AsyncCopyOp>(op))
          return;
        Value ptr = op->getOperand(0);
        auto tile = dyn_cast<RankedTensorType>(ptr.getType());
        if (!tile)
          return;
        DistributedView view = viewOf(tile);
        unsigned fast = view.order[0];
        Value mask = isa<LoadOp>(op)    ? cast<LoadOp>(op).getMask()
                     : isa<StoreOp>(op) ? cast<StoreOp>(op).getMask()
                                        : cast<AsyncCopyOp>(op).getMask();
        unsigned width = axisInfo.getAccessWidth(ptr, mask, view);
        if (isa<LoadOp>(op)) {
          // A contiguous run that is not aligned to its size: read the
          // aligned windows around it (see loadRealigned).
          int64_t run = std::min<int64_t>(
              axisInfo.getUnalignedLoadWidth(ptr, mask, fast),
              view.contigPerThread(fast));
          run = int64_t(1) << llvm::Log2_64(std::max<int64_t>(1, run));
          auto pointee = cast<PtrType>(tile.getElementType()).getPointeeType();
          int64_t bytes = run * byteWidth(pointee);
          if (run > width && bytes >= 4 && bytes <= 16) {
            int64_t div = axisInfo.get(ptr).divisibility[fast];
            width = run;
            int64_t align = std::min<int64_t>(div & -div, bytes / 2);
            state.realignFrom[op] = align;
            // The window of a run's last byte ends at most bytes - align
            // past it (a run starts at a multiple of align): the kernel
            // metadata's read_overrun_bytes, within that byte's 16-byte
            // granule (docs/runtime.md, the buffer contract).
            SmallVector<int64_t> &overrun = state.readOverrun[func.getOperation()];
            overrun.resize(func.getNumArguments(), 0);
            for (unsigned arg : pointerRoots(func, ptr))
              overrun[arg] = std::max(overrun[arg], bytes - align);
          }
        }
        state.accessWidth[op] = width;
      });
    }

    // Kernels move into a gpu.module.
    OpBuilder builder(ctx);
    builder.setInsertionPointToEnd(module.getBody());
    auto gpuModule = gpu::GPUModuleOp::create(builder, module.getLoc(), "llk_kernels");
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(), builder.getUnitAttr());
    for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      func->moveBefore(gpuModule.getBody(), gpuModule.getBody()->end());

    TileTypeConverter converter(ctx);
    ConversionTarget target(*ctx);
    target.addLegalDialect<gpu::GPUDialect, vector::VectorDialect,
                           LLVM::LLVMDialect, NVVM::NVVMDialect,
                           ub::UBDialect>();
    target.addIllegalDialect<TileDialect, func::FuncDialect>();
    target.addDynamicallyLegalDialect<arith::ArithDialect, math::MathDialect>(
        [](Operation *op) { return !hasTileType(op); });
    target.addLegalOp<UnrealizedConversionCastOp>();

    RewritePatternSet patterns(ctx);
    patterns.add<ElementwiseLowering>(converter, ctx);
    patterns.add<FuncLowering, ReturnLowering, ProgramIdLowering,
                 NumProgramsLowering, BarrierLowering, MakeRangeLowering,
                 SplatLowering, BroadcastLowering, ExpandDimsLowering,
                 ConvertLayoutLowering, ReshapeLowering, TransLowering,
                 AddPtrLowering, LoadLowering, StoreLowering, PrefetchLowering,
                 AtomicRMWLowering, AtomicCASLowering, CastLowering,
                 BitcastLowering, ReduceLowering<ReduceOp>,
                 ReduceLowering<GenericReduceOp>>(converter, ctx, state);
    patterns.add<GridDependencyLowering<GridDependencyWaitOp>>(
        converter, ctx, state, "griddepcontrol.wait;");
    patterns.add<GridDependencyLowering<LaunchDependentsOp>>(
        converter, ctx, state, "griddepcontrol.launch_dependents;");
    populateDotPatterns(converter, patterns, state);
    populateDebugOpToGPUPatterns(converter, patterns, state);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    // Branches between a kernel's blocks pass converted tiles and pointers.
    populateBranchOpInterfaceTypeConversionPattern(patterns, converter);
    target.addDynamicallyLegalOp<cf::BranchOp, cf::CondBranchOp, cf::SwitchOp>(
        [&](Operation *op) {
          return isLegalForBranchOpInterfaceTypeConversionPattern(op, converter);
        });
    if (failed(applyPartialConversion(gpuModule, target, std::move(patterns))))
      return signalPassFailure();

    // The shared-memory buffers, now that their sizes are known. Past what a
    // kernel may declare statically, the buffer is dynamic shared memory
    // (an extern array; the launch gives its size, which the kernel
    // metadata records from `llk.dynamic_shared_bytes`).
    builder.setInsertionPointToStart(gpuModule.getBody());
    for (const auto &entry : state.scratch.getSizes()) {
      int64_t bytes = entry.getValue();
      if (bytes > TileDialect::kMaxSharedBytes) {
        StringRef kernel = entry.getKey().drop_front(kSharedPrefix.size());
        Operation *func = gpuModule.lookupSymbol(kernel);
        (func ? func : gpuModule.getOperation())->emitError("kernel '")
            << kernel << "' needs " << bytes
            << " bytes of shared memory; a program gets at most "
            << TileDialect::kMaxSharedBytes
            << " (227 KB on sm_90): fewer stages or smaller blocks";
        return signalPassFailure();
      }
      bool dynamic = bytes > kMaxStaticSharedBytes;
      auto type = LLVM::LLVMArrayType::get(builder.getI8Type(), dynamic ? 0 : bytes);
      auto global = LLVM::GlobalOp::create(
          builder, module.getLoc(), type, /*isConstant=*/false,
          dynamic ? LLVM::Linkage::External : LLVM::Linkage::Internal,
          entry.getKey(), Attribute(),
          state.scratch.alignment(entry.getKey()), kSharedAddressSpace);
      if (dynamic)
        global->setAttr(kDynamicSharedBytesAttr, builder.getI64IntegerAttr(bytes));
    }
  }
};

} // namespace
