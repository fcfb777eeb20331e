//===- GGUFReader.cpp - parse and check GGUF files --------------------------===//
//
// Every count, length and offset read from the file is checked against the
// bytes that remain before it is used: a count is believed only if the file
// could hold that many of the smallest element, so a corrupt header cannot
// make the reader allocate or read past the end.
//
//===----------------------------------------------------------------------===//

#include "llk/llama/GGUF.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cinttypes>
#include <cstring>
#include <limits>

using namespace llk::llama;
using llvm::StringRef;
namespace endian = llvm::support::endian;

//===----------------------------------------------------------------------===//
// GGUFValue
//===----------------------------------------------------------------------===//

const char *llk::llama::toString(GGUFType type) {
  switch (type) {
  case GGUFType::UInt8: return "u8";
  case GGUFType::Int8: return "i8";
  case GGUFType::UInt16: return "u16";
  case GGUFType::Int16: return "i16";
  case GGUFType::UInt32: return "u32";
  case GGUFType::Int32: return "i32";
  case GGUFType::Float32: return "f32";
  case GGUFType::Bool: return "bool";
  case GGUFType::String: return "string";
  case GGUFType::Array: return "array";
  case GGUFType::UInt64: return "u64";
  case GGUFType::Int64: return "i64";
  case GGUFType::Float64: return "f64";
  }
  return "unknown";
}

bool GGUFValue::isIntegerType(GGUFType type) {
  switch (type) {
  case GGUFType::UInt8: case GGUFType::Int8: case GGUFType::UInt16: case GGUFType::Int16:
  case GGUFType::UInt32: case GGUFType::Int32: case GGUFType::UInt64: case GGUFType::Int64:
    return true;
  default:
    return false;
  }
}

unsigned GGUFValue::scalarBytes(GGUFType type) {
  switch (type) {
  case GGUFType::UInt8: case GGUFType::Int8: case GGUFType::Bool: return 1;
  case GGUFType::UInt16: case GGUFType::Int16: return 2;
  case GGUFType::UInt32: case GGUFType::Int32: case GGUFType::Float32: return 4;
  case GGUFType::UInt64: case GGUFType::Int64: case GGUFType::Float64: return 8;
  case GGUFType::String: case GGUFType::Array: return 0;
  }
  return 0;
}

/// The integer whose `type` bits are `bits` (zero-extended), if it fits int64.
static std::optional<int64_t> integerOf(GGUFType type, uint64_t bits) {
  switch (type) {
  case GGUFType::UInt8: case GGUFType::UInt16: case GGUFType::UInt32:
    return static_cast<int64_t>(bits);
  case GGUFType::UInt64:
    if (bits > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      return std::nullopt;
    return static_cast<int64_t>(bits);
  case GGUFType::Int8: return static_cast<int8_t>(bits);
  case GGUFType::Int16: return static_cast<int16_t>(bits);
  case GGUFType::Int32: return static_cast<int32_t>(bits);
  case GGUFType::Int64: return static_cast<int64_t>(bits);
  default: return std::nullopt;
  }
}

static double floatOf(GGUFType type, uint64_t bits) {
  if (type == GGUFType::Float32) {
    uint32_t narrow = static_cast<uint32_t>(bits);
    float value;
    std::memcpy(&value, &narrow, sizeof value);
    return value;
  }
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

/// The little-endian scalar of `bytes` bytes at `data`, zero-extended.
static uint64_t readBits(const uint8_t *data, unsigned bytes) {
  switch (bytes) {
  case 1: return data[0];
  case 2: return endian::read16le(data);
  case 4: return endian::read32le(data);
  default: return endian::read64le(data);
  }
}

std::optional<int64_t> GGUFValue::asInteger() const { return integerOf(type, bits); }

std::optional<double> GGUFValue::asFloat() const {
  if (!isFloat())
    return std::nullopt;
  return floatOf(type, bits);
}

std::optional<int64_t> GGUFValue::integerAt(uint64_t i) const {
  unsigned bytes = scalarBytes(elementType);
  return integerOf(elementType, readBits(
      reinterpret_cast<const uint8_t *>(elementBytes.data()) + i * bytes, bytes));
}

double GGUFValue::floatAt(uint64_t i) const {
  unsigned bytes = scalarBytes(elementType);
  return floatOf(elementType, readBits(
      reinterpret_cast<const uint8_t *>(elementBytes.data()) + i * bytes, bytes));
}

static std::string quoted(StringRef text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\')
      out += '\\', out += static_cast<char>(c);
    else if (c < 0x20 || c == 0x7f)
      out += "\\x", out += llvm::hexdigit(c >> 4, true), out += llvm::hexdigit(c & 15, true);
    else
      out += static_cast<char>(c);
  }
  return out + "\"";
}

static std::string formatScalar(GGUFType type, uint64_t bits) {
  if (type == GGUFType::Bool)
    return bits ? "true" : "false";
  if (type == GGUFType::Float32 || type == GGUFType::Float64) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", floatOf(type, bits));
    return text;
  }
  if (type == GGUFType::UInt64)
    return std::to_string(bits);
  return std::to_string(*integerOf(type, bits));
}

std::string llk::llama::formatValue(const GGUFValue &value, size_t maxElements) {
  if (value.type == GGUFType::String)
    return quoted(value.string);
  if (value.type != GGUFType::Array)
    return formatScalar(value.type, value.bits);
  std::string out = std::string(toString(value.elementType)) + "[" +
                    std::to_string(value.count) + "] [";
  uint64_t shown = std::min<uint64_t>(value.count, maxElements);
  unsigned bytes = GGUFValue::scalarBytes(value.elementType);
  for (uint64_t i = 0; i < shown; ++i) {
    if (i)
      out += ", ";
    if (value.elementType == GGUFType::String)
      out += quoted(value.strings[i]);
    else
      out += formatScalar(value.elementType,
                          readBits(reinterpret_cast<const uint8_t *>(
                                       value.elementBytes.data()) + i * bytes, bytes));
  }
  return out + (shown < value.count ? ", ...]" : "]");
}

std::string GGUFTensorInfo::shapeString() const {
  std::string out = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    out += (i ? ", " : "") + std::to_string(dims[i]);
  return out + "]";
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

namespace {
/// Reads little-endian values from the file, failing (naming what was being
/// read) where the file ends too soon.
class Cursor {
public:
  Cursor(const GGUFFile &file, llvm::ArrayRef<uint8_t> bytes) : file(file), bytes(bytes) {}

  uint64_t offset() const { return pos; }
  uint64_t remaining() const { return bytes.size() - pos; }
  const uint8_t *here() const { return bytes.data() + pos; }

  void need(uint64_t count, llvm::function_ref<std::string()> what) const {
    if (count > remaining())
      file.fail("truncated file: " + what() + " needs " + std::to_string(count) +
                " bytes at offset " + std::to_string(pos) + ", but the file ends at " +
                std::to_string(bytes.size()));
  }
  /// A count of things of at least `minBytes` each that the rest of the
  /// file cannot hold.
  [[noreturn]] void countTooLarge(const std::string &what, uint64_t count,
                                  uint64_t minBytes) const {
    std::string needed = count > UINT64_MAX / minBytes
                             ? "more than 2^64"
                             : "at least " + std::to_string(count * minBytes);
    file.fail("truncated or corrupt file: " + what + " " + std::to_string(count) +
              ", which needs " + needed + " bytes, but " + std::to_string(remaining()) +
              " remain after offset " + std::to_string(pos));
  }
  uint64_t scalar(unsigned size, llvm::function_ref<std::string()> what) {
    need(size, what);
    uint64_t bits = readBits(here(), size);
    pos += size;
    return bits;
  }
  uint32_t u32(llvm::function_ref<std::string()> what) {
    return static_cast<uint32_t>(scalar(4, what));
  }
  uint64_t u64(llvm::function_ref<std::string()> what) { return scalar(8, what); }
  StringRef string(llvm::function_ref<std::string()> what) {
    uint64_t length = u64([&] { return "the length of " + what(); });
    need(length, what);
    StringRef text(reinterpret_cast<const char *>(here()), length);
    pos += length;
    return text;
  }
  StringRef bytesOf(uint64_t count, llvm::function_ref<std::string()> what) {
    need(count, what);
    StringRef text(reinterpret_cast<const char *>(here()), count);
    pos += count;
    return text;
  }

private:
  const GGUFFile &file;
  llvm::ArrayRef<uint8_t> bytes;
  uint64_t pos = 0;
};
} // namespace

// The smallest encodings, to bound counts by what the file can hold: a
// metadata entry (empty key length, type, one byte of value), a tensor info
// (name length, n_dims, type, offset), a string (its length).
static constexpr uint64_t kMinEntryBytes = 8 + 4 + 1;
static constexpr uint64_t kMinTensorInfoBytes = 8 + 4 + 8 + 4 + 8;
static constexpr uint64_t kMinStringBytes = 8;
static constexpr uint32_t kMaxDims = 4; // GGML_MAX_DIMS
static constexpr uint32_t kMaxAlignment = 1u << 20;

void GGUFFile::fail(const std::string &message) const { throw Error(name_ + ": " + message); }

GGUFFile::GGUFFile(GGUFFile &&) = default;
GGUFFile &GGUFFile::operator=(GGUFFile &&) = default;
GGUFFile::~GGUFFile() = default;

uint64_t GGUFFile::fileSize() const { return buffer_->getBufferSize(); }

GGUFFile GGUFFile::open(StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    throw Error(path.str() + ": cannot open: " + buffer.getError().message());
  return fromBuffer(std::move(*buffer), path);
}

GGUFFile GGUFFile::fromBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer, StringRef name) {
  GGUFFile file;
  file.buffer_ = std::move(buffer);
  file.name_ = name.str();
  file.parse();
  return file;
}

void GGUFFile::parse() {
  llvm::ArrayRef<uint8_t> bytes(
      reinterpret_cast<const uint8_t *>(buffer_->getBufferStart()), buffer_->getBufferSize());
  Cursor in(*this, bytes);

  if (bytes.size() < 4 || std::memcmp(bytes.data(), "GGUF", 4) != 0) {
    std::string found;
    for (size_t i = 0; i < std::min<size_t>(4, bytes.size()); ++i)
      found += (i ? " " : "") + llvm::utohexstr(bytes[i], false, 2);
    fail("not a GGUF file: the magic is [" + found + "], expected \"GGUF\" [47 47 55 46]");
  }
  in.bytesOf(4, [] { return "the magic"; });
  version_ = in.u32([] { return std::string("the version"); });
  if (version_ == 0x02000000 || version_ == 0x03000000)
    fail("big-endian GGUF files are not supported");
  if (version_ != 2 && version_ != 3)
    fail("unsupported GGUF version " + std::to_string(version_) +
         " (llk reads versions 2 and 3)");
  uint64_t tensorCount = in.u64([] { return std::string("the tensor count"); });
  uint64_t entryCount = in.u64([] { return std::string("the metadata count"); });
  if (entryCount > in.remaining() / kMinEntryBytes)
    in.countTooLarge("the header's metadata count", entryCount, kMinEntryBytes);

  // Metadata.
  metadata_.reserve(entryCount);
  for (uint64_t i = 0; i < entryCount; ++i) {
    uint64_t start = in.offset();
    auto entry = [&] { return "metadata entry " + std::to_string(i); };
    StringRef key = in.string([&] { return "the key of " + entry(); });
    if (key.empty())
      fail(entry() + " has an empty key");
    auto named = [&] { return "the value of key '" + key.str() + "'"; };
    uint32_t typeId = in.u32([&] { return "the type of key '" + key.str() + "'"; });
    if (typeId > static_cast<uint32_t>(GGUFType::Float64))
      fail("key '" + key.str() + "' has unknown value type " + std::to_string(typeId));
    GGUFValue value;
    value.type = static_cast<GGUFType>(typeId);
    if (value.type == GGUFType::String) {
      value.string = in.string(named);
    } else if (value.type == GGUFType::Array) {
      uint32_t elementId = in.u32([&] { return "the element type of key '" + key.str() + "'"; });
      if (elementId > static_cast<uint32_t>(GGUFType::Float64))
        fail("key '" + key.str() + "' is an array of unknown value type " +
             std::to_string(elementId));
      value.elementType = static_cast<GGUFType>(elementId);
      if (value.elementType == GGUFType::Array)
        fail("key '" + key.str() + "' is an array of arrays, which llk does not read");
      value.count = in.u64([&] { return "the element count of key '" + key.str() + "'"; });
      unsigned elementBytes = GGUFValue::scalarBytes(value.elementType);
      uint64_t minBytes = elementBytes ? elementBytes : kMinStringBytes;
      if (value.count > in.remaining() / minBytes)
        in.countTooLarge("the " + std::string(toString(value.elementType)) +
                             " array of key '" + key.str() + "' has a count of",
                         value.count, minBytes);
      if (value.elementType == GGUFType::String) {
        value.strings.reserve(value.count);
        for (uint64_t j = 0; j < value.count; ++j)
          value.strings.push_back(in.string([&] {
            return "element " + std::to_string(j) + " of key '" + key.str() + "'";
          }));
      } else {
        value.elementBytes = in.bytesOf(value.count * elementBytes, named);
      }
    } else {
      value.bits = in.scalar(GGUFValue::scalarBytes(value.type), named);
      if (value.type == GGUFType::Bool && value.bits > 1)
        fail("key '" + key.str() + "' is a bool of value " + std::to_string(value.bits) +
             ", neither 0 nor 1");
    }
    if (!metadataIndex_.try_emplace(key, metadata_.size()).second)
      fail("key '" + key.str() + "' appears twice");
    metadata_.push_back({key, std::move(value), start});
  }

  if (const GGUFValue *alignment = lookup("general.alignment")) {
    std::optional<int64_t> value = alignment->asInteger();
    if (!value)
      fail("key 'general.alignment' has type " + std::string(toString(alignment->type)) +
           ", expected an integer");
    if (*value <= 0 || *value > kMaxAlignment || !llvm::isPowerOf2_64(*value))
      fail("general.alignment is " + std::to_string(*value) +
           ", not a power of two up to " + std::to_string(kMaxAlignment));
    alignment_ = static_cast<uint32_t>(*value);
  }

  // The tensor table.
  if (tensorCount > in.remaining() / kMinTensorInfoBytes)
    in.countTooLarge("the header's tensor count", tensorCount, kMinTensorInfoBytes);
  tensors_.reserve(tensorCount);
  for (uint64_t i = 0; i < tensorCount; ++i) {
    GGUFTensorInfo tensor;
    tensor.infoOffset = in.offset();
    tensor.name = in.string([&] { return "the name of tensor " + std::to_string(i); });
    std::string name = "tensor '" + tensor.name.str() + "'";
    if (tensor.name.empty())
      fail("tensor " + std::to_string(i) + " has an empty name");
    uint32_t numDims = in.u32([&] { return "the dimension count of " + name; });
    if (numDims < 1 || numDims > kMaxDims)
      fail(name + " has " + std::to_string(numDims) + " dimensions (1 to 4 allowed)");
    tensor.numElements = 1;
    bool overflow = false;
    for (uint32_t d = 0; d < numDims; ++d) {
      uint64_t dim = in.u64([&] { return "dimension " + std::to_string(d) + " of " + name; });
      tensor.dims.push_back(dim);
      overflow |= dim > static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
      overflow |= __builtin_mul_overflow(tensor.numElements, dim, &tensor.numElements);
    }
    if (overflow || tensor.numElements > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      fail(name + " has dimensions " + tensor.shapeString() +
           " whose element count overflows 64 bits");
    uint32_t typeId = in.u32([&] { return "the type of " + name; });
    const GGMLTypeInfo *type = lookupGGMLType(typeId);
    if (!type)
      fail(name + " has unknown ggml type id " + std::to_string(typeId));
    tensor.type = static_cast<GGMLType>(typeId);
    if (tensor.dims[0] % type->blockSize != 0)
      fail(name + " of type " + type->name + " has rows of " + std::to_string(tensor.dims[0]) +
           " elements, not a multiple of its block size " + std::to_string(type->blockSize));
    // Blocks hold fewer bytes than elements for most types, but not for f32,
    // f64 or i64: check the product.
    if (__builtin_mul_overflow(tensor.numElements / type->blockSize,
                               static_cast<uint64_t>(type->blockBytes), &tensor.numBytes))
      fail(name + " has dimensions " + tensor.shapeString() +
           " whose size in bytes overflows 64 bits");
    tensor.offset = in.u64([&] { return "the data offset of " + name; });
    if (!tensorIndex_.try_emplace(tensor.name, tensors_.size()).second)
      fail(name + " appears twice");
    tensors_.push_back(std::move(tensor));
  }

  // The data section.
  dataOffset_ = llvm::alignTo(in.offset(), alignment_);
  for (GGUFTensorInfo &tensor : tensors_) {
    std::string name = "tensor '" + tensor.name.str() + "'";
    if (tensor.offset % alignment_ != 0)
      fail(name + " starts at data offset " + std::to_string(tensor.offset) +
           ", not a multiple of the alignment " + std::to_string(alignment_));
    uint64_t available = bytes.size() > dataOffset_ ? bytes.size() - dataOffset_ : 0;
    if (tensor.offset > available || tensor.numBytes > available - tensor.offset)
      fail(name + " (" + std::to_string(tensor.numBytes) + " bytes at data offset " +
           std::to_string(tensor.offset) + ", data section at file offset " +
           std::to_string(dataOffset_) + ") extends past the end of the file (" +
           std::to_string(bytes.size()) + " bytes)");
    tensor.data = bytes.data() + dataOffset_ + tensor.offset;
  }
  std::vector<const GGUFTensorInfo *> byOffset;
  for (const GGUFTensorInfo &tensor : tensors_)
    byOffset.push_back(&tensor);
  std::stable_sort(byOffset.begin(), byOffset.end(),
                   [](const GGUFTensorInfo *a, const GGUFTensorInfo *b) {
                     return a->offset < b->offset;
                   });
  for (size_t i = 1; i < byOffset.size(); ++i)
    if (byOffset[i - 1]->offset + byOffset[i - 1]->numBytes > byOffset[i]->offset)
      fail("the data of tensors '" + byOffset[i - 1]->name.str() + "' and '" +
           byOffset[i]->name.str() + "' overlap");
}

//===----------------------------------------------------------------------===//
// Lookups
//===----------------------------------------------------------------------===//

const GGUFValue *GGUFFile::lookup(StringRef key) const {
  auto it = metadataIndex_.find(key);
  return it == metadataIndex_.end() ? nullptr : &metadata_[it->second].value;
}

const GGUFTensorInfo *GGUFFile::findTensor(StringRef name) const {
  auto it = tensorIndex_.find(name);
  return it == tensorIndex_.end() ? nullptr : &tensors_[it->second];
}

/// The type of a value, for messages: "string", "array of f32".
static std::string describeType(const GGUFValue &value) {
  if (value.type == GGUFType::Array)
    return std::string("array of ") + toString(value.elementType);
  return toString(value.type);
}

std::optional<int64_t> GGUFFile::getInteger(StringRef key) const {
  const GGUFValue *value = lookup(key);
  if (!value)
    return std::nullopt;
  if (!value->isInteger())
    fail("key '" + key.str() + "' has type " + describeType(*value) + ", expected an integer");
  std::optional<int64_t> integer = value->asInteger();
  if (!integer)
    fail("key '" + key.str() + "' = " + formatValue(*value) + " is out of range");
  return integer;
}

std::optional<uint32_t> GGUFFile::getUInt32(StringRef key) const {
  std::optional<int64_t> value = getInteger(key);
  if (value && (*value < 0 || *value > std::numeric_limits<uint32_t>::max()))
    fail("key '" + key.str() + "' = " + std::to_string(*value) +
         " is out of range (0 to 4294967295)");
  return value ? std::optional<uint32_t>(static_cast<uint32_t>(*value)) : std::nullopt;
}

std::optional<double> GGUFFile::getFloat(StringRef key) const {
  const GGUFValue *value = lookup(key);
  if (!value)
    return std::nullopt;
  if (!value->isFloat())
    fail("key '" + key.str() + "' has type " + describeType(*value) + ", expected a float");
  return value->asFloat();
}

std::optional<bool> GGUFFile::getBool(StringRef key) const {
  const GGUFValue *value = lookup(key);
  if (!value)
    return std::nullopt;
  if (value->type != GGUFType::Bool)
    fail("key '" + key.str() + "' has type " + describeType(*value) + ", expected a bool");
  return value->bits != 0;
}

std::optional<StringRef> GGUFFile::getString(StringRef key) const {
  const GGUFValue *value = lookup(key);
  if (!value)
    return std::nullopt;
  if (value->type != GGUFType::String)
    fail("key '" + key.str() + "' has type " + describeType(*value) + ", expected a string");
  return value->string;
}

std::optional<std::vector<StringRef>> GGUFFile::getStringArray(StringRef key) const {
  const GGUFValue *value = lookup(key);
  if (!value)
    return std::nullopt;
  if (value->type != GGUFType::Array || value->elementType != GGUFType::String)
    fail("key '" + key.str() + "' has type " + describeType(*value) +
         ", expected an array of strings");
  return value->strings;
}

std::optional<std::vector<float>> GGUFFile::getFloatArray(StringRef key) const {
  const GGUFValue *value = lookup(key);
  if (!value)
    return std::nullopt;
  if (value->type != GGUFType::Array ||
      (value->elementType != GGUFType::Float32 && value->elementType != GGUFType::Float64))
    fail("key '" + key.str() + "' has type " + describeType(*value) +
         ", expected an array of floats");
  std::vector<float> out(value->count);
  for (uint64_t i = 0; i < value->count; ++i)
    out[i] = static_cast<float>(value->floatAt(i));
  return out;
}

std::optional<std::vector<int64_t>> GGUFFile::getIntegerArray(StringRef key) const {
  const GGUFValue *value = lookup(key);
  if (!value)
    return std::nullopt;
  if (value->type != GGUFType::Array || !GGUFValue::isIntegerType(value->elementType))
    fail("key '" + key.str() + "' has type " + describeType(*value) +
         ", expected an array of integers");
  std::vector<int64_t> out(value->count);
  for (uint64_t i = 0; i < value->count; ++i) {
    std::optional<int64_t> element = value->integerAt(i);
    if (!element)
      fail("element " + std::to_string(i) + " of key '" + key.str() + "' is out of range");
    out[i] = *element;
  }
  return out;
}
