// harness/backend/inprocess_backend.cc: InProcessBackend, the one harness
// file that includes the emulator's API.
#include "harness/backend/inprocess_backend.h"

#include <charconv>
#include <string>
#include <utility>

#include "common/text/query_string.h"
#include "emulator/api/duration.h"
#include "emulator/api/emulator.h"
#include "emulator/api/lag.h"
#include "emulator/api/options.h"

namespace ddblab::harness {
namespace {

// A duration (emulator/api/duration.h), the option named in any error.
Result<Duration> ParseDurationValue(std::string_view key,
                                    std::string_view text) {
  Result<Duration> d = ParseDuration(text);
  if (!d.ok()) {
    return Error::Validation("emulator option " + std::string(key) + ": " +
                             d.error().message);
  }
  return d;
}

Result<int64_t> ParseInteger(std::string_view key, std::string_view text) {
  int64_t value = 0;
  auto [end, ec] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0) {
    return Error::Validation(
        "emulator option " + std::string(key) +
        ": not a non-negative integer: " + std::string(text));
  }
  return value;
}

// Owns its Emulator (OpenInProcessBackend) or borrows one (BorrowEmulator).
class InProcessBackend final : public Backend {
 public:
  InProcessBackend(std::unique_ptr<Emulator> emulator,
                   std::shared_ptr<ManualClock> manual)
      : owned_(std::move(emulator)),
        emulator_(owned_.get()),
        manual_(manual.get()) {}
  // The clock is kept alive by the emulator's Options.
  explicit InProcessBackend(Emulator& emulator)
      : emulator_(&emulator),
        manual_(dynamic_cast<ManualClock*>(&emulator.clock())) {}

  const std::string& name() const override { return name_; }
  Result<json> Call(std::string_view operation, const json& request) override {
    return emulator_->Call(operation, request);
  }
  Result<json> CallStreams(std::string_view operation,
                           const json& request) override {
    return emulator_->CallStreams(operation, request);
  }
  Clock& clock() override { return emulator_->clock(); }

  bool Has(Capability capability) const override {
    switch (capability) {
      case Capability::kClock:
        return manual_ != nullptr;
      case Capability::kStreamShards:
      case Capability::kTtlSweep:
      case Capability::kFaultPlan:
      case Capability::kReset:
      case Capability::kConsistency:
      case Capability::kFaultDraws:
        return true;
    }
    return false;
  }

  Status SetFaultPlan(const json& plan) override {
    return emulator_->SetFaultPlan(plan);
  }
  Status SetFaultDrawHook(FaultDrawHook hook) override {
    emulator_->SetFaultDrawHook(std::move(hook));
    return OkStatus();
  }

  Status AdvanceClock(Duration d) override {
    if (!manual_) return NoControl(Capability::kClock);
    if (d < Duration::zero()) {
      return Error::Validation("cannot move the clock backwards");
    }
    manual_->Advance(d);
    return OkStatus();
  }
  Status SetClock(TimePoint t) override {
    if (!manual_) return NoControl(Capability::kClock);
    if (!manual_->Set(t)) {
      return Error::Validation("cannot move the clock backwards");
    }
    return OkStatus();
  }
  Result<json> SplitStreamShards(
      std::string_view table,
      const std::optional<std::string>& shard_id) override {
    DDBLAB_ASSIGN_OR_RETURN(StreamShardSplit split,
                            emulator_->SplitStreamShards(table, shard_id));
    return json{{"closed", split.closed}, {"created", split.created}};
  }
  Result<int64_t> SweepTtl() override { return emulator_->SweepTtl(); }
  Status Reset(const ResetSpec& spec) override {
    if (spec.clock && !manual_) return NoControl(Capability::kClock);
    return emulator_->Reset(ResetOptions{spec.clock, spec.seed, spec.ttl_delay,
                                         spec.stream_shards,
                                         spec.shard_rollover});
  }
  Status SetConsistency(const json& settings) override {
    return emulator_->SetConsistency(settings);
  }
  Result<int64_t> SettleConsistency() override {
    return emulator_->SettleConsistency();
  }

 private:
  std::string name_ = "emulator";
  std::unique_ptr<Emulator> owned_;  // null when borrowed
  Emulator* emulator_;
  ManualClock* manual_;  // null on any other clock
};

}  // namespace

Result<std::unique_ptr<Backend>> OpenInProcessBackend(std::string_view query) {
  Options options;
  std::shared_ptr<ManualClock> manual;
  for (const auto& [key, value] : text::SplitQuery(query)) {
    if (key == "clock") {
      if (value == "system") {
        options.clock = nullptr;
        manual = nullptr;
      } else if (value == "manual") {
        manual = std::make_shared<ManualClock>();
      } else if (value.starts_with("manual=")) {
        DDBLAB_ASSIGN_OR_RETURN(int64_t epoch,
                                ParseInteger(key, value.substr(7)));
        manual = std::make_shared<ManualClock>(FromEpochSeconds(epoch));
      } else {
        return Error::Validation(
            "emulator option clock: expected system, manual or "
            "manual=EPOCH_SECONDS, got " +
            std::string(value));
      }
      options.clock = manual;
    } else if (key == "seed") {
      DDBLAB_ASSIGN_OR_RETURN(int64_t seed, ParseInteger(key, value));
      options.seed = static_cast<uint64_t>(seed);
    } else if (key == "ttl_delay") {
      options.ttl_delay = std::string(value);
    } else if (key == "stream_shards") {
      DDBLAB_ASSIGN_OR_RETURN(int64_t shards, ParseInteger(key, value));
      if (shards < 1 || shards > 1024) {
        return Error::Validation(
            "emulator option stream_shards: must be 1..1024, got " +
            std::string(value));
      }
      options.stream_shards = static_cast<int>(shards);
    } else if (key == "shard_rollover") {
      if (value == "off" || value == "0") {
        options.shard_rollover = Duration::zero();
      } else {
        DDBLAB_ASSIGN_OR_RETURN(options.shard_rollover,
                                ParseDurationValue(key, value));
      }
    } else if (key == "capacity") {
      if (value != "off" && value != "enforce") {
        return Error::Validation(
            "emulator option capacity: expected off or enforce, got " +
            std::string(value));
      }
      options.capacity =
          value == "enforce" ? Capacity::kEnforce : Capacity::kOff;
    } else if (key == "index_lag" || key == "read_lag") {
      Result<LagRange> lag = ParseLagRange(value);
      if (!lag.ok()) {
        return Error::Validation("emulator option " + std::string(key) + ": " +
                                 lag.error().message);
      }
      (key == "index_lag" ? options.consistency.index_lag
                          : options.consistency.read_lag) = *lag;
    } else if (key == "region") {
      options.region = std::string(value);
    } else if (key == "db") {
      options.db_path = std::string(value);
    } else {
      return Error::Validation(
          "unknown emulator option " + std::string(key) +
          " (clock, seed, ttl_delay, stream_shards, shard_rollover, "
          "capacity, index_lag, read_lag, region, db)");
    }
  }
  DDBLAB_ASSIGN_OR_RETURN(std::unique_ptr<Emulator> emulator,
                          Emulator::Open(std::move(options)));
  return std::unique_ptr<Backend>(
      new InProcessBackend(std::move(emulator), std::move(manual)));
}

std::unique_ptr<Backend> BorrowEmulator(Emulator& emulator) {
  return std::make_unique<InProcessBackend>(emulator);
}

}  // namespace ddblab::harness
