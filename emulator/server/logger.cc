#include "emulator/server/logger.h"

namespace ddblab::server {

std::optional<LogLevel> ParseLogLevel(std::string_view text) {
  if (text == "error") return LogLevel::kError;
  if (text == "warn") return LogLevel::kWarn;
  if (text == "info") return LogLevel::kInfo;
  if (text == "debug") return LogLevel::kDebug;
  return std::nullopt;
}

std::string_view LogLevelName(LogLevel level) {
  switch (level) {
    case LogLevel::kError:
      return "error";
    case LogLevel::kWarn:
      return "warn";
    case LogLevel::kInfo:
      return "info";
    case LogLevel::kDebug:
      return "debug";
  }
  return "info";
}

Logger::Logger(LogLevel level, std::ostream& out) : level_(level), out_(out) {}

void Logger::Log(LogLevel level, std::string_view text) {
  if (!Enabled(level)) return;
  MutexLock lock(mu_);
  out_ << "ddblab: " << LogLevelName(level) << ": " << text << '\n';
  out_.flush();
}

}  // namespace ddblab::server
