// Kernel names that are no PTX identifiers, or that PTX or llk reserve:
// each an error at its kernel (llkc reports them all).
func.func @"k k"(%x: i32) { return }
func.func @"%k"(%x: i32) { return }
func.func @"kü"(%x: i32) { return }
func.func @"k-1"(%x: i32) { return }
func.func @"1k"(%x: i32) { return }
func.func @"k.1"(%x: i32) { return }
func.func @_(%x: i32) { return }
func.func @"$"(%x: i32) { return }
func.func @""(%x: i32) { return }
func.func @"k\0A"(%x: i32) { return }
func.func @WARP_SZ(%x: i32) { return }
func.func @__nv_expf(%x: i32) { return }
func.func @__llk_smem_k(%x: i32) { return }
