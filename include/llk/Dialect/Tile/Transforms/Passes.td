//===- Passes.td - tile dialect transformations ------------*- tablegen -*-===//

#ifndef LLK_TILE_PASSES
#define LLK_TILE_PASSES

include "mlir/Pass/PassBase.td"

def TileDesugar : Pass<"tile-desugar"> {
  let summary = "Write the short forms out as explicit ops";
  let description = [{
    Rewrites the short forms a Triton user writes into the explicit ops the
    compiler and the interpreter take: the broadcasting elementwise ops
    (`tile.add`, `tile.sub`, `tile.mul`, `tile.div`, `tile.rem`, `tile.min`,
    `tile.max`, `tile.and`, `tile.or`, `tile.xor`, `tile.cmp`,
    `tile.where`) become `tile.splat` / `tile.expand_dims` / `tile.broadcast`
    of their operands and the `arith` op; a `tile.addptr` of operands that
    broadcast, the same; the loads and stores of a descriptor made by
    `tile.make_tensor_desc`, masked loads and stores of pointer tiles. One
    walk, no folding: explicit ops stay as written. KernelSource runs it on
    every kernel source it parses (llkc, the JIT, the interpreter), so the
    rest of the pipeline never sees a short form; here for llk-opt.
  }];
  let dependentDialects = ["::llk::tile::TileDialect",
                           "::mlir::arith::ArithDialect"];
}

def TileSetKernelAttrs : Pass<"tile-set-kernel-attrs", "mlir::func::FuncOp"> {
  let summary = "Set the kernels' warps, stages and programs per SM";
  let description = [{
    Sets `tile.num_warps`, `tile.num_stages` and `tile.min_programs_per_sm`
    on every kernel to the values of the options that are not 0, replacing
    what the kernels say: llkc's `--num-warps`, `--num-stages` and
    `--min-programs-per-sm`. The passes after it read the attributes, so
    that the choice is in the IR. Values out of range fail the verifier
    (the attributes' own checks).
  }];
  let options = [
    Option<"numWarps", "num-warps", "unsigned", "0",
           "warps per program (0: the kernels' own)">,
    Option<"numStages", "num-stages", "unsigned", "0",
           "shared-memory stages of software-pipelined loops (0: the "
           "kernels' own)">,
    Option<"minProgramsPerSM", "min-programs-per-sm", "unsigned", "0",
           "programs that should fit on one SM at once (0: the kernels' "
           "own)">
  ];
  let dependentDialects = ["::llk::tile::TileDialect"];
}

def TileExpandRandom : Pass<"tile-expand-random", "mlir::func::FuncOp"> {
  let summary = "Expand tile.rand, randn, randint and randint4x into arith "
                "and math ops";
  let description = [{
    Rewrites each random-number op into the Philox 4x32-10 rounds it
    stands for (arith.mului_extended, xori, addi on tiles of the offsets'
    shape, the key schedule on scalars) and, for rand and randn, the maps
    to floats (sitofp, mulf; log, sqrt, cos). The compiler lowers those
    ops as it lowers any others; the interpreter runs them with the same
    semantics, so a kernel expanded by this pass computes on the interpreter
    exactly the bits of its unexpanded self (test/Dialect/Tile/expand-random.mlir).
    Runs first in the layout pipeline, on tile IR without layouts.
  }];
  let dependentDialects = ["::llk::tile::TileDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def TileUpcastFp8Dots : Pass<"tile-upcast-fp8-dots", "mlir::func::FuncOp"> {
  let summary = "Give tile.dot's fp8 operands to an f16 dot, exactly";
  let description = [{
    A `tile.dot` of fp8 operands (`f8E4M3FN`, `f8E5M2`) becomes a
    `tile.cast` of each to f16, which is exact, and an f16 dot: every
    product of two fp8 values is exact in f32, so the result is the one
    the f32-accumulating tensor cores give either way. Runs in the layout
    pipeline on tile IR without layouts, before tile-assign-layouts.

    With `wgmma` (sm_90a targets), a dot that warpgroup MMA may take in fp8
    (`wgmma.mma_async ... m64nNk32 ... .e4m3` and so on: its rows whole
    warpgroup blocks of 64, at most 256 columns, K whole 128-byte slabs or
    one of 64 bytes)
    keeps its fp8 operands; tile-assign-layouts and tile-allocate-shared
    upcast it as here where it does not get warpgroup MMA after all.
  }];
  let options = [
    Option<"wgmma", "wgmma", "bool", "false",
           "keep the fp8 dots that sm_90a's warpgroup MMA may take">
  ];
  let dependentDialects = ["::llk::tile::TileDialect"];
}

def TileStripDeviceDebug : Pass<"tile-strip-device-debug", "mlir::func::FuncOp"> {
  let summary = "Erase tile.print and tile.assert (kernels built without "
                "device debug)";
  let description = [{
    Debug output and checks are compiled in only on request (`llkc
    --device-debug`, `LLK_DEVICE_DEBUG=1` for the JIT); otherwise the layout
    pipeline starts with this pass, so they cost nothing: no code, no
    registers, and the values they alone used are dead. tile.static_assert,
    checked by the verifier, is not touched.
  }];
  let dependentDialects = ["::llk::tile::TileDialect"];
}

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
    pass option. With `wgmma` (sm_90a targets), dot accumulators put every
    warp along M when the shape allows, as warpgroup MMA needs. Each
    tensor-core dot gets its instruction as its `mma` attribute
    (`#tile.mma`): version 3 (wgmma) where its types and accumulator allow,
    else 2 (mma.sync).
  }];
  let options = [
    Option<"numWarps", "num-warps", "unsigned", "4",
           "warps per program when the kernel does not say">,
    Option<"wgmma", "wgmma", "bool", "false",
           "lay out dot accumulators for sm_90a's warpgroup MMA">
  ];
  let dependentDialects = ["::llk::tile::TileDialect"];
}

def TileSoftwarePipeline
    : Pass<"tile-software-pipeline", "mlir::func::FuncOp"> {
  let summary = "Software-pipeline the loads that feed tile.dot in a loop";
  let description = [{
    In an `scf.for` whose loads feed the operands of a tensor-core
    `tile.dot` (f16, bf16, i8; fp8 on warpgroup MMA), the loads of iteration k + S - 1 start while
    iteration k computes: they become `tile.async_copy` (cp.async) into a
    ring of S shared-memory slots (`tile.local_alloc`), started S - 1
    iterations ahead in a prologue; each iteration waits for its slot
    (`tile.async_wait`), starts the next copies (`tile.async_commit` closes
    their group) and reads its operands with `tile.local_load`, which the
    dot lowering turns into `ldmatrix` straight from the slot.

    A load is pipelined when its `other` is absent or zero (copies fill
    masked-off elements with zeros) and the values its address and mask
    depend on are recomputable S - 1 iterations ahead: side-effect free, and
    loop-carried values (such as pointer tiles advanced each step) used for
    nothing else. Other loops are left as they are.

    S is the function's `tile.num_stages`, else the pass option; 1 turns
    pipelining off. Runs on laid-out IR (after `tile-assign-layouts`).

    With `wgmma` (sm_90a), a dot that warpgroup MMA can take, with its
    accumulator carried by the loop, may keep one K step in flight: each
    iteration starts its dot, waits for the previous one, and only then
    (behind a `tile.barrier`) starts the copies into the slot that one
    read; a `tile.dot_wait` after the loop waits for the last step.

  }];
  let options = [
    Option<"numStages", "num-stages", "unsigned", "3",
           "shared-memory slots per pipelined load when the kernel does not "
           "say (1: off)">,
    Option<"wgmma", "wgmma", "bool", "false",
           "let dots that warpgroup MMA (sm_90a) can take keep one K step "
           "in flight (copies after the dot, a tile.dot_wait after the "
           "loop)">,
    Option<"lateCopies", "late-copies", "bool", "false",
           "start each iteration's copies after its dot rather than before, "
           "so that the dot's first shared-memory reads follow the wait "
           "directly">
  ];
  let dependentDialects = ["::llk::tile::TileDialect",
                           "::mlir::arith::ArithDialect"];
}

def TileAllocateShared : Pass<"tile-allocate-shared", "mlir::func::FuncOp"> {
  let summary = "Lay out and place the shared-memory buffers of a kernel";
  let description = [{
    First the buffers' byte layouts: a dot that the layout pass gave warpgroup
    MMA (`#tile.mma` version 3) keeps it where B is read from a buffer slot
    (a buffer that only copies fill) whose extents suit it, and A from
    another such slot or from registers in the register-A layout (the
    warpgroup accumulator layout of A's shape: a previous dot's accumulator
    as it is, or a tile computed outside the dot's loop, which gets one
    `tile.convert_layout` to it there); those buffers' types get `swizzle =
    wgmma`. The others drop to mma.sync (version 2).

    Then their places: every `tile.local_alloc` gets its `offset` in the
    kernel's shared memory and, where `tile.async_tma_copy` fills it, the `barrier_offset` of its
    slots' mbarriers: the barriers first (8-byte aligned, in the order of the
    copies), then the buffers (in program order, aligned as their swizzle
    needs: 1024 bytes for wgmma, else 128), each first fit: at the lowest
    offset clear of the buffers live at the same time (the same block, and
    ranges from the allocation to the last use that overlap), so that
    buffers never live at once (the rings of two loops one after the
    other) share bytes; each allocation's lowering starts with a barrier.
    The lowering puts the scratch of layout conversions and staged dot
    operands after all buffers where it overlaps a buffer's live range, at
    offset 0 elsewhere.
  }];
  let dependentDialects = ["::llk::tile::TileDialect"];
}

#endif // LLK_TILE_PASSES
