//===- DiffTest.cpp - differential testing: GPU vs interpreter ------------===//
//
// Runs tile kernels on the interpreter and on the GPU with identical input
// bytes and compares what each wrote. Two kinds of work:
//
// * Generated cases (scripts/gen-tile-kernel.py): a kernel whose
//   `// DIFFTEST:` lines give the grid, num_warps, a seed, and every argument
//   in order — how to fill each buffer (seeded random inputs, or poison for
//   outputs) and how to compare its final bytes (`exact`; `exact0`: +0 and
//   -0 equal; `tol ATOL RTOL`: |gpu - interp| <= ATOL + RTOL |interp|, NaN
//   only where both hold the same bits). On a GPU, each case runs once on
//   the interpreter and once per target (compiled for sm_80, sm_90, sm_90a).
//   Without one (CI), each case is compiled for every target and the PTX
//   assembled by ptxas, and the interpreter must run it without error
//   (every access in bounds, no read of unwritten output, no division by
//   zero).
// * --checks: every kernel check of test/lib/Checks at its small shape, its
//   inputs and float64 reference: the GPU's output against the
//   interpreter's (bit for bit for the kernels of bitExactChecks, within
//   the check's tolerance for the others), and each against float64.
//
// One CSV row per case and target; exit status 1 if any failed.
//
//===----------------------------------------------------------------------===//

#include "DiffTest.h"

#include "DeviceProblem.h"

#include "llk/Interpreter/Interpreter.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <thread>

using namespace llk;
using interp::ElemType;

namespace {

//===----------------------------------------------------------------------===//
// Cases
//===----------------------------------------------------------------------===//

enum class Check { None, Exact, Exact0, Tolerance };

struct BufferSpec {
  std::string name;
  ElemType type;
  size_t count = 0;
  std::string fill; // bits, int, grid, uniform, poison
  std::vector<double> fillArgs;
  Check check = Check::None;
  double atol = 0, rtol = 0;
  size_t bytes() const { return count * interp::elemTypeSize(type); }
};

struct ArgSpec {
  int buffer = -1; // index into Case::buffers, or -1: a scalar
  ElemType type;
  std::string value;
};

struct Case {
  std::string path, name, text, kernel;
  unsigned grid[3] = {1, 1, 1};
  unsigned warps = 4;
  uint64_t seed = 0;
  std::vector<BufferSpec> buffers;
  std::vector<ArgSpec> args;
};

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw std::runtime_error("cannot read '" + path + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

ElemType parseType(const std::string &name, const std::string &where) {
  if (auto t = interp::parseElemType(name))
    return *t;
  throw std::runtime_error(where + ": unknown element type '" + name + "'");
}

/// Reads a case's `// DIFFTEST:` lines.
Case parseCase(const std::string &path) {
  Case c;
  c.path = path;
  c.name = llvm::sys::path::stem(path).str();
  c.text = readFile(path);
  std::istringstream lines(c.text);
  int lineNo = 0;
  for (std::string line; std::getline(lines, line);) {
    ++lineNo;
    const std::string tag = "// DIFFTEST:";
    if (line.rfind(tag, 0) != 0)
      continue;
    std::string where = path + ":" + std::to_string(lineNo);
    std::istringstream words(line.substr(tag.size()));
    std::vector<std::string> w;
    for (std::string word; words >> word;)
      w.push_back(word);
    auto need = [&](size_t n) {
      if (w.size() < n)
        throw std::runtime_error(where + ": malformed DIFFTEST line");
    };
    need(1);
    if (w[0] == "kernel") {
      need(2);
      c.kernel = w[1];
      for (size_t i = 2; i < w.size(); ++i) {
        if (w[i] == "grid" && i + 3 < w.size() + 0) {
          for (int d = 0; d < 3; ++d)
            c.grid[d] = std::stoul(w[i + 1 + d]);
          i += 3;
        } else if (w[i] == "warps" && i + 1 < w.size()) {
          c.warps = std::stoul(w[++i]);
        } else if (w[i] == "seed" && i + 1 < w.size()) {
          c.seed = std::stoull(w[++i]);
        } else {
          throw std::runtime_error(where + ": unknown kernel key '" + w[i] + "'");
        }
      }
    } else if (w[0] == "buffer") {
      need(5);
      BufferSpec b;
      b.name = w[1];
      b.type = parseType(w[2], where);
      b.count = std::stoull(w[3]);
      b.fill = w[4];
      size_t i = 5;
      size_t nargs = b.fill == "int" || b.fill == "uniform" ? 2
                     : b.fill == "grid"                     ? 3
                     : b.fill == "bits" || b.fill == "poison"
                         ? 0
                         : SIZE_MAX;
      if (nargs == SIZE_MAX)
        throw std::runtime_error(where + ": unknown fill '" + b.fill + "'");
      need(i + nargs);
      for (size_t k = 0; k < nargs; ++k)
        b.fillArgs.push_back(std::stod(w[i++]));
      if (i < w.size()) {
        if (w[i] != "check" || i + 1 >= w.size())
          throw std::runtime_error(where + ": expected 'check MODE'");
        const std::string &mode = w[i + 1];
        if (mode == "exact")
          b.check = Check::Exact;
        else if (mode == "exact0")
          b.check = Check::Exact0;
        else if (mode == "tol" && i + 3 < w.size()) {
          b.check = Check::Tolerance;
          b.atol = std::stod(w[i + 2]);
          b.rtol = std::stod(w[i + 3]);
        } else
          throw std::runtime_error(where + ": unknown check '" + mode + "'");
      }
      c.args.push_back({static_cast<int>(c.buffers.size()), b.type, ""});
      c.buffers.push_back(std::move(b));
    } else if (w[0] == "scalar") {
      need(4);
      c.args.push_back({-1, parseType(w[2], where), w[3]});
    } else {
      throw std::runtime_error(where + ": unknown DIFFTEST line '" + w[0] + "'");
    }
  }
  if (c.kernel.empty())
    throw std::runtime_error(path + ": no '// DIFFTEST: kernel' line");
  return c;
}

/// Host memory for one buffer, 256-byte aligned as the GPU's allocations
/// (the kernels' divisibility hints rely on it).
struct HostBytes {
  std::shared_ptr<uint8_t> data;
  size_t size = 0;
  explicit HostBytes(size_t bytes) : size(bytes) {
    size_t rounded = (std::max<size_t>(bytes, 1) + 255) / 256 * 256;
    data.reset(static_cast<uint8_t *>(std::aligned_alloc(256, rounded)), std::free);
    std::memset(data.get(), 0xff, rounded);
  }
  uint8_t *get() const { return data.get(); }
};

void encodeInt(ElemType type, int64_t value, uint8_t *dst) {
  if (interp::isFloat(type)) {
    interp::encodeElement(type, static_cast<double>(value), dst);
    return;
  }
  std::memcpy(dst, &value, interp::elemTypeSize(type)); // little endian
}

/// The case's initial bytes of every buffer: inputs from the seed, outputs
/// poisoned (all ones: NaN, -1).
std::vector<HostBytes> makeInputs(const Case &c, uint64_t inputSeed) {
  std::vector<HostBytes> result;
  for (size_t b = 0; b < c.buffers.size(); ++b) {
    const BufferSpec &spec = c.buffers[b];
    HostBytes bytes(spec.bytes());
    std::mt19937_64 rng((c.seed ^ inputSeed) * 0x9e3779b97f4a7c15ull + b);
    size_t size = interp::elemTypeSize(spec.type);
    const std::vector<double> &a = spec.fillArgs;
    for (size_t i = 0; i < spec.count; ++i) {
      uint8_t *dst = bytes.get() + i * size;
      if (spec.fill == "bits") {
        uint64_t bits = rng();
        std::memcpy(dst, &bits, size);
      } else if (spec.fill == "int") {
        encodeInt(spec.type,
                  std::uniform_int_distribution<int64_t>(int64_t(a[0]), int64_t(a[1]))(rng),
                  dst);
      } else if (spec.fill == "grid") {
        int64_t k = std::uniform_int_distribution<int64_t>(int64_t(a[0]), int64_t(a[1]))(rng);
        interp::encodeElement(spec.type, double(k) * a[2], dst);
      } else if (spec.fill == "uniform") {
        double x = std::uniform_real_distribution<double>(a[0], a[1])(rng);
        if (interp::isFloat(spec.type))
          interp::encodeElement(spec.type, x, dst);
        else
          encodeInt(spec.type, std::llround(x), dst);
      }
      // poison: left all ones
    }
    result.push_back(std::move(bytes));
  }
  return result;
}

std::vector<HostBytes> copyOf(const std::vector<HostBytes> &from) {
  std::vector<HostBytes> to;
  for (const HostBytes &b : from) {
    to.emplace_back(b.size);
    std::memcpy(to.back().get(), b.get(), b.size);
  }
  return to;
}

/// A scalar argument's bits from its text (integers exactly).
uint64_t scalarArgBits(ElemType type, const std::string &text) {
  if (interp::isFloat(type))
    return tools::scalarBits(type, std::stod(text));
  int64_t v = std::stoll(text);
  uint64_t bits = 0;
  std::memcpy(&bits, &v, interp::elemTypeSize(type));
  return bits;
}

/// Runs the case on the interpreter over `buffers`.
std::optional<std::string> runInterpreter(const Case &c, std::vector<HostBytes> &buffers,
                                          mlir::MLIRContext &context) {
  std::string error;
  auto module = interp::parseKernelSource(context, c.text, c.path, {}, error);
  if (!module)
    return error;
  mlir::func::FuncOp kernel = interp::findKernel(*module, c.kernel, error);
  if (!kernel)
    return error;
  interp::Options options;
  options.checkUninitialized = true;
  interp::Interpreter interpreter(options);
  for (size_t b = 0; b < c.buffers.size(); ++b)
    if (auto e = interpreter.addBuffer(buffers[b].get(), c.buffers[b].bytes(),
                                       c.buffers[b].name, c.buffers[b].fill != "poison"))
      return e;
  interp::KernelArgs args;
  for (const ArgSpec &arg : c.args) {
    if (arg.buffer >= 0) {
      args.addPointer(buffers[arg.buffer].get());
      continue;
    }
    uint64_t bits = scalarArgBits(arg.type, arg.value);
    switch (interp::elemTypeSize(arg.type)) {
    case 1: args.add<uint8_t>(uint8_t(bits)); break;
    case 2: args.add<uint16_t>(uint16_t(bits)); break;
    case 4: args.add<uint32_t>(uint32_t(bits)); break;
    default: args.add<uint64_t>(bits); break;
    }
  }
  return interpreter.run(kernel, {c.grid[0], c.grid[1], c.grid[2]}, args.pointers());
}

//===----------------------------------------------------------------------===//
// Comparison
//===----------------------------------------------------------------------===//

struct Comparison {
  size_t outputs = 0, differing = 0;
  double maxAbsDiff = 0;
  std::string detail; // the first difference
};

std::string elementText(ElemType type, const uint8_t *p) {
  std::ostringstream os;
  os.precision(9);
  uint64_t bits = 0;
  size_t size = interp::elemTypeSize(type);
  std::memcpy(&bits, p, size);
  if (interp::isFloat(type)) {
    os << interp::decodeElement(type, p) << " (0x" << std::hex << bits << ")";
  } else {
    int64_t v = int64_t(bits << (64 - 8 * size)) >> (64 - 8 * size);
    os << v;
  }
  return os.str();
}

/// Compares `got` (the GPU's bytes) with `want` (the interpreter's) as the
/// buffer's check says.
void compareBuffer(const BufferSpec &spec, const uint8_t *got, const uint8_t *want,
                   Comparison &cmp) {
  if (spec.check == Check::None)
    return;
  ++cmp.outputs;
  size_t size = interp::elemTypeSize(spec.type);
  for (size_t i = 0; i < spec.count; ++i) {
    const uint8_t *g = got + i * size, *w = want + i * size;
    bool same = std::memcmp(g, w, size) == 0;
    double gv = 0, wv = 0;
    if (interp::isFloat(spec.type)) {
      gv = interp::decodeElement(spec.type, g);
      wv = interp::decodeElement(spec.type, w);
      if (!same && spec.check == Check::Exact0 && gv == 0 && wv == 0)
        same = true;
      if (!same && spec.check == Check::Tolerance && !std::isnan(gv) && !std::isnan(wv) &&
          std::abs(gv - wv) <= spec.atol + spec.rtol * std::abs(wv))
        same = true;
      if (!std::isnan(gv) && !std::isnan(wv))
        cmp.maxAbsDiff = std::max(cmp.maxAbsDiff, std::abs(gv - wv));
    }
    if (same)
      continue;
    if (cmp.differing++ == 0)
      cmp.detail = spec.name + "[" + std::to_string(i) + "]: gpu " +
                   elementText(spec.type, g) + ", interpreter " +
                   elementText(spec.type, w);
  }
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

struct Row {
  std::string kind, name, target, status; // status: PASS, FAIL, ERROR
  size_t outputs = 0, differing = 0;
  double maxAbsDiff = 0, relDiff = NAN, tolerance = NAN, ms = 0;
  std::string detail;
};

std::string csvField(std::string s) {
  for (char &ch : s)
    if (ch == '\n' || ch == '\r')
      ch = ' ';
  if (s.find_first_of(",\"") == std::string::npos)
    return s;
  std::string quoted = "\"";
  for (char ch : s) {
    if (ch == '"')
      quoted += '"';
    quoted += ch;
  }
  return quoted + "\"";
}

struct Options {
  enum class Backend { Auto, Gpu, Cpu } backend = Backend::Auto;
  std::vector<std::string> archs = {"sm_80", "sm_90", "sm_90a"};
  std::string csv, ptxas;
  uint64_t inputSeed = 0, checkSeed = 1;
  unsigned jobs = 0;
  unsigned timeout = 300; // seconds a case may take (isolated)
  bool checks = false, verbose = false;
  // Each case in a child process (a compiler crash or a GPU fault is that
  // case's failure); --child is that process.
  bool isolate = true, child = false;
  std::set<std::string> only;
  std::string examples = LLK_SOURCE_DIR "/examples";
  std::vector<std::string> inputs;
};

double msSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t)
      .count();
}

/// ptxas over `ptx` for `arch`; its messages on failure.
std::optional<std::string> assemble(const std::string &ptxas, const std::string &ptx,
                                    const std::string &arch) {
  llvm::SmallString<128> ptxPath, logPath;
  int fd;
  if (llvm::sys::fs::createTemporaryFile("llk-difftest", "ptx", fd, ptxPath))
    return std::string("cannot create a temporary file");
  {
    llvm::raw_fd_ostream out(fd, /*shouldClose=*/true);
    out << ptx;
  }
  if (llvm::sys::fs::createTemporaryFile("llk-difftest", "log", logPath))
    return std::string("cannot create a temporary file");
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(logPath),
                                                llvm::StringRef(logPath)};
  std::string archFlag = "-arch=" + arch;
  llvm::StringRef argv[] = {ptxas, archFlag, "-o", "/dev/null", ptxPath};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(ptxas, argv, std::nullopt, redirects, 0, 0, &message);
  std::optional<std::string> error;
  if (rc != 0) {
    std::string log;
    try {
      log = readFile(logPath.str().str());
    } catch (...) {
    }
    error = "ptxas -arch=" + arch + " failed (" + std::to_string(rc) + "): " + message + log;
  }
  llvm::sys::fs::remove(ptxPath);
  llvm::sys::fs::remove(logPath);
  return error;
}

/// One generated case on every target; rows appended to `rows`.
std::vector<Row> runCase(const std::string &path, const Options &opts, rt::Device *gpu,
                         rt::JIT *jit, std::mutex &deviceMutex,
                         mlir::MLIRContext &context) {
  std::vector<Row> rows;
  Case c;
  try {
    c = parseCase(path);
  } catch (const std::exception &e) {
    rows.push_back({"generated", path, "-", "ERROR"});
    rows.back().detail = e.what();
    return rows;
  }
  std::vector<HostBytes> initial = makeInputs(c, opts.inputSeed);
  std::vector<HostBytes> interpreted = copyOf(initial);
  auto start = std::chrono::steady_clock::now();
  std::optional<std::string> interpError = runInterpreter(c, interpreted, context);
  double interpMs = msSince(start);
  size_t checkedOutputs = 0;
  for (const BufferSpec &b : c.buffers)
    checkedOutputs += b.check != Check::None;

  if (!gpu) {
    Row row{"generated", c.name, "interpreter", interpError ? "FAIL" : "PASS"};
    row.outputs = checkedOutputs;
    row.ms = interpMs;
    row.detail = interpError.value_or("");
    rows.push_back(row);
  }
  for (const std::string &arch : opts.archs) {
    Row row{"generated", c.name, arch, "PASS"};
    rt::JITOptions o;
    o.numWarps = c.warps;
    o.arch = arch;
    auto t0 = std::chrono::steady_clock::now();
    try {
      if (!gpu) {
        rt::CompiledModule compiled = rt::compileToPTX(rt::Source::fromText(c.text, c.path), o);
        if (!opts.ptxas.empty())
          if (auto err = assemble(opts.ptxas, compiled.ptx, arch)) {
            row.status = "FAIL";
            row.detail = *err;
          }
        row.ms = msSince(t0);
        rows.push_back(row);
        continue;
      }
      rt::Kernel kernel = jit->compile(rt::Source::fromText(c.text, c.path), o, c.kernel);
      row.ms = msSince(t0);
      if (interpError) {
        row.status = "FAIL";
        row.detail = "interpreter: " + *interpError;
        rows.push_back(row);
        continue;
      }
      std::lock_guard<std::mutex> lock(deviceMutex);
      gpu->makeCurrent();
      std::vector<rt::DeviceMemory> memory;
      rt::ArgList args;
      for (size_t b = 0; b < c.buffers.size(); ++b) {
        memory.emplace_back(*gpu, std::max<size_t>(1, initial[b].size));
        memory.back().copyFromHost(initial[b].get(), initial[b].size);
      }
      for (const ArgSpec &arg : c.args)
        args.push_back(arg.buffer >= 0
                           ? rt::Arg::pointer(memory[arg.buffer].address(),
                                              tools::scalarType(arg.type))
                           : rt::Arg::scalar(tools::scalarType(arg.type),
                                             scalarArgBits(arg.type, arg.value)));
      rt::LaunchOptions checked;
      checked.synchronize = true;
      kernel.launch(rt::Grid(c.grid[0], c.grid[1], c.grid[2]), args, checked);
      Comparison cmp;
      for (size_t b = 0; b < c.buffers.size(); ++b) {
        if (c.buffers[b].check == Check::None)
          continue;
        HostBytes got(initial[b].size);
        memory[b].copyToHost(got.get(), got.size);
        compareBuffer(c.buffers[b], got.get(), interpreted[b].get(), cmp);
      }
      row.outputs = cmp.outputs;
      row.differing = cmp.differing;
      row.maxAbsDiff = cmp.maxAbsDiff;
      if (cmp.differing) {
        row.status = "FAIL";
        row.detail = std::to_string(cmp.differing) + " elements differ; first: " + cmp.detail;
      }
    } catch (const std::exception &e) {
      row.status = "ERROR";
      row.ms = msSince(t0);
      row.detail = e.what();
    }
    rows.push_back(row);
  }
  return rows;
}

/// Kernel checks whose kernels only move, select and convert values or do
/// exactly rounded arithmetic (no math function, no reduction, no sum of
/// products the GPU may fuse): the GPU must match the interpreter bit for
/// bit. The others must stay within their check's tolerance (relative L2,
/// the bound they meet against float64).
const std::set<std::string> &bitExactChecks() {
  static const std::set<std::string> names = {
      "vector_add",         "llama_add",          "llama_mul",
      "llama_scale",        "ggml_bin_bcast_add", "ggml_bin_bcast_sub",
      "ggml_bin_bcast_mul", "ggml_bin_bcast_div", "llama_cpy_k",
      "llama_cpy_v",        "llama_cpy_k_rows",   "llama_cpy_v_trans",
      "llama_diag_mask_inf"};
  return names;
}

/// One kernel check's small shape: GPU against interpreter, each against
/// float64.
std::vector<Row> runCheck(const checks::KernelCheck &check, const Options &opts,
                          rt::Device &gpu, rt::JIT &jit, mlir::MLIRContext &context) {
  std::vector<Row> rows;
  std::mt19937_64 rng(opts.checkSeed ^ std::hash<std::string>()(check.name));
  checks::Problem problem(rng);
  check.build(problem);
  checks::poisonOutputs(problem);
  std::vector<std::vector<uint8_t>> initial;
  for (const checks::HostBuffer &b : problem.buffers)
    initial.push_back(b.bytes);
  auto restore = [&] {
    size_t i = 0;
    for (checks::HostBuffer &b : problem.buffers)
      b.bytes = initial[i++];
  };
  std::optional<std::string> interpError =
      checks::runOnInterpreter(check, problem, opts.examples, context);
  std::vector<std::vector<uint8_t>> interpreted;
  for (const checks::HostBuffer &b : problem.buffers)
    interpreted.push_back(b.bytes);
  checks::CheckResult interpVsF64 = checks::compareOutputs(check, problem);

  std::vector<std::string> archs = opts.archs;
  if (!problem.arch.empty())
    archs = {problem.arch};
  for (const std::string &arch : archs) {
    Row row{"check", check.name, arch, "PASS"};
    bool bitExact = bitExactChecks().count(check.name);
    row.tolerance = bitExact ? 0 : check.tolerance;
    auto t0 = std::chrono::steady_clock::now();
    try {
      if (interpError)
        throw std::runtime_error("interpreter: " + *interpError);
      restore();
      tools::DeviceProblem onDevice =
          tools::uploadProblem(gpu, jit, check, problem, opts.examples, arch);
      tools::launchAndDownload(onDevice, problem);
      row.ms = msSince(t0);
      checks::CheckResult gpuVsF64 = checks::compareOutputs(check, problem);
      // GPU against interpreter: bits, and the relative L2 difference over
      // the elements with a reference (the others must hold the poison on
      // both: compareOutputs checked that).
      double diff2 = 0, norm2 = 0;
      Comparison cmp;
      size_t i = 0;
      for (const checks::HostBuffer &b : problem.buffers) {
        const std::vector<uint8_t> &want = interpreted[i++];
        if (!b.isOutput)
          continue;
        ++cmp.outputs;
        size_t size = interp::elemTypeSize(b.type);
        for (size_t e = 0; e < b.size(); ++e) {
          const uint8_t *g = &b.bytes[e * size], *w = &want[e * size];
          if (std::memcmp(g, w, size) == 0)
            continue;
          double gv = interp::decodeElement(b.type, g), wv = interp::decodeElement(b.type, w);
          if (cmp.differing++ == 0)
            cmp.detail = b.name + "[" + std::to_string(e) + "]: gpu " +
                         elementText(b.type, g) + ", interpreter " + elementText(b.type, w);
          if (std::isfinite(b.reference[e]) && std::isfinite(gv) && std::isfinite(wv)) {
            diff2 += (gv - wv) * (gv - wv);
            cmp.maxAbsDiff = std::max(cmp.maxAbsDiff, std::abs(gv - wv));
          } else {
            diff2 = INFINITY; // NaN, infinity or padding: must be the same bits
          }
        }
        for (size_t e = 0; e < b.size(); ++e) {
          double wv = interp::decodeElement(b.type, &want[e * size]);
          if (std::isfinite(b.reference[e]) && std::isfinite(wv))
            norm2 += wv * wv;
        }
      }
      row.outputs = cmp.outputs;
      row.differing = cmp.differing;
      row.maxAbsDiff = cmp.maxAbsDiff;
      row.relDiff = diff2 == 0 ? 0 : norm2 == 0 ? INFINITY : std::sqrt(diff2 / norm2);
      std::ostringstream detail;
      detail << "gpu vs f64 " << gpuVsF64.error << ", interpreter vs f64 "
             << interpVsF64.error;
      if (cmp.differing)
        detail << "; " << cmp.differing << " elements differ, first " << cmp.detail;
      bool close = bitExact ? cmp.differing == 0 : row.relDiff <= check.tolerance;
      if (!close || !gpuVsF64.passed || !interpVsF64.passed) {
        row.status = "FAIL";
        if (!gpuVsF64.passed)
          detail << "; gpu: " << gpuVsF64.message;
        if (!interpVsF64.passed)
          detail << "; interpreter: " << interpVsF64.message;
      }
      row.detail = detail.str();
    } catch (const std::exception &e) {
      row.status = "ERROR";
      row.ms = msSince(t0);
      row.detail = e.what();
    }
    rows.push_back(row);
  }
  return rows;
}

/// A row as a child process prints it for its parent: tab-separated.
std::string rowLine(const Row &r) {
  auto clean = [](std::string s) {
    for (char &ch : s)
      if (ch == '\t' || ch == '\n' || ch == '\r')
        ch = ' ';
    return s;
  };
  std::ostringstream os;
  os.precision(17);
  os << "ROW\t" << r.kind << '\t' << clean(r.name) << '\t' << r.target << '\t' << r.status
     << '\t' << r.outputs << '\t' << r.differing << '\t' << r.maxAbsDiff << '\t'
     << r.relDiff << '\t' << r.tolerance << '\t' << r.ms << '\t' << clean(r.detail);
  return os.str();
}

std::optional<Row> parseRowLine(const std::string &line) {
  if (line.rfind("ROW\t", 0) != 0)
    return std::nullopt;
  std::vector<std::string> f;
  std::stringstream ss(line.substr(4));
  for (std::string field; std::getline(ss, field, '\t');)
    f.push_back(field);
  if (f.size() < 10)
    return std::nullopt;
  f.resize(11);
  Row r{f[0], f[1], f[2], f[3]};
  r.outputs = std::stoull(f[4]);
  r.differing = std::stoull(f[5]);
  r.maxAbsDiff = std::strtod(f[6].c_str(), nullptr);
  r.relDiff = std::strtod(f[7].c_str(), nullptr);
  r.tolerance = std::strtod(f[8].c_str(), nullptr);
  r.ms = std::strtod(f[9].c_str(), nullptr);
  r.detail = f[10];
  return r;
}

/// Runs one case in a child process (`self --child ...`): its rows, or a
/// CRASH/TIMEOUT row with the end of what it printed.
std::vector<Row> runCaseIsolated(const std::string &path, const Options &opts,
                                 const std::vector<std::string> &self, bool gpu) {
  std::vector<std::string> args = self;
  args.insert(args.end(), {"--child", "--backend", gpu ? "gpu" : "cpu", "--input-seed",
                           std::to_string(opts.inputSeed), "--ptxas",
                           opts.ptxas.empty() ? "none" : opts.ptxas, "--archs"});
  std::string archs;
  for (const std::string &a : opts.archs)
    archs += (archs.empty() ? "" : ",") + a;
  args.push_back(archs);
  args.push_back(path);
  llvm::SmallString<128> outPath, errPath;
  if (llvm::sys::fs::createTemporaryFile("llk-difftest", "out", outPath) ||
      llvm::sys::fs::createTemporaryFile("llk-difftest", "err", errPath))
    throw std::runtime_error("cannot create a temporary file");
  std::vector<llvm::StringRef> argv(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), llvm::StringRef(outPath),
                                                llvm::StringRef(errPath)};
  std::string message;
  auto t0 = std::chrono::steady_clock::now();
  int rc = llvm::sys::ExecuteAndWait(args[0], argv, std::nullopt, redirects, opts.timeout, 0,
                                     &message);
  double ms = msSince(t0);
  std::vector<Row> rows;
  std::string out, err;
  try {
    out = readFile(outPath.str().str());
    err = readFile(errPath.str().str());
  } catch (...) {
  }
  llvm::sys::fs::remove(outPath);
  llvm::sys::fs::remove(errPath);
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);)
    if (auto row = parseRowLine(line))
      rows.push_back(*row);
  if (rc == 0 || (rc == 1 && !rows.empty()))
    return rows;
  // The child died: a compiler crash, a GPU fault, a hang.
  std::string tail = err.size() > 1500 ? "..." + err.substr(err.size() - 1500) : err;
  bool timedOut = ms >= opts.timeout * 1000.0 - 1000;
  Row row{"generated", llvm::sys::path::stem(path).str(), "-", timedOut ? "TIMEOUT" : "CRASH"};
  row.ms = ms;
  row.detail = "exit " + std::to_string(rc) + (message.empty() ? "" : " (" + message + ")") +
               ": " + tail;
  rows.push_back(row);
  return rows;
}

/// Case files: each argument, or the .mlir files of a directory, sorted.
std::vector<std::string> expandInputs(const std::vector<std::string> &inputs) {
  std::vector<std::string> files;
  for (const std::string &in : inputs) {
    if (!llvm::sys::fs::is_directory(in)) {
      files.push_back(in);
      continue;
    }
    std::vector<std::string> dir;
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(in, ec), end; it != end && !ec;
         it.increment(ec))
      if (llvm::StringRef(it->path()).ends_with(".mlir"))
        dir.push_back(it->path());
    std::sort(dir.begin(), dir.end(), [](const std::string &a, const std::string &b) {
      // case-9 before case-10
      return a.size() != b.size() ? a.size() < b.size() : a < b;
    });
    files.insert(files.end(), dir.begin(), dir.end());
  }
  return files;
}

const char *kUsage =
    "usage: llk-difftest [options] CASE.mlir|DIR...   generated cases\n"
    "       llk-difftest --checks [--only a,b] [--seed N] [options]\n"
    "options:\n"
    "  --backend auto|gpu|cpu  gpu: run on the GPU and the interpreter, compare;\n"
    "                          cpu: compile for every target (+ ptxas) and run\n"
    "                          the interpreter; auto (default): gpu if a CUDA\n"
    "                          device opens, else cpu\n"
    "  --archs sm_80,sm_90,sm_90a   targets (default all three)\n"
    "  --ptxas PATH            cpu: the assembler (default $PTXAS, else\n"
    "                          /usr/local/cuda/bin/ptxas; 'none': skip)\n"
    "  --input-seed N          mixed into every case's seed (other inputs)\n"
    "  --jobs N                cases in parallel (default: the cores)\n"
    "  --timeout S             seconds a case may take (default 300)\n"
    "  --no-isolate            run the cases in this process (by default each\n"
    "                          runs in a child process, so that a crash or a\n"
    "                          GPU fault is that case's failure)\n"
    "  --csv FILE              one row per case and target\n"
    "  --examples DIR          --checks: the kernel sources\n"
    "  --verbose               a line per row, not only failures\n";

} // namespace

int llk::tools::difftestMain(int argc, char **argv, const char *subcommand) {
  Options opts;
  // How to run this program again, for the child processes.
  static int anchor;
  std::vector<std::string> self = {llvm::sys::fs::getMainExecutable(argv[0], &anchor)};
  if (subcommand)
    self.push_back(subcommand);
  if (const char *p = std::getenv("PTXAS"))
    opts.ptxas = p;
  else
    opts.ptxas = "/usr/local/cuda/bin/ptxas";
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "llk-difftest: %s needs a value\n%s", arg.c_str(), kUsage);
        std::exit(2);
      }
      return argv[++i];
    };
    auto list = [](const std::string &s) {
      std::vector<std::string> items;
      std::stringstream ss(s);
      for (std::string item; std::getline(ss, item, ',');)
        if (!item.empty())
          items.push_back(item);
      return items;
    };
    if (arg == "--backend") {
      std::string b = value();
      if (b == "auto")
        opts.backend = Options::Backend::Auto;
      else if (b == "gpu")
        opts.backend = Options::Backend::Gpu;
      else if (b == "cpu")
        opts.backend = Options::Backend::Cpu;
      else {
        std::fprintf(stderr, "llk-difftest: unknown backend '%s'\n", b.c_str());
        return 2;
      }
    } else if (arg == "--archs") {
      opts.archs = list(value());
    } else if (arg == "--ptxas") {
      opts.ptxas = value();
      if (opts.ptxas == "none")
        opts.ptxas.clear();
    } else if (arg == "--input-seed") {
      opts.inputSeed = std::stoull(value());
    } else if (arg == "--seed") {
      opts.checkSeed = std::stoull(value());
    } else if (arg == "--jobs") {
      opts.jobs = std::stoul(value());
    } else if (arg == "--csv") {
      opts.csv = value();
    } else if (arg == "--checks") {
      opts.checks = true;
    } else if (arg == "--only") {
      for (const std::string &n : list(value()))
        opts.only.insert(n);
    } else if (arg == "--examples") {
      opts.examples = value();
    } else if (arg == "--timeout") {
      opts.timeout = std::stoul(value());
    } else if (arg == "--no-isolate") {
      opts.isolate = false;
    } else if (arg == "--child") {
      opts.child = true;
      opts.isolate = false;
    } else if (arg == "--verbose") {
      opts.verbose = true;
    } else if (arg == "-h" || arg == "--help") {
      std::printf("%s", kUsage);
      return 0;
    } else if (!arg.empty() && arg[0] == '-') {
      std::fprintf(stderr, "llk-difftest: unknown option '%s'\n%s", arg.c_str(), kUsage);
      return 2;
    } else {
      opts.inputs.push_back(arg);
    }
  }
  if (opts.archs.empty() || (!opts.checks && opts.inputs.empty())) {
    std::fprintf(stderr, "%s", kUsage);
    return 2;
  }
  if (!opts.ptxas.empty() && !llvm::sys::fs::can_execute(opts.ptxas)) {
    std::fprintf(stderr, "llk-difftest: no ptxas at '%s' (--ptxas none skips it)\n",
                 opts.ptxas.c_str());
    return 2;
  }

  // The GPU, when asked for or found.
  std::optional<rt::Device> gpu;
  std::optional<rt::JIT> jit;
  if (opts.backend != Options::Backend::Cpu) {
    try {
      gpu = rt::Device::open(0, rt::Backend::Cuda);
      jit.emplace(*gpu);
      std::printf("device: %s (%s)\n", gpu->name().c_str(), gpu->arch().c_str());
    } catch (const rt::Error &e) {
      if (opts.backend == Options::Backend::Gpu || opts.checks) {
        std::fprintf(stderr, "llk-difftest: %s\n", e.what());
        return 2;
      }
      std::printf("no GPU (%s): compiling for %zu targets%s and running the "
                  "interpreter\n",
                  e.what(), opts.archs.size(), opts.ptxas.empty() ? "" : " (+ ptxas)");
    }
  }

  std::vector<Row> rows;
  std::mutex mutex; // rows, output, the device
  auto report = [&](const std::vector<Row> &caseRows) {
    std::lock_guard<std::mutex> lock(mutex);
    for (const Row &r : caseRows) {
      if (opts.child) {
        std::printf("%s\n", rowLine(r).c_str());
        continue;
      }
      if (opts.verbose || r.status != "PASS")
        std::printf("%-5s %s %s  %s\n", r.status.c_str(), r.name.c_str(), r.target.c_str(),
                    r.detail.c_str());
      rows.push_back(r);
    }
    std::fflush(stdout);
  };

  auto start = std::chrono::steady_clock::now();
  if (opts.checks) {
    auto context = checks::makeContext();
    for (const checks::KernelCheck &check : checks::kernelChecks())
      if (opts.only.empty() || opts.only.count(check.name))
        report(runCheck(check, opts, *gpu, *jit, *context));
  } else {
    std::vector<std::string> files = expandInputs(opts.inputs);
    unsigned jobs = opts.jobs ? opts.jobs : std::max(1u, std::thread::hardware_concurrency());
    jobs = std::min<unsigned>(jobs, files.size());
    std::vector<std::vector<Row>> results(files.size());
    std::atomic<size_t> next{0};
    std::mutex deviceMutex;
    auto worker = [&] {
      if (opts.isolate) {
        for (size_t i; (i = next++) < files.size();) {
          results[i] = runCaseIsolated(files[i], opts, self, gpu.has_value());
          report(results[i]);
        }
        return;
      }
      auto context = checks::makeContext();
      if (gpu)
        gpu->makeCurrent();
      for (size_t i; (i = next++) < files.size();) {
        results[i] = runCase(files[i], opts, gpu ? &*gpu : nullptr, jit ? &*jit : nullptr,
                             deviceMutex, *context);
        report(results[i]);
      }
    };
    std::vector<std::thread> threads;
    for (unsigned j = 1; j < jobs; ++j)
      threads.emplace_back(worker);
    worker();
    for (std::thread &t : threads)
      t.join();
    // Rows in case order, whichever thread finished first.
    rows.clear();
    for (const std::vector<Row> &r : results)
      rows.insert(rows.end(), r.begin(), r.end());
  }

  size_t passed = 0, failed = 0;
  std::set<std::string> failedCases, allCases;
  for (const Row &r : rows) {
    allCases.insert(r.name);
    if (r.status == "PASS")
      ++passed;
    else {
      ++failed;
      failedCases.insert(r.name);
    }
  }
  if (opts.child)
    return failed ? 1 : 0;
  if (!opts.csv.empty()) {
    std::ofstream csv(opts.csv);
    csv << "kind,case,target,status,outputs,differing,max_abs_diff,rel_diff,tolerance,ms,"
           "detail\n";
    for (const Row &r : rows)
      csv << r.kind << ',' << csvField(r.name) << ',' << r.target << ',' << r.status << ','
          << r.outputs << ',' << r.differing << ',' << r.maxAbsDiff << ',' << r.relDiff << ','
          << r.tolerance << ',' << r.ms << ',' << csvField(r.detail) << '\n';
    if (!csv)
      std::fprintf(stderr, "llk-difftest: cannot write '%s'\n", opts.csv.c_str());
  }
  std::printf("%zu %s (%s), %zu rows: %zu passed, %zu failed; %.1f s\n", allCases.size(),
              opts.checks ? "checks" : "cases",
              gpu ? "GPU vs interpreter" : "compiled + interpreter", rows.size(), passed,
              failed, msSince(start) / 1e3);
  return failed ? 1 : 0;
}
