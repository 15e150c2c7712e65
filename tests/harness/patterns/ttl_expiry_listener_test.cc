// The TTL expiry listener (abandoned carts) on every pattern row: the
// correct variant's filter hands the sink exactly the carts DynamoDB's TTL
// deleted that hold products, once each, late but never lost (48 hours late
// on these rows; under the `aws` delay model on the emulator); the
// remove_only variant also hands it every order placed (a user's
// DeleteItem) and every expired empty cart.
#include "harness/patterns/ttl_expiry_listener.h"

#include <gtest/gtest.h>

#include <set>

#include "tests/harness/patterns/pattern_test.h"

namespace ddblab::harness::patterns {
namespace {

using std::chrono::hours;
using std::chrono::minutes;

class ListenerTest : public testing::PatternTest {
 protected:
  TtlExpiryListener Open(ListenerVariant variant, Backend* backend = nullptr) {
    ListenerConfig config;
    config.table = TableName("carts");
    config.variant = variant;
    auto listener =
        TtlExpiryListener::Open(backend ? *backend : *backend_, config);
    EXPECT_TRUE(listener.ok()) << ToString(listener.error());
    Status setup = listener->Setup();
    EXPECT_TRUE(setup.ok()) << ToString(setup.error());
    setup = listener->Setup();  // idempotent
    EXPECT_TRUE(setup.ok()) << ToString(setup.error());
    return std::move(*listener);
  }

  int64_t Now() { return ToEpochSeconds(backend_->clock().Now()); }

  void Advance(Duration d) {
    Status status = backend_->AdvanceClock(d);
    ASSERT_TRUE(status.ok()) << ToString(status.error());
  }

  static void Poll(TtlExpiryListener& listener) {
    auto out = listener.Poll();
    ASSERT_TRUE(out.ok()) << ToString(out.error());
  }

  // Polls until the mapping has read `records` stream records (delivered or
  // filtered out): at the first poll on ddblab and DynamoDB Local; on AWS a
  // record shows up in the stream a moment after its write.
  void Drain(TtlExpiryListener& listener, int64_t records) {
    for (int attempt = 0; attempt < 60; ++attempt) {
      Poll(listener);
      const consumer::EsmMetrics& m = listener.mapping().metrics();
      if (m.records_delivered + m.records_filtered >= records) return;
      WaitFor(*backend_, std::chrono::seconds(1));
    }
    FAIL() << "the mapping did not read " << records << " records";
  }

  // The carts the sink got, sorted.
  static std::vector<std::string> Sunk(const TtlExpiryListener& listener) {
    std::vector<std::string> carts;
    for (const json& image : listener.Delivered()) {
      carts.push_back(image["pk"]["S"]);
    }
    std::sort(carts.begin(), carts.end());
    return carts;
  }

  // c1, c2: products, expiring in 1 and 2 minutes; c3: expiring in 1 minute
  // without products; c4: products, the user orders it; c5: products,
  // expiring in 30 days.
  void PutCarts(TtlExpiryListener& listener) {
    const int64_t now = Now();
    ASSERT_TRUE(listener.PutCart("c1", {"p1", "p2"}, now + 60).ok());
    ASSERT_TRUE(listener.PutCart("c2", {"p3"}, now + 120).ok());
    ASSERT_TRUE(listener.PutCart("c3", {}, now + 60).ok());
    ASSERT_TRUE(listener.PutCart("c4", {"p4"}, now + 60).ok());
    ASSERT_TRUE(listener.PutCart("c5", {"p5"}, now + 30 * 86400).ok());
    ASSERT_TRUE(listener.PlaceOrder("c4").ok());
  }
};

// No clock needed: a user's DeleteItem is all it takes.
TEST_P(ListenerTest, CorrectFilterIgnoresAnOrderPlaced) {
  TtlExpiryListener listener = Open(ListenerVariant::kCorrect);
  ASSERT_TRUE(listener.PutCart("a", {"p1"}, Now() + 3600).ok());
  ASSERT_TRUE(listener.PutCart("b", {"p2"}, Now() + 3600).ok());
  ASSERT_TRUE(listener.PlaceOrder("a").ok());
  Drain(listener, 3);
  EXPECT_EQ(Sunk(listener), std::vector<std::string>());
  // The INSERTs and the REMOVE were read and filtered out.
  EXPECT_EQ(listener.mapping().metrics().records_filtered, 3);
  EXPECT_EQ(listener.mapping().metrics().invocations, 0);
  EXPECT_EQ(*listener.Check(), Problems());
}

TEST_P(ListenerTest, RemoveOnlyTreatsAnOrderAsAnAbandonedCart) {
  TtlExpiryListener listener = Open(ListenerVariant::kRemoveOnly);
  ASSERT_TRUE(listener.PutCart("a", {"p1"}, Now() + 3600).ok());
  ASSERT_TRUE(listener.PutCart("b", {"p2"}, Now() + 3600).ok());
  ASSERT_TRUE(listener.PlaceOrder("a").ok());
  Drain(listener, 3);
  EXPECT_EQ(Sunk(listener), std::vector<std::string>{"a"});
  EXPECT_EQ(listener.Delivered()[0]["productids"], json({{"SS", {"p1"}}}));
  EXPECT_EQ(*listener.Check(),
            Problems{"cart a was deleted by the user (an order placed) but "
                     "reached the sink once as expired"});
}

TEST_P(ListenerTest, CorrectSinkGetsEachExpiredCartOnceLateButNotLost) {
  if (!HasClock()) GTEST_SKIP() << "needs clock control and TTL sweeps";
  TtlExpiryListener listener = Open(ListenerVariant::kCorrect);
  PutCarts(listener);
  // Expired, but DynamoDB's TTL has not deleted them yet (48 h on these
  // rows): nothing to deliver, nothing lost.
  Advance(hours(1));
  Poll(listener);
  EXPECT_EQ(Sunk(listener), std::vector<std::string>());
  EXPECT_EQ(*listener.Check(), Problems());
  Advance(hours(48));
  Poll(listener);
  EXPECT_EQ(Sunk(listener), (std::vector<std::string>{"c1", "c2"}));
  const json& first = listener.Delivered()[0];
  EXPECT_EQ(first["productids"], json({{"SS", {"p1", "p2"}}}));
  EXPECT_EQ(*listener.Check(), Problems());
  // The TTL deletion of c3 (no products) was read and filtered out.
  EXPECT_EQ(listener.mapping().metrics().records_delivered, 2);
}

TEST_P(ListenerTest, RemoveOnlySinkGetsOrdersAndEmptyCarts) {
  if (!HasClock()) GTEST_SKIP() << "needs clock control and TTL sweeps";
  TtlExpiryListener listener = Open(ListenerVariant::kRemoveOnly);
  PutCarts(listener);
  // The consumer reads the order (c4) now: a stream keeps records 24 hours.
  Poll(listener);
  Advance(hours(49));
  Poll(listener);
  EXPECT_EQ(Sunk(listener), (std::vector<std::string>{"c1", "c2", "c3", "c4"}));
  EXPECT_EQ(*listener.Check(),
            (Problems{"cart c3 expired without productids but reached the "
                      "sink once",
                      "cart c4 was deleted by the user (an order placed) but "
                      "reached the sink once as expired"}));
}

TEST_P(ListenerTest, AFailingSinkGetsTheCartAgainAndNoOtherTwice) {
  if (!HasClock()) GTEST_SKIP() << "needs clock control and TTL sweeps";
  TtlExpiryListener listener = Open(ListenerVariant::kCorrect);
  const int64_t now = Now();
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(listener
                    .PutCart("k" + std::to_string(i), {"p" + std::to_string(i)},
                             now + 60)
                    .ok());
  }
  int refusals = 0;
  listener.SetSink([&refusals](const json& image) -> Status {
    if (image["pk"]["S"] == "k2" && refusals++ == 0) {
      return Error::Internal("mail service unavailable");
    }
    return Status();
  });
  Advance(hours(49));
  Poll(listener);
  EXPECT_EQ(refusals, 2);
  EXPECT_EQ(Sunk(listener),
            (std::vector<std::string>{"k0", "k1", "k2", "k3", "k4"}));
  EXPECT_EQ(listener.mapping().metrics().partial_failures, 1);
  EXPECT_EQ(*listener.Check(), Problems());
}

// The invariant catches a lost cart: a consumer that stops for longer than
// the stream's 24-hour retention never sees the deletions made meanwhile.
TEST_P(ListenerTest, ConsumerDownLongerThanTheStreamRetentionLosesCarts) {
  if (!HasClock()) GTEST_SKIP() << "needs clock control and TTL sweeps";
  TtlExpiryListener listener = Open(ListenerVariant::kCorrect);
  ASSERT_TRUE(listener.PutCart("gone", {"p1"}, Now() + 60).ok());
  Poll(listener);
  // Deleted by TTL 48 hours after expiry; the consumer is down until 25
  // hours after that.
  Advance(hours(49));
  ASSERT_TRUE(backend_->SweepTtl().ok());
  Advance(hours(25));
  Poll(listener);
  EXPECT_EQ(Sunk(listener), std::vector<std::string>());
  EXPECT_EQ(
      *listener.Check(),
      Problems{"cart gone was deleted by TTL but never reached the sink"});
}

// A shopper's new cart under the id of one TTL deleted and mailed is a new
// version: the old version's mail was right, the new one is in the table.
TEST_P(ListenerTest, ACartIdReusedAfterItsTtlDeletionIsNotFlagged) {
  if (!HasClock()) GTEST_SKIP() << "needs clock control and TTL sweeps";
  TtlExpiryListener listener = Open(ListenerVariant::kCorrect);
  ASSERT_TRUE(listener.PutCart("c1", {"p1"}, Now() + 60).ok());
  Advance(hours(49));
  Poll(listener);
  ASSERT_EQ(Sunk(listener), std::vector<std::string>{"c1"});
  EXPECT_EQ(listener.Delivered()[0]["cart_version"], json({{"N", "1"}}));
  ASSERT_TRUE(listener.PutCart("c1", {"p2"}, Now() + 30 * 86400).ok());
  Poll(listener);
  EXPECT_EQ(*listener.Check(), Problems());
  // Ordered, the new version is not due either.
  ASSERT_TRUE(listener.PlaceOrder("c1").ok());
  Poll(listener);
  EXPECT_EQ(Sunk(listener), std::vector<std::string>{"c1"});
  EXPECT_EQ(*listener.Check(), Problems());
}

// A version replaced while in the table never expired: its image reaching
// the sink is flagged by version, and the new version's is not due yet.
TEST_P(ListenerTest, AReplacedCartVersionIsNotDue) {
  TtlExpiryListener listener = Open(ListenerVariant::kCorrect);
  ASSERT_TRUE(listener.PutCart("c1", {"p1"}, Now() + 3600).ok());
  ASSERT_TRUE(listener.PutCart("c1", {"p2"}, Now() + 3600).ok());
  const json old_image = {{"pk", S("c1")},
                          {"ttl", N(Now() + 3600)},
                          {"cart_version", N(1)},
                          {"productids", {{"SS", {"p1"}}}}};
  auto handled = listener.Handle(
      {{"Records", {{{"dynamodb", {{"OldImage", old_image}}}}}}});
  ASSERT_TRUE(handled.ok());
  EXPECT_EQ(*listener.Check(),
            Problems{"cart c1 version 1 was replaced by a newer cart while "
                     "in the table but reached the sink once"});
}

// The `aws` TTL delay model (most deletions within minutes, a tail up to 48
// hours) is an option of the in-process emulator; a consumer polling every
// 30 minutes sees each deletion late, and never loses one.
TEST_P(ListenerTest, AwsDelayModelIsLateButNeverLost) {
  if (GetParam() != "emulator") {
    GTEST_SKIP() << "the aws TTL delay model is set on the in-process row";
  }
  auto backend = OpenBackend("emulator?clock=manual&ttl_delay=aws&seed=8");
  ASSERT_TRUE(backend.ok()) << ToString(backend.error());
  Backend& aws_like = **backend;
  ListenerConfig config;
  config.table = "carts";
  auto opened = TtlExpiryListener::Open(aws_like, config);
  ASSERT_TRUE(opened.ok()) << ToString(opened.error());
  TtlExpiryListener listener = std::move(*opened);
  ASSERT_TRUE(listener.Setup().ok());
  const int64_t now = ToEpochSeconds(aws_like.clock().Now());
  std::vector<std::string> expected;
  for (int i = 0; i < 60; ++i) {
    std::string cart = "cart" + std::to_string(100 + i);
    ASSERT_TRUE(listener.PutCart(cart, {"p"}, now + 60 + i * 10).ok());
    if (i % 4 == 0) {
      ASSERT_TRUE(listener.PlaceOrder(cart).ok());
    } else {
      expected.push_back(cart);
    }
  }
  std::vector<size_t> seen;
  for (int step = 0; step < 100; ++step) {  // 50 hours
    ASSERT_TRUE(aws_like.AdvanceClock(minutes(30)).ok());
    ASSERT_TRUE(listener.Poll().ok());
    ASSERT_EQ(*listener.Check(), Problems()) << "after step " << step;
    seen.push_back(listener.Delivered().size());
  }
  EXPECT_EQ(Sunk(listener), expected);
  // Every cart expired within 11 minutes; most were delivered in the first
  // half hour, some hours later, the last more than 18 hours later (this
  // seed's tail), and still delivered: the stream's 24 hours count from the
  // deletion, not from the expiry.
  EXPECT_GT(seen[0], expected.size() / 2);
  EXPECT_LT(seen[0], expected.size());
  EXPECT_LT(seen[11], expected.size());
  EXPECT_LT(seen[35], expected.size());
  EXPECT_EQ(seen[99], expected.size());
}

TEST(ListenerConfigTest, FilterAndBadParameters) {
  auto backend = OpenBackend("emulator?clock=manual");
  ASSERT_TRUE(backend.ok());
  // The filter users deploy for abandoned carts.
  EXPECT_EQ(json::parse(TtlExpiryListener::FilterPatterns(
                ListenerVariant::kCorrect, "productids")[0]),
            json::parse(R"({"userIdentity": {"type": ["Service"],
                                             "principalId": ["dynamodb.amazonaws.com"]},
                            "dynamodb": {"OldImage": {"productids":
                                             {"SS": [{"exists": true}]}}}})"));
  EXPECT_EQ(TtlExpiryListener::FilterPatterns(ListenerVariant::kRemoveOnly,
                                              "productids"),
            std::vector<std::string>{R"({"eventName":["REMOVE"]})"});
  ListenerConfig config;
  config.table = "x";
  EXPECT_EQ(TtlExpiryListener::Open(**backend, config).error().message,
            "TTL expiry listener: table name must be 3 to 255 characters of "
            "a-z, A-Z, 0-9, '_', '-' and '.', got \"x\"");
  config = ListenerConfig();
  config.required_attribute = "ttl";
  EXPECT_EQ(TtlExpiryListener::Open(**backend, config).error().message,
            "TTL expiry listener: required_attribute must be a non-key "
            "attribute other than ttl (default productids), got \"ttl\"");
  config = ListenerConfig();
  config.mapping = {{"FilterCriteria", json::object()}};
  EXPECT_EQ(TtlExpiryListener::Open(**backend, config).error().message,
            "TTL expiry listener: mapping FilterCriteria is set by the "
            "pattern");
  config = ListenerConfig();
  config.mapping = {{"BatchSize", 0}};
  EXPECT_EQ(TtlExpiryListener::Open(**backend, config).error().message,
            "1 validation error detected: Value '0' at 'batchSize' failed to "
            "satisfy constraint: Member must have value greater than or equal "
            "to 1");
  auto listener = TtlExpiryListener::Open(**backend, ListenerConfig());
  ASSERT_TRUE(listener.ok());
  EXPECT_EQ(listener->PutCart("c", {}, 0, {{"pk", S("x")}}).error().message,
            "TTL expiry listener: attribute pk is the pattern's own");
  EXPECT_EQ(
      listener->PutCart("c", {}, 0, {{"cart_version", N(7)}}).error().message,
      "TTL expiry listener: attribute cart_version is the pattern's own");
  EXPECT_EQ(ParseListenerVariant("remove_only").value(),
            ListenerVariant::kRemoveOnly);
  EXPECT_EQ(ParseListenerVariant("nope").error().message,
            "unknown TTL expiry listener variant \"nope\" (correct, "
            "remove_only)");
}

INSTANTIATE_TEST_SUITE_P(Rows, ListenerTest, testing::PatternRows(),
                         [](const auto& row) { return row.param; });

}  // namespace
}  // namespace ddblab::harness::patterns
