// common/text/ini.cc: ParseIni (ini.h).
#include "common/text/ini.h"

namespace ddblab::text {
namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsBlank(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsBlank(s.back())) s.remove_suffix(1);
  return s;
}

IniDocument Failed(size_t line_number, std::string_view what) {
  IniDocument document;
  document.error =
      "line " + std::to_string(line_number) + ": " + std::string(what);
  return document;
}

}  // namespace

IniDocument ParseIni(std::string_view text) {
  IniDocument document;
  bool nested = false;  // under "key =" with no value
  size_t line_number = 0;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view raw = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    const std::string_view line = Trim(raw);
    if (line.empty() || line.front() == '#' || line.front() == ';') continue;
    const bool indented = raw.front() == ' ' || raw.front() == '\t';
    if (nested && indented) continue;
    nested = false;
    if (line.front() == '[') {
      if (line.back() != ']') {
        return Failed(line_number, "unterminated section header");
      }
      document.sections.push_back(
          IniSection{std::string(Trim(line.substr(1, line.size() - 2))), {}});
      continue;
    }
    const size_t eq = line.find('=');
    if (eq == std::string_view::npos) {
      return Failed(line_number, "expected [section] or key = value");
    }
    if (document.sections.empty()) {
      return Failed(line_number, "key = value before any [section]");
    }
    const std::string_view value = Trim(line.substr(eq + 1));
    nested = value.empty();
    document.sections.back().values.insert_or_assign(
        std::string(Trim(line.substr(0, eq))), std::string(value));
  }
  return document;
}

}  // namespace ddblab::text
