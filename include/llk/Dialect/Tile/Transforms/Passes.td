//===- Passes.td - tile dialect transformations ------------*- tablegen -*-===//

#ifndef LLK_TILE_PASSES
#define LLK_TILE_PASSES

include "mlir/Pass/PassBase.td"

def TileAssignLayouts : Pass<"tile-assign-layouts", "mlir::func::FuncOp"> {
  let summary = "Give every tile a distributed layout, coalescing memory "
                "accesses";
  let description = [{
    Chooses, for each tile, how its elements are spread over the threads and
    warps of the program (`#tile.blocked`, and `#tile.slice` for reduction
    results), and records it as the tensor encoding.

    Memory accesses anchor the choice: the pointer contiguity and
    divisibility analysis picks, for each load and store, the dimension
    along which addresses are contiguous and how many elements one thread
    can move in a 16-byte access. Layouts then spread from the anchors
    through elementwise ops, broadcasts, reductions, loops and branches, so
    that a kernel usually needs no data movement between threads beyond its
    reductions. Where two layouts meet, a `tile.convert_layout` (lowered
    through shared memory) joins them.

    The number of warps is the function's `tile.num_warps`, else the
    pass option.
  }];
  let options = [
    Option<"numWarps", "num-warps", "unsigned", "4",
           "warps per program when the kernel does not say">
  ];
  let dependentDialects = ["::llk::tile::TileDialect"];
}

#endif // LLK_TILE_PASSES
