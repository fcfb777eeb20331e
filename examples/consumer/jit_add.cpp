// JIT-compiles a vector add from source, launches it and checks the result:
// the smallest program over an installed llk (llk::jit). Runs on the GPU, or
// on the interpreter with LLK_BACKEND=interpreter. Exit status 0 PASS, 1 FAIL,
// 2 error.
#include "llk/runtime/JIT.h"

#include <cmath>
#include <cstdio>
#include <vector>

namespace rt = llk::rt;

static const char *kSource = R"(
func.func @add_kernel(%x: !tile.ptr<${T}>, %y: !tile.ptr<${T}>,
                      %out: !tile.ptr<${T}>, %n: i32) {
  %pid = tile.program_id x
  %block = arith.constant ${BLOCK} : i32
  %start = arith.muli %pid, %block : i32
  %range = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %starts = tile.splat %start : i32 -> tensor<${BLOCK}xi32>
  %offsets = arith.addi %starts, %range : tensor<${BLOCK}xi32>
  %ns = tile.splat %n : i32 -> tensor<${BLOCK}xi32>
  %mask = arith.cmpi slt, %offsets, %ns : tensor<${BLOCK}xi32>
  %xs = tile.splat %x : !tile.ptr<${T}> -> tensor<${BLOCK}x!tile.ptr<${T}>>
  %xp = tile.addptr %xs, %offsets : tensor<${BLOCK}x!tile.ptr<${T}>>, tensor<${BLOCK}xi32>
  %xv = tile.load %xp mask %mask : tensor<${BLOCK}x!tile.ptr<${T}>>
  %ys = tile.splat %y : !tile.ptr<${T}> -> tensor<${BLOCK}x!tile.ptr<${T}>>
  %yp = tile.addptr %ys, %offsets : tensor<${BLOCK}x!tile.ptr<${T}>>, tensor<${BLOCK}xi32>
  %yv = tile.load %yp mask %mask : tensor<${BLOCK}x!tile.ptr<${T}>>
  %sum = arith.addf %xv, %yv : tensor<${BLOCK}x${T}>
  %os = tile.splat %out : !tile.ptr<${T}> -> tensor<${BLOCK}x!tile.ptr<${T}>>
  %op = tile.addptr %os, %offsets : tensor<${BLOCK}x!tile.ptr<${T}>>, tensor<${BLOCK}xi32>
  tile.store %sum, %op mask %mask : tensor<${BLOCK}x!tile.ptr<${T}>>
  return
}
)";

int main() {
  try {
    rt::Device device = rt::Device::open(0);
    rt::JIT jit(device);
    rt::JITOptions options;
    options.constants["BLOCK"] = 128;
    options.constants["T"] = llk::ElementType::F32;
    rt::Kernel add = jit.compile(rt::Source::fromText(kSource, "add.mlir"), options);

    const int n = 1000;
    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; ++i) {
      x[i] = 0.5f * float(i);
      y[i] = 1.0f - 0.25f * float(i);
    }
    rt::DeviceBuffer<float> dx(device, n), dy(device, n), dout(device, n);
    dx.copyFrom(x);
    dy.copyFrom(y);
    add.launch(/*grid=*/(n + 127) / 128, {dx, dy, dout, n});
    std::vector<float> out = dout.toVector();
    int wrong = 0;
    for (int i = 0; i < n; ++i)
      if (std::fabs(double(out[i]) - (double(x[i]) + double(y[i]))) > 1e-6)
        ++wrong;
    std::printf("llk %s on %s: add_kernel over %d elements: %s\n",
                rt::compilerIdentity().c_str(), device.name().c_str(), n,
                wrong ? "FAIL" : "PASS");
    return wrong ? 1 : 0;
  } catch (const rt::Error &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}
