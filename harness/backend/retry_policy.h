// harness/backend/retry_policy.h: when and how long an HttpBackend retries.
//
// Standard mode follows the AWS SDKs' "standard" retry mode as botocore and
// the AWS CLI v2 run it by default (without the opt-in 2026 behaviour):
//   * attempts: 3 in total (first call + 2 retries);
//   * retried: the throttling codes (ThrottlingException,
//     ProvisionedThroughputExceededException, RequestLimitExceeded,
//     LimitExceededException, TransactionInProgressException, ...), the
//     transient codes (RequestTimeout, RequestTimeoutException,
//     PriorRequestNotComplete), ReplicatedWriteConflictException, HTTP
//     500/502/503/504, transport failures (connection closed or reset, read
//     timeout) and an x-amz-crc32 mismatch; nothing else (conditional check
//     failures, validation errors, TransactionCanceledException, ...);
//   * wait before retry n (n = 1, 2, ...): rand[0,1) * min(base * 2^(n-1),
//     20 s) with base 1 s ("full jitter"), rand from a seeded generator;
//   * retry quota per backend: 500 tokens; a retry takes 5 (10 after a
//     timeout); no tokens, no retry; a success on the first attempt gives 1
//     back (up to 500), a success after retries gives back what its last
//     retry took.
// Off: one attempt. Custom: standard with another attempt count, base or cap.
//
// Thread-safety: RetryPolicy is a value; RetryState guards itself.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

#include "emulator/api/clock.h"
#include "emulator/api/error.h"
#include "emulator/api/mutex.h"
#include "emulator/api/random.h"
#include "emulator/api/thread_annotations.h"

namespace ddblab::harness {

struct RetryPolicy {
  enum class Mode { kOff, kStandard };
  Mode mode = Mode::kStandard;
  int max_attempts = 3;
  Duration base = std::chrono::seconds(1);
  Duration max_backoff = std::chrono::seconds(20);
  int quota_capacity = 500;
  int retry_cost = 5;
  int timeout_retry_cost = 10;
  int no_retry_increment = 1;
  // Seed of the jitter generator.
  uint64_t seed = 0;

  static RetryPolicy Off();
  static RetryPolicy Standard(uint64_t seed = 0);
  static RetryPolicy Attempts(int max_attempts, uint64_t seed = 0);
};

// Why an attempt failed, as far as retrying is concerned.
enum class FailureKind {
  kNotRetryable,
  kThrottling,
  kTransient,  // 5xx, transient codes, CRC mismatch, connection closed
  kTimeout,    // read/connect timeout (costs more quota)
};

// Classifies a failed attempt: `error` as decoded, `http_status` (0 for a
// transport failure).
FailureKind Classify(const Error& error, int http_status);
// The same for an error that came without an HTTP response of its own (from
// the in-process emulator): the status is the one DynamoDB sends with its
// type (500 InternalServerError, 503 ServiceUnavailable, 400 otherwise).
FailureKind Classify(const Error& error);

// Marks transport failures inside Error::extra ("Transport": "timeout" |
// "closed" | "connect" | "crc32").
inline constexpr const char* kTransportMember = "Transport";

// Per-backend retry state: the quota and the jitter generator.
class RetryState {
 public:
  explicit RetryState(const RetryPolicy& policy);

  const RetryPolicy& policy() const { return policy_; }

  // After failed attempt `attempt` (1-based) of kind `kind`: the wait before
  // the next attempt, or nullopt when the call must give up (not
  // retryable, attempts used up, no quota). Takes the quota it needs;
  // `*taken` holds it (0 when none) for OnSuccess.
  std::optional<Duration> NextWait(int attempt, FailureKind kind, int* taken);
  // A call succeeded; `taken` = what its last retry took (0: first try).
  void OnSuccess(int taken);

  int quota() const;

 private:
  RetryPolicy policy_;
  mutable Mutex mu_;
  int quota_ DDBLAB_GUARDED_BY(mu_);
  Rng rng_ DDBLAB_GUARDED_BY(mu_);
};

}  // namespace ddblab::harness
