// emulator/engine/capacity/on_demand_settings.h: a table's or GSI's
// OnDemandThroughput (MaxReadRequestUnits / MaxWriteRequestUnits) and
// WarmThroughput (ReadUnitsPerSecond / WriteUnitsPerSecond), as CreateTable and
// UpdateTable take them, the catalog keeps them and DescribeTable shows them.
//
//   - OnDemandThroughput: each maximum is >= 1, or -1 to remove it (the
//     DynamoDB API reference); a value of 0 or below -1 is refused with
//     "One or more parameter values were invalid: MaxReadRequestUnits must be
//     -1 or at least 1 (got 0)" — ddblab's text: DynamoDB's own is not
//     published. Only a given member changes.
//   - WarmThroughput: each value >= 1; warm throughput is never lowered (the
//     developer guide), so a lower value than the current one keeps the
//     current one.
// The capacity model (capacity_model.h) applies them to on-demand tables:
// the warm value raises the rate served at once, the maximum throttles with
// the *MaxOnDemandThroughputExceeded reasons. On a provisioned table they are
// kept and shown, and apply once it is switched to on-demand.
//
// DescribeTable shows "OnDemandThroughput" when a maximum was ever set
// (-1 for a side without one) and "WarmThroughput" {ReadUnitsPerSecond,
// WriteUnitsPerSecond, Status "ACTIVE"} when one was given (a side not given
// shows the on-demand initial 12,000 / 4,000); tables that never set them
// keep their former description.
//
// Thread-safety: plain values and stateless functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "emulator/api/result.h"
#include "emulator/engine/request.h"

namespace ddblab::engine {

// What a new on-demand table or GSI serves at once (its initial warm
// throughput).
inline constexpr int64_t kWarmReadDefault = 12000;
inline constexpr int64_t kWarmWriteDefault = 4000;

struct OnDemandSettings {
  bool max_set = false;   // OnDemandThroughput was ever given
  int64_t max_read = -1;  // -1: no maximum
  int64_t max_write = -1;
  bool warm_set = false;  // WarmThroughput was ever given
  int64_t warm_read = 0;  // 0: none given
  int64_t warm_write = 0;

  Json ToMeta() const;
  static OnDemandSettings FromMeta(const Json& meta);  // null: defaults
  // Adds OnDemandThroughput / WarmThroughput to a table or GSI description.
  void Describe(Json& description) const;
};

// The two structures as a request gave them (members of `obj`).
struct RawOnDemandSettings {
  bool max_present = false;
  std::optional<int64_t> max_read;
  std::optional<int64_t> max_write;
  bool warm_present = false;
  std::optional<int64_t> warm_read;
  std::optional<int64_t> warm_write;

  bool present() const { return max_present || warm_present; }
};

// Reads OnDemandThroughput and WarmThroughput of `obj` (the request or a GSI
// structure); `path` prefixes member paths in constraint messages.
RawOnDemandSettings ParseOnDemandSettings(RequestParser& p, const Json& obj,
                                          std::string_view path);

// Checks `raw` and applies the members it gives to `settings`.
Status ApplyOnDemandSettings(const RawOnDemandSettings& raw,
                             OnDemandSettings* settings);

}  // namespace ddblab::engine
