#include "emulator/engine/fault_seam.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "emulator/engine/emulator_impl.h"
#include "emulator/fault/injector.h"

namespace ddblab::engine {
namespace {

using Json = nlohmann::json;

struct CallContext {
  // Per table as the request gave it: positions to leave unprocessed.
  std::map<std::string, std::set<size_t>, std::less<>> unprocessed;
  std::map<std::string, size_t, std::less<>> seen;  // hook calls per table
  Duration visibility_delay{};
};

thread_local CallContext* t_context = nullptr;

class ContextScope {
 public:
  explicit ContextScope(CallContext& c) : previous_(t_context) {
    t_context = &c;
  }
  ~ContextScope() { t_context = previous_; }
  ContextScope(const ContextScope&) = delete;
  ContextScope& operator=(const ContextScope&) = delete;

 private:
  CallContext* previous_;
};

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

DeferredAnswer CallWithFaults(EmulatorImpl& impl, fault::Api api,
                              std::string_view operation, const Json& request,
                              const std::function<Result<Json>()>& run) {
  const fault::CallView call = fault::DescribeCall(api, operation, request);
  const fault::TableResolver resolve = Resolver(impl);
  const TimePoint now = impl.Now();
  std::optional<fault::Decision> decision =
      impl.faults().Decide(call, now, resolve);
  if (!decision) return {run(), std::nullopt};
  if (std::optional<Error> error =
          fault::ImmediateError(call, *decision, resolve)) {
    return Answer(impl, decision->latency, now, std::move(*error));
  }
  CallContext context;
  context.visibility_delay = decision->visibility_delay;
  if (decision->effect == fault::Effect::kUnprocessed) {
    for (size_t i : decision->items) {
      const fault::CallItem& item = call.items[i];
      context.unprocessed[item.given_table].insert(item.position);
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
  Result<Json> answer = [&] {
    ContextScope scope(context);
    return run();
  }();
  if (decision->effect == fault::Effect::kLostResponse) {
    answer = fault::OutcomeUnknown(decision->rule_id);
  }
  return Answer(impl, decision->latency, now, std::move(answer));
}

void InstallFaultHooks(EmulatorImpl& impl) {
  impl.SetBatchUnprocessedHook(
      [](std::string_view, std::string_view table, const Json&) {
        CallContext* c = t_context;
        if (c == nullptr || c->unprocessed.empty()) return false;
        auto seen = c->seen.find(table);
        if (seen == c->seen.end()) {
          seen = c->seen.emplace(std::string(table), 0).first;
        }
        const size_t position = seen->second++;
        auto it = c->unprocessed.find(table);
        return it != c->unprocessed.end() && it->second.count(position) > 0;
      });
}

Duration CurrentVisibilityDelay() {
  return t_context == nullptr ? Duration::zero() : t_context->visibility_delay;
}

}  // namespace ddblab::engine
