// emulator/engine/ops/vector_index_updates.h: UpdateTable's
// VectorIndexUpdates — one Create or Delete of a vector index per call
// (DynamoDB API reference, UpdateTable / VectorIndexUpdate), with DynamoDB's
// messages.
//
// Checks that need no table (CheckVectorUpdateList), on each entry:
//   both actions -> "One or more parameter values were invalid: Only one
//     vector index action is allowed per VectorIndexUpdate object";
//   neither -> "One or more parameter values were invalid: One of
//     VectorIndexUpdate.Create, VectorIndexUpdate.Delete must not be null"
//     (DynamoDB's text for this case is not known; this follows the GSI one).
// More than one index action in a call (vector or GSI) is the caller's
// LimitExceededException.
//
// Checks on the table as it is, before the "table is being updated" refusal
// (CheckVectorUpdateState):
//   Delete of an index still in resource allocation -> ResourceInUseException
//     "Attempt to change a resource which is still in use: Index creation is
//      in resource allocation phase. Retry deletion during backfilling phase
//      or when the index is active. Table: <t> Index: <i>";
//   any index action while another index (vector or GSI) is being created or
//     deleted -> LimitExceededException "Subscriber limit exceeded: Only 1
//     online index can be created or deleted simultaneously per table"
//     (deleting the backfilling index itself is allowed: it cancels it).
//
// ApplyVectorIndexUpdates (after the billing change of the same call):
//   Create: on a PROVISIONED table -> the PAY_PER_REQUEST text of
//     CreateTable; a name any index has -> "Attempting to create an index
//     which already exists"; the definition checks of vector_schema.h
//     against the request's AttributeDefinitions (and the vector attribute
//     against the table's too); the count and dimension checks of the whole
//     set. The index starts CREATING (resource allocation), see table.h.
//   Delete: an unknown index (or one being deleted) -> ResourceNotFound
//     "Requested resource not found: Index <i> for table <t>"; else DELETING
//     (or gone at once with no status delay).
// Switching to PROVISIONED while vector indexes exist (even when the same
// call deletes the last one) is refused by CheckVectorBilling: "One or more
// parameter values were invalid: Tables with vector indexes must be in
// PAY_PER_REQUEST mode".
//
// Thread-safety: stateless functions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "emulator/api/clock.h"
#include "emulator/api/result.h"
#include "emulator/engine/request.h"
#include "emulator/engine/table.h"
#include "emulator/engine/vector/vector_schema.h"

namespace ddblab::engine {

struct VectorIndexUpdate {
  std::optional<RawVectorIndex> create;
  std::optional<std::string> delete_name;
  bool delete_present = false;
};

struct VectorIndexUpdates {
  const Json* list = nullptr;  // as received
  std::vector<VectorIndexUpdate> updates;

  // Something to do ([] counts as absent, as for GSI updates).
  bool present() const { return !updates.empty(); }
};

VectorIndexUpdates ParseVectorIndexUpdates(RequestParser& p,
                                           const Json& request);

Status CheckVectorUpdateList(const VectorIndexUpdates& u);

Status CheckVectorUpdateState(const VectorIndexUpdates& u, const Table& table);

// `billing` is the mode the table will have after the call.
Status CheckVectorBilling(const std::optional<std::string>& billing,
                          const Table& table);

struct VectorUpdateOutcome {
  std::optional<std::string> created;   // the new index (to backfill)
  std::optional<std::string> removed;   // gone at once (no status delay)
  std::optional<std::string> deleting;  // now DELETING
};

Result<VectorUpdateOutcome> ApplyVectorIndexUpdates(
    const VectorIndexUpdates& u, const std::vector<KeyElement>& request_defs,
    Table* next, TimePoint now, Duration delay);

}  // namespace ddblab::engine
