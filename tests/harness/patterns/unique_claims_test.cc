// The unique claims: on ddblab in process with lagging GSIs (a ManualClock,
// Options.consistency.index_lag), the gsi_check variant lets a duplicate
// email through and the correct variant does not; on every pattern row, the
// correct variant's cancelled transaction reads as "taken".
#include "harness/patterns/unique_claims.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "emulator/api/emulator.h"
#include "emulator/api/lag.h"
#include "emulator/api/options.h"
#include "harness/backend/inprocess_backend.h"
#include "tests/harness/patterns/pattern_test.h"

namespace ddblab::harness::patterns {
namespace {

using std::chrono::seconds;
using testing::TestBackend;

// ddblab in process on a ManualClock, its GSIs lagging `index_lag` behind
// the table.
class UniqueClaimsLagTest : public ::testing::Test {
 protected:
  void Open(const std::string& index_lag) {
    Options options;
    options.clock = std::make_shared<ManualClock>();
    options.consistency.index_lag = *ParseLagRange(index_lag);
    auto emulator = Emulator::Open(std::move(options));
    ASSERT_TRUE(emulator.ok()) << ToString(emulator.error());
    emulator_ = std::move(*emulator);
    backend_ =
        std::make_unique<TestBackend>(BorrowEmulator(*emulator_), nullptr);
  }

  UniqueClaims Claims(ClaimVariant variant) {
    UniqueClaimsConfig config;
    config.variant = variant;
    auto claims = UniqueClaims::Open(*backend_, config);
    EXPECT_TRUE(claims.ok()) << ToString(claims.error());
    Status setup = claims->Setup();
    EXPECT_TRUE(setup.ok()) << ToString(setup.error());
    return *claims;
  }

  // The pk of every item, sorted (a consistent Scan).
  std::vector<std::string> Keys() {
    std::vector<std::string> keys;
    auto items = ScanAll(*backend_, "ddblab_unique_claims");
    EXPECT_TRUE(items.ok());
    for (const json& item : *items) keys.push_back(item["pk"]["S"]);
    std::sort(keys.begin(), keys.end());
    return keys;
  }

  std::unique_ptr<Emulator> emulator_;
  std::unique_ptr<TestBackend> backend_;
};

TEST_F(UniqueClaimsLagTest, GsiCheckLetsADuplicateThroughWhileTheIndexLags) {
  Open("30s");
  UniqueClaims claims = Claims(ClaimVariant::kGsiCheck);
  EXPECT_EQ(*claims.Claim("acct-1", "a@x"), ClaimOutcome::kClaimed);
  ASSERT_TRUE(backend_->AdvanceClock(seconds(1)).ok());
  // The index does not show acct-1's claim for 30 s: the check passes.
  EXPECT_EQ(*claims.Claim("acct-2", "a@x"), ClaimOutcome::kClaimed);
  EXPECT_EQ(*claims.Check(),
            Problems{"email a@x is held by 2 accounts: acct-1, acct-2"});
  // Once the index caught up, the check sees them.
  ASSERT_TRUE(backend_->AdvanceClock(seconds(30)).ok());
  EXPECT_EQ(*claims.Claim("acct-3", "a@x"), ClaimOutcome::kTaken);
  EXPECT_EQ(Keys(), (std::vector<std::string>{"acct-1", "acct-2"}));
}

TEST_F(UniqueClaimsLagTest, CorrectRefusesTheSecondAccountWhileTheIndexLags) {
  Open("30s");
  UniqueClaims claims = Claims(ClaimVariant::kCorrect);
  EXPECT_EQ(*claims.Claim("acct-1", "a@x"), ClaimOutcome::kClaimed);
  ASSERT_TRUE(backend_->AdvanceClock(seconds(1)).ok());
  EXPECT_EQ(*claims.Claim("acct-2", "a@x"), ClaimOutcome::kTaken);
  EXPECT_EQ(*claims.Check(), Problems());
  EXPECT_EQ(Keys(), (std::vector<std::string>{"acct-1", "email#a@x"}));
}

TEST_F(UniqueClaimsLagTest, GsiCheckCatchesTheSecondClaimWithoutLag) {
  Open("0");
  UniqueClaims claims = Claims(ClaimVariant::kGsiCheck);
  EXPECT_EQ(*claims.Claim("acct-1", "a@x"), ClaimOutcome::kClaimed);
  ASSERT_TRUE(backend_->AdvanceClock(seconds(1)).ok());
  EXPECT_EQ(*claims.Claim("acct-2", "a@x"), ClaimOutcome::kTaken);
  EXPECT_EQ(*claims.Check(), Problems());
  EXPECT_EQ(Keys(), (std::vector<std::string>{"acct-1"}));
}

TEST_F(UniqueClaimsLagTest, ALostAnswerIsRetriedAndFoundApplied) {
  Open("30s");
  // gsi_check: the retry's Query misses the applied put (the index lags);
  // its put fails the condition on an account holding this email.
  UniqueClaims naive = Claims(ClaimVariant::kGsiCheck);
  backend_->LoseResponse("PutItem", 1);
  EXPECT_EQ(*naive.Claim("acct-1", "a@x"), ClaimOutcome::kClaimed);
  EXPECT_EQ(backend_->calls("PutItem"), 2);
  // correct: the retried transaction is cancelled on both conditions, the
  // guard's old item naming this account.
  UniqueClaims correct = Claims(ClaimVariant::kCorrect);
  backend_->LoseResponse("TransactWriteItems", 1);
  EXPECT_EQ(*correct.Claim("acct-2", "b@x"), ClaimOutcome::kClaimed);
  EXPECT_EQ(backend_->calls("TransactWriteItems"), 2);
  EXPECT_EQ(Keys(),
            (std::vector<std::string>{"acct-1", "acct-2", "email#b@x"}));
}

TEST_F(UniqueClaimsLagTest, AnAccountWithAnotherEmailIsAnError) {
  Open("0");
  for (ClaimVariant variant :
       {ClaimVariant::kGsiCheck, ClaimVariant::kCorrect}) {
    UniqueClaims claims = Claims(variant);
    const std::string account =
        "acct-" + std::string(ClaimVariantName(variant));
    ASSERT_EQ(*claims.Claim(account, "a-" + account), ClaimOutcome::kClaimed);
    auto out = claims.Claim(account, "b@x");
    ASSERT_FALSE(out.ok());
    EXPECT_EQ(out.error().type, ErrorType::kConditionalCheckFailed);
    EXPECT_EQ(out.error().message, "unique claims: account " + account +
                                       " already exists with email a-" +
                                       account);
  }
}

// On every row: the correct variant's cancellation as each backend shapes it.
class UniqueClaimsTest : public testing::PatternTest {};

TEST_P(UniqueClaimsTest, CorrectRefusesASecondAccount) {
  UniqueClaimsConfig config;
  config.table = TableName("claims");
  auto claims = UniqueClaims::Open(*backend_, config);
  ASSERT_TRUE(claims.ok());
  ASSERT_TRUE(claims->Setup().ok());
  EXPECT_EQ(*claims->Claim("acct-1", "a@x"), ClaimOutcome::kClaimed);
  EXPECT_EQ(*claims->Claim("acct-2", "a@x"), ClaimOutcome::kTaken);
  // The same claim again (a client retrying) is the account's own.
  EXPECT_EQ(*claims->Claim("acct-1", "a@x"), ClaimOutcome::kClaimed);
  EXPECT_EQ(*claims->Check(), Problems());
  auto items = ScanAll(*backend_, config.table);
  ASSERT_TRUE(items.ok());
  EXPECT_EQ(items->size(), 2u);
}

INSTANTIATE_TEST_SUITE_P(Rows, UniqueClaimsTest, testing::PatternRows(),
                         [](const auto& row) { return row.param; });

TEST(UniqueClaimsConfigTest, BadParametersAreRefused) {
  auto backend = OpenBackend("emulator?clock=manual");
  ASSERT_TRUE(backend.ok());
  UniqueClaimsConfig config;
  config.max_attempts = 0;
  EXPECT_EQ(UniqueClaims::Open(**backend, config).error().message,
            "unique claims: max_attempts must be at least 1, got 0");
  config = UniqueClaimsConfig();
  config.table = "ab";
  EXPECT_EQ(UniqueClaims::Open(**backend, config).error().message,
            "unique claims: table name must be 3 to 255 characters of "
            "a-z, A-Z, 0-9, '_', '-' and '.', got \"ab\"");
  auto claims = UniqueClaims::Open(**backend, UniqueClaimsConfig());
  ASSERT_TRUE(claims.ok());
  EXPECT_EQ(claims->Claim("", "a@x").error().message,
            "unique claims: account and email must not be empty");
  EXPECT_EQ(claims->Claim("email#a@x", "a@x").error().message,
            "unique claims: account email#a@x starts with \"email#\", the "
            "prefix of the guard items' keys");
  EXPECT_EQ(ParseClaimVariant("gsi_check").value(), ClaimVariant::kGsiCheck);
  EXPECT_EQ(ParseClaimVariant("nope").error().message,
            "unknown unique claims variant \"nope\" (correct, gsi_check)");
}

}  // namespace
}  // namespace ddblab::harness::patterns
