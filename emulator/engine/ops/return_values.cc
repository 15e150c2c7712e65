#include "emulator/engine/ops/return_values.h"

#include "emulator/expr/projection.h"
#include "emulator/value/codec.h"

namespace ddblab::engine {
namespace {

std::optional<value::Item> NonEmpty(value::Item item) {
  if (item.empty()) return std::nullopt;
  return item;
}

}  // namespace

ReturnValues ParseReturnValues(std::string_view name) {
  if (name == "ALL_OLD") return ReturnValues::kAllOld;
  if (name == "UPDATED_OLD") return ReturnValues::kUpdatedOld;
  if (name == "ALL_NEW") return ReturnValues::kAllNew;
  if (name == "UPDATED_NEW") return ReturnValues::kUpdatedNew;
  return ReturnValues::kNone;
}

std::optional<value::Item> UpdateReturnAttributes(
    ReturnValues rv, const value::Item* old_item, const value::Item* new_item,
    const std::vector<expr::DocumentPath>& targets) {
  switch (rv) {
    case ReturnValues::kNone:
      return std::nullopt;
    case ReturnValues::kAllOld:
      if (old_item == nullptr) return std::nullopt;
      return *old_item;
    case ReturnValues::kAllNew:
      if (new_item == nullptr) return std::nullopt;
      return *new_item;
    case ReturnValues::kUpdatedOld:
    case ReturnValues::kUpdatedNew: {
      const value::Item* source =
          rv == ReturnValues::kUpdatedOld ? old_item : new_item;
      if (source == nullptr || targets.empty()) return std::nullopt;
      expr::ProjectionExpression projection;
      projection.paths = targets;
      return NonEmpty(expr::Project(projection, *source));
    }
  }
  return std::nullopt;
}

Error ConditionFailed(const value::Item* old_item, bool return_old) {
  Error error = Error::ConditionalCheckFailed("The conditional request failed");
  if (return_old && old_item != nullptr) {
    error.extra = nlohmann::json{{"Item", value::EncodeItem(*old_item)}};
  }
  return error;
}

void AddConsumedCapacity(Json& out, std::string_view table_name,
                         const Consumed& used, CapacityMode mode) {
  if (mode == CapacityMode::kNone) return;
  out["ConsumedCapacity"] = ConsumedCapacityJson(table_name, used, mode);
}

}  // namespace ddblab::engine
