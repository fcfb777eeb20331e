//===- InterpreterBackend.h - JIT modules for the interpreter ---*- C++ -*-===//
//
// The interpreter half of the JIT: a DSL source, specialized and verified
// (the tile module before layout assignment), as a Module of an interpreter
// device. LLKRuntime sees it only through rt::HostModule.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_RUNTIME_LIB_INTERPRETERBACKEND_H
#define LLK_RUNTIME_LIB_INTERPRETERBACKEND_H

#include "llk/runtime/JIT.h"

namespace llk::rt::detail {

/// Parses `source` with `options.constants` bound, applies
/// `options.numWarps`, and wraps the module for the interpreter. Throws
/// Compile with the diagnostics (file:line:col) on a bad source.
Module loadForInterpreter(const Device &device, const Source &source,
                          const JITOptions &options);

} // namespace llk::rt::detail

#endif // LLK_RUNTIME_LIB_INTERPRETERBACKEND_H
