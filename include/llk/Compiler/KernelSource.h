//===- KernelSource.h - a kernel source, specialized ------------*- C++ -*-===//
//
// Kernel sources use `${NAME}` placeholders for compile-time constants
// (shapes and element types included: ConstantValue). KernelSource binds
// them, parses the specialized text, and for as long as it lives prints the
// context's diagnostics with their locations mapped back to the text as
// written: the line shown and the column are the user's, not the specialized
// text's.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_COMPILER_KERNELSOURCE_H
#define LLK_COMPILER_KERNELSOURCE_H

#include "llk/ConstantValue.h"
#include "llk/Export.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include <string>

namespace llk {

/// Whether `name` may be a constant's NAME (`${NAME}`, `-D NAME=...`): an
/// identifier.
LLK_API bool isConstantName(llvm::StringRef name);

/// A `-D NAME=VALUE` argument (llkc, llk-run): NAME an identifier, VALUE an
/// integer in any C radix or an element type's name. On failure, the error
/// message.
LLK_API llvm::Expected<std::pair<std::string, ConstantValue>>
parseDefine(llvm::StringRef define);

/// The constants of `-D NAME=VALUE` arguments (parseDefine each; llkc,
/// llk-opt). On failure, the message: a malformed one, or a name bound twice.
LLK_API llvm::Expected<Constants>
parseDefines(llvm::ArrayRef<std::string> defines);

/// The most bytes a kernel source may have. The largest kernels are tens of
/// kilobytes; the bound keeps an endless input (a device, a pipe) from
/// growing the compiler until the system ends it.
constexpr uint64_t kMaxSourceBytes = 16 << 20;

/// Reads the kernel source at `path` ("-": standard input) into a buffer
/// named after it, for KernelSource. The file must be a regular file or a
/// pipe (not a directory or a device) of at most kMaxSourceBytes. On failure,
/// the message names the file and says why.
LLK_API llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readKernelSource(llvm::StringRef path);

class LLK_API KernelSource {
public:
  /// `text` keeps its buffer identifier as the file name in diagnostics,
  /// which go to `os`.
  KernelSource(mlir::MLIRContext &context,
               std::unique_ptr<llvm::MemoryBuffer> text,
               llvm::raw_ostream &os);
  ~KernelSource();
  KernelSource(const KernelSource &) = delete;
  KernelSource &operator=(const KernelSource &) = delete;

  /// Replaces every `${NAME}` with its bound value and parses the result.
  /// Unbound names (reported once each), bindings the source does not use
  /// and malformed placeholders are errors at their position; so are parse
  /// and verification errors. Returns null on failure.
  mlir::OwningOpRef<mlir::ModuleOp>
  parse(const Constants &constants);

private:
  /// A placeholder replaced on one line: columns (1-based) in both texts.
  struct Replacement {
    unsigned boundBegin, boundEnd, writtenBegin, writtenEnd;
  };
  /// Column in the text as written of column `column` of line `line` of the
  /// specialized text.
  unsigned writtenColumn(unsigned line, unsigned column) const;
  mlir::LogicalResult emit(mlir::Diagnostic &diag);
  /// Rejects result numbers (`%x#N`) the parser cannot take safely in the
  /// specialized text, with a diagnostic at the number.
  mlir::LogicalResult checkResultNumbers(llvm::StringRef text);
  void print(mlir::Location loc, llvm::SourceMgr::DiagKind kind,
             const llvm::Twine &message);

  mlir::MLIRContext &context;
  llvm::raw_ostream &os;
  llvm::SourceMgr written;
  std::string bufferName;
  std::map<unsigned, std::vector<Replacement>> replacements; // by line
  mlir::DiagnosticEngine::HandlerID handler;
  bool printedOpOnDiagnostic;
};

} // namespace llk

#endif // LLK_COMPILER_KERNELSOURCE_H
