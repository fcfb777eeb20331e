//===- TileTypes.td - tile dialect types -------------------*- tablegen -*-===//

#ifndef LLK_TILE_TYPES
#define LLK_TILE_TYPES

include "llk/Dialect/Tile/IR/TileDialect.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

def Tile_PtrType : TypeDef<Tile_Dialect, "Ptr"> {
  let mnemonic = "ptr";
  let summary = "pointer to global memory";
  let description = [{
    `!tile.ptr<f32>` is an address in global memory of an element of the
    pointee type. Pointer arithmetic (`tile.addptr`) counts in elements.
  }];
  let parameters = (ins "mlir::Type":$pointeeType);
  let assemblyFormat = "`<` $pointeeType `>`";
  let genVerifyDecl = 1;
}

def Tile_SharedType : TypeDef<Tile_Dialect, "Shared"> {
  let mnemonic = "shared";
  let summary = "ring of tile buffers in shared memory";
  let description = [{
    `!tile.shared<3x128x64xf16, contiguous = 1>` is 3 buffers (slots), each
    holding one 128x64 tile of f16 in the program's shared memory. The first
    dimension counts slots; the others are the tile's. Each slot is stored
    with tile dimension `contiguous` innermost and its 16-byte chunks
    XOR-swizzled by row, so that both the 16-byte copies that fill it and the
    `ldmatrix` reads of a `tile.dot` touch every bank once.
    Made by `tile.local_alloc`; `tile.async_copy` fills a slot and
    `tile.local_load` reads one.

    `!tile.shared<3x128x64xf16, contiguous = 1, swizzle = wgmma>` is laid out
    as warpgroup MMA reads its operands: 128-byte slabs of the contiguous
    dimension, one after the other, each row's 16-byte chunks XOR-swizzled
    by row within 8-row (1024-byte) groups, the buffer 1024-byte aligned.
    The default, `swizzle = xor16`, is not printed.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "mlir::Type":$elementType,
                        "unsigned":$contiguousDim,
                        "::llk::tile::SharedSwizzle":$swizzle);
  let builders = [
    TypeBuilder<(ins "::llvm::ArrayRef<int64_t>":$shape,
                     "mlir::Type":$elementType, "unsigned":$contiguousDim,
                     CArg<"::llk::tile::SharedSwizzle",
                          "::llk::tile::SharedSwizzle::Xor16">:$swizzle), [{
      return $_get($_ctxt, shape, elementType, contiguousDim, swizzle);
    }]>
  ];
  let skipDefaultBuilders = 1;
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getNumSlots() const { return getShape().front(); }
    /// The shape of one slot: the tile's shape.
    llvm::ArrayRef<int64_t> getSlotShape() const { return getShape().drop_front(); }
    /// The same buffers in byte layout `swizzle`.
    SharedType withSwizzle(::llk::tile::SharedSwizzle swizzle) const {
      return get(getContext(), getShape(), getElementType(),
                 getContiguousDim(), swizzle);
    }
    /// The alignment of the buffers in shared memory (bytes): the wgmma
    /// swizzle repeats every 1024 bytes from an aligned address.
    int64_t getAlignment() const {
      return getSwizzle() == ::llk::tile::SharedSwizzle::Wgmma ? 1024 : 128;
    }
    /// The bytes of all slots.
    int64_t getSizeInBytes() const;
  }];
}

def Tile_TensorDescType : TypeDef<Tile_Dialect, "TensorDesc"> {
  let mnemonic = "tensordesc";
  let summary = "a 2-D tensor in global memory, read in blocks by TMA";
  let description = [{
    `!tile.tensordesc<128x64xf16>` describes a row-major 2-D tensor of f16 in
    global memory that the program reads in 128x64 blocks with the Hopper
    tensor memory accelerator (`cp.async.bulk.tensor`). The kernel argument
    is the address of a 64-byte aligned `CUtensorMap` in global memory that
    the host encodes (cuTensorMapEncodeTiled) with the tensor's address,
    shape and row stride, and with the box and swizzle the compiler chose,
    which the kernel metadata records (`tma_box`, `tma_swizzle`). Blocks
    reaching past the tensor read zeros there.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$blockShape,
                        "mlir::Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

// Element types a tile may hold.
def Tile_Float : AnyTypeOf<[F32, F16, BF16, F64]>;
// 8-bit floats: storage and dot operands; tile.cast converts them.
def Tile_Fp8 : AnyTypeOf<[F8E4M3FN, F8E5M2]>;
def Tile_Int : AnyTypeOf<[I1, I8, I16, I32, I64]>;
def Tile_Scalar : AnyTypeOf<[Tile_Float, Tile_Fp8, Tile_Int]>;
def Tile_Elem : AnyTypeOf<[Tile_Scalar, Tile_PtrType]>;

// Tiles: ranked, statically shaped tensors; the power-of-two rule is checked
// by the op verifiers so that the message can say which dimension is wrong.
def Tile_Tensor : RankedTensorOf<[Tile_Elem]>;
def Tile_IntTensor : RankedTensorOf<[Tile_Int]>;
def Tile_BoolTensor : RankedTensorOf<[I1]>;
def Tile_PtrTensor : RankedTensorOf<[Tile_PtrType]>;

def Tile_PtrLike : AnyTypeOf<[Tile_PtrType, Tile_PtrTensor]>;
def Tile_IntLike : AnyTypeOf<[Tile_Int, Tile_IntTensor]>;
def Tile_BoolLike : AnyTypeOf<[I1, Tile_BoolTensor]>;
def Tile_Value : AnyTypeOf<[Tile_Elem, Tile_Tensor]>;

#endif // LLK_TILE_TYPES
