// emulator/engine/capacity/on_demand_settings.cc: OnDemandThroughput and
// WarmThroughput settings (on_demand_settings.h).
#include "emulator/engine/capacity/on_demand_settings.h"

#include <algorithm>
#include <string>

namespace ddblab::engine {
namespace {

Status CheckMax(std::optional<int64_t> v, std::string_view member) {
  if (!v || *v == -1 || *v >= 1) return OkStatus();
  // DynamoDB's text for this is not published: ddblab's own.
  return Error::Validation(std::string(kInvalidParams) + std::string(member) +
                           " must be -1 or at least 1 (got " +
                           std::to_string(*v) + ")");
}

}  // namespace

Json OnDemandSettings::ToMeta() const {
  return Json{{"max_set", max_set},     {"max_read", max_read},
              {"max_write", max_write}, {"warm_set", warm_set},
              {"warm_read", warm_read}, {"warm_write", warm_write}};
}

OnDemandSettings OnDemandSettings::FromMeta(const Json& meta) {
  OnDemandSettings s;
  if (!meta.is_object()) return s;
  s.max_set = meta.value("max_set", false);
  s.max_read = meta.value("max_read", int64_t{-1});
  s.max_write = meta.value("max_write", int64_t{-1});
  s.warm_set = meta.value("warm_set", false);
  s.warm_read = meta.value("warm_read", int64_t{0});
  s.warm_write = meta.value("warm_write", int64_t{0});
  return s;
}

void OnDemandSettings::Describe(Json& description) const {
  if (max_set) {
    description["OnDemandThroughput"] = Json{
        {"MaxReadRequestUnits", max_read}, {"MaxWriteRequestUnits", max_write}};
  }
  if (warm_set) {
    // A side not given shows what a new on-demand table serves at once.
    description["WarmThroughput"] =
        Json{{"ReadUnitsPerSecond", std::max(warm_read, kWarmReadDefault)},
             {"WriteUnitsPerSecond", std::max(warm_write, kWarmWriteDefault)},
             {"Status", "ACTIVE"}};
  }
}

RawOnDemandSettings ParseOnDemandSettings(RequestParser& p, const Json& obj,
                                          std::string_view path) {
  RawOnDemandSettings raw;
  if (const Json* s =
          p.Struct(obj, "OnDemandThroughput", "OnDemandThroughput")) {
    raw.max_present = true;
    raw.max_read = p.Long(*s, "MaxReadRequestUnits");
    raw.max_write = p.Long(*s, "MaxWriteRequestUnits");
  }
  if (const Json* s = p.Struct(obj, "WarmThroughput", "WarmThroughput")) {
    raw.warm_present = true;
    raw.warm_read = p.Long(*s, "ReadUnitsPerSecond");
    raw.warm_write = p.Long(*s, "WriteUnitsPerSecond");
    const std::string wpath = path.empty() ? std::string("warmThroughput")
                                           : MemberPath(path, "warmThroughput");
    if (raw.warm_read) {
      p.Range(*raw.warm_read, MemberPath(wpath, "readUnitsPerSecond"), 1,
              std::nullopt);
    }
    if (raw.warm_write) {
      p.Range(*raw.warm_write, MemberPath(wpath, "writeUnitsPerSecond"), 1,
              std::nullopt);
    }
  }
  return raw;
}

Status ApplyOnDemandSettings(const RawOnDemandSettings& raw,
                             OnDemandSettings* settings) {
  DDBLAB_RETURN_IF_ERROR(CheckMax(raw.max_read, "MaxReadRequestUnits"));
  DDBLAB_RETURN_IF_ERROR(CheckMax(raw.max_write, "MaxWriteRequestUnits"));
  if (raw.max_present) {
    settings->max_set = true;
    if (raw.max_read) settings->max_read = *raw.max_read;
    if (raw.max_write) settings->max_write = *raw.max_write;
  }
  if (raw.warm_present) {
    settings->warm_set = true;
    if (raw.warm_read) {
      settings->warm_read = std::max(settings->warm_read, *raw.warm_read);
    }
    if (raw.warm_write) {
      settings->warm_write = std::max(settings->warm_write, *raw.warm_write);
    }
  }
  return OkStatus();
}

}  // namespace ddblab::engine
