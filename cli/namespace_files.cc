// cli/namespace_files.cc: namespace modes, names and files (see
// namespace_files.h).
#include "cli/namespace_files.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace ddblab::cli {
namespace {

namespace fs = std::filesystem;

bool KeptInFileName(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
         (c >= '0' && c <= '9') || c == '-';
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;  // lowercase hex is not what FileNameEncode writes
}

// DIR/STEM.EXT -> {DIR/STEM, ".EXT"}; no extension: {FILE, ".db"}.
std::pair<std::string, std::string> StemAndExtension(const std::string& db) {
  fs::path path(db);
  std::string ext = path.extension().string();
  if (ext.empty() || ext == ".") {
    return {ext.empty() ? db : db.substr(0, db.size() - 1), ".db"};
  }
  return {db.substr(0, db.size() - ext.size()), ext};
}

std::string FileMiddle(const NamespaceKey& key) {
  std::string middle = FileNameEncode(key.access_key);
  if (!key.region.empty()) middle += "_" + FileNameEncode(key.region);
  return middle;
}

}  // namespace

std::string_view NamespaceModeName(NamespaceMode mode) {
  switch (mode) {
    case NamespaceMode::kShared:
      return "shared";
    case NamespaceMode::kAccessKey:
      return "access-key";
    case NamespaceMode::kAccessKeyRegion:
      return "access-key+region";
  }
  return "shared";
}

std::optional<NamespaceMode> ParseNamespaceMode(std::string_view text) {
  for (NamespaceMode mode : {NamespaceMode::kShared, NamespaceMode::kAccessKey,
                             NamespaceMode::kAccessKeyRegion}) {
    if (text == NamespaceModeName(mode)) return mode;
  }
  return std::nullopt;
}

std::string NamespaceName(const NamespaceKey& key) {
  return key.region.empty() ? key.access_key
                            : key.access_key + ":" + key.region;
}

Result<NamespaceKey> ParseNamespaceName(NamespaceMode mode,
                                        std::string_view text) {
  if (mode == NamespaceMode::kAccessKey) {
    if (text.empty() || text.find(':') != std::string_view::npos) {
      return Error::Validation(
          "invalid ?namespace=" + std::string(text) +
          ": this server keeps a namespace per access key (--namespace "
          "access-key): give the access key alone, e.g. ?namespace=AKID");
    }
    return NamespaceKey{std::string(text), ""};
  }
  const size_t colon = text.rfind(':');
  if (colon == std::string_view::npos || colon == 0 ||
      colon + 1 == text.size()) {
    return Error::Validation(
        "invalid ?namespace=" + std::string(text) +
        ": this server keeps a namespace per access key and region "
        "(--namespace access-key+region): give KEY:REGION, e.g. "
        "?namespace=AKID:us-east-1");
  }
  return NamespaceKey{std::string(text.substr(0, colon)),
                      std::string(text.substr(colon + 1))};
}

std::string FileNameEncode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (KeptInFileName(c)) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::optional<std::string> FileNameDecode(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = text[i];
    if (KeptInFileName(c)) {
      out += static_cast<char>(c);
      continue;
    }
    if (c != '%' || i + 2 >= text.size()) {
      return std::nullopt;
    }
    const int hi = HexValue(text[i + 1]);
    const int lo = HexValue(text[i + 2]);
    if (hi < 0 || lo < 0) return std::nullopt;
    const auto byte = static_cast<unsigned char>(hi * 16 + lo);
    if (KeptInFileName(byte)) return std::nullopt;  // not canonical
    out += static_cast<char>(byte);
    i += 2;
  }
  return out;
}

std::string NamespaceDbPath(const std::string& db, const NamespaceKey& key) {
  if (db == ":memory:") return db;
  auto [stem, ext] = StemAndExtension(db);
  return stem + "." + FileMiddle(key) + ext;
}

std::vector<NamespaceKey> ListNamespaceFiles(const std::string& db,
                                             NamespaceMode mode) {
  std::vector<NamespaceKey> found;
  if (db == ":memory:" || mode == NamespaceMode::kShared) return found;
  auto [stem, ext] = StemAndExtension(db);
  const fs::path stem_path(stem);
  const std::string prefix = stem_path.filename().string() + ".";
  fs::path dir = stem_path.parent_path();
  if (dir.empty()) dir = ".";
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) return found;
  for (const fs::directory_entry& entry : it) {
    const std::string name = entry.path().filename().string();
    if (name.size() <= prefix.size() + ext.size() ||
        !name.starts_with(prefix) || !name.ends_with(ext)) {
      continue;
    }
    std::string_view middle(name);
    middle =
        middle.substr(prefix.size(), name.size() - prefix.size() - ext.size());
    const size_t underscore = middle.find('_');
    NamespaceKey key;
    if (mode == NamespaceMode::kAccessKey) {
      if (underscore != std::string_view::npos) continue;
      auto access_key = FileNameDecode(middle);
      if (!access_key || access_key->empty()) continue;
      key.access_key = *access_key;
    } else {
      if (underscore == std::string_view::npos) continue;
      auto access_key = FileNameDecode(middle.substr(0, underscore));
      auto region = FileNameDecode(middle.substr(underscore + 1));
      if (!access_key || !region || access_key->empty() || region->empty()) {
        continue;
      }
      key = NamespaceKey{*access_key, *region};
    }
    found.push_back(std::move(key));
  }
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace ddblab::cli
