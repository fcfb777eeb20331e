//===- Metadata.cpp - kernel metadata, argument checks and packing --------===//
//
// A small JSON reader for the metadata llkc writes, so that the runtime
// depends on nothing but the C++ library and libdl.
//
//===----------------------------------------------------------------------===//

#include "llk/runtime/Runtime.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <variant>

using namespace llk::rt;

const char *llk::rt::toString(ErrorCode code) {
  switch (code) {
  case ErrorCode::NoDriver: return "no driver";
  case ErrorCode::Cuda: return "CUDA error";
  case ErrorCode::InvalidArgument: return "invalid argument";
  case ErrorCode::NotFound: return "not found";
  case ErrorCode::Compile: return "compile error";
  case ErrorCode::IO: return "I/O error";
  case ErrorCode::Execution: return "execution error";
  }
  return "error";
}

Error::Error(ErrorCode code, const std::string &message, std::string cudaName,
             int cudaResult, std::string kernel)
    : std::runtime_error(message), code_(code), cudaName_(std::move(cudaName)),
      cudaResult_(cudaResult), kernel_(std::move(kernel)) {}

const char *llk::rt::toString(ScalarType type) {
  // The names are string literals, so their views end in a NUL.
  return metadata::scalarTypeName(type).data();
}

std::optional<ScalarType> llk::rt::parseScalarType(std::string_view name) {
  return metadata::parseScalarType(name);
}

size_t llk::rt::sizeOf(ScalarType type) {
  switch (type) {
  case ScalarType::I8: case ScalarType::F8E4M3FN: case ScalarType::F8E5M2:
    return 1;
  case ScalarType::I16: case ScalarType::F16: case ScalarType::BF16: return 2;
  case ScalarType::I32: case ScalarType::F32: return 4;
  case ScalarType::I64: case ScalarType::F64: return 8;
  }
  return 8;
}

float llk::rt::fromHalfBits(uint16_t bits) {
  int exponent = (bits >> 10) & 0x1f, fraction = bits & 0x3ff;
  float v = exponent == 0x1f ? (fraction ? std::numeric_limits<float>::quiet_NaN()
                                         : std::numeric_limits<float>::infinity())
            : exponent       ? std::ldexp(float(1024 + fraction), exponent - 25)
                             : std::ldexp(float(fraction), -24);
  return (bits & 0x8000) ? -v : v;
}

uint16_t llk::rt::toHalfBits(float value) {
  uint32_t x;
  std::memcpy(&x, &value, 4);
  uint32_t sign = (x >> 16) & 0x8000, exponent = (x >> 23) & 0xff,
           mantissa = x & 0x7fffff;
  if (exponent == 0xff) // infinity, or a NaN kept quiet with its top payload
    return uint16_t(sign | 0x7c00 | (mantissa ? 0x200 | (mantissa >> 13) : 0));
  int e = int(exponent) - 127 + 15; // the f16 exponent
  if (e >= 31)
    return uint16_t(sign | 0x7c00);
  // The bits kept, and the rest rounded to nearest, ties to even (a carry
  // out of the mantissa rightly bumps the exponent, to infinity at the top).
  auto round = [](uint32_t kept, uint32_t rest, uint32_t half) {
    return kept + (rest > half || (rest == half && (kept & 1)));
  };
  if (e <= 0) { // an f16 subnormal (or zero): mantissa * 2^-24
    if (e < -10)
      return uint16_t(sign);
    uint32_t significand = mantissa | 0x800000;
    unsigned shift = unsigned(14 - e);
    return uint16_t(sign | round(significand >> shift,
                                 significand & ((1u << shift) - 1),
                                 1u << (shift - 1)));
  }
  return uint16_t(sign | round((uint32_t(e) << 10) | (mantissa >> 13),
                               mantissa & 0x1fff, 0x1000));
}

uint16_t llk::rt::toBFloat16Bits(float value) {
  uint32_t x;
  std::memcpy(&x, &value, 4);
  if ((x & 0x7fffffff) > 0x7f800000) // NaN: keep it quiet
    return uint16_t((x >> 16) | 0x40);
  return uint16_t((x + 0x7fff + ((x >> 16) & 1)) >> 16);
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

namespace {

struct Json;
using JsonObject = std::vector<std::pair<std::string, Json>>;
using JsonArray = std::vector<Json>;
struct Json {
  std::variant<std::nullptr_t, bool, double, int64_t, std::string, JsonArray,
               JsonObject>
      value;
};

class JsonParser {
public:
  explicit JsonParser(std::string_view text) : text(text) {}

  Json parseDocument() {
    Json v = parseValue(0);
    skipSpace();
    if (pos != text.size())
      fail("trailing characters after the JSON value");
    return v;
  }

private:
  [[noreturn]] void fail(const std::string &why) {
    throw Error(ErrorCode::InvalidArgument, "malformed kernel metadata: " + why +
                                                " at offset " + std::to_string(pos));
  }
  void skipSpace() {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  }
  bool consume(std::string_view word) {
    if (text.substr(pos, word.size()) == word) {
      pos += word.size();
      return true;
    }
    return false;
  }
  Json parseValue(int depth) {
    if (depth > 32)
      fail("nesting too deep");
    skipSpace();
    if (pos >= text.size())
      fail("unexpected end");
    char c = text[pos];
    if (c == '{') {
      ++pos;
      JsonObject object;
      skipSpace();
      if (consume("}"))
        return {object};
      while (true) {
        skipSpace();
        if (pos >= text.size() || text[pos] != '"')
          fail("expected a member name");
        std::string key = parseString();
        skipSpace();
        if (!consume(":"))
          fail("expected ':'");
        object.emplace_back(std::move(key), parseValue(depth + 1));
        skipSpace();
        if (consume("}"))
          return {object};
        if (!consume(","))
          fail("expected ',' or '}'");
      }
    }
    if (c == '[') {
      ++pos;
      JsonArray array;
      skipSpace();
      if (consume("]"))
        return {array};
      while (true) {
        array.push_back(parseValue(depth + 1));
        skipSpace();
        if (consume("]"))
          return {array};
        if (!consume(","))
          fail("expected ',' or ']'");
      }
    }
    if (c == '"')
      return {parseString()};
    if (consume("true"))
      return {true};
    if (consume("false"))
      return {false};
    if (consume("null"))
      return {nullptr};
    if (c == '-' || std::isdigit(static_cast<unsigned char>(c)))
      return parseNumber();
    fail(std::string("unexpected character '") + c + "'");
  }
  std::string parseString() {
    ++pos; // opening quote
    std::string s;
    while (true) {
      if (pos >= text.size())
        fail("unterminated string");
      char c = text[pos++];
      if (c == '"')
        return s;
      if (static_cast<unsigned char>(c) < 0x20)
        fail("control character in a string");
      if (c != '\\') {
        s += c;
        continue;
      }
      if (pos >= text.size())
        fail("unterminated escape");
      char e = text[pos++];
      switch (e) {
      case '"': case '\\': case '/': s += e; break;
      case 'b': s += '\b'; break;
      case 'f': s += '\f'; break;
      case 'n': s += '\n'; break;
      case 'r': s += '\r'; break;
      case 't': s += '\t'; break;
      case 'u': {
        if (pos + 4 > text.size())
          fail("short \\u escape");
        unsigned code = std::stoul(std::string(text.substr(pos, 4)), nullptr, 16);
        pos += 4;
        if (code < 0x80) {
          s += static_cast<char>(code);
        } else if (code < 0x800) {
          s += static_cast<char>(0xC0 | (code >> 6));
          s += static_cast<char>(0x80 | (code & 0x3F));
        } else {
          s += static_cast<char>(0xE0 | (code >> 12));
          s += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
          s += static_cast<char>(0x80 | (code & 0x3F));
        }
        break;
      }
      default:
        fail("unknown escape");
      }
    }
  }
  Json parseNumber() {
    size_t start = pos;
    if (text[pos] == '-')
      ++pos;
    bool integer = true;
    while (pos < text.size() &&
           (std::isdigit(static_cast<unsigned char>(text[pos])) ||
            std::strchr(".eE+-", text[pos]))) {
      if (!std::isdigit(static_cast<unsigned char>(text[pos])))
        integer = false;
      ++pos;
    }
    std::string number(text.substr(start, pos - start));
    try {
      size_t used = 0;
      if (integer) {
        int64_t v = std::stoll(number, &used);
        if (used == number.size())
          return {v};
      } else {
        double v = std::stod(number, &used);
        if (used == number.size())
          return {v};
      }
    } catch (const std::exception &) {
    }
    pos = start;
    fail("bad number '" + number + "'");
  }

  std::string_view text;
  size_t pos = 0;
};

[[noreturn]] void badField(const std::string &path, const std::string &why) {
  throw Error(ErrorCode::InvalidArgument,
              "malformed kernel metadata: " + path + ": " + why);
}

/// "path.key", the path of `object`'s member `key` in messages.
std::string memberPath(const std::string &path, std::string_view key) {
  return path + "." + std::string(key);
}

/// The member `key` of `object`, or null when it has none.
const Json *optionalMember(const Json &object, std::string_view key) {
  if (const auto *members = std::get_if<JsonObject>(&object.value))
    for (const auto &[name, value] : *members)
      if (name == key)
        return &value;
  return nullptr;
}

/// The member `key` of `object` (at `path`); a missing one is an error.
const Json &member(const Json &object, std::string_view key,
                   const std::string &path) {
  if (!std::get_if<JsonObject>(&object.value))
    badField(path, "expected an object");
  if (const Json *value = optionalMember(object, key))
    return *value;
  badField(path, "missing member '" + std::string(key) + "'");
}

std::string getString(const Json &v, const std::string &path) {
  if (const auto *s = std::get_if<std::string>(&v.value))
    return *s;
  badField(path, "expected a string");
}

int64_t getInt(const Json &v, const std::string &path) {
  if (const auto *i = std::get_if<int64_t>(&v.value))
    return *i;
  badField(path, "expected an integer");
}

bool getBool(const Json &v, const std::string &path) {
  if (const auto *b = std::get_if<bool>(&v.value))
    return *b;
  badField(path, "expected true or false");
}

const JsonArray &getArray(const Json &v, const std::string &path) {
  if (const auto *a = std::get_if<JsonArray>(&v.value))
    return *a;
  badField(path, "expected an array");
}

/// Members of a module, a kernel or a parameter, read with their paths in
/// messages: the path of a module's member is its name ("format"), that of
/// a kernel's or parameter's member "kernels[0].num_warps".
class Members {
public:
  Members(const Json &object, std::string path, bool top = false)
      : object(object), path(std::move(path)), top(top) {}
  std::string pathOf(std::string_view key) const {
    return top ? std::string(key) : memberPath(path, key);
  }
  const Json &operator[](std::string_view key) const {
    return member(object, key, top ? "metadata" : path);
  }
  const Json *optional(std::string_view key) const {
    return optionalMember(object, key);
  }
  std::string string(std::string_view key) const {
    return getString((*this)[key], pathOf(key));
  }
  int64_t integer(std::string_view key) const {
    return getInt((*this)[key], pathOf(key));
  }
  const JsonArray &array(std::string_view key) const {
    return getArray((*this)[key], pathOf(key));
  }

private:
  const Json &object;
  std::string path;
  bool top;
};

ParamInfo readParam(const Json &value, const std::string &path) {
  namespace md = llk::metadata;
  Members members(value, path);
  ParamInfo param;
  std::string kind = members.string(md::kKind);
  std::string type = members.string(md::kType);
  std::optional<ParamInfo::Kind> parsedKind = md::parseKind(kind);
  if (!parsedKind)
    badField(members.pathOf(md::kKind),
             "expected \"pointer\", \"scalar\" or \"tensordesc\"");
  param.kind = *parsedKind;
  std::optional<ScalarType> parsedType = md::parseScalarType(type);
  if (!parsedType)
    badField(members.pathOf(md::kType), "unknown type '" + type + "'");
  param.type = *parsedType;
  if (param.kind == ParamInfo::Kind::Pointer)
    if (const Json *overrun = members.optional(md::kReadOverrunBytes)) {
      param.readOverrunBytes = getInt(*overrun, members.pathOf(md::kReadOverrunBytes));
      // What DeviceMemory's padding covers (the buffer contract).
      if (param.readOverrunBytes < 0 ||
          param.readOverrunBytes > md::kMaxReadOverrunBytes)
        badField(members.pathOf(md::kReadOverrunBytes),
                 "expected 0 to " + std::to_string(md::kMaxReadOverrunBytes) +
                     " (allocations are padded to " +
                     std::to_string(kBufferGranule) + "-byte granules)");
    }
  if (const Json *divisibility = members.optional(md::kDivisibility)) {
    param.divisibility =
        getInt(*divisibility, members.pathOf(md::kDivisibility));
    // A power of two (the dialect's verifier), which packArgs tests with a
    // mask; only pointers and integers carry a promise.
    bool integer = param.kind == ParamInfo::Kind::Scalar &&
                   param.type <= ScalarType::I64;
    if (param.divisibility < 1 || param.divisibility > md::kMaxDivisibility ||
        (param.divisibility & (param.divisibility - 1)) ||
        !(param.kind == ParamInfo::Kind::Pointer || integer))
      badField(members.pathOf(md::kDivisibility),
               "expected a power of two, 1 to " +
                   std::to_string(md::kMaxDivisibility) +
                   ", on a pointer or integer parameter");
  }
  if (param.kind == ParamInfo::Kind::TensorDesc) {
    // Passed as the address of its CUtensorMap, which the caller encodes
    // with this box.
    const JsonArray &box = members.array(md::kTmaBox);
    for (size_t d = 0; d < box.size(); ++d)
      param.tmaBox.push_back(getInt(
          box[d], members.pathOf(md::kTmaBox) + "[" + std::to_string(d) + "]"));
    if (param.tmaBox.size() != 2 || param.tmaBox[0] <= 0 ||
        param.tmaBox[0] > md::kMaxTmaBoxDim || param.tmaBox[1] <= 0 ||
        param.tmaBox[1] > md::kMaxTmaBoxDim)
      badField(members.pathOf(md::kTmaBox),
               "expected [rows, columns], each 1 to " +
                   std::to_string(md::kMaxTmaBoxDim));
    // TensorMap encodes the one swizzle there is.
    if (const Json *swizzle = members.optional(md::kTmaSwizzle))
      if (getInt(*swizzle, members.pathOf(md::kTmaSwizzle)) != md::kTmaSwizzleBytes)
        badField(members.pathOf(md::kTmaSwizzle),
                 "expected " + std::to_string(md::kTmaSwizzleBytes));
  }
  return param;
}

KernelInfo readKernel(const Json &value, const std::string &path) {
  namespace md = llk::metadata;
  Members members(value, path);
  KernelInfo kernel;
  kernel.name = members.string(md::kName);
  int64_t warps = members.integer(md::kNumWarps);
  if (warps < 1 || warps > md::kMaxNumWarps)
    badField(members.pathOf(md::kNumWarps),
             "expected 1 to " + std::to_string(md::kMaxNumWarps));
  kernel.numWarps = static_cast<unsigned>(warps);
  kernel.sharedBytes = members.integer(md::kSharedBytes);
  if (kernel.sharedBytes < 0)
    badField(members.pathOf(md::kSharedBytes), "expected a non-negative size");
  // Optional: metadata of kernels without dynamic shared memory may omit it.
  if (const Json *dynamic = members.optional(md::kDynamicSharedBytes))
    kernel.dynamicSharedBytes =
        getInt(*dynamic, members.pathOf(md::kDynamicSharedBytes));
  if (kernel.dynamicSharedBytes < 0)
    badField(members.pathOf(md::kDynamicSharedBytes),
             "expected a non-negative size");
  if (const Json *wait = members.optional(md::kGridDependencyWait))
    kernel.gridDependencyWait =
        getBool(*wait, members.pathOf(md::kGridDependencyWait));
  const JsonArray &params = members.array(md::kParams);
  for (size_t p = 0; p < params.size(); ++p)
    kernel.params.push_back(readParam(
        params[p], members.pathOf(md::kParams) + "[" + std::to_string(p) + "]"));
  return kernel;
}

} // namespace

ModuleInfo llk::rt::parseModuleInfo(std::string_view json) {
  namespace md = llk::metadata;
  Json root = JsonParser(json).parseDocument();
  Members members(root, "metadata", /*top=*/true);
  ModuleInfo info;
  if (int64_t format = members.integer(md::kFormat); format != kMetadataFormat)
    badField(std::string(md::kFormat),
             "unsupported format " + std::to_string(format) +
                 " (this runtime reads format " +
                 std::to_string(kMetadataFormat) + ")");
  info.compiler = members.string(md::kCompiler);
  info.arch = members.string(md::kArch);
  const Json &constants = members[md::kConstants];
  const auto *entries = std::get_if<JsonObject>(&constants.value);
  if (!entries)
    badField(std::string(md::kConstants), "expected an object");
  for (const auto &[name, value] : *entries) {
    std::optional<llk::ConstantValue> constant;
    if (const auto *number = std::get_if<int64_t>(&value.value))
      constant = *number;
    else if (const auto *type = std::get_if<std::string>(&value.value))
      constant = llk::ConstantValue::fromTypeName(*type);
    if (!constant)
      badField(memberPath(std::string(md::kConstants), name),
               "expected an integer or an element type");
    info.constants.insert_or_assign(name, *constant);
  }
  const JsonArray &kernels = members.array(md::kKernels);
  for (size_t k = 0; k < kernels.size(); ++k)
    info.kernels.push_back(readKernel(
        kernels[k], std::string(md::kKernels) + "[" + std::to_string(k) + "]"));
  return info;
}

//===----------------------------------------------------------------------===//
// Arguments
//===----------------------------------------------------------------------===//

Arg::Arg(float v) : Arg(false, ScalarType::F32, 0) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  bits_ = bits;
}

Arg::Arg(double v) : Arg(false, ScalarType::F64, 0) {
  std::memcpy(&bits_, &v, 8);
}

Arg Arg::pointer(uint64_t address, std::optional<ScalarType> element) {
  Arg a(true, element.value_or(ScalarType::I8), address);
  a.typed_ = element.has_value();
  return a;
}

std::string Arg::str() const {
  if (tensorMap_)
    return std::string("tensormap<") + toString(type_) + ">";
  if (pointer_)
    return typed_ ? std::string("ptr<") + toString(type_) + ">" : "ptr";
  return toString(type_);
}

/// Why argument `index` (its packed `bits`) breaks the contract of `param`:
/// a multiple of `divisor`.
static std::string contractViolation(size_t index, const ParamInfo &param,
                                     uint64_t bits, uint64_t divisor) {
  std::string what = "argument " + std::to_string(index) + " (" + param.str() + ") ";
  if (param.kind == ParamInfo::Kind::Pointer) {
    char address[24];
    std::snprintf(address, sizeof address, "0x%llx",
                  static_cast<unsigned long long>(bits));
    what += std::string("is the address ") + address + ", which is not " +
            std::to_string(divisor) + "-byte aligned";
    if (int64_t(divisor) == param.divisibility)
      return what + " as its tile.divisibility = " + std::to_string(divisor) +
             " promises";
    return what + " as its element type " + toString(param.type) + " needs";
  }
  // The signed value of the integer's bits.
  int64_t value;
  size_t width = sizeOf(param.type) * 8;
  if (width < 64 && (bits >> (width - 1)) & 1)
    value = int64_t(bits | ~((uint64_t(1) << width) - 1));
  else
    value = int64_t(bits);
  return what + "is " + std::to_string(value) + ", which is not a multiple of " +
         std::to_string(divisor) + " as its tile.divisibility = " +
         std::to_string(divisor) + " promises";
}

PackedArgs llk::rt::packArgs(const KernelInfo &kernel, const ArgList &args) {
  auto fail = [&](const std::string &why) {
    throw Error(ErrorCode::InvalidArgument,
                "kernel '" + kernel.name + "': " + why + "; the signature is " +
                    kernel.signature(),
                "", 0, kernel.name);
  };
  if (args.size() != kernel.params.size())
    fail("expected " + std::to_string(kernel.params.size()) +
         " arguments, got " + std::to_string(args.size()));
  PackedArgs packed;
  packed.slots.resize(args.size(), 0);
  for (size_t i = 0; i < args.size(); ++i) {
    const ParamInfo &param = kernel.params[i];
    const Arg &arg = args[i];
    // Every launch packs its arguments: the message is built only on a
    // mismatch.
    if (param.passedAsPointer() != arg.isPointer() ||
        param.isTensorDesc() != arg.isTensorMap() ||
        (arg.type() && *arg.type() != param.type))
      fail("argument " + std::to_string(i) + " is " + arg.str() +
           " but the parameter is " + param.str());
    uint64_t bits = arg.bits();
    size_t size = param.passedAsPointer() ? 8 : sizeOf(param.type);
    if (size < 8)
      bits &= (uint64_t(1) << (size * 8)) - 1;
    // The argument's contract: the compiled code relies on it, and a GPU
    // faults (a misaligned address, which loses the context) or computes
    // wrongly where it is broken.
    uint64_t alignment = uint64_t(std::max<int64_t>(param.divisibility, 1));
    if (param.kind == ParamInfo::Kind::Pointer)
      alignment = std::max<uint64_t>(alignment, sizeOf(param.type));
    if (bits % alignment)
      fail(contractViolation(i, param, bits, alignment));
    packed.slots[i] = bits; // little-endian: the value sits at the slot's start
  }
  return packed;
}

std::string Grid::str() const {
  return "(" + std::to_string(x) + ", " + std::to_string(y) + ", " +
         std::to_string(z) + ")";
}

void llk::rt::checkGrid(const KernelInfo &kernel, const Grid &grid,
                        const DeviceLimits &limits) {
  unsigned dims[3] = {grid.x, grid.y, grid.z};
  for (int d = 0; d < 3; ++d) {
    std::string why;
    if (dims[d] == 0)
      why = "has a zero dimension";
    else if (dims[d] > limits.maxGrid[d])
      why = std::string("is over the device's limit of ") +
            std::to_string(limits.maxGrid[d]) + " in " + "xyz"[d];
    if (!why.empty())
      throw Error(ErrorCode::InvalidArgument,
                  "kernel '" + kernel.name + "': grid " + grid.str() + " " + why,
                  "", 0, kernel.name);
  }
  unsigned threads = kernel.numWarps * 32;
  if (threads > limits.maxThreadsPerBlock)
    throw Error(ErrorCode::InvalidArgument,
                "kernel '" + kernel.name + "': " + std::to_string(threads) +
                    " threads per block is over the device's limit of " +
                    std::to_string(limits.maxThreadsPerBlock),
                "", 0, kernel.name);
}

void llk::rt::checkSharedMemory(const KernelInfo &kernel, unsigned dynamicBytes,
                                const DeviceLimits &limits) {
  dynamicBytes += kernel.dynamicSharedBytes;
  uint64_t total = uint64_t(kernel.sharedBytes) + dynamicBytes;
  if (total > limits.sharedPerBlockOptin)
    throw Error(ErrorCode::InvalidArgument,
                "kernel '" + kernel.name + "': " + std::to_string(kernel.sharedBytes) +
                    " bytes of static plus " + std::to_string(dynamicBytes) +
                    " of dynamic shared memory is over the device's limit of " +
                    std::to_string(limits.sharedPerBlockOptin) + " per block",
                "", 0, kernel.name);
}
