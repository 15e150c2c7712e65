// harness/backend/retry_policy.cc: the SDK standard retry mode (see the
// header for the rules and their source).
#include "harness/backend/retry_policy.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace ddblab::harness {
namespace {

// The SDKs' throttling codes (standard mode).
constexpr std::array<std::string_view, 14> kThrottlingCodes = {
    "Throttling",
    "ThrottlingException",
    "ThrottledException",
    "RequestThrottledException",
    "TooManyRequestsException",
    "ProvisionedThroughputExceededException",
    "TransactionInProgressException",
    "RequestLimitExceeded",
    "BandwidthLimitExceeded",
    "LimitExceededException",
    "RequestThrottled",
    "SlowDown",
    "PriorRequestNotComplete",
    "EC2ThrottledException",
};

constexpr std::array<std::string_view, 4> kTransientCodes = {
    "RequestTimeout",
    "RequestTimeoutException",
    "PriorRequestNotComplete",
    // Modeled `retryable` in DynamoDB's service model.
    "ReplicatedWriteConflictException",
};

// The wire name of an error: the decoded "__type" for names outside
// ErrorType, else the type's name.
std::string_view WireName(const Error& error) {
  if (error.extra.is_object()) {
    auto it = error.extra.find("__type");
    if (it != error.extra.end() && it->is_string()) {
      return it->get_ref<const std::string&>();
    }
  }
  return error.Name();
}

}  // namespace

RetryPolicy RetryPolicy::Off() {
  RetryPolicy policy;
  policy.mode = Mode::kOff;
  policy.max_attempts = 1;
  return policy;
}

RetryPolicy RetryPolicy::Standard(uint64_t seed) {
  RetryPolicy policy;
  policy.seed = seed;
  return policy;
}

RetryPolicy RetryPolicy::Attempts(int max_attempts, uint64_t seed) {
  RetryPolicy policy;
  policy.max_attempts = max_attempts;
  policy.seed = seed;
  return policy;
}

FailureKind Classify(const Error& error, int http_status) {
  if (error.type == ErrorType::kOutcomeUnknown) {
    auto it = error.extra.is_object() ? error.extra.find(kTransportMember)
                                      : error.extra.end();
    if (error.extra.is_object() && it != error.extra.end() &&
        *it == "timeout") {
      return FailureKind::kTimeout;
    }
    return FailureKind::kTransient;
  }
  std::string_view name = WireName(error);
  if (std::find(kThrottlingCodes.begin(), kThrottlingCodes.end(), name) !=
      kThrottlingCodes.end()) {
    return FailureKind::kThrottling;
  }
  if (http_status == 429) return FailureKind::kThrottling;
  if (std::find(kTransientCodes.begin(), kTransientCodes.end(), name) !=
      kTransientCodes.end()) {
    return FailureKind::kTransient;
  }
  if (http_status == 500 || http_status == 502 || http_status == 503 ||
      http_status == 504) {
    return FailureKind::kTransient;
  }
  return FailureKind::kNotRetryable;
}

FailureKind Classify(const Error& error) {
  const int status = error.type == ErrorType::kInternalServerError  ? 500
                     : error.type == ErrorType::kServiceUnavailable ? 503
                                                                    : 400;
  return Classify(error, status);
}

RetryState::RetryState(const RetryPolicy& policy)
    : policy_(policy), quota_(policy.quota_capacity), rng_(policy.seed) {}

std::optional<Duration> RetryState::NextWait(int attempt, FailureKind kind,
                                             int* taken) {
  *taken = 0;
  if (policy_.mode == RetryPolicy::Mode::kOff) return std::nullopt;
  if (kind == FailureKind::kNotRetryable) return std::nullopt;
  if (attempt >= policy_.max_attempts) return std::nullopt;
  MutexLock lock(mu_);
  int cost = kind == FailureKind::kTimeout ? policy_.timeout_retry_cost
                                           : policy_.retry_cost;
  if (quota_ < cost) return std::nullopt;
  quota_ -= cost;
  *taken = cost;
  // rand * min(base * 2^(attempt-1), cap), computed in nanoseconds.
  double ceiling = static_cast<double>(policy_.base.count());
  for (int i = 1; i < attempt; ++i) ceiling *= 2;
  ceiling = std::min(ceiling, static_cast<double>(policy_.max_backoff.count()));
  double wait = rng_.UniformDouble() * ceiling;
  return Duration(static_cast<Duration::rep>(wait));
}

void RetryState::OnSuccess(int taken) {
  MutexLock lock(mu_);
  quota_ = std::min(policy_.quota_capacity,
                    quota_ + (taken > 0 ? taken : policy_.no_retry_increment));
}

int RetryState::quota() const {
  MutexLock lock(mu_);
  return quota_;
}

}  // namespace ddblab::harness
