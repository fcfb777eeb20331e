//===- GGUF.h - read and write GGUF model files -------------------*- C++ -*-===//
//
// GGUF (version 3, as llama.cpp writes it; version 2 has the same layout) is
// one file holding a model's hyper-parameters, its vocabulary and its
// weights:
//
//   "GGUF" u32 version, u64 tensor_count, u64 kv_count
//   kv_count  x  (string key, u32 value type, value)
//   tensor_count x (string name, u32 n_dims, u64 ne[n_dims], u32 ggml type,
//                   u64 offset from the start of the data section)
//   zero padding up to general.alignment (default 32), then the data,
//   each tensor at an offset that is a multiple of the alignment.
//
// Strings are u64 length + bytes (no terminator); an array value is u32
// element type, u64 count, the elements. Everything is little-endian. ne[0]
// is the fastest-varying dimension: a weight that maps n_in to n_out values
// has ne = {n_in, n_out}, one row of n_in elements per output.
//
// GGUFFile maps the file (llvm::MemoryBuffer) and checks every length,
// count, offset and size against the file before it believes it, so a
// truncated or corrupt file gets an llk::llama::Error, never a read out of
// bounds. Strings and tensor data are views into the mapping: they live as
// long as the GGUFFile.
//
// GGUFWriter writes the same format, streaming the tensor data, so a file of
// many gigabytes needs only the memory of one chunk.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_LLAMA_GGUF_H
#define LLK_LLAMA_GGUF_H

#include "llk/llama/Error.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class MemoryBuffer;
class raw_ostream;
} // namespace llvm

namespace llk::llama {

//===----------------------------------------------------------------------===//
// Tensor element types
//===----------------------------------------------------------------------===//

/// ggml's element types, by their ids in GGUF files (the gaps are ids ggml
/// removed).
enum class GGMLType : uint32_t {
  F32 = 0,
  F16 = 1,
  Q4_0 = 2,
  Q4_1 = 3,
  Q5_0 = 6,
  Q5_1 = 7,
  Q8_0 = 8,
  Q8_1 = 9,
  Q2_K = 10,
  Q3_K = 11,
  Q4_K = 12,
  Q5_K = 13,
  Q6_K = 14,
  Q8_K = 15,
  IQ2_XXS = 16,
  IQ2_XS = 17,
  IQ3_XXS = 18,
  IQ1_S = 19,
  IQ4_NL = 20,
  IQ3_S = 21,
  IQ2_S = 22,
  IQ4_XS = 23,
  I8 = 24,
  I16 = 25,
  I32 = 26,
  I64 = 27,
  F64 = 28,
  IQ1_M = 29,
  BF16 = 30,
  TQ1_0 = 34,
  TQ2_0 = 35,
  MXFP4 = 39,
};

/// How a type stores its elements: blocks of `blockSize` elements in
/// `blockBytes` bytes each (1 and sizeof(element) for plain types).
struct GGMLTypeInfo {
  const char *name; // ggml's lower-case name: "f32", "q8_0"
  uint32_t blockSize;
  uint32_t blockBytes;
};

/// The layout of type id `id`, or nullptr if ggml defines no such type.
const GGMLTypeInfo *lookupGGMLType(uint32_t id);
/// ggml's name of `type` ("q4_0").
const char *toString(GGMLType type);
/// Whether llk's Llama kernels read `type`: f32, f16, bf16 and q8_0.
bool isSupportedWeightType(GGMLType type);

/// q8_0: blocks of 32 values, an f16 scale d then 32 int8 q; value = d * q.
constexpr uint32_t kQ8_0BlockSize = 32;
constexpr uint32_t kQ8_0BlockBytes = 34;

/// IEEE binary16 and bfloat16 from and to float, rounding to nearest even.
uint16_t floatToHalf(float value);
float halfToFloat(uint16_t bits);
uint16_t floatToBFloat16(float value);
float bfloat16ToFloat(uint16_t bits);

/// Quantizes `values` (a multiple of 32 of them) to q8_0 as ggml does:
/// d = max|x| / 127, q = round(x / d). `out` holds values.size() / 32 * 34
/// bytes.
void quantizeQ8_0(llvm::ArrayRef<float> values, llvm::MutableArrayRef<uint8_t> out);

/// Converts `count` elements of a supported type starting at `data` to
/// float (count a multiple of the block size). Throws for other types.
void dequantize(GGMLType type, const uint8_t *data, uint64_t count, float *out);

//===----------------------------------------------------------------------===//
// Metadata values
//===----------------------------------------------------------------------===//

/// The type ids of GGUF metadata values.
enum class GGUFType : uint32_t {
  UInt8 = 0,
  Int8 = 1,
  UInt16 = 2,
  Int16 = 3,
  UInt32 = 4,
  Int32 = 5,
  Float32 = 6,
  Bool = 7,
  String = 8,
  Array = 9,
  UInt64 = 10,
  Int64 = 11,
  Float64 = 12,
};

const char *toString(GGUFType type);

/// One metadata value as it lies in the file. A scalar's bits are kept
/// zero-extended in `bits`; strings and the elements of numeric arrays are
/// views into the mapped file.
struct GGUFValue {
  GGUFType type = GGUFType::UInt8;
  uint64_t bits = 0;       // numeric and bool scalars
  llvm::StringRef string;  // String
  GGUFType elementType = GGUFType::UInt8; // Array
  uint64_t count = 0;                     // Array: number of elements
  llvm::StringRef elementBytes;           // Array of numbers or bools
  std::vector<llvm::StringRef> strings;   // Array of strings

  bool isInteger() const { return isIntegerType(type); }
  bool isFloat() const { return type == GGUFType::Float32 || type == GGUFType::Float64; }

  /// The scalar as a signed integer, if it is an integer that fits int64.
  std::optional<int64_t> asInteger() const;
  /// The scalar as a double, if it is a float.
  std::optional<double> asFloat() const;

  /// Element `i` of a numeric array, as an integer that fits int64 (nullopt
  /// for a u64 past INT64_MAX) or as a double (floats).
  std::optional<int64_t> integerAt(uint64_t i) const;
  double floatAt(uint64_t i) const;

  static bool isIntegerType(GGUFType type);
  /// Bytes of one scalar of `type` (0 for String and Array).
  static unsigned scalarBytes(GGUFType type);
};

/// The value as text, for dumps: arrays show their first `maxElements`.
std::string formatValue(const GGUFValue &value, size_t maxElements = 8);

struct GGUFMetadataEntry {
  llvm::StringRef key;
  GGUFValue value;
  uint64_t fileOffset; // where the entry (its key's length) starts
};

struct GGUFTensorInfo {
  llvm::StringRef name;
  llvm::SmallVector<uint64_t, 4> dims; // ne: dims[0] varies fastest
  GGMLType type;
  uint64_t offset;      // from the start of the data section
  uint64_t numElements; // product of dims
  uint64_t numBytes;    // of its data
  uint64_t infoOffset;  // where its entry in the tensor table starts
  const uint8_t *data;  // into the mapped file

  /// Elements of one row (dims[0]) and the number of rows (the rest).
  uint64_t rowLength() const { return dims[0]; }
  uint64_t numRows() const { return dims[0] ? numElements / dims[0] : 0; }
  llvm::ArrayRef<uint8_t> bytes() const { return {data, static_cast<size_t>(numBytes)}; }
  /// "[64, 256]", ne order.
  std::string shapeString() const;
};

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

class GGUFFile {
public:
  /// Maps and parses `path`; throws Error for a file that is not valid GGUF.
  static GGUFFile open(llvm::StringRef path);
  /// Parses a file already in memory; `name` prefixes error messages.
  static GGUFFile fromBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer,
                             llvm::StringRef name);

  GGUFFile(GGUFFile &&);
  GGUFFile &operator=(GGUFFile &&);
  ~GGUFFile();

  /// The path (or buffer name) errors are reported against.
  llvm::StringRef name() const { return name_; }
  uint32_t version() const { return version_; }
  uint32_t alignment() const { return alignment_; }
  uint64_t fileSize() const;
  /// Where the data section starts (the tensor table, padded to alignment).
  uint64_t dataOffset() const { return dataOffset_; }

  llvm::ArrayRef<GGUFMetadataEntry> metadata() const { return metadata_; }
  const GGUFValue *lookup(llvm::StringRef key) const;

  llvm::ArrayRef<GGUFTensorInfo> tensors() const { return tensors_; }
  const GGUFTensorInfo *findTensor(llvm::StringRef name) const;

  /// Typed reads of metadata: nullopt when the key is absent; an Error
  /// naming the key when it has another type (or a negative or too large
  /// integer for getUInt32). Integers of any width are accepted.
  std::optional<uint32_t> getUInt32(llvm::StringRef key) const;
  std::optional<int64_t> getInteger(llvm::StringRef key) const;
  std::optional<double> getFloat(llvm::StringRef key) const;
  std::optional<bool> getBool(llvm::StringRef key) const;
  std::optional<llvm::StringRef> getString(llvm::StringRef key) const;
  std::optional<std::vector<llvm::StringRef>> getStringArray(llvm::StringRef key) const;
  std::optional<std::vector<float>> getFloatArray(llvm::StringRef key) const;
  std::optional<std::vector<int64_t>> getIntegerArray(llvm::StringRef key) const;

  /// Throws Error("<name>: <message>").
  [[noreturn]] void fail(const std::string &message) const;

private:
  GGUFFile() = default;
  void parse();

  std::unique_ptr<llvm::MemoryBuffer> buffer_;
  std::string name_;
  uint32_t version_ = 0;
  uint32_t alignment_ = 32;
  uint64_t dataOffset_ = 0;
  std::vector<GGUFMetadataEntry> metadata_;
  llvm::StringMap<size_t> metadataIndex_;
  std::vector<GGUFTensorInfo> tensors_;
  llvm::StringMap<size_t> tensorIndex_;
};

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

/// Writes a GGUF v3 file in three steps: add the metadata and declare the
/// tensors; writeHeader; then writeTensorData with each tensor's bytes, in
/// the order they were declared, in chunks of any size; finish. Misuse (a
/// chunk past a tensor's size, a duplicate key) throws Error.
class GGUFWriter {
public:
  explicit GGUFWriter(uint32_t alignment = 32);

  void addUInt32(llvm::StringRef key, uint32_t value);
  void addInt32(llvm::StringRef key, int32_t value);
  void addUInt64(llvm::StringRef key, uint64_t value);
  void addFloat32(llvm::StringRef key, float value);
  void addBool(llvm::StringRef key, bool value);
  void addString(llvm::StringRef key, llvm::StringRef value);
  void addStringArray(llvm::StringRef key, llvm::ArrayRef<std::string> values);
  void addFloat32Array(llvm::StringRef key, llvm::ArrayRef<float> values);
  void addInt32Array(llvm::StringRef key, llvm::ArrayRef<int32_t> values);

  /// Declares a tensor (dims in ne order); returns its data size in bytes.
  uint64_t addTensor(llvm::StringRef name, llvm::ArrayRef<uint64_t> dims, GGMLType type);

  void writeHeader(llvm::raw_ostream &os);
  void writeTensorData(llvm::ArrayRef<uint8_t> bytes);
  /// Checks that every tensor got all its bytes.
  void finish();

private:
  struct Tensor {
    std::string name;
    llvm::SmallVector<uint64_t, 4> dims;
    GGMLType type;
    uint64_t offset;
    uint64_t numBytes;
  };
  void beginEntry(llvm::StringRef key, GGUFType type);
  void padTo(uint64_t alignment);

  uint32_t alignment_;
  std::string metadata_; // the serialized key-value pairs
  uint64_t metadataCount_ = 0;
  llvm::StringMap<bool> keys_;
  std::vector<Tensor> tensors_;
  llvm::StringMap<bool> tensorNames_;
  uint64_t dataSize_ = 0;
  llvm::raw_ostream *os_ = nullptr;
  uint64_t written_ = 0; // bytes written to os_
  size_t current_ = 0;   // the tensor writeTensorData fills
  uint64_t currentWritten_ = 0;
};

} // namespace llk::llama

#endif // LLK_LLAMA_GGUF_H
