//===- ArgumentHints.h - what a kernel's arguments promise ------*- C++ -*-===//
//
// `tile.divisibility` (or its synonym `tile.alignment`) on a kernel argument
// promises that a pointer's address is a multiple of N bytes, or that an
// integer's value is a multiple of N. The contiguity analysis (AxisInfo.h)
// starts from it, and the kernel metadata records it as the argument's
// contract, which every launch checks (docs/runtime.md).
//
//===----------------------------------------------------------------------===//

#ifndef LLK_ANALYSIS_ARGUMENTHINTS_H
#define LLK_ANALYSIS_ARGUMENTHINTS_H

#include "llk/Export.h"

#include "mlir/IR/Operation.h"
#include <cstdint>

namespace llk {

/// What argument `index` of `kernel` (a func.func) promises: the larger of
/// its `tile.divisibility` and `tile.alignment` (powers of two), or 1.
LLK_API int64_t getArgDivisibility(mlir::Operation *kernel, unsigned index);

} // namespace llk

#endif // LLK_ANALYSIS_ARGUMENTHINTS_H
