// softmax_jit: JIT-compile examples/softmax.mlir through the llk runtime,
// launch it, check it against a double-precision reference, and say how long
// the compile (or cache hit), the module load and the launch took.
//
//   llk-softmax-jit [path/to/softmax.mlir] [rows] [cols]
//
// The cache directory is $LLK_CACHE_DIR (else ~/.cache/llk): run twice and
// the second process loads the kernel from the disk cache, as a cubin when
// the first found a ptxas (no PTX JIT in the driver); it says which.
//
// LLK_BACKEND=interpreter runs the same program on the CPU interpreter (no
// GPU, no CUDA driver); use a small shape there, e.g. `... 64 3008`.
//
// cols: a multiple of 4 up to 4096 (the kernel's BLOCK and divisibility).
// Exit status: 0 PASS, 1 FAIL, 2 error (bad arguments, no driver...).

#include "llk/runtime/JIT.h"

#include "ProgramArgs.h"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <random>
#include <string>

namespace rt = llk::rt;
using Clock = std::chrono::steady_clock;

static double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// The kernel's BLOCK: the longest row.
constexpr int kBlock = 4096;
/// Elements of each of the two buffers at most (1 GiB of f32).
constexpr int64_t kMaxElements = int64_t(1) << 28;

int main(int argc, char **argv) {
  if (argc > 4) {
    std::fprintf(stderr, "usage: llk-softmax-jit [softmax.mlir] [rows] [cols]\n");
    return 2;
  }
  std::string path = argc > 1 ? argv[1] : "examples/softmax.mlir";
  int rows = 4096, cols = 3000;
  std::optional<std::string> why;
  if (argc > 2)
    why = rt::programs::parseInteger("rows", argv[2], 1, INT32_MAX, rows);
  if (!why && argc > 3)
    why = rt::programs::parseInteger("cols", argv[3], 4, kBlock, cols);
  if (!why && cols % 4)
    why = "cols must be a multiple of 4 (the kernel's divisibility), got " +
          std::to_string(cols);
  if (!why && int64_t(rows) * cols > kMaxElements)
    why = std::to_string(rows) + "x" + std::to_string(cols) + " is more than " +
          std::to_string(kMaxElements) + " elements";
  if (why) {
    std::fprintf(stderr, "llk-softmax-jit: %s\n", why->c_str());
    return 2;
  }
  try {
    auto start = Clock::now();
    rt::Device device = rt::Device::open(0);
    double openMs = msSince(start);

    // Compile (or find in the cache), then load: jit.compile does both; the
    // two steps are timed apart here.
    rt::JIT jit(device);
    rt::Source source = rt::Source::fromFile(path);
    rt::JITOptions options{/*constants=*/{{"BLOCK", 4096}}, /*numWarps=*/8,
                           /*arch=*/""};
    start = Clock::now();
    if (device.backend() != rt::Backend::Interpreter)
      jit.compileModule(source, options);
    double compileMs = msSince(start);
    start = Clock::now();
    rt::Kernel softmax = jit.compile(source, options);
    double loadMs = msSince(start);
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
      std::printf("parse %.2f ms | interpret %.2f ms\n", loadMs, launchMs);
    else {
      std::string issue = jit.lastCubinIssue();
      std::printf("cache: %s (%s); module loaded from %s%s%s\n",
                  jit.cache().directory().c_str(), cached ? "hit" : "miss: compiled",
                  jit.cubinLoads() ? "its cubin" : "PTX (the driver compiles it)",
                  issue.empty() ? "" : ": ", issue.c_str());
      std::printf("open device %.1f ms | %s %.2f ms | module load (%s) %.2f ms | "
                  "launch + sync %.2f ms | %s + launch: %.2f ms\n",
                  openMs, cached ? "cache hit" : "compile", compileMs,
                  jit.cubinLoads() ? "cubin" : "PTX", loadMs, launchMs,
                  cached ? "cached load" : "first compile",
                  compileMs + loadMs + launchMs);
    }
    std::printf("softmax %dx%d: max relative error %.2e: %s\n", rows, cols, maxError,
                ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
  } catch (const rt::Error &e) {
    std::fprintf(stderr, "error (%s): %s\n", rt::toString(e.code()), e.what());
    return 2;
  } catch (const std::exception &e) { // out of host memory...
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}
