//===- TensorDescriptor.h - a tensor descriptor for the interpreter -*- C++ -*-===//
//
// What a `!tile.tensordesc` argument points at in the interpreter (on the
// GPU: a CUtensorMap). Its own header, free of MLIR, so that the runtime
// (which holds no compiler) can make one: rt::TensorMap on the interpreter
// backend writes this into device memory and passes its address.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_INTERPRETER_TENSORDESCRIPTOR_H
#define LLK_INTERPRETER_TENSORDESCRIPTOR_H

#include <cstdint>

namespace llk::interp {

/// A row-major 2-D tensor of `rows` x `cols` elements of the descriptor's
/// type at `base`, rows `rowStride` elements apart. Blocks read past its
/// edges are zero, as TMA fills them.
struct TensorDescriptor {
  const void *base;
  int64_t rows, cols, rowStride;
};

} // namespace llk::interp

#endif // LLK_INTERPRETER_TENSORDESCRIPTOR_H
