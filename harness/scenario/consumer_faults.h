// harness/scenario/consumer_faults.h: faults of a consumer's function
// (a scenario's faults.consumer), and the Function that suffers them.
//
// An entry chooses records and an effect:
//   {"id": "poison", "actor": "rollup", "effect": "error",
//    "records": [3], "key": "t7", "event_name": "INSERT",
//    "probability": 0.5, "times": 1}
// A record is chosen when it matches every selector given: `records` its
// 1-based position among all the records the actor's function has received
// (a batch delivered again counts again), `key` the value of one of its key
// attributes (a string or a list), `event_name`; then, if `probability` is
// given, by a draw from the scenario seed (Rng(seed).Fork("consumer/" +
// actor)), made in record order so the same seed draws the same. `times`
// caps the firings of the entry. Effects:
//   error               the function throws when it reaches the record: the
//                       records before it in the batch were handled (their
//                       writes stay), the invocation is a function error.
//   batch_item_failure  the function handles the whole batch, then reports
//                       the record in batchItemFailures (added to what the
//                       handler reported; Lambda acts on it only with
//                       FunctionResponseTypes ReportBatchItemFailures).
//   timeout             the function handles the whole batch, then times
//                       out ("Task timed out after 3.00 seconds"): every
//                       write stays and Lambda delivers the batch again.
// Each firing is a trace event {"step":N,"fault":id,"effect":..,"key":..,
// "sequence":..}; each invocation {"step":N,"delivery":{..}}.
//
// Thread-safety: not thread-safe; one actor's step at a time.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "emulator/api/random.h"
#include "emulator/api/result.h"
#include "harness/consumer/function.h"
#include "harness/scenario/scenario.h"

namespace ddblab::harness::scenario {

// Parses faults.consumer (`value` at `path`). Actor names are checked by
// CheckConsumerFaultActors once the actors are known.
Result<std::vector<ConsumerFault>> ParseConsumerFaults(const json& value,
                                                       const std::string& path);
// Every `actor` must name a consumer actor, one with poll ops (a copy's
// name or the name of the entry it was copied from).
Status CheckConsumerFaultActors(const Scenario& scenario);
// The entry as written in a file.
nlohmann::ordered_json ConsumerFaultToJson(const ConsumerFault& fault);
// True when `fault` applies to the actor named `actor` ("rollup#2" is a
// copy of "rollup").
bool AppliesTo(const ConsumerFault& fault, const std::string& actor);

// The values of a stream record's key attributes ("t7"; "a/1" for a
// composite key, in attribute-name order).
std::string RecordKey(const json& record);

// The function a consumer actor's mapping invokes: the pattern's handler
// (or, for a consumer actor of a command run, the user's function: a
// function error or "not delivered" of its own is the invocation's) with
// the actor's consumer faults applied. Trace events go to `events`.
class FaultyFunction final : public consumer::Function {
 public:
  using Handler = std::function<Result<json>(const json& event)>;
  // `firings` (may be null) gets every firing, named for `actor`.
  FaultyFunction(Handler handler, std::vector<ConsumerFault> faults, Rng rng,
                 std::vector<nlohmann::ordered_json>* events,
                 std::string actor = "",
                 std::vector<ConsumerFiring>* firings = nullptr);
  FaultyFunction(std::unique_ptr<consumer::Function> inner,
                 std::vector<ConsumerFault> faults, Rng rng,
                 std::vector<nlohmann::ordered_json>* events,
                 std::string actor = "",
                 std::vector<ConsumerFiring>* firings = nullptr);

  consumer::Invocation Invoke(const json& event) override;
  std::string Describe() const override { return "scenario consumer"; }

 private:
  struct Decision {
    size_t fault = 0;   // index into faults_
    size_t record = 0;  // index into the batch
  };
  std::vector<Decision> Decide(const json& records);
  consumer::Invocation Run(const json& event);

  std::function<consumer::Invocation(const json& event)> handler_;
  std::vector<ConsumerFault> faults_;
  std::vector<int64_t> fired_;
  Rng rng_;
  int64_t received_ = 0;
  std::vector<nlohmann::ordered_json>* events_;
  std::string actor_;
  std::vector<ConsumerFiring>* firings_;
};

}  // namespace ddblab::harness::scenario
