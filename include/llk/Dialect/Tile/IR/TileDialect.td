//===- TileDialect.td - the tile dialect -------------------*- tablegen -*-===//
//
// One program instance of a grid, Triton style: values are tiles (statically
// shaped tensors) that the compiler later spreads over the threads of a CTA.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_TILE_DIALECT
#define LLK_TILE_DIALECT

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::llk::tile";
  let summary = "Block-level (tile) programming for NVIDIA GPUs";
  let description = [{
    A kernel is a `func.func` whose body describes one program instance of a
    1-3-D grid. Values are scalars, `!tile.ptr<T>` global pointers, and ranked
    tensors with static power-of-two shapes ("tiles") of numbers or pointers.
    `arith` and `math` operations apply elementwise to tiles. Layout passes
    attach a distributed layout (`#tile.blocked`, `#tile.slice`) to every tile
    as its tensor encoding before lowering to the GPU dialect.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasRegionArgAttrVerify = 1;
  let hasOperationAttrVerify = 1;
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::math::MathDialect",
    "mlir::scf::SCFDialect",
    "mlir::func::FuncDialect"
  ];
  let extraClassDeclaration = [{
    /// Attribute names understood on kernel functions and their arguments.
    static constexpr llvm::StringLiteral kNumWarpsAttr = "tile.num_warps";
    static constexpr llvm::StringLiteral kNumStagesAttr = "tile.num_stages";
    /// Programs the kernel should fit on one SM at once (CUDA's
    /// __launch_bounds__ minBlocksPerMultiprocessor): ptxas caps registers.
    static constexpr llvm::StringLiteral kMinProgramsPerSMAttr =
        "tile.min_programs_per_sm";
    static constexpr llvm::StringLiteral kDivisibilityAttr = "tile.divisibility";
    static constexpr llvm::StringLiteral kAlignmentAttr = "tile.alignment";
    /// On the nvvm.ldmatrix and nvvm.mma.sync ops of a tensor-core dot on
    /// pipelined buffers (set by convert-tile-to-gpu): the K step (of the
    /// instruction's k) they load or multiply, for
    /// nvvm-prefetch-mma-fragments, which drops them.
    static constexpr llvm::StringLiteral kMmaStepAttr = "tile.mma_step";
    /// Shared memory one program may use at most on sm_90 (227 KB); earlier
    /// targets allow less, which the runtime checks against the device at
    /// launch.
    static constexpr int64_t kMaxSharedBytes = 227 * 1024;
  }];
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

#endif // LLK_TILE_DIALECT
