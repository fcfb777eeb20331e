//===- llk-check-kernels.cpp - every kernel on the interpreter ------------===//
//
//   llk-check-kernels [--examples DIR] [--seed N] [--list] [NAME...]
//
// Runs each kernel check (all, or those named) on the interpreter against its
// float64 reference and prints one line per kernel:
//   <name> PASS|FAIL <rel. error> <details>
// Exit status 0 when all pass. scripts/compile-examples.sh shows them in its
// table.
//
//===----------------------------------------------------------------------===//

#include "Checks/KernelChecks.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

using namespace llk;

int main(int argc, char **argv) {
  std::string examples = LLK_EXAMPLES_DIR;
  uint64_t seed = std::random_device{}();
  bool list = false;
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if ((arg == "--examples" || arg == "--seed") && i + 1 < argc) {
      std::string value = argv[++i];
      if (arg == "--examples") {
        examples = value;
      } else {
        char *end = nullptr;
        seed = std::strtoull(value.c_str(), &end, 0);
        if (value.empty() || *end) {
          std::fprintf(stderr, "llk-check-kernels: --seed expects an integer, got '%s'\n",
                       value.c_str());
          return 2;
        }
      }
    } else if (arg == "--list") {
      list = true;
    } else if (!arg.empty() && arg[0] == '-') {
      std::fprintf(stderr,
                   "usage: llk-check-kernels [--examples DIR] [--seed N] [--list] [NAME...]\n");
      return 2;
    } else {
      names.push_back(arg);
    }
  }
  for (const std::string &name : names) {
    bool known = false;
    for (const auto &check : checks::kernelChecks())
      known |= check.name == name;
    if (!known) {
      std::fprintf(stderr, "llk-check-kernels: no kernel check named '%s' (--list shows them)\n",
                   name.c_str());
      return 2;
    }
  }
  if (list) {
    for (const auto &check : checks::kernelChecks())
      std::printf("%s\n", check.name.c_str());
    return 0;
  }

  auto context = checks::makeContext();
  int failed = 0;
  for (const auto &check : checks::kernelChecks()) {
    if (!names.empty() && std::find(names.begin(), names.end(), check.name) == names.end())
      continue;
    checks::CheckResult result = checks::runCheck(check, examples, seed, *context);
    failed += !result.passed;
    std::printf("%s %s %.2e seed=%llu %s\n", check.name.c_str(),
                result.passed ? "PASS" : "FAIL", result.error,
                static_cast<unsigned long long>(seed), result.message.c_str());
  }
  return failed ? 1 : 0;
}
