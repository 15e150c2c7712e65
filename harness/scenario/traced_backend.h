// harness/scenario/traced_backend.h: a Backend that records the calls made
// through it, so the runner can write each step's calls to the trace.
//
// It forwards everything to the backend it wraps. For a network backend the
// scenario's clock lives on both sides: the server's (moved through the
// control endpoint) and the local ManualClock the patterns read; `mirror`
// is that local clock and AdvanceClock / SetClock move both.
//
// Thread-safety: not thread-safe; the runner drives one step at a time.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/clock.h"
#include "harness/backend/backend.h"
#include "harness/backend/forwarding_backend.h"
#include "harness/scenario/footprint.h"

namespace ddblab::harness::scenario {

struct CallRecord {
  std::string operation;
  std::optional<Error> error;  // set when the call failed
  // The answer when it did not fail: the response itself when its strings
  // hold at most 512 bytes, else {"digest": 16 hex digits, "string_bytes":
  // N} (a structural FNV-1a 64 hash of the whole response and the bytes of
  // its strings), so a large item costs one pass and no copy.
  json response;
  // A batch answer with UnprocessedItems / UnprocessedKeys left.
  bool unprocessed = false;
  // The tables the request names (TablesOfRequest; empty: none known).
  std::vector<std::string> tables;
  // How far the backend's clock moved during the call: a latency fault's
  // delay (on a manual clock the call moves it) or retry waits.
  Duration waited = Duration::zero();
  // What the call touched, when footprints are on (set_footprints).
  Footprint footprint;
};

// The summary described at CallRecord::response.
json SummarizeResponse(const json& response);

class TracedBackend final : public ForwardingBackend {
 public:
  TracedBackend(Backend& inner, std::shared_ptr<ManualClock> mirror)
      : ForwardingBackend(inner), mirror_(std::move(mirror)) {}

  Result<json> Call(std::string_view operation, const json& request) override;
  Result<json> CallStreams(std::string_view operation,
                           const json& request) override;
  Status AdvanceClock(Duration d) override;
  Status SetClock(TimePoint t) override;

  // The calls made since the last Take, in order.
  std::vector<CallRecord> TakeCalls();
  // Stop or resume recording (invariant checks are not steps).
  void set_recording(bool on) { recording_ = on; }
  // Summarize responses (CallRecord::response); off, it stays null.
  void set_summaries(bool on) { summaries_ = on; }
  // Work out each recorded call's footprint from its request and the
  // tables' shapes: every CreateTable made through this backend (recording
  // or not), and those given to NoteTable.
  void set_footprints(bool on) { footprints_ = on; }
  void NoteTable(const json& create_table) { shapes_.Note(create_table); }

 private:
  Result<json> Record(std::string_view operation, const json& request,
                      TimePoint before, Result<json> out);

  std::shared_ptr<ManualClock> mirror_;
  std::vector<CallRecord> calls_;
  bool recording_ = true;
  bool summaries_ = true;
  bool footprints_ = false;
  TableShapes shapes_;
};

}  // namespace ddblab::harness::scenario
