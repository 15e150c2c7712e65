// emulator/engine/ttl/ttl_schedule.h: which items TTL deletes, and when.
//
// Rules (DynamoDB's TTL and Streams documentation): the item's top-level TTL
// attribute must be a Number of epoch seconds (fractions and exponents are
// fine; any other type, or no attribute, is ignored). DynamoDB deletes an item
// whose TTL value is *less than* the current time (API reference,
// UpdateTimeToLive: "If the epoch time value stored in the attribute is less
// than the current time, the item is marked as expired and subsequently
// deleted."), so an item whose value equals now is not expired yet.
// Times here are whole epoch seconds (the clock's now is floored): an item
// expires at the first whole second strictly after its value,
// floor(value) + 1; it is eligible for deletion once that is at or before
// now and its value is not more than five years (std::chrono::years(5),
// 157,784,760 s) before now; its deletion is due at expiry + the item's delay
// (ttl_delay.h), and its stream record carries that due time.
//
// Thread-safety: TtlSchedule is immutable after construction.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "emulator/engine/table.h"
#include "emulator/engine/ttl/ttl_delay.h"
#include "emulator/value/attribute_value.h"

namespace ddblab::engine {

inline constexpr int64_t kTtlMaxAgeSeconds = 157'784'760;  // five years

// The first whole second at which the item counts as expired,
// floor(item[attribute]) + 1 (saturated to int64), or nullopt when the
// attribute is missing or not a Number.
std::optional<int64_t> TtlExpiry(const value::Item& item,
                                 std::string_view attribute);

// Whether an item expiring at `expiry` may be deleted at `now_s`.
bool TtlEligible(int64_t expiry, int64_t now_s);

// The id an item's delay is drawn from: the table name and the encoded key,
// so that it depends on neither the table id nor the order of writes.
std::string TtlItemId(std::string_view table_name, std::string_view pk,
                      std::string_view sk);

class TtlSchedule {
 public:
  TtlSchedule(TtlDelay delay, uint64_t seed) : delay_(delay), seed_(seed) {}

  const TtlDelay& delay() const { return delay_; }

  // When the deletion of this item (of a table with TTL enabled) is due, or
  // nullopt if TTL never deletes it as of now_s (no Number TTL attribute,
  // or expired more than five years ago). Never before now_s: an item
  // written (or covered by enabling TTL) already past its due time falls due
  // at that write, so its deletion never precedes it.
  std::optional<int64_t> DueOf(const Table& table, std::string_view pk,
                               std::string_view sk, const value::Item& item,
                               int64_t now_s) const;

  // Due time for a known expiry.
  int64_t DueAt(int64_t expiry, std::string_view table_name,
                std::string_view pk, std::string_view sk) const;

 private:
  TtlDelay delay_;
  uint64_t seed_;
};

}  // namespace ddblab::engine
