// harness/patterns/ttl_window_sweeper.cc: the TTL-window sweeper's requests.
#include "harness/patterns/ttl_window_sweeper.h"

#include <algorithm>
#include <utility>

namespace ddblab::harness::patterns {
namespace {

using namespace std::chrono_literals;

constexpr const char* kVariantNames[] = {
    "correct", "window_not_multiple_of_frequency", "no_pagination",
    "no_unprocessed_retry", "unconditional_delete"};
constexpr int kVariants = 5;

// "2024-01-01T00:01:00.000Z", as JavaScript's toISOString writes it.
std::string IsoMillis(int64_t epoch_seconds) {
  std::string text = IsoSeconds(epoch_seconds);
  text.pop_back();
  return text + ".000Z";
}

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

std::string SecondsText(Duration d) {
  return std::to_string(
             std::chrono::duration_cast<std::chrono::seconds>(d).count()) +
         "s";
}

// The CapacityUnits of a ConsumedCapacity member: one object (Query) or a
// list with one per table (BatchWriteItem); 0 when absent.
double UnitsOf(const json& consumed) {
  double units = 0;
  if (consumed.is_object()) {
    units += consumed.value("CapacityUnits", 0.0);
  } else if (consumed.is_array()) {
    for (const json& table : consumed)
      units += table.value("CapacityUnits", 0.0);
  }
  return units;
}

// DynamoDB throws instead of answering when it processes nothing.
bool Throttled(const Error& error) {
  return error.type == ErrorType::kThrottling ||
         error.type == ErrorType::kProvisionedThroughputExceeded ||
         error.type == ErrorType::kRequestLimitExceeded;
}

std::string PkText(const json& key) {
  const json& pk = key.contains("pk") ? key["pk"] : key;
  return pk.is_object() && pk.contains("S") && pk["S"].is_string()
             ? pk["S"].get<std::string>()
             : pk.dump();
}

}  // namespace

std::string_view SweeperVariantName(SweeperVariant variant) {
  return kVariantNames[static_cast<int>(variant)];
}

Result<SweeperVariant> ParseSweeperVariant(std::string_view name) {
  for (int i = 0; i < kVariants; ++i) {
    if (name == kVariantNames[i]) return static_cast<SweeperVariant>(i);
  }
  return Error::Validation(
      "unknown TTL window sweeper variant \"" + std::string(name) +
      "\" (correct, window_not_multiple_of_frequency, no_pagination, "
      "no_unprocessed_retry, unconditional_delete)");
}

Result<TtlWindowSweeper> TtlWindowSweeper::Open(Backend& backend,
                                                SweeperConfig config) {
  DDBLAB_RETURN_IF_ERROR(CheckTableName("TTL window sweeper", config.table));
  if (config.index.size() < 3 || config.index.size() > 255) {
    return Error::Validation(
        "TTL window sweeper: index name must be 3 to 255 characters, got \"" +
        config.index + "\"");
  }
  const auto whole = [](Duration d) {
    return d >= std::chrono::seconds(1) && d % std::chrono::seconds(1) == 0s;
  };
  if (!whole(config.window)) {
    return Error::Validation(
        "TTL window sweeper: window must be a positive whole number of "
        "seconds (default 1 minute)");
  }
  if (!whole(config.frequency)) {
    return Error::Validation(
        "TTL window sweeper: frequency must be a positive whole number of "
        "seconds (default 1 minute)");
  }
  if (config.variant != SweeperVariant::kWindowNotMultipleOfFrequency &&
      config.window % config.frequency != 0s) {
    return Error::Validation("TTL window sweeper: window (" +
                             SecondsText(config.window) +
                             ") must be a multiple of the frequency (" +
                             SecondsText(config.frequency) +
                             "), or items are left until DynamoDB's own TTL");
  }
  if (config.chunk < 1 || config.chunk > 25) {
    return Error::Validation(
        "TTL window sweeper: chunk must be 1 to 25 (BatchWriteItem takes at "
        "most 25 requests), got " +
        std::to_string(config.chunk));
  }
  if (config.max_retries < 0 || config.max_retries > 10) {
    return Error::Validation(
        "TTL window sweeper: max_retries must be 0 to 10, got " +
        std::to_string(config.max_retries));
  }
  if (config.backoff < Duration::zero()) {
    return Error::Validation(
        "TTL window sweeper: backoff must not be negative");
  }
  if (config.projection != "ALL" && config.projection != "KEYS_ONLY") {
    return Error::Validation(
        "TTL window sweeper: projection must be ALL or KEYS_ONLY, got \"" +
        config.projection + "\"");
  }
  return TtlWindowSweeper(backend, std::move(config));
}

Status TtlWindowSweeper::Setup() {
  DDBLAB_RETURN_IF_ERROR(EnsureTable(
      *backend_,
      {{"TableName", config_.table},
       {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}},
       {"AttributeDefinitions",
        {{{"AttributeName", "pk"}, {"AttributeType", "S"}},
         {{"AttributeName", "expirationWindow"}, {"AttributeType", "S"}},
         {{"AttributeName", "ttl"}, {"AttributeType", "N"}}}},
       {"GlobalSecondaryIndexes",
        {{{"IndexName", config_.index},
          {"KeySchema",
           {{{"AttributeName", "expirationWindow"}, {"KeyType", "HASH"}},
            {{"AttributeName", "ttl"}, {"KeyType", "RANGE"}}}},
          {"Projection", {{"ProjectionType", config_.projection}}}}}},
       {"BillingMode", "PAY_PER_REQUEST"}}));
  if (!config_.native_ttl) return Status();
  auto ttl =
      backend_->Call("DescribeTimeToLive", {{"TableName", config_.table}});
  if (!ttl.ok()) return ttl.error();
  const std::string status =
      (*ttl)["TimeToLiveDescription"].value("TimeToLiveStatus", "");
  if (status == "ENABLED" || status == "ENABLING") return Status();
  auto enabled = backend_->Call(
      "UpdateTimeToLive", {{"TableName", config_.table},
                           {"TimeToLiveSpecification",
                            {{"Enabled", true}, {"AttributeName", "ttl"}}}});
  if (!enabled.ok()) return enabled.error();
  return Status();
}

std::string TtlWindowSweeper::WindowOf(int64_t epoch_seconds) const {
  const int64_t length =
      std::chrono::duration_cast<std::chrono::seconds>(config_.window).count();
  const int64_t start = FloorDiv(epoch_seconds, length) * length;
  return IsoMillis(start) + "_" + IsoMillis(start + length);
}

Status TtlWindowSweeper::PutItem(std::string_view pk, int64_t ttl_epoch_seconds,
                                 const json& attributes) {
  if (!attributes.is_object()) {
    return Error::Validation(
        "TTL window sweeper: attributes must be an object of AttributeValues");
  }
  json item = attributes;
  item["pk"] = S(pk);
  item["ttl"] = N(ttl_epoch_seconds);
  item["expirationWindow"] = S(WindowOf(ttl_epoch_seconds));
  auto out =
      backend_->Call("PutItem", {{"TableName", config_.table}, {"Item", item}});
  if (!out.ok()) return out.error();
  return Status();
}

Result<SweepReport> TtlWindowSweeper::Sweep() {
  SweepRun run = StartSweep();
  while (!run.done()) {
    auto step = SweepStep(run);
    if (!step.ok()) return step.error();
  }
  return run.report();
}

SweepRun TtlWindowSweeper::StartSweep() {
  SweepRun run;
  run.report_.now = backend_->clock().Now();
  run.now_ = ToEpochSeconds(run.report_.now);
  run.report_.windows = WindowsAt(run.now_);
  run.query_ = QueryRequest(run.report_.windows[0], run.now_);
  return run;
}

Result<std::string> TtlWindowSweeper::SweepStep(SweepRun& run) {
  // The window is done: on to the next one, or the sweep is.
  const auto next_window = [&] {
    run.keys_.clear();
    run.next_ = 0;
    run.attempt_ = 0;
    run.page_ = 0;
    run.batch_ = json();
    if (++run.window_ >= run.report_.windows.size()) {
      run.phase_ = SweepRun::Phase::kDone;
      return;
    }
    run.query_ = QueryRequest(run.report_.windows[run.window_], run.now_);
    run.phase_ = SweepRun::Phase::kQuery;
  };
  switch (run.phase_) {
    case SweepRun::Phase::kDone:
      return Error::Internal("TTL window sweeper: the sweep is over");
    case SweepRun::Phase::kQuery: {
      const size_t before = run.keys_.size();
      DDBLAB_ASSIGN_OR_RETURN(bool more,
                              QueryPage(run.query_, &run.keys_, &run.report_));
      const std::string what = "Query " + run.report_.windows[run.window_] +
                               " page " + std::to_string(++run.page_) + ": " +
                               std::to_string(run.keys_.size() - before) +
                               " expired";
      if (!more) {
        run.report_.found += static_cast<int>(run.keys_.size());
        if (run.keys_.empty()) {
          next_window();
        } else {
          run.phase_ = SweepRun::Phase::kDelete;
        }
      }
      return what;
    }
    case SweepRun::Phase::kDelete:
      break;
  }
  std::string what;
  if (conditional()) {
    const json& key = run.keys_[run.next_];
    DDBLAB_ASSIGN_OR_RETURN(
        bool finished,
        DeleteAttempt(key, run.now_, run.attempt_, &run.report_, &what));
    what = "DeleteItem " + PkText(key) +
           (run.attempt_ > 0 ? " (retry " + std::to_string(run.attempt_) + ")"
                             : "") +
           ": " + what;
    if (!finished) {
      ++run.attempt_;
      return what;
    }
    run.attempt_ = 0;
    if (++run.next_ >= run.keys_.size()) next_window();
    return what;
  }
  if (run.batch_.is_null()) {
    const size_t end = std::min(run.keys_.size(),
                                run.next_ + static_cast<size_t>(config_.chunk));
    run.batch_ = ChunkRequest(run.keys_, run.next_, end);
    run.next_ = end;
    run.attempt_ = 0;
  }
  const size_t sent = run.batch_["RequestItems"][config_.table].size();
  DDBLAB_ASSIGN_OR_RETURN(bool finished, BatchAttempt(run.batch_, run.attempt_,
                                                      &run.report_, &what));
  what = "BatchWriteItem " + std::to_string(sent) + " deletes" +
         (run.attempt_ > 0 ? " (retry " + std::to_string(run.attempt_) + ")"
                           : "") +
         ": " + what;
  if (!finished) {
    ++run.attempt_;
    return what;
  }
  run.batch_ = json();
  run.attempt_ = 0;
  if (run.next_ >= run.keys_.size()) next_window();
  return what;
}

std::vector<std::string> TtlWindowSweeper::WindowsAt(int64_t now) const {
  const int64_t length =
      std::chrono::duration_cast<std::chrono::seconds>(config_.window).count();
  std::vector<std::string> windows;
  if (config_.variant != SweeperVariant::kWindowNotMultipleOfFrequency) {
    // The window that closed since the last trigger may still hold items
    // whose ttl passed after that trigger.
    windows.push_back(WindowOf(now - length));
  }
  windows.push_back(WindowOf(now));
  return windows;
}

json TtlWindowSweeper::QueryRequest(const std::string& window,
                                    int64_t now) const {
  return {
      {"TableName", config_.table},
      {"IndexName", config_.index},
      {"KeyConditionExpression", "#window = :window AND #ttl < :now"},
      {"ProjectionExpression", "#pk"},
      {"ExpressionAttributeNames",
       {{"#window", "expirationWindow"}, {"#ttl", "ttl"}, {"#pk", "pk"}}},
      {"ExpressionAttributeValues", {{":window", S(window)}, {":now", N(now)}}},
      {"ReturnConsumedCapacity", "TOTAL"}};
}

Result<bool> TtlWindowSweeper::QueryPage(json& request, std::vector<json>* keys,
                                         SweepReport* report) {
  auto page = backend_->Call("Query", request);
  if (!page.ok()) return page.error();
  ++report->pages;
  report->read_units += UnitsOf(page->value("ConsumedCapacity", json()));
  for (json& item : (*page)["Items"]) {
    // The projection asks for the key alone: the item is the key.
    if (item.is_object() && item.size() == 1 && item.contains("pk")) {
      keys->push_back(std::move(item));
      continue;
    }
    json key = json::object();
    key["pk"] = std::move(item["pk"]);
    keys->push_back(std::move(key));
  }
  if (!page->contains("LastEvaluatedKey") ||
      config_.variant == SweeperVariant::kNoPagination) {
    return false;
  }
  request["ExclusiveStartKey"] = (*page)["LastEvaluatedKey"];
  return true;
}

Result<std::vector<json>> TtlWindowSweeper::FindExpired(
    const std::string& window, int64_t now, SweepReport* report) {
  json request = QueryRequest(window, now);
  std::vector<json> keys;
  while (true) {
    DDBLAB_ASSIGN_OR_RETURN(bool more, QueryPage(request, &keys, report));
    if (!more) break;
  }
  report->found += static_cast<int>(keys.size());
  return keys;
}

json TtlWindowSweeper::ChunkRequest(std::vector<json>& keys, size_t begin,
                                    size_t end) const {
  // Built once and moved into place: the keys are not copied.
  json request = {{"RequestItems", json::object()},
                  {"ReturnConsumedCapacity", "TOTAL"}};
  json& writes = request["RequestItems"][config_.table];
  writes = json::array();
  auto& list = writes.get_ref<json::array_t&>();
  list.reserve(end - begin);
  for (size_t i = begin; i < end; ++i) {
    json::object_t del;
    del.emplace("Key", std::move(keys[i]));
    json::object_t write;
    write.emplace("DeleteRequest", std::move(del));
    list.emplace_back(std::move(write));
  }
  return request;
}

Result<bool> TtlWindowSweeper::BatchAttempt(json& request, int attempt,
                                            SweepReport* report,
                                            std::string* what) {
  if (attempt > 0) {
    const Duration wait = config_.backoff * (int64_t{1} << (attempt - 1));
    WaitFor(*backend_, wait);
    report->waited += wait;
  }
  const int sent =
      static_cast<int>(request["RequestItems"][config_.table].size());
  auto out = backend_->Call("BatchWriteItem", request);
  // DynamoDB throws instead of answering when it can process none of the
  // batch: every request is left, as if all came back unprocessed.
  const bool throttled = !out.ok() && Throttled(out.error());
  if (!out.ok() && !throttled) return out.error();
  ++report->batches;
  if (attempt > 0) ++report->retries;
  if (out.ok()) {
    report->write_units += UnitsOf(out->value("ConsumedCapacity", json()));
  }
  json unprocessed = throttled ? std::move(request["RequestItems"])
                               : std::move((*out)["UnprocessedItems"]);
  const int left = unprocessed.contains(config_.table)
                       ? static_cast<int>(unprocessed[config_.table].size())
                       : 0;
  report->deleted += sent - left;
  const std::string deleted = std::to_string(sent - left) + " deleted";
  if (left == 0) {
    *what = deleted;
    return true;
  }
  const std::string unprocessed_text =
      std::to_string(left) + (throttled ? " throttled" : " unprocessed");
  if (config_.variant == SweeperVariant::kNoUnprocessedRetry ||
      attempt >= config_.max_retries) {
    report->unprocessed_left += left;
    *what = deleted + ", " + unprocessed_text + " given up";
    return true;
  }
  request["RequestItems"] = std::move(unprocessed);
  *what = deleted + ", " + unprocessed_text + " retried next";
  return false;
}

Result<bool> TtlWindowSweeper::DeleteAttempt(const json& key, int64_t now,
                                             int attempt, SweepReport* report,
                                             std::string* what) {
  if (attempt > 0) {
    const Duration wait = config_.backoff * (int64_t{1} << (attempt - 1));
    WaitFor(*backend_, wait);
    report->waited += wait;
  }
  // Deleted only if still expired as of the sweep's now: a writer may have
  // extended the ttl since the Query read it.
  auto out = backend_->Call(
      "DeleteItem", {{"TableName", config_.table},
                     {"Key", {{"pk", key.contains("pk") ? key["pk"] : json()}}},
                     {"ConditionExpression", "#ttl < :now"},
                     {"ExpressionAttributeNames", {{"#ttl", "ttl"}}},
                     {"ExpressionAttributeValues", {{":now", N(now)}}},
                     {"ReturnConsumedCapacity", "TOTAL"}});
  if (!out.ok() && out.error().type != ErrorType::kConditionalCheckFailed &&
      !Throttled(out.error())) {
    return out.error();
  }
  ++report->delete_item_calls;
  if (attempt > 0) ++report->retries;
  if (out.ok()) {
    report->write_units += UnitsOf(out->value("ConsumedCapacity", json()));
    ++report->deleted;
    *what = "deleted";
    return true;
  }
  if (out.error().type == ErrorType::kConditionalCheckFailed) {
    ++report->kept;
    *what = "kept (its ttl is no longer before the sweep's now)";
    return true;
  }
  if (attempt >= config_.max_retries) {
    ++report->unprocessed_left;
    *what = "throttled, given up";
    return true;
  }
  *what = "throttled, retried next";
  return false;
}

Status TtlWindowSweeper::DeleteKeys(std::vector<json> keys, int64_t now,
                                    SweepReport* report) {
  std::string what;
  if (conditional()) {
    for (const json& key : keys) {
      for (int attempt = 0;; ++attempt) {
        DDBLAB_ASSIGN_OR_RETURN(
            bool finished, DeleteAttempt(key, now, attempt, report, &what));
        if (finished) break;
      }
    }
    return Status();
  }
  for (size_t begin = 0; begin < keys.size();
       begin += static_cast<size_t>(config_.chunk)) {
    const size_t end =
        std::min(keys.size(), begin + static_cast<size_t>(config_.chunk));
    json request = ChunkRequest(keys, begin, end);
    for (int attempt = 0;; ++attempt) {
      DDBLAB_ASSIGN_OR_RETURN(bool finished,
                              BatchAttempt(request, attempt, report, &what));
      if (finished) break;
    }
  }
  return Status();
}

Result<Problems> TtlWindowSweeper::Check(TimePoint swept_at) {
  auto items = ScanAll(*backend_, config_.table);
  if (!items.ok()) return items.error();
  const int64_t at = ToEpochSeconds(swept_at);
  Problems problems;
  for (const json& item : *items) {
    const std::string pk = item["pk"].value("S", item["pk"].dump());
    auto ttl = AsInt(item.value("ttl", json()));
    if (!ttl) {
      problems.push_back("item " + pk + " has no numeric ttl");
      continue;
    }
    const std::string window = item.value("expirationWindow", json())
                                   .value("S", std::string("(none)"));
    if (window != WindowOf(*ttl)) {
      problems.push_back("item " + pk + " has expirationWindow " + window +
                         " but its ttl " + std::to_string(*ttl) +
                         " is in window " + WindowOf(*ttl) +
                         " (no sweep will find it)");
    }
    if (*ttl < at) {
      problems.push_back("item " + pk + " expired at " + IsoSeconds(*ttl) +
                         " (window " + window + ") and is still there at " +
                         IsoSeconds(at));
    }
  }
  return problems;
}

}  // namespace ddblab::harness::patterns
