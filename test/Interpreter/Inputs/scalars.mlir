// Kernels of llk-run's scalar arguments (llk-run-scalars.test).

// Stores each scalar argument into a buffer of its type: what llk-run
// passed, bit for bit.
func.func @store_scalars(%i64_out: !tile.ptr<i64>, %i64: i64,
                         %i32_out: !tile.ptr<i32>, %i32: i32,
                         %i8_out: !tile.ptr<i8>, %i8: i8,
                         %f32_out: !tile.ptr<f32>, %f32: f32,
                         %f16_out: !tile.ptr<f16>, %f16: f16,
                         %bf16_out: !tile.ptr<bf16>, %bf16: bf16) {
  tile.store %i64, %i64_out : !tile.ptr<i64>
  tile.store %i32, %i32_out : !tile.ptr<i32>
  tile.store %i8, %i8_out : !tile.ptr<i8>
  tile.store %f32, %f32_out : !tile.ptr<f32>
  tile.store %f16, %f16_out : !tile.ptr<f16>
  tile.store %bf16, %bf16_out : !tile.ptr<bf16>
  return
}

// out[0] = x[i]: an element offset from the command line.
func.func @load_at(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %i: i64) {
  %p = tile.addptr %x, %i : !tile.ptr<f32>, i64
  %v = tile.load %p : !tile.ptr<f32>
  tile.store %v, %out : !tile.ptr<f32>
  return
}
