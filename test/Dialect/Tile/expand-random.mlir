// tile-expand-random: each random-number op becomes the Philox rounds and
// the maps to floats that define it (Philox.h); the interpreter runs the
// expansion to the same bits as the op (test/Interpreter/random.test).
//
// RUN: llk-opt %s --tile-expand-random | FileCheck %s

// An i32 seed's key: the seed, and its sign as the high word. An i32
// offset's counter: the offset, then zeros. Ten rounds of two 32x32->64
// products each; the words of randint are the first.
// CHECK-LABEL: func.func @randint_i32(
// CHECK-SAME:    %[[SEED:.*]]: i32, %[[OFF:.*]]: tensor<128xi32>
// CHECK:         %[[C31:.*]] = arith.constant 31 : i32
// CHECK:         %[[K1:.*]] = arith.shrsi %[[SEED]], %[[C31]] : i32
// CHECK-DAG:     %[[A:.*]] = arith.constant dense<-766435501> : tensor<128xi32>
// CHECK-DAG:     %[[B:.*]] = arith.constant dense<-845247145> : tensor<128xi32>
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant dense<0> : tensor<128xi32>
// CHECK:         %[[LO0:.*]], %[[HI0:.*]] = arith.mului_extended %[[A]], %[[OFF]] : tensor<128xi32>
// CHECK:         %[[LO1:.*]], %[[HI1:.*]] = arith.mului_extended %[[B]], %[[ZERO]] : tensor<128xi32>
// CHECK:         %[[K0S:.*]] = tile.splat %[[SEED]] : i32 -> tensor<128xi32>
// CHECK:         %[[K1S:.*]] = tile.splat %[[K1]] : i32 -> tensor<128xi32>
// CHECK:         %[[X:.*]] = arith.xori %[[HI1]], %[[ZERO]] : tensor<128xi32>
// CHECK:         arith.xori %[[X]], %[[K0S]] : tensor<128xi32>
// CHECK:         %[[Y:.*]] = arith.xori %[[HI0]], %[[ZERO]] : tensor<128xi32>
// CHECK:         arith.xori %[[Y]], %[[K1S]] : tensor<128xi32>
// The key's next words, then the next round on the new words.
// CHECK:         arith.addi %[[SEED]], %{{.*}} : i32
// CHECK:         arith.addi %[[K1]], %{{.*}} : i32
// CHECK:         arith.mului_extended %[[A]], %{{.*}} : tensor<128xi32>
// CHECK-COUNT-17: arith.mului_extended
// CHECK-NOT:     arith.mului_extended
// CHECK-NOT:     tile.randint
// CHECK:         return
func.func @randint_i32(%seed: i32, %offsets: tensor<128xi32>) -> tensor<128xi32> {
  %r = tile.randint %seed, %offsets : i32, tensor<128xi32>
  return %r : tensor<128xi32>
}

// An i64 seed's and offset's high words: shifted down and truncated.
// CHECK-LABEL: func.func @randint4x_i64(
// CHECK-SAME:    %[[SEED:.*]]: i64, %[[OFF:.*]]: i64
// CHECK-DAG:     %[[K0:.*]] = arith.trunci %[[SEED]] : i64 to i32
// CHECK-DAG:     %[[SH:.*]] = arith.shrui %[[SEED]], %{{.*}} : i64
// CHECK-DAG:     arith.trunci %[[SH]] : i64 to i32
// CHECK-DAG:     %[[C0:.*]] = arith.trunci %[[OFF]] : i64 to i32
// CHECK-DAG:     %[[OSH:.*]] = arith.shrui %[[OFF]], %{{.*}} : i64
// CHECK-DAG:     %[[C1:.*]] = arith.trunci %[[OSH]] : i64 to i32
// CHECK:         arith.mului_extended %{{.*}}, %[[C0]] : i32
// CHECK-COUNT-19: arith.mului_extended
// CHECK:         return %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32, i32, i32, i32
func.func @randint4x_i64(%seed: i64, %offset: i64) -> (i32, i32, i32, i32) {
  %a, %b, %c, %d = tile.randint4x %seed, %offset : i64, i64
  return %a, %b, %c, %d : i32, i32, i32, i32
}

// rand: the word folded onto [0, 2^31), converted and scaled in f32.
// CHECK-LABEL: func.func @rand(
// CHECK:         %[[NEG:.*]] = arith.cmpi slt, %[[W:.*]], %{{.*}} : tensor<64xi32>
// CHECK:         %[[NOT:.*]] = arith.xori %[[W]], %{{.*}} : tensor<64xi32>
// CHECK:         %[[FOLD:.*]] = arith.select %[[NEG]], %[[NOT]], %[[W]] : tensor<64xi1>, tensor<64xi32>
// CHECK:         %[[F:.*]] = arith.sitofp %[[FOLD]] : tensor<64xi32> to tensor<64xf32>
// CHECK:         arith.mulf %[[F]], %{{.*}} : tensor<64xf32>
func.func @rand(%seed: i32, %offsets: tensor<64xi32>) -> tensor<64xf32> {
  %r = tile.rand %seed, %offsets : i32, tensor<64xi32>
  return %r : tensor<64xf32>
}

// randn: Box-Muller of the uniforms of the first two words.
// CHECK-LABEL: func.func @randn(
// CHECK-COUNT-2: arith.sitofp
// CHECK:         arith.maxnumf
// CHECK:         arith.mulf
// CHECK:         math.log
// CHECK:         math.sqrt
// CHECK:         math.cos
// CHECK:         arith.mulf
func.func @randn(%seed: i32, %offsets: tensor<64xi32>) -> tensor<64xf32> {
  %r = tile.randn %seed, %offsets : i32, tensor<64xi32>
  return %r : tensor<64xf32>
}
