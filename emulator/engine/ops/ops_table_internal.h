// emulator/engine/ops/ops_table_internal.h: shared pieces of the control-plane
// operation files (ops_table.cc, ops_update_table.cc, ops_ttl.cc,
// ops_tags.cc). Not a public seam.
//
// Thread-safety: stateless functions; the *Locked ones need the engine lock.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "emulator/api/result.h"
#include "emulator/engine/emulator_impl.h"
#include "emulator/engine/request.h"
#include "emulator/engine/table.h"

namespace ddblab::engine {

using Tag = std::pair<std::string, std::string>;

// Reads a Tags list (shape checks on key/value lengths).
std::vector<Tag> ParseTags(RequestParser& p, const Json& obj,
                           std::string_view path, bool* present);
// Content checks of tags being added to a table that has `existing`:
// invalid characters, aws: prefix, duplicates, more than 50 in total.
Status CheckTags(const std::vector<Tag>& tags,
                 const std::vector<Tag>& existing);
// Adds or overwrites tags (same key overwrites the value).
void MergeTags(std::vector<Tag>* into, const std::vector<Tag>& tags);

// Saves `next` as the new version of `entry`'s table: its store row and
// every sink's OnTableUpdated in one storage transaction, then, once that
// committed, publishes it in the catalog (a failure changes neither).
Status CommitTableChange(EmulatorImpl& impl, Catalog::Entry* entry, Table next)
    DDBLAB_REQUIRES(impl.mu());

// "Attempt to change a resource which is still in use: Table is being
// created: <name>" and friends, for a table not ready for a change.
std::optional<Error> TableBusyError(const Table& table);

// The TableName member of a control request (RequestParser::TableNameOrArn).
inline std::optional<std::string> ReadTableName(RequestParser& p,
                                                const Json& request) {
  return p.TableNameOrArn(request);
}

}  // namespace ddblab::engine
