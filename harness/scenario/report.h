// harness/scenario/report.h: one self-contained HTML page for a run
// (`ddblab run --report OUT.html`).
//
// The page is a timeline read top to bottom: one lane (column) per actor,
// one row per step holding the step's op, result and calls in its actor's
// lane; a consumer's deliveries and the consumer faults that fired inside
// its step; clock jumps and timeline events as rows across every lane; a
// lost answer, an error, a batch with items left, a failed delivery and a
// consumer fault in red; and the invariants at the end, the broken one
// highlighted. No script, no external resource. Elements carry classes for
// tests and styles: `lane` (a lane header, with data-actor), `step`, `call`,
// `delivery`, `consumer-fault`, `fault`, `clock`, `event`, `invariant`,
// `violation`.
//
// Thread-safety: a pure function.
#pragma once

#include <string>
#include <vector>

namespace ddblab::harness::scenario {

// `trace`: the run's JSONL lines (RunResult::trace); `actors`: the actor
// names in lane order; `title`: the scenario's name.
std::string RenderReport(const std::string& title,
                         const std::vector<std::string>& actors,
                         const std::vector<std::string>& trace);

}  // namespace ddblab::harness::scenario
