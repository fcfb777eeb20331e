//===- GGUFWriter.cpp - write GGUF v3 files --------------------------------===//
//
// The metadata and the tensor table are serialized in memory (they are
// small); the tensor data is streamed to the output, each tensor padded to
// the alignment as ggml pads it.
//
//===----------------------------------------------------------------------===//

#include "llk/llama/GGUF.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace llk::llama;
using llvm::StringRef;

template <typename T>
static void appendLE(std::string &out, T value) {
  char bytes[sizeof(T)];
  llvm::support::endian::write<T, llvm::endianness::little>(bytes, value);
  out.append(bytes, sizeof(T));
}

static void appendString(std::string &out, StringRef text) {
  appendLE<uint64_t>(out, text.size());
  out.append(text.data(), text.size());
}

static uint32_t bitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

GGUFWriter::GGUFWriter(uint32_t alignment) : alignment_(alignment) {
  if (!llvm::isPowerOf2_32(alignment))
    throw Error("GGUFWriter: alignment " + std::to_string(alignment) +
                " is not a power of two");
  if (alignment != 32)
    addUInt32("general.alignment", alignment);
}

void GGUFWriter::beginEntry(StringRef key, GGUFType type) {
  if (os_)
    throw Error("GGUFWriter: key '" + key.str() + "' added after the header was written");
  if (key.empty() || !keys_.try_emplace(key, true).second)
    throw Error("GGUFWriter: key '" + key.str() + "' is empty or added twice");
  appendString(metadata_, key);
  appendLE<uint32_t>(metadata_, static_cast<uint32_t>(type));
  ++metadataCount_;
}

void GGUFWriter::addUInt32(StringRef key, uint32_t value) {
  beginEntry(key, GGUFType::UInt32);
  appendLE<uint32_t>(metadata_, value);
}

void GGUFWriter::addInt32(StringRef key, int32_t value) {
  beginEntry(key, GGUFType::Int32);
  appendLE<int32_t>(metadata_, value);
}

void GGUFWriter::addUInt64(StringRef key, uint64_t value) {
  beginEntry(key, GGUFType::UInt64);
  appendLE<uint64_t>(metadata_, value);
}

void GGUFWriter::addFloat32(StringRef key, float value) {
  beginEntry(key, GGUFType::Float32);
  appendLE<uint32_t>(metadata_, bitsOf(value));
}

void GGUFWriter::addBool(StringRef key, bool value) {
  beginEntry(key, GGUFType::Bool);
  metadata_.push_back(value ? 1 : 0);
}

void GGUFWriter::addString(StringRef key, StringRef value) {
  beginEntry(key, GGUFType::String);
  appendString(metadata_, value);
}

void GGUFWriter::addStringArray(StringRef key, llvm::ArrayRef<std::string> values) {
  beginEntry(key, GGUFType::Array);
  appendLE<uint32_t>(metadata_, static_cast<uint32_t>(GGUFType::String));
  appendLE<uint64_t>(metadata_, values.size());
  for (const std::string &value : values)
    appendString(metadata_, value);
}

void GGUFWriter::addFloat32Array(StringRef key, llvm::ArrayRef<float> values) {
  beginEntry(key, GGUFType::Array);
  appendLE<uint32_t>(metadata_, static_cast<uint32_t>(GGUFType::Float32));
  appendLE<uint64_t>(metadata_, values.size());
  for (float value : values)
    appendLE<uint32_t>(metadata_, bitsOf(value));
}

void GGUFWriter::addInt32Array(StringRef key, llvm::ArrayRef<int32_t> values) {
  beginEntry(key, GGUFType::Array);
  appendLE<uint32_t>(metadata_, static_cast<uint32_t>(GGUFType::Int32));
  appendLE<uint64_t>(metadata_, values.size());
  for (int32_t value : values)
    appendLE<int32_t>(metadata_, value);
}

uint64_t GGUFWriter::addTensor(StringRef name, llvm::ArrayRef<uint64_t> dims, GGMLType type) {
  std::string what = "GGUFWriter: tensor '" + name.str() + "'";
  if (os_)
    throw Error(what + " declared after the header was written");
  if (name.empty() || tensorNames_.count(name))
    throw Error(what + " is unnamed or declared twice");
  const GGMLTypeInfo *info = lookupGGMLType(static_cast<uint32_t>(type));
  if (!info || dims.empty() || dims.size() > 4)
    throw Error(what + ": unknown type or not 1 to 4 dimensions");
  if (dims[0] % info->blockSize != 0)
    throw Error(what + ": rows of " + std::to_string(dims[0]) +
                " elements are not a multiple of the " + info->name + " block size");
  uint64_t elements = 1;
  for (uint64_t dim : dims)
    if (__builtin_mul_overflow(elements, dim, &elements))
      throw Error(what + ": too many elements");
  uint64_t bytes;
  if (__builtin_mul_overflow(elements / info->blockSize, uint64_t(info->blockBytes), &bytes))
    throw Error(what + ": too many bytes");
  tensorNames_.try_emplace(name, true);
  tensors_.push_back({name.str(), llvm::SmallVector<uint64_t, 4>(dims.begin(), dims.end()),
                      type, dataSize_, bytes});
  dataSize_ += llvm::alignTo(bytes, alignment_);
  return bytes;
}

void GGUFWriter::padTo(uint64_t alignment) {
  static const char zeros[64] = {};
  uint64_t padding = llvm::alignTo(written_, alignment) - written_;
  while (padding) {
    uint64_t chunk = std::min<uint64_t>(padding, sizeof zeros);
    os_->write(zeros, chunk);
    written_ += chunk;
    padding -= chunk;
  }
}

void GGUFWriter::writeHeader(llvm::raw_ostream &os) {
  if (os_)
    throw Error("GGUFWriter: the header is written twice");
  std::string header = "GGUF";
  appendLE<uint32_t>(header, 3);
  appendLE<uint64_t>(header, tensors_.size());
  appendLE<uint64_t>(header, metadataCount_);
  header += metadata_;
  for (const Tensor &tensor : tensors_) {
    appendString(header, tensor.name);
    appendLE<uint32_t>(header, tensor.dims.size());
    for (uint64_t dim : tensor.dims)
      appendLE<uint64_t>(header, dim);
    appendLE<uint32_t>(header, static_cast<uint32_t>(tensor.type));
    appendLE<uint64_t>(header, tensor.offset);
  }
  os_ = &os;
  os.write(header.data(), header.size());
  written_ = header.size();
  padTo(alignment_);
  current_ = 0;
  currentWritten_ = 0;
  while (current_ < tensors_.size() && tensors_[current_].numBytes == 0)
    ++current_;
}

void GGUFWriter::writeTensorData(llvm::ArrayRef<uint8_t> bytes) {
  if (!os_)
    throw Error("GGUFWriter: tensor data written before the header");
  while (!bytes.empty()) {
    if (current_ >= tensors_.size())
      throw Error("GGUFWriter: more data than the declared tensors hold");
    const Tensor &tensor = tensors_[current_];
    uint64_t chunk = std::min<uint64_t>(bytes.size(), tensor.numBytes - currentWritten_);
    os_->write(reinterpret_cast<const char *>(bytes.data()), chunk);
    written_ += chunk;
    currentWritten_ += chunk;
    bytes = bytes.drop_front(chunk);
    if (currentWritten_ == tensor.numBytes) {
      padTo(alignment_);
      currentWritten_ = 0;
      ++current_;
      while (current_ < tensors_.size() && tensors_[current_].numBytes == 0)
        ++current_;
    }
  }
}

void GGUFWriter::finish() {
  if (!os_)
    throw Error("GGUFWriter: finish before the header");
  if (current_ < tensors_.size())
    throw Error("GGUFWriter: tensor '" + tensors_[current_].name + "' got " +
                std::to_string(currentWritten_) + " of its " +
                std::to_string(tensors_[current_].numBytes) + " bytes");
  os_->flush();
}
