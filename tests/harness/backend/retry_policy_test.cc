// Unit tests of the SDK standard retry policy: classification, the backoff
// ceilings, determinism by seed, and the retry quota.
#include "harness/backend/retry_policy.h"

#include <gtest/gtest.h>

#include <vector>

namespace ddblab::harness {
namespace {

using std::chrono::seconds;

Error Named(std::string name) {
  Error error = Error::Of(ErrorType::kInternalServerError, "x");
  error.extra = nlohmann::json{{"__type", std::move(name)}};
  return error;
}

TEST(RetryPolicyTest, ClassifiesLikeTheSdkStandardMode) {
  EXPECT_EQ(
      Classify(Error::Of(ErrorType::kProvisionedThroughputExceeded, ""), 400),
      FailureKind::kThrottling);
  EXPECT_EQ(Classify(Error::Of(ErrorType::kThrottling, ""), 400),
            FailureKind::kThrottling);
  EXPECT_EQ(Classify(Error::Of(ErrorType::kRequestLimitExceeded, ""), 400),
            FailureKind::kThrottling);
  EXPECT_EQ(Classify(Error::Of(ErrorType::kLimitExceeded, ""), 400),
            FailureKind::kThrottling);
  EXPECT_EQ(Classify(Error::Of(ErrorType::kTransactionInProgress, ""), 400),
            FailureKind::kThrottling);
  EXPECT_EQ(Classify(Error::Internal("Internal server error"), 500),
            FailureKind::kTransient);
  EXPECT_EQ(Classify(Named("ServiceUnavailable"), 503),
            FailureKind::kTransient);
  EXPECT_EQ(Classify(Named("ReplicatedWriteConflictException"), 409),
            FailureKind::kTransient);
  Error closed = Error::Of(ErrorType::kOutcomeUnknown, "closed");
  closed.extra = nlohmann::json{{kTransportMember, "closed"}};
  EXPECT_EQ(Classify(closed, 0), FailureKind::kTransient);
  Error timeout = Error::Of(ErrorType::kOutcomeUnknown, "timeout");
  timeout.extra = nlohmann::json{{kTransportMember, "timeout"}};
  EXPECT_EQ(Classify(timeout, 0), FailureKind::kTimeout);
  for (ErrorType type :
       {ErrorType::kConditionalCheckFailed, ErrorType::kValidation,
        ErrorType::kResourceNotFound, ErrorType::kTransactionCanceled,
        ErrorType::kTransactionConflict, ErrorType::kExpiredIterator,
        ErrorType::kIdempotentParameterMismatch}) {
    EXPECT_EQ(Classify(Error::Of(type, ""), 400), FailureKind::kNotRetryable)
        << ErrorTypeName(type);
  }
}

std::vector<Duration> Waits(uint64_t seed, int attempts) {
  RetryState state(RetryPolicy::Attempts(attempts, seed));
  std::vector<Duration> waits;
  for (int attempt = 1;; ++attempt) {
    int taken = 0;
    auto wait = state.NextWait(attempt, FailureKind::kThrottling, &taken);
    if (!wait) break;
    EXPECT_EQ(taken, 5);
    waits.push_back(*wait);
  }
  return waits;
}

// Errors from the in-process emulator carry no HTTP status: it is the one
// DynamoDB sends with the type.
TEST(RetryPolicyTest, ClassifiesInProcessErrorsByTheirType) {
  EXPECT_EQ(Classify(Error::Of(ErrorType::kProvisionedThroughputExceeded, "")),
            FailureKind::kThrottling);
  EXPECT_EQ(Classify(Error::Of(ErrorType::kTransactionInProgress, "")),
            FailureKind::kThrottling);
  EXPECT_EQ(Classify(Error::Internal("Internal server error")),
            FailureKind::kTransient);
  EXPECT_EQ(Classify(Error::Of(ErrorType::kServiceUnavailable, "")),
            FailureKind::kTransient);
  EXPECT_EQ(Classify(Error::Of(ErrorType::kOutcomeUnknown, "closed")),
            FailureKind::kTransient);
  EXPECT_EQ(Classify(Error::Of(ErrorType::kConditionalCheckFailed, "")),
            FailureKind::kNotRetryable);
  EXPECT_EQ(Classify(Error::Of(ErrorType::kTransactionCanceled, "")),
            FailureKind::kNotRetryable);
  EXPECT_EQ(Classify(Error::Validation("bad")), FailureKind::kNotRetryable);
}

TEST(RetryPolicyTest, FullJitterUnderDoublingCeilingsCappedAt20s) {
  std::vector<Duration> waits = Waits(7, 10);
  ASSERT_EQ(waits.size(), 9u);
  // Ceilings 1, 2, 4, 8, 16, 20, 20, 20, 20 s.
  const int64_t ceilings[] = {1, 2, 4, 8, 16, 20, 20, 20, 20};
  for (size_t i = 0; i < waits.size(); ++i) {
    EXPECT_GE(waits[i], Duration::zero());
    EXPECT_LT(waits[i], seconds(ceilings[i])) << "retry " << i + 1;
  }
  EXPECT_EQ(waits, Waits(7, 10));
  EXPECT_NE(waits, Waits(8, 10));
}

TEST(RetryPolicyTest, StandardModeMakesThreeAttempts) {
  RetryState state(RetryPolicy::Standard(1));
  int taken = 0;
  EXPECT_TRUE(state.NextWait(1, FailureKind::kTransient, &taken));
  EXPECT_TRUE(state.NextWait(2, FailureKind::kTransient, &taken));
  EXPECT_FALSE(state.NextWait(3, FailureKind::kTransient, &taken));
  EXPECT_EQ(taken, 0);
}

TEST(RetryPolicyTest, OffNeverRetriesAndNotRetryableIsFinal) {
  RetryState off(RetryPolicy::Off());
  int taken = 0;
  EXPECT_FALSE(off.NextWait(1, FailureKind::kThrottling, &taken));
  RetryState standard(RetryPolicy::Standard());
  EXPECT_FALSE(standard.NextWait(1, FailureKind::kNotRetryable, &taken));
  EXPECT_EQ(standard.quota(), 500);
}

TEST(RetryPolicyTest, QuotaDrainsAndRefills) {
  RetryState state(RetryPolicy::Standard());
  int taken = 0;
  // 500 tokens: 100 throttling retries, then none.
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE(state.NextWait(1, FailureKind::kThrottling, &taken)) << i;
  }
  EXPECT_EQ(state.quota(), 0);
  EXPECT_FALSE(state.NextWait(1, FailureKind::kThrottling, &taken));
  EXPECT_EQ(taken, 0);
  state.OnSuccess(0);  // first-try success gives 1 back
  EXPECT_EQ(state.quota(), 1);
  state.OnSuccess(10);  // a retried success gives back what it took
  EXPECT_EQ(state.quota(), 11);
  // A timeout retry costs 10.
  ASSERT_TRUE(state.NextWait(1, FailureKind::kTimeout, &taken));
  EXPECT_EQ(taken, 10);
  EXPECT_EQ(state.quota(), 1);
  // Never above the capacity.
  RetryState full(RetryPolicy::Standard());
  full.OnSuccess(0);
  EXPECT_EQ(full.quota(), 500);
}

}  // namespace
}  // namespace ddblab::harness
