// harness/scenario/actors.h: the actors of a scenario and what they share.
//
// An actor runs its ops one step at a time; a step is one atomic actor call.
// The pattern actors retry what an AWS SDK's standard retry mode retries
// (patterns::SdkRetries: a lost answer, throttling, a server error; not a
// failed condition, a cancelled transaction or a validation error): a
// failed attempt is attempted again as the actor's *next step*, the same
// write (timestamp, idempotency key, ttl), up to params.max_attempts
// attempts (3, an SDK's default; a sweeper's put: 3), other actors moving
// in between; no wait is modelled (the clock moves only by tick). An op one
// of whose attempts lost its answer and whose last attempt failed may have
// applied (WriteFate::kUnknown, IncrementBook::unknown). params.sdk_retries
// false retries only a lost answer (the behaviour before SDK retries).
//   ordered_writes      put / delete: one PutItem or DeleteItem attempt.
//   idempotent_counter  add: one IdempotentCounter::AddAttempt.
//   ttl_window_sweeper  put: one PutItem attempt; sweep: one step per
//                       DynamoDB call of the trigger (each Query page, each
//                       DeleteItem or BatchWriteItem attempt: the sweeper
//                       retries throttles and unprocessed items by its own
//                       rules), other actors moving in between; after its
//                       last call the table is checked against the
//                       pattern's invariant and against the books (no item
//                       put with a ttl not yet past is gone).
//   unique_claims       claim: one UniqueClaims::ClaimAttempt (gsi_check:
//                       its Query and PutItem).
//   script              call: one raw DynamoDB call, never retried.
//   rollup_aggregator, ttl_expiry_listener: writers and stream consumers,
//                       see consumer_actors.h (a consumer's step is one
//                       polling round of its event source mapping).
// The pattern code is harness/patterns'; an actor only feeds it and keeps
// the books (World) that the invariants compare the table with.
//
// Thread-safety: not thread-safe; the runner drives one step at a time.
#pragma once

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "harness/backend/backend.h"
#include "harness/patterns/ordered_writes.h"
#include "harness/patterns/ttl_expiry_listener.h"
#include "harness/scenario/scenario.h"

namespace ddblab::harness::scenario {

// One logical increment of a counter, as the actors issued it.
struct IncrementBook {
  int64_t amount = 0;
  bool applied = false;  // some attempt is known to have counted it
  bool unknown = false;  // every attempt's answer was lost
  std::string failure;   // a definite error ("" if none)
  // Late retries (an `add` of a key already counted, issued more than the
  // window before it ran) that counted again: the window's promise, so
  // they are expected in the counter.
  int64_t late_applied = 0;
};

// What the actors did, for the pattern invariants.
struct World {
  // ordered_writes: what the writers sent, per table.
  std::map<std::string, patterns::OrderedLedger> ledgers;
  // idempotent_counter: per table, per counter, per idempotency key.
  std::map<std::string,
           std::map<std::string, std::map<std::string, IncrementBook>>>
      counters;
  // ttl_window_sweeper: per table, what the check after each sweep found.
  std::map<std::string, std::vector<std::string>> sweep_problems;
  std::map<std::string, int> sweeps;
  // ttl_window_sweeper: per table, per pk, the ttl the actors' last applied
  // put wrote (a pk whose last put lost every answer is left out).
  std::map<std::string, std::map<std::string, int64_t>> sweeper_items;
  // ttl_expiry_listener: one listener per table, shared by its writers and
  // consumers (its books are the invariant's).
  std::map<std::string, std::shared_ptr<patterns::TtlExpiryListener>> listeners;
  // For `sum` over writes: per table, the items the actors know they wrote
  // (by key; a delete removes it), and those whose write or removal lost
  // every answer: each may or may not be there.
  std::map<std::string, std::map<std::string, json>> writes;
  std::map<std::string, std::map<std::string, json>> unsure_writes;
  // The consumers' function faults and the seed of their draws.
  std::vector<ConsumerFault> consumer_faults;
  uint64_t seed = 1;
  // The run's start (an op's `issued_at` counts from it).
  TimePoint start{};
  // What they did, in order.
  std::vector<ConsumerFiring> consumer_firings;
};

// What one step did, for the trace.
struct StepOutcome {
  std::string op;      // "put k/1 ts=1704067200000", "sweep", "call PutItem"
  std::string result;  // "applied", "stale", "retry", "error <Name>: ..."
  // Further trace events of the step (consumer faults fired, deliveries),
  // each written as {"step":N, ...}.
  std::vector<nlohmann::ordered_json> events;
};

class Actor {
 public:
  explicit Actor(const ActorSpec& spec) : spec_(spec) {}
  virtual ~Actor() = default;

  const ActorSpec& spec() const { return spec_; }
  // Creates what the actor needs (its table). Not a step.
  virtual Status Setup() = 0;
  bool done() const { return next_op_ >= spec_.ops.size(); }
  // The op the next step works on (index into spec().ops), and its attempt.
  size_t next_op() const { return next_op_; }
  int attempt() const { return attempt_; }
  // Runs one step of the next op.
  virtual StepOutcome Step() = 0;
  // Set by a step whose call DynamoDB refused as malformed (see
  // MalformedCall) when its op did not expect it: the run stops with exit 2
  // and this message ("<op path> (actor <name>, <operation>): ...").
  const std::string& malformed() const { return malformed_; }
  // A stream consumer (an actor with poll ops) keeps polling after its last
  // op, as an event source mapping never stops: once every actor is done
  // and the timeline is empty, the runner gives it one more poll op
  // (AddOp), and more while its last round was not idle.
  virtual bool Polls() const { return false; }
  // Its last polling round ended and invoked nothing.
  virtual bool LastRoundIdle() const { return false; }
  // Appends an op (already expanded) to the actor's ops.
  void AddOp(nlohmann::json op) { spec_.ops.push_back(std::move(op)); }

 protected:
  // Moves on to the next op.
  void Advance() {
    ++next_op_;
    attempt_ = 1;
  }
  void Retry() { ++attempt_; }

  ActorSpec spec_;
  size_t next_op_ = 0;
  int attempt_ = 1;
  std::string malformed_;
};

// Builds the actor for `spec` on `backend` (the traced backend: every call
// it makes is part of its step); `world` outlives it. A bad parameter (one
// the pattern's own Open refuses) is a ValidationException naming the path.
Result<std::unique_ptr<Actor>> MakeActor(const ActorSpec& spec,
                                         Backend& backend, Backend& checker,
                                         World& world);

// "<Name>: <message>", except for OutcomeUnknown, whose message depends on
// the backend: "OutcomeUnknown: the request may have been applied; its
// answer was lost".
std::string TraceErrorText(const Error& error);
// True for the errors DynamoDB gives a malformed request rather than an
// answer about the data: ValidationException, SerializationException,
// UnknownOperationException. ConditionalCheckFailed, throttles,
// TransactionCanceled and the like are answers.
bool MalformedCall(const Error& error);
// "error " + TraceErrorText(error).
std::string ErrorText(const Error& error);

// The table an actor of a pattern works on (its params.table or the
// pattern's default).
std::string ActorTable(const ActorSpec& spec);

}  // namespace ddblab::harness::scenario
