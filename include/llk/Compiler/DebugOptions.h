//===- DebugOptions.h - -debug and -debug-only for llk's tools --*- C++ -*-===//
//
// llk's passes trace their decisions with LLVM_DEBUG under their pass name
// as DEBUG_TYPE (tile-assign-layouts, tile-software-pipeline, ...). The
// traces exist only in code compiled without NDEBUG: a build configured
// with -DLLK_ENABLE_DEBUG_OUTPUT=ON. Debian's LLVM is built without
// assertions, so its libLLVM registers no -debug option; llkc and llk-opt
// register their own (over libLLVM's DebugFlag and setCurrentDebugTypes).
//
//===----------------------------------------------------------------------===//

#ifndef LLK_COMPILER_DEBUGOPTIONS_H
#define LLK_COMPILER_DEBUGOPTIONS_H

#include "llk/Export.h"

namespace llk {

/// Whether llk's code was compiled with its LLVM_DEBUG output
/// (LLK_ENABLE_DEBUG_OUTPUT).
LLK_API bool hasDebugOutput();

/// Registers -debug (every trace) and -debug-only=TYPE[,TYPE...] (those
/// passes' only) as command-line options, before they are parsed: where
/// hasDebugOutput() and LLVM does not register them itself (an LLVM built
/// with assertions does). Otherwise does nothing.
LLK_API void registerDebugOptions();

} // namespace llk

#endif // LLK_COMPILER_DEBUGOPTIONS_H
