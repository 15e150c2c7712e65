// harness/backend/backend.h: the one way harness code talks to DynamoDB.
//
//   auto backend = ddblab::harness::OpenBackend("emulator?clock=manual");
//   Result<nlohmann::json> out = (*backend)->Call("PutItem", request);
//
// A Backend takes DynamoDB's JSON 1.0 request bodies and answers with the
// response body, or an Error carrying DynamoDB's exception name and message.
// A transport failure (connection reset or closed before the answer, read
// timeout, corrupted response) is ErrorType::kOutcomeUnknown: the request may
// or may not have been applied. It is never confused with a DynamoDB error.
//
// Backends (chosen by OpenBackend from one string, the same everywhere a
// user names a backend):
//   emulator[?k=v&...]  ddblab in this process (InProcessBackend). Keys:
//                       clock=system|manual[=EPOCH_SECONDS], seed=N,
//                       ttl_delay=SPEC, stream_shards=N,
//                       shard_rollover=DURATION|off, capacity=off|enforce,
//                       index_lag=SPEC, read_lag=SPEC (emulator/api/lag.h),
//                       region=R, db=PATH
//   http[s]://HOST:PORT any DynamoDB endpoint (HttpBackend); when it answers
//                       GET /_ddblab/health as ddblab, its controls are used
//   aws | aws:REGION    Amazon DynamoDB (HttpBackend, HTTPS, SigV4)
//
// Control (advance/set the clock, fault plans, splitting stream shards,
// sweeping TTL, resetting to an empty backend, the eventual-consistency
// model's lags, deciding probabilistic fault draws) is optional and
// discoverable with Has(): a backend without a control answers the call with an
// error that says so ("backend aws has no clock control"), never with a silent
// no-op.
//
// Thread-safety: Call and CallStreams may be called from many threads at
// once on every backend; the control methods too.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "emulator/api/clock.h"
#include "emulator/api/fault_draw.h"
#include "emulator/api/result.h"
#include "harness/backend/aws_config.h"
#include "harness/backend/retry_policy.h"

namespace ddblab::harness {

using json = nlohmann::json;

enum class Capability {
  kClock,         // AdvanceClock, SetClock
  kFaultPlan,     // SetFaultPlan
  kStreamShards,  // SplitStreamShards
  kTtlSweep,      // SweepTtl
  kReset,         // Reset
  kConsistency,   // SetConsistency, SettleConsistency
  kFaultDraws,    // SetFaultDrawHook (in process only)
};

// "clock", "fault plan", "stream shard", "TTL sweep", "reset",
// "consistency", "fault draw".
std::string_view CapabilityName(Capability capability);

// What Backend::Reset sets once the backend is empty (ddblab's
// Emulator::Reset, POST /_ddblab/reset); an unset member keeps the value in
// force.
struct ResetSpec {
  std::optional<TimePoint> clock;  // may go backwards; a manual clock only
  std::optional<uint64_t> seed;    // the emulator's seed (fault draws, ...)
  std::optional<std::string> ttl_delay;    // "0", "90s", "1m..48h", "aws"
  std::optional<int> stream_shards;        // 1..1024
  std::optional<Duration> shard_rollover;  // zero: never
};

class Backend {
 public:
  virtual ~Backend() = default;

  // The backend's name as given to OpenBackend without options ("emulator",
  // "http://127.0.0.1:8000", "aws:eu-west-1").
  virtual const std::string& name() const = 0;

  virtual Result<json> Call(std::string_view operation,
                            const json& request) = 0;
  virtual Result<json> CallStreams(std::string_view operation,
                                   const json& request) = 0;

  // The backend's notion of now: the emulator's clock in process; for a
  // network endpoint the clock given in BackendOptions (SystemClock by
  // default), which also carries the retry waits.
  virtual Clock& clock() = 0;

  virtual bool Has(Capability capability) const;

  // Each fails with "backend <name> has no <capability> control" (an
  // UnknownOperationException) where Has() is false.
  virtual Status AdvanceClock(Duration d);
  virtual Status SetClock(TimePoint t);
  // A fault plan as the emulator's fault layer reads it (JSON).
  virtual Status SetFaultPlan(const json& plan);
  // {"closed": [...], "created": [...]}.
  virtual Result<json> SplitStreamShards(
      std::string_view table, const std::optional<std::string>& shard_id = {});
  // The number of TTL deletions run.
  virtual Result<int64_t> SweepTtl();
  // Drops every table, stream, fault plan (with its counters and log),
  // capacity ledger and hosted event source mapping, then applies `spec`:
  // the backend is as a fresh ddblab opened with those settings.
  virtual Status Reset(const ResetSpec& spec);
  // ddblab's eventual-consistency model (Emulator::SetConsistency, POST
  // /_ddblab/consistency): settings such as {"index_lag": "2s", "read_lag":
  // "0..1s", "tables": {"orders": {"indexes": {"byWindow": "5s"}}}}; members
  // left out stay. Bad settings are a ValidationException naming the member
  // ("read_lag: invalid lag '2s..1s': ..."), and nothing changes. Reset puts
  // the lags back to those the backend was opened (or served) with.
  virtual Status SetConsistency(const json& settings);
  // Makes every pending index change visible now; how many there were.
  virtual Result<int64_t> SettleConsistency();
  // Decides the draws of the fault plan's rules with 0 < probability < 1
  // in place of the seeded generator (emulator/api/fault_draw.h; null: the
  // generator again). In process only: the hook runs inside the emulator's
  // fault layer, with its lock held, and must not call the backend.
  virtual Status SetFaultDrawHook(FaultDrawHook hook);

 protected:
  Error NoControl(Capability capability) const;
};

// What OpenBackend cannot read from the backend string.
struct BackendOptions {
  // Network backends: explicit credentials (first in the chain) and where
  // the rest of the chain reads from.
  std::optional<AwsCredentials> credentials;
  AwsEnvironment environment = AwsEnvironment::Process();
  RetryPolicy retry;
  // Network backends: extra CA certificates (PEM file) trusted besides the
  // system store, e.g. a test's self-signed certificate.
  std::string ca_cert_file;
  // Network backends: the clock that times retry waits (and clock()). Null
  // means a SystemClock. With a ManualClock a wait advances it instead of
  // sleeping.
  std::shared_ptr<Clock> clock;
  // Read timeout of one attempt.
  Duration read_timeout = std::chrono::seconds(60);
  // ddblab serve: the token its /_ddblab/ control endpoints want (--control
  // local-token). Unset: $DDBLAB_CONTROL_TOKEN (from `environment`), else,
  // for a loopback endpoint, the file that a ddblab serve on that port wrote
  // (common/control_token). Never sent to another host unless given here.
  std::optional<std::string> control_token;
};

// Opens the backend named by `spec` (see the top of this file). A bad spec
// is a ValidationException naming what is wrong.
Result<std::unique_ptr<Backend>> OpenBackend(
    std::string_view spec, const BackendOptions& options = {});

}  // namespace ddblab::harness
