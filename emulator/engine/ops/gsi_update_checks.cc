// emulator/engine/ops/gsi_update_checks.cc: see the header.
#include "emulator/engine/ops/gsi_update_checks.h"

#include <set>
#include <string>

#include "emulator/engine/request.h"

namespace ddblab::engine {
namespace {

using Json = nlohmann::json;

Error Invalid(std::string_view text) {
  return Error::Validation(std::string(kInvalidParams) + std::string(text));
}

const Json* Action(const Json& entry, const char* member) {
  if (!entry.is_object()) return nullptr;
  auto it = entry.find(member);
  if (it == entry.end() || it->is_null()) return nullptr;
  return &*it;
}

}  // namespace

bool HasGsiUpdates(const Json* updates) {
  return updates != nullptr && updates->is_array() && !updates->empty();
}

Status CheckGsiUpdateList(const Json* updates) {
  if (updates == nullptr || !updates->is_array()) return OkStatus();
  for (const Json& entry : *updates) {
    int actions = 0;
    for (const char* member : {"Create", "Update", "Delete"}) {
      if (Action(entry, member) != nullptr) ++actions;
    }
    if (actions == 0) {
      return Invalid(
          "One of GlobalSecondaryIndexUpdate.Update, "
          "GlobalSecondaryIndexUpdate.Create, "
          "GlobalSecondaryIndexUpdate.Delete must not be null");
    }
    if (actions > 1) {
      return Invalid(
          "Only one global secondary index action is allowed per "
          "GlobalSecondaryIndexUpdate object");
    }
  }
  if (updates->empty()) {
    return Invalid("List of GlobalSecondaryIndexUpdates is empty");
  }
  std::set<std::string> touched;
  for (const Json& entry : *updates) {
    for (const char* member : {"Create", "Update", "Delete"}) {
      const Json* action = Action(entry, member);
      if (action == nullptr || !action->is_object()) continue;
      auto name = action->find("IndexName");
      if (name == action->end() || !name->is_string()) continue;
      if (!touched.insert(name->get<std::string>()).second) {
        return Invalid(
            "Only one global secondary index update per index is allowed "
            "simultaneously. Index: " +
            name->get<std::string>());
      }
    }
  }
  return OkStatus();
}

}  // namespace ddblab::engine
