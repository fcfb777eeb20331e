// Kernel names at the edges of what PTX takes: all compile, and ptxas
// accepts them.
func.func @k(%x: i32) { return }
func.func @_k(%x: i32) { return }
func.func @"$k"(%x: i32) { return }
func.func @"k$1"(%x: i32) { return }
func.func @__k_9(%x: i32) { return }
func.func @ret(%x: i32) { return }
