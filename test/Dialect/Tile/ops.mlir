// Round trip of every tile operation, type and attribute through the custom
// assembly format, and through the generic form back to the custom one.
// Loads and stores use one of cache/evict/volatile at a time: PTX has no
// instruction that combines them (see llkc/memory-hint-combos.test).
//
// RUN: llk-opt %s | llk-opt -mlir-print-local-scope | FileCheck %s
// RUN: llk-opt %s --mlir-print-op-generic | llk-opt -mlir-print-local-scope | FileCheck %s
// RUN: llk-opt %s --mlir-print-op-generic -mlir-print-local-scope | FileCheck %s --check-prefix=GENERIC
// RUN: llk-opt %s --mlir-print-op-generic | llk-opt --mlir-print-op-generic -mlir-print-local-scope \
// RUN:   | FileCheck %s --check-prefix=GENERIC

#blocked = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1d = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#row = #tile.slice<dim = 1, parent = #blocked>
#col = #tile.slice<dim = 0, parent = #blocked>

//===----------------------------------------------------------------------===//
// Kernel attributes
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @kernel_attrs(
// CHECK-SAME:    %{{.*}}: !tile.ptr<f32> {tile.divisibility = 16 : i64},
// CHECK-SAME:    %{{.*}}: !tile.ptr<bf16> {tile.alignment = 128 : i64},
// CHECK-SAME:    %{{.*}}: i32 {tile.divisibility = 8 : i64},
// CHECK-SAME:    %{{.*}}: i64 {tile.alignment = 1 : i64},
// CHECK-SAME:    %{{.*}}: f32)
// CHECK-SAME:    attributes {tile.num_warps = 8 : i32}
// GENERIC-LABEL: "func.func"() <{arg_attrs = [{tile.divisibility = 16 : i64}, {tile.alignment = 128 : i64}, {tile.divisibility = 8 : i64}, {tile.alignment = 1 : i64}, {}], function_type = (!tile.ptr<f32>, !tile.ptr<bf16>, i32, i64, f32) -> (), sym_name = "kernel_attrs"}>
// GENERIC:       {tile.num_warps = 8 : i32}
func.func @kernel_attrs(%a: !tile.ptr<f32> {tile.divisibility = 16},
                        %b: !tile.ptr<bf16> {tile.alignment = 128},
                        %n: i32 {tile.divisibility = 8},
                        %m: i64 {tile.alignment = 1},
                        %f: f32) attributes {tile.num_warps = 8 : i32} {
  return
}

// CHECK-LABEL: func.func @num_warps_range()
// CHECK-SAME:    attributes {tile.num_warps = 1 : i32}
func.func @num_warps_range() attributes {tile.num_warps = 1 : i32} {
  return
}

// CHECK-LABEL: func.func @num_warps_max()
// CHECK-SAME:    attributes {tile.num_warps = 32 : i64}
func.func @num_warps_max() attributes {tile.num_warps = 32} {
  return
}

//===----------------------------------------------------------------------===//
// Program and index space
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @program_ids()
// CHECK-NEXT:    %{{.*}} = tile.program_id x{{$}}
// CHECK-NEXT:    %{{.*}} = tile.program_id y{{$}}
// CHECK-NEXT:    %{{.*}} = tile.program_id z{{$}}
// CHECK-NEXT:    %{{.*}} = tile.num_programs x{{$}}
// CHECK-NEXT:    %{{.*}} = tile.num_programs y{{$}}
// CHECK-NEXT:    %{{.*}} = tile.num_programs z{{$}}
// GENERIC-LABEL: sym_name = "program_ids"
// GENERIC:       "tile.program_id"() <{axis = 0 : i32}> : () -> i32
// GENERIC:       "tile.program_id"() <{axis = 1 : i32}> : () -> i32
// GENERIC:       "tile.program_id"() <{axis = 2 : i32}> : () -> i32
// GENERIC:       "tile.num_programs"() <{axis = 0 : i32}> : () -> i32
// GENERIC:       "tile.num_programs"() <{axis = 1 : i32}> : () -> i32
// GENERIC:       "tile.num_programs"() <{axis = 2 : i32}> : () -> i32
func.func @program_ids() -> (i32, i32, i32, i32, i32, i32) {
  %px = tile.program_id x
  %py = tile.program_id y
  %pz = tile.program_id z
  %nx = tile.num_programs x
  %ny = tile.num_programs y
  %nz = tile.num_programs z
  return %px, %py, %pz, %nx, %ny, %nz : i32, i32, i32, i32, i32, i32
}

// CHECK-LABEL: func.func @make_range()
// CHECK-NEXT:    %{{.*}} = tile.make_range 0 to 1024 : tensor<1024xi32>
// CHECK-NEXT:    %{{.*}} = tile.make_range 16 to 32 : tensor<16xi32>
// CHECK-NEXT:    %{{.*}} = tile.make_range 7 to 8 : tensor<1xi32>
// GENERIC-LABEL: sym_name = "make_range"
// GENERIC:       "tile.make_range"() <{end = 1024 : i32, start = 0 : i32}> : () -> tensor<1024xi32>
func.func @make_range() -> (tensor<1024xi32>, tensor<16xi32>, tensor<1xi32>) {
  %0 = tile.make_range 0 to 1024 : tensor<1024xi32>
  %1 = tile.make_range 16 to 32 : tensor<16xi32>
  %2 = tile.make_range 7 to 8 : tensor<1xi32>
  return %0, %1, %2 : tensor<1024xi32>, tensor<16xi32>, tensor<1xi32>
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @shapes(
// CHECK-SAME:    %[[P:.*]]: !tile.ptr<f16>, %[[X:.*]]: f32, %[[I:.*]]: i32, %[[T:.*]]: tensor<64xf32>)
// CHECK:         %[[S0:.*]] = tile.splat %[[X]] : f32 -> tensor<16x32xf32>
// CHECK:         %[[S1:.*]] = tile.splat %[[P]] : !tile.ptr<f16> -> tensor<128x!tile.ptr<f16>>
// CHECK:         %[[S2:.*]] = tile.splat %[[I]] : i32 -> tensor<1x1xi32>
// CHECK:         %[[E0:.*]] = tile.expand_dims %[[T]] axis = 0 : tensor<64xf32> -> tensor<1x64xf32>
// CHECK:         %[[E1:.*]] = tile.expand_dims %[[T]] axis = 1 : tensor<64xf32> -> tensor<64x1xf32>
// CHECK:         %{{.*}} = tile.broadcast %[[E0]] : tensor<1x64xf32> -> tensor<32x64xf32>
// CHECK:         %{{.*}} = tile.broadcast %[[E1]] : tensor<64x1xf32> -> tensor<64x64xf32>
// CHECK:         %{{.*}} = tile.broadcast %[[S2]] : tensor<1x1xi32> -> tensor<8x4xi32>
// CHECK:         %[[R:.*]] = tile.reshape %[[S0]] : tensor<16x32xf32> -> tensor<512xf32>
// CHECK:         %{{.*}} = tile.reshape %[[R]] : tensor<512xf32> -> tensor<2x4x64xf32>
// CHECK:         %{{.*}} = tile.trans %[[S0]] : tensor<16x32xf32> -> tensor<32x16xf32>
// CHECK:         %{{.*}} = tile.reshape %[[S1]] : tensor<128x!tile.ptr<f16>> -> tensor<8x16x!tile.ptr<f16>>
// GENERIC-LABEL: sym_name = "shapes"
// GENERIC:       "tile.splat"(%{{.*}}) : (f32) -> tensor<16x32xf32>
// GENERIC:       "tile.expand_dims"(%{{.*}}) <{axis = 0 : i32}> : (tensor<64xf32>) -> tensor<1x64xf32>
// GENERIC:       "tile.broadcast"(%{{.*}}) : (tensor<1x64xf32>) -> tensor<32x64xf32>
// GENERIC:       "tile.reshape"(%{{.*}}) : (tensor<16x32xf32>) -> tensor<512xf32>
// GENERIC:       "tile.trans"(%{{.*}}) : (tensor<16x32xf32>) -> tensor<32x16xf32>
func.func @shapes(%p: !tile.ptr<f16>, %x: f32, %i: i32, %t: tensor<64xf32>) {
  %s0 = tile.splat %x : f32 -> tensor<16x32xf32>
  %s1 = tile.splat %p : !tile.ptr<f16> -> tensor<128x!tile.ptr<f16>>
  %s2 = tile.splat %i : i32 -> tensor<1x1xi32>
  %e0 = tile.expand_dims %t axis = 0 : tensor<64xf32> -> tensor<1x64xf32>
  %e1 = tile.expand_dims %t axis = 1 : tensor<64xf32> -> tensor<64x1xf32>
  %b0 = tile.broadcast %e0 : tensor<1x64xf32> -> tensor<32x64xf32>
  %b1 = tile.broadcast %e1 : tensor<64x1xf32> -> tensor<64x64xf32>
  %b2 = tile.broadcast %s2 : tensor<1x1xi32> -> tensor<8x4xi32>
  %r0 = tile.reshape %s0 : tensor<16x32xf32> -> tensor<512xf32>
  %r1 = tile.reshape %r0 : tensor<512xf32> -> tensor<2x4x64xf32>
  %tr = tile.trans %s0 : tensor<16x32xf32> -> tensor<32x16xf32>
  %rp = tile.reshape %s1 : tensor<128x!tile.ptr<f16>> -> tensor<8x16x!tile.ptr<f16>>
  return
}

//===----------------------------------------------------------------------===//
// Layouts as tensor encodings
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @layouts(
// CHECK-SAME:    %[[A:.*]]: tensor<64x32xf32, #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>>
// CHECK:         %[[RG:.*]] = tile.make_range 0 to 64 : tensor<64xi32, #tile.slice<dim = 1, parent = <sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>>>
// CHECK:         %{{.*}} = tile.expand_dims %[[RG]] axis = 1 : tensor<64xi32, #tile.slice<dim = 1, parent = <sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>>> -> tensor<64x1xi32, #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>>
// CHECK:         %{{.*}} = tile.reduce max %[[A]] axis = 1 : tensor<64x32xf32, #tile.blocked<{{.*}}>> -> tensor<64xf32, #tile.slice<dim = 1, parent = <sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>>>
// CHECK:         %{{.*}} = tile.reduce sum %[[A]] axis = 0 : tensor<64x32xf32, #tile.blocked<{{.*}}>> -> tensor<32xf32, #tile.slice<dim = 0, parent = <sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>>>
// CHECK:         %[[CV:.*]] = tile.convert_layout %[[A]] : tensor<64x32xf32, #tile.blocked<sizePerThread = [1, 4], {{.*}}>> -> tensor<64x32xf32, #tile.blocked<sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>>
// CHECK:         %{{.*}} = tile.convert_layout %[[CV]] : tensor<64x32xf32, #tile.blocked<sizePerThread = [4, 1], {{.*}}>> -> tensor<64x32xf32>
// CHECK:         %{{.*}} = tile.make_range 0 to 512 : tensor<512xi32, #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>>
// CHECK:         %{{.*}} = tile.convert_layout %[[A]] : {{.*}} -> tensor<64x32xf32, #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], warpRepeat = [2, 1]>>
// GENERIC-LABEL: sym_name = "layouts"
// GENERIC:       "tile.convert_layout"(%{{.*}}) : (tensor<64x32xf32, #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>>) -> tensor<64x32xf32, #tile.blocked<sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>>
func.func @layouts(%a: tensor<64x32xf32, #blocked>) {
  %r = tile.make_range 0 to 64 : tensor<64xi32, #row>
  %e = tile.expand_dims %r axis = 1 : tensor<64xi32, #row> -> tensor<64x1xi32, #blocked>
  %m = tile.reduce max %a axis = 1 : tensor<64x32xf32, #blocked> -> tensor<64xf32, #row>
  %s = tile.reduce sum %a axis = 0 : tensor<64x32xf32, #blocked> -> tensor<32xf32, #col>
  %c = tile.convert_layout %a : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #tile.blocked<sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>>
  %d = tile.convert_layout %c : tensor<64x32xf32, #tile.blocked<sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>> -> tensor<64x32xf32>
  %l = tile.make_range 0 to 512 : tensor<512xi32, #blocked1d>
  %w = tile.convert_layout %a : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], warpRepeat = [2, 1]>>
  return
}

//===----------------------------------------------------------------------===//
// Pointers and memory
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @addptr(
// CHECK-SAME:    %[[P:.*]]: !tile.ptr<f32>, %[[O32:.*]]: i32, %[[O64:.*]]: i64, %[[OT:.*]]: tensor<256xi32>, %[[OT8:.*]]: tensor<4x8xi8>)
// CHECK:         %{{.*}} = tile.addptr %[[P]], %[[O32]] : !tile.ptr<f32>, i32
// CHECK:         %{{.*}} = tile.addptr %[[P]], %[[O64]] : !tile.ptr<f32>, i64
// CHECK:         %[[PS:.*]] = tile.splat %[[P]] : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
// CHECK:         %{{.*}} = tile.addptr %[[PS]], %[[OT]] : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
// CHECK:         %{{.*}} = tile.addptr %{{.*}}, %[[OT8]] : tensor<4x8x!tile.ptr<f32>>, tensor<4x8xi8>
// GENERIC-LABEL: sym_name = "addptr"
// GENERIC:       "tile.addptr"(%{{.*}}, %{{.*}}) : (!tile.ptr<f32>, i32) -> !tile.ptr<f32>
// GENERIC:       "tile.addptr"(%{{.*}}, %{{.*}}) : (tensor<256x!tile.ptr<f32>>, tensor<256xi32>) -> tensor<256x!tile.ptr<f32>>
func.func @addptr(%p: !tile.ptr<f32>, %o32: i32, %o64: i64, %ot: tensor<256xi32>, %ot8: tensor<4x8xi8>) {
  %0 = tile.addptr %p, %o32 : !tile.ptr<f32>, i32
  %1 = tile.addptr %p, %o64 : !tile.ptr<f32>, i64
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %2 = tile.addptr %ps, %ot : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %ps2 = tile.splat %p : !tile.ptr<f32> -> tensor<4x8x!tile.ptr<f32>>
  %3 = tile.addptr %ps2, %ot8 : tensor<4x8x!tile.ptr<f32>>, tensor<4x8xi8>
  return
}

// CHECK-LABEL: func.func @loads(
// CHECK-SAME:    %[[P:[^:]*]]: tensor<128x!tile.ptr<f32>>, %[[M:[^:]*]]: tensor<128xi1>, %[[O:[^:]*]]: tensor<128xf32>, %[[S:[^:]*]]: !tile.ptr<f16>, %[[SM:[^:]*]]: i1, %[[SO:[^:]*]]: f16)
// CHECK-NEXT:    %{{.*}} = tile.load %[[P]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    %{{.*}} = tile.load %[[P]] mask %[[M]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    %{{.*}} = tile.load %[[P]] mask %[[M]] other %[[O]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    %{{.*}} = tile.load %[[P]] cache = ca : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    %{{.*}} = tile.load %[[P]] cache = cg : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    %{{.*}} = tile.load %[[P]] cache = cs : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    %{{.*}} = tile.load %[[P]] cache = cv : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    %{{.*}} = tile.load %[[P]] evict = evict_normal : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    %{{.*}} = tile.load %[[P]] evict = evict_first : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    %{{.*}} = tile.load %[[P]] evict = evict_last : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    %{{.*}} = tile.load %[[P]] volatile : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    %{{.*}} = tile.load %[[P]] mask %[[M]] other %[[O]] cache = cg : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    %{{.*}} = tile.load %[[P]] mask %[[M]] evict = evict_first : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    %{{.*}} = tile.load %[[P]] mask %[[M]] other %[[O]] volatile : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    %{{.*}} = tile.load %[[S]] : !tile.ptr<f16>
// CHECK-NEXT:    %{{.*}} = tile.load %[[S]] mask %[[SM]] other %[[SO]] cache = cs : !tile.ptr<f16>
// GENERIC-LABEL: sym_name = "loads"
// GENERIC:       "tile.load"(%{{.*}}) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf32>
// GENERIC:       "tile.load"(%{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>) -> tensor<128xf32>
// GENERIC:       "tile.load"(%{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
// GENERIC:       "tile.load"(%{{.*}}) <{cache = 0 : i32, operandSegmentSizes = array<i32: 1, 0, 0>}>
// GENERIC:       "tile.load"(%{{.*}}) <{cache = 1 : i32, operandSegmentSizes = array<i32: 1, 0, 0>}>
// GENERIC:       "tile.load"(%{{.*}}) <{cache = 2 : i32, operandSegmentSizes = array<i32: 1, 0, 0>}>
// GENERIC:       "tile.load"(%{{.*}}) <{cache = 3 : i32, operandSegmentSizes = array<i32: 1, 0, 0>}>
// GENERIC:       "tile.load"(%{{.*}}) <{evict = 0 : i32, operandSegmentSizes = array<i32: 1, 0, 0>}>
// GENERIC:       "tile.load"(%{{.*}}) <{evict = 1 : i32, operandSegmentSizes = array<i32: 1, 0, 0>}>
// GENERIC:       "tile.load"(%{{.*}}) <{evict = 2 : i32, operandSegmentSizes = array<i32: 1, 0, 0>}>
// GENERIC:       "tile.load"(%{{.*}}) <{isVolatile, operandSegmentSizes = array<i32: 1, 0, 0>}>
// GENERIC:       "tile.load"(%{{.*}}, %{{.*}}, %{{.*}}) <{cache = 1 : i32, operandSegmentSizes = array<i32: 1, 1, 1>}>
// GENERIC:       "tile.load"(%{{.*}}, %{{.*}}) <{evict = 1 : i32, operandSegmentSizes = array<i32: 1, 1, 0>}>
// GENERIC:       "tile.load"(%{{.*}}, %{{.*}}, %{{.*}}) <{isVolatile, operandSegmentSizes = array<i32: 1, 1, 1>}>
// GENERIC:       "tile.load"(%{{.*}}) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (!tile.ptr<f16>) -> f16
func.func @loads(%p: tensor<128x!tile.ptr<f32>>, %m: tensor<128xi1>, %o: tensor<128xf32>,
                 %s: !tile.ptr<f16>, %sm: i1, %so: f16) {
  %0 = tile.load %p : tensor<128x!tile.ptr<f32>>
  %1 = tile.load %p mask %m : tensor<128x!tile.ptr<f32>>
  %2 = tile.load %p mask %m other %o : tensor<128x!tile.ptr<f32>>
  %3 = tile.load %p cache = ca : tensor<128x!tile.ptr<f32>>
  %4 = tile.load %p cache = cg : tensor<128x!tile.ptr<f32>>
  %5 = tile.load %p cache = cs : tensor<128x!tile.ptr<f32>>
  %6 = tile.load %p cache = cv : tensor<128x!tile.ptr<f32>>
  %7 = tile.load %p evict = evict_normal : tensor<128x!tile.ptr<f32>>
  %8 = tile.load %p evict = evict_first : tensor<128x!tile.ptr<f32>>
  %9 = tile.load %p evict = evict_last : tensor<128x!tile.ptr<f32>>
  %10 = tile.load %p volatile : tensor<128x!tile.ptr<f32>>
  %11 = tile.load %p mask %m other %o cache = cg : tensor<128x!tile.ptr<f32>>
  %ev = tile.load %p mask %m evict = evict_first : tensor<128x!tile.ptr<f32>>
  %vol = tile.load %p mask %m other %o volatile : tensor<128x!tile.ptr<f32>>
  %12 = tile.load %s : !tile.ptr<f16>
  %13 = tile.load %s mask %sm other %so cache = cs : !tile.ptr<f16>
  return
}

// CHECK-LABEL: func.func @loads_2d_layout(
// CHECK:         %{{.*}} = tile.load %{{.*}} mask %{{.*}} other %{{.*}} : tensor<64x32x!tile.ptr<i8>, #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>>
// GENERIC-LABEL: sym_name = "loads_2d_layout"
// GENERIC:       "tile.load"(%{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<64x32x!tile.ptr<i8>, #tile.blocked<{{.*}}>>, tensor<64x32xi1, #tile.blocked<{{.*}}>>, tensor<64x32xi8, #tile.blocked<{{.*}}>>) -> tensor<64x32xi8, #tile.blocked<{{.*}}>>
func.func @loads_2d_layout(%p: tensor<64x32x!tile.ptr<i8>, #blocked>, %m: tensor<64x32xi1, #blocked>, %o: tensor<64x32xi8, #blocked>) -> tensor<64x32xi8, #blocked> {
  %0 = tile.load %p mask %m other %o : tensor<64x32x!tile.ptr<i8>, #blocked>
  return %0 : tensor<64x32xi8, #blocked>
}

// CHECK-LABEL: func.func @prefetches(
// CHECK-SAME:    %[[P:[^:]*]]: tensor<16x32x!tile.ptr<i8>>, %[[M:[^:]*]]: tensor<16x32xi1>, %[[S:[^:]*]]: !tile.ptr<f32>)
// CHECK-NEXT:    tile.prefetch %[[P]] : tensor<16x32x!tile.ptr<i8>>
// CHECK-NEXT:    tile.prefetch %[[P]] mask %[[M]] : tensor<16x32x!tile.ptr<i8>>
// CHECK-NEXT:    tile.prefetch %[[S]] : !tile.ptr<f32>
// GENERIC-LABEL: sym_name = "prefetches"
// GENERIC:       "tile.prefetch"(%{{.*}}, %{{.*}}) : (tensor<16x32x!tile.ptr<i8>>, tensor<16x32xi1>) -> ()
func.func @prefetches(%p: tensor<16x32x!tile.ptr<i8>>, %m: tensor<16x32xi1>, %s: !tile.ptr<f32>) {
  tile.prefetch %p : tensor<16x32x!tile.ptr<i8>>
  tile.prefetch %p mask %m : tensor<16x32x!tile.ptr<i8>>
  tile.prefetch %s : !tile.ptr<f32>
  return
}

// CHECK-LABEL: func.func @stores(
// CHECK-SAME:    %[[P:[^:]*]]: tensor<128x!tile.ptr<f32>>, %[[M:[^:]*]]: tensor<128xi1>, %[[V:[^:]*]]: tensor<128xf32>, %[[S:[^:]*]]: !tile.ptr<i32>, %[[SM:[^:]*]]: i1, %[[SV:[^:]*]]: i32)
// CHECK-NEXT:    tile.store %[[V]], %[[P]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    tile.store %[[V]], %[[P]] mask %[[M]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    tile.store %[[V]], %[[P]] cache = cg : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    tile.store %[[V]], %[[P]] cache = cs : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    tile.store %[[V]], %[[P]] cache = wb : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    tile.store %[[V]], %[[P]] cache = wt : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    tile.store %[[V]], %[[P]] evict = evict_last : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    tile.store %[[V]], %[[P]] mask %[[M]] cache = cs : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    tile.store %[[V]], %[[P]] mask %[[M]] evict = evict_first : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    tile.store %[[SV]], %[[S]] : !tile.ptr<i32>
// CHECK-NEXT:    tile.store %[[SV]], %[[S]] mask %[[SM]] cache = wt : !tile.ptr<i32>
// GENERIC-LABEL: sym_name = "stores"
// GENERIC:       "tile.store"(%{{.*}}, %{{.*}}) : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
// GENERIC:       "tile.store"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
// GENERIC:       "tile.store"(%{{.*}}, %{{.*}}) <{cache = 1 : i32}>
// GENERIC:       "tile.store"(%{{.*}}, %{{.*}}) <{cache = 2 : i32}>
// GENERIC:       "tile.store"(%{{.*}}, %{{.*}}) <{cache = 4 : i32}>
// GENERIC:       "tile.store"(%{{.*}}, %{{.*}}) <{cache = 5 : i32}>
// GENERIC:       "tile.store"(%{{.*}}, %{{.*}}) <{evict = 2 : i32}>
// GENERIC:       "tile.store"(%{{.*}}, %{{.*}}, %{{.*}}) <{cache = 2 : i32}>
// GENERIC:       "tile.store"(%{{.*}}, %{{.*}}, %{{.*}}) <{evict = 1 : i32}>
// GENERIC:       "tile.store"(%{{.*}}, %{{.*}}) : (!tile.ptr<i32>, i32) -> ()
func.func @stores(%p: tensor<128x!tile.ptr<f32>>, %m: tensor<128xi1>, %v: tensor<128xf32>,
                  %s: !tile.ptr<i32>, %sm: i1, %sv: i32) {
  tile.store %v, %p : tensor<128x!tile.ptr<f32>>
  tile.store %v, %p mask %m : tensor<128x!tile.ptr<f32>>
  tile.store %v, %p cache = cg : tensor<128x!tile.ptr<f32>>
  tile.store %v, %p cache = cs : tensor<128x!tile.ptr<f32>>
  tile.store %v, %p cache = wb : tensor<128x!tile.ptr<f32>>
  tile.store %v, %p cache = wt : tensor<128x!tile.ptr<f32>>
  tile.store %v, %p evict = evict_last : tensor<128x!tile.ptr<f32>>
  tile.store %v, %p mask %m cache = cs : tensor<128x!tile.ptr<f32>>
  tile.store %v, %p mask %m evict = evict_first : tensor<128x!tile.ptr<f32>>
  tile.store %sv, %s : !tile.ptr<i32>
  tile.store %sv, %s mask %sm cache = wt : !tile.ptr<i32>
  return
}

// CHECK-LABEL: func.func @atomics(
// CHECK-SAME:    %[[PF:[^:]*]]: tensor<64x!tile.ptr<f32>>, %[[VF:[^:]*]]: tensor<64xf32>, %[[PI:[^:]*]]: tensor<64x!tile.ptr<i32>>, %[[VI:[^:]*]]: tensor<64xi32>, %[[M:[^:]*]]: tensor<64xi1>, %[[SP:[^:]*]]: !tile.ptr<i32>, %[[SV:[^:]*]]: i32, %[[SF:[^:]*]]: !tile.ptr<f32>, %[[SFV:[^:]*]]: f32)
// CHECK-NEXT:    %{{.*}} = tile.atomic_rmw add %[[PF]], %[[VF]] : tensor<64x!tile.ptr<f32>>
// CHECK-NEXT:    %{{.*}} = tile.atomic_rmw max %[[PF]], %[[VF]] : tensor<64x!tile.ptr<f32>>
// CHECK-NEXT:    %{{.*}} = tile.atomic_rmw min %[[PF]], %[[VF]] : tensor<64x!tile.ptr<f32>>
// CHECK-NEXT:    %{{.*}} = tile.atomic_rmw xchg %[[PF]], %[[VF]] : tensor<64x!tile.ptr<f32>>
// CHECK-NEXT:    %{{.*}} = tile.atomic_rmw add %[[PI]], %[[VI]] : tensor<64x!tile.ptr<i32>>
// CHECK-NEXT:    %{{.*}} = tile.atomic_rmw max %[[PI]], %[[VI]] : tensor<64x!tile.ptr<i32>>
// CHECK-NEXT:    %{{.*}} = tile.atomic_rmw min %[[PI]], %[[VI]] : tensor<64x!tile.ptr<i32>>
// CHECK-NEXT:    %{{.*}} = tile.atomic_rmw xchg %[[PI]], %[[VI]] : tensor<64x!tile.ptr<i32>>
// CHECK-NEXT:    %{{.*}} = tile.atomic_rmw add %[[PF]], %[[VF]] mask %[[M]] : tensor<64x!tile.ptr<f32>>
// CHECK-NEXT:    %{{.*}} = tile.atomic_rmw max %[[PI]], %[[VI]] mask %[[M]] sem = relaxed : tensor<64x!tile.ptr<i32>>
// CHECK-NEXT:    %{{.*}} = tile.atomic_rmw add %[[SP]], %[[SV]] : !tile.ptr<i32>
// CHECK-NEXT:    %{{.*}} = tile.atomic_rmw xchg %[[SF]], %[[SFV]] : !tile.ptr<f32>
// CHECK-NEXT:    %{{.*}} = tile.atomic_cas %[[PI]], %[[VI]], %[[VI]] : tensor<64x!tile.ptr<i32>>
// CHECK-NEXT:    %{{.*}} = tile.atomic_cas %[[PF]], %[[VF]], %[[VF]] : tensor<64x!tile.ptr<f32>>
// CHECK-NEXT:    %{{.*}} = tile.atomic_cas %[[SP]], %[[SV]], %[[SV]] sem = acquire : !tile.ptr<i32>
// GENERIC-LABEL: sym_name = "atomics"
// GENERIC:       "tile.atomic_rmw"(%{{.*}}, %{{.*}}) <{kind = 0 : i32, sem = 3 : i32}> : (tensor<64x!tile.ptr<f32>>, tensor<64xf32>) -> tensor<64xf32>
// GENERIC:       "tile.atomic_rmw"(%{{.*}}, %{{.*}}) <{kind = 1 : i32, sem = 3 : i32}>
// GENERIC:       "tile.atomic_rmw"(%{{.*}}, %{{.*}}) <{kind = 2 : i32, sem = 3 : i32}>
// GENERIC:       "tile.atomic_rmw"(%{{.*}}, %{{.*}}) <{kind = 3 : i32, sem = 3 : i32}>
// GENERIC:       "tile.atomic_rmw"(%{{.*}}, %{{.*}}, %{{.*}}) <{kind = 0 : i32, sem = 3 : i32}> : (tensor<64x!tile.ptr<f32>>, tensor<64xf32>, tensor<64xi1>) -> tensor<64xf32>
// GENERIC:       "tile.atomic_rmw"(%{{.*}}, %{{.*}}, %{{.*}}) <{kind = 1 : i32, sem = 0 : i32}>
// GENERIC:       "tile.atomic_cas"(%{{.*}}, %{{.*}}, %{{.*}}) <{sem = 3 : i32}> : (tensor<64x!tile.ptr<i32>>, tensor<64xi32>, tensor<64xi32>) -> tensor<64xi32>
func.func @atomics(%pf: tensor<64x!tile.ptr<f32>>, %vf: tensor<64xf32>,
                   %pi: tensor<64x!tile.ptr<i32>>, %vi: tensor<64xi32>,
                   %m: tensor<64xi1>, %sp: !tile.ptr<i32>, %sv: i32,
                   %sf: !tile.ptr<f32>, %sfv: f32) {
  %0 = tile.atomic_rmw add %pf, %vf : tensor<64x!tile.ptr<f32>>
  %1 = tile.atomic_rmw max %pf, %vf : tensor<64x!tile.ptr<f32>>
  %2 = tile.atomic_rmw min %pf, %vf : tensor<64x!tile.ptr<f32>>
  %3 = tile.atomic_rmw xchg %pf, %vf : tensor<64x!tile.ptr<f32>>
  %4 = tile.atomic_rmw add %pi, %vi : tensor<64x!tile.ptr<i32>>
  %5 = tile.atomic_rmw max %pi, %vi : tensor<64x!tile.ptr<i32>>
  %6 = tile.atomic_rmw min %pi, %vi : tensor<64x!tile.ptr<i32>>
  %7 = tile.atomic_rmw xchg %pi, %vi : tensor<64x!tile.ptr<i32>>
  %8 = tile.atomic_rmw add %pf, %vf mask %m : tensor<64x!tile.ptr<f32>>
  %9 = tile.atomic_rmw max %pi, %vi mask %m sem = relaxed : tensor<64x!tile.ptr<i32>>
  %10 = tile.atomic_rmw add %sp, %sv : !tile.ptr<i32>
  %11 = tile.atomic_rmw xchg %sf, %sfv : !tile.ptr<f32>
  %12 = tile.atomic_cas %pi, %vi, %vi : tensor<64x!tile.ptr<i32>>
  %13 = tile.atomic_cas %pf, %vf, %vf : tensor<64x!tile.ptr<f32>>
  %14 = tile.atomic_cas %sp, %sv, %sv sem = acquire : !tile.ptr<i32>
  return
}

// CHECK-LABEL: func.func @barrier()
// CHECK-NEXT:    tile.barrier{{$}}
// CHECK-NEXT:    tile.barrier {note = "with attrs"}
// GENERIC-LABEL: sym_name = "barrier"
// GENERIC:       "tile.barrier"() : () -> ()
func.func @barrier() {
  tile.barrier
  tile.barrier {note = "with attrs"}
  return
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reduces(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<16x128xf32>, %[[V:[^:]*]]: tensor<256xi32>, %[[H:[^:]*]]: tensor<32x64xf16>)
// CHECK-NEXT:    %{{.*}} = tile.reduce sum %[[X]] axis = 0 : tensor<16x128xf32> -> tensor<128xf32>
// CHECK-NEXT:    %{{.*}} = tile.reduce sum %[[X]] axis = 1 : tensor<16x128xf32> -> tensor<16xf32>
// CHECK-NEXT:    %{{.*}} = tile.reduce max %[[X]] axis = 0 : tensor<16x128xf32> -> tensor<128xf32>
// CHECK-NEXT:    %{{.*}} = tile.reduce max %[[X]] axis = 1 : tensor<16x128xf32> -> tensor<16xf32>
// CHECK-NEXT:    %{{.*}} = tile.reduce min %[[X]] axis = 0 : tensor<16x128xf32> -> tensor<128xf32>
// CHECK-NEXT:    %{{.*}} = tile.reduce min %[[X]] axis = 1 : tensor<16x128xf32> -> tensor<16xf32>
// CHECK-NEXT:    %{{.*}} = tile.reduce argmax %[[X]] axis = 0 : tensor<16x128xf32> -> tensor<128xi32>
// CHECK-NEXT:    %{{.*}} = tile.reduce argmax %[[X]] axis = 1 : tensor<16x128xf32> -> tensor<16xi32>
// CHECK-NEXT:    %{{.*}} = tile.reduce argmin %[[X]] axis = 0 : tensor<16x128xf32> -> tensor<128xi32>
// CHECK-NEXT:    %{{.*}} = tile.reduce argmin %[[X]] axis = 1 : tensor<16x128xf32> -> tensor<16xi32>
// CHECK-NEXT:    %{{.*}} = tile.reduce sum %[[V]] axis = 0 : tensor<256xi32> -> i32
// CHECK-NEXT:    %{{.*}} = tile.reduce max %[[V]] axis = 0 : tensor<256xi32> -> i32
// CHECK-NEXT:    %{{.*}} = tile.reduce min %[[V]] axis = 0 : tensor<256xi32> -> i32
// CHECK-NEXT:    %{{.*}} = tile.reduce argmax %[[V]] axis = 0 : tensor<256xi32> -> i32
// CHECK-NEXT:    %{{.*}} = tile.reduce argmin %[[V]] axis = 0 : tensor<256xi32> -> i32
// CHECK-NEXT:    %{{.*}} = tile.reduce sum %[[H]] axis = 1 : tensor<32x64xf16> -> tensor<32xf16>
// CHECK-NEXT:    %{{.*}} = tile.reduce argmax %[[H]] axis = 0 : tensor<32x64xf16> -> tensor<64xi32>
// GENERIC-LABEL: sym_name = "reduces"
// GENERIC:       "tile.reduce"(%{{.*}}) <{axis = 0 : i32, kind = 0 : i32}> : (tensor<16x128xf32>) -> tensor<128xf32>
// GENERIC:       "tile.reduce"(%{{.*}}) <{axis = 1 : i32, kind = 0 : i32}> : (tensor<16x128xf32>) -> tensor<16xf32>
// GENERIC:       "tile.reduce"(%{{.*}}) <{axis = 0 : i32, kind = 1 : i32}>
// GENERIC:       "tile.reduce"(%{{.*}}) <{axis = 1 : i32, kind = 1 : i32}>
// GENERIC:       "tile.reduce"(%{{.*}}) <{axis = 0 : i32, kind = 2 : i32}>
// GENERIC:       "tile.reduce"(%{{.*}}) <{axis = 1 : i32, kind = 2 : i32}>
// GENERIC:       "tile.reduce"(%{{.*}}) <{axis = 0 : i32, kind = 3 : i32}> : (tensor<16x128xf32>) -> tensor<128xi32>
// GENERIC:       "tile.reduce"(%{{.*}}) <{axis = 1 : i32, kind = 3 : i32}>
// GENERIC:       "tile.reduce"(%{{.*}}) <{axis = 0 : i32, kind = 4 : i32}>
// GENERIC:       "tile.reduce"(%{{.*}}) <{axis = 1 : i32, kind = 4 : i32}>
// GENERIC:       "tile.reduce"(%{{.*}}) <{axis = 0 : i32, kind = 0 : i32}> : (tensor<256xi32>) -> i32
func.func @reduces(%x: tensor<16x128xf32>, %v: tensor<256xi32>, %h: tensor<32x64xf16>) {
  %0 = tile.reduce sum %x axis = 0 : tensor<16x128xf32> -> tensor<128xf32>
  %1 = tile.reduce sum %x axis = 1 : tensor<16x128xf32> -> tensor<16xf32>
  %2 = tile.reduce max %x axis = 0 : tensor<16x128xf32> -> tensor<128xf32>
  %3 = tile.reduce max %x axis = 1 : tensor<16x128xf32> -> tensor<16xf32>
  %4 = tile.reduce min %x axis = 0 : tensor<16x128xf32> -> tensor<128xf32>
  %5 = tile.reduce min %x axis = 1 : tensor<16x128xf32> -> tensor<16xf32>
  %6 = tile.reduce argmax %x axis = 0 : tensor<16x128xf32> -> tensor<128xi32>
  %7 = tile.reduce argmax %x axis = 1 : tensor<16x128xf32> -> tensor<16xi32>
  %8 = tile.reduce argmin %x axis = 0 : tensor<16x128xf32> -> tensor<128xi32>
  %9 = tile.reduce argmin %x axis = 1 : tensor<16x128xf32> -> tensor<16xi32>
  %10 = tile.reduce sum %v axis = 0 : tensor<256xi32> -> i32
  %11 = tile.reduce max %v axis = 0 : tensor<256xi32> -> i32
  %12 = tile.reduce min %v axis = 0 : tensor<256xi32> -> i32
  %13 = tile.reduce argmax %v axis = 0 : tensor<256xi32> -> i32
  %14 = tile.reduce argmin %v axis = 0 : tensor<256xi32> -> i32
  %15 = tile.reduce sum %h axis = 1 : tensor<32x64xf16> -> tensor<32xf16>
  %16 = tile.reduce argmax %h axis = 0 : tensor<32x64xf16> -> tensor<64xi32>
  return
}

// CHECK-LABEL: func.func @generic_reduces(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<128xf32>, %[[Y:[^:]*]]: tensor<8x32xi32>)
// CHECK:         %{{.*}} = tile.generic_reduce %[[X]] axis = 0 : tensor<128xf32> -> f32 {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
// CHECK-NEXT:      %[[C:.*]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT:      tile.yield %[[C]] : f32
// CHECK-NEXT:    }
// CHECK:         %{{.*}} = tile.generic_reduce %[[Y]] axis = 1 : tensor<8x32xi32> -> tensor<8xi32> {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32):
// CHECK-NEXT:      %[[C:.*]] = arith.xori %[[A]], %[[B]] : i32
// CHECK-NEXT:      tile.yield %[[C]] : i32
// CHECK-NEXT:    }
// CHECK:         %{{.*}} = tile.generic_reduce %[[Y]] axis = 0 : tensor<8x32xi32> -> tensor<32xi32> {
// CHECK:           arith.maxsi
// GENERIC-LABEL: sym_name = "generic_reduces"
// GENERIC:       "tile.generic_reduce"(%{{.*}}) <{axis = 0 : i32}> ({
// GENERIC-NEXT:  ^bb0(%{{.*}}: f32, %{{.*}}: f32):
// GENERIC-NEXT:    "arith.mulf"
// GENERIC-NEXT:    "tile.yield"(%{{.*}}) : (f32) -> ()
// GENERIC-NEXT:  }) : (tensor<128xf32>) -> f32
func.func @generic_reduces(%x: tensor<128xf32>, %y: tensor<8x32xi32>) {
  %0 = tile.generic_reduce %x axis = 0 : tensor<128xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
    %c = arith.mulf %a, %b : f32
    tile.yield %c : f32
  }
  %1 = tile.generic_reduce %y axis = 1 : tensor<8x32xi32> -> tensor<8xi32> {
  ^bb0(%a: i32, %b: i32):
    %c = arith.xori %a, %b : i32
    tile.yield %c : i32
  }
  %2 = tile.generic_reduce %y axis = 0 : tensor<8x32xi32> -> tensor<32xi32> {
  ^bb0(%a: i32, %b: i32):
    %c = arith.maxsi %a, %b : i32
    tile.yield %c : i32
  }
  return
}

//===----------------------------------------------------------------------===//
// Element type conversion
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @casts(
// CHECK-SAME:    %[[F:[^:]*]]: tensor<64xf32>, %[[H:[^:]*]]: tensor<64xf16>, %[[BF:[^:]*]]: tensor<64xbf16>, %[[I:[^:]*]]: tensor<64xi32>, %[[B:[^:]*]]: tensor<64xi8>, %[[P:[^:]*]]: tensor<64xi1>, %[[S:[^:]*]]: f32, %[[D:[^:]*]]: f64)
// CHECK-NEXT:    %{{.*}} = tile.cast %[[F]] : tensor<64xf32> to tensor<64xf16>
// CHECK-NEXT:    %{{.*}} = tile.cast %[[F]] rounding = rtz : tensor<64xf32> to tensor<64xf16>
// CHECK-NEXT:    %{{.*}} = tile.cast %[[F]] rounding = rne : tensor<64xf32> to tensor<64xbf16>
// CHECK-NEXT:    %{{.*}} = tile.cast %[[H]] : tensor<64xf16> to tensor<64xf32>
// CHECK-NEXT:    %{{.*}} = tile.cast %[[BF]] : tensor<64xbf16> to tensor<64xf32>
// CHECK-NEXT:    %{{.*}} = tile.cast %[[H]] rounding = rup : tensor<64xf16> to tensor<64xbf16>
// CHECK-NEXT:    %{{.*}} = tile.cast %[[BF]] rounding = rdn : tensor<64xbf16> to tensor<64xf16>
// CHECK-NEXT:    %{{.*}} = tile.cast %[[F]] : tensor<64xf32> to tensor<64xi32>
// CHECK-NEXT:    %{{.*}} = tile.cast %[[F]] rounding = rdn : tensor<64xf32> to tensor<64xi32>
// CHECK-NEXT:    %{{.*}} = tile.cast %[[H]] rounding = rne : tensor<64xf16> to tensor<64xi8>
// CHECK-NEXT:    %{{.*}} = tile.cast %[[I]] : tensor<64xi32> to tensor<64xf32>
// CHECK-NEXT:    %{{.*}} = tile.cast %[[I]] rounding = rne : tensor<64xi32> to tensor<64xf16>
// CHECK-NEXT:    %{{.*}} = tile.cast %[[B]] : tensor<64xi8> to tensor<64xbf16>
// CHECK-NEXT:    %{{.*}} = tile.cast %[[I]] : tensor<64xi32> to tensor<64xi8>
// CHECK-NEXT:    %{{.*}} = tile.cast %[[B]] : tensor<64xi8> to tensor<64xi32>
// CHECK-NEXT:    %{{.*}} = tile.cast %[[I]] : tensor<64xi32> to tensor<64xi1>
// CHECK-NEXT:    %{{.*}} = tile.cast %[[P]] : tensor<64xi1> to tensor<64xi32>
// CHECK-NEXT:    %{{.*}} = tile.cast %[[P]] : tensor<64xi1> to tensor<64xf32>
// CHECK-NEXT:    %{{.*}} = tile.cast %[[F]] : tensor<64xf32> to tensor<64xi1>
// CHECK-NEXT:    %{{.*}} = tile.cast %[[S]] rounding = rtz : f32 to i32
// CHECK-NEXT:    %{{.*}} = tile.cast %[[D]] rounding = rne : f64 to f32
// CHECK-NEXT:    %{{.*}} = tile.cast %[[S]] : f32 to f64
// GENERIC-LABEL: sym_name = "casts"
// GENERIC:       "tile.cast"(%{{.*}}) : (tensor<64xf32>) -> tensor<64xf16>
// GENERIC:       "tile.cast"(%{{.*}}) <{rounding = 1 : i32}> : (tensor<64xf32>) -> tensor<64xf16>
// GENERIC:       "tile.cast"(%{{.*}}) <{rounding = 0 : i32}> : (tensor<64xf32>) -> tensor<64xbf16>
// GENERIC:       "tile.cast"(%{{.*}}) <{rounding = 3 : i32}> : (tensor<64xf16>) -> tensor<64xbf16>
// GENERIC:       "tile.cast"(%{{.*}}) <{rounding = 2 : i32}> : (tensor<64xbf16>) -> tensor<64xf16>
func.func @casts(%f: tensor<64xf32>, %h: tensor<64xf16>, %bf: tensor<64xbf16>,
                 %i: tensor<64xi32>, %b: tensor<64xi8>, %p: tensor<64xi1>,
                 %s: f32, %d: f64) {
  %0 = tile.cast %f : tensor<64xf32> to tensor<64xf16>
  %1 = tile.cast %f rounding = rtz : tensor<64xf32> to tensor<64xf16>
  %2 = tile.cast %f rounding = rne : tensor<64xf32> to tensor<64xbf16>
  %3 = tile.cast %h : tensor<64xf16> to tensor<64xf32>
  %4 = tile.cast %bf : tensor<64xbf16> to tensor<64xf32>
  %5 = tile.cast %h rounding = rup : tensor<64xf16> to tensor<64xbf16>
  %6 = tile.cast %bf rounding = rdn : tensor<64xbf16> to tensor<64xf16>
  %7 = tile.cast %f : tensor<64xf32> to tensor<64xi32>
  %8 = tile.cast %f rounding = rdn : tensor<64xf32> to tensor<64xi32>
  %9 = tile.cast %h rounding = rne : tensor<64xf16> to tensor<64xi8>
  %10 = tile.cast %i : tensor<64xi32> to tensor<64xf32>
  %11 = tile.cast %i rounding = rne : tensor<64xi32> to tensor<64xf16>
  %12 = tile.cast %b : tensor<64xi8> to tensor<64xbf16>
  %13 = tile.cast %i : tensor<64xi32> to tensor<64xi8>
  %14 = tile.cast %b : tensor<64xi8> to tensor<64xi32>
  %15 = tile.cast %i : tensor<64xi32> to tensor<64xi1>
  %16 = tile.cast %p : tensor<64xi1> to tensor<64xi32>
  %17 = tile.cast %p : tensor<64xi1> to tensor<64xf32>
  %18 = tile.cast %f : tensor<64xf32> to tensor<64xi1>
  %19 = tile.cast %s rounding = rtz : f32 to i32
  %20 = tile.cast %d rounding = rne : f64 to f32
  %21 = tile.cast %s : f32 to f64
  return
}

// CHECK-LABEL: func.func @bitcasts(
// CHECK-SAME:    %[[F:[^:]*]]: tensor<16x16xf32>, %[[H:[^:]*]]: tensor<32xf16>, %[[S:[^:]*]]: bf16, %[[I:[^:]*]]: i64)
// CHECK-NEXT:    %{{.*}} = tile.bitcast %[[F]] : tensor<16x16xf32> to tensor<16x16xi32>
// CHECK-NEXT:    %{{.*}} = tile.bitcast %[[H]] : tensor<32xf16> to tensor<32xi16>
// CHECK-NEXT:    %{{.*}} = tile.bitcast %[[H]] : tensor<32xf16> to tensor<32xbf16>
// CHECK-NEXT:    %{{.*}} = tile.bitcast %[[S]] : bf16 to i16
// CHECK-NEXT:    %{{.*}} = tile.bitcast %[[I]] : i64 to f64
// GENERIC-LABEL: sym_name = "bitcasts"
// GENERIC:       "tile.bitcast"(%{{.*}}) : (tensor<16x16xf32>) -> tensor<16x16xi32>
func.func @bitcasts(%f: tensor<16x16xf32>, %h: tensor<32xf16>, %s: bf16, %i: i64) {
  %0 = tile.bitcast %f : tensor<16x16xf32> to tensor<16x16xi32>
  %1 = tile.bitcast %h : tensor<32xf16> to tensor<32xi16>
  %2 = tile.bitcast %h : tensor<32xf16> to tensor<32xbf16>
  %3 = tile.bitcast %s : bf16 to i16
  %4 = tile.bitcast %i : i64 to f64
  return
}

//===----------------------------------------------------------------------===//
// Matrix product
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @dots(
// CHECK:         %{{.*}} = tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xf16>, tensor<32x128xf16> -> tensor<64x128xf32>
// CHECK-NEXT:    %{{.*}} = tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x16xbf16>, tensor<16x16xbf16> -> tensor<16x16xf32>
// CHECK-NEXT:    %{{.*}} = tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<32x64xi8>, tensor<64x16xi8> -> tensor<32x16xi32>
// CHECK-NEXT:    %{{.*}} = tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<32x32xf32>, tensor<32x32xf32> -> tensor<32x32xf32>
// CHECK-NEXT:    %{{.*}} = tile.dot %{{.*}}, %{{.*}}, %{{.*}} precision = tf32 : tensor<32x32xf32>, tensor<32x32xf32> -> tensor<32x32xf32>
// CHECK-NEXT:    %{{.*}} = tile.dot %{{.*}}, %{{.*}}, %{{.*}} precision = ieee : tensor<32x32xf32>, tensor<32x32xf32> -> tensor<32x32xf32>
// GENERIC-LABEL: sym_name = "dots"
// GENERIC:       "tile.dot"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<64x32xf16>, tensor<32x128xf16>, tensor<64x128xf32>) -> tensor<64x128xf32>
// GENERIC:       "tile.dot"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<16x16xbf16>, tensor<16x16xbf16>, tensor<16x16xf32>) -> tensor<16x16xf32>
// GENERIC:       "tile.dot"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<32x64xi8>, tensor<64x16xi8>, tensor<32x16xi32>) -> tensor<32x16xi32>
// GENERIC:       "tile.dot"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
// GENERIC:       "tile.dot"(%{{.*}}, %{{.*}}, %{{.*}}) <{precision = 0 : i32}>
// GENERIC:       "tile.dot"(%{{.*}}, %{{.*}}, %{{.*}}) <{precision = 1 : i32}>
func.func @dots(%ah: tensor<64x32xf16>, %bh: tensor<32x128xf16>, %ch: tensor<64x128xf32>,
                %ab: tensor<16x16xbf16>, %bb: tensor<16x16xbf16>, %cb: tensor<16x16xf32>,
                %ai: tensor<32x64xi8>, %bi: tensor<64x16xi8>, %ci: tensor<32x16xi32>,
                %af: tensor<32x32xf32>, %bf: tensor<32x32xf32>, %cf: tensor<32x32xf32>) {
  %0 = tile.dot %ah, %bh, %ch : tensor<64x32xf16>, tensor<32x128xf16> -> tensor<64x128xf32>
  %1 = tile.dot %ab, %bb, %cb : tensor<16x16xbf16>, tensor<16x16xbf16> -> tensor<16x16xf32>
  %2 = tile.dot %ai, %bi, %ci : tensor<32x64xi8>, tensor<64x16xi8> -> tensor<32x16xi32>
  %3 = tile.dot %af, %bf, %cf : tensor<32x32xf32>, tensor<32x32xf32> -> tensor<32x32xf32>
  %4 = tile.dot %af, %bf, %cf precision = tf32 : tensor<32x32xf32>, tensor<32x32xf32> -> tensor<32x32xf32>
  %5 = tile.dot %af, %bf, %cf precision = ieee : tensor<32x32xf32>, tensor<32x32xf32> -> tensor<32x32xf32>
  return
}

// CHECK-LABEL: func.func @grid_dependency(
// CHECK-NEXT:    tile.launch_dependents
// CHECK-NEXT:    tile.grid_dependency_wait
// GENERIC-LABEL: sym_name = "grid_dependency"
// GENERIC:       "tile.launch_dependents"() : () -> ()
// GENERIC:       "tile.grid_dependency_wait"() : () -> ()
func.func @grid_dependency() {
  tile.launch_dependents
  tile.grid_dependency_wait
  return
}
