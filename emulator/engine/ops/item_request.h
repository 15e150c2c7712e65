// emulator/engine/ops/item_request.h: request-reading helpers shared by the
// item operations (PutItem, GetItem, DeleteItem, and later UpdateItem,
// batches, transactions).
//
// ReadAttributeMap reads an Item / Key / ExpressionAttributeValues-like
// member (a JSON object of AttributeValues): JSON-shape errors go to the
// RequestParser as SerializationException (they must win over constraint
// errors), AttributeValue content errors (empty value, bad number, ...) are
// returned in `deferred` as the ValidationException to report once the
// shape checks passed:
//
//   RequestParser p(request);
//   std::optional<Error> deferred;
//   auto item = ReadAttributeMap(p, request, "Item", &deferred);
//   p.NotNull(item.has_value() || deferred.has_value(), "item");
//   DDBLAB_RETURN_IF_ERROR(p.Finish());
//   if (deferred) return *deferred;
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
#include "emulator/value/attribute_value.h"

namespace ddblab::engine {

std::optional<value::Item> ReadAttributeMap(RequestParser& p, const Json& obj,
                                            std::string_view member,
                                            std::optional<Error>* deferred);

// ReturnValues: reads the member and checks the enum; returns "NONE" when
// absent.
std::string ReadReturnValues(RequestParser& p, const Json& request);
// "ReturnValues can only be ALL_OLD or NONE" unless NONE / ALL_OLD.
Status CheckPutDeleteReturnValues(const std::string& return_values);

// ReturnItemCollectionMetrics (SIZE | NONE); true for SIZE.
bool ReadItemCollectionMetrics(RequestParser& p, const Json& request);
// ReturnValuesOnConditionCheckFailure (ALL_OLD | NONE); true for ALL_OLD.
bool ReadReturnValuesOnConditionCheckFailure(RequestParser& p,
                                             const Json& request);

// ItemCollectionMetrics for a table with LSIs (null otherwise):
// {"ItemCollectionKey": {<hash>: v}, "SizeEstimateRangeGB": [0.0, 1.0]}.
Json ItemCollectionMetricsJson(const Table& table, const value::Item& item);

// The top-level attributes of `item` named in `names` (AttributesToGet).
value::Item SelectAttributes(const value::Item& item,
                             const std::vector<std::string>& names);

}  // namespace ddblab::engine
