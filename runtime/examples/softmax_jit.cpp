// softmax_jit: JIT-compile examples/softmax.mlir through the llk runtime,
// launch it, check it against a double-precision reference, and say how long
// the compile (or cache hit), the module load and the launch took.
//
//   llk-softmax-jit [path/to/softmax.mlir] [rows] [cols]
//
// The cache directory is $LLK_CACHE_DIR (else ~/.cache/llk): run twice and
// the second process loads the kernel from the disk cache.
//
// LLK_BACKEND=interpreter runs the same program on the CPU interpreter (no
// GPU, no CUDA driver); use a small shape there, e.g. `... 64 3008`.

#include "llk/runtime/JIT.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>

namespace rt = llk::rt;
using Clock = std::chrono::steady_clock;

static double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

int main(int argc, char **argv) {
  std::string path = argc > 1 ? argv[1] : "examples/softmax.mlir";
  int rows = argc > 2 ? std::atoi(argv[2]) : 4096;
  int cols = argc > 3 ? std::atoi(argv[3]) : 3000;
  try {
    auto start = Clock::now();
    rt::Device device = rt::Device::open(0);
    double openMs = msSince(start);

    // Compile (or find in the cache) and load: one call.
    rt::JIT jit(device);
    start = Clock::now();
    rt::Kernel softmax = jit.compile(rt::Source::fromFile(path),
                                     {/*constants=*/{{"BLOCK", 4096}},
                                      /*numWarps=*/8, /*arch=*/""});
    double compileMs = msSince(start);
    bool cached = jit.compileCount() == 0;

    std::vector<float> x(size_t(rows) * cols);
    std::mt19937 rng(42);
    std::normal_distribution<float> dist(0.f, 3.f);
    for (float &v : x)
      v = dist(rng);
    rt::DeviceBuffer<float> in(device, x.size()), out(device, x.size());
    in.copyFrom(x);

    start = Clock::now();
    rt::LaunchOptions wait;
    wait.synchronize = true; // report execution errors as this launch's
    softmax.launch(rows, {out, in, cols, cols, cols}, wait);
    double launchMs = msSince(start);

    std::vector<float> y = out.toVector();
    double maxError = 0;
    for (int r = 0; r < rows; ++r) {
      const float *row = &x[size_t(r) * cols];
      double m = -INFINITY, sum = 0;
      for (int c = 0; c < cols; ++c)
        m = std::max(m, double(row[c]));
      for (int c = 0; c < cols; ++c)
        sum += std::exp(row[c] - m);
      for (int c = 0; c < cols; ++c) {
        double want = std::exp(row[c] - m) / sum;
        maxError = std::max(maxError, std::abs(y[size_t(r) * cols + c] - want) /
                                          std::max(want, 1e-30));
      }
    }
    bool ok = maxError < 1e-5;
    if (device.backend() == rt::Backend::Interpreter)
      std::printf("device: %s (backend: interpreter)\n", device.name().c_str());
    else
      std::printf("device: %s (%s), driver %d\n", device.name().c_str(),
                  device.arch().c_str(), device.driverVersion());
    if (device.backend() == rt::Backend::Interpreter)
      std::printf("parse %.2f ms | interpret %.2f ms\n", compileMs, launchMs);
    else {
      std::printf("cache: %s (%s)\n", jit.cache().directory().c_str(),
                  cached ? "hit" : "miss: compiled");
      std::printf("open device %.1f ms | %s %.2f ms | launch + sync %.2f ms | "
                  "%s + launch: %.2f ms\n",
                  openMs, cached ? "cache hit + module load" : "compile + module load",
                  compileMs, launchMs, cached ? "cached load" : "first compile",
                  compileMs + launchMs);
    }
    std::printf("softmax %dx%d: max relative error %.2e: %s\n", rows, cols, maxError,
                ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
  } catch (const rt::Error &e) {
    std::fprintf(stderr, "error (%s): %s\n", rt::toString(e.code()), e.what());
    return 2;
  }
}
