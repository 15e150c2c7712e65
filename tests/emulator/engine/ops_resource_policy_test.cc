// PutResourcePolicy / GetResourcePolicy / DeleteResourcePolicy and
// CreateTable's ResourcePolicy (ops_resource_policy.cc, resource_policy.h):
// revision ids on the clock, ExpectedRevisionId, the canonical form, the
// table and stream slots, ARN and document errors with DynamoDB's texts.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "emulator/engine/resource_policy.h"
#include "tests/emulator/engine/engine_test_util.h"

namespace ddblab::engine::testing {
namespace {

const std::string kArn = "arn:aws:dynamodb:us-east-1:000000000000:table/pol";
// ManualClock's default start, in epoch milliseconds.
const std::string kT0 = "1704067200000";
const std::string kNotFound =
    "PolicyNotFoundException: Resource-based policy not found for the "
    "provided ResourceArn: ";

std::string Policy(const std::string& action) {
  return R"({"Version": "2012-10-17", "Statement": [{"Effect": "Allow",
    "Principal": {"AWS": "111122223333"}, "Action": ")" +
         action + R"(", "Resource": "*"}]})";
}
std::string Canonical(const std::string& action) {
  return R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow",)"
         R"("Principal":{"AWS":"arn:aws:iam::111122223333:root"},"Action":")" +
         action + R"(","Resource":"*"}]})";
}

class ResourcePolicyTest : public EngineTest {
 protected:
  void SetUp() override {
    EngineTest::SetUp();
    Json req{{"TableName", "pol"},
             {"BillingMode", "PAY_PER_REQUEST"},
             {"AttributeDefinitions",
              {{{"AttributeName", "pk"}, {"AttributeType", "S"}}}},
             {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}},
             {"StreamSpecification",
              {{"StreamEnabled", true}, {"StreamViewType", "KEYS_ONLY"}}}};
    stream_arn_ = Ok("CreateTable", req)["TableDescription"]["LatestStreamArn"];
  }
  Json Put(const std::string& action, const Json& extra = Json::object()) {
    Json req{{"ResourceArn", kArn}, {"Policy", Policy(action)}};
    req.update(extra);
    return Ok("PutResourcePolicy", req);
  }
  std::string PutError(const Json& req) {
    return FailText("PutResourcePolicy", req);
  }
  void Tick() { clock_->Advance(std::chrono::seconds(1)); }

  std::string stream_arn_;
};

TEST_F(ResourcePolicyTest, PutGetDeleteWithRevisions) {
  EXPECT_EQ(FailText("GetResourcePolicy", {{"ResourceArn", kArn}}),
            kNotFound + kArn);
  // A table that never had a policy: Delete answers {}.
  EXPECT_EQ(Ok("DeleteResourcePolicy", {{"ResourceArn", kArn}}),
            Json::object());
  EXPECT_EQ(Put("dynamodb:GetItem"), Json({{"RevisionId", kT0}}));
  EXPECT_EQ(
      Ok("GetResourcePolicy", {{"ResourceArn", kArn}}),
      Json({{"Policy", Canonical("dynamodb:GetItem")}, {"RevisionId", kT0}}));
  // The same document (any formatting, a one-element list) is a no-op.
  Tick();
  EXPECT_EQ(
      Ok("PutResourcePolicy",
         {{"ResourceArn", kArn}, {"Policy", Canonical("dynamodb:GetItem")}}),
      Json({{"RevisionId", kT0}}));
  // Another document: a new id, the change time; two changes in the same
  // millisecond still get increasing ids.
  EXPECT_EQ(Put("dynamodb:PutItem"), Json({{"RevisionId", "1704067201000"}}));
  EXPECT_EQ(Put("dynamodb:Query", {{"ExpectedRevisionId", "1704067201000"}}),
            Json({{"RevisionId", "1704067201001"}}));
  Tick();
  EXPECT_EQ(
      Ok("DeleteResourcePolicy",
         {{"ResourceArn", kArn}, {"ExpectedRevisionId", "1704067201001"}}),
      Json({{"RevisionId", "1704067201001"}}));
  EXPECT_EQ(FailText("GetResourcePolicy", {{"ResourceArn", kArn}}),
            kNotFound + kArn);
  // Deleting again answers the deletion's own id.
  EXPECT_EQ(Ok("DeleteResourcePolicy", {{"ResourceArn", kArn}}),
            Json({{"RevisionId", "1704067202000"}}));
}

TEST_F(ResourcePolicyTest, ExpectedRevisionConflicts) {
  EXPECT_EQ(Put("dynamodb:GetItem", {{"ExpectedRevisionId", "NO_POLICY"}}),
            Json({{"RevisionId", kT0}}));
  EXPECT_EQ(PutError({{"ResourceArn", kArn},
                      {"Policy", Policy("dynamodb:PutItem")},
                      {"ExpectedRevisionId", "NO_POLICY"}}),
            kNotFound +
                "Requested policy update expecting none to be present for "
                "table pol, but a policy exists with revision id " +
                kT0 + ".");
  EXPECT_EQ(PutError({{"ResourceArn", kArn},
                      {"Policy", Policy("dynamodb:PutItem")},
                      {"ExpectedRevisionId", "123"}}),
            kNotFound +
                "Requested update for policy with revision id 123, but the "
                "policy associated to target table pol has revision id " +
                kT0 + ".");
  EXPECT_EQ(FailText("DeleteResourcePolicy",
                     {{"ResourceArn", kArn}, {"ExpectedRevisionId", "9"}}),
            kNotFound +
                "Requested update for policy with revision id 9, but the "
                "policy associated to target table pol has revision id " +
                kT0 + ".");
  Ok("DeleteResourcePolicy", {{"ResourceArn", kArn}});
  EXPECT_EQ(FailText("DeleteResourcePolicy",
                     {{"ResourceArn", kArn}, {"ExpectedRevisionId", "9"}}),
            kNotFound +
                "Requested update for policy with revision id 9, but table "
                "pol has no associated policy.");
}

TEST_F(ResourcePolicyTest, StreamSlotIsSeparate) {
  Json put =
      Ok("PutResourcePolicy", {{"ResourceArn", stream_arn_},
                               {"Policy", Policy("dynamodb:GetRecords")}});
  EXPECT_EQ(put, Json({{"RevisionId", kT0}}));
  EXPECT_EQ(FailText("GetResourcePolicy", {{"ResourceArn", kArn}}),
            kNotFound + kArn);
  EXPECT_EQ(Ok("GetResourcePolicy", {{"ResourceArn", stream_arn_}})["Policy"],
            Canonical("dynamodb:GetRecords"));
  EXPECT_EQ(
      FailText("GetResourcePolicy",
               {{"ResourceArn", kArn + "/stream/2000-01-01T00:00:00.000"}}),
      "ResourceNotFoundException: Requested resource not found: Stream: "
      "2000-01-01T00:00:00.000 not found for Table: pol");
}

TEST_F(ResourcePolicyTest, DroppedWithTheTable) {
  Put("dynamodb:GetItem");
  Ok("DeleteTable", {{"TableName", "pol"}});
  EXPECT_EQ(FailText("GetResourcePolicy", {{"ResourceArn", kArn}}),
            "ResourceNotFoundException: Requested resource not found: Table: "
            "pol not found");
  CreateTable("pol");
  EXPECT_EQ(FailText("GetResourcePolicy", {{"ResourceArn", kArn}}),
            kNotFound + kArn);
}

TEST_F(ResourcePolicyTest, KeptInAFileDatabase) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("ddblab-policy-test-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  Options options;
  options.db_path = (dir / "db.sqlite").string();
  Open(options);
  CreateTable("pol");
  Put("dynamodb:GetItem");
  emu_.reset();
  Open(options);
  EXPECT_EQ(
      Ok("GetResourcePolicy", {{"ResourceArn", kArn}}),
      Json({{"Policy", Canonical("dynamodb:GetItem")}, {"RevisionId", kT0}}));
  emu_.reset();
  std::filesystem::remove_all(dir);
}

TEST_F(ResourcePolicyTest, ArnErrors) {
  auto get = [&](const std::string& arn) {
    return FailText("GetResourcePolicy", {{"ResourceArn", arn}});
  };
  EXPECT_EQ(get("pol"),
            "ValidationException: One or more parameter values were invalid: "
            "ARNs must start with 'arn:': pol");
  EXPECT_EQ(get("arn:aws:dynamodb:us-east-1:111122223333:table/pol"),
            "ValidationException: This action is only supported by accounts "
            "that match the resource owner\u2019s account.");
  EXPECT_EQ(get("arn:aws:dynamodb:eu-west-1:000000000000:table/pol"),
            "ValidationException: One or more parameter values were invalid: "
            "Invalid resource Arn: "
            "arn:aws:dynamodb:eu-west-1:000000000000:table/pol");
  EXPECT_EQ(get(kArn + "/index/gsi"),
            "ValidationException: One or more parameter values were invalid: "
            "Invalid resource arn provided, only table or stream is accepted. "
            "Provided resource arn: " +
                kArn + "/index/gsi");
  EXPECT_EQ(get(kArn + "/backup/01704067200000-abcdefgh"),
            "ValidationException: One or more parameter values were invalid: "
            "Provided Arn is not a DynamoDB resource arn: " +
                kArn + "/backup/01704067200000-abcdefgh");
  EXPECT_EQ(get("arn:aws:dynamodb:us-east-1:000000000000:table/POL"),
            "ResourceNotFoundException: Requested resource not found: Table: "
            "POL not found");
  EXPECT_EQ(FailText("PutResourcePolicy", {{"ResourceArn", kArn}}),
            "ValidationException: 1 validation error detected: Value null at "
            "'policy' failed to satisfy constraint: Member must not be null");
}

TEST_F(ResourcePolicyTest, DocumentErrors) {
  auto put = [&](const std::string& policy) {
    return PutError({{"ResourceArn", kArn}, {"Policy", policy}});
  };
  const std::string invalid =
      "ValidationException: One or more parameter values were invalid: "
      "Invalid policy document: ";
  EXPECT_EQ(put("{not json"), invalid + "This policy contains invalid Json");
  EXPECT_EQ(put(""), invalid + "This policy contains invalid Json");
  EXPECT_EQ(put(R"({"Version":"2012-10-17","Statement":[]})"),
            invalid + "Could not parse the policy: Statement is empty!");
  EXPECT_EQ(put(R"({"Statement":[{"Effect":"Allow","Principal":{"AWS":"1"},
                   "Action":"dynamodb:GetItem"}]})"),
            invalid + "Missing required field Resource");
  EXPECT_EQ(put(R"({"Statement":[
      {"Sid":"a","Effect":"Allow","Principal":{"AWS":"1"},"Action":"x","Resource":"*"},
      {"Sid":"a","Effect":"Deny","Principal":{"AWS":"1"},"Action":"x","Resource":"*"}]})"),
            invalid + "The Statement Ids in the policy are not unique");
  EXPECT_EQ(put(R"({"Statement":[{"Effect":"Allow","Principal":"*",
                   "Action":"dynamodb:*","Resource":"*"}]})"),
            "ValidationException: Resource-based policy grants unbounded "
            "access in one or more elements. Please revise the policy to "
            "ensure least-privilege form of access");
  EXPECT_EQ(put(Policy("dynamodb:GetItem") + std::string(20480, ' ')),
            "ValidationException: One or more parameter values were invalid: "
            "Maximum policy size of 20480 bytes exceeded");
}

TEST_F(ResourcePolicyTest, CreateTableResourcePolicy) {
  Json req{{"TableName", "born"},
           {"BillingMode", "PAY_PER_REQUEST"},
           {"AttributeDefinitions",
            {{{"AttributeName", "pk"}, {"AttributeType", "S"}}}},
           {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}},
           {"ResourcePolicy", Policy("dynamodb:GetItem")}};
  Ok("CreateTable", req);
  const std::string arn = "arn:aws:dynamodb:us-east-1:000000000000:table/born";
  EXPECT_EQ(
      Ok("GetResourcePolicy", {{"ResourceArn", arn}}),
      Json({{"Policy", Canonical("dynamodb:GetItem")}, {"RevisionId", kT0}}));
  req["TableName"] = "born2";
  req["ResourcePolicy"] = "[]";
  EXPECT_EQ(FailText("CreateTable", req),
            "ValidationException: One or more parameter values were invalid: "
            "Invalid policy document: This policy contains invalid Json");
}

TEST(CanonicalPolicyTest, OrderListsAndPrincipals) {
  Result<std::string> c = CanonicalPolicy(R"({
    "Statement": [{"Resource": ["*", "*"], "Action": ["a", "b"],
                   "Condition": {"Bool": {"aws:SecureTransport": "true"}},
                   "Principal": {"AWS": ["111122223333",
                                         "arn:aws:iam::111122223333:root"]},
                   "Effect": "Deny", "Sid": "s1"}],
    "Version": "2012-10-17"})");
  ASSERT_TRUE(c.ok()) << ToString(c.error());
  EXPECT_EQ(
      *c, R"({"Version":"2012-10-17","Statement":[{"Sid":"s1","Effect":"Deny",)"
          R"("Principal":{"AWS":"arn:aws:iam::111122223333:root"},)"
          R"("Action":["a","b"],"Resource":"*",)"
          R"("Condition":{"Bool":{"aws:SecureTransport":"true"}}}]})");
}

}  // namespace
}  // namespace ddblab::engine::testing
