// emulator/fault/injector.h: the live fault plan — matching calls against
// its rules, per-rule counters, seeded draws, and the fault log.
//
// Decide() is called once per call (by the engine's dispatch seam) with a
// CallView. Every rule whose operation, table and key match counts the call
// (its matching-call number n); it fires when n passes its nth / after /
// times / from / until conditions and, with a probability, when a draw from
// Rng(Hash(seed, "<rule id>#<n>")) says so — so one rule's draws do not
// depend on any other rule or on call interleaving with other rules.
// At most one "terminal" effect applies to a call: the first firing rule's
// (later rules that would have fired count the call but do not fire);
// `latency` (durations add up, to at most kMaxLatency), `visibility_delay`
// and `stale_read` (the longest wins) and `index_lag` (per table and index,
// the longest wins) combine with it. Every fired rule is logged. A draw
// hook (SetDrawHook, emulator/api/fault_draw.h) decides a probability's
// draw in place of the generator, when 0 < probability < 1.
//
// Thread-safety: all methods are safe to call concurrently; active() is a
// lock-free check so that an empty plan costs one atomic load per call.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/clock.h"
#include "emulator/api/fault_draw.h"
#include "emulator/api/result.h"
#include "emulator/fault/call.h"
#include "emulator/fault/plan.h"

namespace ddblab::fault {

// What the engine knows about a table, for shaping faults.
struct TableFacts {
  bool found = false;
  bool on_demand = false;  // PAY_PER_REQUEST
  std::string arn;
  std::vector<std::string> key_attributes;  // hash (and range) key names
};
using TableResolver = std::function<TableFacts(std::string_view table_name)>;

struct LogEntry {
  int64_t seq = 0;  // 1, 2, ... over the injector's life
  TimePoint time{};
  std::string operation;
  std::string table;                              // "" when the call names none
  nlohmann::json keys = nlohmann::json::array();  // the items it hit
  std::string rule_id;
  Effect effect = Effect::kThrottle;
};
nlohmann::json LogEntryToJson(const LogEntry& entry);

// One index a call's writes reach late (an index_lag rule that fired).
struct IndexLag {
  std::string table;  // the rule's one table (a name)
  std::string index;  // the rule's index name
  Duration duration{};
  // Indexes into CallView::items of the matched writes (every item of
  // `table` without a rule key); when two rules fire for the same table and
  // index, the union of theirs. Empty for calls without items (PartiQL).
  std::vector<size_t> items;
};

// What to do with one call.
struct Decision {
  // The terminal effect, if a rule other than latency / visibility_delay /
  // stale_read / index_lag fired.
  std::optional<Effect> effect;
  std::string rule_id;
  std::string table;            // the table the fault is about ("" if none)
  std::vector<size_t> items;    // indexes into CallView::items it hit
  Duration latency{};           // total of the latency rules that fired
  Duration visibility_delay{};  // longest visibility_delay that fired
  Duration stale_read{};        // longest stale_read that fired (zero: none)
  // One per table and index an index_lag rule fired for (the longest
  // duration of those rules), in the order the rules come in the plan.
  std::vector<IndexLag> index_lags;
};

class Injector {
 public:
  explicit Injector(uint64_t seed) : seed_(seed) {}

  // Replaces the plan and resets every rule's counters (the log stays).
  void SetPlan(Plan plan);
  Plan plan() const;
  // Decides each draw of a rule with 0 < probability < 1 from now on (null:
  // the seeded generator again). Called with the injector's lock held.
  void SetDrawHook(FaultDrawHook hook);
  // False for an empty plan: callers skip Decide entirely.
  bool active() const { return active_.load(std::memory_order_acquire); }
  // The longest `duration` of the plan's stale_read rules (zero if none):
  // how far back an eventually consistent read may have to see. Lock-free.
  Duration stale_read_horizon() const {
    return Duration(stale_read_horizon_ns_.load(std::memory_order_acquire));
  }

  // The plan with, per rule, "matched" (calls counted) and "fired".
  nlohmann::json StatusJson() const;
  // Every fault fired, oldest first (the newest kMaxLog are kept).
  std::vector<LogEntry> Log() const;
  nlohmann::json LogJson() const;

  // Matches `call` at `now`, advances counters, logs what fires. Nullopt
  // when nothing fires. `resolve` gives table facts (key names for the log);
  // it is called without the injector's lock held.
  std::optional<Decision> Decide(const CallView& call, TimePoint now,
                                 const TableResolver& resolve);

  static constexpr size_t kMaxLog = 100000;

 private:
  struct Counters {
    int64_t matched = 0;
    int64_t fired = 0;
  };

  const uint64_t seed_;
  std::atomic<bool> active_{false};
  std::atomic<int64_t> stale_read_horizon_ns_{0};
  mutable std::mutex mu_;
  Plan plan_;
  std::vector<Counters> counters_;
  FaultDrawHook draw_hook_;
  std::deque<LogEntry> log_;
  int64_t next_seq_ = 1;
};

// The error a decision's terminal effect answers with at once, before the
// call executes: throttle, internal_error, unavailable, request_limit,
// conflict, expired_iterator, trimmed, and unprocessed when it selects every
// item of the batch (DynamoDB then throws the throttling exception). Nullopt
// for the effects that need the call to run (unprocessed, lost_response,
// empty) or none.
std::optional<Error> ImmediateError(const CallView& call,
                                    const Decision& decision,
                                    const TableResolver& resolve);

// The in-process answer of a lost_response fault (ErrorType::kOutcomeUnknown).
Error OutcomeUnknown(std::string_view rule_id);

}  // namespace ddblab::fault
