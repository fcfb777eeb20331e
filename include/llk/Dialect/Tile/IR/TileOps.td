//===- TileOps.td - tile dialect operations ----------------*- tablegen -*-===//

#ifndef LLK_TILE_OPS
#define LLK_TILE_OPS

include "llk/Dialect/Tile/IR/TileDialect.td"
include "llk/Dialect/Tile/IR/TileTypes.td"
include "llk/Dialect/Tile/IR/TileAttrs.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

// Type helpers used to infer operand and result types in assembly formats.
class Tile_PointeeOf<string ptr, string res>
    : TypesMatchWith<res # " has the pointee type and shape of " # ptr, ptr, res,
                     "::llk::tile::getPointeeValueType($_self)">;
class Tile_MaskOf<string ptr, string mask>
    : OptionalTypesMatchWith<mask # " is i1 with the shape of " # ptr, ptr, mask,
                     "::llk::tile::getMaskType($_self)">;
class Tile_OptPointeeOf<string ptr, string res>
    : OptionalTypesMatchWith<res # " has the pointee type and shape of " # ptr,
                     ptr, res, "::llk::tile::getPointeeValueType($_self)">;

//===----------------------------------------------------------------------===//
// Program and index space
//===----------------------------------------------------------------------===//

def Tile_ProgramIdOp : Tile_Op<"program_id", [Pure]> {
  let summary = "index of this program along a grid axis";
  let arguments = (ins Tile_GridAxis:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict";
}

def Tile_NumProgramsOp : Tile_Op<"num_programs", [Pure]> {
  let summary = "number of programs along a grid axis";
  let arguments = (ins Tile_GridAxis:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict";
}

def Tile_MakeRangeOp : Tile_Op<"make_range", [Pure]> {
  let summary = "1-D tile of consecutive integers [start, end)";
  let description = [{
    `tensor<Nxi32>` holding start, start + 1, ..., end - 1 (Triton's
    `tl.arange`). The type may be left out: `tile.make_range 0 to 128`.
  }];
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs Tile_IntTensor:$result);
  let assemblyFormat = [{
    $start `to` $end attr-dict custom<RangeType>(type($result), ref($start), ref($end))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

def Tile_SplatOp : Tile_Op<"splat", [Pure]> {
  let summary = "tile with every element equal to a scalar";
  let arguments = (ins Tile_Elem:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_BroadcastOp : Tile_Op<"broadcast", [Pure]> {
  let summary = "repeat a tile along its dimensions of size 1";
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_ExpandDimsOp : Tile_Op<"expand_dims", [Pure]> {
  let summary = "insert a dimension of size 1";
  let description = [{
    `x[:, None]` is `tile.expand_dims %x axis = 1`; the result type may be
    left out (it is the operand's with 1 inserted at `axis`, and, for a
    laid-out operand sliced at `axis`, the slice's parent layout).
  }];
  let arguments = (ins Tile_Tensor:$src, I32Attr:$axis);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $src `axis` `=` $axis attr-dict `:` type($src)
    custom<ExpandedType>(type($result), ref(type($src)), ref($axis))
  }];
  let hasVerifier = 1;
}

def Tile_ReshapeOp : Tile_Op<"reshape", [Pure]> {
  let summary = "reinterpret a tile with another shape, row-major order";
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_TransOp : Tile_Op<"trans", [Pure]> {
  let summary = "transpose a 2-D tile";
  let description = [{
    The result type may be left out for a tile without a layout.
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $src attr-dict `:` type($src) custom<TransposedType>(type($result), ref(type($src)))
  }];
  let hasVerifier = 1;
}

def Tile_ConvertLayoutOp : Tile_Op<"convert_layout", [Pure]> {
  let summary = "move a tile to another distributed layout";
  let description = [{
    Inserted by the layout passes where two layouts meet; lowered through
    shared memory.
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Pointers and memory
//===----------------------------------------------------------------------===//

def Tile_AddPtrOp : Tile_Op<"addptr", [Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "advance pointers by element offsets";
  let description = [{
    `ptr + offset` elementwise, counting in elements of the pointee type.
    The two broadcast as tile.add's operands do (a short form that
    tile-desugar writes out): a scalar pointer plus a tile of offsets is a
    tile of pointers (Triton's `x_ptr + offsets`), a tile of pointers plus a
    scalar advances them all (`ptrs += BLOCK`).

    ```mlir
    %ptrs = tile.addptr %x, %offsets : !tile.ptr<f32>, tensor<1024xi32>
    %next = tile.addptr %ptrs, %step : tensor<1024x!tile.ptr<f32>>, i32
    ```
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Tile_IntLike:$offset);
  let results = (outs Tile_PtrLike:$result);
  let assemblyFormat =
      "$ptr `,` $offset attr-dict `:` type($ptr) `,` type($offset)";
  let hasVerifier = 1;
}

def Tile_LoadOp : Tile_Op<"load", [AttrSizedOperandSegments,
    Tile_PointeeOf<"ptr", "result">, Tile_MaskOf<"ptr", "mask">,
    Tile_OptPointeeOf<"ptr", "other">]> {
  let summary = "load from global memory, with an optional mask";
  let description = [{
    Loads each pointer of `ptr`. Where `mask` is false nothing is read and
    the result is `other` (undefined if absent). `cache` and `evict` set the
    PTX cache operator and L1 eviction priority.

    ```mlir
    %x = tile.load %ptrs mask %m other %zero : tensor<1024x!tile.ptr<f32>>
    ```
  }];
  let arguments = (ins Arg<Tile_PtrLike, "", [MemRead]>:$ptr,
                       Optional<Tile_BoolLike>:$mask,
                       Optional<Tile_Value>:$other,
                       OptionalAttr<Tile_CacheModifier>:$cache,
                       OptionalAttr<Tile_EvictionPolicy>:$evict,
                       UnitAttr:$isVolatile);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = [{
    $ptr (`mask` $mask^)? (`other` $other^)? (`cache` `=` $cache^)?
    (`evict` `=` $evict^)? (`volatile` $isVolatile^)? attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def Tile_StoreOp : Tile_Op<"store", [
    Tile_PointeeOf<"ptr", "value">, Tile_MaskOf<"ptr", "mask">]> {
  let summary = "store to global memory, with an optional mask";
  let arguments = (ins Arg<Tile_PtrLike, "", [MemWrite]>:$ptr,
                       Tile_Value:$value,
                       Optional<Tile_BoolLike>:$mask,
                       OptionalAttr<Tile_CacheModifier>:$cache,
                       OptionalAttr<Tile_EvictionPolicy>:$evict);
  let assemblyFormat = [{
    $value `,` $ptr (`mask` $mask^)? (`cache` `=` $cache^)?
    (`evict` `=` $evict^)? attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def Tile_PrefetchOp : Tile_Op<"prefetch", [Tile_MaskOf<"ptr", "mask">]> {
  let summary = "bring global memory into the L2 cache ahead of its loads";
  let description = [{
    A hint: the lines holding the addresses of `ptr` (where `mask` is true)
    start moving into L2, so that later loads of them wait for L2, not for
    DRAM. It reads nothing into the program, so unlike a load it costs no
    registers and never stalls, and it cannot make a later load see stale
    data. Its best use is before `tile.grid_dependency_wait`: the first
    tiles a kernel will read (weights, a cache) move while the kernel
    before it finishes (examples/llama/mul_mat_vec_q.mlir). The addresses
    must be valid as for a load (the interpreter checks them, and otherwise
    ignores the op).

    ```mlir
    tile.prefetch %first_ptrs mask %first_ok : tensor<4x32x32x!tile.ptr<i8>>
    tile.grid_dependency_wait
    ```
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Optional<Tile_BoolLike>:$mask);
  let assemblyFormat = "$ptr (`mask` $mask^)? attr-dict `:` type($ptr)";
}

def Tile_AtomicRMWOp : Tile_Op<"atomic_rmw", [
    Tile_PointeeOf<"ptr", "result">, Tile_PointeeOf<"ptr", "value">,
    Tile_MaskOf<"ptr", "mask">]> {
  let summary = "atomic read-modify-write; returns the old values";
  let description = [{
    One atomic per element (on a scalar pointer: once, by the program, the
    old value returned to all of its threads). A masked-off element touches
    no memory and its result is 0. `sem` orders it at GPU scope
    (default acq_rel, as Triton's). A scalar atomic with release ordering
    (release, acq_rel) comes after all the program's earlier memory
    accesses, every thread's, as a split-K block's last part relies on.

    As the GPU's instructions do them, an f32 `add` flushes subnormal
    inputs and results to zero (keeping the sign), and f32 `max` / `min`
    compare the bits as integers: signed where the new value's sign bit is
    clear, unsigned in reverse where it is set. So -0 < +0, and a NaN with
    its sign clear wins every `max` and loses every `min` (one with its sign
    set the reverse).

    ```mlir
    %arrived = tile.atomic_rmw add %lock, %one : !tile.ptr<i32>
    %n = tile.atomic_rmw add %hist, %ones mask %m sem = relaxed : tensor<256x!tile.ptr<i32>>
    ```
  }];
  let arguments = (ins Tile_AtomicRMWKind:$kind,
                       Arg<Tile_PtrLike, "", [MemRead, MemWrite]>:$ptr,
                       Tile_Value:$value, Optional<Tile_BoolLike>:$mask,
                       DefaultValuedAttr<Tile_MemorySemantic,
                                         "::llk::tile::MemorySemantic::AcqRel">:$sem);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = [{
    $kind $ptr `,` $value (`mask` $mask^)? (`sem` `=` $sem^)? attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def Tile_AtomicCASOp : Tile_Op<"atomic_cas", [
    Tile_PointeeOf<"ptr", "result">, Tile_PointeeOf<"ptr", "cmp">,
    Tile_PointeeOf<"ptr", "value">]> {
  let summary = "atomic compare-and-swap; returns the old values";
  let description = [{
    As `tile.atomic_rmw`, with the same `sem` (default acq_rel).
  }];
  let arguments = (ins Arg<Tile_PtrLike, "", [MemRead, MemWrite]>:$ptr,
                       Tile_Value:$cmp, Tile_Value:$value,
                       DefaultValuedAttr<Tile_MemorySemantic,
                                         "::llk::tile::MemorySemantic::AcqRel">:$sem);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = [{
    $ptr `,` $cmp `,` $value (`sem` `=` $sem^)? attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def Tile_BarrierOp : Tile_Op<"barrier"> {
  let summary = "synchronize the threads of the program (bar.sync)";
  let assemblyFormat = "attr-dict";
}

def Tile_GridDependencyWaitOp : Tile_Op<"grid_dependency_wait"> {
  let summary = "wait for the kernel before this one in the stream to finish";
  let description = [{
    Programmatic dependent launch (sm_90 and later). A kernel launched as a
    dependent launch (the runtime's `LaunchOptions::dependentLaunch`) may
    start while the kernel before it in the stream is still running; this
    waits until that kernel has completed and its memory writes are
    visible (`griddepcontrol.wait`). Everything that reads what the earlier
    kernel writes, or writes what it reads, must come after it; work that
    touches neither (index arithmetic, prefetching weights) may come before
    and overlap the earlier kernel's tail. In a normal launch, on the
    interpreter and on targets before sm_90 it does nothing. The runtime
    makes a dependent launch only of kernels that hold this op.

    ```mlir
    tile.launch_dependents
    tile.grid_dependency_wait
    %x = tile.load %x_ptrs : tensor<1024x!tile.ptr<f32>>
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_LaunchDependentsOp : Tile_Op<"launch_dependents"> {
  let summary = "let the next kernel in the stream start launching";
  let description = [{
    Programmatic dependent launch (sm_90 and later): once every program of
    this kernel has executed this op (or exited), a dependent launch that
    follows it in the stream may start its programs, which then wait in
    `tile.grid_dependency_wait` (`griddepcontrol.launch_dependents`). It
    orders no memory: the dependent's wait still waits for this whole
    kernel. Early in a one-wave kernel it hides the next kernel's launch;
    in a kernel of many waves the dependent's waiting programs take SM
    slots from this one's later waves. Elsewhere it does nothing.
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Shared-memory buffers and asynchronous copies (software pipelining)
//===----------------------------------------------------------------------===//

def Tile_LocalAllocOp : Tile_Op<"local_alloc", [
    MemoryEffects<[MemAlloc<DefaultResource, 0, FullEffect>]>]> {
  let summary = "a ring of tile buffers in the program's shared memory";
  let description = [{
    Reserves the buffers of a `!tile.shared` type from here to their last
    use (`getLastUse`). The `tile-software-pipeline` pass makes them; their
    contents start undefined.

    ```mlir
    %ring = tile.local_alloc : !tile.shared<3x128x64xf16, contiguous = 1>
    ```

    `tile-allocate-shared` places them: `offset` is their first byte in the
    kernel's shared memory (buffers whose live ranges do not overlap may
    share bytes: `reuses_bytes` marks a buffer placed on an earlier one's,
    whose lowering first waits for the thread's cp.async copies; every
    allocation starts with a barrier) and, for buffers
    that TMA fills, `barrier_offset` the first of their slots' mbarriers (8
    bytes each, never shared).
  }];
  let arguments = (ins OptionalAttr<ConfinedAttr<I64Attr, [IntNonNegative]>>:$offset,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntNonNegative]>>:$barrier_offset,
                       UnitAttr:$reuses_bytes);
  let results = (outs Tile_SharedType:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The op of this op's block that ends the buffers' live range: the
    /// last one that uses them or holds a use (a loop), the block's
    /// terminator if a use is outside the block, this op if none.
    mlir::Operation *getLastUse();
  }];
}

def Tile_AsyncCopyOp : Tile_Op<"async_copy", [
    Tile_MaskOf<"ptr", "mask">]> {
  let summary = "start copying a tile from global memory into a buffer slot";
  let description = [{
    Starts copying the elements `ptr` points to into slot `slot` of
    `buffer` (cp.async, 16 bytes per copy where the addresses allow).
    Masked-off elements are not read and their place in the slot is filled
    with zeros. The copy belongs to the current group of the thread: it is
    complete only once `tile.async_commit` has closed the group and a
    `tile.async_wait` has waited for it.

    ```mlir
    tile.async_copy %ptrs, %ring[%slot] mask %m
        : tensor<128x64x!tile.ptr<f16>> -> !tile.shared<3x128x64xf16, contiguous = 1>
    ```
  }];
  let arguments = (ins Arg<Tile_PtrTensor, "", [MemRead]>:$ptr,
                       Arg<Tile_SharedType, "", [MemWrite]>:$buffer,
                       I32:$slot, Optional<Tile_BoolTensor>:$mask);
  let assemblyFormat = [{
    $ptr `,` $buffer `[` $slot `]` (`mask` $mask^)? attr-dict `:`
    type($ptr) `->` qualified(type($buffer))
  }];
  let hasVerifier = 1;
}

def Tile_AsyncTmaCopyOp : Tile_Op<"async_tma_copy"> {
  let summary = "start copying a descriptor's block into a buffer slot (TMA)";
  let description = [{
    Starts the bulk tensor copy (`cp.async.bulk.tensor`, issued by one
    thread) of the block of `desc` whose first element is at (`row`,
    `col`) into slot `slot` of `buffer`; elements past the tensor arrive as
    zeros. The copy completes on the slot's barrier, which
    `tile.async_tma_wait` waits on. Nothing starts when `pred` is false.
    Made by `tile-software-pipeline` from `tile.descriptor_load`. A buffer
    with `contiguous = 1` holds the block as it is; one with `contiguous = 0`
    holds its transpose (slots of the block's shape reversed, the same
    bytes), which is how a `tile.trans` of the load reaches a `tile.dot`.

    ```mlir
    tile.async_tma_copy %desc[%m, %k], %ring[%slot] if %in_range
        : !tile.tensordesc<128x64xf16> -> !tile.shared<3x128x64xf16, contiguous = 1>
    ```
  }];
  let arguments = (ins Arg<Tile_TensorDescType, "", [MemRead]>:$desc,
                       I32:$row, I32:$col,
                       Arg<Tile_SharedType, "", [MemWrite]>:$buffer,
                       I32:$slot, I1:$pred);
  let assemblyFormat = [{
    $desc `[` $row `,` $col `]` `,` $buffer `[` $slot `]` `if` $pred attr-dict
    `:` qualified(type($desc)) `->` qualified(type($buffer))
  }];
  let hasVerifier = 1;
}

def Tile_AsyncTmaWaitOp : Tile_Op<"async_tma_wait"> {
  let summary = "wait for the bulk tensor copies into a buffer slot";
  let description = [{
    Waits until the copies into slot `slot` of `buffer` started by
    `tile.async_tma_copy` have landed: the slot's barrier has completed the
    phase of parity `phase` (a slot's n-th fill completes phase n, so a
    ring of S slots reads parity (k / S) % 2 in iteration k).
  }];
  // Written, as far as the program can tell: the slot's contents become
  // visible here (and a wait must never be dropped as dead).
  let arguments = (ins Arg<Tile_SharedType, "", [MemRead, MemWrite]>:$buffer,
                       I32:$slot, I32:$phase);
  let assemblyFormat = [{
    $buffer `[` $slot `]` `phase` $phase attr-dict `:` qualified(type($buffer))
  }];
}

def Tile_AsyncCommitOp : Tile_Op<"async_commit"> {
  let summary = "close the current group of asynchronous copies";
  let description = [{
    Every `tile.async_copy` this thread started since the last commit forms
    one group (cp.async.commit_group); `tile.async_wait` counts groups.
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_AsyncWaitOp : Tile_Op<"async_wait"> {
  let summary = "wait for asynchronous copies, then synchronize the program";
  let description = [{
    Waits until at most `pending` of the most recent copy groups are still
    in flight (cp.async.wait_group), then synchronizes the threads of the
    program (bar.sync), so that every thread sees the slots filled by the
    completed groups, and no thread starts refilling a slot that another
    is still reading.
  }];
  let arguments = (ins I32Attr:$pending);
  let assemblyFormat = "`pending` `=` $pending attr-dict";
  let hasVerifier = 1;
}

def Tile_DescriptorLoadOp : Tile_Op<"descriptor_load"> {
  let summary = "load a block of a tensor descriptor";
  let description = [{
    The block of `desc` whose first element is at (`row`, `col`), in the
    result's layout; elements past the tensor are zero, so a tail needs no
    mask. On sm_90a, a `tile.dot` operand loaded this way in a loop is
    software-pipelined with TMA copies (`tile.async_tma_copy`) straight into
    the shared-memory layout warpgroup MMA reads; that is the only lowering
    so far. A descriptor made in the kernel (tile.make_tensor_desc) is
    read with a masked load instead (tile-desugar writes it out). The result
    type may be left out (a block, without a layout).

    ```mlir
    %a = tile.descriptor_load %a_desc[%m0, %k0]
        : !tile.tensordesc<128x64xf16> -> tensor<128x64xf16>
    ```
  }];
  let arguments = (ins Arg<Tile_TensorDescType, "", [MemRead]>:$desc,
                       I32:$row, I32:$col);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $desc `[` $row `,` $col `]` attr-dict `:` qualified(type($desc))
    custom<BlockType>(type($result), ref(type($desc)))
  }];
  let hasVerifier = 1;
}

def Tile_DotWaitOp : Tile_Op<"dot_wait", [AllTypesMatch<["acc", "result"]>]> {
  let summary = "wait for the asynchronous dots that accumulate into a tile";
  let description = [{
    `acc`, once the tensor-core operations that produce it have completed.
    The software pipeliner puts one after a K loop whose `tile.dot` may run
    asynchronously: on sm_90a, warpgroup MMA keeps one K step in flight
    while the threads start the copies of the next ones, and this waits for
    the last. Elsewhere it does nothing.

    ```mlir
    %c = tile.dot_wait %acc : tensor<128x128xf32, #blocked>
    ```
  }];
  let arguments = (ins Tile_Tensor:$acc);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$acc attr-dict `:` type($acc)";
}

def Tile_LocalLoadOp : Tile_Op<"local_load"> {
  let summary = "read the tile in a buffer slot";
  let description = [{
    The tile in slot `slot` of `buffer`, in the result's layout. A
    `tile.dot` operand read this way goes from shared memory straight to
    `ldmatrix`, with no trip through registers.

    ```mlir
    %a = tile.local_load %ring[%slot]
        : !tile.shared<3x128x64xf16, contiguous = 1> -> tensor<128x64xf16>
    ```
  }];
  let arguments = (ins Arg<Tile_SharedType, "", [MemRead]>:$buffer, I32:$slot);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $buffer `[` $slot `]` attr-dict `:` qualified(type($buffer)) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

def Tile_ReduceOp : Tile_Op<"reduce", [Pure]> {
  let summary = "built-in reduction along one axis";
  let description = [{
    `sum`, `max`, `min` give the reduced values; `argmax` and `argmin` give
    the i32 index along `axis` of the first maximal (minimal) element.
    Reducing a 1-D tile gives a scalar. The result type may be left out.

    ```mlir
    %m = tile.reduce max %x axis = 1 : tensor<16x1024xf32> -> tensor<16xf32>
    ```
  }];
  let arguments = (ins Tile_ReduceKind:$kind, Tile_Tensor:$src, I32Attr:$axis);
  let results = (outs AnyTypeOf<[Tile_Scalar, Tile_Tensor]>:$result);
  let assemblyFormat = [{
    $kind $src `axis` `=` $axis attr-dict `:` type($src)
    custom<ReducedType>(type($result), ref(type($src)), ref($axis), ref($kind))
  }];
  let hasVerifier = 1;
}

def Tile_GenericReduceOp : Tile_Op<"generic_reduce", [Pure,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "reduction along one axis with a combiner region";
  let description = [{
    The region combines two elements into one; it must be associative and
    commutative, since the lowering combines in a tree (the interpreter in
    order). The verifier holds it to a pure function of its two scalar
    arguments: arith, math and scf ops on scalars, no tile ops, nothing with
    side effects.

    ```mlir
    %p = tile.generic_reduce %x axis = 0 : tensor<128xf32> -> f32 {
    ^bb0(%a: f32, %b: f32):
      %c = arith.mulf %a, %b : f32
      tile.yield %c : f32
    }
    ```
  }];
  let arguments = (ins Tile_Tensor:$src, I32Attr:$axis);
  let results = (outs AnyTypeOf<[Tile_Scalar, Tile_Tensor]>:$result);
  let regions = (region SizedRegion<1>:$combiner);
  let assemblyFormat = [{
    $src `axis` `=` $axis attr-dict `:` type($src)
    custom<ReducedType>(type($result), ref(type($src)), ref($axis)) $combiner
  }];
  let hasRegionVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Scans
//===----------------------------------------------------------------------===//

def Tile_ScanOp : Tile_Op<"scan", [Pure, AllTypesMatch<["src", "result"]>]> {
  let summary = "built-in inclusive scan along one axis";
  let description = [{
    The inclusive prefix along `axis`: `sum` (Triton's `tl.cumsum`), `prod`
    (`tl.cumprod`), `max` (`tl.cummax`) and `min`; element i of the result
    combines elements 0..i of its row. With `reverse`, the suffix: element
    i combines elements i..n-1 (`tl.cumsum(x, reverse=True)`). Float `max`
    and `min` ignore NaN as `arith.maxnumf` does; integers are signed.

    ```mlir
    %c = tile.scan sum %p axis = 1 : tensor<16x1024xf32>
    %r = tile.scan max %x axis = 0 reverse : tensor<128xi32>
    ```
  }];
  let arguments = (ins Tile_ScanKind:$kind, Tile_Tensor:$src, I32Attr:$axis,
                       UnitAttr:$reverse);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $kind $src `axis` `=` $axis (`reverse` $reverse^)? attr-dict `:` type($src)
  }];
  let hasVerifier = 1;
}

def Tile_GenericScanOp : Tile_Op<"generic_scan", [Pure,
    AllTypesMatch<["src", "result"]>, SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "inclusive scan along one axis with a combiner region";
  let description = [{
    Triton's `tl.associative_scan`: element i of the result is
    `x[0] op x[1] op ... op x[i]` for the region's `op`, which must be
    associative (not commutative: the scan keeps the order, the left
    argument always the earlier part). With `reverse`,
    `x[i] op ... op x[n-1]` with the later part on the left, as Triton
    scans the flipped row. The region is held to the rules of a
    `tile.generic_reduce` combiner (a pure function of its two scalars).

    ```mlir
    %c = tile.generic_scan %x axis = 0 : tensor<128xf32> {
    ^bb0(%acc: f32, %next: f32):
      %s = arith.addf %acc, %next : f32
      tile.yield %s : f32
    }
    ```
  }];
  let arguments = (ins Tile_Tensor:$src, I32Attr:$axis, UnitAttr:$reverse);
  let results = (outs Tile_Tensor:$result);
  let regions = (region SizedRegion<1>:$combiner);
  let assemblyFormat = [{
    $src `axis` `=` $axis (`reverse` $reverse^)? attr-dict `:` type($src) $combiner
  }];
  let hasRegionVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Sorting
//===----------------------------------------------------------------------===//

def Tile_SortOp : Tile_Op<"sort", [Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "sorts a tile along one axis, optionally carrying values";
  let description = [{
    Triton's `tl.sort(x, dim, descending)`, and the key/value sort: every
    row along `axis` is sorted, ascending (or with `descending`,
    descending), and `values` (a tile of the keys' shape) is permuted with
    the keys. The order is total, so the result is one permutation, the
    same on the GPU and in the interpreter:
    - equal keys keep their original order (the sort is stable), in both
      directions;
    - floats: NaN is greater than every number, and all NaNs are equal (so
      ascending puts them last, descending first, as `torch.sort` does);
      `-0.0` and `+0.0` are equal, so they too stay in their original order;
    - integers are signed.

    The lowering is a bitonic sorting network on the keys and their
    original positions: compare-exchanges within a thread's registers,
    across lanes by warp shuffles, across warps through shared memory.
    Every length is a power of two (as every tile dimension is).

    ```mlir
    %s = tile.sort %x axis = 1 descending : tensor<16x128xf32>
    %k, %v = tile.sort %keys, %vals axis = 0 : tensor<256xf32>, tensor<256xi32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$keys, Optional<Tile_Tensor>:$values,
                       I32Attr:$axis, UnitAttr:$descending);
  let results = (outs Tile_Tensor:$sorted, Optional<Tile_Tensor>:$sorted_values);
  let assemblyFormat = [{
    $keys (`,` $values^)? `axis` `=` $axis (`descending` $descending^)? attr-dict
    `:` type($keys) (`,` type($values)^)?
  }];
  let hasVerifier = 1;
}

def Tile_TopKOp : Tile_Op<"topk", [Pure]> {
  let summary = "the k largest (or smallest) elements of each row, sorted";
  let description = [{
    Triton's `tl.topk(x, k)` with the indices (`torch.topk`): along the last
    axis, the `k` largest elements of each row in descending order (with
    `smallest`, the k smallest ascending) and their positions in the row, as
    i32. `k` is the result's last dimension, a power of two no larger than
    the row. The order is `tile.sort`'s: of equal elements the earlier comes
    first, NaN is the largest, `-0.0` equals `+0.0`. The lowering sorts the
    rows with `tile.sort`'s network and keeps the first k.

    ```mlir
    %v, %i = tile.topk %logits : tensor<4x1024xf32> -> tensor<4x16xf32>, tensor<4x16xi32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src, UnitAttr:$smallest);
  let results = (outs Tile_Tensor:$values, Tile_Tensor:$indices);
  let assemblyFormat = [{
    $src (`smallest` $smallest^)? attr-dict `:` type($src) `->` type($values) `,`
    type($indices)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Gathers and histograms
//===----------------------------------------------------------------------===//

def Tile_GatherOp : Tile_Op<"gather", [Pure]> {
  let summary = "elements of a tile picked along one axis by an index tile";
  let description = [{
    Triton's `tl.gather(src, index, axis)`: the result has the indices'
    shape, and element `[i0, ..., ik]` is `src` at the same position with its
    `axis` coordinate replaced by `index[i0, ..., ik]`. The indices' other
    dimensions equal `src`'s. An index outside `[0, src.shape[axis])` is an
    error in the interpreter; the GPU reads a wrapped element instead (never
    outside the tile). The lowering goes through shared memory.

    ```mlir
    %g = tile.gather %table[%idx] axis = 1 : tensor<16x64xf32>, tensor<16x8xi32> -> tensor<16x8xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src, RankedTensorOf<[I32]>:$indices,
                       I32Attr:$axis);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $src `[` $indices `]` `axis` `=` $axis attr-dict `:` type($src) `,`
    type($indices) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_HistogramOp : Tile_Op<"histogram", [Pure]> {
  let summary = "counts of the values of a 1-D tile, in bins of width 1";
  let description = [{
    Triton's `tl.histogram(x, num_bins)`: element b of the result counts the
    elements of `src` equal to b, for b in `[0, num_bins)`; values outside
    that range are not counted. The lowering counts with shared-memory
    atomics (each element once, by the thread that owns it).

    ```mlir
    %h = tile.histogram %x : tensor<1024xi32> -> tensor<64xi32>
    ```
  }];
  let arguments = (ins 1DTensorOf<[I32]>:$src);
  let results = (outs 1DTensorOf<[I32]>:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_YieldOp : Tile_Op<"yield", [Pure, Terminator, ReturnLike,
    ParentOneOf<["GenericReduceOp", "GenericScanOp"]>]> {
  let summary = "result of a combiner region";
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ }]>];
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

//===----------------------------------------------------------------------===//
// Random numbers
//===----------------------------------------------------------------------===//

def Tile_RandomSeed : AnyTypeOf<[I32, I64]>;
def Tile_RandomOffset : AnyTypeOf<[I32, I64, RankedTensorOf<[I32, I64]>]>;

// The result has the offsets' shape (and layout), with `elem` elements.
class Tile_RandomResultOf<string result, string elem>
    : TypesMatchWith<result # " has the shape of the offsets, with " # elem #
                     " elements", "offset", result,
                     "::llk::tile::withElementType($_self, ::mlir::" # elem #
                     "Type::get($_self.getContext()" #
                     !if(!eq(elem, "Integer"), ", 32", "") # "))">;

// Philox 4x32-10 of Triton's `tl.randint4x`, which these ops share; the
// description says it once.
class Tile_RandomOp<string mnemonic, string elem, list<Trait> traits = []>
    : Tile_Op<mnemonic, !listconcat([Pure,
                                     Tile_RandomResultOf<"result", elem>],
                                    traits)> {
  let arguments = (ins Tile_RandomSeed:$seed, Tile_RandomOffset:$offset);
  let assemblyFormat = "$seed `,` $offset attr-dict `:` type($seed) `,` type($offset)";
  let hasVerifier = 1;
}

def Tile_RandIntOp : Tile_RandomOp<"randint", "Integer"> {
  let summary = "random i32 per offset (Philox 4x32-10, Triton's tl.randint)";
  let description = [{
    Counter-based random numbers: each element is a pure function of the
    seed and its offset, so a kernel draws the same numbers wherever (and
    however often) it computes them, with no state between programs. The
    generator is Philox 4x32 with 10 rounds, exactly as Triton 3.6's
    `tl.randint4x`: the key is the seed as 64 bits (an i32 seed
    sign-extended), k0 its low and k1 its high word; the counter is c0 = the
    offset's low word, c1 = its high word (0 for i32 offsets), c2 = c3 = 0.
    Each round computes (with the key before the round's increment)

        c0' = hi(0xCD9E8D57 * c2) ^ c1 ^ k0    c1' = lo(0xCD9E8D57 * c2)
        c2' = hi(0xD2511F53 * c0) ^ c3 ^ k1    c3' = lo(0xD2511F53 * c0)
        k0 += 0x9E3779B9, k1 += 0xBB67AE85

    `tile.randint` is c0, all 32 bits (a negative i32 half the time).
    `tile.rand`, `tile.randn` and `tile.randint4x` use the same words, so
    for one seed and offset they agree with Triton's `tl.rand`, `tl.randn`
    and `tl.randint4x` (rand and randint bit for bit). An offset may be a
    tile or a scalar; the result has its shape.

    ```mlir
    %bits = tile.randint %seed, %offsets : i32, tensor<1024xi32>
    ```
  }];
  let results = (outs Tile_IntLike:$result);
}

def Tile_RandIntX4Op : Tile_Op<"randint4x", [Pure,
    Tile_RandomResultOf<"r0", "Integer">, Tile_RandomResultOf<"r1", "Integer">,
    Tile_RandomResultOf<"r2", "Integer">, Tile_RandomResultOf<"r3", "Integer">]> {
  let summary = "the four random i32 words of Philox 4x32-10 per offset";
  let description = [{
    c0, c1, c2 and c3 of `tile.randint`'s generator (Triton's
    `tl.randint4x`): four independent streams for the price of one.

    ```mlir
    %a, %b, %c, %d = tile.randint4x %seed, %offsets : i64, tensor<256xi64>
    ```
  }];
  let arguments = (ins Tile_RandomSeed:$seed, Tile_RandomOffset:$offset);
  let results = (outs Tile_IntLike:$r0, Tile_IntLike:$r1, Tile_IntLike:$r2,
                      Tile_IntLike:$r3);
  let assemblyFormat = "$seed `,` $offset attr-dict `:` type($seed) `,` type($offset)";
  let hasVerifier = 1;
}

def Tile_RandOp : Tile_RandomOp<"rand", "Float32"> {
  let summary = "random f32 uniform in [0, 1) per offset (Triton's tl.rand)";
  let description = [{
    `tile.randint`'s word x, as Triton's `uint_to_uniform_float` maps it:
    x read as a signed i32, negatives folded onto the non-negative range
    (x < 0 ? -x - 1 : x), converted to f32 (to nearest even) and multiplied
    by 4.6566127342e-10 in f32, the largest scale that keeps 2^31 - 1 below
    1.0. Bit for bit Triton 3.6's `tl.rand` for the same seed and offsets.

    ```mlir
    %u = tile.rand %seed, %offsets : i32, tensor<1024xi32>
    %keep = arith.cmpf ogt, %u, %p : tensor<1024xf32>
    ```
  }];
  let results = (outs AnyTypeOf<[F32, RankedTensorOf<[F32]>]>:$result);
}

def Tile_RandNOp : Tile_RandomOp<"randn", "Float32"> {
  let summary = "random f32 from N(0, 1) per offset (Triton's tl.randn)";
  let description = [{
    Box-Muller on the uniforms u1, u2 of the words c0, c1 (as `tile.rand`
    maps them), in f32 as Triton's `tl.randn` does:
    `sqrt(-2 * log(max(u1, 1e-7))) * cos(6.2831855 * u2)`. The log, cos and
    sqrt are the kernel's math ops (libdevice on the GPU, correctly rounded
    ones on the interpreter), so the result is within a few ulp of the
    float64 transform of the same uniforms; Triton's approximate
    instructions differ from it by more (docs/random.md has the bounds).

    ```mlir
    %z = tile.randn %seed, %offsets : i64, tensor<64x64xi64>
    ```
  }];
  let results = (outs AnyTypeOf<[F32, RankedTensorOf<[F32]>]>:$result);
}

//===----------------------------------------------------------------------===//
// Debugging: printing and assertions
//===----------------------------------------------------------------------===//

def Tile_PrintOp : Tile_Op<"print"> {
  let summary = "print tiles and scalars, each element once (device debug)";
  let description = [{
    Prints every element of each operand, one line each, by the thread
    that owns it (the one that would store it), so each element appears
    once however the layout replicates it:

        pid (0, 0, 0) idx (3, 17) x: 1.5
        pid (0, 0, 0) n: 300

    `pid` is the program's id, `idx` the element's index in its tile (none
    for a scalar, which the program prints once), then the prefix and the
    value (`%.8g` for f32, f16 and bf16, `%.17g` for f64, decimal for
    integers, i1 as 0 or 1, pointers in hex). With more than one operand
    each line names it: `x (operand 1): 7`. The GPU prints through `printf`
    (lines of different threads in any order, the buffer flushed when the
    launch is synchronized); the interpreter prints the same lines to
    stdout, in row-major order.

    Compiled in only in debug builds of the kernel: `llkc --device-debug`,
    `LLK_DEVICE_DEBUG=1` for the JIT and the interpreter; otherwise the op
    is erased before layouts (`tile-strip-device-debug`), and costs nothing.

    ```mlir
    tile.print "x: ", %x : tensor<16x32xf32>
    tile.print "row max and sum: ", %m, %s : f32, f32
    ```
  }];
  let arguments = (ins StrAttr:$prefix, Variadic<Tile_Value>:$values);
  let assemblyFormat = "$prefix (`,` $values^ `:` type($values))? attr-dict";
  let hasVerifier = 1;
}

def Tile_AssertOp : Tile_Op<"assert"> {
  let summary = "check a condition on every element (device debug)";
  let description = [{
    Where an element of `cond` is false, the thread that owns it prints

        kernel.mlir:12:3: pid (1, 0, 0) idx (37): assertion failed: offsets in range

    (the op's location, the program and the element) and the kernel stops:
    on the GPU through CUDA's `__assertfail` (the launch fails with
    CUDA_ERROR_ASSERT), on the interpreter as the run's error with the same
    text. Compiled in only with device debug, as `tile.print`; otherwise
    erased, and the condition is never checked.

    ```mlir
    tile.assert %in_range, "offsets in range" : tensor<1024xi1>
    ```
  }];
  let arguments = (ins Tile_BoolLike:$cond, StrAttr:$message);
  let assemblyFormat = "$cond `,` $message attr-dict `:` type($cond)";
  let hasVerifier = 1;
}

def Tile_StaticAssertOp : Tile_Op<"static_assert"> {
  let summary = "a condition on compile-time constants, checked by the verifier";
  let description = [{
    `cond` must be an i1 computable at compile time: an `arith.constant`, or
    arith ops on constants (after `${NAME}` substitution, `-D BLOCK=...`).
    The verifier folds it: false is an error at the op's `file:line:col`
    with the message; true, the op is erased by canonicalization. A
    condition that is not constant is an error too.

    ```mlir
    %block = arith.constant ${BLOCK} : i32
    %max = arith.constant 4096 : i32
    %fits = arith.cmpi sle, %block, %max : i32
    tile.static_assert %fits, "BLOCK must be at most 4096"
    ```
  }];
  let arguments = (ins I1:$cond, StrAttr:$message);
  let assemblyFormat = "$cond `,` $message attr-dict";
  let hasVerifier = 1;
  let hasCanonicalizeMethod = 1;
}

//===----------------------------------------------------------------------===//
// Element type conversion
//===----------------------------------------------------------------------===//

def Tile_CastOp : Tile_Op<"cast", [Pure]> {
  let summary = "convert elements among f32/f16/bf16/f64/f8/i64/i32/i16/i8/i1";
  let description = [{
    Numeric conversion, elementwise on tiles:
    - float to wider float: exact. Float to narrower float: rounded as
      `rounding` says (default `rne`).
    - int to float: signed, rounded to nearest even (`rne`, the only mode).
    - float to int: signed, rounded as `rounding` says (default `rtz`, C's
      truncation); out-of-range values saturate as PTX `cvt` does.
    - int to wider int: sign-extended (i1: zero-extended, so true is 1).
      Int to narrower int: truncated. To i1: `x != 0`.
    - i1 to float: 0.0 or 1.0. Float to i1: `x != 0`.
    - f32, f16 or bf16 to fp8 (`f8E4M3FN`, `f8E5M2`): to nearest even
      (`rne`, the only mode) with saturation, as PTX's
      `cvt.rn.satfinite.e4m3x2.f32`: what rounds past the largest finite
      value (448, 57344), infinities included, gives it with its sign; a NaN
      gives the NaN 0x7f. fp8 to f32, f16 or bf16: exact (through f16, as
      `cvt.rn.f16x2.e4m3x2`: a NaN gives f16's 0x7fff). fp8 converts to and
      from these floats only.
    - a type to itself: the identity (every bit kept; `rounding` is then
      moot), folded away, so that one source serves every `-D T=` binding:

    ```mlir
    %y = tile.cast %acc rounding = rne : tensor<128xf32> to tensor<128x${T}>
    ```
  }];
  let arguments = (ins Tile_Value:$src, OptionalAttr<Tile_RoundingMode>:$rounding);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = [{
    $src (`rounding` `=` $rounding^)? attr-dict `:` type($src) `to` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_BitcastOp : Tile_Op<"bitcast", [Pure]> {
  let summary = "reinterpret the bits of each element";
  let description = [{
    Numbers of equal width reinterpret their bits; a pointer becomes a
    pointer to another type (the address is unchanged, so later `addptr`
    counts in the new type) or an i64 address, and back.

    ```mlir
    %scales = tile.bitcast %bytes : tensor<128x!tile.ptr<i8>> to tensor<128x!tile.ptr<f16>>
    ```
  }];
  let arguments = (ins Tile_Value:$src);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `to` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Compiler hints
//===----------------------------------------------------------------------===//

def Tile_HintValue : AnyTypeOf<[Tile_Int, Tile_PtrType, Tile_IntTensor, Tile_PtrTensor]>;

class Tile_HintOp<string mnemonic, string fact>
    : Tile_Op<mnemonic, [Pure, AllTypesMatch<["src", "result"]>]> {
  let summary = "the operand, with a promise: " # fact;
  let arguments = (ins Tile_HintValue:$src, DenseI64ArrayAttr:$values);
  let results = (outs Tile_HintValue:$result);
  let assemblyFormat = "$src `,` $values attr-dict `:` type($src)";
  let hasVerifier = 1;
}

def Tile_MultipleOfOp : Tile_HintOp<"multiple_of", "divisibility"> {
  let description = [{
    Triton's `tl.multiple_of`: the result is the operand, which the user
    promises is a multiple of `values[d]` along dimension d (one value for a
    scalar, one per dimension for a tile; powers of two). For a pointer the
    promise is about its byte address, as `tile.divisibility` on a kernel
    argument. On a tile the elements it speaks of are those that start a run
    of consecutive values that `tile.max_contiguous` on its operand states
    (every element when the operand is no tile.max_contiguous), so that
    `%c = tile.max_contiguous %o, [128]` then `tile.multiple_of %c, [128]`
    says that each aligned run of 128 starts at a multiple of 128.

    The contiguity analysis takes the promise (16-byte accesses, cp.async
    copies); the lowering forwards the operand; the interpreter checks it and
    stops at the op's location when a value breaks it.

    ```mlir
    %a = tile.bitcast %a_addr : i64 to !tile.ptr<f16>
    %a16 = tile.multiple_of %a, [16] : !tile.ptr<f16>
    %lda16 = tile.multiple_of %lda, [16] : i32
    ```
  }];
}

def Tile_MaxContiguousOp : Tile_HintOp<"max_contiguous", "contiguity"> {
  let description = [{
    Triton's `tl.max_contiguous`: the result is the operand, a tile the user
    promises holds, along dimension d, aligned runs of `values[d]` consecutive
    values (the run at index j * values[d] is x, x + 1, ...; for pointers,
    consecutive elements). Checked by the interpreter like tile.multiple_of.

    ```mlir
    %offs = tile.max_contiguous %o, [1, 64] : tensor<32x64xi32>
    ```
  }];
}

def Tile_MaxConstancyOp : Tile_HintOp<"max_constancy", "constancy"> {
  let description = [{
    Triton's `tl.max_constancy`: the result is the operand, a tile the user
    promises holds, along dimension d, aligned runs of `values[d]` equal
    values (masks uniform over a vector access). Checked by the interpreter
    like tile.multiple_of.

    ```mlir
    %mask = tile.max_constancy %m, [1, 8] : tensor<32x64xi1>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Matrix product
//===----------------------------------------------------------------------===//

def Tile_DotOp : Tile_Op<"dot", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "matrix product with accumulation: a * b + acc";
  let description = [{
    `a` is MxK, `b` KxN, `acc` and the result MxN. Supported element types:
    f16 x f16 -> f32, bf16 x bf16 -> f32, i8 x i8 -> i32, fp8 x fp8 -> f32
    (`f8E4M3FN` or `f8E5M2`, either mix; `tile-upcast-fp8-dots` turns them
    into exact f16 dots), and f32 x f32 -> f32 with `precision` `tf32`
    (tensor cores, the default) or `ieee` (exact FMA).
    The result type may be left out for operands without layouts: M x N of
    f32 (i32 for i8 operands).
    The optional `mma` (`#tile.mma`, set by the layout pass) is the
    tensor-core instruction it runs on. `async` (set by tile-allocate-shared
    on a warpgroup MMA dot whose loop-carried accumulator the loop's
    tile.dot_wait waits for) lets each K step stay in flight until the next.
  }];
  let arguments = (ins Tile_Tensor:$a, Tile_Tensor:$b, Tile_Tensor:$acc,
                       OptionalAttr<Tile_DotPrecision>:$precision,
                       OptionalAttr<Tile_MmaEncodingAttr>:$mma,
                       UnitAttr:$async);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc (`precision` `=` $precision^)? attr-dict `:`
    type($a) `,` type($b) custom<DotType>(type($result), ref(type($a)), ref(type($b)))
  }];
  let hasVerifier = 1;
}

include "llk/Dialect/Tile/IR/TileShortForms.td"

#endif // LLK_TILE_OPS
