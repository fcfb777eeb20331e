//===- Metadata.cpp - kernel metadata, argument checks and packing --------===//
//
// A small JSON reader for the metadata llkc writes, so that the runtime
// depends on nothing but the C++ library and libdl.
//
//===----------------------------------------------------------------------===//

#include "llk/runtime/Runtime.h"

#include <cctype>
#include <cstring>
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

static const char *const kTypeNames[] = {"i8",  "i16",  "i32", "i64",
                                         "f16", "bf16", "f32", "f64"};

const char *llk::rt::toString(ScalarType type) {
  return kTypeNames[static_cast<int>(type)];
}

std::optional<ScalarType> llk::rt::parseScalarType(std::string_view name) {
  for (int i = 0; i < 8; ++i)
    if (name == kTypeNames[i])
      return static_cast<ScalarType>(i);
  return std::nullopt;
}

size_t llk::rt::sizeOf(ScalarType type) {
  switch (type) {
  case ScalarType::I8: return 1;
  case ScalarType::I16: case ScalarType::F16: case ScalarType::BF16: return 2;
  case ScalarType::I32: case ScalarType::F32: return 4;
  case ScalarType::I64: case ScalarType::F64: return 8;
  }
  return 8;
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

std::string ParamInfo::str() const {
  if (isTensorDesc())
    return std::string("tensordesc<") + toString(type) + ">";
  return pointer ? std::string("ptr<") + toString(type) + ">" : toString(type);
}

std::string KernelInfo::signature() const {
  std::string s = name + "(";
  for (size_t i = 0; i < params.size(); ++i)
    s += (i ? ", " : "") + params[i].str();
  return s + ")";
}

const KernelInfo *ModuleInfo::find(std::string_view name) const {
  for (const KernelInfo &k : kernels)
    if (k.name == name)
      return &k;
  return nullptr;
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

/// The member `key` of `object`, or null when it has none.
const Json *optionalMember(const Json &object, const std::string &key) {
  if (const auto *members = std::get_if<JsonObject>(&object.value))
    for (const auto &[name, value] : *members)
      if (name == key)
        return &value;
  return nullptr;
}

const Json &member(const Json &object, const std::string &key,
                   const std::string &path) {
  const auto *members = std::get_if<JsonObject>(&object.value);
  if (!members)
    badField(path, "expected an object");
  for (const auto &[name, value] : *members)
    if (name == key)
      return value;
  badField(path, "missing member '" + key + "'");
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

const JsonArray &getArray(const Json &v, const std::string &path) {
  if (const auto *a = std::get_if<JsonArray>(&v.value))
    return *a;
  badField(path, "expected an array");
}

} // namespace

ModuleInfo llk::rt::parseModuleInfo(std::string_view json) {
  Json root = JsonParser(json).parseDocument();
  ModuleInfo info;
  if (int64_t format = getInt(member(root, "format", "metadata"), "format");
      format != 1)
    badField("format", "unsupported format " + std::to_string(format) +
                           " (this runtime reads format 1)");
  info.compiler = getString(member(root, "compiler", "metadata"), "compiler");
  info.arch = getString(member(root, "arch", "metadata"), "arch");
  const Json &constants = member(root, "constants", "metadata");
  const auto *members = std::get_if<JsonObject>(&constants.value);
  if (!members)
    badField("constants", "expected an object");
  for (const auto &[name, value] : *members) {
    std::optional<llk::ConstantValue> constant;
    if (const auto *number = std::get_if<int64_t>(&value.value))
      constant = *number;
    else if (const auto *type = std::get_if<std::string>(&value.value))
      constant = llk::ConstantValue::fromTypeName(*type);
    if (!constant)
      badField("constants." + name, "expected an integer or an element type");
    info.constants.insert_or_assign(name, *constant);
  }
  const JsonArray &kernels = getArray(member(root, "kernels", "metadata"), "kernels");
  for (size_t k = 0; k < kernels.size(); ++k) {
    std::string path = "kernels[" + std::to_string(k) + "]";
    KernelInfo kernel;
    kernel.name = getString(member(kernels[k], "name", path), path + ".name");
    int64_t warps = getInt(member(kernels[k], "num_warps", path), path + ".num_warps");
    if (warps < 1 || warps > 32)
      badField(path + ".num_warps", "expected 1 to 32");
    kernel.numWarps = static_cast<unsigned>(warps);
    kernel.sharedBytes =
        getInt(member(kernels[k], "shared_bytes", path), path + ".shared_bytes");
    if (kernel.sharedBytes < 0)
      badField(path + ".shared_bytes", "expected a non-negative size");
    // Optional: metadata of kernels without dynamic shared memory may omit it.
    if (const Json *dynamic = optionalMember(kernels[k], "dynamic_shared_bytes"))
      kernel.dynamicSharedBytes = getInt(*dynamic, path + ".dynamic_shared_bytes");
    if (kernel.dynamicSharedBytes < 0)
      badField(path + ".dynamic_shared_bytes", "expected a non-negative size");
    if (const Json *wait = optionalMember(kernels[k], "grid_dependency_wait")) {
      const bool *flag = std::get_if<bool>(&wait->value);
      if (!flag)
        badField(path + ".grid_dependency_wait", "expected true or false");
      kernel.gridDependencyWait = *flag;
    }
    const JsonArray &params =
        getArray(member(kernels[k], "params", path), path + ".params");
    for (size_t p = 0; p < params.size(); ++p) {
      std::string ppath = path + ".params[" + std::to_string(p) + "]";
      std::string kind = getString(member(params[p], "kind", ppath), ppath + ".kind");
      std::string type = getString(member(params[p], "type", ppath), ppath + ".type");
      ParamInfo param;
      // A tensor descriptor is passed as the address of its CUtensorMap,
      // which the caller encodes with the metadata's tma_box.
      if (kind == "pointer" || kind == "tensordesc")
        param.pointer = true;
      else if (kind != "scalar")
        badField(ppath + ".kind",
                 "expected \"pointer\", \"scalar\" or \"tensordesc\"");
      auto parsed = parseScalarType(type);
      if (!parsed)
        badField(ppath + ".type", "unknown type '" + type + "'");
      param.type = *parsed;
      if (kind == "pointer")
        if (const Json *overrun = optionalMember(params[p], "read_overrun_bytes")) {
          param.readOverrunBytes = getInt(*overrun, ppath + ".read_overrun_bytes");
          // What DeviceMemory's padding covers (the buffer contract).
          if (param.readOverrunBytes < 0 ||
              param.readOverrunBytes >= int64_t(kBufferGranule))
            badField(ppath + ".read_overrun_bytes",
                     "expected 0 to " + std::to_string(kBufferGranule - 1) +
                         " (allocations are padded to " +
                         std::to_string(kBufferGranule) + "-byte granules)");
        }
      if (kind == "tensordesc") {
        const JsonArray &box =
            getArray(member(params[p], "tma_box", ppath), ppath + ".tma_box");
        for (size_t d = 0; d < box.size(); ++d)
          param.tmaBox.push_back(
              getInt(box[d], ppath + ".tma_box[" + std::to_string(d) + "]"));
        if (param.tmaBox.size() != 2 || param.tmaBox[0] <= 0 ||
            param.tmaBox[0] > 256 || param.tmaBox[1] <= 0 ||
            param.tmaBox[1] > 256)
          badField(ppath + ".tma_box", "expected [rows, columns], each 1 to 256");
      }
      kernel.params.push_back(param);
    }
    info.kernels.push_back(std::move(kernel));
  }
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
    if (param.pointer != arg.isPointer() ||
        param.isTensorDesc() != arg.isTensorMap() ||
        (arg.type() && *arg.type() != param.type))
      fail("argument " + std::to_string(i) + " is " + arg.str() +
           " but the parameter is " + param.str());
    uint64_t bits = arg.bits();
    size_t size = param.pointer ? 8 : sizeOf(param.type);
    if (size < 8)
      bits &= (uint64_t(1) << (size * 8)) - 1;
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
