// cli/namespace_files.h: the namespaces of `ddblab serve --namespace ...`:
// the mode, a namespace's key and name, and the database file each one
// gets under --db FILE.
//
// A namespace is the caller's access key (mode access-key) or its access
// key and region (mode access-key+region). Its name, as GET
// /_ddblab/namespaces lists it and ?namespace= takes it, is "KEY" or
// "KEY:REGION" (split at the last ':', since a region has none).
//
// Files: with --db DIR/STEM.EXT each namespace has its own SQLite file next
// to it, DIR/STEM.<key>.EXT or DIR/STEM.<key>_<region>.EXT (".db" when FILE
// has no extension), like DynamoDB Local's <key>_<region>.db. Key and region
// are written with every byte outside [A-Za-z0-9-] as %XX (uppercase hex),
// so any key id maps to one safe file name and back. FILE itself is not
// used in a namespace mode. A restart finds the files of its mode again
// (ListNamespaceFiles) and reopens them.
//
// Thread-safety: pure functions (ListNamespaceFiles reads the directory).
#pragma once

#include <compare>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/result.h"

namespace ddblab::cli {

enum class NamespaceMode { kShared, kAccessKey, kAccessKeyRegion };

// "shared", "access-key", "access-key+region".
std::string_view NamespaceModeName(NamespaceMode mode);
std::optional<NamespaceMode> ParseNamespaceMode(std::string_view text);

struct NamespaceKey {
  std::string access_key;
  std::string region;  // empty in mode access-key
  auto operator<=>(const NamespaceKey&) const = default;
};

// "KEY" or "KEY:REGION".
std::string NamespaceName(const NamespaceKey& key);

// The namespace that `?namespace=TEXT` names in `mode` (not kShared); a
// ValidationException naming the parameter when TEXT does not fit the mode.
Result<NamespaceKey> ParseNamespaceName(NamespaceMode mode,
                                        std::string_view text);

// Every byte outside [A-Za-z0-9-] as %XX; FileNameDecode undoes it (nullopt
// for text FileNameEncode would not write).
std::string FileNameEncode(std::string_view text);
std::optional<std::string> FileNameDecode(std::string_view text);

// The database file of `key` for --db `db` (":memory:" stays ":memory:").
std::string NamespaceDbPath(const std::string& db, const NamespaceKey& key);

// The namespaces of `mode` whose files lie next to `db` (sorted; none for
// ":memory:" or a missing directory).
std::vector<NamespaceKey> ListNamespaceFiles(const std::string& db,
                                             NamespaceMode mode);

}  // namespace ddblab::cli
