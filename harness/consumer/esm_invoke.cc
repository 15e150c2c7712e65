// harness/consumer/esm_invoke.cc: batching, invocation and the handling of
// the function's answer: success, function error, partial batch response,
// bisection, retries, discards and tumbling windows (see esm.h).
#include <algorithm>
#include <utility>

#include "harness/consumer/esm.h"
#include "harness/consumer/event.h"

namespace ddblab::harness::consumer {
namespace {

constexpr size_t kMaxPayloadBytes = 6 * 1024 * 1024;
constexpr size_t kEnvelopeBytes = 16;  // {"Records":[...]}
constexpr size_t kMaxStateBytes = 1024 * 1024;
// A stream keeps records 24 hours; with MaximumRecordAgeInSeconds -1 a batch
// is retried until its records leave the stream.
constexpr int64_t kRetentionSeconds = 24 * 3600;
constexpr const char* kFailed = "PROBLEM: Function call failed";

}  // namespace

int64_t EventSourceMapping::WindowOf(const Record& r) const {
  int64_t w = config_.tumbling_window_in_seconds;
  return w <= 0 ? 0 : (r.created / w) * w;
}

json EventSourceMapping::WindowFields(const Shard& shard, const Lane& lane,
                                      bool final) const {
  int64_t start = lane.tw_start.value_or(0);
  return {
      {"window",
       {{"start", IsoTime(FromEpochSeconds(start), false)},
        {"end",
         IsoTime(FromEpochSeconds(start + config_.tumbling_window_in_seconds),
                 false)}}},
      {"state", lane.tw_state},
      {"shardId", shard.id},
      {"eventSourceARN", stream_arn_},
      {"isFinalInvokeForWindow", final},
      {"isWindowTerminatedEarly", final && lane.tw_terminated_early}};
}

bool EventSourceMapping::BatchDue(const Lane& lane) const {
  if (lane.pending.empty()) return false;
  if (config_.tumbling_window_in_seconds > 0 && lane.tw_start &&
      WindowOf(lane.pending.front()) != *lane.tw_start) {
    return false;  // the open window gets its final invocation first
  }
  if (static_cast<int64_t>(lane.pending.size()) >= config_.batch_size) {
    return true;
  }
  size_t bytes = kEnvelopeBytes;
  for (const Record& r : lane.pending) {
    bytes += r.bytes + 1;
    if (bytes >= kMaxPayloadBytes) return true;
  }
  if (config_.maximum_batching_window_in_seconds == 0) return true;
  TimePoint opened = lane.window_opened.value_or(Now());
  return Now() - opened >=
         std::chrono::seconds(config_.maximum_batching_window_in_seconds);
}

void EventSourceMapping::FormBatch(Lane& lane) {
  Segment seg;
  size_t bytes = kEnvelopeBytes;
  bool tumbling = config_.tumbling_window_in_seconds > 0;
  int64_t window = WindowOf(lane.pending.front());
  while (!lane.pending.empty() &&
         static_cast<int64_t>(seg.records.size()) < config_.batch_size) {
    const Record& r = lane.pending.front();
    if (tumbling && WindowOf(r) != window) break;
    if (!seg.records.empty() && bytes + r.bytes + 1 > kMaxPayloadBytes) break;
    bytes += r.bytes + 1;
    seg.records.push_back(std::move(lane.pending.front()));
    lane.pending.pop_front();
  }
  if (tumbling && !lane.tw_start) lane.tw_start = window;
  lane.stack.push_back(std::move(seg));
}

bool EventSourceMapping::StepLane(Shard& shard, Lane& lane) {
  int64_t w = config_.tumbling_window_in_seconds;
  int64_t max_age =
      config_.maximum_record_age_in_seconds < 0
          ? kRetentionSeconds
          : std::min(config_.maximum_record_age_in_seconds, kRetentionSeconds);
  while (true) {
    if (w > 0 && lane.tw_start && lane.stack.empty()) {
      bool next_window = !lane.pending.empty() &&
                         WindowOf(lane.pending.front()) != *lane.tw_start;
      bool drained = lane.pending.empty() || next_window;
      bool ended = ToEpochSeconds(Now()) >= *lane.tw_start + w ||
                   (shard.reading_done && lane.pending.empty());
      if (lane.tw_terminated_early || next_window || (drained && ended)) {
        return InvokeFinal(shard, lane);
      }
    }
    if (lane.stack.empty()) {
      if (!BatchDue(lane)) return false;
      FormBatch(lane);
    }
    Segment& seg = lane.stack.back();
    int64_t now = ToEpochSeconds(Now());
    size_t expired = 0;
    while (expired < seg.records.size() &&
           now - seg.records[expired].created > max_age) {
      ++expired;
    }
    if (expired > 0) {
      // Condition name for age discards: UNVERIFIED (Lambda documents only
      // RetryAttemptsExhausted); LocalStack writes RecordAgeExceeded.
      Discard(shard, lane, expired, "RecordAgeExceeded");
      continue;
    }
    return InvokeTop(shard, lane);
  }
}

bool EventSourceMapping::InvokeTop(Shard& shard, Lane& lane) {
  Segment& seg = lane.stack.back();
  // The records are moved into the event and back after the invocation
  // (the function sees them as const), not copied.
  json records = json::array();
  records.get_ref<json::array_t&>().reserve(seg.records.size());
  for (Record& r : seg.records) records.push_back(std::move(r.event));
  json event = {{"Records", std::move(records)}};
  bool tumbling = config_.tumbling_window_in_seconds > 0;
  if (tumbling) event.update(WindowFields(shard, lane, false));
  Invocation inv = function_->Invoke(event);
  json& delivered = event["Records"];
  for (size_t i = 0; i < seg.records.size(); ++i) {
    seg.records[i].event = std::move(delivered[i]);
  }
  if (inv.kind == Invocation::Kind::kNotDelivered) {
    // Never reached the function: retried, not counted as an attempt.
    ++metrics_.not_delivered;
    last_result_ = kFailed;
    return false;
  }
  ++metrics_.invocations;
  metrics_.records_delivered += static_cast<int64_t>(seg.records.size());
  metrics_.iterator_age_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(
          Now() - FromEpochSeconds(seg.records.back().created))
          .count();
  if (inv.kind == Invocation::Kind::kFunctionError) {
    ++metrics_.function_errors;
    Fail(shard, lane);
    return true;
  }
  const json& resp = inv.response;
  if (tumbling && !(resp.is_object() && resp.contains("state") &&
                    resp["state"].is_object())) {
    // With a tumbling window a response without state is a failure.
    ++metrics_.function_errors;
    Fail(shard, lane);
    return true;
  }
  size_t ok_count = seg.records.size();
  bool complete_failure = false;
  if (config_.report_batch_item_failures && resp.is_object() &&
      resp.contains("batchItemFailures")) {
    const json& failures = resp["batchItemFailures"];
    if (!failures.is_null() && !failures.is_array()) {
      complete_failure = true;
    } else if (failures.is_array()) {
      for (const json& f : failures) {
        auto id = f.is_object() ? f.find("itemIdentifier") : f.end();
        if (!f.is_object() || id == f.end() || !id->is_string() ||
            id->get<std::string>().empty()) {
          complete_failure = true;
          break;
        }
        auto hit = std::find_if(
            seg.records.begin(), seg.records.end(), [&](const Record& r) {
              return r.sequence_number == id->get<std::string>();
            });
        if (hit == seg.records.end()) {
          // An identifier not in the batch fails the whole batch (newer
          // Lambda docs; UNVERIFIED).
          complete_failure = true;
          break;
        }
        ok_count =
            std::min(ok_count, static_cast<size_t>(hit - seg.records.begin()));
      }
    }
  }
  if (tumbling) lane.tw_state = resp["state"];
  if (complete_failure) {
    ++metrics_.partial_failures;
    Fail(shard, lane);
    return true;
  }
  last_result_ = "OK";
  if (ok_count == seg.records.size()) {
    Succeed(shard, lane, ok_count);
    return true;
  }
  // Partial failure: checkpoint before the lowest reported record; it and
  // everything after it (successes included) are retried. Counts as an
  // attempt (UNVERIFIED; LocalStack counts it).
  ++metrics_.partial_failures;
  Succeed(shard, lane, ok_count);
  Segment& rest = lane.stack.back();
  ++rest.attempts;
  if (config_.maximum_retry_attempts >= 0 &&
      rest.attempts > config_.maximum_retry_attempts) {
    Discard(shard, lane, rest.records.size(), "RetryAttemptsExhausted");
  } else {
    ++metrics_.retries;
  }
  return true;
}

bool EventSourceMapping::InvokeFinal(Shard& shard, Lane& lane) {
  json event = {{"Records", json::array()}};
  event.update(WindowFields(shard, lane, true));
  Invocation inv = function_->Invoke(event);
  if (inv.kind == Invocation::Kind::kNotDelivered) {
    ++metrics_.not_delivered;
    last_result_ = kFailed;
    return false;
  }
  ++metrics_.invocations;
  if (inv.kind == Invocation::Kind::kFunctionError) {
    // The shard waits until the final invocation succeeds.
    ++metrics_.function_errors;
    ++metrics_.retries;
    last_result_ = kFailed;
    return true;
  }
  last_result_ = "OK";
  lane.tw_start.reset();
  lane.tw_state = json::object();
  lane.tw_terminated_early = false;
  return true;
}

void EventSourceMapping::Succeed(Shard& shard, Lane& lane, size_t count) {
  Segment& seg = lane.stack.back();
  for (size_t i = 0; i < count; ++i) {
    shard.outstanding.erase(seg.records[i].ordinal);
  }
  seg.records.erase(seg.records.begin(),
                    seg.records.begin() + static_cast<std::ptrdiff_t>(count));
  if (seg.records.empty()) {
    lane.stack.pop_back();
    // The next batching window starts when the invocation completes.
    if (lane.stack.empty()) lane.window_opened = Now();
  }
  if (config_.tumbling_window_in_seconds > 0 &&
      lane.tw_state.dump().size() > kMaxStateBytes) {
    lane.tw_terminated_early = true;
  }
}

void EventSourceMapping::Fail(Shard& shard, Lane& lane) {
  last_result_ = kFailed;
  Segment& seg = lane.stack.back();
  if (config_.bisect_batch_on_function_error && seg.records.size() > 1) {
    // Split in two, first half first; splitting is not a retry attempt.
    ++metrics_.bisections;
    Segment first, second;
    size_t half = seg.records.size() / 2;
    for (size_t i = 0; i < seg.records.size(); ++i) {
      (i < half ? first : second).records.push_back(std::move(seg.records[i]));
    }
    lane.stack.pop_back();
    lane.stack.push_back(std::move(second));
    lane.stack.push_back(std::move(first));
    return;
  }
  ++seg.attempts;
  if (config_.maximum_retry_attempts >= 0 &&
      seg.attempts > config_.maximum_retry_attempts) {
    Discard(shard, lane, seg.records.size(), "RetryAttemptsExhausted");
    return;
  }
  ++metrics_.retries;
}

void EventSourceMapping::Discard(Shard& shard, Lane& lane, size_t count,
                                 const std::string& condition) {
  Segment& seg = lane.stack.back();
  DiscardedBatch b;
  b.condition = condition;
  b.invoke_count = seg.attempts;
  b.request_id = NewUuid();
  b.function_arn = FunctionArn(config_.function_name, stream_arn_);
  b.shard_id = shard.id;
  b.stream_arn = stream_arn_;
  b.first_sequence_number = seg.records.front().sequence_number;
  b.last_sequence_number = seg.records[count - 1].sequence_number;
  b.first_created = seg.records.front().created;
  b.last_created = seg.records[count - 1].created;
  b.batch_size = static_cast<int64_t>(count);
  failures_.push_back(OnFailureRecord(b, Now()));
  metrics_.records_discarded += static_cast<int64_t>(count);
  Succeed(shard, lane, count);  // moves the checkpoint past them
}

}  // namespace ddblab::harness::consumer
