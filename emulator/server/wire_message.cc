#include "emulator/server/wire_message.h"

namespace ddblab::server {
namespace {
char Lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}
}  // namespace

bool HeaderNameEquals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (Lower(a[i]) != Lower(b[i])) return false;
  }
  return true;
}

std::optional<std::string_view> FindHeader(const HeaderList& headers,
                                           std::string_view name) {
  for (const auto& [key, value] : headers) {
    if (HeaderNameEquals(key, name)) return std::string_view(value);
  }
  return std::nullopt;
}

void WireResponse::SetHeader(std::string name, std::string value) {
  for (auto& [key, existing] : headers) {
    if (HeaderNameEquals(key, name)) {
      existing = std::move(value);
      return;
    }
  }
  headers.emplace_back(std::move(name), std::move(value));
}

}  // namespace ddblab::server
