#include "emulator/server/request_id.h"

#include <gtest/gtest.h>

#include <set>

namespace ddblab::server {
namespace {

TEST(RequestIdTest, FiftyTwoUppercaseAlphanumerics) {
  RequestIdGenerator ids(1);
  for (int i = 0; i < 100; ++i) {
    std::string id = ids.Next();
    ASSERT_EQ(id.size(), 52u);
    for (char c : id) {
      ASSERT_TRUE((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) << id;
    }
  }
}

TEST(RequestIdTest, SameSeedSameSequence) {
  RequestIdGenerator a(42), b(42), c(43);
  std::string a1 = a.Next(), a2 = a.Next();
  EXPECT_EQ(a1, b.Next());
  EXPECT_EQ(a2, b.Next());
  EXPECT_NE(a1, a2);
  EXPECT_NE(a1, c.Next());
}

TEST(RequestIdTest, NoRepeatsInAThousand) {
  RequestIdGenerator ids(7);
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) seen.insert(ids.Next());
  EXPECT_EQ(seen.size(), 1000u);
}

}  // namespace
}  // namespace ddblab::server
