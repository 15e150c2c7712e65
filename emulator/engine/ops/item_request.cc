#include "emulator/engine/ops/item_request.h"

#include <algorithm>
#include <utility>

#include "emulator/value/codec.h"

namespace ddblab::engine {

std::optional<value::Item> ReadAttributeMap(RequestParser& p, const Json& obj,
                                            std::string_view member,
                                            std::optional<Error>* deferred) {
  const Json* map = p.Map(obj, member, "AttributeValue");
  if (map == nullptr) return std::nullopt;
  Result<value::Item> item = value::DecodeItem(*map);
  if (item.ok()) return std::move(item).value();
  Error error = std::move(item).error();
  if (error.type == ErrorType::kSerialization) {
    p.SerializationError(std::move(error.message));
  } else if (!deferred->has_value()) {
    *deferred = std::move(error);
  }
  return std::nullopt;
}

std::string ReadReturnValues(RequestParser& p, const Json& request) {
  std::optional<std::string> v = p.String(request, "ReturnValues");
  if (!v) return "NONE";
  p.Enum(*v, "returnValues",
         {"NONE", "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW"});
  return *v;
}

Status CheckPutDeleteReturnValues(const std::string& return_values) {
  if (return_values == "NONE" || return_values == "ALL_OLD") return OkStatus();
  return Error::Validation("ReturnValues can only be ALL_OLD or NONE");
}

bool ReadItemCollectionMetrics(RequestParser& p, const Json& request) {
  std::optional<std::string> v =
      p.String(request, "ReturnItemCollectionMetrics");
  if (!v) return false;
  p.Enum(*v, "returnItemCollectionMetrics", {"SIZE", "NONE"});
  return *v == "SIZE";
}

bool ReadReturnValuesOnConditionCheckFailure(RequestParser& p,
                                             const Json& request) {
  std::optional<std::string> v =
      p.String(request, "ReturnValuesOnConditionCheckFailure");
  if (!v) return false;
  p.Enum(*v, "returnValuesOnConditionCheckFailure", {"ALL_OLD", "NONE"});
  return *v == "ALL_OLD";
}

Json ItemCollectionMetricsJson(const Table& table, const value::Item& item) {
  if (!table.HasLocalIndexes()) return nullptr;
  value::Item key;
  if (auto it = item.find(table.key.hash.name); it != item.end()) {
    key.emplace(it->first, it->second);
  }
  return Json{{"ItemCollectionKey", value::EncodeItem(key)},
              {"SizeEstimateRangeGB", Json::array({0.0, 1.0})}};
}

value::Item SelectAttributes(const value::Item& item,
                             const std::vector<std::string>& names) {
  value::Item out;
  for (const std::string& name : names) {
    if (auto it = item.find(name); it != item.end()) {
      out.emplace(it->first, it->second);
    }
  }
  return out;
}

}  // namespace ddblab::engine
