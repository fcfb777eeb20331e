// Kernel arguments no launcher can pass (some made the back end abort or
// emit PTX that ptxas rejects: f80, i2, i48): each an error at its kernel.
func.func @odd_width(%x: i48) { return }
func.func @narrow(%x: i2) { return }
func.func @wide(%x: i128) { return }
func.func @x87(%x: f80) { return }
func.func @quad(%x: f128) { return }
func.func @fp8(%x: f8E4M3FN) { return }
func.func @index_arg(%x: index) { return }
func.func @unsigned(%x: ui32) { return }
func.func @boolean(%x: i1) { return }
func.func @vector_arg(%x: vector<4xf32>) { return }
func.func @complex_arg(%x: complex<f32>) { return }
func.func @tuple_arg(%x: tuple<i32>) { return }
func.func @none_arg(%x: none) { return }
func.func @tile_arg(%x: tensor<4xf32>) { return }
func.func @bool_pointer(%x: !tile.ptr<i1>) { return }
func.func @quad_pointer(%x: !tile.ptr<f128>) { return }
