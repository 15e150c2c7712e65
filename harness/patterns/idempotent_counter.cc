// harness/patterns/idempotent_counter.cc: the idempotent counter's requests.
#include "harness/patterns/idempotent_counter.h"

#include <chrono>
#include <set>
#include <utility>

namespace ddblab::harness::patterns {
namespace {

constexpr const char* kVariantNames[] = {"correct",
                                         "no_idempotency_key",
                                         "unbounded_history",
                                         "published_sliding_window",
                                         "remove_repair",
                                         "stale_read_modify_write",
                                         "consistent_read_modify_write"};
constexpr int kVariants = 7;
// How many times the consistent read-modify-write reads again after its
// condition failed (another writer came between its read and its put).
constexpr int kMaxRereads = 50;

int64_t EpochMillis(TimePoint t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             t.time_since_epoch())
      .count();
}

// The issued-at time of a history entry, nullopt if it is not one of ours.
std::optional<int64_t> EntryMillis(const json& entry) {
  if (!entry.is_object() || !entry.contains("S")) return std::nullopt;
  const std::string& text = entry["S"].get_ref<const std::string&>();
  size_t hash = text.find('#');
  if (hash == 0 || hash == std::string::npos) return std::nullopt;
  int64_t ms = 0;
  for (size_t i = 0; i < hash; ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    ms = ms * 10 + (text[i] - '0');
  }
  return ms;
}

}  // namespace

std::string_view CounterVariantName(CounterVariant variant) {
  return kVariantNames[static_cast<int>(variant)];
}

Result<CounterVariant> ParseCounterVariant(std::string_view name) {
  std::string list;
  for (int i = 0; i < kVariants; ++i) {
    if (name == kVariantNames[i]) return static_cast<CounterVariant>(i);
    list += (i > 0 ? ", " : "") + std::string(kVariantNames[i]);
  }
  return Error::Validation("unknown idempotent counter variant \"" +
                           std::string(name) + "\" (" + list + ")");
}

std::string HistoryEntry(const Increment& increment) {
  return std::to_string(EpochMillis(increment.issued_at)) + "#" + increment.key;
}

Result<IdempotentCounter> IdempotentCounter::Open(Backend& backend,
                                                  CounterConfig config) {
  DDBLAB_RETURN_IF_ERROR(CheckTableName("idempotent counter", config.table));
  if (config.window <= Duration::zero()) {
    return Error::Validation(
        "idempotent counter: window must be positive (default 5 minutes)");
  }
  if (config.max_attempts < 1) {
    return Error::Validation(
        "idempotent counter: max_attempts must be at least 1, got " +
        std::to_string(config.max_attempts));
  }
  if (config.max_trim < 1 || config.max_trim > 300) {
    return Error::Validation(
        "idempotent counter: max_trim must be 1 to 300 (DynamoDB allows at "
        "most 300 operators in an expression), got " +
        std::to_string(config.max_trim));
  }
  return IdempotentCounter(backend, std::move(config));
}

Status IdempotentCounter::Setup() {
  return EnsureTable(
      *backend_,
      {{"TableName", config_.table},
       {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}},
       {"AttributeDefinitions",
        {{{"AttributeName", "pk"}, {"AttributeType", "S"}}}},
       {"BillingMode", "PAY_PER_REQUEST"}});
}

json IdempotentCounter::UpdateRequest(const Increment& increment) const {
  json request = {{"TableName", config_.table},
                  {"Key", {{"pk", S(increment.counter)}}}};
  if (config_.variant == CounterVariant::kNoIdempotencyKey) {
    request["UpdateExpression"] = "ADD #count :amount";
    request["ExpressionAttributeNames"] = {{"#count", "count"}};
    request["ExpressionAttributeValues"] = {{":amount", N(increment.amount)}};
    return request;
  }
  const std::string entry = HistoryEntry(increment);
  std::string update =
      "SET #count = if_not_exists(#count, :zero) + :amount, "
      "#history = list_append(if_not_exists(#history, :empty), :entryList)";
  if (config_.variant == CounterVariant::kPublishedSlidingWindow) {
    update += " DELETE #history[0]";
  } else if (config_.variant == CounterVariant::kRemoveRepair) {
    update += " REMOVE #history[0]";
  }
  request["UpdateExpression"] = update;
  request["ConditionExpression"] = "NOT contains(#history, :entry)";
  request["ExpressionAttributeNames"] = {{"#count", "count"},
                                         {"#history", "history"}};
  request["ExpressionAttributeValues"] = {
      {":zero", N(0)},
      {":amount", N(increment.amount)},
      {":empty", {{"L", json::array()}}},
      {":entryList", {{"L", json::array({S(entry)})}}},
      {":entry", S(entry)}};
  request["ReturnValues"] = "ALL_NEW";
  return request;
}

Result<IncrementOutcome> IdempotentCounter::Add(const Increment& increment) {
  for (int attempt = 1;; ++attempt) {
    Result<IncrementOutcome> out = AddAttempt(increment);
    if (out.ok() || !SdkRetries(out.error()) ||
        attempt >= config_.max_attempts) {
      return out;
    }
  }
}

Result<IncrementOutcome> IdempotentCounter::AddAttempt(
    const Increment& increment) {
  if (increment.counter.empty()) {
    return Error::Validation("idempotent counter: counter must not be empty");
  }
  if (increment.key.empty() &&
      config_.variant != CounterVariant::kNoIdempotencyKey) {
    return Error::Validation(
        "idempotent counter: the increment's idempotency key must not be "
        "empty");
  }
  if (config_.variant == CounterVariant::kStaleReadModifyWrite ||
      config_.variant == CounterVariant::kConsistentReadModifyWrite) {
    for (int rereads = 0;;) {
      Result<IncrementOutcome> out = ReadModifyWrite(increment);
      if (out.ok()) return out;
      if (out.error().type == ErrorType::kConditionalCheckFailed &&
          ++rereads <= kMaxRereads) {
        continue;  // another increment came between the read and the put
      }
      return out.error();
    }
  }
  auto out = backend_->Call("UpdateItem", UpdateRequest(increment));
  if (out.ok()) {
    if (config_.variant == CounterVariant::kCorrect) {
      Trim(increment.counter, (*out)["Attributes"]["history"]);
    }
    return IncrementOutcome::kApplied;
  }
  if (out.error().type == ErrorType::kConditionalCheckFailed) {
    // The key is in the history: this increment (or an earlier attempt of
    // it whose answer was lost) was already counted.
    return IncrementOutcome::kDuplicate;
  }
  return out.error();
}

Result<IncrementOutcome> IdempotentCounter::ReadModifyWrite(
    const Increment& increment) {
  const bool consistent =
      config_.variant == CounterVariant::kConsistentReadModifyWrite;
  DDBLAB_ASSIGN_OR_RETURN(
      json read,
      backend_->Call("GetItem", {{"TableName", config_.table},
                                 {"Key", {{"pk", S(increment.counter)}}},
                                 {"ConsistentRead", consistent}}));
  const json item = read.value("Item", json::object());
  const std::string entry = HistoryEntry(increment);
  json history = json::array();
  if (item.contains("history") && item["history"].contains("L")) {
    history = item["history"]["L"];
  }
  for (const json& seen : history) {
    if (seen == S(entry)) return IncrementOutcome::kDuplicate;
  }
  const std::optional<int64_t> count =
      item.contains("count") ? AsInt(item["count"]) : std::optional<int64_t>(0);
  if (!count) {
    return Error::Validation(
        "counter " + increment.counter +
        " has a count that is not an integer: " + item["count"].dump());
  }
  history.push_back(S(entry));
  json put = {{"TableName", config_.table},
              {"Item",
               {{"pk", S(increment.counter)},
                {"count", N(*count + increment.amount)},
                {"history", {{"L", history}}}}}};
  if (consistent) {
    if (item.empty()) {
      put["ConditionExpression"] = "attribute_not_exists(pk)";
    } else {
      put["ConditionExpression"] = "#count = :seen";
      put["ExpressionAttributeNames"] = {{"#count", "count"}};
      put["ExpressionAttributeValues"] = {{":seen", N(*count)}};
    }
  }
  auto written = backend_->Call("PutItem", put);
  if (!written.ok()) return written.error();
  return IncrementOutcome::kApplied;
}

void IdempotentCounter::Trim(const std::string& counter, const json& history) {
  if (!history.is_object() || !history.contains("L")) return;
  const json& entries = history["L"];
  const int64_t oldest_kept =
      EpochMillis(backend_->clock().Now()) -
      std::chrono::duration_cast<std::chrono::milliseconds>(config_.window)
          .count();
  // Entries are appended in arrival order; trim the leading ones issued
  // before the window.
  size_t count = 0;
  while (count < entries.size() &&
         count < static_cast<size_t>(config_.max_trim)) {
    auto ms = EntryMillis(entries[count]);
    if (!ms || *ms >= oldest_kept) break;
    ++count;
  }
  if (count == 0) return;
  std::string update = "REMOVE ";
  for (size_t i = 0; i < count; ++i) {
    if (i > 0) update += ", ";
    update += "#history[" + std::to_string(i) + "]";
  }
  // Keys are unique and only the front is ever removed, so if the entry at
  // count-1 is still the one we saw, the first `count` entries are exactly
  // those we mean to remove. Otherwise another writer trimmed first.
  json request = {
      {"TableName", config_.table},
      {"Key", {{"pk", S(counter)}}},
      {"UpdateExpression", update},
      {"ConditionExpression",
       "#history[" + std::to_string(count - 1) + "] = :last"},
      {"ExpressionAttributeNames", {{"#history", "history"}}},
      {"ExpressionAttributeValues", {{":last", entries[count - 1]}}}};
  // A failed trim (condition, lost answer) is left to the next increment.
  (void)backend_->Call("UpdateItem", request);
}

Result<int64_t> IdempotentCounter::Read(std::string_view counter) {
  auto out = backend_->Call("GetItem", {{"TableName", config_.table},
                                        {"Key", {{"pk", S(counter)}}},
                                        {"ConsistentRead", true}});
  if (!out.ok()) return out.error();
  if (!out->contains("Item") || !(*out)["Item"].contains("count")) return 0;
  auto value = AsInt((*out)["Item"]["count"]);
  if (!value) {
    return Error::Validation("counter " + std::string(counter) +
                             " has a count that is not an integer: " +
                             (*out)["Item"]["count"].dump());
  }
  return *value;
}

Result<Problems> IdempotentCounter::Check(std::string_view counter,
                                          int64_t expected_total) {
  auto out = backend_->Call("GetItem", {{"TableName", config_.table},
                                        {"Key", {{"pk", S(counter)}}},
                                        {"ConsistentRead", true}});
  if (!out.ok()) return out.error();
  Problems problems;
  const json item = out->value("Item", json::object());
  int64_t count = 0;
  if (item.contains("count")) {
    auto value = AsInt(item["count"]);
    if (!value) {
      problems.push_back("count is not an integer: " + item["count"].dump());
    } else {
      count = *value;
    }
  }
  if (count != expected_total) {
    problems.push_back(
        "counter " + std::string(counter) + " is " + std::to_string(count) +
        ", expected " + std::to_string(expected_total) + " (" +
        (count > expected_total ? "over" : "under") + "counted by " +
        std::to_string(count > expected_total ? count - expected_total
                                              : expected_total - count) +
        ")");
  }
  if (item.contains("history") && item["history"].contains("L")) {
    std::set<std::string> seen;
    for (const json& entry : item["history"]["L"]) {
      std::string text = entry.value("S", entry.dump());
      if (!seen.insert(text).second) {
        problems.push_back("history holds " + text + " twice");
      }
    }
  }
  return problems;
}

}  // namespace ddblab::harness::patterns
