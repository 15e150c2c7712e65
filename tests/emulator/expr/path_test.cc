#include "emulator/expr/path.h"

#include <gtest/gtest.h>

#include "expr_test_util.h"

namespace ddblab::expr {
namespace {

using testing::ItemOf;
using testing::N;
using testing::S;

DocumentPath P(std::vector<PathElement> e) {
  return DocumentPath::Of(std::move(e));
}
PathElement Nm(const char* n) { return PathElement::Name(n); }
PathElement Ix(uint32_t i) { return PathElement::Index(i); }

TEST(PathTest, RendersLikeDynamoDb) {
  EXPECT_EQ(RenderPath(P({Nm("a"), Nm("b"), Ix(3)})), "[a, b, [3]]");
  EXPECT_EQ(RenderPath(DocumentPath("a.b")), "[a.b]");
}

TEST(PathTest, FindPathWalksMapsAndLists) {
  auto item = ItemOf(R"({"a": {"M": {"b": {"L": [{"N": "1"}, {"S": "x"}]}}},
                         "c": {"S": "y"}})");
  ASSERT_NE(FindPath(item, P({Nm("a"), Nm("b"), Ix(1)})), nullptr);
  EXPECT_EQ(*FindPath(item, P({Nm("a"), Nm("b"), Ix(1)})), S("x"));
  EXPECT_EQ(*FindPath(item, P({Nm("a"), Nm("b"), Ix(0)})), N("1"));
  EXPECT_EQ(FindPath(item, P({Nm("a"), Nm("b"), Ix(2)})), nullptr);
  EXPECT_EQ(FindPath(item, P({Nm("a"), Ix(0)})), nullptr);
  EXPECT_EQ(FindPath(item, P({Nm("c"), Nm("x")})), nullptr);
  EXPECT_EQ(FindPath(item, P({Nm("z")})), nullptr);
  EXPECT_EQ(FindPath(item, DocumentPath()), nullptr);
}

TEST(PathTest, OverlapAndConflict) {
  EXPECT_EQ(ComparePaths(P({Nm("a")}), P({Nm("a"), Nm("b")})),
            PathRelation::kOverlap);
  EXPECT_EQ(ComparePaths(P({Nm("a"), Ix(1)}), P({Nm("a"), Ix(1)})),
            PathRelation::kOverlap);
  EXPECT_EQ(ComparePaths(P({Nm("a"), Nm("b")}), P({Nm("a"), Ix(1)})),
            PathRelation::kConflict);
  EXPECT_EQ(ComparePaths(P({Nm("a"), Nm("b")}), P({Nm("a"), Nm("c")})),
            PathRelation::kNone);
  EXPECT_EQ(ComparePaths(P({Nm("a"), Ix(1)}), P({Nm("a"), Ix(2)})),
            PathRelation::kNone);
  EXPECT_EQ(PathRelationMessage(PathRelation::kOverlap, P({Nm("a")}),
                                P({Nm("a"), Nm("b")})),
            "Two document paths overlap with each other; must remove or "
            "rewrite one of these paths; path one: [a], path two: [a, b]");
}

TEST(PathTest, PathLessOrdersIndexesNumerically) {
  EXPECT_TRUE(PathLess(P({Nm("a"), Ix(2)}), P({Nm("a"), Ix(10)})));
  EXPECT_FALSE(PathLess(P({Nm("a"), Ix(10)}), P({Nm("a"), Ix(2)})));
  EXPECT_TRUE(PathLess(P({Nm("a")}), P({Nm("a"), Ix(0)})));
  EXPECT_TRUE(PathLess(P({Nm("a")}), P({Nm("b")})));
}

}  // namespace
}  // namespace ddblab::expr
