// harness/consumer/host.h: hosts event source mappings behind a small JSON
// API, the one `ddblab serve` (cli/control_esm.h) and `ddblab-consume`
// expose under /_ddblab/event-source-mappings (see docs/consumer.md):
//
//   POST   .../event-source-mappings          create: 202, the mapping (403
//                                             unless AllowApiFunctions)
//   GET    .../event-source-mappings          {"EventSourceMappings": [...]}
//   GET    .../event-source-mappings/{uuid}   the mapping, with Metrics and
//                                             ShardCheckpoints: [{"ShardId",
//                                             "SequenceNumber" (absent until
//                                             something is processed)}]
//   PUT    .../event-source-mappings/{uuid}   update (Enabled false pauses)
//   DELETE .../event-source-mappings/{uuid}   delete: 202, State Deleting
//   GET    .../event-source-mappings/{uuid}/failures
//                                             {"Failures": [on-failure
//                                             records]}
//   POST   .../event-source-mappings/run      deliver what is due now:
//                                             {"Invocations": n}
//
// A create body takes CreateEventSourceMapping's field names (EventSourceArn
// or TableName, FunctionName, StartingPosition, ...) plus "Function":
// {"Command": [argv...], "TimeoutSeconds": n} or {"Url": "http://..."}.
// Errors answer 400/404 with {"__type": Lambda's exception name, "message"}.
//
// Delivery: RunDue() steps every mapping until nothing more is due; Start()
// runs it on a thread about 4 times a second of the backend's clock (with a
// ManualClock, each advance of the clock wakes it). A batch that keeps
// failing is due again at once, so one RunDue stops retrying a mapping after
// kMaxStuckRounds rounds in a row that invoked it without moving anything
// (no checkpoint moved, nothing filtered or discarded); the next RunDue
// goes on. Rounds that make progress are not limited (up to
// kMaxRoundsPerPass, a backstop).
//
// Ownership: borrows the Backend (must outlive the host); owns the mappings.
// Thread-safety: every method may be called from any thread; one mutex
// serialises API calls and delivery (a slow function delays API calls).
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "emulator/api/mutex.h"
#include "emulator/api/random.h"
#include "emulator/api/result.h"
#include "emulator/api/thread_annotations.h"
#include "harness/backend/backend.h"
#include "harness/consumer/esm.h"

namespace ddblab::harness::consumer {

inline constexpr int64_t kMaxStuckRounds = 32;
inline constexpr int64_t kMaxRoundsPerPass = 100000;

// Reads a mappings file (see EsmHost::LoadFile) and checks every entry as
// Create would (configuration and Function), without a backend. Errors:
// "cannot read <path>", "<path>: not valid JSON", "<path>: expected a JSON
// list of event source mappings", "<path>: mapping <index>: <what is
// wrong>" (index from 0), each a ValidationException.
Result<std::vector<json>> ReadMappingsFile(const std::string& path);

class EsmHost {
 public:
  explicit EsmHost(Backend& backend, uint64_t seed = 1);
  ~EsmHost();

  struct Response {
    int status = 200;
    json body;
  };
  // `path` is the request path without the query.
  Response Handle(std::string_view method, std::string_view path,
                  std::string_view body);

  // Creates one mapping from a create body; returns the mapping object.
  Result<json> Create(const json& request);
  // Loads a file holding a JSON list of create bodies (or
  // {"EventSourceMappings": [...]}); all or nothing (ReadMappingsFile, then
  // LoadMappings).
  Status LoadFile(const std::string& path);
  // Creates every mapping of `bodies` or none; an error names the entry as
  // "<source>: mapping <index>: ...".
  Status LoadMappings(const std::vector<json>& bodies, std::string_view source);

  // Whether POST .../event-source-mappings may create mappings (each runs a
  // command or calls a URL). Off by default: Handle answers it 403
  // AccessDeniedException; mappings of a file (LoadFile, LoadMappings) and
  // Create are always allowed (the operator chose them).
  void AllowApiFunctions(bool allow) { allow_api_functions_ = allow; }

  // Steps every enabled mapping until none has anything due. Returns the
  // invocations made. Errors reading a stream are kept on the mapping (its
  // StateTransitionReason in the listing), not returned.
  int64_t RunDue();
  void Start();
  void Stop();
  // Deletes every mapping (those of a file too) and reseeds the UUIDs with
  // `seed`: a reset server (POST /_ddblab/reset) hosts none.
  void Clear(uint64_t seed);

 private:
  struct Hosted {
    std::unique_ptr<EventSourceMapping> esm;
    json function;
    std::string last_error;
  };
  json DescribeLocked(const Hosted& h) const DDBLAB_REQUIRES(mu_);
  Result<json> CreateLocked(const json& request) DDBLAB_REQUIRES(mu_);
  int64_t RunDueLocked() DDBLAB_REQUIRES(mu_);

  Backend& backend_;
  mutable Mutex mu_;
  Rng rng_ DDBLAB_GUARDED_BY(mu_);
  std::map<std::string, Hosted> mappings_ DDBLAB_GUARDED_BY(mu_);  // by UUID
  std::atomic<bool> allow_api_functions_{false};
  std::jthread runner_;
};

}  // namespace ddblab::harness::consumer
