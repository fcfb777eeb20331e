//===- CheckRun.h - GPU checks that stop when the context is lost ------===//
//
// The GPU check programs (llk-gpu-check, llk-runtime-gpu-check) run many
// checks in one process. After a sticky CUDA error (an illegal or misaligned
// address, a trap: rt::isStickyCudaError) every later driver call in the
// process fails with that same error, so each later check would report it
// as its own failure. CheckRun runs checks in order until one loses the
// context, reports that one as the cause, and marks the rest "NOT RUN" (a
// status of its own, counted, and a failing exit status).
//
//===----------------------------------------------------------------------===//

#ifndef LLK_RUNTIME_TOOLS_CHECKRUN_H
#define LLK_RUNTIME_TOOLS_CHECKRUN_H

#include "llk/runtime/Runtime.h"

#include <functional>
#include <string>

namespace llk::rt::programs {

enum class CheckStatus { Passed, Failed, NotRun };

inline const char *toString(CheckStatus status) {
  switch (status) {
  case CheckStatus::Passed: return "PASS";
  case CheckStatus::Failed: return "FAIL";
  case CheckStatus::NotRun: return "NOT RUN";
  }
  return "?";
}

class CheckRun {
public:
  /// `probe` (may be empty) makes the driver report a sticky error that a
  /// check left behind without seeing it (cuCtxSynchronize: a fault of an
  /// asynchronous launch), so that it is blamed on that check, not the next.
  explicit CheckRun(std::function<void()> probe = {}) : probe_(std::move(probe)) {}

  /// Runs check `name` unless the context is lost: `body` returns whether it
  /// passed and sets `detail`; an exception fails it (its message the
  /// detail). Returns the status, which is counted.
  CheckStatus run(const std::string &name,
                  const std::function<bool(std::string &detail)> &body,
                  std::string &detail) {
    if (contextLost()) {
      detail = "the CUDA context was lost to '" + lostBy_ + "'";
      return count(CheckStatus::NotRun);
    }
    bool passed = false;
    try {
      passed = body(detail);
    } catch (const Error &e) {
      detail = e.what();
      noteLost(name, e);
    } catch (const std::exception &e) { // the host's: bad_alloc...
      detail = e.what();
    }
    if (!contextLost() && probe_) {
      try {
        probe_();
      } catch (const Error &e) {
        passed = false;
        detail += std::string(detail.empty() ? "" : "; ") +
                  "then the context: " + e.what();
        noteLost(name, e);
      }
    }
    if (!passed || contextLost())
      return count(CheckStatus::Failed);
    return count(CheckStatus::Passed);
  }

  /// Whether a check lost the CUDA context (a sticky error).
  bool contextLost() const { return !lostBy_.empty(); }
  /// The check that lost it, and its error.
  const std::string &lostBy() const { return lostBy_; }
  const std::string &lostError() const { return lostError_; }

  int passed() const { return passed_; }
  int failed() const { return failed_; }
  int notRun() const { return notRun_; }

  /// "N passed, M failed", with ", K not run" and the check that lost the
  /// context on a line of its own when one did.
  std::string summary() const {
    std::string s = std::to_string(passed_) + " passed, " + std::to_string(failed_) +
                    " failed";
    if (contextLost())
      s += ", " + std::to_string(notRun_) + " not run\nthe CUDA context was lost to '" +
           lostBy_ + "' (" + lostError_ +
           "): a sticky error, after which every driver call in the process fails; "
           "the checks after it did not run";
    return s;
  }
  /// The programs' exit status: 0 when every check ran and passed.
  int exitCode() const { return failed_ || notRun_ ? 1 : 0; }

private:
  CheckStatus count(CheckStatus status) {
    ++(status == CheckStatus::Passed   ? passed_
       : status == CheckStatus::Failed ? failed_
                                       : notRun_);
    return status;
  }
  void noteLost(const std::string &name, const Error &e) {
    if (contextLost() || !e.contextLost())
      return;
    lostBy_ = name;
    lostError_ = e.cudaName().empty() ? e.what() : e.cudaName();
  }

  std::function<void()> probe_;
  std::string lostBy_, lostError_;
  int passed_ = 0, failed_ = 0, notRun_ = 0;
};

} // namespace llk::rt::programs

#endif // LLK_RUNTIME_TOOLS_CHECKRUN_H
