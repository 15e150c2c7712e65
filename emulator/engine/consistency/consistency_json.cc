// emulator/engine/consistency/consistency_json.cc: the model as JSON
// (consistency_json.h).
#include "emulator/engine/consistency/consistency_json.h"

#include <map>
#include <string>
#include <utility>

namespace ddblab::engine {

using Json = nlohmann::json;

namespace {

Error At(const std::string& path, const std::string& what) {
  return Error::Validation(path + ": " + what);
}

Result<LagRange> LagAt(const Json& value, const std::string& path) {
  Result<LagRange> lag = LagRangeFromJson(value);
  if (!lag.ok()) return At(path, lag.error().message);
  return lag;
}

Status OnlyMembers(const Json& object, const std::string& path,
                   std::initializer_list<std::string_view> names) {
  for (const auto& [name, value] : object.items()) {
    bool known = false;
    for (std::string_view n : names) known = known || n == name;
    if (!known) {
      std::string list;
      for (std::string_view n : names) {
        list += (list.empty() ? "" : ", ") + std::string(n);
      }
      return At(path.empty() ? name : path + "." + name,
                "unknown member (expected " + list + ")");
    }
  }
  return OkStatus();
}

Result<TableLags> TableLagsAt(const Json& value, const std::string& path) {
  TableLags lags;
  if (!value.is_object()) return At(path, "must be an object or null");
  DDBLAB_RETURN_IF_ERROR(
      OnlyMembers(value, path, {"read_lag", "index_lag", "indexes"}));
  if (auto it = value.find("read_lag"); it != value.end()) {
    DDBLAB_ASSIGN_OR_RETURN(lags.read_lag, LagAt(*it, path + ".read_lag"));
  }
  if (auto it = value.find("index_lag"); it != value.end()) {
    DDBLAB_ASSIGN_OR_RETURN(lags.index_lag, LagAt(*it, path + ".index_lag"));
  }
  if (auto it = value.find("indexes"); it != value.end()) {
    if (!it->is_object()) return At(path + ".indexes", "must be an object");
    for (const auto& [name, spec] : it->items()) {
      DDBLAB_ASSIGN_OR_RETURN(lags.indexes[name],
                              LagAt(spec, path + ".indexes." + name));
    }
  }
  return lags;
}

}  // namespace

Json ConsistencyToJson(const Consistency& model, const Catalog& catalog,
                       TimePoint now) {
  Json out{{"index_lag", LagRangeText(model.defaults().index_lag)},
           {"read_lag", LagRangeText(model.defaults().read_lag)},
           {"tables", Json::object()},
           {"pending", Json::object()}};
  for (const auto& [name, lags] : model.tables()) {
    Json t = Json::object();
    if (lags.read_lag) t["read_lag"] = LagRangeText(*lags.read_lag);
    if (lags.index_lag) t["index_lag"] = LagRangeText(*lags.index_lag);
    if (!lags.indexes.empty()) {
      Json indexes = Json::object();
      for (const auto& [index, lag] : lags.indexes) {
        indexes[index] = LagRangeText(lag);
      }
      t["indexes"] = std::move(indexes);
    }
    out["tables"][name] = std::move(t);
  }
  for (const auto& [name, entry] : catalog.entries()) {
    Json pending = Json::object();
    for (const IndexDef& index : entry.table->indexes) {
      const size_t n = model.Pending(entry.table->id, index.id, now);
      if (n > 0) pending[index.name] = n;
    }
    if (!pending.empty()) out["pending"][name] = std::move(pending);
  }
  return out;
}

Status ApplyConsistencyJson(Consistency& model, const Json& settings) {
  if (!settings.is_object()) {
    return Error::Validation("the consistency settings must be an object");
  }
  DDBLAB_RETURN_IF_ERROR(
      OnlyMembers(settings, "", {"index_lag", "read_lag", "tables"}));
  ConsistencyOptions defaults = model.defaults();
  if (auto it = settings.find("index_lag"); it != settings.end()) {
    DDBLAB_ASSIGN_OR_RETURN(defaults.index_lag, LagAt(*it, "index_lag"));
  }
  if (auto it = settings.find("read_lag"); it != settings.end()) {
    DDBLAB_ASSIGN_OR_RETURN(defaults.read_lag, LagAt(*it, "read_lag"));
  }
  std::map<std::string, TableLags> tables;
  if (auto it = settings.find("tables"); it != settings.end()) {
    if (!it->is_object()) return At("tables", "must be an object");
    for (const auto& [name, value] : it->items()) {
      if (value.is_null()) {
        tables[name] = TableLags{};
        continue;
      }
      DDBLAB_ASSIGN_OR_RETURN(tables[name],
                              TableLagsAt(value, "tables." + name));
    }
  }
  // Everything parsed: apply.
  model.SetDefaults(defaults);
  for (auto& [name, lags] : tables) model.SetTable(name, std::move(lags));
  return OkStatus();
}

}  // namespace ddblab::engine
