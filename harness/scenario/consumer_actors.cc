// harness/scenario/consumer_actors.cc: the rollup_aggregator and
// ttl_expiry_listener actors (writers and event source mappings), their
// params and ops, and their pattern invariants.
#include "harness/scenario/consumer_actors.h"

#include <chrono>
#include <set>
#include <utility>

#include "harness/consumer/config.h"
#include "harness/consumer/esm.h"
#include "harness/patterns/common.h"
#include "harness/patterns/rollup_aggregator.h"
#include "harness/scenario/consumer_faults.h"
#include "harness/scenario/fields.h"

namespace ddblab::harness::scenario {
namespace {

using patterns::ListenerConfig;
using patterns::RollupConfig;

// ---- params --------------------------------------------------------------

struct RollupParams {
  RollupConfig config;
  json mapping = json::object();
};

struct ListenerParams {
  ListenerConfig config;
  json mapping = json::object();
};

Result<json> MappingOf(Fields& f) {
  const json& mapping = f.Raw("mapping");
  if (mapping.is_null()) return json::object();
  if (!mapping.is_object()) {
    return At(f.PathOf("mapping"),
              "expected an object of CreateEventSourceMapping fields, got " +
                  Shown(mapping));
  }
  for (const char* own : {"TableName", "EventSourceArn"}) {
    if (mapping.contains(own)) {
      return At(Member(f.PathOf("mapping"), own),
                "set by the actor (the pattern's table)");
    }
  }
  return mapping;
}

Result<RollupParams> RollupParamsOf(const ActorSpec& spec) {
  RollupParams out;
  RollupConfig& c = out.config;
  DDBLAB_ASSIGN_OR_RETURN(Fields f,
                          Fields::Of(spec.params, Member(spec.path, "params")));
  auto variant = patterns::ParseRollupVariant(spec.variant);
  if (!variant.ok()) {
    return At(Member(spec.path, "variant"), variant.error().message);
  }
  c.variant = *variant;
  DDBLAB_ASSIGN_OR_RETURN(c.source_table,
                          f.StringOr("source_table", c.source_table));
  DDBLAB_ASSIGN_OR_RETURN(c.rollup_table,
                          f.StringOr("rollup_table", c.rollup_table));
  DDBLAB_ASSIGN_OR_RETURN(c.dedupe_table,
                          f.StringOr("dedupe_table", c.dedupe_table));
  DDBLAB_ASSIGN_OR_RETURN(int64_t attempts, f.IntOr("max_attempts", 3, 1, 10));
  c.max_attempts = static_cast<int>(attempts);
  DDBLAB_ASSIGN_OR_RETURN(c.backoff, f.DurationOr("backoff", c.backoff));
  DDBLAB_ASSIGN_OR_RETURN(c.dedupe_retention,
                          f.DurationOr("dedupe_retention", c.dedupe_retention));
  DDBLAB_ASSIGN_OR_RETURN(out.mapping, MappingOf(f));
  DDBLAB_RETURN_IF_ERROR(f.NoOthers());
  return out;
}

Result<ListenerParams> ListenerParamsOf(const ActorSpec& spec) {
  ListenerParams out;
  ListenerConfig& c = out.config;
  DDBLAB_ASSIGN_OR_RETURN(Fields f,
                          Fields::Of(spec.params, Member(spec.path, "params")));
  auto variant = patterns::ParseListenerVariant(spec.variant);
  if (!variant.ok()) {
    return At(Member(spec.path, "variant"), variant.error().message);
  }
  c.variant = *variant;
  DDBLAB_ASSIGN_OR_RETURN(c.table, f.StringOr("table", c.table));
  DDBLAB_ASSIGN_OR_RETURN(
      c.required_attribute,
      f.StringOr("required_attribute", c.required_attribute));
  DDBLAB_ASSIGN_OR_RETURN(out.mapping, MappingOf(f));
  DDBLAB_RETURN_IF_ERROR(f.NoOthers());
  return out;
}

// The actor's mapping: params.mapping over the pattern's defaults.
Result<consumer::EsmConfig> EsmConfigOf(const ActorSpec& spec, json request,
                                        const std::string& table,
                                        const std::string& function_name,
                                        bool reports_items,
                                        std::vector<std::string> filters) {
  request["TableName"] = table;
  if (!request.contains("FunctionName"))
    request["FunctionName"] = function_name;
  if (!request.contains("StartingPosition")) {
    request["StartingPosition"] = "TRIM_HORIZON";
  }
  if (!request.contains("FunctionResponseTypes") && reports_items) {
    request["FunctionResponseTypes"] = {"ReportBatchItemFailures"};
  }
  if (!request.contains("FilterCriteria") && !filters.empty()) {
    json list = json::array();
    for (const std::string& p : filters) list.push_back({{"Pattern", p}});
    request["FilterCriteria"] = {{"Filters", list}};
  }
  auto config = consumer::ParseEsmConfig(request);
  if (!config.ok()) {
    return At(Member(Member(spec.path, "params"), "mapping"),
              consumer::LambdaErrorName(config.error()) + ": " +
                  config.error().message);
  }
  return config;
}

// ---- ops -----------------------------------------------------------------

struct ConsumerOp {
  std::string kind;  // transfer, cart, order, poll
  std::string id;
  std::string customer;
  int64_t bytes = 0;
  std::vector<std::string> products;
  Duration expires_in{};
};

Result<ConsumerOp> ConsumerOpOf(const ActorSpec& spec, const json& op,
                                const std::string& path) {
  const bool rollup = spec.pattern == kRollupAggregator;
  const char* names = rollup ? "transfer, poll" : "cart, order, poll";
  if (!op.is_object() || op.size() != 1) {
    return At(path, std::string("expected an object with one of ") + names +
                        ", got " + Shown(op));
  }
  ConsumerOp out;
  out.kind = op.begin().key();
  const std::set<std::string> kinds =
      rollup ? std::set<std::string>{"transfer", "poll"}
             : std::set<std::string>{"cart", "order", "poll"};
  if (kinds.count(out.kind) == 0) {
    return At(Member(path, out.kind),
              std::string("unknown operation (expected ") + names + ")");
  }
  DDBLAB_ASSIGN_OR_RETURN(
      Fields f, Fields::Of(op.begin().value(), Member(path, out.kind)));
  if (out.kind == "transfer") {
    DDBLAB_ASSIGN_OR_RETURN(out.id, f.String("id"));
    DDBLAB_ASSIGN_OR_RETURN(out.customer, f.String("customer"));
    DDBLAB_ASSIGN_OR_RETURN(out.bytes, f.Int("bytes", 0, int64_t{1} << 40));
  } else if (out.kind == "cart" || out.kind == "order") {
    DDBLAB_ASSIGN_OR_RETURN(out.id, f.String("id"));
  }
  if (out.kind == "cart") {
    DDBLAB_ASSIGN_OR_RETURN(out.expires_in, f.DurationOf("expires_in"));
    const json& products = f.Raw("products");
    if (!products.is_array()) {
      return At(f.PathOf("products"),
                "expected a list of product ids (empty: none), got " +
                    Shown(products));
    }
    for (size_t k = 0; k < products.size(); ++k) {
      DDBLAB_ASSIGN_OR_RETURN(
          std::string p,
          StringValue(products[k], Index(f.PathOf("products"), k)));
      out.products.push_back(std::move(p));
    }
  }
  DDBLAB_RETURN_IF_ERROR(f.NoOthers());
  return out;
}

bool Polls(const ActorSpec& spec) {
  for (const json& op : spec.ops) {
    if (op.is_object() && op.contains("poll")) return true;
  }
  return false;
}

// ---- actors --------------------------------------------------------------

class ConsumerActor final : public Actor {
 public:
  ConsumerActor(const ActorSpec& spec, Backend& backend, World& world)
      : Actor(spec), backend_(&backend), world_(&world) {}

  // Exactly one of the two is set.
  std::unique_ptr<patterns::RollupAggregator> aggregator;
  std::shared_ptr<patterns::TtlExpiryListener> listener;
  std::string table;  // the source table or the carts table
  std::unique_ptr<consumer::EventSourceMapping> esm;
  std::vector<nlohmann::ordered_json> events;

  Status Setup() override {
    return aggregator ? aggregator->Setup() : listener->Setup();
  }

  bool Polls() const override { return esm != nullptr; }
  bool LastRoundIdle() const override { return last_round_idle_; }

  StepOutcome Step() override {
    ConsumerOp op = *ConsumerOpOf(spec_, spec_.ops[next_op_], "");
    StepOutcome outcome;
    if (op.kind == "poll") {
      // One Streams call or one invocation of the round per step; the op
      // ends with the round.
      outcome.op = "poll";
      auto out = esm->StepRound();
      if (!out.ok()) {
        outcome.result = ErrorText(out.error());
        round_invocations_ = 0;
        last_round_idle_ = false;
        Advance();
      } else {
        outcome.result = out->what;
        round_invocations_ += out->invocations;
        if (out->round_over) {
          outcome.result +=
              "; round over: invocations " + std::to_string(round_invocations_);
          last_round_idle_ = round_invocations_ == 0;
          round_invocations_ = 0;
          Advance();
        }
      }
      outcome.events = std::move(events);
      events.clear();
      return outcome;
    }
    Advance();
    const TimePoint now = backend_->clock().Now();
    auto& written = world_->writes[table];
    auto& unsure = world_->unsure_writes[table];
    if (op.kind == "transfer") {
      outcome.op = "transfer " + op.id + " " + op.customer + " " +
                   std::to_string(op.bytes) + " bytes";
      patterns::Transfer t{op.id, op.customer, op.bytes, now};
      auto out = aggregator->RecordTransfer(t);
      const json item = {
          {"TransferId", patterns::S(op.id)},
          {"CustomerId", patterns::S(op.customer)},
          {"TransferTime",
           patterns::N(std::chrono::duration_cast<std::chrono::milliseconds>(
                           now.time_since_epoch())
                           .count())},
          {"Bytes", patterns::N(op.bytes)}};
      if (!out.ok()) {
        outcome.result = ErrorText(out.error());
        if (out.error().type == ErrorType::kOutcomeUnknown)
          unsure[op.id] = item;
      } else if (!*out) {
        outcome.result = "exists";
      } else {
        outcome.result = "applied";
        written[op.id] = item;
        unsure.erase(op.id);
      }
      return outcome;
    }
    if (op.kind == "cart") {
      const int64_t ttl = ToEpochSeconds(now + op.expires_in);
      outcome.op = "cart " + op.id + " ttl=" + std::to_string(ttl) + " " +
                   std::to_string(op.products.size()) + " products";
      Status put = listener->PutCart(op.id, op.products, ttl);
      outcome.result = put.ok() ? "applied" : ErrorText(put.error());
      json item = {{"pk", patterns::S(op.id)}, {"ttl", patterns::N(ttl)}};
      if (!op.products.empty()) {
        item[listener->config().required_attribute] = {{"SS", op.products}};
      }
      if (put.ok()) {
        written[op.id] = std::move(item);
        unsure.erase(op.id);
      } else if (put.error().type == ErrorType::kOutcomeUnknown) {
        unsure[op.id] = std::move(item);
      }
      return outcome;
    }
    outcome.op = "order " + op.id;
    Status placed = listener->PlaceOrder(op.id);
    outcome.result = placed.ok() ? "placed" : ErrorText(placed.error());
    if (placed.ok()) {
      written.erase(op.id);
      unsure.erase(op.id);
    } else if (placed.error().type == ErrorType::kOutcomeUnknown &&
               written.contains(op.id)) {
      unsure[op.id] = written[op.id];  // removed or not
      written.erase(op.id);
    }
    return outcome;
  }

 private:
  Backend* backend_;
  World* world_;
  int64_t round_invocations_ = 0;  // of the polling round in progress
  // The last polling round ended and invoked nothing (none yet: false).
  bool last_round_idle_ = false;
};

std::unique_ptr<consumer::Function> FunctionFor(
    const ActorSpec& spec, FaultyFunction::Handler handler, World& world,
    std::vector<nlohmann::ordered_json>* events) {
  std::vector<ConsumerFault> faults;
  for (const ConsumerFault& f : world.consumer_faults) {
    if (AppliesTo(f, spec.name)) faults.push_back(f);
  }
  return std::make_unique<FaultyFunction>(
      std::move(handler), std::move(faults),
      Rng(world.seed).Fork("consumer/" + spec.name), events, spec.name,
      &world.consumer_firings);
}

}  // namespace

Status CheckConsumerActorSpec(const ActorSpec& spec) {
  for (size_t k = 0; k < spec.ops.size(); ++k) {
    DDBLAB_RETURN_IF_ERROR(
        ConsumerOpOf(spec, spec.ops[k], Index(Member(spec.path, "ops"), k)));
  }
  if (spec.pattern == kRollupAggregator) {
    DDBLAB_ASSIGN_OR_RETURN(RollupParams p, RollupParamsOf(spec));
    if (Polls(spec)) {
      DDBLAB_RETURN_IF_ERROR(EsmConfigOf(
          spec, p.mapping, p.config.source_table, p.config.function_name,
          p.config.variant == patterns::RollupVariant::kCorrect, {}));
    }
    return OkStatus();
  }
  DDBLAB_ASSIGN_OR_RETURN(ListenerParams p, ListenerParamsOf(spec));
  if (Polls(spec)) {
    DDBLAB_RETURN_IF_ERROR(EsmConfigOf(
        spec, p.mapping, p.config.table, p.config.function_name, true,
        patterns::TtlExpiryListener::FilterPatterns(
            p.config.variant, p.config.required_attribute)));
  }
  return OkStatus();
}

Result<std::unique_ptr<Actor>> MakeConsumerActor(const ActorSpec& spec,
                                                 Backend& backend,
                                                 World& world) {
  const auto params_error = [&](const Error& e) {
    return At(Member(spec.path, "params"), e.message);
  };
  auto actor = std::make_unique<ConsumerActor>(spec, backend, world);
  ConsumerActor* raw = actor.get();
  if (spec.pattern == kRollupAggregator) {
    DDBLAB_ASSIGN_OR_RETURN(RollupParams p, RollupParamsOf(spec));
    p.config.seed = world.seed;
    auto opened = patterns::RollupAggregator::Open(backend, p.config);
    if (!opened.ok()) return params_error(opened.error());
    actor->aggregator =
        std::make_unique<patterns::RollupAggregator>(std::move(*opened));
    actor->table = p.config.source_table;
    if (Polls(spec)) {
      DDBLAB_ASSIGN_OR_RETURN(
          consumer::EsmConfig config,
          EsmConfigOf(
              spec, p.mapping, p.config.source_table, p.config.function_name,
              p.config.variant == patterns::RollupVariant::kCorrect, {}));
      patterns::RollupAggregator* aggregator = actor->aggregator.get();
      actor->esm = std::make_unique<consumer::EventSourceMapping>(
          backend, config,
          FunctionFor(
              spec,
              [aggregator](const json& e) { return aggregator->Handle(e); },
              world, &raw->events),
          world.seed);
    }
    return std::unique_ptr<Actor>(std::move(actor));
  }
  DDBLAB_ASSIGN_OR_RETURN(ListenerParams p, ListenerParamsOf(spec));
  auto& shared = world.listeners[p.config.table];
  if (!shared) {
    p.config.seed = world.seed;
    auto opened = patterns::TtlExpiryListener::Open(backend, p.config);
    if (!opened.ok()) return params_error(opened.error());
    shared = std::make_shared<patterns::TtlExpiryListener>(std::move(*opened));
  } else if (shared->config().required_attribute !=
             p.config.required_attribute) {
    return At(Member(Member(spec.path, "params"), "required_attribute"),
              "another actor of table " + p.config.table + " requires " +
                  shared->config().required_attribute);
  }
  actor->listener = shared;
  actor->table = p.config.table;
  if (Polls(spec)) {
    DDBLAB_ASSIGN_OR_RETURN(
        consumer::EsmConfig config,
        EsmConfigOf(spec, p.mapping, p.config.table, p.config.function_name,
                    true,
                    patterns::TtlExpiryListener::FilterPatterns(
                        p.config.variant, p.config.required_attribute)));
    std::shared_ptr<patterns::TtlExpiryListener> listener = shared;
    actor->esm = std::make_unique<consumer::EventSourceMapping>(
        backend, config,
        FunctionFor(
            spec, [listener](const json& e) { return listener->Handle(e); },
            world, &raw->events),
        world.seed);
  }
  return std::unique_ptr<Actor>(std::move(actor));
}

std::vector<std::string> ConsumerActorTables(const ActorSpec& spec) {
  if (spec.pattern == kRollupAggregator) {
    auto p = RollupParamsOf(spec);
    if (!p.ok()) return {};
    return {p->config.source_table, p->config.rollup_table,
            p->config.dedupe_table};
  }
  auto p = ListenerParamsOf(spec);
  if (!p.ok()) return {};
  return {p->config.table};
}

Result<std::vector<std::string>> CheckRollups(const Scenario& scenario,
                                              const std::string& table,
                                              Backend& backend) {
  std::vector<std::string> problems;
  std::set<std::string> done;
  for (const ActorSpec& spec : scenario.actors) {
    if (spec.pattern != kRollupAggregator) continue;
    DDBLAB_ASSIGN_OR_RETURN(RollupParams p, RollupParamsOf(spec));
    const std::string& source = p.config.source_table;
    if ((!table.empty() && source != table) || !done.insert(source).second) {
      continue;
    }
    auto checker = patterns::RollupAggregator::Open(backend, p.config);
    if (!checker.ok()) return checker.error();
    DDBLAB_ASSIGN_OR_RETURN(std::vector<std::string> found, checker->Check());
    problems.insert(problems.end(), found.begin(), found.end());
  }
  return problems;
}

Result<std::vector<std::string>> CheckListeners(const std::string& table,
                                                const World& world) {
  std::vector<std::string> problems;
  for (const auto& [name, listener] : world.listeners) {
    if (!table.empty() && name != table) continue;
    DDBLAB_ASSIGN_OR_RETURN(std::vector<std::string> found, listener->Check());
    problems.insert(problems.end(), found.begin(), found.end());
  }
  return problems;
}

}  // namespace ddblab::harness::scenario
