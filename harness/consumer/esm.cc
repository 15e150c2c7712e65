// harness/consumer/esm.cc: discovery, polling and the main loop of an event
// source mapping (see esm.h). Invocation and result handling live in
// esm_invoke.cc.
#include "harness/consumer/esm.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "harness/consumer/event.h"

namespace ddblab::harness::consumer {

json EsmMetrics::ToJson() const {
  return {{"Invocations", invocations},
          {"FunctionErrors", function_errors},
          {"PartialFailures", partial_failures},
          {"NotDelivered", not_delivered},
          {"Retries", retries},
          {"Bisections", bisections},
          {"RecordsDelivered", records_delivered},
          {"RecordsFiltered", records_filtered},
          {"RecordsDiscarded", records_discarded},
          {"IteratorAgeMilliseconds", iterator_age_ms}};
}

EventSourceMapping::EventSourceMapping(Backend& backend, EsmConfig config,
                                       std::unique_ptr<Function> function,
                                       uint64_t seed)
    : backend_(backend),
      config_(std::move(config)),
      function_(std::move(function)),
      rng_(seed) {
  // The config was validated, so the patterns compile.
  auto filters = FilterSet::Compile(config_.filter_patterns);
  if (filters.ok()) filters_ = std::move(*filters);
  uuid_ = NewUuid();
  stream_arn_ = config_.event_source_arn;
  last_modified_ = ToEpochSeconds(Now());
}

std::string EventSourceMapping::NewUuid() {
  uint64_t a = rng_.Next(), b = rng_.Next();
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%08x-%04x-4%03x-%04x-%012llx",
                static_cast<unsigned>(a >> 32),
                static_cast<unsigned>((a >> 16) & 0xffff),
                static_cast<unsigned>(a & 0xfff),
                static_cast<unsigned>(((b >> 48) & 0x3fff) | 0x8000),
                static_cast<unsigned long long>(b & 0xffffffffffffULL));
  return buf;
}

std::string EventSourceMapping::State() const {
  return config_.enabled ? "Enabled" : "Disabled";
}

json EventSourceMapping::Describe() const {
  json out = ConfigToJson(config_);
  out["EventSourceArn"] = stream_arn_;
  out["UUID"] = uuid_;
  out["FunctionArn"] = FunctionArn(config_.function_name, stream_arn_);
  out["LastModified"] = last_modified_;
  out["LastProcessingResult"] = last_result_;
  out["State"] = State();
  out["StateTransitionReason"] = "User action";
  out["Metrics"] = metrics_.ToJson();
  return out;
}

Status EventSourceMapping::Update(const json& request) {
  DDBLAB_ASSIGN_OR_RETURN(EsmConfig updated, UpdateEsmConfig(config_, request));
  DDBLAB_ASSIGN_OR_RETURN(FilterSet filters,
                          FilterSet::Compile(updated.filter_patterns));
  config_ = std::move(updated);
  filters_ = std::move(filters);
  last_modified_ = ToEpochSeconds(Now());
  return OkStatus();
}

std::optional<std::string> EventSourceMapping::Checkpoint(
    const std::string& shard_id) const {
  auto it = shards_.find(shard_id);
  if (it == shards_.end()) return std::nullopt;
  const Shard& s = it->second;
  if (s.sequence_numbers.empty()) return std::nullopt;
  if (s.outstanding.empty()) return s.sequence_numbers.back();
  uint64_t first = *s.outstanding.begin();
  if (first == 0) return std::nullopt;
  return s.sequence_numbers[first - 1];
}

std::vector<std::string> EventSourceMapping::Shards() const {
  return shard_order_;
}

bool EventSourceMapping::HasOutstanding() const {
  for (const auto& [id, shard] : shards_) {
    if (!shard.outstanding.empty()) return true;
    for (const Lane& lane : shard.lanes) {
      if (!lane.pending.empty() || !lane.stack.empty() || lane.tw_start) {
        return true;
      }
    }
  }
  return false;
}

Status EventSourceMapping::Start() {
  if (stream_arn_.empty()) {
    DDBLAB_ASSIGN_OR_RETURN(
        json table,
        backend_.Call("DescribeTable", {{"TableName", config_.table_name}}));
    const json& t = table["Table"];
    if (!t.contains("LatestStreamArn") || !t.contains("StreamSpecification")) {
      // ddblab's text (Lambda takes a stream ARN, never a table name).
      return InvalidParameter("Table " + config_.table_name +
                              " has no enabled stream");
    }
    stream_arn_ = t["LatestStreamArn"].get<std::string>();
    config_.event_source_arn = stream_arn_;
  }
  started_ = true;
  return OkStatus();
}

Status EventSourceMapping::DiscoverPage(bool* more) {
  const bool initial = discover_initial_;
  json req = {{"StreamArn", stream_arn_}};
  if (discover_after_) req["ExclusiveStartShardId"] = *discover_after_;
  DDBLAB_ASSIGN_OR_RETURN(json out,
                          backend_.CallStreams("DescribeStream", req));
  const json& desc = out["StreamDescription"];
  if (hash_key_.empty() && desc.contains("KeySchema")) {
    for (const json& k : desc["KeySchema"]) {
      if (k.value("KeyType", "") == "HASH") {
        hash_key_ = k.value("AttributeName", "");
      }
    }
  }
  for (const json& sj : desc.value("Shards", json::array())) {
    std::string id = sj.value("ShardId", "");
    if (id.empty() || shards_.count(id)) continue;
    Shard s;
    s.id = id;
    s.parent = sj.value("ParentShardId", "");
    bool open = !sj["SequenceNumberRange"].contains("EndingSequenceNumber");
    if (initial && config_.starting_position == "LATEST") {
      // LATEST: only what is written after the mapping starts reading;
      // shards already closed hold nothing new.
      if (open) {
        s.use_latest = true;
      } else {
        s.done = true;
        s.reading_done = true;
      }
    }
    s.lanes.resize(static_cast<size_t>(config_.parallelization_factor));
    shard_order_.push_back(id);
    shards_.emplace(id, std::move(s));
  }
  *more = desc.contains("LastEvaluatedShardId");
  if (*more) {
    discover_after_ = desc["LastEvaluatedShardId"].get<std::string>();
  } else {
    initial_discovery_done_ = true;
  }
  return OkStatus();
}

size_t EventSourceMapping::LaneOf(const json& record) const {
  if (config_.parallelization_factor <= 1) return 0;
  std::string key;
  const json& keys = record["dynamodb"]["Keys"];
  if (!hash_key_.empty() && keys.contains(hash_key_)) {
    key = keys[hash_key_].dump();
  } else {
    key = keys.dump();
  }
  return static_cast<size_t>(
      Rng::Hash(0, key) %
      static_cast<uint64_t>(config_.parallelization_factor));
}

Status EventSourceMapping::ReadIterator(Shard& shard) {
  json req = {{"StreamArn", stream_arn_}, {"ShardId", shard.id}};
  if (!shard.sequence_numbers.empty()) {
    req["ShardIteratorType"] = "AFTER_SEQUENCE_NUMBER";
    req["SequenceNumber"] = shard.sequence_numbers.back();
  } else {
    req["ShardIteratorType"] = shard.use_latest ? "LATEST" : "TRIM_HORIZON";
  }
  auto out = backend_.CallStreams("GetShardIterator", req);
  if (!out.ok() && out.error().type == ErrorType::kTrimmedDataAccess) {
    req.erase("SequenceNumber");
    req["ShardIteratorType"] = "TRIM_HORIZON";
    out = backend_.CallStreams("GetShardIterator", req);
  }
  if (!out.ok()) return out.error();
  shard.iterator = (*out)["ShardIterator"].get<std::string>();
  shard.use_latest = false;
  return OkStatus();
}

Status EventSourceMapping::PollOnce(Shard& shard, bool* finished,
                                    std::string* what) {
  *finished = true;
  if (shard.reading_done || poll_reads_ >= 64) return OkStatus();
  const size_t cap =
      static_cast<size_t>(std::max<int64_t>(config_.batch_size, 1000) *
                          config_.parallelization_factor);
  size_t pending = 0;
  for (const Lane& l : shard.lanes) pending += l.pending.size();
  if (pending >= cap) return OkStatus();
  *finished = false;
  if (shard.iterator.empty()) {
    *what = "GetShardIterator " + shard.id;
    Status s = ReadIterator(shard);
    if (!s.ok()) {
      if (s.error().type == ErrorType::kResourceNotFound) {
        // The shard is gone (trimmed): nothing more to read from it.
        shard.reading_done = true;
        *finished = true;
        return OkStatus();
      }
      return s;
    }
    return OkStatus();
  }
  ++poll_reads_;
  auto out = backend_.CallStreams(
      "GetRecords", {{"ShardIterator", shard.iterator}, {"Limit", 1000}});
  if (!out.ok()) {
    ErrorType t = out.error().type;
    if (t == ErrorType::kExpiredIterator ||
        t == ErrorType::kTrimmedDataAccess) {
      *what = "GetRecords " + shard.id + ": " + std::string(out.error().Name());
      shard.iterator.clear();
      return OkStatus();
    }
    return out.error();
  }
  json& records = (*out)["Records"];
  *what = "GetRecords " + shard.id + ": " + std::to_string(records.size()) +
          " records";
  for (json& r : records) {
    Record rec;
    rec.sequence_number = r["dynamodb"].value("SequenceNumber", "");
    rec.created = static_cast<int64_t>(
        r["dynamodb"].value("ApproximateCreationDateTime", 0.0));
    rec.event = ToLambdaRecord(std::move(r), stream_arn_);
    rec.bytes = SerializedSize(rec.event);
    rec.ordinal = shard.sequence_numbers.size();
    shard.sequence_numbers.push_back(rec.sequence_number);
    // Filtering happens per record before it enters a batch; a dropped
    // record is never outstanding, so the checkpoint moves past it.
    if (!filters_.Match(rec.event)) {
      ++metrics_.records_filtered;
      continue;
    }
    shard.outstanding.insert(rec.ordinal);
    Lane& lane = shard.lanes[LaneOf(rec.event)];
    if (lane.pending.empty() && lane.stack.empty()) {
      lane.window_opened = Now();
    }
    lane.pending.push_back(std::move(rec));
  }
  if (!out->contains("NextShardIterator") ||
      (*out)["NextShardIterator"].is_null()) {
    shard.reading_done = true;
    shard.iterator.clear();
    *finished = true;
    return OkStatus();
  }
  shard.iterator = (*out)["NextShardIterator"].get<std::string>();
  if (records.empty()) *finished = true;
  return OkStatus();
}

void EventSourceMapping::Rebalance(Shard& shard) {
  size_t want = static_cast<size_t>(config_.parallelization_factor);
  if (shard.lanes.size() == want) return;
  for (const Lane& l : shard.lanes) {
    if (!l.stack.empty() || l.tw_start) return;  // wait until idle
  }
  std::vector<Record> all;
  for (Lane& l : shard.lanes) {
    for (Record& r : l.pending) all.push_back(std::move(r));
  }
  std::sort(all.begin(), all.end(), [](const Record& a, const Record& b) {
    return a.ordinal < b.ordinal;
  });
  shard.lanes.assign(want, Lane{});
  for (Record& r : all) {
    Lane& lane = shard.lanes[LaneOf(r.event)];
    if (lane.pending.empty()) lane.window_opened = Now();
    lane.pending.push_back(std::move(r));
  }
}

Result<int64_t> EventSourceMapping::RunOnce() {
  int64_t invoked = 0;
  while (true) {
    DDBLAB_ASSIGN_OR_RETURN(RoundStep step, StepRound());
    invoked += step.invocations;
    if (step.round_over) return invoked;
  }
}

void EventSourceMapping::SkipIdle(RoundStep* out) {
  while (true) {
    if (stage_ == Stage::kShard) {
      if (shard_pos_ >= shard_order_.size()) {
        stage_ = Stage::kBegin;
        out->round_over = true;
        return;
      }
      Shard& shard = shards_.at(shard_order_[shard_pos_]);
      bool skip = shard.done;
      if (!skip && !shard.parent.empty()) {
        auto parent = shards_.find(shard.parent);
        // A parent no longer listed (trimmed) does not hold its children.
        skip = parent != shards_.end() && !parent->second.done;
      }
      if (skip) {
        ++shard_pos_;
        continue;
      }
      stage_ = Stage::kPoll;
      poll_reads_ = 0;
      return;
    }
    if (stage_ != Stage::kLanes) return;
    Shard& shard = shards_.at(shard_order_[shard_pos_]);
    // A lane with nothing pending, in flight or in a window does nothing.
    while (lane_pos_ < shard.lanes.size()) {
      const Lane& lane = shard.lanes[lane_pos_];
      if (!lane.pending.empty() || !lane.stack.empty() || lane.tw_start) {
        return;
      }
      ++lane_pos_;
    }
    bool idle = true;
    for (const Lane& lane : shard.lanes) {
      if (!lane.pending.empty() || !lane.stack.empty() || lane.tw_start) {
        idle = false;
      }
    }
    if (idle && shard.reading_done) shard.done = true;
    ++shard_pos_;
    stage_ = Stage::kShard;
  }
}

Result<EventSourceMapping::RoundStep> EventSourceMapping::StepRound() {
  RoundStep out;
  const auto abandon = [&](const Error& e) -> Error {
    stage_ = Stage::kBegin;
    return e;
  };
  while (true) {
    switch (stage_) {
      case Stage::kBegin: {
        if (!config_.enabled) {
          out.what = "disabled";
          out.round_over = true;
          return out;
        }
        stage_ = Stage::kDiscover;
        discover_after_.reset();
        discover_initial_ = !initial_discovery_done_;
        shard_pos_ = 0;
        if (!started_) {
          Status s = Start();
          if (!s.ok()) return abandon(s.error());
          out.what = "DescribeTable";
          return out;
        }
        continue;
      }
      case Stage::kDiscover: {
        bool more = false;
        Status s = DiscoverPage(&more);
        if (!s.ok()) return abandon(s.error());
        out.what = "DescribeStream";
        if (!more) {
          stage_ = Stage::kShard;
          SkipIdle(&out);
        }
        return out;
      }
      case Stage::kShard:
        SkipIdle(&out);
        if (out.round_over) return out;
        continue;
      case Stage::kPoll: {
        Shard& shard = shards_.at(shard_order_[shard_pos_]);
        bool finished = false;
        std::string what;
        Status s = PollOnce(shard, &finished, &what);
        if (!s.ok()) return abandon(s.error());
        if (finished) {
          Rebalance(shard);
          stage_ = Stage::kLanes;
          lane_pos_ = 0;
          SkipIdle(&out);
        }
        if (!what.empty()) {
          out.what = what;
          return out;
        }
        if (out.round_over) return out;
        continue;
      }
      case Stage::kLanes: {
        Shard& shard = shards_.at(shard_order_[shard_pos_]);
        const size_t lane = lane_pos_++;
        const bool invoked = StepLane(shard, shard.lanes[lane]);
        SkipIdle(&out);
        if (invoked) {
          out.invocations = 1;
          out.what = "invoke " + shard.id + " lane " + std::to_string(lane);
          return out;
        }
        if (out.round_over) return out;
        continue;
      }
    }
  }
}

Result<int64_t> EventSourceMapping::RunUntilIdle(int64_t max_rounds) {
  int64_t total = 0;
  for (int64_t i = 0; i < max_rounds; ++i) {
    DDBLAB_ASSIGN_OR_RETURN(int64_t n, RunOnce());
    if (n == 0) {
      // A round can finish a parent shard without invoking; its children
      // are read in the next round.
      DDBLAB_ASSIGN_OR_RETURN(int64_t again, RunOnce());
      if (again == 0) break;
      n = again;
    }
    total += n;
  }
  return total;
}

}  // namespace ddblab::harness::consumer
