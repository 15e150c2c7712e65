// harness/bench/metered_backend.h: a Backend decorator that meters what a
// benchmark costs: it asks every data-plane call for its consumed capacity
// (ReturnConsumedCapacity TOTAL, unless the caller asked for something
// itself) and sums the CapacityUnits DynamoDB answers per table, and counts
// throttles (ThrottlingException, ProvisionedThroughputExceededException,
// RequestLimitExceeded, a transaction cancelled with ThrottlingError) and
// BatchWriteItem items left unprocessed, per table.
//
// A response without ConsumedCapacity (an endpoint that does not report
// it) is counted as unmetered, so a report can say the figure is not
// available instead of printing a zero.
//
// Clock control keeps both sides in step: where the inner backend's clock()
// is a local ManualClock that AdvanceClock/SetClock do not move (an
// HttpBackend on `ddblab serve --clock manual`: the call moves the server's
// clock), the local clock is moved too, so that times the harness reads and
// the server's agree. Everything else (streams and the other controls) goes
// to the inner backend unchanged.
//
// Thread-safety: as the inner backend; the meters have their own lock.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "emulator/api/mutex.h"
#include "emulator/api/thread_annotations.h"
#include "harness/backend/forwarding_backend.h"

namespace ddblab::harness::bench {

struct TableMeter {
  double write_units = 0;   // CapacityUnits of write calls
  double read_units = 0;    // CapacityUnits of read calls
  int64_t metered = 0;      // successful calls that reported capacity
  int64_t unmetered = 0;    // successful calls that did not
  int64_t throttles = 0;    // throttled calls (or cancelled by a throttle)
  int64_t unprocessed = 0;  // BatchWriteItem items sent back unprocessed
};

class MeteredBackend final : public ForwardingBackend {
 public:
  explicit MeteredBackend(Backend& inner) : ForwardingBackend(inner) {}

  Result<json> Call(std::string_view operation, const json& request) override;
  Result<json> CallStreams(std::string_view operation,
                           const json& request) override;
  Status AdvanceClock(Duration d) override;
  Status SetClock(TimePoint t) override;

  // A copy of the meter of `table` (zeros when it was never called).
  TableMeter Meter(const std::string& table) const;
  // Calls by operation name (DynamoDB and Streams).
  std::map<std::string, int64_t> Calls() const;
  // Streams calls throttled (LimitExceededException and the throttles).
  int64_t stream_throttles() const;

 private:
  void Record(std::string_view operation, const json& request,
              const Result<json>& out);
  void Count(std::string_view operation) DDBLAB_REQUIRES(mu_);
  TableMeter& Table(const std::string& name) DDBLAB_REQUIRES(mu_);
  // One ConsumedCapacity entry of a response, on its table's meter.
  void AddConsumed(const json& consumed, bool write) DDBLAB_REQUIRES(mu_);

  mutable Mutex mu_;
  std::map<std::string, TableMeter, std::less<>> tables_ DDBLAB_GUARDED_BY(mu_);
  std::map<std::string, int64_t, std::less<>> calls_ DDBLAB_GUARDED_BY(mu_);
  int64_t stream_throttles_ DDBLAB_GUARDED_BY(mu_) = 0;
};

}  // namespace ddblab::harness::bench
