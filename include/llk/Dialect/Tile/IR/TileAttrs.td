//===- TileAttrs.td - tile dialect attributes --------------*- tablegen -*-===//

#ifndef LLK_TILE_ATTRS
#define LLK_TILE_ATTRS

include "llk/Dialect/Tile/IR/TileDialect.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Tile_GridAxis : I32EnumAttr<"GridAxis", "axis of the launch grid", [
    I32EnumAttrCase<"X", 0, "x">, I32EnumAttrCase<"Y", 1, "y">,
    I32EnumAttrCase<"Z", 2, "z">]> {
  let cppNamespace = "::llk::tile";
}

def Tile_ReduceKind : I32EnumAttr<"ReduceKind", "built-in reduction", [
    I32EnumAttrCase<"Sum", 0, "sum">, I32EnumAttrCase<"Max", 1, "max">,
    I32EnumAttrCase<"Min", 2, "min">, I32EnumAttrCase<"ArgMax", 3, "argmax">,
    I32EnumAttrCase<"ArgMin", 4, "argmin">]> {
  let cppNamespace = "::llk::tile";
}

def Tile_ScanKind : I32EnumAttr<"ScanKind", "built-in scan", [
    I32EnumAttrCase<"Sum", 0, "sum">, I32EnumAttrCase<"Prod", 1, "prod">,
    I32EnumAttrCase<"Max", 2, "max">, I32EnumAttrCase<"Min", 3, "min">]> {
  let cppNamespace = "::llk::tile";
}

def Tile_CacheModifier : I32EnumAttr<"CacheModifier", "PTX cache operator", [
    I32EnumAttrCase<"CA", 0, "ca">,  // cache at all levels (default)
    I32EnumAttrCase<"CG", 1, "cg">,  // cache in L2, not L1
    I32EnumAttrCase<"CS", 2, "cs">,  // streaming, likely accessed once
    I32EnumAttrCase<"CV", 3, "cv">,  // volatile: fetch again
    I32EnumAttrCase<"WB", 4, "wb">,  // stores: write back
    I32EnumAttrCase<"WT", 5, "wt">]> { // stores: write through
  let cppNamespace = "::llk::tile";
}

def Tile_EvictionPolicy : I32EnumAttr<"EvictionPolicy", "L1 eviction priority", [
    I32EnumAttrCase<"Normal", 0, "evict_normal">,
    I32EnumAttrCase<"First", 1, "evict_first">,
    I32EnumAttrCase<"Last", 2, "evict_last">]> {
  let cppNamespace = "::llk::tile";
}

def Tile_AtomicRMWKind : I32EnumAttr<"AtomicRMWKind", "atomic read-modify-write", [
    I32EnumAttrCase<"Add", 0, "add">, I32EnumAttrCase<"Max", 1, "max">,
    I32EnumAttrCase<"Min", 2, "min">, I32EnumAttrCase<"Xchg", 3, "xchg">]> {
  let cppNamespace = "::llk::tile";
}

// Memory ordering of an atomic at GPU scope, as PTX's `.sem` (and Triton's
// `sem`): acq_rel, the default, orders the program's earlier memory accesses
// before it and its later ones after it for any thread that observes it.
def Tile_MemorySemantic : I32EnumAttr<"MemorySemantic", "atomic memory ordering", [
    I32EnumAttrCase<"Relaxed", 0, "relaxed">, I32EnumAttrCase<"Acquire", 1, "acquire">,
    I32EnumAttrCase<"Release", 2, "release">, I32EnumAttrCase<"AcqRel", 3, "acq_rel">]> {
  let cppNamespace = "::llk::tile";
}

def Tile_RoundingMode : I32EnumAttr<"RoundingMode", "float rounding", [
    I32EnumAttrCase<"RNE", 0, "rne">,  // to nearest, ties to even
    I32EnumAttrCase<"RTZ", 1, "rtz">,  // toward zero
    I32EnumAttrCase<"RDN", 2, "rdn">,  // toward -inf
    I32EnumAttrCase<"RUP", 3, "rup">]> { // toward +inf
  let cppNamespace = "::llk::tile";
}

def Tile_DotPrecision : I32EnumAttr<"DotPrecision", "f32 dot precision", [
    I32EnumAttrCase<"TF32", 0, "tf32">, I32EnumAttrCase<"IEEE", 1, "ieee">]> {
  let cppNamespace = "::llk::tile";
}

def Tile_SharedSwizzle : I32EnumAttr<"SharedSwizzle",
    "byte layout of a shared-memory slot", [
  I32EnumAttrCase<"Xor16", 0, "xor16">,
  I32EnumAttrCase<"Wgmma", 1, "wgmma">
]> {
  let cppNamespace = "::llk::tile";
  let genSpecializedAttr = 0;
}

//===----------------------------------------------------------------------===//
// Distributed layouts (tensor encodings)
//===----------------------------------------------------------------------===//

def Tile_BlockedLayoutAttr : AttrDef<Tile_Dialect, "BlockedLayout"> {
  let mnemonic = "blocked";
  let summary = "tile spread over threads in contiguous per-thread blocks";
  let description = [{
    Each thread holds `sizePerThread[d]` consecutive elements along dimension
    `d`; a warp's 32 lanes are arranged `threadsPerWarp`, the CTA's warps
    `warpsPerCTA`. `order` lists dimensions from fastest to slowest varying.
    The pattern repeats to cover larger tiles; along a dimension smaller than
    the pattern, elements are replicated across threads.

    The optional `warpRepeat[d]` (default 1) keeps a warp on `warpRepeat[d]`
    consecutive repetitions of its lanes' block along `d` before the next
    warp's: with `threadsPerWarp = [8, 4]`, `warpsPerCTA = [8, 1]` and
    `warpRepeat = [2, 1]`, warp w holds rows 16w to 16w + 15 (then
    16w + 128, ...) instead of 8w to 8w + 7 (then 8w + 64, ...) - the rows
    warpgroup MMA gives it. A dimension with `warpRepeat[d] > 1` must be a
    multiple of the repeated pattern.
  }];
  let parameters = (ins ArrayRefParameter<"unsigned">:$sizePerThread,
                        ArrayRefParameter<"unsigned">:$threadsPerWarp,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$order,
                        OptionalArrayRefParameter<"unsigned">:$warpRepeat);
  let assemblyFormat = [{
    `<` `sizePerThread` `=` `[` $sizePerThread `]` `,`
        `threadsPerWarp` `=` `[` $threadsPerWarp `]` `,`
        `warpsPerCTA` `=` `[` $warpsPerCTA `]` `,`
        `order` `=` `[` $order `]`
        (`,` `warpRepeat` `=` `[` $warpRepeat^ `]`)? `>`
  }];
  let builders = [
    AttrBuilder<(ins "::llvm::ArrayRef<unsigned>":$sizePerThread,
                     "::llvm::ArrayRef<unsigned>":$threadsPerWarp,
                     "::llvm::ArrayRef<unsigned>":$warpsPerCTA,
                     "::llvm::ArrayRef<unsigned>":$order), [{
      return $_get($_ctxt, sizePerThread, threadsPerWarp, warpsPerCTA, order,
                   ::llvm::ArrayRef<unsigned>());
    }]>
  ];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const { return getOrder().size(); }
    unsigned getNumWarps() const;
    /// warpRepeat[d], 1 where it is omitted.
    unsigned getWarpRepeatOf(unsigned d) const {
      return getWarpRepeat().empty() ? 1 : getWarpRepeat()[d];
    }
  }];
}

def Tile_SliceLayoutAttr : AttrDef<Tile_Dialect, "SliceLayout"> {
  let mnemonic = "slice";
  let summary = "a parent layout with one dimension removed";
  let description = [{
    The layout of a reduction's result: element `c` is held by every thread
    that holds an element of the parent at `c` with `dim` inserted.
  }];
  let parameters = (ins "unsigned":$dim, "BlockedLayoutAttr":$parent);
  let assemblyFormat = "`<` `dim` `=` $dim `,` `parent` `=` $parent `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Tensor-core instructions
//===----------------------------------------------------------------------===//

def Tile_MmaEncodingAttr : AttrDef<Tile_Dialect, "MmaEncoding"> {
  let mnemonic = "mma";
  let summary = "the tensor-core instruction a tile.dot runs on";
  let description = [{
    `#tile.mma<version = 2, instrShape = [16, 8, 16], warpsPerCTA = [2, 2]>`
    on a `tile.dot` (its `mma` attribute) says how the lowering computes it:
    version 2 is `mma.sync` (one warp per m16n8k instruction: k is 16 for
    f16/bf16, 32 for i8, 8 for tf32), version 3 warpgroup MMA (`wgmma`,
    sm_90a: four warps per m64nNk16 instruction, N the accumulator's
    columns), B read straight from a buffer slot whose `!tile.shared` type
    has `swizzle = wgmma`, A from such a slot too or, where A's type has
    the warpgroup accumulator layout of its own shape, from registers (the
    instruction's register-A form: a previous dot's accumulator, converted
    elementwise to f16 or bf16, is that operand as it is). `instrShape` is the
    instruction's M x N x K and `warpsPerCTA` how the warps split the
    accumulator, its layout's. The layout pass (tile-assign-layouts) chooses
    it with the accumulator's layout; tile-allocate-shared keeps version 3
    only for dots whose B it places in a wgmma buffer and whose A it places
    in one or in registers. A dot without it runs on mma.sync where its types
    and accumulator layout allow, else as FMA.
  }];
  let parameters = (ins "unsigned":$version,
                        ArrayRefParameter<"unsigned">:$instrShape,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA);
  let assemblyFormat = [{
    `<` `version` `=` $version `,` `instrShape` `=` `[` $instrShape `]` `,`
        `warpsPerCTA` `=` `[` $warpsPerCTA `]` `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool isWarpgroup() const { return getVersion() == 3; }
  }];
}

#endif // LLK_TILE_ATTRS
