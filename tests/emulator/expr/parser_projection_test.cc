// ProjectionExpression parsing (DynamoDB's expression rules).
#include <gtest/gtest.h>

#include "expr_test_util.h"

namespace ddblab::expr {
namespace {

using testing::IsValidation;

Result<ProjectionExpression> Projection(std::string_view text,
                                        std::string_view names = "") {
  Placeholders ph = testing::Ph(names);
  return ParseProjection(text, ph);
}

TEST(ParseProjectionTest, Paths) {
  auto r = Projection("a, #n.b[2].c ,x", R"({"#n": "n.m"})");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->paths.size(), 3u);
  EXPECT_EQ(RenderPath(r->paths[1]), "[n.m, b, [2], c]");
}

TEST(ParseProjectionTest, Errors) {
  EXPECT_TRUE(IsValidation(
      Projection(""),
      "Invalid ProjectionExpression: The expression can not be empty;"));
  EXPECT_TRUE(IsValidation(Projection("!!"),
                           "Invalid ProjectionExpression: Syntax error; token: "
                           "\"!\", near: \"!!\""));
  for (const char* text :
       {"a,", ",a", "a,,b", "a b", "a.", "a[1", "a[x]", ":v", "a = b"}) {
    auto r = Projection(text);
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.error().message.rfind(
                  "Invalid ProjectionExpression: Syntax error; ", 0),
              0u)
        << text;
  }
  EXPECT_TRUE(IsValidation(Projection("a, name"),
                           "Invalid ProjectionExpression: Attribute name is a "
                           "reserved keyword; reserved keyword: name"));
  EXPECT_TRUE(IsValidation(Projection("a.#n2", R"({"#wrong": "b"})"),
                           "Invalid ProjectionExpression: An expression "
                           "attribute name used in the document path is not "
                           "defined; attribute name: #n2"));
  std::string deep = "a";
  for (int i = 0; i < 31; ++i) deep += ".b";
  EXPECT_TRUE(Projection(deep).ok());
  EXPECT_TRUE(IsValidation(Projection(deep + ".b"),
                           "Invalid ProjectionExpression: The document path "
                           "has too many nesting levels; nesting levels: 33"));
  // A list index beyond a 32-bit signed integer (DynamoDB's text).
  EXPECT_TRUE(Projection("l[2147483647]").ok());
  EXPECT_TRUE(IsValidation(Projection("l[2147483648]"),
                           "Invalid ProjectionExpression: List index is not "
                           "within the allowable range; index: [2147483648]"));
  EXPECT_TRUE(IsValidation(Projection("l[99999999999999]"),
                           "Invalid ProjectionExpression: List index is not "
                           "within the allowable range; index: "
                           "[99999999999999]"));
  EXPECT_TRUE(Projection(std::string(4096, 'x')).ok());
  EXPECT_TRUE(IsValidation(Projection(std::string(4097, 'x')),
                           "Invalid ProjectionExpression: Expression size has "
                           "exceeded the maximum allowed size; expression "
                           "size: 4097"));
}

TEST(ParseProjectionTest, OverlapAndConflict) {
  for (const char* text :
       {"a, a", "a.b, a.b", "a[1], a[1]", "a, a.b", "a.b, a", "a.b, a.b[2]",
        "a.b, a.b.c", "a, a.b[2].c", "a.b.d, a.b", "a.b.d.e, a.b", "a.b, a.b.d",
        "a.b, a.b.d.e"}) {
    auto r = Projection(text);
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_NE(r.error().message.find("Invalid ProjectionExpression: Two "
                                     "document paths overlap with each other"),
              std::string::npos)
        << text;
  }
  EXPECT_TRUE(IsValidation(
      Projection("a.b[0],a.b[0]"),
      "Invalid ProjectionExpression: Two document paths overlap with each "
      "other; must remove or rewrite one of these paths; path one: [a, b, "
      "[0]], path two: [a, b, [0]]"));
  EXPECT_TRUE(IsValidation(
      Projection("a.b, a[1]"),
      "Invalid ProjectionExpression: Two document paths conflict with each "
      "other; must remove or rewrite one of these paths; path one: [a, b], "
      "path two: [a, [1]]"));
  for (const char* text : {"a, b", "a.b, a.c", "a.b.d, a.b.e", "a[1], a[2]",
                           "a.b, a.c[2]", "a.b, a.c[1]"}) {
    EXPECT_TRUE(Projection(text).ok()) << text;
  }
  // Order: reserved word, undefined name, overlap, conflict.
  EXPECT_TRUE(IsValidation(Projection("a.b, a[1], a, #x, year"),
                           "Invalid ProjectionExpression: Attribute name is a "
                           "reserved keyword; reserved keyword: year"));
  EXPECT_TRUE(IsValidation(Projection("a.b, a[1], a, #x"),
                           "Invalid ProjectionExpression: An expression "
                           "attribute name used in the document path is not "
                           "defined; attribute name: #x"));
  EXPECT_TRUE(IsValidation(
      Projection("a.b, a[1], a"),
      "Invalid ProjectionExpression: Two document paths overlap with each "
      "other; must remove or rewrite one of these paths; path one: [a, b], "
      "path two: [a]"));
}

}  // namespace
}  // namespace ddblab::expr
