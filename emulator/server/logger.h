// emulator/server/logger.h: leveled log lines for `ddblab serve`.
//
// Lines go to a stream (stderr by default) as "ddblab: <level>: <text>".
// The level is fixed at construction (--log-level).
//
// Thread-safety: Log() may be called from many threads (internally locked).
#pragma once

#include <optional>
#include <ostream>
#include <string_view>

#include "emulator/api/mutex.h"
#include "emulator/api/thread_annotations.h"

namespace ddblab::server {

enum class LogLevel { kError = 0, kWarn = 1, kInfo = 2, kDebug = 3 };

std::optional<LogLevel> ParseLogLevel(std::string_view text);
std::string_view LogLevelName(LogLevel level);

class Logger {
 public:
  // `out` must outlive the logger.
  explicit Logger(LogLevel level, std::ostream& out);

  bool Enabled(LogLevel level) const { return level <= level_; }
  void Log(LogLevel level, std::string_view text);

 private:
  LogLevel level_;
  Mutex mu_;
  std::ostream& out_ DDBLAB_GUARDED_BY(mu_);
};

}  // namespace ddblab::server
