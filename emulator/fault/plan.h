// emulator/fault/plan.h: a fault plan — which calls fail, when and how.
//
// A plan is a JSON document {"rules": [...]}; ParsePlan turns it into typed
// Rules or fails with a ValidationException whose message names the
// offending path (`rules[2].effect: unknown effect "thorttle"`). PlanToJson
// gives the canonical form back (what GET /_ddblab/faults shows).
//
// Thread-safety: plain value types.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/clock.h"
#include "emulator/api/operation.h"
#include "emulator/api/result.h"

namespace ddblab::fault {

enum class Effect {
  kThrottle,         // the operation's throttling exception
  kInternalError,    // InternalServerError (500)
  kUnavailable,      // ServiceUnavailable (503)
  kRequestLimit,     // RequestLimitExceeded
  kUnprocessed,      // BatchWriteItem / BatchGetItem: items left unprocessed
  kConflict,         // TransactionConflict / TransactionConflictException
  kLostResponse,     // executed, then the answer is lost
  kLatency,          // the answer comes `duration` later on the clock
  kExpiredIterator,  // Streams: ExpiredIteratorException
  kTrimmed,          // Streams: TrimmedDataAccessException
  kEmpty,            // Streams GetRecords: no records, a next iterator
  kVisibilityDelay,  // Streams GetRecords: records visible `duration` late
  kStaleRead,        // an eventually consistent read sees `duration` ago
  kIndexLag,         // the matched writes reach `index` `duration` late
};

// "throttle", "internal_error", ... (as written in a plan).
std::string_view EffectName(Effect effect);

// The longest latency a rule may add: botocore's default read timeout.
// DynamoDB documents no server-side request timeout; a client with default
// settings gives up on a longer wait (botocore's ReadTimeoutError, then a
// retry), so a longer latency models no answer DynamoDB can give and would
// only hold a request (in process: a thread) for nothing.
inline constexpr Duration kMaxLatency = std::chrono::seconds(60);

struct Rule {
  std::string id;                     // given, or the rule's index
  std::vector<Operation> operations;  // empty: every operation it fits
  std::vector<std::string> tables;    // empty: any table (names, not ARNs)
  nlohmann::json key;                 // null, or {attr: AttributeValue}
  // When it fires, counted over the calls it matches (1-based).
  std::vector<int64_t> nth;           // empty: any call number
  int64_t after = 0;                  // skip this many matching calls
  std::optional<int64_t> times;       // fire at most this many times
  std::optional<double> probability;  // 0..1, from the seeded generator
  std::optional<TimePoint> from;      // clock window [from, until)
  std::optional<TimePoint> until;
  Effect effect = Effect::kThrottle;
  std::optional<int64_t> count;  // unprocessed: at most this many items
  Duration duration{};  // latency, visibility_delay, stale_read, index_lag
  // index_lag only (and required there, with exactly one table): the name
  // of the table's index the matched writes reach late. Empty: none.
  std::string index;
};

struct Plan {
  std::vector<Rule> rules;
};

// Parses and checks a plan. Errors are ValidationExceptions naming the path.
Result<Plan> ParsePlan(const nlohmann::json& document);
// Parses text (a JSON document) then ParsePlan.
Result<Plan> ParsePlanText(std::string_view text);
nlohmann::json PlanToJson(const Plan& plan);

// A rule may name every operation of the list (emulator/api/operation.h).

}  // namespace ddblab::fault
