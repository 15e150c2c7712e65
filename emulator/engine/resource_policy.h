// emulator/engine/resource_policy.h: the resource-based policies of a table
// and of its stream, as stored with the table, and the checks DynamoDB makes
// on a policy document.
//
// A table has one policy slot for its table ARN and one per stream ARN
// (DynamoDB keeps them apart: each has its own policy and revision ids).
// A slot holds the current policy (its document in DynamoDB's canonical form
// and its RevisionId) and the RevisionId of its last change, a deletion
// included (DynamoDB answers a DeleteResourcePolicy of an already deleted
// policy with the deletion's id). Revision ids are the change time in epoch
// milliseconds as a decimal string (13 digits), strictly increasing per slot.
//
// The slots are part of the table's catalog entry (Table::policies,
// persisted in its metadata), so they are dropped with the table.
//
// ddblab stores policies; it does not enforce them (no IAM evaluation).
//
// Thread-safety: plain values and pure functions.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "emulator/api/clock.h"
#include "emulator/api/result.h"

namespace ddblab::engine {

struct StoredPolicy {
  std::string document;  // canonical form (CanonicalPolicy)
  std::string revision;
  friend bool operator==(const StoredPolicy&, const StoredPolicy&) = default;
};

struct PolicySlot {
  std::optional<StoredPolicy> policy;
  // The id of the last change (a put or a deletion); "" if none.
  std::string last_revision;
  friend bool operator==(const PolicySlot&, const PolicySlot&) = default;
};

struct ResourcePolicies {
  PolicySlot table;
  std::map<std::string, PolicySlot> streams;  // by stream ARN

  bool empty() const { return table == PolicySlot{} && streams.empty(); }
  // Our own JSON form inside the table metadata.
  nlohmann::json ToJson() const;
  static ResourcePolicies FromJson(const nlohmann::json& j);
};

// The largest policy document DynamoDB accepts, white space included.
inline constexpr size_t kMaxPolicyBytes = 20480;

// Checks a policy document as PutResourcePolicy and CreateTable's
// ResourcePolicy do, and returns its canonical form: minified, top-level
// members Version then Statement, statement members Sid, Effect, Principal,
// Action, Resource, Condition (Not* in their positive's place), a principal
// {"AWS": "<12-digit account>"} written as its root ARN, duplicate list
// entries dropped and one-element lists written as the element. Two
// documents with the same canonical form are the same policy (a re-put is
// a no-op). Errors are ValidationExceptions with DynamoDB's texts.
Result<std::string> CanonicalPolicy(const std::string& document);

// The RevisionId of a change of `slot` made at `now`.
std::string NextRevision(TimePoint now, const PolicySlot& slot);

}  // namespace ddblab::engine
