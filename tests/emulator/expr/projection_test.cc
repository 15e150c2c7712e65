// ProjectionExpression application (DynamoDB's expression rules).
#include "emulator/expr/projection.h"

#include <gtest/gtest.h>

#include "expr_test_util.h"

namespace ddblab::expr {
namespace {

using testing::ItemOf;
using testing::Json;

constexpr char kItem[] = R"({"p": {"S": "k"},
  "a": {"M": {"b": {"L": [{"N": "2"}, {"N": "4"}, {"M": {"x": {"S": "hi"}, "y": {"S": "yo"}}}]},
              "c": {"N": "5"}}},
  "b": {"S": "hello"}, "a.b": {"S": "dotted"}})";

std::string Proj(std::string_view text, std::string_view names = "") {
  Placeholders ph = testing::Ph(names);
  auto p = ParseProjection(text, ph);
  EXPECT_TRUE(p.ok()) << text;
  if (!p.ok()) return ToString(p.error());
  return Json(Project(*p, ItemOf(kItem)));
}

std::string J(std::string_view json) { return Json(ItemOf(json)); }

TEST(ProjectTest, TopLevel) {
  EXPECT_EQ(Proj("b"), J(R"({"b": {"S": "hello"}})"));
  EXPECT_EQ(Proj("b, p"), J(R"({"b": {"S": "hello"}, "p": {"S": "k"}})"));
  EXPECT_EQ(Proj("nonexistent"), J("{}"));
  EXPECT_EQ(Proj("#n", R"({"#n": "a.b"})"), J(R"({"a.b": {"S": "dotted"}})"));
}

TEST(ProjectTest, NestedPathsKeepTheirParents) {
  EXPECT_EQ(Proj("a.c"), J(R"({"a": {"M": {"c": {"N": "5"}}}})"));
  EXPECT_EQ(Proj("a.b[0]"), J(R"({"a": {"M": {"b": {"L": [{"N": "2"}]}}}})"));
  EXPECT_EQ(Proj("a.b[2].y"),
            J(R"({"a": {"M": {"b": {"L": [{"M": {"y": {"S": "yo"}}}]}}}})"));
  EXPECT_EQ(Proj("a.b[0],a.b[1]"),
            J(R"({"a": {"M": {"b": {"L": [{"N": "2"}, {"N": "4"}]}}}})"));
  EXPECT_EQ(
      Proj("a.b[2], a.b[0]"),
      J(R"({"a": {"M": {"b": {"L": [{"N": "2"}, {"M": {"x": {"S": "hi"}, "y": {"S": "yo"}}}]}}}})"));
  EXPECT_EQ(Proj("a.b[0],a.c"),
            J(R"({"a": {"M": {"b": {"L": [{"N": "2"}]}, "c": {"N": "5"}}}})"));
  EXPECT_EQ(Proj("a.c,b"),
            J(R"({"a": {"M": {"c": {"N": "5"}}}, "b": {"S": "hello"}})"));
  EXPECT_EQ(Proj("#n1.#n2", R"({"#n1": "a", "#n2": "c"})"),
            J(R"({"a": {"M": {"c": {"N": "5"}}}})"));
}

TEST(ProjectTest, MissingOrMistypedPathsAreAbsent) {
  for (const char* text : {"x", "a.b[3]", "a.x", "a.x.y", "a.b[3].x", "a.b.x",
                           "a[0]", "a.b[0].x", "a.b[0][0]", "b.c", "b[0]"}) {
    EXPECT_EQ(Proj(text), J("{}")) << text;
  }
  EXPECT_EQ(Proj("a.x, a.b[0], x, a.b[3].x"),
            J(R"({"a": {"M": {"b": {"L": [{"N": "2"}]}}}})"));
}

TEST(ProjectTest, EmptyItem) {
  Placeholders ph;
  auto p = ParseProjection("a, b.c", ph);
  ASSERT_TRUE(p.ok());
  EXPECT_TRUE(Project(*p, value::Item()).empty());
}

}  // namespace
}  // namespace ddblab::expr
