// emulator/engine/vector/vector_schema.h: reading and checking vector index
// definitions — CreateTable's VectorIndexes and UpdateTable's
// VectorIndexUpdates — with DynamoDB's messages (DynamoDB API reference:
// VectorIndex, VectorIndexUpdate; texts captured against DynamoDB and
// gathered in the project's vector search notes).
//
// ParseVectorIndex reads one VectorIndex / CreateVectorIndexAction through a
// RequestParser (types and shape constraints: IndexName 3..255 and its
// pattern, VectorAttribute.AttributeName 1..255, SearchSchema at least one
// element with SearchSchemaElementType in [HASH, INLINE_FILTER], Projection,
// Dimensions >= 1, DistanceFunction in [COSINE, DOT_PRODUCT, EUCLIDEAN]).
//
// BuildVectorIndex then checks one definition against the attribute
// definitions, in this order (the order is our choice), each a
// ValidationException "One or more parameter values were invalid: ...":
//   "Number of dimensions must be between 1 and 4096 inclusive."
//   "Conflicting attribute definition for '<a>'. An attribute cannot be
//    defined in AttributeDefinitions when used as a VectorAttribute."
//   "Value '<n>' at 'SearchSchema' failed to satisfy constraint: Member must
//    have HASH count less than or equal to 1"
//   "SearchSchema contains a duplicate AttributeName"
//   "One element in SearchSchema is not defined in attribute definitions"
//   more than 18 INLINE_FILTER elements: "Value '<n>' at 'SearchSchema'
//    failed to satisfy constraint: Member must have INLINE_FILTER count less
//    than or equal to 18" (the limit is DynamoDB's; its text is not known,
//    this one follows the HASH count text)
//   the projection checks of secondary indexes.
// CheckVectorIndexSet checks a table's whole set: more than 5 ->
// "VectorIndex count exceeds the per-table limit of 5"; two indexes on one
// attribute with different Dimensions -> "Conflicting attribute definition
// for '<a>'. All VectorIndexes on the same vector attribute must use the
// same dimensions."
//
// Thread-safety: stateless functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/result.h"
#include "emulator/engine/request.h"
#include "emulator/engine/table.h"
#include "emulator/engine/table_schema.h"

namespace ddblab::engine {

inline constexpr size_t kMaxVectorIndexes = 5;
inline constexpr int64_t kMaxVectorDimensions = 4096;
inline constexpr size_t kMaxInlineFilters = 18;

struct RawSearchSchemaElement {
  std::optional<std::string> name;
  std::optional<std::string> type;  // "HASH" / "INLINE_FILTER"
};

struct RawVectorIndex {
  std::optional<std::string> name;
  std::optional<std::string> attribute;
  bool schema_present = false;
  std::vector<RawSearchSchemaElement> schema;
  RawProjection projection;
  std::optional<int64_t> dimensions;
  std::optional<std::string> distance;
};

// One VectorIndex (or CreateVectorIndexAction) at `path`
// ("vectorIndexes.1.member", "vectorIndexUpdates.1.member.create").
RawVectorIndex ParseVectorIndex(RequestParser& p, const Json& value,
                                std::string_view path);

// The definition, checked against the attribute definitions (the request's,
// for CreateTable and UpdateTable alike).
Result<VectorIndexDef> BuildVectorIndex(const RawVectorIndex& raw,
                                        const std::vector<KeyElement>& defs);

// The checks over all of a table's vector indexes (after a create).
Status CheckVectorIndexSet(const std::vector<VectorIndexDef>& indexes);

// "One or more parameter values were invalid: Vector indexes are only
// supported for PAY_PER_REQUEST tables".
Error VectorBillingError();

}  // namespace ddblab::engine
