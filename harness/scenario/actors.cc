// harness/scenario/actors.cc: the pattern and script actors, and the checks
// of their params and ops (the stream consumers' are in consumer_actors.cc).
#include "harness/scenario/actors.h"

#include <algorithm>
#include <chrono>
#include <iterator>
#include <optional>
#include <set>
#include <utility>

#include "harness/patterns/idempotent_counter.h"
#include "harness/patterns/ttl_window_sweeper.h"
#include "harness/patterns/unique_claims.h"
#include "harness/scenario/consumer_actors.h"
#include "harness/scenario/fields.h"

namespace ddblab::harness::scenario {
namespace {

using patterns::CounterConfig;
using patterns::OrderedConfig;
using patterns::SweeperConfig;
using patterns::UniqueClaimsConfig;

int64_t EpochMillis(TimePoint t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             t.time_since_epoch())
      .count();
}

std::string OpPath(const ActorSpec& spec, size_t k) {
  return Index(Member(spec.path, "ops"), k);
}

// The one key of an op object ({"put": {...}}) and its Fields.
Result<std::pair<std::string, Fields>> OpOf(
    const json& op, const std::string& path,
    std::initializer_list<const char*> kinds) {
  std::string names;
  for (const char* k : kinds)
    names += (names.empty() ? "" : ", ") + std::string(k);
  if (!op.is_object() || op.size() != 1) {
    return At(path,
              "expected an object with one of " + names + ", got " + Shown(op));
  }
  const std::string kind = op.begin().key();
  bool known = false;
  for (const char* k : kinds) known = known || kind == k;
  if (!known) {
    return At(Member(path, kind), "unknown operation (expected " + names + ")");
  }
  DDBLAB_ASSIGN_OR_RETURN(Fields f,
                          Fields::Of(op.begin().value(), Member(path, kind)));
  return std::make_pair(kind, std::move(f));
}

// The attempts of a sweeper's put: an SDK's standard retry mode makes 3.
constexpr int kSdkAttempts = 3;

// Whether a failed attempt is tried again as the actor's next step: what
// an SDK retries (patterns::SdkRetries) when `sdk_retries` (params
// sdk_retries, the default), else only a lost answer.
bool RetriedLater(const Error& error, bool sdk_retries) {
  return sdk_retries ? patterns::SdkRetries(error)
                     : error.type == ErrorType::kOutcomeUnknown;
}

Result<json> AttributesOr(Fields& f) {
  const json& attributes = f.Raw("attributes");
  if (attributes.is_null()) return json::object();
  if (!attributes.is_object()) {
    return At(
        f.PathOf("attributes"),
        "expected an object of AttributeValues, got " + Shown(attributes));
  }
  return attributes;
}

// ---- ordered_writes ------------------------------------------------------

struct OrderedParams {
  OrderedConfig config;
  int max_attempts = 3;
  bool sdk_retries = true;
};

Result<OrderedParams> OrderedParamsOf(const ActorSpec& spec) {
  OrderedParams out;
  DDBLAB_ASSIGN_OR_RETURN(Fields f,
                          Fields::Of(spec.params, Member(spec.path, "params")));
  auto variant = patterns::ParseOrderedVariant(spec.variant);
  if (!variant.ok()) {
    return At(Member(spec.path, "variant"), variant.error().message);
  }
  out.config.variant = *variant;
  DDBLAB_ASSIGN_OR_RETURN(out.config.table,
                          f.StringOr("table", out.config.table));
  DDBLAB_ASSIGN_OR_RETURN(
      out.config.tombstone_ttl,
      f.DurationOr("tombstone_ttl", out.config.tombstone_ttl));
  DDBLAB_ASSIGN_OR_RETURN(int64_t attempts, f.IntOr("max_attempts", 3, 1, 10));
  out.max_attempts = static_cast<int>(attempts);
  DDBLAB_ASSIGN_OR_RETURN(out.sdk_retries, f.BoolOr("sdk_retries", true));
  DDBLAB_RETURN_IF_ERROR(f.NoOthers());
  return out;
}

struct OrderedOp {
  bool is_delete = false;
  std::string pk, sk;
  std::optional<int64_t> ts;
  json attributes = json::object();
};

Result<OrderedOp> OrderedOpOf(const json& op, const std::string& path) {
  DDBLAB_ASSIGN_OR_RETURN(auto kind_fields, OpOf(op, path, {"put", "delete"}));
  auto& [kind, f] = kind_fields;
  OrderedOp out;
  out.is_delete = kind == "delete";
  DDBLAB_ASSIGN_OR_RETURN(out.pk, f.String("pk"));
  DDBLAB_ASSIGN_OR_RETURN(out.sk, f.String("sk"));
  if (f.Has("ts")) {
    DDBLAB_ASSIGN_OR_RETURN(out.ts, f.Int("ts", 0, int64_t{1} << 53));
  } else {
    (void)f.Raw("ts");
  }
  if (!out.is_delete) {
    DDBLAB_ASSIGN_OR_RETURN(out.attributes, AttributesOr(f));
  }
  DDBLAB_RETURN_IF_ERROR(f.NoOthers());
  return out;
}

class OrderedActor final : public Actor {
 public:
  OrderedActor(const ActorSpec& spec, OrderedParams params,
               patterns::OrderedWrites writes, World& world)
      : Actor(spec),
        params_(std::move(params)),
        writes_(std::move(writes)),
        world_(&world) {}

  Status Setup() override { return writes_.Setup(); }

  StepOutcome Step() override {
    OrderedOp op = *OrderedOpOf(spec_.ops[next_op_], "");
    auto& ledger = world_->ledgers[params_.config.table];
    if (attempt_ == 1) {
      ts_ = op.ts ? *op.ts : EpochMillis(backend_clock_->Now());
      lost_ = false;
      write_ = op.is_delete ? ledger.Delete(op.pk, op.sk, ts_)
                            : ledger.Put(op.pk, op.sk, ts_, op.attributes);
    }
    StepOutcome outcome;
    outcome.op =
        std::string(op.is_delete ? "delete " : "put ") + op.pk + "/" + op.sk +
        " ts=" + std::to_string(ts_) +
        (attempt_ > 1 ? " (attempt " + std::to_string(attempt_) + ")" : "");
    auto out = op.is_delete ? writes_.Delete(op.pk, op.sk, ts_)
                            : writes_.Put(op.pk, op.sk, ts_, op.attributes);
    if (out.ok()) {
      outcome.result =
          *out == patterns::WriteOutcome::kApplied ? "applied" : "stale";
      Advance();
      return outcome;
    }
    lost_ = lost_ || out.error().type == ErrorType::kOutcomeUnknown;
    outcome.result = ErrorText(out.error());
    if (RetriedLater(out.error(), params_.sdk_retries) &&
        attempt_ < params_.max_attempts) {
      outcome.result += "; retried later";
      Retry();
      return outcome;
    }
    // No answer came: an earlier attempt whose answer was lost may have
    // applied; else the write was refused.
    ledger.Settle(write_, lost_ ? patterns::WriteFate::kUnknown
                                : patterns::WriteFate::kRefused);
    Advance();
    return outcome;
  }

  Clock* backend_clock_ = nullptr;

 private:
  OrderedParams params_;
  patterns::OrderedWrites writes_;
  World* world_;
  int64_t ts_ = 0;
  size_t write_ = 0;   // the op's write in the ledger
  bool lost_ = false;  // an attempt of the op lost its answer
};

// ---- idempotent_counter --------------------------------------------------

struct CounterParams {
  CounterConfig config;
  bool sdk_retries = true;
};

Result<CounterParams> CounterParamsOf(const ActorSpec& spec) {
  CounterParams params;
  CounterConfig& config = params.config;
  DDBLAB_ASSIGN_OR_RETURN(Fields f,
                          Fields::Of(spec.params, Member(spec.path, "params")));
  auto variant = patterns::ParseCounterVariant(spec.variant);
  if (!variant.ok()) {
    return At(Member(spec.path, "variant"), variant.error().message);
  }
  config.variant = *variant;
  DDBLAB_ASSIGN_OR_RETURN(config.table, f.StringOr("table", config.table));
  DDBLAB_ASSIGN_OR_RETURN(config.window, f.DurationOr("window", config.window));
  DDBLAB_ASSIGN_OR_RETURN(int64_t attempts, f.IntOr("max_attempts", 3, 1, 10));
  config.max_attempts = static_cast<int>(attempts);
  DDBLAB_ASSIGN_OR_RETURN(int64_t trim, f.IntOr("max_trim", 100, 1, 300));
  config.max_trim = static_cast<int>(trim);
  DDBLAB_ASSIGN_OR_RETURN(params.sdk_retries, f.BoolOr("sdk_retries", true));
  DDBLAB_RETURN_IF_ERROR(f.NoOthers());
  return params;
}

struct CounterOp {
  std::string counter, key;
  int64_t amount = 1;
  // When the increment was first issued, from the run's start (a retry of
  // an earlier add); absent: now.
  std::optional<Duration> issued_at;
};

Result<CounterOp> CounterOpOf(const json& op, const std::string& path) {
  DDBLAB_ASSIGN_OR_RETURN(auto kind_fields, OpOf(op, path, {"add"}));
  auto& f = kind_fields.second;
  CounterOp out;
  DDBLAB_ASSIGN_OR_RETURN(out.counter, f.String("counter"));
  DDBLAB_ASSIGN_OR_RETURN(out.key, f.String("key"));
  DDBLAB_ASSIGN_OR_RETURN(
      out.amount, f.IntOr("amount", 1, -(int64_t{1} << 40), int64_t{1} << 40));
  // key_size pads the key on the left with '.' to that many bytes: large
  // keys make the history grow quickly.
  DDBLAB_ASSIGN_OR_RETURN(int64_t size, f.IntOr("key_size", 0, 0, 200000));
  if (static_cast<size_t>(size) > out.key.size()) {
    out.key =
        std::string(static_cast<size_t>(size) - out.key.size(), '.') + out.key;
  }
  if (f.Has("issued_at")) {
    DDBLAB_ASSIGN_OR_RETURN(out.issued_at, f.DurationOf("issued_at"));
  }
  DDBLAB_RETURN_IF_ERROR(f.NoOthers());
  return out;
}

// One attempt of the op's increment a step; a failed attempt an SDK retries
// is attempted again as the actor's next step (the same Increment: its
// idempotency key and issued_at), up to params.max_attempts.
class CounterActor final : public Actor {
 public:
  CounterActor(const ActorSpec& spec, patterns::IdempotentCounter counter,
               bool sdk_retries, Backend& backend, World& world)
      : Actor(spec),
        counter_(std::move(counter)),
        sdk_retries_(sdk_retries),
        backend_(&backend),
        world_(&world) {}

  Status Setup() override { return counter_.Setup(); }

  StepOutcome Step() override {
    CounterOp op = *CounterOpOf(spec_.ops[next_op_], "");
    IncrementBook& book =
        world_->counters[counter_.config().table][op.counter][op.key];
    book.amount = op.amount;
    StepOutcome outcome;
    const std::string shown_key =
        op.key.size() > 40 ? "..." + op.key.substr(op.key.size() - 20) : op.key;
    outcome.op = "add " + op.counter + " " + shown_key + " +" +
                 std::to_string(op.amount);
    const TimePoint now = backend_->clock().Now();
    if (attempt_ == 1) {
      issued_ = op.issued_at ? world_->start + *op.issued_at : now;
      lost_ = false;
    }
    const TimePoint issued = issued_;
    if (op.issued_at) {
      outcome.op +=
          " issued_at=" + patterns::IsoSeconds(ToEpochSeconds(issued));
    }
    if (attempt_ > 1)
      outcome.op += " (attempt " + std::to_string(attempt_) + ")";
    // A retry of a key already counted, issued more than the window ago:
    // its key may have left the history, and then it counts again.
    const bool late_retry =
        book.applied && now - issued > counter_.config().window;
    auto out = counter_.AddAttempt(
        patterns::Increment{op.counter, op.key, op.amount, issued});
    if (out.ok()) {
      if (late_retry && *out == patterns::IncrementOutcome::kApplied) {
        book.late_applied += op.amount;
      }
      book.applied = true;
      outcome.result = *out == patterns::IncrementOutcome::kApplied
                           ? "applied"
                           : "duplicate";
    } else {
      outcome.result = ErrorText(out.error());
      lost_ = lost_ || out.error().type == ErrorType::kOutcomeUnknown;
      if (RetriedLater(out.error(), sdk_retries_) &&
          attempt_ < counter_.config().max_attempts) {
        outcome.result += "; retried later";
        Retry();
        return outcome;
      }
      // An attempt whose answer was lost may have counted it.
      if (lost_) {
        book.unknown = true;
      } else if (book.failure.empty()) {
        book.failure = outcome.result;
      }
    }
    Advance();
    return outcome;
  }

 private:
  patterns::IdempotentCounter counter_;
  const bool sdk_retries_;
  Backend* backend_;
  World* world_;
  TimePoint issued_{};  // the op's first attempt's issued_at
  bool lost_ = false;   // an attempt of the op lost its answer
};

// ---- ttl_window_sweeper --------------------------------------------------

struct SweeperParams {
  SweeperConfig config;
  bool sdk_retries = true;  // of a put (a sweep retries by its own rules)
};

Result<SweeperParams> SweeperParamsOf(const ActorSpec& spec) {
  SweeperParams params;
  SweeperConfig& config = params.config;
  DDBLAB_ASSIGN_OR_RETURN(Fields f,
                          Fields::Of(spec.params, Member(spec.path, "params")));
  auto variant = patterns::ParseSweeperVariant(spec.variant);
  if (!variant.ok()) {
    return At(Member(spec.path, "variant"), variant.error().message);
  }
  config.variant = *variant;
  DDBLAB_ASSIGN_OR_RETURN(config.table, f.StringOr("table", config.table));
  DDBLAB_ASSIGN_OR_RETURN(config.index, f.StringOr("index", config.index));
  DDBLAB_ASSIGN_OR_RETURN(config.window, f.DurationOr("window", config.window));
  DDBLAB_ASSIGN_OR_RETURN(config.frequency,
                          f.DurationOr("frequency", config.frequency));
  DDBLAB_ASSIGN_OR_RETURN(int64_t chunk, f.IntOr("chunk", 25, 1, 25));
  config.chunk = static_cast<int>(chunk);
  DDBLAB_ASSIGN_OR_RETURN(int64_t retries, f.IntOr("max_retries", 3, 0, 10));
  config.max_retries = static_cast<int>(retries);
  DDBLAB_ASSIGN_OR_RETURN(config.backoff,
                          f.DurationOr("backoff", config.backoff));
  DDBLAB_ASSIGN_OR_RETURN(config.projection,
                          f.StringOr("projection", config.projection));
  DDBLAB_ASSIGN_OR_RETURN(config.native_ttl,
                          f.BoolOr("native_ttl", config.native_ttl));
  DDBLAB_ASSIGN_OR_RETURN(params.sdk_retries, f.BoolOr("sdk_retries", true));
  DDBLAB_RETURN_IF_ERROR(f.NoOthers());
  return params;
}

struct SweeperOp {
  bool sweep = false;
  std::string pk;
  Duration expires_in{};
  json attributes = json::object();
};

Result<SweeperOp> SweeperOpOf(const json& op, const std::string& path) {
  DDBLAB_ASSIGN_OR_RETURN(auto kind_fields, OpOf(op, path, {"put", "sweep"}));
  auto& [kind, f] = kind_fields;
  SweeperOp out;
  out.sweep = kind == "sweep";
  if (!out.sweep) {
    DDBLAB_ASSIGN_OR_RETURN(out.pk, f.String("pk"));
    DDBLAB_ASSIGN_OR_RETURN(out.expires_in, f.DurationOf("expires_in"));
    DDBLAB_ASSIGN_OR_RETURN(out.attributes, AttributesOr(f));
    // pad: an attribute "pad" of that many bytes, to fill a window quickly.
    DDBLAB_ASSIGN_OR_RETURN(int64_t pad, f.IntOr("pad", 0, 0, 390000));
    if (pad > 0) {
      out.attributes["pad"] = {
          {"S", std::string(static_cast<size_t>(pad), '.')}};
    }
  }
  DDBLAB_RETURN_IF_ERROR(f.NoOthers());
  return out;
}

class SweeperActor final : public Actor {
 public:
  SweeperActor(const ActorSpec& spec, patterns::TtlWindowSweeper sweeper,
               patterns::TtlWindowSweeper checker, bool sdk_retries,
               Backend& backend, Backend& checker_backend, World& world)
      : Actor(spec),
        sdk_retries_(sdk_retries),
        sweeper_(std::move(sweeper)),
        checker_(std::move(checker)),
        backend_(&backend),
        checker_backend_(&checker_backend),
        world_(&world) {}

  Status Setup() override { return sweeper_.Setup(); }

  // A put is one step per attempt (a failed one an SDK retries is
  // attempted again as the next step, the same ttl, up to 3 attempts); a
  // sweep is one step per DynamoDB call (a Query page, a DeleteItem or a
  // BatchWriteItem attempt), the table checked after the last.
  StepOutcome Step() override {
    SweeperOp op = *SweeperOpOf(spec_.ops[next_op_], "");
    StepOutcome outcome;
    const std::string& table = sweeper_.config().table;
    if (!op.sweep) {
      if (attempt_ == 1) {
        put_ttl_ = ToEpochSeconds(backend_->clock().Now() + op.expires_in);
        put_lost_ = false;
      }
      const int64_t ttl = put_ttl_;
      outcome.op = "put " + op.pk + " ttl=" + std::to_string(ttl);
      if (attempt_ > 1) {
        outcome.op += " (attempt " + std::to_string(attempt_) + ")";
      }
      Status put = sweeper_.PutItem(op.pk, ttl, op.attributes);
      outcome.result = put.ok() ? "applied" : ErrorText(put.error());
      if (put.ok()) {
        world_->sweeper_items[table][op.pk] = ttl;
      } else {
        put_lost_ = put_lost_ || put.error().type == ErrorType::kOutcomeUnknown;
        if (RetriedLater(put.error(), sdk_retries_) &&
            attempt_ < kSdkAttempts) {
          outcome.result += "; retried later";
          Retry();
          return outcome;
        }
        // Its ttl may be either: no deletion of it can be judged early.
        if (put_lost_) world_->sweeper_items[table].erase(op.pk);
      }
      Advance();
      return outcome;
    }
    if (!run_) {
      ++world_->sweeps[table];
      run_ = sweeper_.StartSweep();
    }
    auto call = sweeper_.SweepStep(*run_);
    outcome.op = "sweep";
    if (!call.ok()) {
      outcome.result = ErrorText(call.error());
      world_->sweep_problems[table].push_back("a sweep failed: " +
                                              outcome.result);
      run_.reset();
      Advance();
      return outcome;
    }
    outcome.result = *call;
    if (!run_->done()) return outcome;
    const patterns::SweepReport report = run_->report();
    run_.reset();
    Advance();
    outcome.result += "; sweep done: found " + std::to_string(report.found) +
                      ", deleted " + std::to_string(report.deleted) +
                      ", kept " + std::to_string(report.kept) + ", left " +
                      std::to_string(report.unprocessed_left) + ", retries " +
                      std::to_string(report.retries);
    CheckAfter(report);
    return outcome;
  }

 private:
  // The pattern's invariant after the sweep, and: no item the actors put is
  // gone while its ttl is not yet past (a sweep deleted an item whose ttl
  // was extended after its Query).
  void CheckAfter(const patterns::SweepReport& report) {
    const std::string& table = sweeper_.config().table;
    const std::string at = patterns::IsoSeconds(ToEpochSeconds(report.now));
    auto problems = checker_.Check(report.now);
    if (!problems.ok()) {
      world_->sweep_problems[table].push_back(
          "checking after a sweep failed: " + ErrorText(problems.error()));
      return;
    }
    for (const std::string& p : *problems) {
      world_->sweep_problems[table].push_back("after the sweep at " + at +
                                              ": " + p);
    }
    auto items = patterns::ScanAll(*checker_backend_, table);
    if (!items.ok()) {
      world_->sweep_problems[table].push_back(
          "checking after a sweep failed: " + ErrorText(items.error()));
      return;
    }
    std::set<std::string> present;
    for (const json& item : *items) {
      if (item.contains("pk") && item["pk"].contains("S")) {
        present.insert(item["pk"]["S"].get<std::string>());
      }
    }
    // Not expired by the clock now: neither a sweep nor DynamoDB's TTL
    // (which deletes ttl < now only) may have deleted it.
    const int64_t now = ToEpochSeconds(checker_backend_->clock().Now());
    for (const auto& [pk, ttl] : world_->sweeper_items[table]) {
      if (ttl < now || present.count(pk) != 0) continue;
      const std::string problem = "after the sweep at " + at + ": item " + pk +
                                  " was deleted though its ttl " +
                                  patterns::IsoSeconds(ttl) + " is not past";
      auto& list = world_->sweep_problems[table];
      if (std::find(list.begin(), list.end(), problem) == list.end()) {
        list.push_back(problem);
      }
    }
  }

  const bool sdk_retries_;
  int64_t put_ttl_ = 0;    // the put op's ttl (its retries send it again)
  bool put_lost_ = false;  // an attempt of the put lost its answer
  patterns::TtlWindowSweeper sweeper_;
  patterns::TtlWindowSweeper checker_;  // on the untraced backend
  Backend* backend_;
  Backend* checker_backend_;
  World* world_;
  std::optional<patterns::SweepRun> run_;  // the sweep in progress
};

// ---- unique_claims -------------------------------------------------------

struct ClaimsParams {
  UniqueClaimsConfig config;
  bool sdk_retries = true;
};

Result<ClaimsParams> ClaimsParamsOf(const ActorSpec& spec) {
  ClaimsParams params;
  UniqueClaimsConfig& config = params.config;
  DDBLAB_ASSIGN_OR_RETURN(Fields f,
                          Fields::Of(spec.params, Member(spec.path, "params")));
  auto variant = patterns::ParseClaimVariant(spec.variant);
  if (!variant.ok()) {
    return At(Member(spec.path, "variant"), variant.error().message);
  }
  config.variant = *variant;
  DDBLAB_ASSIGN_OR_RETURN(config.table, f.StringOr("table", config.table));
  DDBLAB_ASSIGN_OR_RETURN(int64_t attempts, f.IntOr("max_attempts", 3, 1, 10));
  config.max_attempts = static_cast<int>(attempts);
  DDBLAB_ASSIGN_OR_RETURN(params.sdk_retries, f.BoolOr("sdk_retries", true));
  DDBLAB_RETURN_IF_ERROR(f.NoOthers());
  return params;
}

struct ClaimOp {
  std::string account, email;
};

Result<ClaimOp> ClaimOpOf(const json& op, const std::string& path) {
  DDBLAB_ASSIGN_OR_RETURN(auto kind_fields, OpOf(op, path, {"claim"}));
  auto& f = kind_fields.second;
  ClaimOp out;
  DDBLAB_ASSIGN_OR_RETURN(out.account, f.String("account"));
  DDBLAB_ASSIGN_OR_RETURN(out.email, f.String("email"));
  DDBLAB_RETURN_IF_ERROR(f.NoOthers());
  return out;
}

// One attempt of the op's claim a step; a failed attempt an SDK retries is
// attempted again as the actor's next step, up to params.max_attempts.
class ClaimsActor final : public Actor {
 public:
  ClaimsActor(const ActorSpec& spec, patterns::UniqueClaims claims,
              bool sdk_retries)
      : Actor(spec), claims_(std::move(claims)), sdk_retries_(sdk_retries) {}

  Status Setup() override { return claims_.Setup(); }

  StepOutcome Step() override {
    ClaimOp op = *ClaimOpOf(spec_.ops[next_op_], "");
    StepOutcome outcome;
    outcome.op = "claim " + op.account + " " + op.email;
    if (attempt_ > 1)
      outcome.op += " (attempt " + std::to_string(attempt_) + ")";
    auto out = claims_.ClaimAttempt(op.account, op.email);
    if (out.ok()) {
      outcome.result =
          *out == patterns::ClaimOutcome::kClaimed ? "claimed" : "taken";
    } else {
      outcome.result = ErrorText(out.error());
      if (RetriedLater(out.error(), sdk_retries_) &&
          attempt_ < claims_.config().max_attempts) {
        outcome.result += "; retried later";
        Retry();
        return outcome;
      }
    }
    Advance();
    return outcome;
  }

 private:
  patterns::UniqueClaims claims_;
  const bool sdk_retries_;
};

// ---- script --------------------------------------------------------------

struct ScriptOp {
  std::string operation;
  json request;
  // The malformed-call error the op expects (its name), or "": any other
  // malformed-call refusal stops the run.
  std::string expect_error;
};

constexpr const char* kMalformedNames[] = {"ValidationException",
                                           "SerializationException",
                                           "UnknownOperationException"};

Result<ScriptOp> ScriptOpOf(const json& op, const std::string& path) {
  DDBLAB_ASSIGN_OR_RETURN(Fields f, Fields::Of(op, path));
  ScriptOp out;
  DDBLAB_ASSIGN_OR_RETURN(out.operation, f.String("call"));
  DDBLAB_RETURN_IF_ERROR(f.Object("request"));
  out.request = f.Raw("request");
  DDBLAB_ASSIGN_OR_RETURN(out.expect_error, f.StringOr("expect_error", ""));
  if (f.Has("expect_error") &&
      std::find(std::begin(kMalformedNames), std::end(kMalformedNames),
                out.expect_error) == std::end(kMalformedNames)) {
    return At(Member(path, "expect_error"),
              "expected ValidationException, SerializationException or "
              "UnknownOperationException (other errors are answers and never "
              "stop the run), got " +
                  Shown(f.Raw("expect_error")));
  }
  DDBLAB_RETURN_IF_ERROR(f.NoOthers());
  return out;
}

class ScriptActor final : public Actor {
 public:
  ScriptActor(const ActorSpec& spec, Backend& backend)
      : Actor(spec), backend_(&backend) {}

  Status Setup() override { return OkStatus(); }

  StepOutcome Step() override {
    const size_t k = next_op_;
    ScriptOp op = *ScriptOpOf(spec_.ops[k], "");
    Advance();
    auto out = backend_->Call(op.operation, op.request);
    if (!out.ok() && MalformedCall(out.error()) &&
        out.error().Name() != op.expect_error) {
      malformed_ = OpPath(spec_, k) + " (actor " + spec_.name + ", " +
                   op.operation +
                   "): DynamoDB refused the call as malformed: " +
                   TraceErrorText(out.error()) +
                   " (fix the request, or add \"expect_error\": \"" +
                   std::string(out.error().Name()) + "\" to the op)";
    }
    return {
        "call " + op.operation, out.ok() ? "ok" : ErrorText(out.error()), {}};
  }

 private:
  Backend* backend_;
};

}  // namespace

bool MalformedCall(const Error& error) {
  return error.type == ErrorType::kValidation ||
         error.type == ErrorType::kSerialization ||
         error.type == ErrorType::kUnknownOperation;
}

std::string TraceErrorText(const Error& error) {
  // The message of a lost answer depends on the backend (in process it
  // names the fault rule; over HTTP, the closed connection): the trace
  // keeps only what they share, so traces compare across backends.
  if (error.type == ErrorType::kOutcomeUnknown) {
    return std::string(error.Name()) +
           ": the request may have been applied; its answer was lost";
  }
  return std::string(error.Name()) + ": " + error.message;
}

std::string ErrorText(const Error& error) {
  return "error " + TraceErrorText(error);
}

std::string ActorTable(const ActorSpec& spec) {
  if (spec.pattern == kOrderedWrites) {
    auto p = OrderedParamsOf(spec);
    return p.ok() ? p->config.table : "";
  }
  if (spec.pattern == kIdempotentCounter) {
    auto c = CounterParamsOf(spec);
    return c.ok() ? c->config.table : "";
  }
  if (spec.pattern == kTtlWindowSweeper) {
    auto c = SweeperParamsOf(spec);
    return c.ok() ? c->config.table : "";
  }
  if (spec.pattern == kUniqueClaims) {
    auto c = ClaimsParamsOf(spec);
    return c.ok() ? c->config.table : "";
  }
  if (spec.pattern == kRollupAggregator || spec.pattern == kTtlExpiryListener) {
    auto tables = ConsumerActorTables(spec);
    return tables.empty() ? "" : tables[0];
  }
  return "";
}

Status CheckActorSpec(const ActorSpec& spec) {
  if (spec.pattern == kRollupAggregator || spec.pattern == kTtlExpiryListener) {
    return CheckConsumerActorSpec(spec);
  }
  for (size_t k = 0; k < spec.ops.size(); ++k) {
    const std::string path = OpPath(spec, k);
    if (spec.pattern == kOrderedWrites) {
      DDBLAB_RETURN_IF_ERROR(OrderedOpOf(spec.ops[k], path));
    } else if (spec.pattern == kIdempotentCounter) {
      DDBLAB_RETURN_IF_ERROR(CounterOpOf(spec.ops[k], path));
    } else if (spec.pattern == kTtlWindowSweeper) {
      DDBLAB_RETURN_IF_ERROR(SweeperOpOf(spec.ops[k], path));
    } else if (spec.pattern == kUniqueClaims) {
      DDBLAB_RETURN_IF_ERROR(ClaimOpOf(spec.ops[k], path));
    } else {
      DDBLAB_RETURN_IF_ERROR(ScriptOpOf(spec.ops[k], path));
    }
  }
  if (spec.pattern == kOrderedWrites) {
    DDBLAB_RETURN_IF_ERROR(OrderedParamsOf(spec));
  } else if (spec.pattern == kIdempotentCounter) {
    DDBLAB_RETURN_IF_ERROR(CounterParamsOf(spec));
  } else if (spec.pattern == kTtlWindowSweeper) {
    DDBLAB_RETURN_IF_ERROR(SweeperParamsOf(spec));
  } else if (spec.pattern == kUniqueClaims) {
    DDBLAB_RETURN_IF_ERROR(ClaimsParamsOf(spec));
  } else if (!spec.params.empty()) {
    return At(Member(spec.path, "params"), "a script actor takes no params");
  }
  return OkStatus();
}

Result<std::unique_ptr<Actor>> MakeActor(const ActorSpec& spec,
                                         Backend& backend, Backend& checker,
                                         World& world) {
  // The pattern's own checks of its configuration, at the params' path.
  const auto params_error = [&](const Error& e) {
    return At(Member(spec.path, "params"), e.message);
  };
  if (spec.pattern == kOrderedWrites) {
    DDBLAB_ASSIGN_OR_RETURN(OrderedParams params, OrderedParamsOf(spec));
    auto writes = patterns::OrderedWrites::Open(backend, params.config);
    if (!writes.ok()) return params_error(writes.error());
    auto actor = std::make_unique<OrderedActor>(spec, std::move(params),
                                                std::move(*writes), world);
    actor->backend_clock_ = &backend.clock();
    return std::unique_ptr<Actor>(std::move(actor));
  }
  if (spec.pattern == kIdempotentCounter) {
    DDBLAB_ASSIGN_OR_RETURN(CounterParams params, CounterParamsOf(spec));
    auto counter = patterns::IdempotentCounter::Open(backend, params.config);
    if (!counter.ok()) return params_error(counter.error());
    return std::unique_ptr<Actor>(new CounterActor(
        spec, std::move(*counter), params.sdk_retries, backend, world));
  }
  if (spec.pattern == kTtlWindowSweeper) {
    DDBLAB_ASSIGN_OR_RETURN(SweeperParams params, SweeperParamsOf(spec));
    auto sweeper = patterns::TtlWindowSweeper::Open(backend, params.config);
    if (!sweeper.ok()) return params_error(sweeper.error());
    auto check = patterns::TtlWindowSweeper::Open(checker, params.config);
    if (!check.ok()) return params_error(check.error());
    return std::unique_ptr<Actor>(
        new SweeperActor(spec, std::move(*sweeper), std::move(*check),
                         params.sdk_retries, backend, checker, world));
  }
  if (spec.pattern == kUniqueClaims) {
    DDBLAB_ASSIGN_OR_RETURN(ClaimsParams params, ClaimsParamsOf(spec));
    auto claims = patterns::UniqueClaims::Open(backend, params.config);
    if (!claims.ok()) return params_error(claims.error());
    return std::unique_ptr<Actor>(
        new ClaimsActor(spec, std::move(*claims), params.sdk_retries));
  }
  if (spec.pattern == kRollupAggregator || spec.pattern == kTtlExpiryListener) {
    return MakeConsumerActor(spec, backend, world);
  }
  return std::unique_ptr<Actor>(new ScriptActor(spec, backend));
}

}  // namespace ddblab::harness::scenario
