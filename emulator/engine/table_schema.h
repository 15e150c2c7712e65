// emulator/engine/table_schema.h: reading and checking the schema parts of
// CreateTable and UpdateTable requests (attribute definitions, key schemas,
// secondary indexes, projections, throughput), with DynamoDB's messages
// (the DynamoDB API reference).
//
// Parse* functions read JSON through a RequestParser (type errors and shape
// constraints are recorded there); Check*/Build* functions run the
// operation-specific checks in DynamoDB's order and return the first error.
//
// Thread-safety: stateless functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/result.h"
#include "emulator/engine/capacity/on_demand_settings.h"
#include "emulator/engine/request.h"
#include "emulator/engine/table.h"

namespace ddblab::engine {

struct RawKeyElement {
  std::optional<std::string> name;
  std::optional<std::string> key_type;  // "HASH" / "RANGE"
};

struct RawAttributeDefinition {
  std::optional<std::string> name;
  std::optional<std::string> type;  // "S" / "N" / "B"
};

struct RawThroughput {
  bool present = false;
  std::optional<int64_t> read;
  std::optional<int64_t> write;
};

struct RawProjection {
  bool present = false;
  std::optional<std::string> type;
  std::optional<std::vector<std::string>> non_key;
};

struct RawIndex {
  std::optional<std::string> name;
  bool key_present = false;
  std::vector<RawKeyElement> key;
  RawProjection projection;
  RawThroughput throughput;       // GSIs only
  RawOnDemandSettings on_demand;  // GSIs only
};

// AttributeDefinitions (a list of AttributeDefinition structures).
std::vector<RawAttributeDefinition> ParseAttributeDefinitions(
    RequestParser& p, const Json& request, bool required);
// A KeySchema member of `obj` at `path`. `check_key_type` adds the
// [HASH, RANGE] enum constraint (table key schemas). `max_elements` is the
// list length bound (2 for tables and LSIs; GSIs have none).
std::vector<RawKeyElement> ParseKeySchema(RequestParser& p, const Json& obj,
                                          std::string_view path, bool required,
                                          bool check_key_type, bool* present,
                                          int64_t max_elements = 2);
RawThroughput ParseThroughput(RequestParser& p, const Json& obj,
                              std::string_view path);
// The Projection member of `obj` (required), at `path`.
RawProjection ParseProjection(RequestParser& p, const Json& obj,
                              std::string_view path);
// One LocalSecondaryIndex / GlobalSecondaryIndex (or GSI Create) structure.
RawIndex ParseIndex(RequestParser& p, const Json& value, std::string_view path,
                    bool global);

// Definitions as typed key elements (after the shape checks passed).
std::vector<KeyElement> ToDefinitions(
    const std::vector<RawAttributeDefinition>& defs);

// "Attribute Name is duplicated: <a>".
Status CheckDuplicateDefinitions(const std::vector<KeyElement>& defs);

// The base table key schema checks (CreateTable), in DynamoDB's order.
Result<KeySchema> BuildTableKey(const std::vector<RawKeyElement>& key,
                                const std::vector<KeyElement>& defs);

// One secondary index: key schema checks (a GSI may have a multi-attribute
// key: up to four HASH then up to four RANGE attributes), LSI rules (same hash
// key as the table, needs a range key), projection checks. Throughput rules are
// separate (they depend on the billing mode).
Result<IndexDef> BuildIndex(const RawIndex& raw,
                            const std::vector<KeyElement>& defs,
                            const KeySchema& table_key, bool global);

// A projection's content checks ("Unknown ProjectionType: null", type vs
// NonKeyAttributes, duplicates).
Status BuildProjection(const RawProjection& proj, ProjectionType* type,
                       std::vector<std::string>* non_key);

// GSI throughput vs billing mode: "ProvisionedThroughput should not be
// specified for index: <i> when BillingMode is PAY_PER_REQUEST" /
// "ProvisionedThroughput is not specified for index: <i>".
Status CheckIndexThroughput(const RawIndex& raw, BillingMode billing);

// Table throughput vs billing mode and the 1e12 bound.
Status CheckTableThroughput(const RawThroughput& t, BillingMode billing);

// "Some AttributeDefinitions are not used. AttributeDefinitions: [..],
// keys used: [..]" when a definition is not a key of the table or an index
// (SearchSchema attributes of vector indexes count as used).
Status CheckDefinitionsUsed(const std::vector<KeyElement>& defs,
                            const KeySchema& table_key,
                            const std::vector<IndexDef>& indexes,
                            const std::vector<VectorIndexDef>& vectors = {});

// The throughput stored for a GSI (zeros under PAY_PER_REQUEST).
Throughput IndexThroughput(const RawIndex& raw, BillingMode billing);

}  // namespace ddblab::engine
