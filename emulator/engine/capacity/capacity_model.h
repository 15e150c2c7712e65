// emulator/engine/capacity/capacity_model.h: DynamoDB's throughput limits on
// the emulator's clock (Options.capacity = kEnforce).
//
// Per table and per global secondary index ("resource"), separate read and
// write token buckets (LSIs draw on their table's):
//   - PROVISIONED: refilled at the provisioned units per second, holding up
//     to 300 s of unused capacity (burst); a new bucket starts full.
//   - PAY_PER_REQUEST: at most the allowed rate in each clock second (no
//     burst). Allowed = min(max(base, 2 x previous peak), 40,000) where base
//     is 4,000 write / 12,000 read units per second (or the highest
//     throughput ever provisioned on the table, when it was switched from
//     PROVISIONED) and the previous peak is the highest consumption of one
//     clock second that ended at least 30 minutes ago — ddblab's reading of
//     "up to double the previous peak; more can throttle within 30 minutes".
//     A WarmThroughput value raises the base; an OnDemandThroughput maximum
//     throttles above it (reason *MaxOnDemandThroughputExceeded).
//   - per partition: every partition-key value of the table and of each GSI
//     is its own partition, limited to 3,000 read and 1,000 write units in
//     each clock second (no burst): an item of S KB written R times a
//     second throttles exactly when R x ceil(S) > 1,000.
// Provisioned rates and billing mode are read from the Table snapshot at
// every admission, so UpdateTable changes apply at once (tokens are kept,
// capped at the new size; a billing-mode switch starts fresh buckets).
//
// Admit() takes every charge of one request (table, GSIs, partitions) or
// none: a throttled request consumes nothing. Refund() gives back what a
// request took when it then failed (the dispatch seam does that).
// Buckets and windows count nano-units (units x 1e9) in integers: a
// ManualClock gives the same throttles every time.
//
// Usage is recorded per clock second (the ConsumedRead/WriteCapacityUnits
// series CloudWatch would show; the last hour is kept) with the throttled
// requests per reason: Report().
//
// Thread-safety: every method is safe from many threads (one mutex).
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "emulator/api/clock.h"
#include "emulator/engine/table.h"
#include "emulator/fault/throttle.h"

namespace ddblab::engine {

// One piece of a request's consumption.
struct CapacityCharge {
  int64_t index_id = 0;  // 0: the table (and its LSIs); else a GSI's id
  bool write = false;
  std::string partition;  // partition key bytes; "" = no partition limit
  double units = 0;
  // Counts against `partition` alone, not the resource's own rate (a Scan's
  // per-partition share; the page's total is charged separately).
  bool partition_only = false;
};

struct CapacityRejection {
  bool on_demand = false;
  std::vector<fault::ThrottleCause> causes;  // the limits exceeded
};

class CapacityModel {
 public:
  static constexpr int64_t kPartitionReadUnits = 3000;
  static constexpr int64_t kPartitionWriteUnits = 1000;
  static constexpr int64_t kOnDemandReadBase = 12000;
  static constexpr int64_t kOnDemandWriteBase = 4000;
  static constexpr int64_t kTableQuota = 40000;
  static constexpr int64_t kBurstSeconds = 300;

  // Takes all `charges` of one request against `table`, or none (and then
  // says which limits it exceeded and counts the throttle).
  std::optional<CapacityRejection> Admit(
      const Table& table, const std::vector<CapacityCharge>& charges,
      TimePoint now);
  // Gives back charges that Admit took at `taken` (the request failed).
  void Refund(int64_t table_id, const std::vector<CapacityCharge>& charges,
              TimePoint taken);

  // {"Tables": [{"TableName", "BillingMode", "Read": {...}, "Write": {...},
  //   "ThrottledRequests": {reason: n}, "GlobalSecondaryIndexes": [...]}]}
  // where Read/Write = {"ProvisionedUnits" | "AllowedUnits", "Consumed":
  // [{"Second": epoch seconds, "Units": u}, ...]}.
  nlohmann::json Report(TimePoint now) const;

  // Forgets every resource not in `live` ((table id, 0) for a table, (table
  // id, index id) for a GSI): deleted tables and GSIs leave the report, and a
  // table created again under the same name starts afresh.
  void Retain(const std::set<std::pair<int64_t, int64_t>>& live);

 private:
  struct Bucket {
    int64_t rate = 0;      // units per second
    int64_t capacity = 0;  // nano-units
    int64_t level = 0;     // nano-units
    TimePoint at{};
    bool started = false;
    // Sets the rate; when it changed, the old one applies until
    // `changed_at` (the UpdateTable time), the new one after it.
    void Configure(int64_t rate_units, int64_t capacity_nano, TimePoint now,
                   TimePoint changed_at = TimePoint{});
    void Refill(TimePoint now);
  };
  // Units taken in one clock second (per-second limits).
  struct Window {
    int64_t second = 0;
    int64_t used = 0;  // nano-units
    int64_t Used(int64_t now_second) const {
      return second == now_second ? used : 0;
    }
    void Take(int64_t now_second, int64_t nano) {
      if (second != now_second) {
        second = now_second;
        used = 0;
      }
      used += nano;
    }
  };
  struct Direction {  // read or write side of a resource
    Bucket bucket;    // provisioned
    Window window;    // on-demand
    // Partition key -> its window, keyed by a 64-bit FNV-1a hash of the key
    // bytes (two keys sharing a hash would share a limit: vanishingly rare,
    // and the same on every run).
    std::map<uint64_t, Window> partitions;
    int64_t pruned_second = 0;  // partitions were last pruned in this second
    std::map<int64_t, double> series;  // clock second -> units consumed
    double settled_peak = 0;           // highest second >= 30 min old
    int64_t folded_until = 0;          // seconds below this are in settled_peak
    int64_t allowed = 0;               // on-demand: current allowed rate
    int64_t max = -1;  // on-demand: OnDemandThroughput maximum (-1: none)
  };
  struct Resource {
    std::string table_name;
    std::string index_name;  // "" for the table
    std::string arn;
    bool on_demand = false;
    int64_t highest_read = 0;  // highest provisioned (for on-demand base)
    int64_t highest_write = 0;
    Direction read, write;
    std::map<std::string, int64_t> throttled;  // reason -> requests
    // What the last Sync applied (Sync skips a repeat within one second).
    struct Synced {
      int64_t second = 0;
      bool on_demand = false;
      int64_t read = 0;
      int64_t write = 0;
      TimePoint changed_at{};
      int64_t max_read = 0;
      int64_t max_write = 0;
      int64_t warm_read = 0;
      int64_t warm_write = 0;
      bool operator==(const Synced&) const = default;
    };
    std::optional<Synced> synced;
  };

  Resource& ResourceFor(const Table& table, int64_t index_id, TimePoint now);
  void Sync(Resource& r, const Table& table, int64_t index_id, TimePoint now);
  void SyncDirection(Resource& r, Direction& d, bool write, int64_t provisioned,
                     const OnDemandSettings& settings, TimePoint changed_at,
                     TimePoint now);
  static void Fold(Direction& d, TimePoint now);

  // One side of one resource (or one partition of it) an admission needs.
  struct Need {
    Resource* r;
    bool write;
    std::string_view partition;  // "" = the resource's own bucket
    int64_t nano;
    double units;
  };

  mutable std::mutex mu_;
  std::vector<Need> needs_;  // Admit's scratch (kept: no allocation a call)
  // (table id, index id) -> resource; table ids are never reused.
  std::map<std::pair<int64_t, int64_t>, Resource> resources_;
};

}  // namespace ddblab::engine
