#include "emulator/engine/ttl/ttl_schedule.h"

#include <algorithm>
#include <limits>

namespace ddblab::engine {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

int64_t SaturatingAdd(int64_t a, int64_t b) {
  if (b > 0 && a > kMax - b) return kMax;
  if (b < 0 && a < kMin - b) return kMin;
  return a + b;
}

}  // namespace

std::optional<int64_t> TtlExpiry(const value::Item& item,
                                 std::string_view attribute) {
  auto it = item.find(attribute);
  if (it == item.end() ||
      it->second.type() != value::AttributeValue::Type::kN) {
    return std::nullopt;
  }
  const value::Number& n = it->second.n();
  // Expired once the value is less than now: from floor(value) + 1 on.
  return SaturatingAdd(n.FloorToInt64(), 1);
}

namespace {

// Whether an item expiring at `expiry` (its value is in [expiry - 1,
// expiry)) has a value more than five years before now_s.
bool TooOld(int64_t expiry, int64_t now_s) {
  return expiry <= SaturatingAdd(now_s, -kTtlMaxAgeSeconds);
}

}  // namespace

bool TtlEligible(int64_t expiry, int64_t now_s) {
  return expiry <= now_s && !TooOld(expiry, now_s);
}

std::string TtlItemId(std::string_view table_name, std::string_view pk,
                      std::string_view sk) {
  std::string id;
  id.reserve(table_name.size() + pk.size() + sk.size() + 24);
  id.append(std::to_string(table_name.size())).push_back(':');
  id.append(table_name);
  id.append(std::to_string(pk.size())).push_back(':');
  id.append(pk);
  id.append(sk);
  return id;
}

int64_t TtlSchedule::DueAt(int64_t expiry, std::string_view table_name,
                           std::string_view pk, std::string_view sk) const {
  int64_t delay = 0;
  if (delay_.kind() != TtlDelay::Kind::kNone) {
    delay = delay_.SecondsFor(seed_, TtlItemId(table_name, pk, sk));
  }
  return SaturatingAdd(expiry, delay);
}

std::optional<int64_t> TtlSchedule::DueOf(const Table& table,
                                          std::string_view pk,
                                          std::string_view sk,
                                          const value::Item& item,
                                          int64_t now_s) const {
  std::optional<int64_t> expiry = TtlExpiry(item, table.ttl.attribute);
  if (!expiry) return std::nullopt;
  if (TooOld(*expiry, now_s)) return std::nullopt;
  // A deletion cannot fall due before the write that made it possible.
  return std::max(DueAt(*expiry, table.name, pk, sk), now_s);
}

}  // namespace ddblab::engine
