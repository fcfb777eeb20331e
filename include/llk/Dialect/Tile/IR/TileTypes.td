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

// Element types a tile may hold.
def Tile_Float : AnyTypeOf<[F32, F16, BF16, F64]>;
def Tile_Int : AnyTypeOf<[I1, I8, I16, I32, I64]>;
def Tile_Scalar : AnyTypeOf<[Tile_Float, Tile_Int]>;
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
