//===- Cache.cpp - compiled kernels in memory and on disk -----------------===//
//
// An entry on disk:
//
//   llk-cache 2
//   key <16 hex digits: the key's hash>
//   description-bytes <N>
//   payload-bytes <M>
//   checksum <16 hex digits: hash64 (xxh3) of the N + M bytes that follow>
//   <empty line>
//   <N bytes: the key's description><M bytes: payload>
//
// A module's payload is "metadata <A>\nptx <B>\ncubin <C>\n" and the
// metadata JSON (A bytes), the PTX (B) and the cubin (C; 0 without one).
//
//===----------------------------------------------------------------------===//

#include "llk/runtime/JIT.h"

#include "llk/Environment.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <mutex>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace llk::rt;
namespace fs = std::filesystem;

uint64_t llk::rt::hash64(std::string_view data) {
  return llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(data.data()), data.size()));
}

std::string llk::rt::toHex(uint64_t value) {
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx",
                static_cast<unsigned long long>(value));
  return buffer;
}

std::string Cache::defaultDirectory() { return llk::env::cacheDirectory(); }

Cache::Cache(std::string directory)
    : directory_(directory.empty() ? defaultDirectory() : std::move(directory)) {}

std::string Cache::entryPath(const CacheKey &key) const {
  return directory_ + "/" + key.hex() + ".llkc";
}

void Cache::clearMemory() {
  std::lock_guard<std::mutex> lock(mutex_);
  memory_.clear();
}

namespace {
/// A file descriptor, closed on scope exit.
struct FileDescriptor {
  int fd = -1;
  ~FileDescriptor() {
    if (fd >= 0)
      ::close(fd);
  }
};
} // namespace

/// Entries are PTX and metadata: a few MB. A larger "entry" is not ours.
static constexpr off_t kMaxEntryBytes = off_t(1) << 30;

/// The bytes of the regular file `path`: nullopt if nothing is there (or
/// the path leads nowhere), with `notAnEntry` set if something else is there
/// (a FIFO, a directory, a device, a symlink: never opened, since opening a
/// FIFO or a device waits or acts) or it cannot be read.
static std::optional<std::string> readRegularFile(const std::string &path,
                                                  bool &notAnEntry) {
  notAnEntry = false;
  struct stat before;
  if (::lstat(path.c_str(), &before) != 0)
    return std::nullopt;
  notAnEntry = true;
  if (!S_ISREG(before.st_mode) || before.st_size > kMaxEntryBytes)
    return std::nullopt;
  // Replaced by something else since lstat: O_NOFOLLOW and O_NONBLOCK keep
  // the open from following a link or waiting, fstat tells what was opened.
  FileDescriptor file{::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)};
  struct stat opened;
  if (file.fd < 0 || ::fstat(file.fd, &opened) != 0 || !S_ISREG(opened.st_mode) ||
      opened.st_size > kMaxEntryBytes)
    return std::nullopt;
  std::string data;
  data.resize(size_t(opened.st_size) + 1); // one more: a file that grew
  size_t size = 0;
  while (size < data.size()) {
    ssize_t n = ::read(file.fd, data.data() + size, data.size() - size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return std::nullopt;
    if (n == 0)
      break;
    size += size_t(n);
  }
  data.resize(size); // a size that changed fails the entry's own checks
  notAnEntry = false;
  return data;
}

std::optional<std::string> Cache::readEntry(const std::string &path,
                                            const CacheKey &key) {
  bool notAnEntry = false;
  std::optional<std::string> read = readRegularFile(path, notAnEntry);
  if (notAnEntry) {
    ++stats_.corrupt;
    return std::nullopt;
  }
  if (!read)
    return std::nullopt; // absent: a plain miss
  std::string data = std::move(*read);
  auto corrupt = [&]() -> std::optional<std::string> {
    ++stats_.corrupt;
    return std::nullopt;
  };
  size_t headerEnd = data.find("\n\n");
  if (headerEnd == std::string::npos)
    return corrupt();
  // Words and numbers read with StringRef, never a C++ stream: a
  // libllk.so that holds its own C++ runtime shares the locale facets' ids
  // with the process's (GNU unique symbols), and its streams' number parsing
  // fails there (a Python process that loaded torch).
  llvm::SmallVector<llvm::StringRef, 10> words;
  llvm::SplitString(llvm::StringRef(data).take_front(headerEnd), words);
  uint64_t descriptionBytes = 0, payloadBytes = 0;
  if (words.size() != 10 || words[0] != "llk-cache" || words[1] != "2" ||
      words[2] != "key" || words[3] != key.hex() || words[4] != "description-bytes" ||
      words[5].getAsInteger(10, descriptionBytes) || words[6] != "payload-bytes" ||
      words[7].getAsInteger(10, payloadBytes) || words[8] != "checksum")
    return corrupt();
  std::string checksum = words[9].str();
  size_t bodyStart = headerEnd + 2;
  if (data.size() - bodyStart != descriptionBytes + payloadBytes)
    return corrupt(); // truncated or extended
  std::string_view body(data.data() + bodyStart, data.size() - bodyStart);
  if (toHex(hash64(body)) != checksum)
    return corrupt();
  if (body.substr(0, descriptionBytes) != key.description)
    return corrupt(); // another key with the same hash: treat as unusable
  return std::string(body.substr(descriptionBytes));
}

void Cache::writeEntry(const std::string &path, const CacheKey &key,
                       const std::string &payload) {
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  if (ec)
    throw Error(ErrorCode::IO, "cannot create the cache directory '" +
                                   fs::path(path).parent_path().string() +
                                   "': " + ec.message());
  std::string body = key.description + payload;
  std::string header = "llk-cache 2\nkey " + key.hex() + "\ndescription-bytes " +
                       std::to_string(key.description.size()) +
                       "\npayload-bytes " + std::to_string(payload.size()) +
                       "\nchecksum " + toHex(hash64(body)) + "\n\n";
  // Unique per process and thread; rename() then replaces the entry whole.
  static std::atomic<unsigned> counter{0};
  std::string temporary =
      path + ".tmp." + std::to_string(getpid()) + "." +
      toHex(std::hash<std::thread::id>()(std::this_thread::get_id())) + "." +
      std::to_string(counter++);
  {
    // O_EXCL | O_NOFOLLOW: a new file of ours, whatever is in the directory.
    FileDescriptor out{::open(temporary.c_str(),
                              O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644)};
    if (out.fd < 0) {
      int err = errno;
      throw Error(ErrorCode::IO, "cannot write '" + temporary + "': " +
                                     std::strerror(err));
    }
    std::string data = header + body;
    size_t written = 0;
    while (written < data.size()) {
      ssize_t n = ::write(out.fd, data.data() + written, data.size() - written);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0) {
        int err = n < 0 ? errno : EIO;
        fs::remove(temporary, ec);
        throw Error(ErrorCode::IO, "cannot write '" + temporary + "': " +
                                       std::strerror(err));
      }
      written += size_t(n);
    }
    if (::close(out.fd) != 0) { // NFS and friends report a full disk here
      int err = errno;
      out.fd = -1;
      fs::remove(temporary, ec);
      throw Error(ErrorCode::IO, "cannot write '" + temporary + "': " +
                                     std::strerror(err));
    }
    out.fd = -1;
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    int err = errno;
    fs::remove(temporary, ec);
    throw Error(ErrorCode::IO, "cannot rename '" + temporary + "' to '" + path +
                                   "': " + std::strerror(err));
  }
}

/// A module's payload (see the top of this file).
static std::string encodeModule(const CompiledModule &module) {
  return "metadata " + std::to_string(module.metadataJson.size()) + "\nptx " +
         std::to_string(module.ptx.size()) + "\ncubin " +
         std::to_string(module.cubin.size()) + "\n" + module.metadataJson +
         module.ptx + module.cubin;
}

static std::optional<CompiledModule> decodeModule(const std::string &payload) {
  // Three lines "<word> <bytes>", then the bytes (StringRef, as readEntry).
  llvm::StringRef rest(payload);
  uint64_t bytes[3];
  const char *names[3] = {"metadata", "ptx", "cubin"};
  for (int i = 0; i < 3; ++i) {
    auto [line, next] = rest.split('\n');
    auto [word, number] = line.split(' ');
    if (next.data() == nullptr || word != names[i] || number.getAsInteger(10, bytes[i]))
      return std::nullopt;
    rest = next;
  }
  uint64_t metadataBytes = bytes[0], ptxBytes = bytes[1], cubinBytes = bytes[2];
  size_t start = payload.size() - rest.size();
  if (payload.size() - start != metadataBytes + ptxBytes + cubinBytes)
    return std::nullopt;
  CompiledModule module;
  module.metadataJson = payload.substr(start, metadataBytes);
  module.ptx = payload.substr(start + metadataBytes, ptxBytes);
  module.cubin = payload.substr(start + metadataBytes + ptxBytes, cubinBytes);
  return module;
}

std::string llk::rt::fileDigest(const std::string &path) {
  struct Seen {
    int64_t mtimeNs, size;
    std::string digest;
  };
  static std::mutex mutex;
  static std::map<std::string, Seen> seen; // by path
  struct stat status;
  if (::stat(path.c_str(), &status) != 0)
    return "missing";
  int64_t mtimeNs = int64_t(status.st_mtim.tv_sec) * 1000000000 + status.st_mtim.tv_nsec;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = seen.find(path);
    if (it != seen.end() && it->second.mtimeNs == mtimeNs &&
        it->second.size == int64_t(status.st_size))
      return it->second.digest;
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (!in)
    return "missing";
  std::string digest = toHex(hash64(bytes.str()));
  std::lock_guard<std::mutex> lock(mutex);
  seen[path] = Seen{mtimeNs, int64_t(status.st_size), digest};
  return digest;
}

std::optional<CompiledModule> Cache::lookupMemory(const CacheKey &key) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = memory_.find(key.hash);
  if (it != memory_.end() && it->second.first == key.description) {
    ++stats_.memoryHits;
    return it->second.second;
  }
  return std::nullopt;
}

std::optional<CompiledModule> Cache::lookup(const CacheKey &key) {
  if (auto hit = lookupMemory(key))
    return hit;
  std::optional<std::string> payload = readEntry(entryPath(key), key);
  if (payload) {
    if (std::optional<CompiledModule> module = decodeModule(*payload)) {
      try {
        module->info = std::make_shared<const ModuleInfo>(parseModuleInfo(module->metadataJson));
        ++stats_.diskHits;
        std::lock_guard<std::mutex> lock(mutex_);
        memory_[key.hash] = {key.description, *module};
        return module;
      } catch (const Error &) {
      }
    }
    ++stats_.corrupt; // checksum matched, contents did not: rebuild anyway
  }
  ++stats_.misses;
  return std::nullopt;
}

void Cache::store(const CacheKey &key, const CompiledModule &module) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    memory_[key.hash] = {key.description, module};
  }
  writeEntry(entryPath(key), key, encodeModule(module));
  ++stats_.stores;
}

std::optional<std::string> Cache::loadRecord(const std::string &kind,
                                             const CacheKey &key) {
  return readEntry(directory_ + "/" + kind + "/" + key.hex() + ".llkc", key);
}

void Cache::storeRecord(const std::string &kind, const CacheKey &key,
                        const std::string &payload) {
  writeEntry(directory_ + "/" + kind + "/" + key.hex() + ".llkc", key, payload);
}
