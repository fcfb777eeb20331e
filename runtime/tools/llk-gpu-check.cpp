//===- llk-gpu-check.cpp - every kernel check, on the GPU -----------------===//
//
// Runs the kernel checks of test/lib/Checks — the same inputs and float64
// references the interpreter runs in CI — on the GPU through the runtime:
// JIT-compiles each kernel, uploads the inputs, poisons the outputs, launches,
// compares, and times the launch (median of CUDA-event-timed repetitions).
// Each check runs at its small shape and at its GPU shapes. After a sticky
// CUDA error (a fault: the context is lost) the cases left are "NOT RUN",
// and the case that caused it is named (exit status 1).
//
//   llk-gpu-check [--examples DIR] [--seed N] [--only a,b] [--reps N] [--no-time]
//                 [--small] [--list]
//
// --small runs the small shapes only (the interpreter's, in CI); --list
// prints the checks' names, one a line, and runs nothing. Under
// compute-sanitizer, `scripts/gpu-check.sh run sanitize` runs each check
// alone: `--only NAME --small --no-time`.
//   llk-gpu-check difftest ARGS...   (llk-difftest ARGS...: GPU vs interpreter)
//
//===----------------------------------------------------------------------===//

#include "CheckRun.h"
#include "DeviceProblem.h"
#include "DiffTest.h"
#include "ProgramArgs.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>
#include <sstream>
#include <string>

using namespace llk;
namespace rt = llk::rt;
using checks::KernelCheck;
using checks::Problem;
using interp::ElemType;
using rt::programs::CheckStatus;

namespace {

struct Row {
  std::string check, shape;
  CheckStatus status = CheckStatus::Failed;
  double error, medianUs, gbps;
  std::string message;
};

struct Options {
  std::string examples = LLK_SOURCE_DIR "/examples";
  uint64_t seed = 0;
  std::set<std::string> only;
  int reps = 20;
  bool time = true;
  bool smallOnly = false;
};

/// Runs one shape of one check; throws rt::Error on runtime failures.
Row runCase(rt::Device &device, rt::JIT &jit, const KernelCheck &check,
            const std::string &label,
            const std::function<void(Problem &)> &build, const Options &opts) {
  Row row{check.name, label, CheckStatus::Failed, NAN, NAN, NAN, ""};
  std::mt19937_64 rng(opts.seed ^ std::hash<std::string>()(check.name + label));
  Problem problem(rng);
  build(problem);
  checks::poisonOutputs(problem);
  tools::DeviceProblem onDevice =
      tools::uploadProblem(device, jit, check, problem, opts.examples);
  tools::launchAndDownload(onDevice, problem);
  checks::CheckResult result = checks::compareOutputs(check, problem);
  row.status = result.passed ? CheckStatus::Passed : CheckStatus::Failed;
  row.error = result.error;
  row.message = result.message;

  if (opts.time) {
    rt::Stream stream(device);
    rt::LaunchOptions on;
    on.stream = &stream;
    for (int w = 0; w < 3; ++w)
      onDevice.kernel.launch(onDevice.grid, onDevice.args, on);
    std::vector<double> times;
    rt::Event start(device), end(device);
    for (int r = 0; r < opts.reps; ++r) {
      start.record(&stream);
      onDevice.kernel.launch(onDevice.grid, onDevice.args, on);
      end.record(&stream);
      end.synchronize();
      times.push_back(rt::Event::elapsedMs(start, end) * 1e3);
    }
    std::sort(times.begin(), times.end());
    row.medianUs = times[times.size() / 2];
    if (problem.bytes > 0)
      row.gbps = problem.bytes / (row.medianUs * 1e-6) / 1e9;
  }
  return row;
}

} // namespace

static int run(int argc, char **argv) {
  if (argc > 1 && std::string(argv[1]) == "difftest")
    return tools::difftestMain(argc - 1, argv + 1, "difftest");
  Options opts;
  opts.seed = std::random_device()();
  bool list = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "llk-gpu-check: %s needs a value\n", arg.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    std::optional<std::string> bad;
    if (arg == "--examples")
      opts.examples = value();
    else if (arg == "--seed")
      bad = rt::programs::parseInteger(arg, value().c_str(), uint64_t(0), UINT64_MAX,
                                       opts.seed);
    else if (arg == "--reps")
      bad = rt::programs::parseInteger(arg, value().c_str(), 1, 100000, opts.reps);
    else if (arg == "--no-time")
      opts.time = false;
    else if (arg == "--small")
      opts.smallOnly = true;
    else if (arg == "--list")
      list = true;
    else if (arg == "--only") {
      std::stringstream names(value());
      for (std::string name; std::getline(names, name, ',');)
        opts.only.insert(name);
    } else {
      std::fprintf(stderr,
                   "usage: llk-gpu-check [--examples DIR] [--seed N] "
                   "[--only a,b] [--reps N] [--no-time] [--small] [--list]\n");
      return 2;
    }
    if (bad) {
      std::fprintf(stderr, "llk-gpu-check: %s\n", bad->c_str());
      return 2;
    }
  }
  if (list) {
    for (const KernelCheck &check : checks::kernelChecks())
      std::printf("%s\n", check.name.c_str());
    return 0;
  }
  // A name that matches no check is a mistake, not an empty pass.
  for (const std::string &name : opts.only)
    if (std::none_of(checks::kernelChecks().begin(), checks::kernelChecks().end(),
                     [&](const KernelCheck &c) { return c.name == name; })) {
      std::fprintf(stderr, "llk-gpu-check: no check named '%s' (--list names them)\n",
                   name.c_str());
      return 2;
    }

  std::vector<Row> rows;
  std::optional<rt::Device> device;
  // cuCtxSynchronize after each case: a fault it left behind is its own, and
  // after a sticky error the cases left do not run.
  rt::programs::CheckRun checkRun([&device] { device->synchronize(); });
  try {
    device = rt::Device::open(0);
    rt::JIT jit(*device);
    std::printf("device: %s (%s), seed %llu\n", device->name().c_str(),
                device->arch().c_str(), (unsigned long long)opts.seed);
    for (const KernelCheck &check : checks::kernelChecks()) {
      if (!opts.only.empty() && !opts.only.count(check.name))
        continue;
      std::vector<std::pair<std::string, std::function<void(Problem &)>>> cases{
          {"small", check.build}};
      if (!opts.smallOnly)
        for (const checks::GpuCase &c : check.gpuCases)
          cases.push_back({c.label, c.build});
      for (auto &[label, build] : cases) {
        Row row{check.name, label, CheckStatus::Failed, NAN, NAN, NAN, ""};
        row.status = checkRun.run(
            check.name + " " + label,
            [&](std::string &detail) {
              row = runCase(*device, jit, check, label, build, opts);
              detail = row.message;
              return row.status == CheckStatus::Passed;
            },
            row.message);
        bool passed = row.status == CheckStatus::Passed;
        std::printf("  %-28s %-22s %-7s  rel err %.3g  %s\n", row.check.c_str(),
                    row.shape.c_str(), rt::programs::toString(row.status), row.error,
                    passed ? "" : row.message.c_str());
        std::fflush(stdout);
        rows.push_back(row);
      }
    }
  } catch (const rt::Error &e) {
    std::fprintf(stderr, "llk-gpu-check: %s\n", e.what());
    return 1;
  }

  std::printf("\n| kernel | shape | result | rel err | median us | GB/s |\n");
  std::printf("|---|---|---|---:|---:|---:|\n");
  for (const Row &row : rows)
    std::printf("| %s | %s | %s | %.2e | %.2f | %.1f |\n", row.check.c_str(),
                row.shape.c_str(), rt::programs::toString(row.status), row.error,
                row.medianUs, row.gbps);
  std::printf("\n%s\n", checkRun.summary().c_str());
  return checkRun.exitCode();
}

int main(int argc, char **argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception &e) { // out of host memory...
    std::fprintf(stderr, "llk-gpu-check: %s\n", e.what());
    return 2;
  }
}
