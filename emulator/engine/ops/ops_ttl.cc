// UpdateTimeToLive / DescribeTimeToLive settings (DynamoDB's TTL and Streams
// documentation). Expiry itself (the sweeper) belongs to the TTL layer, which
// reads Table::ttl and hooks writes through a ChangeSink.
#include <utility>

#include "emulator/engine/operations.h"
#include "emulator/engine/ops/ops_table_internal.h"

namespace ddblab::engine {
namespace {

Result<Json> UpdateTimeToLive(EmulatorImpl& impl, const Json& request) {
  RequestParser p(request);
  std::optional<std::string> name = ReadTableName(p, request);
  const Json* spec =
      p.Struct(request, "TimeToLiveSpecification", "TimeToLiveSpecification");
  p.NotNull(spec != nullptr, "timeToLiveSpecification");
  std::optional<bool> enabled;
  std::optional<std::string> attribute;
  if (spec != nullptr) {
    enabled = p.Bool(*spec, "Enabled");
    attribute = p.String(*spec, "AttributeName");
    p.NotNull(attribute.has_value(), "timeToLiveSpecification.attributeName");
    if (attribute) {
      p.Length(*attribute, "timeToLiveSpecification.attributeName", 1, 255);
    }
    p.NotNull(enabled.has_value(), "timeToLiveSpecification.enabled");
  }
  DDBLAB_RETURN_IF_ERROR(p.Finish());

  auto lock = impl.Lock();
  DDBLAB_ASSIGN_OR_RETURN(Catalog::Entry * entry,
                          impl.FindTable(*name, TableLookup::kControl));
  std::shared_ptr<const Table> current = entry->table;
  if (current->status == TableStatus::kCreating ||
      current->status == TableStatus::kDeleting) {
    return *TableBusyError(*current);
  }
  const TtlSettings& ttl = current->ttl;
  if (*enabled) {
    if (ttl.enabled && ttl.attribute == *attribute) {
      return Error::Validation("TimeToLive is already enabled");
    }
    if (ttl.enabled) {
      return Error::Validation(
          "TimeToLive is active on a different AttributeName: current "
          "AttributeName is " +
          ttl.attribute);
    }
  } else {
    if (!ttl.enabled)
      return Error::Validation("TimeToLive is already disabled");
    if (ttl.attribute != *attribute) {
      return Error::Validation(
          "TimeToLive is active on a different AttributeName: current "
          "AttributeName is " +
          ttl.attribute);
    }
  }
  const TimePoint now = impl.Now();
  const Duration cooldown = impl.options().ttl_update_cooldown;
  if (cooldown > Duration::zero() && ttl.last_change &&
      now < *ttl.last_change + cooldown) {
    return Error::Validation(
        "Time to live has been modified multiple times within a fixed "
        "interval");
  }
  Table next = *current;
  next.ttl.enabled = *enabled;
  next.ttl.attribute = *enabled ? *attribute : std::string();
  next.ttl.last_change = now;
  DDBLAB_RETURN_IF_ERROR(CommitTableChange(impl, entry, std::move(next)));
  return Json{{"TimeToLiveSpecification",
               Json{{"Enabled", *enabled}, {"AttributeName", *attribute}}}};
}

Result<Json> DescribeTimeToLive(EmulatorImpl& impl, const Json& request) {
  RequestParser p(request);
  std::optional<std::string> name = ReadTableName(p, request);
  DDBLAB_RETURN_IF_ERROR(p.Finish());
  auto lock = impl.Lock();
  DDBLAB_ASSIGN_OR_RETURN(Catalog::Entry * entry,
                          impl.FindTable(*name, TableLookup::kControl));
  const Table& table = *entry->table;
  if (table.status == TableStatus::kCreating ||
      table.status == TableStatus::kDeleting) {
    std::string state(TableStatusName(table.status));
    return Error::Validation("Cannot describe time to live while table is in " +
                             state + " state: Current table state is " + state);
  }
  Json description{
      {"TimeToLiveStatus", table.ttl.enabled ? "ENABLED" : "DISABLED"}};
  if (table.ttl.enabled) description["AttributeName"] = table.ttl.attribute;
  return Json{{"TimeToLiveDescription", std::move(description)}};
}

}  // namespace

Result<Json> HandleUpdateTimeToLive(EmulatorImpl& impl, CallContext& /*call*/,
                                    const Json& request) {
  return UpdateTimeToLive(impl, request);
}

Result<Json> HandleDescribeTimeToLive(EmulatorImpl& impl, CallContext& /*call*/,
                                      const Json& request) {
  return DescribeTimeToLive(impl, request);
}

}  // namespace ddblab::engine
