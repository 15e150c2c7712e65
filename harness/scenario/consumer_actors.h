// harness/scenario/consumer_actors.h: actors of the stream-consumer
// patterns, each a writer, a consumer, or both (by the ops it runs):
//   rollup_aggregator    transfer: one RollupAggregator::RecordTransfer
//                        (PutItem of a transfer into the source table);
//                        poll: one polling round of the actor's event
//                        source mapping.
//   ttl_expiry_listener  cart: one PutCart; order: one PlaceOrder (the
//                        user's DeleteItem of the cart, refused when the
//                        cart is gone); poll: one polling round.
// A poll op is one polling round (EventSourceMapping::RunOnce: every shard
// read, every lane invoking at most one batch that is due), not a whole
// drain, run one step per unit (EventSourceMapping::StepRound: a
// DescribeTable, DescribeStream, GetShardIterator or GetRecords call, or one
// invocation), so the scheduler interleaves reads and deliveries with the
// writers' steps; a batch that fails is delivered again in a later round.
//
// An actor with a poll op owns an event source mapping built from
// params.mapping (CreateEventSourceMapping's fields as the consumer's
// config parser reads them: BatchSize, ParallelizationFactor,
// BisectBatchOnFunctionError, MaximumRetryAttempts, FunctionResponseTypes,
// FilterCriteria, ...; TableName and EventSourceArn are the actor's, and
// StartingPosition defaults to TRIM_HORIZON). FunctionResponseTypes
// defaults to ReportBatchItemFailures for the variants that report item
// failures (aggregator `correct`, both listener variants) and FilterCriteria
// to the listener variant's filter. The mapping invokes a FaultyFunction:
// the pattern's handler with the scenario's faults.consumer applied.
// Writers and consumers of one listener table share one TtlExpiryListener
// (World::listeners), whose books its invariant reads.
//
// Thread-safety: not thread-safe; the runner drives one step at a time.
#pragma once

#include <memory>

#include "harness/backend/backend.h"
#include "harness/scenario/actors.h"

namespace ddblab::harness::scenario {

// Checks params and ops of a rollup_aggregator or ttl_expiry_listener actor.
Status CheckConsumerActorSpec(const ActorSpec& spec);

// Builds one (spec.pattern is one of the two).
Result<std::unique_ptr<Actor>> MakeConsumerActor(const ActorSpec& spec,
                                                 Backend& backend,
                                                 World& world);

// The tables the actor uses (source/rollup/dedupe, or the carts table).
std::vector<std::string> ConsumerActorTables(const ActorSpec& spec);

// The pattern invariant of every rollup_aggregator source table (or just
// `table`), on `backend`.
Result<std::vector<std::string>> CheckRollups(const Scenario& scenario,
                                              const std::string& table,
                                              Backend& backend);
// The pattern invariant of every listener table (or just `table`).
Result<std::vector<std::string>> CheckListeners(const std::string& table,
                                                const World& world);

}  // namespace ddblab::harness::scenario
