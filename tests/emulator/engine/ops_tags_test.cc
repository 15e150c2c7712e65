#include <gtest/gtest.h>

#include "tests/emulator/engine/engine_test_util.h"

namespace ddblab::engine::testing {
namespace {

const char kArn[] = "arn:aws:dynamodb:us-east-1:000000000000:table/tagged";

Json Tag(const std::string& k, const std::string& v) {
  return {{"Key", k}, {"Value", v}};
}

class TagsTest : public EngineTest {
 protected:
  void SetUp() override {
    EngineTest::SetUp();
    CreateTable("tagged");
  }
  Json List() {
    return Ok("ListTagsOfResource", {{"ResourceArn", kArn}})["Tags"];
  }
  std::string TagError(const Json& tags, const std::string& arn = kArn) {
    return FailText("TagResource", {{"ResourceArn", arn}, {"Tags", tags}});
  }
};

TEST_F(TagsTest, TagUntagList) {
  EXPECT_EQ(List(), Json::array());
  EXPECT_EQ(Ok("TagResource", {{"ResourceArn", kArn},
                               {"Tags", {Tag("a", "1"), Tag("b", "2")}}}),
            Json::object());
  EXPECT_EQ(Ok("TagResource", {{"ResourceArn", kArn},
                               {"Tags", {Tag("a", "9"), Tag("c", "")}}}),
            Json::object());
  EXPECT_EQ(List(), Json::array({Tag("a", "9"), Tag("b", "2"), Tag("c", "")}));
  EXPECT_EQ(
      Ok("UntagResource", {{"ResourceArn", kArn}, {"TagKeys", {"a", "zz"}}}),
      Json::object());
  EXPECT_EQ(List(), Json::array({Tag("b", "2"), Tag("c", "")}));
}

TEST_F(TagsTest, ContentErrors) {
  EXPECT_EQ(
      TagError(Json::array()),
      "ValidationException: Atleast one Tag needs to be provided as Input.");
  EXPECT_EQ(FailText("UntagResource",
                     {{"ResourceArn", kArn}, {"TagKeys", Json::array()}}),
            "ValidationException: Atleast one Tag Key needs to be provided as "
            "Input.");
  EXPECT_EQ(
      TagError(Json::array({Tag("bad#key", "v")})),
      "ValidationException: The Tag Key provided is invalid, Key: bad#key");
  EXPECT_EQ(TagError(Json::array({Tag("k", "bad*value")})),
            "ValidationException: The Tag Value provided is invalid, Value: "
            "bad*value");
  EXPECT_EQ(TagError(Json::array({Tag("aws:owner", "v")})),
            "ValidationException: Tag Key cannot be prefixed with aws:, Key: "
            "aws:owner");
  EXPECT_EQ(TagError({Tag("k", "1"), Tag("k", "2")}),
            "ValidationException: Duplicate Tag Keys provided as input: "
            "Duplicate Tag Key found k");
  Json fifty = Json::array();
  for (int i = 0; i < 50; ++i)
    fifty.push_back(Tag("k" + std::to_string(i), "v"));
  Ok("TagResource", {{"ResourceArn", kArn}, {"Tags", fifty}});
  EXPECT_EQ(TagError(Json::array({Tag("one-more", "v")})),
            "ValidationException: Number of Tags exceed the current limit for "
            "the provided ResourceArn");
  // Overwriting an existing key does not count as a new tag.
  Ok("TagResource",
     {{"ResourceArn", kArn}, {"Tags", Json::array({Tag("k0", "w")})}});
  EXPECT_EQ(TagError(Json::array({Tag(std::string(129, 'k'), "v")})),
            "ValidationException: 1 validation error detected: Value '" +
                std::string(129, 'k') +
                "' at 'tags.1.member.key' failed to satisfy constraint: Member "
                "must have length less than or equal to 128");
}

TEST_F(TagsTest, ArnErrors) {
  Json tags = Json::array({Tag("k", "v")});
  EXPECT_EQ(TagError(tags, "table/tagged"),
            "ValidationException: One or more parameter values were invalid: "
            "ARNs must start with 'arn:': table/tagged");
  EXPECT_EQ(TagError(tags, "arn:aws:s3:::bucket"),
            "ValidationException: Invalid TableArn: Invalid ResourceArn "
            "provided as input arn:aws:s3:::bucket");
  EXPECT_EQ(TagError(tags, std::string(kArn) + "/index/gsi"),
            "ValidationException: One or more parameter values were invalid: "
            "Invalid resource arn provided, only table or stream is accepted. "
            "Provided resource arn: " +
                std::string(kArn) + "/index/gsi");
  const std::string missing =
      "arn:aws:dynamodb:us-east-1:000000000000:table/nope";
  EXPECT_EQ(TagError(tags, missing),
            "ResourceNotFoundException: Requested resource not found: "
            "ResourceArn: " +
                missing + " not found");
  // ListTagsOfResource answers a missing table with AccessDeniedException.
  EXPECT_EQ(
      FailText("ListTagsOfResource", {{"ResourceArn", missing}}),
      "AccessDeniedException: User: arn:aws:iam::000000000000:root is not "
      "authorized to perform: dynamodb:ListTagsOfResource on resource: " +
          missing);
  EXPECT_EQ(
      FailText("ListTagsOfResource",
               {{"ResourceArn",
                 "arn:aws:dynamodb:us-east-1:111111111111:table/tagged"}}),
      "AccessDeniedException: User: arn:aws:iam::000000000000:root is not "
      "authorized to perform: dynamodb:ListTagsOfResource on resource: "
      "arn:aws:dynamodb:us-east-1:111111111111:table/tagged");
  const std::string other_account =
      "arn:aws:dynamodb:us-east-1:111111111111:table/tagged";
  EXPECT_EQ(TagError(tags, other_account),
            "ResourceNotFoundException: Requested resource not found: "
            "ResourceArn: " +
                other_account + " not found");
  EXPECT_EQ(
      FailText("TagResource", {{"Tags", tags}}),
      "ValidationException: 1 validation error detected: Value null at "
      "'resourceArn' failed to satisfy constraint: Member must not be null");
}

}  // namespace
}  // namespace ddblab::engine::testing
