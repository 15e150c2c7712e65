// harness/patterns/rollup_aggregator.cc: the rollup aggregator's tables,
// mapping, function (both variants) and invariant.
#include "harness/patterns/rollup_aggregator.h"

#include <map>
#include <optional>
#include <set>
#include <utility>

#include "harness/consumer/config.h"
#include "harness/consumer/event.h"

namespace ddblab::harness::patterns {

namespace {

// The function's two requests, built once and refilled for each record: a
// record changes only a few strings in them (built afresh, their JSON cost
// more per record than some of the engine's work). The pointers are into
// the JSON trees' heap nodes, which stay where they are when a Requests is
// moved; it is never copied.
struct Requests {
  struct AddSlots {
    std::string* customer = nullptr;  // Key.CustomerId.S
    std::string* day = nullptr;       // Key.Day.S
    std::string* bytes = nullptr;     // :b's N
  };
  json add;       // UpdateItem ADD #TotalBytes :b, #CombinedRecords :one
  json transact;  // TransactWriteItems: the dedupe Put, then the same ADD
  AddSlots add_slots;
  AddSlots transact_slots;           // in transact's Update
  std::string* record_id = nullptr;  // the dedupe item's RecordId S
  std::string* ttl = nullptr;        // its ttl N

  Requests() = default;
  Requests(const Requests&) = delete;
  Requests& operator=(const Requests&) = delete;
};

}  // namespace

struct RollupAggregator::State {
  Backend* backend = nullptr;
  RollupConfig config;
  RollupStats stats;
  std::optional<Requests> requests;  // built on first use
  // The last day formatted (DayOfMillis), by day number since the epoch.
  int64_t cached_day = 0;
  std::string cached_day_text;
};

namespace {

using State = RollupAggregator::State;

constexpr const char* kVariantNames[] = {"correct", "published"};
constexpr int64_t kDayMillis = 24LL * 60 * 60 * 1000;

int64_t EpochMillis(TimePoint t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             t.time_since_epoch())
      .count();
}

std::string DayOfMillis(int64_t ms) {
  int64_t day = ms / kDayMillis;
  if (ms % kDayMillis < 0) --day;
  return consumer::IsoTime(
      TimePoint(std::chrono::milliseconds(day * kDayMillis)), true);
}

// One SDK call: up to max_attempts attempts, waiting backoff * 2^(n-1)
// before retry n.
Result<json> SdkCall(State& state, std::string_view operation,
                     const json& request) {
  Duration wait = state.config.backoff;
  for (int attempt = 1;; ++attempt) {
    auto out = state.backend->Call(operation, request);
    if (out.ok() || !SdkRetries(out.error()) ||
        attempt >= state.config.max_attempts) {
      return out;
    }
    ++state.stats.sdk_retries;
    WaitFor(*state.backend, wait);
    wait *= 2;
  }
}

// Members read without copying: `key` of `object`, or a shared null when
// it is absent or `object` is not an object.
const json& Member(const json& object, const char* key) {
  static const json kNull;
  if (!object.is_object()) return kNull;
  auto it = object.find(key);
  return it == object.end() ? kNull : *it;
}

const json& RecordsOf(const json& event) {
  static const json kEmpty = json::array();
  const json& records = Member(event, "Records");
  return records.is_array() ? records : kEmpty;
}

// What one INSERT adds: nullopt when its image is not a transfer.
struct Contribution {
  std::string customer;
  std::string day;
  int64_t bytes = 0;
};

std::optional<Contribution> ContributionOf(const json& image) {
  if (!image.is_object() || !image.contains("CustomerId") ||
      !image["CustomerId"].contains("S")) {
    return std::nullopt;
  }
  auto time = AsInt(Member(image, "TransferTime"));
  auto bytes = AsInt(Member(image, "Bytes"));
  if (!time || !bytes) return std::nullopt;
  return Contribution{image["CustomerId"]["S"].get<std::string>(),
                      DayOfMillis(*time), *bytes};
}

json AddRequest(const State& state, const Contribution& c) {
  json request = {
      {"TableName", state.config.rollup_table},
      {"Key", {{"CustomerId", S(c.customer)}, {"Day", S(c.day)}}},
      {"UpdateExpression", "ADD #TotalBytes :b, #CombinedRecords :one"},
      {"ExpressionAttributeNames",
       {{"#TotalBytes", "TotalBytes"},
        {"#CombinedRecords", "CombinedRecords"}}},
      {"ExpressionAttributeValues", {{":b", N(c.bytes)}, {":one", N(1)}}}};
  if (!state.config.return_consumed_capacity.empty()) {
    request["ReturnConsumedCapacity"] = state.config.return_consumed_capacity;
  }
  return request;
}

std::string* StringAt(json& value) { return &value.get_ref<std::string&>(); }

Requests::AddSlots AddSlotsOf(json& add) {
  json& key = add["Key"];
  return {StringAt(key["CustomerId"]["S"]), StringAt(key["Day"]["S"]),
          StringAt(add["ExpressionAttributeValues"][":b"]["N"])};
}

Requests& RequestsOf(State& state) {
  if (state.requests) return *state.requests;
  Requests& r = state.requests.emplace();
  r.add = AddRequest(state, Contribution{});
  r.add_slots = AddSlotsOf(r.add);
  json put = {{"TableName", state.config.dedupe_table},
              {"Item", {{"RecordId", S("")}, {"ttl", N(0)}}},
              {"ConditionExpression", "attribute_not_exists(RecordId)"}};
  json update = r.add;
  update.erase("ReturnConsumedCapacity");
  r.transact = {{"TransactItems",
                 {{{"Put", std::move(put)}}, {{"Update", std::move(update)}}}}};
  if (!state.config.return_consumed_capacity.empty()) {
    r.transact["ReturnConsumedCapacity"] =
        state.config.return_consumed_capacity;
  }
  json& items = r.transact["TransactItems"];
  r.transact_slots = AddSlotsOf(items[1]["Update"]);
  r.record_id = StringAt(items[0]["Put"]["Item"]["RecordId"]["S"]);
  r.ttl = StringAt(items[0]["Put"]["Item"]["ttl"]["N"]);
  return r;
}

// The string member `key` of `object`; null when it is absent or not a
// string.
const std::string* StringMember(const json& object, const char* key) {
  const json& v = Member(object, key);
  return v.is_string() ? &v.get_ref<const std::string&>() : nullptr;
}

// The day text of `ms`, formatted once per day (DayOfMillis).
const std::string& CachedDay(State& state, int64_t ms) {
  int64_t day = ms / kDayMillis;
  if (ms % kDayMillis < 0) --day;
  if (state.cached_day_text.empty() || state.cached_day != day) {
    state.cached_day = day;
    state.cached_day_text = DayOfMillis(day * kDayMillis);
  }
  return state.cached_day_text;
}

// Fills the ADD's slots for an INSERT's new image; false when the image is
// not a transfer (ContributionOf's reading, without copying the image).
bool FillAdd(State& state, const json& image, const Requests::AddSlots& add) {
  if (!image.is_object()) return false;
  const std::string* customer = StringMember(Member(image, "CustomerId"), "S");
  if (customer == nullptr) return false;
  auto time = AsInt(Member(image, "TransferTime"));
  auto bytes = AsInt(Member(image, "Bytes"));
  if (!time || !bytes) return false;
  *add.customer = *customer;
  *add.day = CachedDay(state, *time);
  *add.bytes = std::to_string(*bytes);
  return true;
}

// True when a cancelled transaction's first action (the dedupe Put) failed
// its condition: the record was counted before.
bool SeenBefore(const Error& error) {
  if (error.type != ErrorType::kTransactionCanceled ||
      !error.extra.is_object() ||
      !error.extra.contains("CancellationReasons")) {
    return false;
  }
  const json& reasons = error.extra["CancellationReasons"];
  return reasons.is_array() && !reasons.empty() &&
         reasons[0].value("Code", "") == "ConditionalCheckFailed";
}

bool IsInsert(const json& record) {
  const std::string* name = StringMember(record, "eventName");
  return name != nullptr && *name == "INSERT";
}

Result<json> HandlePublished(State& state, const json& event) {
  Requests& requests = RequestsOf(state);
  for (const json& record : RecordsOf(event)) {
    if (state.config.before_record) {
      DDBLAB_RETURN_IF_ERROR(state.config.before_record(record));
    }
    if (!IsInsert(record)) continue;
    if (!FillAdd(state, Member(Member(record, "dynamodb"), "NewImage"),
                 requests.add_slots)) {
      continue;
    }
    auto out = SdkCall(state, "UpdateItem", requests.add);
    if (!out.ok()) {
      // The published function logs the error and goes on.
      ++state.stats.swallowed_errors;
      continue;
    }
    ++state.stats.applied;
  }
  return json(nullptr);
}

Result<json> HandleCorrect(State& state, const json& event) {
  Requests& requests = RequestsOf(state);
  json failures = json::array();
  for (const json& record : RecordsOf(event)) {
    if (state.config.before_record) {
      DDBLAB_RETURN_IF_ERROR(state.config.before_record(record));
    }
    if (!IsInsert(record)) continue;
    const json& dynamodb = Member(record, "dynamodb");
    if (!FillAdd(state, Member(dynamodb, "NewImage"),
                 requests.transact_slots)) {
      continue;
    }
    const int64_t expires = ToEpochSeconds(state.backend->clock().Now()) +
                            std::chrono::duration_cast<std::chrono::seconds>(
                                state.config.dedupe_retention)
                                .count();
    const std::string* event_id = StringMember(record, "eventID");
    if (event_id != nullptr) {
      *requests.record_id = *event_id;
    } else {
      requests.record_id->clear();
    }
    *requests.ttl = std::to_string(expires);
    auto out = SdkCall(state, "TransactWriteItems", requests.transact);
    if (out.ok()) {
      ++state.stats.applied;
      continue;
    }
    if (SeenBefore(out.error())) {
      ++state.stats.duplicates;
      continue;
    }
    // Lambda checkpoints before this record and delivers it and the ones
    // after it again.
    ++state.stats.failed_records;
    failures.push_back(
        {{"itemIdentifier", dynamodb.value("SequenceNumber", "")}});
    break;
  }
  return json{{"batchItemFailures", failures}};
}

}  // namespace

std::string_view RollupVariantName(RollupVariant variant) {
  return kVariantNames[static_cast<int>(variant)];
}

Result<RollupVariant> ParseRollupVariant(std::string_view name) {
  for (int i = 0; i < 2; ++i) {
    if (name == kVariantNames[i]) return static_cast<RollupVariant>(i);
  }
  return Error::Validation("unknown rollup aggregator variant \"" +
                           std::string(name) + "\" (correct, published)");
}

std::string RollupAggregator::DayOf(TimePoint t) {
  return DayOfMillis(EpochMillis(t));
}

Result<RollupAggregator> RollupAggregator::Open(Backend& backend,
                                                RollupConfig config) {
  DDBLAB_RETURN_IF_ERROR(
      CheckTableName("rollup aggregator", config.source_table));
  DDBLAB_RETURN_IF_ERROR(
      CheckTableName("rollup aggregator", config.rollup_table));
  DDBLAB_RETURN_IF_ERROR(
      CheckTableName("rollup aggregator", config.dedupe_table));
  if (config.source_table == config.rollup_table ||
      config.source_table == config.dedupe_table ||
      config.rollup_table == config.dedupe_table) {
    return Error::Validation(
        "rollup aggregator: source_table, rollup_table and dedupe_table must "
        "be three different tables");
  }
  if (config.max_attempts < 1 || config.max_attempts > 10) {
    return Error::Validation(
        "rollup aggregator: max_attempts must be 1 to 10 (default 3), got " +
        std::to_string(config.max_attempts));
  }
  if (config.backoff < Duration::zero()) {
    return Error::Validation(
        "rollup aggregator: backoff must not be negative (default 50 ms)");
  }
  if (config.dedupe_retention < std::chrono::hours(24)) {
    return Error::Validation(
        "rollup aggregator: dedupe_retention must be at least 24 hours (a "
        "stream record can be delivered again until it leaves the stream); "
        "default 48 hours");
  }
  const std::string& rcc = config.return_consumed_capacity;
  if (!rcc.empty() && rcc != "TOTAL" && rcc != "INDEXES" && rcc != "NONE") {
    return Error::Validation(
        "rollup aggregator: return_consumed_capacity must be empty, TOTAL, "
        "INDEXES or NONE, got \"" +
        rcc + "\"");
  }
  if (!config.mapping.is_object()) {
    return Error::Validation(
        "rollup aggregator: mapping must be an object of "
        "CreateEventSourceMapping fields, got " +
        config.mapping.dump());
  }
  for (const char* own : {"TableName", "EventSourceArn", "FunctionName",
                          "StartingPosition", "FunctionResponseTypes"}) {
    if (config.mapping.contains(own)) {
      return Error::Validation(std::string("rollup aggregator: mapping ") +
                               own + " is set by the pattern");
    }
  }
  json request = config.mapping;
  request["TableName"] = config.source_table;
  request["FunctionName"] = config.function_name;
  request["StartingPosition"] = "TRIM_HORIZON";
  if (config.variant == RollupVariant::kCorrect) {
    request["FunctionResponseTypes"] = {"ReportBatchItemFailures"};
  }
  auto esm_config = consumer::ParseEsmConfig(request);
  if (!esm_config.ok()) return esm_config.error();

  auto state = std::make_shared<State>();
  state->backend = &backend;
  state->config = std::move(config);
  State* raw = state.get();
  auto esm = std::make_unique<consumer::EventSourceMapping>(
      backend, *esm_config,
      std::make_unique<consumer::CallableFunction>(
          [raw](const json& event) -> Result<json> {
            return raw->config.variant == RollupVariant::kCorrect
                       ? HandleCorrect(*raw, event)
                       : HandlePublished(*raw, event);
          }),
      state->config.seed);
  return RollupAggregator(std::move(state), std::move(esm));
}

const RollupConfig& RollupAggregator::config() const { return state_->config; }

const RollupStats& RollupAggregator::stats() const { return state_->stats; }

Status RollupAggregator::Setup() {
  Backend& backend = *state_->backend;
  const RollupConfig& config = state_->config;
  DDBLAB_RETURN_IF_ERROR(EnsureTable(
      backend,
      {{"TableName", config.source_table},
       {"KeySchema", {{{"AttributeName", "TransferId"}, {"KeyType", "HASH"}}}},
       {"AttributeDefinitions",
        {{{"AttributeName", "TransferId"}, {"AttributeType", "S"}}}},
       {"BillingMode", "PAY_PER_REQUEST"},
       {"StreamSpecification",
        {{"StreamEnabled", true}, {"StreamViewType", "NEW_IMAGE"}}}}));
  DDBLAB_RETURN_IF_ERROR(
      EnsureStream(backend, config.source_table, "NEW_IMAGE"));
  DDBLAB_RETURN_IF_ERROR(EnsureTable(
      backend, {{"TableName", config.rollup_table},
                {"KeySchema",
                 {{{"AttributeName", "CustomerId"}, {"KeyType", "HASH"}},
                  {{"AttributeName", "Day"}, {"KeyType", "RANGE"}}}},
                {"AttributeDefinitions",
                 {{{"AttributeName", "CustomerId"}, {"AttributeType", "S"}},
                  {{"AttributeName", "Day"}, {"AttributeType", "S"}}}},
                {"BillingMode", "PAY_PER_REQUEST"}}));
  if (config.variant != RollupVariant::kCorrect) return Status();
  DDBLAB_RETURN_IF_ERROR(EnsureTable(
      backend,
      {{"TableName", config.dedupe_table},
       {"KeySchema", {{{"AttributeName", "RecordId"}, {"KeyType", "HASH"}}}},
       {"AttributeDefinitions",
        {{{"AttributeName", "RecordId"}, {"AttributeType", "S"}}}},
       {"BillingMode", "PAY_PER_REQUEST"}}));
  return EnsureTtl(backend, config.dedupe_table, "ttl");
}

Result<bool> RollupAggregator::RecordTransfer(const Transfer& transfer) {
  if (transfer.id.empty() || transfer.customer.empty()) {
    return Error::Validation(
        "rollup aggregator: a transfer needs an id and a customer");
  }
  if (transfer.bytes < 0) {
    return Error::Validation(
        "rollup aggregator: a transfer's bytes must not be negative, got " +
        std::to_string(transfer.bytes));
  }
  json request = {{"TableName", state_->config.source_table},
                  {"Item",
                   {{"TransferId", S(transfer.id)},
                    {"CustomerId", S(transfer.customer)},
                    {"TransferTime", N(EpochMillis(transfer.time))},
                    {"Bytes", N(transfer.bytes)}}},
                  {"ConditionExpression", "attribute_not_exists(TransferId)"}};
  for (int attempt = 1;; ++attempt) {
    auto out = state_->backend->Call("PutItem", request);
    if (out.ok()) return true;
    if (out.error().type == ErrorType::kConditionalCheckFailed) {
      // Already written (by this transfer's earlier attempt whose answer was
      // lost, when attempt > 1).
      return attempt > 1;
    }
    if (out.error().type != ErrorType::kOutcomeUnknown ||
        attempt >= state_->config.max_attempts) {
      return out.error();
    }
  }
}

Result<int64_t> RollupAggregator::Poll(int64_t max_rounds) {
  return esm_->RunUntilIdle(max_rounds);
}

Result<json> RollupAggregator::Handle(const json& event) {
  return state_->config.variant == RollupVariant::kCorrect
             ? HandleCorrect(*state_, event)
             : HandlePublished(*state_, event);
}

Result<Problems> RollupAggregator::Check() {
  struct Totals {
    int64_t bytes = 0;
    int64_t records = 0;
  };
  using Key = std::pair<std::string, std::string>;
  std::map<Key, Totals> expected;
  Problems problems;
  DDBLAB_ASSIGN_OR_RETURN(
      std::vector<json> transfers,
      ScanAll(*state_->backend, state_->config.source_table));
  for (const json& item : transfers) {
    auto c = ContributionOf(item);
    if (!c) {
      problems.push_back("source item " +
                         item.value("TransferId", json()).dump() +
                         " is not a transfer (CustomerId S, TransferTime N, "
                         "Bytes N)");
      continue;
    }
    Totals& t = expected[{c->customer, c->day}];
    t.bytes += c->bytes;
    t.records += 1;
  }
  DDBLAB_ASSIGN_OR_RETURN(
      std::vector<json> rollups,
      ScanAll(*state_->backend, state_->config.rollup_table));
  auto difference = [](int64_t got, int64_t want) {
    return got > want ? "overcounted by " + std::to_string(got - want)
                      : "undercounted by " + std::to_string(want - got);
  };
  // Rollup items by key, so that problems come in key order on every
  // backend (a Scan's order is the partition hash order).
  std::map<Key, Totals> got;
  for (const json& item : rollups) {
    Key key{item.value("CustomerId", json::object()).value("S", ""),
            item.value("Day", json::object()).value("S", "")};
    auto bytes = AsInt(item.value("TotalBytes", N(0)));
    auto records = AsInt(item.value("CombinedRecords", N(0)));
    if (!bytes || !records) {
      problems.push_back("customer " + key.first + " day " + key.second +
                         ": TotalBytes or CombinedRecords is not an "
                         "integer: " +
                         item.dump());
      continue;
    }
    got[key] = Totals{*bytes, *records};
  }
  std::set<Key> keys;
  for (const auto& [key, totals] : expected) keys.insert(key);
  for (const auto& [key, totals] : got) keys.insert(key);
  for (const Key& key : keys) {
    const std::string name = "customer " + key.first + " day " + key.second;
    auto want_it = expected.find(key);
    const Totals want = want_it == expected.end() ? Totals{} : want_it->second;
    auto got_it = got.find(key);
    if (got_it == got.end()) {
      problems.push_back(name + ": no rollup item, expected TotalBytes " +
                         std::to_string(want.bytes) + " over " +
                         std::to_string(want.records) + " records");
      continue;
    }
    const Totals have = got_it->second;
    if (have.bytes != want.bytes) {
      problems.push_back(name + ": TotalBytes is " +
                         std::to_string(have.bytes) + ", expected " +
                         std::to_string(want.bytes) + " (" +
                         difference(have.bytes, want.bytes) + ")");
    }
    if (have.records != want.records) {
      problems.push_back(name + ": CombinedRecords is " +
                         std::to_string(have.records) + ", expected " +
                         std::to_string(want.records) + " (" +
                         difference(have.records, want.records) + ")");
    }
  }
  return problems;
}

}  // namespace ddblab::harness::patterns
