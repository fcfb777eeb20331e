// examples_check: correctness check + bandwidth benchmark for the three llk
// acceptance example kernels (add, softmax, rms_norm), loaded from PTX that
// llkc produced, through the CUDA driver API only.
//
// Usage: examples_check [PTX_DIR] [--seed N]
//   PTX_DIR defaults to build/gpu-ptx. Expected files:
//     add_b4096_w4.ptx, softmax_b4096_w{4,8,16}.ptx, rms_norm_b4096_w{4,8,16}.ptx
//   --seed replays a previous run's inputs (the seed is printed at start).
//
// Kernel ABI: entry = kernel name; params in source order (pointers are .u64
// device addresses, i32 / f32 scalars by value); block = (W*32,1,1), grid =
// (#programs,1,1), no dynamic shared memory.
//
// Build (see scripts/gpu-run-examples.sh):
//   g++ -O2 -std=c++17 -I/usr/local/cuda/include examples_check.cpp
//       -L/usr/local/cuda/lib64 -lcuda
// Exit status is non-zero if any check fails or any driver call fails.

#include <cuda.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

// ---------------------------------------------------------------------------
// Driver error handling: every call goes through CU_CHECK.

std::string g_context;  // what we were doing, printed with a driver failure

[[noreturn]] void cuFail(CUresult st, const char* call, const char* file, int line) {
  std::fflush(stdout);  // keep the progress log ahead of the error
  const char* name = nullptr;
  const char* text = nullptr;
  // Not CU_CHECKed: these would recurse; fall back to placeholders instead.
  if (cuGetErrorName(st, &name) != CUDA_SUCCESS || !name) name = "<unknown>";
  if (cuGetErrorString(st, &text) != CUDA_SUCCESS || !text) text = "<no description>";
  std::fprintf(stderr, "%s:%d: CUDA driver call failed: %s\n  -> %s (%d): %s\n", file, line,
               call, name, static_cast<int>(st), text);
  if (!g_context.empty()) std::fprintf(stderr, "  while: %s\n", g_context.c_str());
  std::exit(2);
}

#define CU_CHECK(call)                                                \
  do {                                                                \
    CUresult cu_check_st_ = (call);                                   \
    if (cu_check_st_ != CUDA_SUCCESS)                                 \
      cuFail(cu_check_st_, #call, __FILE__, __LINE__);                \
  } while (0)

// ---------------------------------------------------------------------------
// Constants shared by all specs.

constexpr int kBlock = 4096;          // BLOCK of every specialization we load
constexpr int kWarmup = 3;            // untimed launches before timing
constexpr int kReps = 20;             // timed launches, each with its own events
constexpr double kRelTol = 1e-5;      // f32 math vs float64 reference
constexpr size_t kGuard = kBlock;     // poisoned floats past the output end:
                                      // catches stores that ignore the mask
constexpr size_t kCopyBytes = 256ull << 20;  // D2D copy: 256 MiB src + 256 MiB dst
constexpr float kEps = 1e-5f;         // rms_norm epsilon

// ---------------------------------------------------------------------------
// RAII wrappers so every allocation is freed, even on early returns.

class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t bytes) : bytes_(bytes) { CU_CHECK(cuMemAlloc(&ptr_, bytes)); }
  ~DeviceBuffer() {
    if (ptr_) CU_CHECK(cuMemFree(ptr_));
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(o.ptr_), bytes_(o.bytes_) { o.ptr_ = 0; }
  CUdeviceptr get() const { return ptr_; }
  size_t bytes() const { return bytes_; }

 private:
  CUdeviceptr ptr_ = 0;
  size_t bytes_ = 0;
};

class Module {
 public:
  Module() = default;
  ~Module() {
    if (mod_) CU_CHECK(cuModuleUnload(mod_));
  }
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;
  CUmodule* out() { return &mod_; }
  CUmodule get() const { return mod_; }

 private:
  CUmodule mod_ = nullptr;
};

// kReps start/stop event pairs, created once and reused by every timing loop.
class EventPairs {
 public:
  EventPairs() : start_(kReps), stop_(kReps) {
    for (int i = 0; i < kReps; ++i) {
      CU_CHECK(cuEventCreate(&start_[i], CU_EVENT_DEFAULT));
      CU_CHECK(cuEventCreate(&stop_[i], CU_EVENT_DEFAULT));
    }
  }
  ~EventPairs() {
    for (int i = 0; i < kReps; ++i) {
      CU_CHECK(cuEventDestroy(start_[i]));
      CU_CHECK(cuEventDestroy(stop_[i]));
    }
  }
  EventPairs(const EventPairs&) = delete;
  EventPairs& operator=(const EventPairs&) = delete;

  // Runs `op` kWarmup times untimed, then kReps times each bracketed by its own
  // event pair on the legacy default stream (where `op` must enqueue its work).
  // Returns the median in microseconds.
  double medianUs(const std::function<void()>& op) {
    for (int i = 0; i < kWarmup; ++i) op();
    for (int i = 0; i < kReps; ++i) {
      CU_CHECK(cuEventRecord(start_[i], nullptr));
      op();
      CU_CHECK(cuEventRecord(stop_[i], nullptr));
    }
    CU_CHECK(cuEventSynchronize(stop_[kReps - 1]));
    std::vector<double> us(kReps);
    for (int i = 0; i < kReps; ++i) {
      float ms = 0.f;
      CU_CHECK(cuEventElapsedTime(&ms, start_[i], stop_[i]));
      us[i] = 1e3 * ms;
    }
    std::sort(us.begin(), us.end());
    return 0.5 * (us[(kReps - 1) / 2] + us[kReps / 2]);
  }

 private:
  std::vector<CUevent> start_, stop_;
};

// Kernel parameter values; cuLaunchKernel wants an array of pointers to them.
class ArgPack {
 public:
  void ptr(CUdeviceptr v) { push(&v, sizeof v); }
  void i32(int32_t v) { push(&v, sizeof v); }
  void f32(float v) { push(&v, sizeof v); }
  // Only valid while no more arguments are pushed (slots_ must not reallocate).
  void** params() {
    ptrs_.clear();
    for (Slot& s : slots_) ptrs_.push_back(s.bytes);
    return ptrs_.data();
  }

 private:
  struct alignas(8) Slot {
    unsigned char bytes[8];
  };
  void push(const void* v, size_t n) {
    Slot s{};
    std::memcpy(s.bytes, v, n);
    slots_.push_back(s);
  }
  std::vector<Slot> slots_;
  std::vector<void*> ptrs_;
};

// ---------------------------------------------------------------------------
// Kernel specs. Each kernel supplies a factory that, for one shape, makes
// fresh random inputs, the float64 reference and the launch arguments; the
// generic runCheck() does everything else.

struct Shape {
  int64_t rows, cols;  // add uses rows = 1, cols = n
  std::string label;
  bool headline;       // the 16384x4096 shape judged against copy bandwidth
};

struct Problem {
  std::vector<std::vector<float>> inputs;  // uploaded to one device buffer each, in order
  size_t out_elems = 0;                    // dense float output
  std::vector<double> ref;                 // float64 reference, out_elems values
  unsigned grid = 0;                       // number of programs
  double bytes = 0;                        // bytes moved per launch (for GB/s)
  // Pushes the kernel parameters in source order.
  std::function<void(ArgPack&, CUdeviceptr out, const std::vector<CUdeviceptr>& in)> bind;
};

struct KernelSpec {
  std::string name;        // PTX entry name
  std::string file_stem;   // file = <stem>_w<W>.ptx
  std::vector<int> warps;  // num_warps variants to try
  std::vector<Shape> shapes;
  std::function<Problem(const Shape&, std::mt19937_64&)> make;
};

std::vector<float> normal(size_t n, float mean, float stddev, std::mt19937_64& rng) {
  std::normal_distribution<float> dist(mean, stddev);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

Problem makeAdd(const Shape& s, std::mt19937_64& rng) {
  const size_t n = static_cast<size_t>(s.cols);
  Problem p;
  p.inputs.push_back(normal(n, 0.f, 1.f, rng));
  p.inputs.push_back(normal(n, 0.f, 1.f, rng));
  const std::vector<float>& x = p.inputs[0];
  const std::vector<float>& y = p.inputs[1];
  p.out_elems = n;
  p.ref.resize(n);
  for (size_t i = 0; i < n; ++i) p.ref[i] = double(x[i]) + double(y[i]);
  p.grid = static_cast<unsigned>((n + kBlock - 1) / kBlock);
  p.bytes = 3.0 * double(n) * 4;
  p.bind = [n](ArgPack& a, CUdeviceptr out, const std::vector<CUdeviceptr>& in) {
    a.ptr(in[0]);  // x
    a.ptr(in[1]);  // y
    a.ptr(out);
    a.i32(static_cast<int32_t>(n));
  };
  return p;
}

Problem makeSoftmax(const Shape& s, std::mt19937_64& rng) {
  const size_t rows = s.rows, cols = s.cols;
  Problem p;
  // N(0, 3) so the max subtraction matters; one row gets +80 so that exp()
  // without the max subtraction would overflow f32 (exp(88.7) > FLT_MAX).
  p.inputs.push_back(normal(rows * cols, 0.f, 3.f, rng));
  std::vector<float>& x = p.inputs[0];
  const size_t hot = std::uniform_int_distribution<size_t>(0, rows - 1)(rng);
  for (size_t c = 0; c < cols; ++c) x[hot * cols + c] += 80.f;
  std::printf("    (row %zu offset by +80)\n", hot);

  p.out_elems = rows * cols;
  p.ref.resize(rows * cols);
  for (size_t r = 0; r < rows; ++r) {
    const float* xr = &x[r * cols];
    double* yr = &p.ref[r * cols];
    double m = -std::numeric_limits<double>::infinity();
    for (size_t c = 0; c < cols; ++c) m = std::max(m, double(xr[c]));
    double sum = 0;
    for (size_t c = 0; c < cols; ++c) sum += (yr[c] = std::exp(double(xr[c]) - m));
    for (size_t c = 0; c < cols; ++c) yr[c] /= sum;
  }
  p.grid = static_cast<unsigned>(rows);
  p.bytes = 2.0 * double(rows) * double(cols) * 4;
  p.bind = [cols](ArgPack& a, CUdeviceptr out, const std::vector<CUdeviceptr>& in) {
    a.ptr(out);
    a.ptr(in[0]);
    a.i32(static_cast<int32_t>(cols));  // in_row_stride (dense rows)
    a.i32(static_cast<int32_t>(cols));  // out_row_stride
    a.i32(static_cast<int32_t>(cols));  // n_cols
  };
  return p;
}

Problem makeRmsNorm(const Shape& s, std::mt19937_64& rng) {
  const size_t rows = s.rows, cols = s.cols;
  Problem p;
  p.inputs.push_back(normal(rows * cols, 0.f, 1.f, rng));  // x
  p.inputs.push_back(normal(cols, 1.f, 0.5f, rng));        // gamma
  const std::vector<float>& x = p.inputs[0];
  const std::vector<float>& g = p.inputs[1];
  const double eps = double(kEps);  // the exact f32 value the kernel receives
  p.out_elems = rows * cols;
  p.ref.resize(rows * cols);
  for (size_t r = 0; r < rows; ++r) {
    const float* xr = &x[r * cols];
    double ss = 0;
    for (size_t c = 0; c < cols; ++c) ss += double(xr[c]) * double(xr[c]);
    const double inv = 1.0 / std::sqrt(ss / double(cols) + eps);
    for (size_t c = 0; c < cols; ++c) p.ref[r * cols + c] = double(xr[c]) * inv * double(g[c]);
  }
  p.grid = static_cast<unsigned>(rows);
  p.bytes = 2.0 * double(rows) * double(cols) * 4 + double(cols) * 4;
  p.bind = [cols](ArgPack& a, CUdeviceptr out, const std::vector<CUdeviceptr>& in) {
    a.ptr(out);
    a.ptr(in[0]);                       // x
    a.ptr(in[1]);                       // gamma
    a.i32(static_cast<int32_t>(cols));  // row_stride (dense rows)
    a.i32(static_cast<int32_t>(cols));  // n_cols
    a.f32(kEps);
  };
  return p;
}

std::vector<Shape> rowShapes() {
  return {{1, 4096, "1x4096", false},
          {512, 4096, "512x4096", false},
          {16384, 4096, "16384x4096", true},
          {16384, 4000, "16384x4000", false}};  // masked, non-power-of-two width
}

std::vector<KernelSpec> specs() {
  return {
      {"add_kernel", "add_b4096", {4},
       {{1, 4096, "n=4096", false},
        {1, 512 * 4096, "n=512*4096", false},
        {1, 16384 * 4096, "n=16384*4096", true},
        {1, 16384 * 4000 + 17, "n=16384*4000+17", false}},  // masked tail
       makeAdd},
      {"softmax_kernel", "softmax_b4096", {4, 8, 16}, rowShapes(), makeSoftmax},
      {"rms_norm_kernel", "rms_norm_b4096", {4, 8, 16}, rowShapes(), makeRmsNorm},
  };
}

// ---------------------------------------------------------------------------
// Loading and running.

bool readFile(const std::string& path, std::string& out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::ostringstream ss;
  ss << f.rdbuf();
  out = ss.str();
  return true;
}

// Loads PTX text with JIT logs; prints the error log and exits on failure.
void loadPtx(Module& mod, const std::string& path, const std::string& ptx) {
  constexpr size_t kLogSize = 1 << 16;
  std::vector<char> err_log(kLogSize, 0), info_log(kLogSize, 0);
  CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                         CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void* vals[] = {err_log.data(), reinterpret_cast<void*>(static_cast<uintptr_t>(kLogSize)),
                  info_log.data(), reinterpret_cast<void*>(static_cast<uintptr_t>(kLogSize))};
  CUresult st = cuModuleLoadDataEx(mod.out(), ptx.c_str(), 4, opts, vals);
  if (st != CUDA_SUCCESS) {
    std::fflush(stdout);
    std::fprintf(stderr, "JIT of %s failed. Error log:\n%s\nInfo log:\n%s\n", path.c_str(),
                 err_log.data(), info_log.data());
    cuFail(st, "cuModuleLoadDataEx", __FILE__, __LINE__);
  }
  if (info_log[0]) std::printf("    JIT info: %s\n", info_log.data());
}

void printFuncAttrs(CUfunction f) {
  int regs = 0, local = 0, shared = 0, maxthr = 0, ptxv = 0, binv = 0;
  CU_CHECK(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
  CU_CHECK(cuFuncGetAttribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f));
  CU_CHECK(cuFuncGetAttribute(&shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
  CU_CHECK(cuFuncGetAttribute(&maxthr, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f));
  CU_CHECK(cuFuncGetAttribute(&ptxv, CU_FUNC_ATTRIBUTE_PTX_VERSION, f));
  CU_CHECK(cuFuncGetAttribute(&binv, CU_FUNC_ATTRIBUTE_BINARY_VERSION, f));
  // local bytes > 0 usually means register spills.
  std::printf("    regs=%d local(spill)=%dB static_smem=%dB max_threads=%d ptx=sm_%d bin=sm_%d\n",
              regs, local, shared, maxthr, ptxv, binv);
}

struct Result {
  std::string kernel;
  std::string warps;  // "-" for a kernel with no PTX at all
  std::string shape;
  double us = 0, gbps = 0, rel = 0, maxabs = 0;
  bool pass = false;
  bool headline = false;
  std::string note;
};

// Deterministic per-check seed from the run seed and the check's label, so a
// run replays with --seed regardless of which PTX files happened to exist.
uint64_t checkSeed(uint64_t base, const std::string& label) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (unsigned char c : label) h = (h ^ c) * 1099511628211ull;
  return base ^ h;
}

Result runCheck(CUfunction f, const KernelSpec& spec, int warps, const Shape& shape,
                uint64_t base_seed, EventPairs& events) {
  Result res;
  res.kernel = spec.name;
  res.warps = std::to_string(warps);
  res.shape = shape.label;
  res.headline = shape.headline;
  const std::string label = spec.name + " W=" + res.warps + " " + shape.label;
  g_context = label;

  const uint64_t seed = checkSeed(base_seed, label);
  std::printf("  [%s] seed=%llu\n", label.c_str(), static_cast<unsigned long long>(seed));
  std::fflush(stdout);
  std::mt19937_64 rng(seed);
  Problem p = spec.make(shape, rng);

  // Upload inputs; output gets kGuard extra floats to detect unmasked stores.
  std::vector<DeviceBuffer> in_bufs;
  std::vector<CUdeviceptr> in_ptrs;
  for (const std::vector<float>& h : p.inputs) {
    in_bufs.emplace_back(h.size() * sizeof(float));
    CU_CHECK(cuMemcpyHtoD(in_bufs.back().get(), h.data(), h.size() * sizeof(float)));
    in_ptrs.push_back(in_bufs.back().get());
  }
  p.inputs.clear();
  p.inputs.shrink_to_fit();  // host copies no longer needed (ref is computed)
  const size_t out_total = p.out_elems + kGuard;
  DeviceBuffer out(out_total * sizeof(float));

  ArgPack args;
  p.bind(args, out.get(), in_ptrs);
  void** kparams = args.params();
  const unsigned block = static_cast<unsigned>(warps) * 32;
  auto launch = [&] {
    CU_CHECK(cuLaunchKernel(f, p.grid, 1, 1, block, 1, 1, /*sharedMemBytes=*/0,
                            /*hStream=*/nullptr, kparams, nullptr));
  };

  // Correctness: poison with NaN (all-ones bytes), launch once, compare.
  CU_CHECK(cuMemsetD8(out.get(), 0xFF, out_total * sizeof(float)));
  launch();
  CU_CHECK(cuCtxSynchronize());  // surfaces faults from this launch here
  std::vector<float> host(out_total);
  CU_CHECK(cuMemcpyDtoH(host.data(), out.get(), out_total * sizeof(float)));

  size_t nan_count = 0, inf_count = 0, guard_hits = 0;
  double diff2 = 0, ref2 = 0, maxabs = 0;
  for (size_t i = 0; i < p.out_elems; ++i) {
    const float v = host[i];
    if (std::isnan(v)) { ++nan_count; continue; }
    if (std::isinf(v)) { ++inf_count; continue; }
    const double d = double(v) - p.ref[i];
    diff2 += d * d;
    ref2 += p.ref[i] * p.ref[i];
    maxabs = std::max(maxabs, std::fabs(d));
  }
  for (size_t i = p.out_elems; i < out_total; ++i) {
    uint32_t bits;
    std::memcpy(&bits, &host[i], sizeof bits);
    if (bits != 0xFFFFFFFFu) ++guard_hits;
  }
  res.rel = ref2 > 0 ? std::sqrt(diff2 / ref2) : std::sqrt(diff2);
  res.maxabs = maxabs;
  std::ostringstream note;
  if (nan_count) note << nan_count << " NaN/unwritten; ";
  if (inf_count) note << inf_count << " inf; ";
  if (guard_hits) note << guard_hits << " writes past end; ";
  if (!(res.rel < kRelTol)) note << "rel err over " << kRelTol << "; ";
  res.pass = nan_count == 0 && inf_count == 0 && guard_hits == 0 && res.rel < kRelTol;
  res.note = note.str();
  if (res.note.size() >= 2) res.note.resize(res.note.size() - 2);  // drop trailing "; "
  host.clear();
  host.shrink_to_fit();
  p.ref.clear();
  p.ref.shrink_to_fit();

  // Timing (also for failing kernels, so the table stays complete).
  res.us = events.medianUs(launch);
  res.gbps = p.bytes / (res.us * 1e-6) / 1e9;

  std::printf("    rel_err=%.3e max_abs=%.3e median=%.2fus %.1f GB/s %s%s%s\n", res.rel,
              res.maxabs, res.us, res.gbps, res.pass ? "PASS" : "FAIL",
              res.note.empty() ? "" : " -- ", res.note.c_str());
  std::fflush(stdout);
  g_context.clear();
  return res;
}

// Device-to-device copy bandwidth (bytes read + written), the roofline.
double measureCopyGbps(EventPairs& events) {
  g_context = "copy bandwidth";
  DeviceBuffer src(kCopyBytes), dst(kCopyBytes);
  CU_CHECK(cuMemsetD8(src.get(), 0x3C, kCopyBytes));
  CU_CHECK(cuMemsetD8(dst.get(), 0, kCopyBytes));
  const double us = events.medianUs([&] { CU_CHECK(cuMemcpyDtoD(dst.get(), src.get(), kCopyBytes)); });
  CU_CHECK(cuCtxSynchronize());
  g_context.clear();
  return 2.0 * double(kCopyBytes) / (us * 1e-6) / 1e9;
}

std::string nowString() {
  std::time_t t = std::time(nullptr);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S %Z", std::localtime(&t));
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  // Line-buffered so progress interleaves correctly with stderr under `| tee`.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::string ptx_dir = "build/gpu-ptx";
  uint64_t base_seed = std::random_device{}();
  base_seed = (base_seed << 32) ^ std::random_device{}();
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--seed" && i + 1 < argc) {
      base_seed = std::stoull(argv[++i]);
    } else if (a == "-h" || a == "--help") {
      std::printf("usage: %s [PTX_DIR] [--seed N]\n", argv[0]);
      return 0;
    } else {
      ptx_dir = a;
    }
  }

  CU_CHECK(cuInit(0));
  CUdevice dev;
  CU_CHECK(cuDeviceGet(&dev, 0));
  char dev_name[256] = {0};
  CU_CHECK(cuDeviceGetName(dev_name, sizeof dev_name, dev));
  int cc_major = 0, cc_minor = 0, driver = 0;
  CU_CHECK(cuDeviceGetAttribute(&cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
  CU_CHECK(cuDeviceGetAttribute(&cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
  CU_CHECK(cuDriverGetVersion(&driver));
  // Primary context: same API across CUDA 12/13 (cuCtxCreate changed in 13).
  CUcontext ctx;
  CU_CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU_CHECK(cuCtxSetCurrent(ctx));

  const std::string date = nowString();
  std::printf("device: %s (sm_%d%d), driver %d.%d, %s\n", dev_name, cc_major, cc_minor,
              driver / 1000, (driver % 1000) / 10, date.c_str());
  std::printf("ptx dir: %s\nseed: %llu (replay with --seed %llu)\n", ptx_dir.c_str(),
              static_cast<unsigned long long>(base_seed),
              static_cast<unsigned long long>(base_seed));

  std::vector<Result> results;
  std::vector<std::string> notes;
  double copy_gbps = 0;
  {
    EventPairs events;  // destroyed before the context is released
    copy_gbps = measureCopyGbps(events);
    std::printf("D2D copy bandwidth (cuMemcpyDtoD, 2 x %zu MiB, read+write): %.1f GB/s\n",
                kCopyBytes >> 20, copy_gbps);

    for (const KernelSpec& spec : specs()) {
      int loaded = 0;
      for (int w : spec.warps) {
        const std::string path = ptx_dir + "/" + spec.file_stem + "_w" + std::to_string(w) + ".ptx";
        std::string ptx;
        if (!readFile(path, ptx)) {
          const std::string msg = "note: " + spec.name + " W=" + std::to_string(w) + ": " +
                                  path + " not found, skipped";
          std::printf("%s\n", msg.c_str());
          notes.push_back(msg);
          continue;
        }
        ++loaded;
        std::printf("%s W=%d (%s)\n", spec.name.c_str(), w, path.c_str());
        g_context = "loading " + path;
        Module mod;
        loadPtx(mod, path, ptx);
        CUfunction f;
        CU_CHECK(cuModuleGetFunction(&f, mod.get(), spec.name.c_str()));
        printFuncAttrs(f);
        g_context.clear();
        for (const Shape& shape : spec.shapes)
          results.push_back(runCheck(f, spec, w, shape, base_seed, events));
      }
      if (loaded == 0) {
        Result r;
        r.kernel = spec.name;
        r.warps = "-";
        r.shape = "-";
        r.note = "no PTX file for any W";
        std::printf("FAIL: %s: no PTX found for any num_warps in %s\n", spec.name.c_str(),
                    ptx_dir.c_str());
        results.push_back(r);
      }
    }
  }

  // Final report.
  std::printf("\n## llk example kernels\n\n");
  std::printf("device: %s (sm_%d%d) | D2D copy bandwidth: %.1f GB/s | date: %s | seed: %llu\n\n",
              dev_name, cc_major, cc_minor, copy_gbps, date.c_str(),
              static_cast<unsigned long long>(base_seed));
  std::printf("| kernel | W | shape | median us | GB/s | %% of copy | rel err | max abs err | result |\n");
  std::printf("|---|---|---|---:|---:|---:|---:|---:|---|\n");
  int passed = 0, failed = 0;
  for (const Result& r : results) {
    (r.pass ? passed : failed)++;
    if (r.warps == "-") {
      std::printf("| %s | - | - | - | - | - | - | - | FAIL (%s) |\n", r.kernel.c_str(),
                  r.note.c_str());
      continue;
    }
    std::printf("| %s | %s | %s | %.2f | %.1f | %.1f%% | %.2e | %.2e | %s%s%s |\n",
                r.kernel.c_str(), r.warps.c_str(), r.shape.c_str(), r.us, r.gbps,
                100.0 * r.gbps / copy_gbps, r.rel, r.maxabs, r.pass ? "PASS" : "FAIL",
                r.note.empty() ? "" : ": ", r.note.c_str());
  }
  std::printf("\n");
  for (const std::string& n : notes) std::printf("%s\n", n.c_str());

  // Informational: does the best passing W reach 90% of copy bandwidth on the
  // big shape? Not a failure criterion.
  for (const KernelSpec& spec : specs()) {
    const Result* best = nullptr;
    std::string shape_label;
    for (const Result& r : results) {
      if (r.kernel != spec.name || !r.headline) continue;
      shape_label = r.shape;
      if (r.pass && (!best || r.gbps > best->gbps)) best = &r;
    }
    if (shape_label.empty()) continue;  // no PTX at all: already a failure row
    const std::string kname = spec.name.substr(0, spec.name.rfind("_kernel"));
    if (!best) {
      std::printf("%s %s best: no passing variant\n", kname.c_str(), shape_label.c_str());
      continue;
    }
    const double pct = 100.0 * best->gbps / copy_gbps;
    std::printf("%s %s best: W=%s %.1f%% of copy (%.1f GB/s) -> %s 90%%\n", kname.c_str(),
                shape_label.c_str(), best->warps.c_str(), pct, best->gbps,
                pct >= 90.0 ? "reaches" : "below");
  }

  CU_CHECK(cuDevicePrimaryCtxRelease(dev));
  std::printf("\n%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
