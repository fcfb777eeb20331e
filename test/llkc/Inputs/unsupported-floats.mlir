// Floats the NVPTX back end has no registers for: arithmetic in them ended
// the process ("unsupported library call operation"). Each kernel is an
// error at the first op that makes such a value.
func.func @x87(%out: !tile.ptr<f32>) {
  %p = tile.program_id x
  %a = arith.sitofp %p : i32 to f80
  %b = arith.divf %a, %a : f80
  %c = arith.truncf %b : f80 to f32
  tile.store %c, %out : !tile.ptr<f32>
  return
}

func.func @quad(%out: !tile.ptr<f32>, %s: f32) {
  %a = arith.extf %s : f32 to f128
  %b = arith.divf %a, %a : f128
  %c = arith.truncf %b : f128 to f32
  tile.store %c, %out : !tile.ptr<f32>
  return
}
