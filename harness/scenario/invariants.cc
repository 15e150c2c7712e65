// harness/scenario/invariants.cc: the pattern and generic checks.
#include "harness/scenario/invariants.h"

#include <algorithm>
#include <map>
#include <set>

#include "harness/patterns/common.h"
#include "harness/patterns/idempotent_counter.h"
#include "harness/patterns/ordered_writes.h"
#include "harness/patterns/unique_claims.h"
#include "harness/scenario/consumer_actors.h"

namespace ddblab::harness::scenario {
namespace {

using Problems = std::vector<std::string>;

// The tables the actors of `pattern` use (or just `table` when given).
std::vector<std::string> TablesOf(const Scenario& scenario,
                                  const std::string& pattern,
                                  const std::string& table) {
  if (!table.empty()) return {table};
  std::set<std::string> tables;
  for (const ActorSpec& actor : scenario.actors) {
    if (actor.pattern == pattern) tables.insert(ActorTable(actor));
  }
  return {tables.begin(), tables.end()};
}

Result<Problems> CheckOrdered(const std::string& table, Backend& backend,
                              const World& world) {
  patterns::OrderedConfig config;
  config.table = table;
  DDBLAB_ASSIGN_OR_RETURN(patterns::OrderedWrites writes,
                          patterns::OrderedWrites::Open(backend, config));
  auto ledger = world.ledgers.find(table);
  if (ledger == world.ledgers.end()) return Problems();
  return writes.Check(ledger->second);
}

Result<Problems> CheckCounters(const std::string& table, Backend& backend,
                               const World& world) {
  patterns::CounterConfig config;
  config.table = table;
  DDBLAB_ASSIGN_OR_RETURN(patterns::IdempotentCounter counter,
                          patterns::IdempotentCounter::Open(backend, config));
  Problems problems;
  auto books = world.counters.find(table);
  if (books == world.counters.end()) return problems;
  for (const auto& [name, keys] : books->second) {
    int64_t sure = 0;
    int64_t unsure = 0;
    for (const auto& [key, book] : keys) {
      if (book.applied) {
        sure += book.amount + book.late_applied;
      } else if (book.unknown) {
        unsure += book.amount;
      }
      if (!book.applied && !book.failure.empty()) {
        const std::string shown =
            key.size() > 40 ? "..." + key.substr(key.size() - 20) : key;
        problems.push_back("increment " + shown + " of " + name +
                           " failed: " + book.failure);
      }
    }
    if (unsure == 0) {
      DDBLAB_ASSIGN_OR_RETURN(Problems found, counter.Check(name, sure));
      problems.insert(problems.end(), found.begin(), found.end());
      continue;
    }
    // Some increments' answers were all lost: each may or may not count.
    DDBLAB_ASSIGN_OR_RETURN(int64_t value, counter.Read(name));
    if (value < sure || value > sure + unsure) {
      problems.push_back("counter " + name + " is " + std::to_string(value) +
                         ", expected " + std::to_string(sure) + " to " +
                         std::to_string(sure + unsure) +
                         " (some increments' outcome is unknown)");
    }
    DDBLAB_ASSIGN_OR_RETURN(Problems found, counter.Check(name, value));
    problems.insert(problems.end(), found.begin(), found.end());
  }
  return problems;
}

Result<Problems> CheckClaims(const std::string& table, Backend& backend) {
  patterns::UniqueClaimsConfig config;
  config.table = table;
  DDBLAB_ASSIGN_OR_RETURN(patterns::UniqueClaims claims,
                          patterns::UniqueClaims::Open(backend, config));
  return claims.Check();
}

Result<Problems> CheckItem(const InvariantSpec& inv, Backend& backend) {
  auto out = backend.Call(
      "GetItem",
      {{"TableName", inv.table}, {"Key", inv.key}, {"ConsistentRead", true}});
  if (!out.ok()) return out.error();
  const json item = out->value("Item", json());
  if (item == inv.item) return Problems();
  return Problems{
      "item " + inv.key.dump() + " of " + inv.table + " is " +
      (item.is_null() ? std::string("absent") : item.dump()) + ", expected " +
      (inv.item.is_null() ? std::string("absent") : inv.item.dump())};
}

Result<Problems> CheckCount(const InvariantSpec& inv, Backend& backend) {
  DDBLAB_ASSIGN_OR_RETURN(std::vector<json> items,
                          patterns::ScanAll(backend, inv.table));
  if (static_cast<int64_t>(items.size()) == inv.equals) return Problems();
  return Problems{inv.table + " holds " + std::to_string(items.size()) +
                  (items.size() == 1 ? " item" : " items") + ", expected " +
                  std::to_string(inv.equals)};
}

// What an item written to a table adds to the sum: `attribute` as an
// integer, or 1 when `attribute` is "".
Result<int64_t> TermOf(const std::string& table, const std::string& attribute,
                       const std::string& key, const json& item) {
  if (attribute.empty()) return 1;
  if (!item.contains(attribute)) return 0;
  auto n = patterns::AsInt(item[attribute]);
  if (!n) {
    return Error::Validation("item " + key + " written to " + table + " has " +
                             attribute + " " + item[attribute].dump() +
                             ", not an integer N");
  }
  return *n;
}

// The sum of `attribute` over the items the actors wrote to `table` (each
// item counting 1 when `attribute` is ""), as a range: an item whose write
// or removal lost every answer may or may not count (Elle's rule), so the
// sum may be anything from `low` to `high`.
struct SumRange {
  int64_t low = 0;
  int64_t high = 0;
  size_t unsure = 0;  // items whose outcome is unknown
};

Result<SumRange> SumOverWrites(const std::string& table,
                               const std::string& attribute,
                               const World& world) {
  SumRange range;
  std::map<std::string, int64_t> sure;
  if (auto it = world.writes.find(table); it != world.writes.end()) {
    for (const auto& [key, item] : it->second) {
      DDBLAB_ASSIGN_OR_RETURN(sure[key], TermOf(table, attribute, key, item));
      range.low += sure[key];
    }
  }
  range.high = range.low;
  auto it = world.unsure_writes.find(table);
  if (it == world.unsure_writes.end()) return range;
  for (const auto& [key, item] : it->second) {
    DDBLAB_ASSIGN_OR_RETURN(int64_t term, TermOf(table, attribute, key, item));
    // Instead of what is sure of the key (or nothing): a change of delta.
    const int64_t delta = term - (sure.contains(key) ? sure[key] : 0);
    range.low += std::min<int64_t>(delta, 0);
    range.high += std::max<int64_t>(delta, 0);
    ++range.unsure;
  }
  return range;
}

Result<Problems> CheckSum(const InvariantSpec& inv, Backend& backend,
                          const World& world) {
  DDBLAB_ASSIGN_OR_RETURN(std::vector<json> items,
                          patterns::ScanAll(backend, inv.table));
  int64_t sum = 0;
  for (const json& item : items) {
    if (!item.contains(inv.attribute)) continue;
    auto n = patterns::AsInt(item[inv.attribute]);
    if (!n) {
      return Problems{"an item of " + inv.table + " has " + inv.attribute +
                      " " + item[inv.attribute].dump() + ", not an integer N"};
    }
    sum += *n;
  }
  if (!inv.over_writes) {
    if (sum == inv.equals) return Problems();
    return Problems{"the sum of " + inv.attribute + " over " + inv.table +
                    " is " + std::to_string(sum) + ", expected " +
                    std::to_string(inv.equals)};
  }
  auto want = SumOverWrites(inv.writes_table, inv.writes_attribute, world);
  if (!want.ok()) return Problems{want.error().message};
  if (sum >= want->low && sum <= want->high) return Problems();
  const std::string what =
      inv.writes_attribute.empty()
          ? "the number of items the actors wrote to " + inv.writes_table
          : "the sum of " + inv.writes_attribute +
                " over the items the "
                "actors wrote to " +
                inv.writes_table;
  const std::string expected =
      want->low == want->high
          ? std::to_string(want->low)
          : std::to_string(want->low) + " to " + std::to_string(want->high);
  const std::string unsure =
      want->unsure == 0 ? ""
                        : ", " + std::to_string(want->unsure) +
                              (want->unsure == 1 ? " write" : " writes") +
                              " of unknown outcome";
  const int64_t off = sum > want->high ? sum - want->high : want->low - sum;
  return Problems{"the sum of " + inv.attribute + " over " + inv.table +
                  " is " + std::to_string(sum) + ", expected " + expected +
                  " (" + what + unsure + "; " +
                  (sum > want->high ? "over by " : "under by ") +
                  std::to_string(off) + ")"};
}

}  // namespace

Result<std::vector<std::string>> Evaluate(const InvariantSpec& inv,
                                          const Scenario& scenario,
                                          Backend& backend,
                                          const World& world) {
  if (inv.check == "item_equals") return CheckItem(inv, backend);
  if (inv.check == "count") return CheckCount(inv, backend);
  if (inv.check == "sum") return CheckSum(inv, backend, world);
  if (inv.check == kRollupAggregator) {
    return CheckRollups(scenario, inv.table, backend);
  }
  if (inv.check == kTtlExpiryListener) return CheckListeners(inv.table, world);
  Problems problems;
  for (const std::string& table : TablesOf(scenario, inv.check, inv.table)) {
    Problems found;
    if (inv.check == kOrderedWrites) {
      DDBLAB_ASSIGN_OR_RETURN(found, CheckOrdered(table, backend, world));
    } else if (inv.check == kIdempotentCounter) {
      DDBLAB_ASSIGN_OR_RETURN(found, CheckCounters(table, backend, world));
    } else if (inv.check == kUniqueClaims) {
      DDBLAB_ASSIGN_OR_RETURN(found, CheckClaims(table, backend));
    } else {
      auto it = world.sweep_problems.find(table);
      if (it != world.sweep_problems.end()) found = it->second;
    }
    problems.insert(problems.end(), found.begin(), found.end());
  }
  return problems;
}

}  // namespace ddblab::harness::scenario
