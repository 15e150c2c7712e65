// emulator/engine/capacity/capacity_model.cc: token buckets, on-demand scaling
// and the usage series (capacity_model.h).
#include "emulator/engine/capacity/capacity_model.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string_view>

namespace ddblab::engine {
namespace {

using Json = nlohmann::json;

constexpr int64_t kNano = 1'000'000'000;  // nano-units per unit
constexpr int64_t kSettleSeconds = 30 * 60;
constexpr int64_t kSeriesSeconds = 60 * 60;

int64_t ToNano(double units) {
  return static_cast<int64_t>(std::llround(units * 2)) * (kNano / 2);
}

// Partitions idle since an earlier second are forgotten once a side holds
// this many (at most once a clock second): memory stays bounded, and a
// steady set of keys is not reallocated every second.
constexpr size_t kPrunePartitions = 1 << 16;

uint64_t PartitionHash(std::string_view key) {
  uint64_t h = 14695981039346656037ull;
  for (char c : key) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return h;
}

int64_t SecondOf(TimePoint t) {
  return std::chrono::floor<std::chrono::seconds>(t).time_since_epoch().count();
}

const IndexDef* IndexById(const Table& table, int64_t index_id) {
  for (const IndexDef& idx : table.indexes) {
    if (idx.id == index_id) return &idx;
  }
  return nullptr;
}

std::string Reason(bool index, bool write, std::string_view limit) {
  return std::string(index ? "Index" : "Table") + (write ? "Write" : "Read") +
         std::string(limit);
}

}  // namespace

void CapacityModel::Bucket::Configure(int64_t rate_units, int64_t capacity_nano,
                                      TimePoint now, TimePoint changed_at) {
  if (!started) {
    rate = rate_units;
    capacity = capacity_nano;
    level = capacity_nano;
    at = now;
    started = true;
    return;
  }
  if (rate != rate_units && changed_at > at && changed_at <= now) {
    Refill(changed_at);
  }
  rate = rate_units;
  capacity = capacity_nano;
  level = std::min(level, capacity);
  Refill(now);
}

void CapacityModel::Bucket::Refill(TimePoint now) {
  if (now <= at) return;
  const int64_t ns = (now - at).count();
  at = now;
  if (rate <= 0) return;
  const int64_t missing = capacity - level;
  if (missing <= 0) return;
  if (ns >= missing / rate + 1) {
    level = capacity;
  } else {
    level = std::min(capacity, level + ns * rate);
  }
}

void CapacityModel::Fold(Direction& d, TimePoint now) {
  const int64_t cutoff = SecondOf(now) - kSettleSeconds;
  for (auto it = d.series.lower_bound(d.folded_until);
       it != d.series.end() && it->first < cutoff; ++it) {
    d.settled_peak = std::max(d.settled_peak, it->second);
  }
  d.folded_until = std::max(d.folded_until, cutoff);
  const int64_t oldest = SecondOf(now) - kSeriesSeconds;
  d.series.erase(d.series.begin(), d.series.lower_bound(oldest));
}

void CapacityModel::SyncDirection(Resource& r, Direction& d, bool write,
                                  int64_t provisioned,
                                  const OnDemandSettings& settings,
                                  TimePoint changed_at, TimePoint now) {
  Fold(d, now);
  if (!r.on_demand) {
    d.allowed = provisioned;
    d.bucket.Configure(provisioned, provisioned * kBurstSeconds * kNano, now,
                       changed_at);
    return;
  }
  const int64_t base =
      std::max({write ? kOnDemandWriteBase : kOnDemandReadBase,
                write ? r.highest_write : r.highest_read,
                write ? settings.warm_write : settings.warm_read});
  int64_t allowed =
      std::max(base, static_cast<int64_t>(std::ceil(2 * d.settled_peak)));
  allowed = std::min(allowed, kTableQuota);
  d.allowed = allowed;
  d.max = write ? settings.max_write : settings.max_read;
}

void CapacityModel::Sync(Resource& r, const Table& table, int64_t index_id,
                         TimePoint now) {
  const bool on_demand = table.billing == BillingMode::kPayPerRequest;
  if (on_demand != r.on_demand) {  // billing mode switched: fresh buckets
    r.on_demand = on_demand;
    r.read.bucket = Bucket();
    r.write.bucket = Bucket();
  }
  const Throughput* t = &table.throughput;
  const OnDemandSettings* settings = &table.on_demand;
  if (index_id != 0) {
    const IndexDef* idx = IndexById(table, index_id);
    if (idx != nullptr) {
      t = &idx->throughput;
      settings = &idx->on_demand;
    }
  }
  if (!on_demand) {
    r.highest_read = std::max(r.highest_read, t->read);
    r.highest_write = std::max(r.highest_write, t->write);
  }
  // When the throughput last changed (UpdateTable).
  TimePoint changed_at{};
  if (t->last_increase) changed_at = std::max(changed_at, *t->last_increase);
  if (t->last_decrease) changed_at = std::max(changed_at, *t->last_decrease);
  // Nothing to redo within the clock second the resource was last synced
  // with the same settings: the peak folds and the allowed rate change only
  // with the second, the buckets refill at admission.
  const Resource::Synced synced{SecondOf(now),
                                on_demand,
                                t->read,
                                t->write,
                                changed_at,
                                settings->max_read,
                                settings->max_write,
                                settings->warm_read,
                                settings->warm_write};
  if (r.synced && *r.synced == synced) return;
  r.synced = synced;
  SyncDirection(r, r.read, false, t->read, *settings, changed_at, now);
  SyncDirection(r, r.write, true, t->write, *settings, changed_at, now);
}

CapacityModel::Resource& CapacityModel::ResourceFor(const Table& table,
                                                    int64_t index_id,
                                                    TimePoint now) {
  auto [it, inserted] =
      resources_.try_emplace(std::make_pair(table.id, index_id));
  Resource& r = it->second;
  if (inserted) {
    r.table_name = table.name;
    r.arn = table.arn;
    r.on_demand = table.billing == BillingMode::kPayPerRequest;
    if (index_id != 0) {
      const IndexDef* idx = IndexById(table, index_id);
      r.index_name = idx != nullptr ? idx->name : "";
      r.arn = table.IndexArn(r.index_name);
    }
  }
  Sync(r, table, index_id, now);
  return r;
}

std::optional<CapacityRejection> CapacityModel::Admit(
    const Table& table, const std::vector<CapacityCharge>& charges,
    TimePoint now) {
  std::lock_guard<std::mutex> lock(mu_);
  // Totals per resource side and per partition, in the order first met
  // (the views point into `charges`).
  std::vector<Need>& needs = needs_;
  needs.clear();
  auto add = [&](Resource* r, bool write, std::string_view partition,
                 int64_t nano, double units) {
    for (Need& n : needs) {
      if (n.r == r && n.write == write && n.partition == partition) {
        n.nano += nano;
        n.units += units;
        return;
      }
    }
    needs.push_back({r, write, partition, nano, units});
  };
  for (const CapacityCharge& c : charges) {
    if (c.units <= 0) continue;
    Resource& r = ResourceFor(table, c.index_id, now);
    const int64_t nano = ToNano(c.units);
    if (!c.partition_only) add(&r, c.write, "", nano, c.units);
    if (!c.partition.empty()) add(&r, c.write, c.partition, nano, c.units);
  }
  const int64_t second = SecondOf(now);
  CapacityRejection rejection;
  rejection.on_demand = table.billing == BillingMode::kPayPerRequest;
  for (Need& n : needs) {
    Direction& d = n.write ? n.r->write : n.r->read;
    const bool index = !n.r->index_name.empty();
    std::string reason;
    if (n.partition.empty()) {
      if (n.r->on_demand) {
        const int64_t used = d.window.Used(second) + n.nano;
        if (d.max > 0 && used > d.max * kNano) {
          // Above the table's or index's own OnDemandThroughput maximum.
          reason = Reason(index, n.write, "MaxOnDemandThroughputExceeded");
        } else if (used <= d.allowed * kNano) {
          continue;
        }
      }
      if (n.r->on_demand && reason.empty()) {
        // Over the allowed rate: the per-table quota when that is what
        // bounds it; otherwise above twice the previous peak, where
        // DynamoDB is still scaling the table out. Which reason it reports
        // then is not documented; the key-range one goes with its "check
        // for a hot key" message.
        reason =
            Reason(index, n.write,
                   d.allowed >= kTableQuota ? "AccountLimitExceeded"
                                            : "KeyRangeThroughputExceeded");
      } else if (!n.r->on_demand) {
        d.bucket.Refill(now);
        if (d.bucket.level >= n.nano) continue;
        reason = Reason(index, n.write, "ProvisionedThroughputExceeded");
      }
    } else {
      const int64_t rate = n.write ? kPartitionWriteUnits : kPartitionReadUnits;
      auto w = d.partitions.find(PartitionHash(n.partition));
      const int64_t used = w == d.partitions.end() ? 0 : w->second.Used(second);
      if (used + n.nano <= rate * kNano) continue;
      reason = Reason(index, n.write, "KeyRangeThroughputExceeded");
    }
    fault::ThrottleCause cause{reason, n.r->arn};
    bool known = false;
    for (const fault::ThrottleCause& c : rejection.causes) {
      known =
          known || (c.reason == cause.reason && c.resource == cause.resource);
    }
    if (!known) {
      rejection.causes.push_back(std::move(cause));
      ++n.r->throttled[reason];
    }
  }
  if (!rejection.causes.empty()) return rejection;
  for (Need& n : needs) {
    Direction& d = n.write ? n.r->write : n.r->read;
    if (n.partition.empty()) {
      if (n.r->on_demand) {
        d.window.Take(second, n.nano);
      } else {
        d.bucket.level -= n.nano;
      }
      d.series[second] += n.units;
    } else {
      d.partitions[PartitionHash(n.partition)].Take(second, n.nano);
    }
  }
  // Partitions idle since an earlier second are forgotten (at most once a
  // second), so that many distinct keys do not pile up.
  for (Need& n : needs) {
    Direction& d = n.write ? n.r->write : n.r->read;
    if (d.partitions.size() < kPrunePartitions || d.pruned_second == second) {
      continue;
    }
    d.pruned_second = second;
    std::erase_if(d.partitions,
                  [&](const auto& p) { return p.second.second != second; });
  }
  return std::nullopt;
}

void CapacityModel::Refund(int64_t table_id,
                           const std::vector<CapacityCharge>& charges,
                           TimePoint taken) {
  std::lock_guard<std::mutex> lock(mu_);
  const int64_t second = SecondOf(taken);
  for (const CapacityCharge& c : charges) {
    auto it = resources_.find(std::make_pair(table_id, c.index_id));
    if (it == resources_.end() || c.units <= 0) continue;
    Direction& d = c.write ? it->second.write : it->second.read;
    const int64_t nano = ToNano(c.units);
    if (c.partition_only) {
      // only the partition window below
    } else if (it->second.on_demand) {
      if (d.window.second == second) {
        d.window.used = std::max<int64_t>(0, d.window.used - nano);
      }
    } else {
      d.bucket.level = std::min(d.bucket.capacity, d.bucket.level + nano);
    }
    if (!c.partition.empty()) {
      auto p = d.partitions.find(PartitionHash(c.partition));
      if (p != d.partitions.end() && p->second.second == second) {
        p->second.used = std::max<int64_t>(0, p->second.used - nano);
      }
    }
    auto s = c.partition_only ? d.series.end() : d.series.find(second);
    if (s != d.series.end()) {
      s->second -= c.units;
      if (s->second <= 0) d.series.erase(s);
    }
  }
}

void CapacityModel::Retain(const std::set<std::pair<int64_t, int64_t>>& live) {
  std::lock_guard<std::mutex> lock(mu_);
  std::erase_if(resources_,
                [&](const auto& entry) { return !live.contains(entry.first); });
}

Json CapacityModel::Report(TimePoint now) const {
  std::lock_guard<std::mutex> lock(mu_);
  const int64_t oldest = SecondOf(now) - kSeriesSeconds;
  auto side = [&](const Resource& r, const Direction& d) {
    Json consumed = Json::array();
    for (auto it = d.series.lower_bound(oldest); it != d.series.end(); ++it) {
      consumed.push_back({{"Second", it->first}, {"Units", it->second}});
    }
    Json out{{"Consumed", std::move(consumed)}};
    out[r.on_demand ? "AllowedUnits" : "ProvisionedUnits"] =
        r.on_demand && d.max > 0 ? std::min(d.allowed, d.max) : d.allowed;
    if (r.on_demand && d.max > 0) out["MaxUnits"] = d.max;
    return out;
  };
  auto resource = [&](const Resource& r) {
    Json out{{"BillingMode", r.on_demand ? "PAY_PER_REQUEST" : "PROVISIONED"},
             {"Read", side(r, r.read)},
             {"Write", side(r, r.write)},
             {"ThrottledRequests", Json::object()}};
    for (const auto& [reason, n] : r.throttled) {
      out["ThrottledRequests"][reason] = n;
    }
    return out;
  };
  Json tables = Json::array();
  int64_t current = -1;
  for (const auto& [key, r] : resources_) {
    if (key.first != current) {
      current = key.first;
      Json t{{"TableName", r.table_name}};
      tables.push_back(std::move(t));
    }
    Json& t = tables.back();
    if (key.second == 0) {
      t.update(resource(r));
    } else {
      Json idx{{"IndexName", r.index_name}};
      idx.update(resource(r));
      t["GlobalSecondaryIndexes"].push_back(std::move(idx));
    }
  }
  return Json{{"Tables", std::move(tables)}};
}

}  // namespace ddblab::engine
