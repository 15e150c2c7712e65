// tests/common/text/query_string_test.cc: SplitQuery
// (common/text/query_string.h): pairs in order, values split at the first
// '=', empty pairs skipped, nothing decoded.
#include "common/text/query_string.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace ddblab::text {
namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

Pairs Split(std::string_view query) {
  Pairs out;
  for (const QueryPair& pair : SplitQuery(query)) {
    out.emplace_back(pair.name, pair.value);
  }
  return out;
}

TEST(SplitQueryTest, PairsInOrder) {
  EXPECT_EQ(Split("clock=manual&seed=1&clock=system"),
            (Pairs{{"clock", "manual"}, {"seed", "1"}, {"clock", "system"}}));
}

TEST(SplitQueryTest, EdgesOfAPair) {
  EXPECT_EQ(Split(""), Pairs{});
  EXPECT_EQ(Split("&&"), Pairs{});
  EXPECT_EQ(Split("a&&b="), (Pairs{{"a", ""}, {"b", ""}}));
  EXPECT_EQ(Split("=v"), (Pairs{{"", "v"}}));
  EXPECT_EQ(Split("clock=manual=1800000000"),
            (Pairs{{"clock", "manual=1800000000"}}));
}

TEST(SplitQueryTest, NothingIsDecoded) {
  EXPECT_EQ(Split("k=a%20b+c&x%3D=1"),
            (Pairs{{"k", "a%20b+c"}, {"x%3D", "1"}}));
}

}  // namespace
}  // namespace ddblab::text
