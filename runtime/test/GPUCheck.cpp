//===- GPUCheck.cpp - the runtime on a real GPU ---------------------------===//
//
//   llk-runtime-gpu-check PTX_DIR EXAMPLES_DIR
//
// PTX_DIR holds add.ptx (+ add.ptx.json) written by llkc; EXAMPLES_DIR the
// DSL sources. Checks: load + launch from PTX, the C interface, JIT from
// source with a memory-cache hit, autotuning (and its persisted winner),
// graph capture and replay, dynamic shared memory over 48 KB, and each
// launch-error path, a faulting kernel included (in a child process, since a
// fault ends the context). Prints a table and "N passed, M failed"; exits 1
// if any check failed. A check that loses the context anyway (a sticky
// error) is named as the cause, and the checks after it are "NOT RUN"
// (counted; exit 1). The cache directory is $LLK_CACHE_DIR.
//
//===----------------------------------------------------------------------===//

#include "llk/runtime.h"
#include "llk/runtime/JIT.h"

#include "CheckRun.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <sys/wait.h>
#include <unistd.h>

namespace rt = llk::rt;
using Clock = std::chrono::steady_clock;

static std::string ptxDir, examplesDir, selfPath;
/// The checks' statuses; after a sticky CUDA error, the rest do not run.
static rt::programs::CheckRun *checks = nullptr;

static double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

static void report(const std::string &name, rt::programs::CheckStatus status,
                   std::string detail) {
  for (char &c : detail)
    if (c == '\n') c = ' ';
  std::printf("| %-34s | %s | %s |\n", name.c_str(), rt::programs::toString(status),
              detail.c_str());
  std::fflush(stdout);
}

/// A check whose result `ok` and `detail` are known already.
static void row(const std::string &name, bool ok, const std::string &detail) {
  std::string shown;
  rt::programs::CheckStatus status = checks->run(
      name, [&](std::string &d) { d = detail; return ok; }, shown);
  report(name, status, shown);
}

/// Runs `body`; an exception fails the check with its message, a detail
/// that starts with "FAIL:" fails it with the rest.
static void check(const std::string &name, const std::function<std::string()> &body) {
  std::string detail;
  rt::programs::CheckStatus status = checks->run(
      name,
      [&](std::string &d) {
        d = body();
        bool ok = d.rfind("FAIL:", 0) != 0;
        if (!ok)
          d = d.substr(5);
        return ok;
      },
      detail);
  report(name, status, detail);
}

/// Expects `body` to throw an rt::Error with `code` whose message holds
/// `needle`.
static void expectError(const std::string &name, rt::ErrorCode code,
                        const std::string &needle,
                        const std::function<void()> &body) {
  std::string detail;
  rt::programs::CheckStatus status = checks->run(
      name,
      [&](std::string &d) {
        try {
          body();
        } catch (const rt::Error &e) {
          if (e.contextLost())
            throw; // not the error expected: the context is gone
          std::string what = e.what();
          if (what.size() > 150)
            what = what.substr(0, 150) + "...";
          d = std::string(rt::toString(e.code())) + ": " + what;
          return e.code() == code &&
                 std::string(e.what()).find(needle) != std::string::npos;
        }
        d = "no error";
        return false;
      },
      detail);
  report(name, status, detail);
}

static std::vector<float> randomFloats(size_t n, unsigned seed, float scale = 1.f) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> dist(0.f, scale);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(rng);
  return v;
}

static double softmaxError(const std::vector<float> &x, const std::vector<float> &y,
                           int rows, int cols) {
  double worst = 0;
  for (int r = 0; r < rows; ++r) {
    const float *in = &x[size_t(r) * cols];
    double m = -INFINITY, sum = 0;
    for (int c = 0; c < cols; ++c)
      m = std::max(m, double(in[c]));
    for (int c = 0; c < cols; ++c)
      sum += std::exp(in[c] - m);
    for (int c = 0; c < cols; ++c) {
      double want = std::exp(in[c] - m) / sum;
      worst = std::max(worst, std::abs(y[size_t(r) * cols + c] - want) / want);
    }
  }
  return worst;
}

static char buffer[256];
template <typename... T> static std::string format(const char *f, T... args) {
  std::snprintf(buffer, sizeof buffer, f, args...);
  return buffer;
}

/// Child process: a kernel that faults (stores through a bogus address).
static int childIllegalAddress() {
  try {
    rt::Device device = rt::Device::open(0);
    rt::Module m = rt::Module::loadPTXFile(device, ptxDir + "/add.ptx");
    rt::Kernel add = m.kernel("add_kernel");
    rt::DeviceBuffer<float> x(device, 1 << 20);
    rt::LaunchOptions wait;
    wait.synchronize = true;
    add.launch(256, {x, x, rt::Arg::pointer(0x10, rt::ScalarType::F32), 1 << 20}, wait);
    std::printf("no error\n");
    return 1;
  } catch (const rt::Error &e) {
    std::printf("%s|%s|%s\n", e.cudaName().c_str(), e.kernel().c_str(), e.what());
    return 0;
  }
}

static std::string runChild(const std::string &mode) {
  int pipefd[2];
  if (pipe(pipefd) != 0)
    return "pipe failed";
  pid_t pid = fork();
  if (pid == 0) {
    dup2(pipefd[1], 1);
    close(pipefd[0]);
    execl(selfPath.c_str(), selfPath.c_str(), ptxDir.c_str(), examplesDir.c_str(),
          mode.c_str(), static_cast<char *>(nullptr));
    _exit(127);
  }
  close(pipefd[1]);
  std::string out;
  char chunk[512];
  ssize_t n;
  while ((n = read(pipefd[0], chunk, sizeof chunk)) > 0)
    out.append(chunk, n);
  close(pipefd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return out;
}

static int run(int argc, char **argv) {
  if (argc < 3 || argc > 4 ||
      (argc == 4 && std::string(argv[3]) != "--child=illegal-address")) {
    std::fprintf(stderr, "usage: %s PTX_DIR EXAMPLES_DIR\n", argv[0]);
    return 2;
  }
  ptxDir = argv[1];
  examplesDir = argv[2];
  char self[4096] = {};
  if (readlink("/proc/self/exe", self, sizeof self - 1) <= 0)
    return 2;
  selfPath = self;
  if (argc == 4)
    return childIllegalAddress();

  std::string why;
  if (!rt::driverAvailable(&why)) {
    std::printf("no driver: %s\n", why.c_str());
    return 1;
  }
  rt::Device device = rt::Device::open(0);
  std::printf("device: %s (%s), driver API %d; limits: grid (%u, %u, %u), "
              "shared memory per block %u B (opt-in %u B)\n\n",
              device.name().c_str(), device.arch().c_str(), device.driverVersion(),
              device.limits().maxGrid[0], device.limits().maxGrid[1],
              device.limits().maxGrid[2], device.limits().sharedPerBlock,
              device.limits().sharedPerBlockOptin);
  std::printf("| check | result | detail |\n|---|---|---|\n");
  // cuCtxSynchronize after each check: a fault it left behind is its own.
  rt::programs::CheckRun checkRun([&device] { device.synchronize(); });
  checks = &checkRun;

  const int n = 1 << 22; // vector add size
  std::vector<float> hx = randomFloats(n, 1), hy = randomFloats(n, 2);
  rt::DeviceBuffer<float> x(device, n), y(device, n), out(device, n);
  x.copyFrom(hx);
  y.copyFrom(hy);
  std::optional<rt::Module> addModule;
  std::optional<rt::Kernel> add;
  auto checkAdd = [&](const std::vector<float> &got) {
    for (int i = 0; i < n; ++i)
      if (got[i] != hx[i] + hy[i])
        return format("FAIL:mismatch at %d: %g != %g", i, got[i], hx[i] + hy[i]);
    return std::string();
  };

  // 1. Load + launch from llkc's PTX and metadata.
  check("load PTX file + launch (vector add)", [&] {
    auto t = Clock::now();
    addModule = rt::Module::loadPTXFile(device, ptxDir + "/add.ptx");
    double loadMs = msSince(t);
    add = addModule->kernel("add_kernel");
    unsigned block = unsigned(addModule->info().constants.at("BLOCK").getInteger());
    out.fillBytes(0);
    t = Clock::now();
    add->launch((n + block - 1) / block, {x, y, out, n});
    device.synchronize();
    double launchMs = msSince(t);
    std::string bad = checkAdd(out.toVector());
    if (!bad.empty())
      return bad;
    return format("%s: cuModuleLoad %.2f ms, launch+sync %.3f ms, %d elements exact",
                  add->info().signature().c_str(), loadMs, launchMs, n);
  });

  // 2. The C interface.
  check("C API: load + launch + copy", [&] {
    llk_device dev;
    llk_module mod;
    llk_kernel k;
    llk_buffer b;
    if (llk_device_open(0, &dev) != LLK_SUCCESS)
      return std::string("FAIL:") + llk_last_error();
    std::string path = ptxDir + "/add.ptx";
    if (llk_module_load_ptx_file(dev, path.c_str(), &mod) != LLK_SUCCESS ||
        llk_module_get_kernel(mod, "add_kernel", &k) != LLK_SUCCESS ||
        llk_buffer_create(dev, size_t(n) * 4, &b) != LLK_SUCCESS)
      return std::string("FAIL:") + llk_last_error();
    llk_arg args[] = {llk_arg_ptr(x.address(), LLK_F32), llk_arg_ptr(y.address(), LLK_F32),
                      llk_arg_ptr(llk_buffer_address(b), LLK_F32), llk_arg_i32(n)};
    unsigned grid[3] = {unsigned(n / 4096), 1, 1};
    std::vector<float> got(n);
    if (llk_kernel_launch(k, grid, args, 4, nullptr, 0) != LLK_SUCCESS ||
        llk_buffer_copy_to_host(b, got.data(), size_t(n) * 4) != LLK_SUCCESS)
      return std::string("FAIL:") + llk_last_error();
    llk_arg wrong[] = {llk_arg_i32(1)};
    llk_status s = llk_kernel_launch(k, grid, wrong, 1, nullptr, 0);
    std::string err = llk_last_error();
    // The module's handle goes first: the kernel keeps the module loaded.
    bool destroyed = llk_module_destroy(mod) == LLK_SUCCESS &&
                     llk_kernel_launch(k, grid, args, 4, nullptr, 0) == LLK_SUCCESS &&
                     llk_buffer_destroy(b) == LLK_SUCCESS &&
                     llk_kernel_destroy(k) == LLK_SUCCESS &&
                     llk_device_destroy(dev) == LLK_SUCCESS;
    // Stale handles are errors, not uses of freed memory.
    bool stale = llk_kernel_launch(k, grid, args, 4, nullptr, 0) ==
                     LLK_ERROR_INVALID_ARGUMENT &&
                 llk_module_destroy(mod) == LLK_ERROR_INVALID_ARGUMENT &&
                 llk_buffer_address(b) == 0 &&
                 llk_synchronize(dev) == LLK_ERROR_INVALID_ARGUMENT;
    std::string bad = checkAdd(got);
    if (!bad.empty())
      return bad;
    if (s != LLK_ERROR_INVALID_ARGUMENT)
      return std::string("FAIL:bad arguments not reported");
    if (!destroyed)
      return std::string("FAIL:destroy or a launch after the module's: ") + llk_last_error();
    if (!stale)
      return std::string("FAIL:a stale handle was not reported");
    return std::string("results exact; bad arguments, stale handles -> "
                       "LLK_ERROR_INVALID_ARGUMENT");
  });

  // 3. JIT from source; the second compile is a memory hit.
  rt::JIT jit(device);
  rt::Source softmaxSource = rt::Source::fromFile(examplesDir + "/softmax.mlir");
  const int rows = 4096, cols = 4096;
  std::vector<float> hs = randomFloats(size_t(rows) * cols, 3, 4.f);
  rt::DeviceBuffer<float> sIn(device, hs.size()), sOut(device, hs.size());
  sIn.copyFrom(hs);
  check("JIT softmax from source", [&] {
    rt::JITOptions o;
    o.constants["BLOCK"] = 4096;
    o.numWarps = 4;
    auto t = Clock::now();
    rt::Kernel k = jit.compile(softmaxSource, o);
    double ms = msSince(t);
    bool hit = jit.compileCount() == 0;
    k.launch(rows, {sOut, sIn, cols, cols, cols});
    double err = softmaxError(hs, sOut.toVector(), rows, cols);
    if (err > 1e-5)
      return format("FAIL:max relative error %.2e", err);
    t = Clock::now();
    rt::Kernel again = jit.compile(softmaxSource, o);
    double memMs = msSince(t);
    return format("%s %.1f ms (%s), memory hit %.3f ms, max rel error %.1e, smem %lld B",
                  hit ? "disk hit + load" : "compile + load", ms,
                  hit ? "cached" : "compiled", memMs, err,
                  (long long)again.sharedBytes());
  });

  // 3b. The disk cache's cubins: a JIT with a fresh cache object over the
  // same directory (what a second process sees) loads them, with no PTX JIT
  // in the driver; the same PTX loaded for comparison (the driver's own
  // ComputeCache may shorten that).
  check("cached cubin load vs PTX load", [&] {
    rt::JITOptions gemmOptions;
    gemmOptions.constants = {{"T", llk::ElementType::F16},
                             {"BLOCK_M", 128}, {"BLOCK_N", 128}, {"BLOCK_K", 32}};
    gemmOptions.numWarps = 8;
    rt::Source gemm = rt::Source::fromFile(examplesDir + "/gemm.mlir");
    rt::CompiledModule compiled = jit.compileModule(gemm, gemmOptions);
    if (compiled.cubin.empty())
      return "FAIL:no cubin in the cache: " + jit.lastCubinIssue();
    rt::JIT second(device, std::make_shared<rt::Cache>(jit.cache().directory()));
    rt::JITOptions o;
    o.constants["BLOCK"] = 4096;
    o.numWarps = 4;
    auto t = Clock::now();
    rt::Kernel k = second.compile(softmaxSource, o);
    double softmaxMs = msSince(t);
    t = Clock::now();
    second.load(gemm, gemmOptions);
    double cubinMs = msSince(t);
    if (second.cubinLoads() != 2 || second.compileCount() != 0)
      return format("FAIL:%u cubin loads, %u compiles: %s", second.cubinLoads(),
                    second.compileCount(), second.lastCubinIssue().c_str());
    k.launch(rows, {sOut, sIn, cols, cols, cols});
    double err = softmaxError(hs, sOut.toVector(), rows, cols);
    if (err > 1e-5)
      return format("FAIL:softmax from its cubin: max relative error %.2e", err);
    t = Clock::now();
    rt::Module::loadPTX(device, compiled.ptx, compiled.metadataJson);
    double ptxMs = msSince(t);
    return format("disk hit + cubin load: softmax %.2f ms, gemm 128x128x32 %.2f ms "
                  "(its PTX: %.2f ms); softmax from cubin: max rel error %.1e",
                  softmaxMs, cubinMs, ptxMs, err);
  });

  // 4. Autotuning, then the persisted winner in a new tuner.
  check("autotune softmax num_warps 1..16 (L2 flushed, medians)", [&] {
    std::vector<rt::Config> configs;
    for (unsigned w : {1u, 2u, 4u, 8u, 16u})
      configs.push_back({{{"BLOCK", 4096}}, w});
    auto grid = [&](const rt::Config &) { return rt::Grid(rows); };
    std::string key = "rows=4096 cols=4096 f32";
    rt::Autotuner tuner(jit, softmaxSource, "softmax_kernel", configs, grid);
    const rt::Autotuner::Result &r = tuner.tune(key, {sOut, sIn, cols, cols, cols});
    std::string times;
    for (size_t i = 0; i < configs.size(); ++i)
      times += i < r.timings.size() && r.timings[i].reps
                   ? format("%sw%u=%.1fus (p20 %.1f, p80 %.1f, %d reps)", i ? " " : "",
                            configs[i].numWarps, r.ms[i] * 1e3, r.timings[i].p20 * 1e3,
                            r.timings[i].p80 * 1e3, r.timings[i].reps)
                   : format("%sw%u=%.1fus", i ? " " : "", configs[i].numWarps, r.ms[i] * 1e3);
    tuner.launch(key, {sOut, sIn, cols, cols, cols});
    double err = softmaxError(hs, sOut.toVector(), rows, cols);
    rt::Autotuner again(jit, softmaxSource, "softmax_kernel", configs, grid);
    const rt::Autotuner::Result &r2 = again.tune(key, {sOut, sIn, cols, cols, cols});
    if (err > 1e-5)
      return format("FAIL:winner's result wrong: %.2e", err);
    if (!r2.fromCache || r2.best != r.best)
      return std::string("FAIL:winner not persisted");
    return std::string(r.fromCache ? "(winner from disk) " : "") + times + "; best " +
           configs[r.best].str() + "; reloaded from cache";
  });

  // 5. Graph capture and replay: 16 in-place adds, replayed 10 times.
  check("graph capture + replay (16 launches)", [&] {
    rt::Stream stream(device);
    rt::DeviceBuffer<float> acc(device, n);
    acc.copyFrom(hx);
    rt::LaunchOptions on;
    on.stream = &stream;
    unsigned grid = n / 4096;
    rt::Graph graph = rt::Graph::capture(stream, [&] {
      for (int i = 0; i < 16; ++i)
        add->launch(grid, {acc, y, acc, n}, on);
    });
    rt::Event start(device), end(device);
    start.record(&stream);
    for (int r = 0; r < 10; ++r)
      graph.launch(stream);
    end.record(&stream);
    end.synchronize();
    float graphMs = rt::Event::elapsedMs(start, end);
    std::vector<float> got = acc.toVector();
    for (int i = 0; i < n; ++i) {
      float want = hx[i];
      for (int k = 0; k < 160; ++k)
        want += hy[i];
      if (got[i] != want)
        return format("FAIL:mismatch at %d: %g != %g", i, got[i], want);
    }
    start.record(&stream);
    for (int r = 0; r < 160; ++r)
      add->launch(grid, {acc, y, acc, n}, on);
    end.record(&stream);
    end.synchronize();
    float directMs = rt::Event::elapsedMs(start, end);
    return format("%zu nodes; 160 launches: graph %.3f ms, direct %.3f ms; exact",
                  graph.nodeCount(), graphMs, directMs);
  });

  // 5b. Programmatic dependent launch: 64 additions of ones ping-ponging
  // between two buffers (the decode step's add, examples/llama/binary.mlir),
  // each reading what the one before wrote, as a graph of dependent launches
  // and as a plain graph; both must give x + 1 + 1 ... exactly.
  check("dependent launches (griddepcontrol) in a graph, 64 chained", [&] {
    rt::JIT jit(device);
    rt::JITOptions options;
    options.constants["BLOCK"] = 1024;
    options.constants["OP"] = 0;
    rt::Kernel inc = jit.compile(
        rt::Source::fromFile(examplesDir + "/llama/binary.mlir"), options);
    if (!inc.info().gridDependencyWait)
      return std::string("FAIL:metadata does not record the wait");
    const int m = 1 << 20;
    rt::DeviceBuffer<float> a(device, m), b(device, m), ones(device, m);
    ones.copyFrom(std::vector<float>(m, 1.0f));
    rt::Stream stream(device);
    std::string detail;
    for (bool dependent : {true, false}) {
      rt::LaunchOptions on;
      on.stream = &stream;
      on.dependentLaunch = dependent;
      rt::Graph graph = rt::Graph::capture(stream, [&] {
        for (int i = 0; i < 64; ++i)
          inc.launch(m / 1024, {i % 2 ? b : a, ones, i % 2 ? a : b, m}, on);
      });
      a.copyFrom(hx.data(), m);
      b.fillBytes(0xff);
      device.synchronize();
      graph.launch(stream);
      stream.synchronize();
      std::vector<float> got = a.toVector();
      for (int i = 0; i < m; ++i) {
        float want = hx[i];
        for (int k = 0; k < 64; ++k)
          want += 1.0f;
        if (got[i] != want)
          return format("FAIL:%s: mismatch at %d: %g != %g",
                        dependent ? "dependent" : "plain", i, got[i], want);
      }
      rt::Event start(device), end(device);
      graph.launch(stream); // warm
      start.record(&stream);
      for (int r = 0; r < 20; ++r)
        graph.launch(stream);
      end.record(&stream);
      end.synchronize();
      detail += format("%s %.2f us a kernel; ", dependent ? "dependent" : "plain",
                       rt::Event::elapsedMs(start, end) * 1e3 / (20 * 64));
    }
    return detail + "exact";
  });

  // 6. Dynamic shared memory past 48 KB raises the kernel's limit.
  check("dynamic shared memory 100 KB", [&] {
    rt::LaunchOptions big;
    big.dynamicSharedBytes = 100 * 1024;
    out.fillBytes(0);
    add->launch(n / 4096, {x, y, out, n}, big);
    device.synchronize();
    std::string bad = checkAdd(out.toVector());
    return bad.empty() ? std::string("launched with 102400 B dynamic; exact") : bad;
  });

  // 6b. TMA: examples/gemm_tma.mlir for sm_90a, its A and B descriptors
  // encoded by the runtime from the kernel's metadata, on a shape that is
  // no multiple of the blocks (TMA fills the edges with zeros). Inputs are
  // multiples of 1/4 in [-4, 4], exact in f16; the reference is float64.
  check("JIT gemm_tma (sm_90a) with runtime tensor maps", [&] {
    if (device.computeCapabilityMajor() < 9)
      return std::string("skipped: needs sm_90a");
    const int M = 300, N = 264, K = 200;
    rt::JITOptions o;
    o.constants["T"] = llk::ElementType::F16;
    o.constants["BLOCK_M"] = 128;
    o.constants["BLOCK_N"] = 128;
    o.constants["BLOCK_K"] = 64;
    o.numWarps = 4;
    o.numStages = 3;
    o.arch = "sm_90a";
    rt::Kernel k = jit.compile(rt::Source::fromFile(examplesDir + "/gemm_tma.mlir"), o);
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> quarter(-16, 16);
    std::vector<int> qa(size_t(M) * K), qb(size_t(K) * N);
    std::vector<rt::Half> ha(qa.size()), hb(qb.size());
    for (size_t i = 0; i < qa.size(); ++i)
      ha[i].bits = rt::toHalfBits((qa[i] = quarter(rng)) * 0.25f);
    for (size_t i = 0; i < qb.size(); ++i)
      hb[i].bits = rt::toHalfBits((qb[i] = quarter(rng)) * 0.25f);
    rt::DeviceBuffer<rt::Half> a(device, ha.size()), b(device, hb.size()),
        c(device, size_t(M) * N);
    a.copyFrom(ha);
    b.copyFrom(hb);
    c.fillBytes(0xff); // NaN: every element must be written
    const auto &params = k.info().params;
    rt::TensorMap aMap(device, params[0], a.address(), M, K, K * 2);
    rt::TensorMap bMap(device, params[1], b.address(), K, N, N * 2);
    k.launch({(M + 127) / 128, (N + 127) / 128, 1}, {aMap, bMap, c, M, N, K, N});
    std::vector<rt::Half> hc = c.toVector();
    double num = 0, den = 0;
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        double want = 0;
        for (int l = 0; l < K; ++l)
          want += qa[size_t(i) * K + l] * 0.25 * qb[size_t(l) * N + j] * 0.25;
        double got = rt::fromHalfBits(hc[size_t(i) * N + j].bits);
        num += (got - want) * (got - want);
        den += want * want;
      }
    double err = std::sqrt(num / den);
    if (!(err < 2e-3))
      return format("FAIL:relative error %.2e", err);
    return format("%dx%dx%d, boxes %lldx%lld and %lldx%lld; relative error %.1e", M,
                  N, K, (long long)params[0].tmaBox[0], (long long)params[0].tmaBox[1],
                  (long long)params[1].tmaBox[0], (long long)params[1].tmaBox[1], err);
  });
  expectError("error: buffer for a tensor descriptor", rt::ErrorCode::InvalidArgument,
              "the parameter is tensordesc<f16>", [&] {
                if (device.computeCapabilityMajor() < 9)
                  throw rt::Error(rt::ErrorCode::InvalidArgument,
                                  "the parameter is tensordesc<f16> (skipped)");
                rt::JITOptions o;
                o.constants["T"] = llk::ElementType::F16;
                o.constants["BLOCK_M"] = 64;
                o.constants["BLOCK_N"] = 64;
                o.constants["BLOCK_K"] = 64;
                o.arch = "sm_90a";
                rt::Kernel k = jit.compile(
                    rt::Source::fromFile(examplesDir + "/gemm_tma.mlir"), o);
                rt::DeviceBuffer<rt::Half> buffer(device, 64 * 64);
                k.launch(1, {buffer, buffer, buffer, 64, 64, 64, 64});
              });

  // 7. Each error path.
  expectError("error: wrong argument count", rt::ErrorCode::InvalidArgument,
              "expected 4 arguments, got 3", [&] { add->launch(1, {x, y, out}); });
  expectError("error: scalar for a pointer", rt::ErrorCode::InvalidArgument,
              "argument 2 is i32 but the parameter is ptr<f32>",
              [&] { add->launch(1, {x, y, 5, n}); });
  expectError("error: wrong element type", rt::ErrorCode::InvalidArgument,
              "ptr<i32> but the parameter is ptr<f32>", [&] {
                rt::DeviceBuffer<int32_t> ints(device, 16);
                add->launch(1, {x, y, ints, n});
              });
  expectError("error: i64 for an i32", rt::ErrorCode::InvalidArgument,
              "argument 3 is i64", [&] { add->launch(1, {x, y, out, int64_t(n)}); });
  // Refused before the launch, which would fault (and lose the context).
  expectError("error: misaligned pointer (contract)", rt::ErrorCode::InvalidArgument,
              "is not 16-byte aligned as its tile.divisibility = 16 promises", [&] {
                add->launch(1, {x, y, rt::Arg::pointer(out.address() + 4, rt::ScalarType::F32),
                                n});
              });
  expectError("error: zero grid", rt::ErrorCode::InvalidArgument, "zero dimension",
              [&] { add->launch(0, {x, y, out, n}); });
  expectError("error: grid over the limit", rt::ErrorCode::InvalidArgument,
              "over the device's limit",
              [&] { add->launch({1, 65536, 1}, {x, y, out, n}); });
  expectError("error: shared memory over the limit", rt::ErrorCode::InvalidArgument,
              "dynamic shared memory is over", [&] {
                rt::LaunchOptions o;
                o.dynamicSharedBytes = 1 << 20;
                add->launch(1, {x, y, out, n}, o);
              });
  expectError("error: unknown kernel", rt::ErrorCode::NotFound, "no kernel 'nope'",
              [&] { addModule->kernel("nope"); });
  expectError("error: PTX without metadata", rt::ErrorCode::NotFound, ".json",
              [&] { rt::Module::loadPTXFile(device, ptxDir + "/no-such.ptx"); });
  expectError("error: invalid PTX (JIT log)", rt::ErrorCode::Compile, "PTX JIT log", [&] {
    std::string ptx = ".version 8.0\n.target sm_90\n.address_size 64\n"
                      ".visible .entry broken() { bogus.instruction; }\n";
    rt::ModuleInfo info;
    info.arch = "sm_90";
    rt::Module::loadPTX(device, ptx, info);
  });
  expectError("error: module for another arch", rt::ErrorCode::InvalidArgument,
              "compiled for sm_90a", [&] {
                if (device.arch() == "sm_90")
                  throw rt::Error(rt::ErrorCode::InvalidArgument,
                                  "compiled for sm_90a: skipped (an sm_90 device)");
                rt::ModuleInfo info;
                info.arch = "sm_90a";
                rt::Module::loadPTX(device, ".version 8.0\n.target sm_90a\n", info);
              });
  expectError("error: compile error from the JIT", rt::ErrorCode::Compile,
              "constant 'BLOCK' is not bound",
              [&] { jit.compile(softmaxSource, rt::JITOptions{}); });
  {
    std::string out = runChild("--child=illegal-address");
    bool ok = out.find("CUDA_ERROR_ILLEGAL_ADDRESS|add_kernel|") == 0;
    if (!out.empty() && out.back() == '\n')
      out.pop_back();
    row("error: faulting kernel (child)", ok, out);
  }

  std::printf("\n%s\n", checkRun.summary().c_str());
  return checkRun.exitCode();
}

int main(int argc, char **argv) {
  // Outside the checks (opening the device, the inputs): an error, not an
  // abort.
  try {
    return run(argc, argv);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "llk-runtime-gpu-check: %s\n", e.what());
    return 2;
  }
}
