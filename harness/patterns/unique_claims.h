// harness/patterns/unique_claims.h: a value that must be unique across
// items (an email across accounts), checked two ways.
//
// An account item {pk: account, email}; a GSI `byEmail` (email S HASH,
// KEYS_ONLY) finds the accounts of an email. A claim signs an account up
// with an email no other account may hold. The account item is written with
// attribute_not_exists(pk), so an account is created once.
//
// Variants (ClaimVariant):
//   gsi_check  Query byEmail for the email; an item of another account means
//              "taken", else PutItem the account. A GSI serves only
//              eventually consistent reads: while the index lags behind the
//              table, a second account's Query misses the first account's
//              claim and a duplicate gets through. (Even without lag the
//              Query and the put are two calls: two claims racing between
//              them both pass.)
//   correct    one TransactWriteItems: Put the account item and Put a guard
//              item {pk: "email#<email>", owner: account}, both with
//              attribute_not_exists(pk). The guard's key is the email, so
//              DynamoDB's own key uniqueness decides: a second account's
//              transaction is cancelled with CancellationReasons[1].Code
//              ConditionalCheckFailed ("taken"). Guards carry no `email`, so
//              the index does not hold them.
//
// What an SDK retries (SdkRetries: a lost answer, throttling, a server
// error) is retried, up to config.max_attempts attempts. Both variants ask for
// the old item on a failed condition (ReturnValuesOnConditionCheckFailure
// ALL_OLD), so a retry that finds its own earlier attempt applied (the account
// already holds this email, the guard is already this account's) reports
// kClaimed, not kTaken.
//
// Thread-safety: Claim/Check may run from many threads (each call is its
// own requests); the object itself is immutable after Open.
#pragma once

#include <string>
#include <string_view>

#include "emulator/api/result.h"
#include "harness/backend/backend.h"
#include "harness/patterns/common.h"

namespace ddblab::harness::patterns {

enum class ClaimVariant { kCorrect, kGsiCheck };

// "correct", "gsi_check".
std::string_view ClaimVariantName(ClaimVariant variant);
Result<ClaimVariant> ParseClaimVariant(std::string_view name);

struct UniqueClaimsConfig {
  std::string table = "ddblab_unique_claims";
  ClaimVariant variant = ClaimVariant::kCorrect;
  // Attempts of one claim when an attempt fails with an error an SDK
  // retries (a lost response, throttling, a server error), as an SDK's
  // standard retry mode makes (3).
  int max_attempts = 3;
};

// The GSI on `email` and the guard items' key prefix.
inline constexpr const char* kEmailIndex = "byEmail";
inline constexpr const char* kGuardPrefix = "email#";

enum class ClaimOutcome {
  kClaimed,  // the account holds the email (this call, or an earlier
             // attempt of the same claim)
  kTaken,    // another account holds the email: nothing written
};

class UniqueClaims {
 public:
  // Validates `config` (a ValidationException naming the bad field).
  static Result<UniqueClaims> Open(Backend& backend, UniqueClaimsConfig config);

  const UniqueClaimsConfig& config() const { return config_; }

  // Creates the table (pk S, GSI byEmail on email S, KEYS_ONLY, on demand)
  // unless it exists.
  Status Setup();

  // Signs `account` up with `email`. Empty values, and an account starting
  // with "email#" (the guards' keys), are a ValidationException. An account
  // that already exists with another email is a
  // ConditionalCheckFailedException "unique claims: account <account>
  // already exists with email <other>" (or "... already exists" when the
  // backend does not return the old item).
  Result<ClaimOutcome> Claim(std::string_view account, std::string_view email);
  // One attempt of Claim, without the SDK's retries (gsi_check: its Query
  // pages and PutItem; correct: one TransactWriteItems).
  Result<ClaimOutcome> ClaimAttempt(std::string_view account,
                                    std::string_view email);

  // The invariant: no email is held by two accounts. A consistent Scan of
  // the table (guards left out); one problem per such email, sorted:
  // "email a@x is held by 2 accounts: acct-1, acct-2".
  Result<Problems> Check();

 private:
  UniqueClaims(Backend& backend, UniqueClaimsConfig config)
      : backend_(&backend), config_(std::move(config)) {}

  Result<ClaimOutcome> ClaimByGsiCheck(const std::string& account,
                                       const std::string& email);
  Result<ClaimOutcome> ClaimByTransaction(const std::string& account,
                                          const std::string& email);

  Backend* backend_;
  UniqueClaimsConfig config_;
};

}  // namespace ddblab::harness::patterns
