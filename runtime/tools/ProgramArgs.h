//===- ProgramArgs.h - command-line numbers of the runtime's programs ------===//
//
// The runtime's programs (llk-softmax-jit, llk-decode-block, llk-gpu-check)
// take numbers from the command line: parsed whole, as integers, in range,
// or refused with a message (no atoi, which reads "1e9" as 1 and "x" as 0).
//
//===----------------------------------------------------------------------===//

#ifndef LLK_RUNTIME_TOOLS_PROGRAMARGS_H
#define LLK_RUNTIME_TOOLS_PROGRAMARGS_H

#include <charconv>
#include <cstring>
#include <optional>
#include <string>

namespace llk::rt::programs {

/// Parses `text`, the value of `option`, as a decimal integer in [min, max]
/// into `value`; otherwise returns why not (and leaves `value`).
template <typename T>
std::optional<std::string> parseInteger(const std::string &option, const char *text,
                                        T min, T max, T &value) {
  T parsed{};
  const char *end = text + std::strlen(text);
  auto [stop, error] = std::from_chars(text, end, parsed);
  if (error != std::errc() || stop != end || stop == text || parsed < min ||
      parsed > max)
    return option + " expects an integer in [" + std::to_string(min) + ", " +
           std::to_string(max) + "], got '" + text + "'";
  value = parsed;
  return std::nullopt;
}

} // namespace llk::rt::programs

#endif // LLK_RUNTIME_TOOLS_PROGRAMARGS_H
