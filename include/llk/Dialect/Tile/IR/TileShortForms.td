//===- TileShortForms.td - what one Triton expression writes -*- tablegen -*-===//
//
// The short forms of tile kernels: elementwise ops whose operands broadcast
// (scalars splat, size-1 dimensions repeat, a lower rank gains leading
// dimensions of size 1: NumPy's rules, Triton's), and tensor descriptors
// made in the kernel. They are sugar in the CHLO sense: `tile-desugar`,
// which KernelSource runs on every kernel source it parses, rewrites each
// into the explicit ops (tile.splat, tile.expand_dims, tile.broadcast, the
// arith op, pointer tiles and masks), so the layout passes, the lowering
// and the interpreter only ever see those, and the arith ops keep their
// verifiers (equal operand types). The explicit forms stay valid input.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_TILE_SHORT_FORMS
#define LLK_TILE_SHORT_FORMS

include "llk/Dialect/Tile/IR/TileDialect.td"
include "llk/Dialect/Tile/IR/TileTypes.td"
include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Tile_Comparison : I32EnumAttr<"Comparison", "comparison of tile.cmp", [
    I32EnumAttrCase<"LT", 0, "lt">, I32EnumAttrCase<"LE", 1, "le">,
    I32EnumAttrCase<"GT", 2, "gt">, I32EnumAttrCase<"GE", 3, "ge">,
    I32EnumAttrCase<"EQ", 4, "eq">, I32EnumAttrCase<"NE", 5, "ne">]> {
  let cppNamespace = "::llk::tile";
}

// An elementwise op whose operands broadcast to its result; the result type
// is inferred, the operand types are written once when they are equal.
class Tile_BroadcastingOp<string mnemonic, list<Trait> traits = []>
    : Tile_Op<mnemonic, !listconcat(traits, [Pure,
        DeclareOpInterfaceMethods<InferTypeOpInterface>])> {
  let results = (outs Tile_Value:$result);
  let hasVerifier = 1;
}

class Tile_BroadcastingBinaryOp<string mnemonic, string what>
    : Tile_BroadcastingOp<mnemonic> {
  let summary = what # ", broadcasting its operands";
  let arguments = (ins Tile_Value:$lhs, Tile_Value:$rhs);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` custom<OperandTypes>(type($lhs), type($rhs))
  }];
}

def Tile_AddOp : Tile_BroadcastingBinaryOp<"add", "x + y (arith.addi, arith.addf)"> {
  let description = [{
    `lhs + rhs`, after broadcasting both to one shape: a scalar is splat, a
    tile of lower rank gains leading dimensions of size 1, and dimensions of
    size 1 repeat to the other's size (NumPy's rules, as Triton's `+`). The
    operands hold one element type (numbers; cast with tile.cast first).
    `tile-desugar` makes it tile.splat / tile.expand_dims / tile.broadcast
    and `arith.addi` (integers) or `arith.addf` (floats).

    ```mlir
    %offsets = tile.add %start, %range : i32, tensor<1024xi32>
    %grid = tile.add %rows, %cols : tensor<64x1xi32>, tensor<32xi32>  // 64x32
    ```
  }];
}
def Tile_SubOp : Tile_BroadcastingBinaryOp<"sub", "x - y (arith.subi, arith.subf)"> {
  let description = [{ As tile.add, for `lhs - rhs`. }];
}
def Tile_MulOp : Tile_BroadcastingBinaryOp<"mul", "x * y (arith.muli, arith.mulf)"> {
  let description = [{ As tile.add, for `lhs * rhs`. }];
}
def Tile_DivOp : Tile_BroadcastingBinaryOp<"div",
    "x / y (arith.divsi: C's truncating division, Triton's //; arith.divf)"> {
  let description = [{
    As tile.add, for `lhs / rhs`: signed integer division rounding toward
    zero as C and Triton's `//` on integers do (`arith.divsi`; division by
    zero is undefined, and the interpreter reports it), or float division.
  }];
}
def Tile_RemOp : Tile_BroadcastingBinaryOp<"rem",
    "x % y (arith.remsi: the sign of x, as C and Triton; arith.remf)"> {
  let description = [{ As tile.add, for the remainder: signed (`arith.remsi`) or float (`arith.remf`). }];
}
def Tile_MinOp : Tile_BroadcastingBinaryOp<"min", "minimum (arith.minsi, arith.minnumf)"> {
  let description = [{
    As tile.add, for the minimum: signed integers (`arith.minsi`), or floats
    as `tl.minimum` does by default: a NaN operand gives the other one
    (`arith.minnumf`; `arith.minimumf` propagates NaNs).
  }];
}
def Tile_MaxOp : Tile_BroadcastingBinaryOp<"max", "maximum (arith.maxsi, arith.maxnumf)"> {
  let description = [{ As tile.min, for the maximum (`arith.maxsi`, `arith.maxnumf`). }];
}
def Tile_AndOp : Tile_BroadcastingBinaryOp<"and", "bitwise and of integers or i1 (arith.andi)"> {
  let description = [{ As tile.add, for `lhs & rhs` on integers and masks (i1). }];
}
def Tile_OrOp : Tile_BroadcastingBinaryOp<"or", "bitwise or of integers or i1 (arith.ori)"> {
  let description = [{ As tile.add, for `lhs | rhs` on integers and masks (i1). }];
}
def Tile_XOrOp : Tile_BroadcastingBinaryOp<"xor", "bitwise xor of integers or i1 (arith.xori)"> {
  let description = [{ As tile.add, for `lhs ^ rhs` on integers and masks (i1). }];
}

def Tile_CmpOp : Tile_BroadcastingOp<"cmp"> {
  let summary = "comparison, broadcasting its operands; an i1 result";
  let description = [{
    `lhs <op> rhs` with `op` one of lt, le, gt, ge, eq, ne, broadcasting
    both as tile.add does; the result is i1 of the broadcast shape. Integers
    compare signed (`arith.cmpi slt`, ...), floats as Python and Triton do:
    ordered (false if either is NaN) except `ne`, which is true for NaNs
    (`arith.cmpf olt`, ..., `une`).

    ```mlir
    %mask = tile.cmp lt %offsets, %n : tensor<1024xi32>, i32
    ```
  }];
  let arguments = (ins Tile_Comparison:$predicate, Tile_Value:$lhs, Tile_Value:$rhs);
  let assemblyFormat = [{
    $predicate $lhs `,` $rhs attr-dict `:` custom<OperandTypes>(type($lhs), type($rhs))
  }];
}

def Tile_WhereOp : Tile_BroadcastingOp<"where"> {
  let summary = "select by a condition, broadcasting all three (arith.select)";
  let description = [{
    `condition ? trueValue : falseValue` elementwise (Triton's `tl.where`),
    the three broadcast to one shape as tile.add broadcasts; the values hold
    one element type.

    ```mlir
    %y = tile.where %pos, %x, %zero : tensor<128x64xi1>, tensor<128x64xf32>, f32
    ```
  }];
  let arguments = (ins Tile_BoolLike:$condition, Tile_Value:$trueValue,
                       Tile_Value:$falseValue);
  let assemblyFormat = [{
    $condition `,` $trueValue `,` $falseValue attr-dict `:` type($condition) `,`
    custom<OperandTypes>(type($trueValue), type($falseValue))
  }];
}

//===----------------------------------------------------------------------===//
// Tensor descriptors made in the kernel (Triton's tl.make_tensor_descriptor)
//===----------------------------------------------------------------------===//

def Tile_MakeTensorDescOp : Tile_Op<"make_tensor_desc", [Pure]> {
  let summary = "a 2-D row-major tensor in global memory, read in blocks";
  let description = [{
    A descriptor of the `rows` x `cols` tensor at `base` whose rows start
    `row_stride` elements apart (its columns are contiguous), read and
    written in blocks of the result's block shape by `tile.descriptor_load`
    and `tile.descriptor_store` at any (row, col): Triton's
    `tl.make_tensor_descriptor(base, shape=[rows, cols], strides=[row_stride,
    1], block_shape=...)`, and, with the offsets carried by the program, its
    block pointers (`tl.make_block_ptr` + `tl.advance`). Elements outside the
    tensor read as zero and are not written (no masks to write).
    `tile-desugar` makes each load and store of it a masked pointer tile
    (i64 address arithmetic for the block's first row, i32 within the
    block), so any element type works and any target, and the block's
    alignment is what the arguments' hints prove. Its uses are descriptor
    loads and stores (it cannot cross a loop or branch boundary: it needs
    none, being immutable).

    ```mlir
    %a_desc = tile.make_tensor_desc %a, shape = [%M, %K], row_stride = %K
        : !tile.ptr<f16> -> !tile.tensordesc<128x64xf16>
    %a_blk = tile.descriptor_load %a_desc[%m0, %k0] : !tile.tensordesc<128x64xf16>
    ```
  }];
  let arguments = (ins Tile_PtrType:$base, I32:$rows, I32:$cols, I32:$rowStride);
  let results = (outs Tile_TensorDescType:$result);
  let assemblyFormat = [{
    $base `,` `shape` `=` `[` $rows `,` $cols `]` `,` `row_stride` `=` $rowStride
    attr-dict `:` qualified(type($base)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tile_DescriptorStoreOp : Tile_Op<"descriptor_store", [
    TypesMatchWith<"value is a block of desc", "desc", "value",
                   "::llk::tile::getDescriptorBlockType($_self)">]> {
  let summary = "store a block into a tensor descriptor made in the kernel";
  let description = [{
    Stores `value` as the block of `desc` whose first element is at (`row`,
    `col`); elements that fall outside the tensor are not written (Triton's
    `desc.store([row, col], value)`). `desc` is made by
    `tile.make_tensor_desc` (a kernel argument's CUtensorMap cannot be
    stored through yet).

    ```mlir
    tile.descriptor_store %c_desc[%m0, %n0], %c : !tile.tensordesc<128x128xf16>
    ```
  }];
  let arguments = (ins Arg<Tile_TensorDescType, "", [MemWrite]>:$desc,
                       I32:$row, I32:$col, Tile_Tensor:$value);
  let assemblyFormat = [{
    $desc `[` $row `,` $col `]` `,` $value attr-dict `:` qualified(type($desc))
  }];
  let hasVerifier = 1;
}

#endif // LLK_TILE_SHORT_FORMS
