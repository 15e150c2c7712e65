// harness/scenario/unmatched_rules.h: the fault rules no call of a run could
// match, and why.
//
// A rule whose operation or table names nothing the run calls never fires,
// and a run that says nothing about it reads as "the fault did not matter".
// UnmatchedRules compares the scenario's fault plan (`faults.rules`, the plan
// the run starts with) with the calls the actors made: a rule is listed when
// no call had one of its operations (an effect's own operations when it names
// none: unprocessed, conflict and the Streams effects), or none of those on
// one of its tables. Only operation and table are judged: a rule that fails
// on its key, nth, after, from/until or probability did match calls and is
// not listed. A call whose table is not in its request (GetRecords names a
// shard iterator) counts as a call on every table. Plans set by timeline
// `faults` events are not judged.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include "harness/backend/backend.h"

namespace ddblab::harness::scenario {

// What a call was, for matching fault rules.
struct CallSeen {
  std::string operation;
  std::vector<std::string> tables;  // empty: not known (counts as any)
};

// The tables `request` names: TableName, RequestItems' and TransactItems'
// tables, a StreamArn's or TableArn's table.
std::vector<std::string> TablesOfRequest(const json& request);

// One line per rule of `plan` ({"rules": [...]}, or null) that no call in
// `calls` matches: "fault rule <id> (faults.rules[<i>]) matched no call:
// <why>". An unparsable plan gives no lines (the run refused it already).
std::vector<std::string> UnmatchedRules(const json& plan,
                                        const std::vector<CallSeen>& calls);

}  // namespace ddblab::harness::scenario
