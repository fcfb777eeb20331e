// Triton tutorial 11, programmatic dependent launch
// (python/tutorials/11-programmatic-dependent-launch.py): vector add, where
// the index arithmetic runs before the wait for the kernel before it in the
// stream (tl.extra.cuda.gdc_wait: tile.grid_dependency_wait), and the next
// kernel may start launching once the inputs are in registers
// (gdc_launch_dependents: tile.launch_dependents). Launched as a dependent
// launch (the runtime's LaunchOptions::dependentLaunch, Triton's
// launch_pdl=True) on sm_90; elsewhere both ops do nothing. USE_GDC = 0
// leaves them out, as the tutorial's baseline does.
//
//   llkc examples/triton/11_pdl_vector_add.mlir -D BLOCK=1024 -D DIV=16 -D USE_GDC=1 --num-warps 4
//   grid = cdiv(n, BLOCK) programs; DIV: a power of two dividing n (16, as
//   Triton specializes it; 1 for any n).
func.func @add_kernel(%x: !tile.ptr<f32> {tile.divisibility = 16}, %y: !tile.ptr<f32> {tile.divisibility = 16},
                      %out: !tile.ptr<f32> {tile.divisibility = 16}, %n: i32 {tile.divisibility = ${DIV}}) {
  %pid = tile.program_id x
  %block = arith.constant ${BLOCK} : i32
  %start = arith.muli %pid, %block : i32
  %range = tile.make_range 0 to ${BLOCK}
  %offsets = tile.add %start, %range : i32, tensor<${BLOCK}xi32>
  %mask = tile.cmp lt %offsets, %n : tensor<${BLOCK}xi32>, i32
  %use_gdc = arith.constant ${USE_GDC} : i1
  scf.if %use_gdc {
    tile.grid_dependency_wait
  }
  %x_ptrs = tile.addptr %x, %offsets : !tile.ptr<f32>, tensor<${BLOCK}xi32>
  %xv = tile.load %x_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  %y_ptrs = tile.addptr %y, %offsets : !tile.ptr<f32>, tensor<${BLOCK}xi32>
  %yv = tile.load %y_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  scf.if %use_gdc {
    tile.launch_dependents
  }
  %sum = arith.addf %xv, %yv : tensor<${BLOCK}xf32>
  %out_ptrs = tile.addptr %out, %offsets : !tile.ptr<f32>, tensor<${BLOCK}xi32>
  tile.store %sum, %out_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  return
}
