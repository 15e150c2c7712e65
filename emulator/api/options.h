// emulator/api/options.h: how an Emulator is built.
//
// Thread-safety: a plain value type, read once by Emulator::Open.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "emulator/api/clock.h"

namespace ddblab {

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
};

}  // namespace ddblab
