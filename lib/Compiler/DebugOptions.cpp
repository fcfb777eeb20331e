//===- DebugOptions.cpp - -debug and -debug-only for llk's tools ----------===//

#include "llk/Compiler/DebugOptions.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include <string>
#include <vector>

namespace cl = llvm::cl;

bool llk::hasDebugOutput() {
#ifndef NDEBUG
  return true;
#else
  return false;
#endif
}

void llk::registerDebugOptions() {
#ifndef NDEBUG
  if (cl::getRegisteredOptions().count("debug"))
    return;
  static cl::opt<bool, /*ExternalStorage=*/true> debug(
      "debug", cl::desc("Print the debug output of llk's passes (LLVM_DEBUG)"),
      cl::location(llvm::DebugFlag));
  // As LLVM's own -debug-only: it turns the output on, for these types.
  static std::vector<std::string> types;
  static cl::list<std::string> debugOnly(
      "debug-only",
      cl::desc("Print the debug output of these passes only (their "
               "DEBUG_TYPE: tile-assign-layouts, tile-software-pipeline, ...)"),
      cl::value_desc("type"), cl::CommaSeparated,
      cl::callback([](const std::string &type) {
        types.push_back(type);
        std::vector<const char *> names;
        for (const std::string &name : types)
          names.push_back(name.c_str());
        llvm::DebugFlag = true;
        llvm::setCurrentDebugTypes(names.data(), names.size());
      }));
#endif
}
