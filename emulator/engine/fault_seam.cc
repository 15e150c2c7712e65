// emulator/engine/fault_seam.cc: the fault plan at the call (fault_seam.h).
#include "emulator/engine/fault_seam.h"

#include <optional>
#include <string>
#include <utility>

#include "emulator/engine/emulator_impl.h"
#include "emulator/fault/injector.h"

namespace ddblab::engine {
namespace {

using Json = nlohmann::json;

fault::TableResolver Resolver(EmulatorImpl& impl) {
  return [&impl](std::string_view name) {
    fault::TableFacts facts;
    auto lock = impl.Lock();
    Catalog::Entry* entry = lock.catalog().Find(name);
    if (entry == nullptr) return facts;
    const Table& table = *entry->table;
    facts.found = true;
    facts.on_demand = table.billing == BillingMode::kPayPerRequest;
    facts.arn = table.arn;
    facts.key_attributes.push_back(table.key.hash.name);
    if (table.key.range) facts.key_attributes.push_back(table.key.range->name);
    return facts;
  };
}

// The answer, due `latency` after `start` (at once without latency).
DeferredAnswer Answer(EmulatorImpl& impl, Duration latency, TimePoint start,
                      Result<Json> answer) {
  DeferredAnswer out{std::move(answer), std::nullopt};
  if (latency > Duration::zero()) {
    out.due = DueTime{start + latency, impl.shared_clock()};
  }
  return out;
}

}  // namespace

DeferredAnswer CallWithFaults(EmulatorImpl& impl, CallContext& context,
                              const Json& request,
                              const std::function<Result<Json>()>& run) {
  const fault::CallView call = fault::DescribeCall(context.operation, request);
  const fault::TableResolver resolve = Resolver(impl);
  const TimePoint now = context.now;
  std::optional<fault::Decision> decision =
      impl.faults().Decide(call, now, resolve);
  if (!decision) return {run(), std::nullopt};
  if (std::optional<Error> error =
          fault::ImmediateError(call, *decision, resolve)) {
    return Answer(impl, decision->latency, now, std::move(*error));
  }
  context.faults.visibility_delay = decision->visibility_delay;
  context.faults.stale_read = decision->stale_read;
  for (const fault::IndexLag& lag : decision->index_lags) {
    context.faults.index_lags.push_back({lag.table, lag.index, lag.duration});
  }
  if (decision->effect == fault::Effect::kUnprocessed) {
    for (size_t i : decision->items) {
      const fault::CallItem& item = call.items[i];
      context.faults.LeaveUnprocessed(item.given_table, item.position);
    }
  }
  if (decision->effect == fault::Effect::kEmpty) {
    auto it = request.find("ShardIterator");
    if (it != request.end() && it->is_string()) {
      return Answer(
          impl, decision->latency, now,
          Json{{"Records", Json::array()}, {"NextShardIterator", *it}});
    }
  }
  Result<Json> answer = run();
  if (decision->effect == fault::Effect::kLostResponse) {
    answer = fault::OutcomeUnknown(decision->rule_id);
  }
  return Answer(impl, decision->latency, now, std::move(answer));
}

}  // namespace ddblab::engine
