// emulator/api/options.h: how an Emulator is built.
//
// Thread-safety: a plain value type, read once by Emulator::Open.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "emulator/api/clock.h"
#include "emulator/api/lag.h"

namespace ddblab {

// Whether DynamoDB's throughput limits are enforced
// (engine/capacity/capacity_model.h).
enum class Capacity { kOff, kEnforce };

struct Options {
  // ":memory:" (the default) or a file path; a file database uses WAL mode
  // and keeps every acknowledged write across a crash.
  std::string db_path = ":memory:";
  // The clock everything reads. Null means a SystemClock owned by the
  // emulator.
  std::shared_ptr<Clock> clock;
  // Seed of the emulator's random generator.
  uint64_t seed = 0;
  std::string region = "us-east-1";
  std::string account_id = "000000000000";
  // How long tables stay CREATING / UPDATING / DELETING on the clock.
  // Zero (the default): tables are ACTIVE at once and deleted at once.
  Duration table_status_delay = Duration::zero();
  // DescribeEndpoints answers this address ("host:port"); empty means
  // "dynamodb.<region>.amazonaws.com". The HTTP server sets its own.
  std::string endpoint_address;
  // Minimum time between two successful UpdateTimeToLive changes of one
  // table ("Time to live has been modified multiple times within a fixed
  // interval"). AWS: about an hour (30 min observed). Zero disables it.
  Duration ttl_update_cooldown = Duration::zero();
  // How long after expiry a TTL deletion is due (engine/ttl/ttl_delay.h): "0"
  // (the first sweep after expiry; the default), fixed ("90s", "15m"),
  // uniform ("1m..48h") or "aws" (most within minutes, a tail up to 48 h).
  // Each item's delay comes from the seed and its key. Open fails with a
  // ValidationException on a bad spec.
  std::string ttl_delay = "0";
  // How often the background TTL sweeper runs; there is a sweeper thread
  // only on a SystemClock. With any other clock (ManualClock), due deletions
  // run when the clock moves and on Emulator::SweepTtl(), never because a
  // call arrived: an expired item stays readable until then.
  Duration ttl_sweep_interval = std::chrono::seconds(1);
  // DynamoDB Streams: open shards per stream (items are spread over them by
  // partition-key hash) and how long a shard stays open before it is closed
  // and replaced by a child (zero: never). Applied lazily on the clock.
  int stream_shards = 1;
  Duration shard_rollover = std::chrono::hours(4);
  // The fault plan in force from the start ({"rules": [...]}, see
  // emulator/fault/plan.h); null: none. Open fails with a
  // ValidationException naming the path of a bad plan.
  nlohmann::json fault_plan;
  // kEnforce applies provisioned / on-demand throughput, burst and
  // per-partition limits on the clock and throttles as DynamoDB does;
  // kOff (the default) changes nothing.
  Capacity capacity = Capacity::kOff;
  // Eventual consistency (api/lag.h, engine/consistency/): lagging global
  // secondary indexes and stale eventually consistent reads, seeded, on the
  // clock. Off by default.
  ConsistencyOptions consistency;
};

}  // namespace ddblab
