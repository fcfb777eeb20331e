//===- QuantBlocks.h - llama.cpp's q8_0 / q8_1 blocks for the checks -*- C++ -*-===//
//
// The packed formats of Llama's int8 kernels, built and read byte by byte as
// llama.cpp stores them (../shared/spec/llama-kernels.md), for the checks
// that make such inputs (LlamaQuantChecks.cpp, LlamaModelChecks.cpp):
//   block_q8_0 = 34 bytes { f16 d; int8 qs[32]; }
//   block_q8_1 = 36 bytes { f16 d; f16 s; int8 qs[32]; }
//
//===----------------------------------------------------------------------===//

#ifndef LLK_LIB_CHECKS_QUANTBLOCKS_H
#define LLK_LIB_CHECKS_QUANTBLOCKS_H

#include "Checks/KernelChecks.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace llk::checks::quant {

using llk::interp::ElemType;

constexpr int64_t kQK = 32;      // values a block
constexpr int64_t kQ8_0Bytes = 34;
constexpr int64_t kQ8_1Bytes = 36;

inline void putHalf(uint8_t *dst, double value) {
  llk::interp::encodeElement(ElemType::F16, value, dst);
}
inline double getHalf(const uint8_t *src) {
  return llk::interp::decodeElement(ElemType::F16, src);
}

/// One block quantized as llama.cpp does it: d = amax / 127 computed in
/// float (stored as f16), qs = round(x / d) half away from zero (0 when
/// amax = 0), and the sum of the inputs.
struct QuantBlock {
  float d = 0;
  double sum = 0;
  int8_t qs[kQK] = {};
};

inline QuantBlock quantizeBlock(const double *x) {
  QuantBlock block;
  double amax = 0;
  for (int64_t j = 0; j < kQK; ++j) {
    amax = std::max(amax, std::abs(x[j]));
    block.sum += x[j];
  }
  block.d = static_cast<float>(amax) / 127.0f;
  for (int64_t j = 0; j < kQK; ++j)
    block.qs[j] = amax == 0 ? 0 : static_cast<int8_t>(std::round(x[j] / block.d));
  return block;
}

inline void writeQ8_0(uint8_t *dst, const QuantBlock &block) {
  putHalf(dst, block.d);
  std::memcpy(dst + 2, block.qs, kQK);
}
inline void writeQ8_1(uint8_t *dst, const QuantBlock &block) {
  putHalf(dst, block.d);
  putHalf(dst + 2, block.sum);
  std::memcpy(dst + 4, block.qs, kQK);
}

/// The values of `rows` rows of `cols` (a multiple of 32) quantized into
/// blocks of `blockBytes` by `write`, row after row.
inline std::vector<uint8_t> packRows(const std::vector<double> &values, int64_t rows,
                              int64_t cols, int64_t blockBytes,
                              void (*write)(uint8_t *, const QuantBlock &)) {
  int64_t blocks = cols / kQK;
  std::vector<uint8_t> bytes(rows * blocks * blockBytes);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t b = 0; b < blocks; ++b)
      write(&bytes[(r * blocks + b) * blockBytes],
            quantizeBlock(&values[r * cols + b * kQK]));
  return bytes;
}

/// Makes `buffer` an i8 buffer holding `bytes` (a packed block format).
inline void holdBytes(HostBuffer &buffer, std::vector<uint8_t> bytes) {
  buffer.type = ElemType::I8;
  buffer.shape = {static_cast<int64_t>(bytes.size())};
  buffer.bytes = std::move(bytes);
  buffer.values.resize(buffer.bytes.size());
  for (size_t i = 0; i < buffer.bytes.size(); ++i)
    buffer.values[i] = static_cast<int8_t>(buffer.bytes[i]);
}

/// A random N x K weight matrix in block_q8_0 rows (normal values quantized).
inline HostBuffer &randomQ8_0(Problem &p, std::string name, int64_t rows, int64_t cols) {
  HostBuffer &w = p.randn(std::move(name), ElemType::F32, {rows, cols});
  holdBytes(w, packRows(w.values, rows, cols, kQ8_0Bytes, writeQ8_0));
  return w;
}

/// A random activation of `cols` values as block_q8_1 (normal values
/// quantized by the same rules as quantize_q8_1).
inline HostBuffer &randomQ8_1(Problem &p, std::string name, int64_t cols) {
  HostBuffer &x = p.randn(std::move(name), ElemType::F32, {cols});
  holdBytes(x, packRows(x.values, 1, cols, kQ8_1Bytes, writeQ8_1));
  return x;
}

/// The scale and quant j of block b of row r of a packed matrix.
struct PackedView {
  const HostBuffer &buffer;
  int64_t blocksPerRow, blockBytes, quantsAt;
  const uint8_t *block(int64_t r, int64_t b) const {
    return &buffer.bytes[(r * blocksPerRow + b) * blockBytes];
  }
  double d(int64_t r, int64_t b) const { return getHalf(block(r, b)); }
  int q(int64_t r, int64_t b, int64_t j) const {
    return static_cast<int8_t>(block(r, b)[quantsAt + j]);
  }
};
inline PackedView viewQ8_0(const HostBuffer &w, int64_t cols) {
  return {w, cols / kQK, kQ8_0Bytes, 2};
}
inline PackedView viewQ8_1(const HostBuffer &x, int64_t cols) {
  return {x, cols / kQK, kQ8_1Bytes, 4};
}

/// A random N x K q8_0 matrix in llk-llama's split layout (the decode
/// kernels' and dequant_q8_0_trans's; llama/lib/Engine.cpp): the blocks'
/// quants as i8 [rows][cols], their scales as f16 [rows][cols / 32]. The
/// same bytes as block_q8_0 rows, rearranged so that every 16 quants are an
/// aligned 16-byte word.
struct SplitQ8_0 {
  HostBuffer &quants, &scales;
  int64_t cols;
  double d(int64_t r, int64_t b) const { return scales[r * (cols / kQK) + b]; }
  int q(int64_t r, int64_t b, int64_t j) const {
    return static_cast<int>(quants[r * cols + b * kQK + j]);
  }
};
inline SplitQ8_0 randomSplitQ8_0(Problem &p, const std::string &name, int64_t rows,
                                 int64_t cols) {
  HostBuffer &q = p.randn(name, ElemType::F32, {rows, cols});
  std::vector<uint8_t> blocks = packRows(q.values, rows, cols, kQ8_0Bytes, writeQ8_0);
  HostBuffer &d = p.zeros(name + "_d", ElemType::F16, {rows * cols / kQK});
  std::vector<uint8_t> quants(rows * cols);
  for (int64_t i = 0; i < rows * cols / kQK; ++i) {
    d.set(i, getHalf(&blocks[i * kQ8_0Bytes]));
    std::memcpy(&quants[i * kQK], &blocks[i * kQ8_0Bytes + 2], kQK);
  }
  holdBytes(q, std::move(quants));
  return {q, d, cols};
}

} // namespace llk::checks::quant

#endif // LLK_LIB_CHECKS_QUANTBLOCKS_H
