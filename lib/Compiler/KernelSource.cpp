//===- KernelSource.cpp - a kernel source, specialized --------------------===//

#include "llk/Compiler/KernelSource.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include <set>

using namespace mlir;
using namespace llk;

bool llk::isConstantName(llvm::StringRef name) {
  return !name.empty() && (isalpha(name[0]) || name[0] == '_') &&
         llvm::all_of(name, [](char c) { return isalnum(c) || c == '_'; });
}

llvm::Expected<std::pair<std::string, ConstantValue>>
llk::parseDefine(llvm::StringRef define) {
  auto [name, text] = define.split('=');
  if (isConstantName(name)) {
    int64_t number;
    if (!text.getAsInteger(0, number))
      return std::make_pair(name.str(), ConstantValue(number));
    if (std::optional<ConstantValue> type = ConstantValue::fromTypeName(text))
      return std::make_pair(name.str(), *type);
  }
  std::string types;
  for (std::string_view type : ConstantValue::kTypeNames)
    types += (types.empty() ? "" : ", ") + std::string(type);
  return llvm::createStringError(
      "-D expects NAME=VALUE with VALUE an integer or an element type (" +
      types + "), got '" + define + "'");
}

llvm::Expected<Constants>
llk::parseDefines(llvm::ArrayRef<std::string> defines) {
  Constants constants;
  for (const std::string &define : defines) {
    auto binding = parseDefine(define);
    if (!binding)
      return binding.takeError();
    if (!constants.insert(*binding).second)
      return llvm::createStringError("-D binds '" + binding->first +
                                     "' twice");
  }
  return constants;
}

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
llk::readKernelSource(llvm::StringRef path) {
  namespace fs = llvm::sys::fs;
  bool standardInput = path == "-";
  std::string name = standardInput ? "<stdin>" : path.str();
  auto failure = [&](const llvm::Twine &why) {
    return llvm::createStringError("cannot read input file '" + name +
                                   "': " + why);
  };
  fs::file_t file = fs::getStdinHandle();
  if (!standardInput) {
    llvm::Expected<fs::file_t> opened = fs::openNativeFileForRead(path);
    if (!opened)
      return llvm::createStringError(
          "cannot open input file '" + name +
          "': " + llvm::errorToErrorCode(opened.takeError()).message());
    file = *opened;
  }
  auto closeFile = llvm::make_scope_exit([&] {
    if (!standardInput)
      fs::closeFile(file);
  });
  fs::file_status status;
  if (std::error_code error = fs::status(file, status))
    return failure(error.message());
  switch (status.type()) {
  case fs::file_type::regular_file:
  case fs::file_type::fifo_file:
    break;
  case fs::file_type::directory_file:
    return llvm::createStringError("cannot open input file '" + name +
                                   "': Is a directory");
  default:
    // Standard input may be a terminal; a named device is no kernel source
    // (and /dev/zero never ends).
    if (!standardInput)
      return failure("not a regular file or a pipe");
  }
  // Read one byte past the bound to tell a source of exactly the bound from
  // a longer one.
  llvm::SmallString<0> text;
  constexpr size_t kChunk = 64 * 1024;
  while (text.size() <= kMaxSourceBytes) {
    size_t size = text.size();
    text.resize_for_overwrite(size + kChunk);
    llvm::Expected<size_t> read =
        fs::readNativeFile(file, llvm::MutableArrayRef(text.begin() + size, kChunk));
    if (!read)
      return failure(llvm::errorToErrorCode(read.takeError()).message());
    text.truncate(size + *read);
    if (*read == 0)
      break;
  }
  if (text.size() > kMaxSourceBytes)
    return failure("larger than " + llvm::Twine(kMaxSourceBytes >> 20) +
                   " MiB, the most a kernel source may have");
  return llvm::MemoryBuffer::getMemBufferCopy(text, name);
}

KernelSource::KernelSource(MLIRContext &context,
                           std::unique_ptr<llvm::MemoryBuffer> text,
                           llvm::raw_ostream &os)
    : context(context), os(os),
      bufferName(text->getBufferIdentifier().str()) {
  written.AddNewSourceBuffer(std::move(text), llvm::SMLoc());
  // Diagnostics show the user's line; an IR dump would bury it.
  printedOpOnDiagnostic = context.shouldPrintOpOnDiagnostic();
  context.printOpOnDiagnostic(false);
  handler = context.getDiagEngine().registerHandler(
      [this](Diagnostic &diag) { return emit(diag); });
}

KernelSource::~KernelSource() {
  context.getDiagEngine().eraseHandler(handler);
  context.printOpOnDiagnostic(printedOpOnDiagnostic);
}

unsigned KernelSource::writtenColumn(unsigned line, unsigned column) const {
  auto it = replacements.find(line);
  if (it == replacements.end())
    return column;
  int shift = 0;
  for (const Replacement &r : it->second) {
    if (column < r.boundBegin)
      break;
    if (column < r.boundEnd)
      return r.writtenBegin; // inside a bound value: its placeholder
    shift = int(r.writtenEnd) - int(r.boundEnd);
  }
  return unsigned(int(column) + shift);
}

/// The first file position in `loc`, if any.
static std::optional<FileLineColLoc> filePosition(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return file;
  if (auto name = dyn_cast<NameLoc>(loc))
    return filePosition(name.getChildLoc());
  if (auto call = dyn_cast<CallSiteLoc>(loc))
    return filePosition(call.getCallee());
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (auto file = filePosition(inner))
        return file;
  return std::nullopt;
}

void KernelSource::print(Location loc, llvm::SourceMgr::DiagKind kind,
                         const llvm::Twine &message) {
  std::optional<FileLineColLoc> position = filePosition(loc);
  if (position && position->getFilename() == bufferName &&
      position->getLine() > 0) {
    unsigned line = position->getLine();
    unsigned column = writtenColumn(line, std::max(1u, position->getColumn()));
    llvm::SMLoc at = written.FindLocForLineAndColumn(1, line, column);
    if (at.isValid()) {
      written.PrintMessage(os, at, kind, message);
      return;
    }
  }
  const char *label = kind == llvm::SourceMgr::DK_Error     ? "error"
                      : kind == llvm::SourceMgr::DK_Warning ? "warning"
                                                            : "note";
  os << bufferName << ": " << label << ": " << message << "\n";
}

LogicalResult KernelSource::emit(Diagnostic &diag) {
  auto kindOf = [](DiagnosticSeverity severity) {
    switch (severity) {
    case DiagnosticSeverity::Error: return llvm::SourceMgr::DK_Error;
    case DiagnosticSeverity::Warning: return llvm::SourceMgr::DK_Warning;
    case DiagnosticSeverity::Remark: return llvm::SourceMgr::DK_Remark;
    case DiagnosticSeverity::Note: return llvm::SourceMgr::DK_Note;
    }
    return llvm::SourceMgr::DK_Error;
  };
  print(diag.getLocation(), kindOf(diag.getSeverity()), diag.str());
  for (Diagnostic &note : diag.getNotes())
    print(note.getLocation(), llvm::SourceMgr::DK_Note, note.str());
  return success();
}

/// Result numbers (`%name#N`) a kernel may use. MLIR's parser sizes a table
/// by the largest N it sees, so a huge one exhausts memory (an abort) before
/// any diagnostic; no kernel op has this many results.
static constexpr uint64_t kMaxResultNumber = 1 << 16;

LogicalResult KernelSource::checkResultNumbers(llvm::StringRef text) {
  unsigned line = 1, column = 1;
  auto advance = [&](size_t count, size_t &i) {
    for (size_t end = std::min(i + count, text.size()); i < end; ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
  };
  auto isNameChar = [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.' || c == '-';
  };
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    if (c == '/' && text.substr(i).starts_with("//")) {
      size_t eol = text.find('\n', i);
      advance((eol == llvm::StringRef::npos ? text.size() : eol) - i, i);
    } else if (c == '"') {
      size_t j = i + 1;
      while (j < text.size() && text[j] != '"' && text[j] != '\n')
        j += text[j] == '\\' ? 2 : 1;
      advance(j + 1 - i, i);
    } else if (c == '%') {
      size_t j = i + 1;
      while (j < text.size() && isNameChar(text[j]))
        ++j;
      if (j + 1 < text.size() && text[j] == '#' && llvm::isDigit(text[j + 1])) {
        size_t k = j + 1;
        uint64_t number = 0;
        while (k < text.size() && llvm::isDigit(text[k]))
          number = std::min<uint64_t>(number * 10 + (text[k++] - '0'),
                                      kMaxResultNumber + 1);
        if (number > kMaxResultNumber) {
          size_t at = i;
          advance(j + 1 - i, at); // the column of the number
          emitError(FileLineColLoc::get(&context, bufferName, line, column))
              << "result number '" << text.slice(j + 1, k)
              << "' is out of range: an op's results are numbered below "
              << kMaxResultNumber;
          return failure();
        }
        j = k;
      }
      advance(j - i, i);
    } else {
      advance(1, i);
    }
  }
  return success();
}

OwningOpRef<ModuleOp>
KernelSource::parse(const Constants &constants) {
  replacements.clear();
  llvm::StringRef text = written.getMemoryBuffer(1)->getBuffer();
  std::string result;
  result.reserve(text.size());
  std::set<std::string> used, unbound;
  bool ok = true;
  auto error = [&](const char *at, const llvm::Twine &message) {
    written.PrintMessage(os, llvm::SMLoc::getFromPointer(at),
                         llvm::SourceMgr::DK_Error, message);
    ok = false;
  };
  // Columns of the current line in both texts, for the diagnostic map.
  unsigned line = 1, writtenColumn = 1, boundColumn = 1;
  auto advance = [&](llvm::StringRef copied) {
    for (char c : copied) {
      if (c == '\n') {
        ++line;
        writtenColumn = boundColumn = 1;
      } else {
        ++writtenColumn;
        ++boundColumn;
      }
    }
  };
  size_t pos = 0;
  while (pos < text.size()) {
    size_t start = text.find("${", pos);
    if (start == llvm::StringRef::npos) {
      result += text.substr(pos).str();
      break;
    }
    llvm::StringRef before = text.slice(pos, start);
    result += before.str();
    advance(before);
    size_t end = text.find_first_of("}\n", start);
    llvm::StringRef name = end == llvm::StringRef::npos || text[end] != '}'
                               ? llvm::StringRef()
                               : text.slice(start + 2, end);
    if (!isConstantName(name)) {
      error(text.data() + start,
            "malformed constant placeholder: expected ${NAME} with NAME an "
            "identifier");
      result += "${";
      advance("${");
      pos = start + 2;
      continue;
    }
    std::string value;
    auto it = constants.find(name.str());
    if (it == constants.end()) {
      if (unbound.insert(name.str()).second)
        error(text.data() + start, "constant '" + name +
                                       "' is not bound; pass -D " + name +
                                       "=<value>");
    } else {
      value = it->second.str();
      used.insert(it->first);
    }
    unsigned placeholderLength = end + 1 - start;
    replacements[line].push_back({boundColumn,
                                  boundColumn + unsigned(value.size()),
                                  writtenColumn,
                                  writtenColumn + placeholderLength});
    result += value;
    boundColumn += value.size();
    writtenColumn += placeholderLength;
    pos = end + 1;
  }
  for (const auto &[name, value] : constants)
    if (!used.count(name)) {
      os << bufferName << ": error: constant '" << name
         << "' is bound but the source has no ${" << name << "}\n";
      ok = false;
    }
  if (!ok)
    return nullptr;

  if (failed(checkResultNumbers(result)))
    return nullptr;

  llvm::SourceMgr bound;
  bound.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(result, bufferName), llvm::SMLoc());
  ParserConfig config(&context);
  return parseSourceFile<ModuleOp>(bound, config);
}
