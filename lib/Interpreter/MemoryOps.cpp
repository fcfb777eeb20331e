//===- MemoryOps.cpp - loads, stores, prefetches, atomics, descriptors ----===//
//
// Every element's access is checked (Executor::checkAccess) before it
// touches host memory; masked-off elements touch nothing. Atomics are
// sequential here: one program runs at a time.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include <limits>

using namespace mlir;
using namespace llk;
using namespace llk::interp;
using namespace llk::interp::detail;

namespace {

uint64_t readBits(uint64_t address, unsigned size) {
  uint64_t bits = 0;
  std::memcpy(&bits, reinterpret_cast<const void *>(address), size);
  return bits;
}
void writeBits(uint64_t address, unsigned size, uint64_t bits) {
  std::memcpy(reinterpret_cast<void *>(address), &bits, size);
}

/// The element type of what the pointers of `ptr` point at.
ElemInfo pointeeInfo(Value ptr) {
  return infoOf(infoOf(elementTypeOf(ptr.getType())).pointee);
}
unsigned pointeeBytes(Value ptr) {
  return infoOf(elementTypeOf(ptr.getType())).pointeeBytes;
}

/// Value of masked-off loads without `other`:
/// NaN for floats, 0xDEADBEEF... truncated to the width for integers.
Elem poisonElem(const ElemInfo &info) {
  Elem e;
  if (info.kind == ElemInfo::Float)
    e.f = std::numeric_limits<double>::quiet_NaN();
  else
    e.i = wrapInt(0xDEADBEEFDEADBEEFull, info.bits);
  return e;
}

bool addptr(Executor &ex, tile::AddPtrOp op) {
  const Tile &ptrs = ex.get(op.getPtr()), &offsets = ex.get(op.getOffset());
  uint64_t size = pointeeBytes(op.getPtr());
  Tile out = Executor::makeTile(op.getType());
  for (size_t i = 0; i < out.size(); ++i)
    out.data[i].i = static_cast<int64_t>(static_cast<uint64_t>(ptrs.data[i].i) +
                                         static_cast<uint64_t>(offsets.data[i].i) * size);
  ex.set(op.getResult(), std::move(out));
  return true;
}

bool load(Executor &ex, tile::LoadOp op) {
  const Tile &ptrs = ex.get(op.getPtr());
  const Tile *mask = op.getMask() ? &ex.get(op.getMask()) : nullptr;
  const Tile *other = op.getOther() ? &ex.get(op.getOther()) : nullptr;
  ElemInfo info = pointeeInfo(op.getPtr());
  unsigned size = pointeeBytes(op.getPtr());
  Tile out = Executor::makeTile(op.getType());
  for (size_t i = 0; i < out.size(); ++i) {
    if (mask && !mask->data[i].i) {
      out.data[i] = other ? other->data[i] : poisonElem(info);
      continue;
    }
    uint64_t address = static_cast<uint64_t>(ptrs.data[i].i);
    if (!ex.checkAccess(op, "load", true, address, size, out.shape, i))
      return false;
    out.data[i] = elemFromBits(info, readBits(address, size));
  }
  ex.set(op.getResult(), std::move(out));
  return true;
}

/// A block of a tensor descriptor's tensor (TensorDescriptor): zeros past
/// its edges, every element inside read from its buffer.
bool descriptorLoad(Executor &ex, tile::DescriptorLoadOp op) {
  const auto *desc = reinterpret_cast<const TensorDescriptor *>(
      static_cast<uintptr_t>(ex.get(op.getDesc()).data[0].i));
  int64_t row = ex.get(op.getRow()).data[0].i, col = ex.get(op.getCol()).data[0].i;
  ElemInfo info = infoOf(op.getType().getElementType());
  unsigned size = (info.bits + 7) / 8;
  Tile out = Executor::makeTile(op.getType());
  int64_t cols = out.shape[1];
  for (size_t i = 0; i < out.size(); ++i) {
    int64_t r = row + int64_t(i) / cols, c = col + int64_t(i) % cols;
    if (r < 0 || r >= desc->rows || c < 0 || c >= desc->cols) {
      out.data[i] = elemFromBits(info, 0);
      continue;
    }
    uint64_t address = reinterpret_cast<uintptr_t>(desc->base) +
                       uint64_t(r * desc->rowStride + c) * size;
    if (!ex.checkAccess(op, "load", true, address, size, out.shape, i))
      return false;
    out.data[i] = elemFromBits(info, readBits(address, size));
  }
  ex.set(op.getResult(), std::move(out));
  return true;
}

/// A prefetch changes nothing, but its addresses must be valid.
bool prefetch(Executor &ex, tile::PrefetchOp op) {
  const Tile &ptrs = ex.get(op.getPtr());
  const Tile *mask = op.getMask() ? &ex.get(op.getMask()) : nullptr;
  unsigned size = pointeeBytes(op.getPtr());
  for (size_t i = 0; i < ptrs.size(); ++i) {
    if (mask && !mask->data[i].i)
      continue;
    if (!ex.checkAccess(op, "prefetch", false,
                        static_cast<uint64_t>(ptrs.data[i].i), size, ptrs.shape, i))
      return false;
  }
  return true;
}

bool store(Executor &ex, tile::StoreOp op) {
  const Tile &ptrs = ex.get(op.getPtr()), &values = ex.get(op.getValue());
  const Tile *mask = op.getMask() ? &ex.get(op.getMask()) : nullptr;
  ElemInfo info = pointeeInfo(op.getPtr());
  unsigned size = pointeeBytes(op.getPtr());
  for (size_t i = 0; i < ptrs.size(); ++i) {
    if (mask && !mask->data[i].i)
      continue;
    uint64_t address = static_cast<uint64_t>(ptrs.data[i].i);
    Buffer *buffer = ex.checkAccess(op, "store", false, address, size, ptrs.shape, i);
    if (!buffer)
      return false;
    writeBits(address, size, elemBits(info, values.data[i]));
    buffer->markWritten(address - buffer->base, size);
  }
  return true;
}

/// f32 flushed to zero (sign kept) if subnormal, as atom.add.f32 on
/// global memory treats its inputs and result.
float flushSubnormal(float x) {
  return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
}

bool atomicRMW(Executor &ex, tile::AtomicRMWOp op) {
  const Tile &ptrs = ex.get(op.getPtr()), &values = ex.get(op.getValue());
  const Tile *mask = op.getMask() ? &ex.get(op.getMask()) : nullptr;
  ElemInfo info = pointeeInfo(op.getPtr());
  unsigned size = pointeeBytes(op.getPtr());
  bool isFloatElem = info.kind == ElemInfo::Float; // f32 (the verifier's)
  Tile out = Executor::makeTile(op.getType());
  for (size_t i = 0; i < out.size(); ++i) {
    // Masked-off elements touch nothing and return 0 (the op's contract).
    if (mask && !mask->data[i].i) {
      out.data[i] = elemFromBits(info, 0);
      continue;
    }
    uint64_t address = static_cast<uint64_t>(ptrs.data[i].i);
    Buffer *buffer = ex.checkAccess(op, "atomic", true, address, size, out.shape, i);
    if (!buffer)
      return false;
    uint64_t oldBits = readBits(address, size);
    Elem old = elemFromBits(info, oldBits), value = values.data[i];
    uint64_t valueBits = elemBits(info, value);
    uint64_t newBits = oldBits;
    switch (op.getKind()) {
    case tile::AtomicRMWKind::Add:
      if (isFloatElem)
        newBits = floatBits(
            FloatKind::F32,
            flushSubnormal(flushSubnormal(static_cast<float>(old.f)) +
                           flushSubnormal(static_cast<float>(value.f))));
      else
        newBits = zextInt(static_cast<int64_t>(oldBits + valueBits), 32);
      break;
    case tile::AtomicRMWKind::Max:
    case tile::AtomicRMWKind::Min: {
      // Integers compare as signed; f32 as the GPU's atomics order its
      // bits (NaN included): as signed integers where the new value's
      // sign is clear, as unsigned (reversed) where it is set.
      bool isMax = op.getKind() == tile::AtomicRMWKind::Max;
      int32_t so = static_cast<int32_t>(oldBits), sv = static_cast<int32_t>(valueBits);
      uint32_t uo = static_cast<uint32_t>(oldBits), uv = static_cast<uint32_t>(valueBits);
      bool keepOld;
      if (!isFloatElem || sv >= 0)
        keepOld = isMax ? so >= sv : so <= sv;
      else
        keepOld = isMax ? uo <= uv : uo >= uv;
      newBits = keepOld ? oldBits : valueBits;
      break;
    }
    case tile::AtomicRMWKind::Xchg:
      newBits = valueBits;
      break;
    }
    writeBits(address, size, newBits);
    buffer->markWritten(address - buffer->base, size);
    out.data[i] = old;
  }
  ex.set(op.getResult(), std::move(out));
  return true;
}

bool atomicCAS(Executor &ex, tile::AtomicCASOp op) {
  const Tile &ptrs = ex.get(op.getPtr()), &cmp = ex.get(op.getCmp()),
             &values = ex.get(op.getValue());
  ElemInfo info = pointeeInfo(op.getPtr());
  unsigned size = pointeeBytes(op.getPtr());
  Tile out = Executor::makeTile(op.getType());
  for (size_t i = 0; i < out.size(); ++i) {
    uint64_t address = static_cast<uint64_t>(ptrs.data[i].i);
    Buffer *buffer = ex.checkAccess(op, "atomic", true, address, size, out.shape, i);
    if (!buffer)
      return false;
    uint64_t old = readBits(address, size);
    // Compares bits, as atom.cas.b32 does.
    if (old == elemBits(info, cmp.data[i])) {
      writeBits(address, size, elemBits(info, values.data[i]));
      buffer->markWritten(address - buffer->base, size);
    }
    out.data[i] = elemFromBits(info, old);
  }
  ex.set(op.getResult(), std::move(out));
  return true;
}

} // namespace

void llk::interp::detail::registerMemoryOps(OpHandlerTable &table) {
  table.add<addptr>();
  table.add<load>();
  table.add<descriptorLoad>();
  table.add<store>();
  table.add<prefetch>();
  table.add<atomicRMW>();
  table.add<atomicCAS>();
}
