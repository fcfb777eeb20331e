//===- TileToGPU.cpp - laid-out tile kernels to per-thread GPU code -------===//
//
// A tile with a distributed layout becomes, in each thread, the vector of the
// elements that thread holds (Layout.h says which, and in which order). Ops
// that keep elements in place (arith, math, casts, pointer arithmetic) then
// act on those vectors; ops that move elements between threads use
// gpu.shuffle and shared memory.
//
// This file holds the pass: the type converter, the checks made before any
// rewriting, the analyses the patterns read, and the list of op families
// (PatternTileOpToGPU.h), each lowered in the file of its name.
//
//===----------------------------------------------------------------------===//

#include "PatternTileOpToGPU.h"

#include "llk/Analysis/AxisInfo.h"
#include "llk/Conversion/Passes.h"
#include "llk/Dialect/Tile/IR/Layout.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
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
    // fp8 values are their bytes: LLVM has no 8-bit float type.
    addConversion([ctx](Float8E4M3FNType) { return IntegerType::get(ctx, 8); });
    addConversion([ctx](Float8E5M2Type) { return IntegerType::get(ctx, 8); });
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
      if (isa<Float8E4M3FNType, Float8E5M2Type>(elem))
        elem = IntegerType::get(ctx, 8);
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
    if (auto alloc = dyn_cast<LocalAllocOp>(op); alloc && !alloc.getOffsetAttr()) {
      op->emitOpError("has no place in shared memory (offset); run "
                      "tile-allocate-shared first");
      ok = false;
    }
    // fp8 multiplies on warpgroup MMA only (elsewhere tile-upcast-fp8-dots
    // made it f16), which reads both operands K-major from wgmma slots.
    if (auto dot = dyn_cast<DotOp>(op); dot && isFp8(dot.getA().getType())) {
      auto kContiguousSlot = [&](unsigned index) {
        auto load = dot->getOperand(index).getDefiningOp<LocalLoadOp>();
        return readsWgmmaBuffer(dot, index) &&
               load.getBuffer().getType().getContiguousDim() ==
                   (index == 0 ? 1u : 0u);
      };
      if (!dot.getMmaAttr() || !dot.getMmaAttr().isWarpgroup() ||
          !kContiguousSlot(0) || !kContiguousSlot(1)) {
        op->emitOpError("multiplies fp8 but does not run on warpgroup MMA "
                        "(#tile.mma version 3) with A and B read K-major "
                        "(A contiguous = 1, B contiguous = 0) from buffer "
                        "slots with swizzle = wgmma; elsewhere "
                        "tile-upcast-fp8-dots makes it an f16 dot");
        ok = false;
      }
    } else if (auto dot = dyn_cast<DotOp>(op);
        dot && dot.getMmaAttr() && dot.getMmaAttr().isWarpgroup() &&
        !((readsWgmmaBuffer(dot, 0) || hasWarpgroupRegisterOperandA(dot)) &&
          readsWgmmaBuffer(dot, 1))) {
      op->emitOpError("runs on warpgroup MMA (#tile.mma version 3) but does "
                      "not read B, and A, from buffer slots with swizzle = "
                      "wgmma (A may instead be in registers, in the "
                      "accumulator layout of its shape), as "
                      "tile-allocate-shared makes them");
      ok = false;
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

struct ConvertTileToGPUPass
    : llk::impl::ConvertTileToGPUBase<ConvertTileToGPUPass> {
  using ConvertTileToGPUBase::ConvertTileToGPUBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    LoweringState state;
    state.gridDependencyControl = gridDependencyControl;
    state.fp8Conversions = fp8Conversions;

    if (failed(checkLowerable(module)))
      return signalPassFailure();

    for (auto func : module.getOps<func::FuncOp>()) {
      // The memory patterns read their accesses' widths from the contiguity
      // analysis of the tile IR (getMemoryAccess).
      state.axisInfo[func.getName()] = std::make_unique<AxisInfoAnalysis>(func);
      if (func.walk([](DotOp dot) {
                return dot.getMmaAttr() && dot.getMmaAttr().isWarpgroup()
                           ? WalkResult::interrupt()
                           : WalkResult::advance();
              })
              .wasInterrupted())
        state.wgmmaKernels.insert(func.getName());
      if (failed(checkTmaCopies(func)))
        return signalPassFailure();
      // Shared-memory buffers live for the whole kernel, before the scratch,
      // where tile-allocate-shared placed them.
      func.walk([&](LocalAllocOp alloc) {
        SharedType type = alloc.getType();
        state.scratch.reserveAt(func.getName(), alloc.getOffsetAttr().getInt(),
                                type.getSizeInBytes(), type.getAlignment());
        if (IntegerAttr barriers = alloc.getBarrierOffsetAttr())
          state.scratch.reserveAt(func.getName(), barriers.getInt(),
                                  type.getNumSlots() * 8, 8);
        // The buffers are live from the allocation to their last use (the
        // pipelined loop); scratch used in between must not overlap them.
        Operation *last = alloc.getLastUse();
        if (last == alloc)
          return;
        for (Operation *op = alloc->getNextNode(); op; op = op->getNextNode()) {
          state.scratch.markBuffersLive(op);
          if (op == last)
            break;
        }
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
        [](Operation *op) { return !hasTileType(op) && !lowersToNvvmIntrinsic(op); });
    // tile.assert's lowering ends in cf.assert (__assertfail once on NVVM).
    target.addLegalOp<UnrealizedConversionCastOp, cf::AssertOp>();

    RewritePatternSet patterns(ctx);
    populateFuncOpToGPUPatterns(converter, patterns, state);
    populateProgramOpToGPUPatterns(converter, patterns, state);
    populateElementwiseOpToGPUPatterns(converter, patterns, state);
    populateCastOpToGPUPatterns(converter, patterns, state);
    populateShapeOpToGPUPatterns(converter, patterns, state);
    populateConvertLayoutOpToGPUPatterns(converter, patterns, state);
    populateLoadStoreOpToGPUPatterns(converter, patterns, state);
    populateAtomicOpToGPUPatterns(converter, patterns, state);
    populateReduceOpToGPUPatterns(converter, patterns, state);
    populateScanOpToGPUPatterns(converter, patterns, state);
    populateGatherOpToGPUPatterns(converter, patterns, state);
    populateSortOpToGPUPatterns(converter, patterns, state);
    populateDotOpToGPUPatterns(converter, patterns, state);
    populateLocalMemoryOpToGPUPatterns(converter, patterns, state);
    populateAsyncCopyOpToGPUPatterns(converter, patterns, state);
    populateTMAOpToGPUPatterns(converter, patterns, state);
    populateDebugOpToGPUPatterns(converter, patterns, state);
    populateHintOpToGPUPatterns(converter, patterns, state);
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
