// Tests of emulator/engine/vector/vector_store.h: the float32 rows of one
// vector index, its three scores and the exact top-k search.
#include "emulator/engine/vector/vector_store.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <string>
#include <vector>

namespace ddblab::engine {
namespace {

VectorEntry Entry(std::vector<float> values,
                  std::vector<std::optional<std::string>> keys = {},
                  int64_t size = 100) {
  VectorEntry e;
  e.values = std::move(values);
  e.schema_keys = std::move(keys);
  e.size = size;
  return e;
}

std::vector<std::string> Pks(const VectorIndexData& d,
                             const std::vector<VectorHit>& hits) {
  std::vector<std::string> out;
  for (const VectorHit& h : hits) out.push_back(d.row(h.slot).pk);
  return out;
}

TEST(VectorStoreTest, ScoresMatchTheirDefinitions) {
  const float q[3] = {1, 0, 0};
  const float same[3] = {1, 0, 0};
  const float ortho[3] = {0, 1, 0};
  const float opposite[3] = {-1, 0, 0};
  const float scaled[3] = {10, 0, 0};
  const float zero[3] = {0, 0, 0};
  auto score = [&](DistanceFunction f, const float* s) {
    return VectorScore(f, q, s, 3, SumOfSquares({q, 3}), SumOfSquares({s, 3}));
  };
  EXPECT_EQ(score(DistanceFunction::kCosine, same), 0.0);
  EXPECT_EQ(score(DistanceFunction::kCosine, ortho), 1.0);
  EXPECT_EQ(score(DistanceFunction::kCosine, opposite), 2.0);
  EXPECT_EQ(score(DistanceFunction::kCosine, scaled), 0.0);
  EXPECT_EQ(score(DistanceFunction::kCosine, zero), 1.0);  // never NaN
  EXPECT_EQ(score(DistanceFunction::kEuclidean, same), 0.0);
  EXPECT_EQ(score(DistanceFunction::kEuclidean, ortho), std::sqrt(2.0));
  EXPECT_EQ(score(DistanceFunction::kEuclidean, opposite), 2.0);
  EXPECT_EQ(score(DistanceFunction::kEuclidean, scaled), 9.0);
  EXPECT_EQ(score(DistanceFunction::kDotProduct, same), 1.0);
  EXPECT_EQ(score(DistanceFunction::kDotProduct, ortho), 0.0);
  EXPECT_EQ(score(DistanceFunction::kDotProduct, opposite), -1.0);
  // Products beyond the float32 range saturate instead of overflowing.
  const float big[2] = {FLT_MAX, FLT_MAX};
  EXPECT_EQ(VectorScore(DistanceFunction::kDotProduct, big, big, 2,
                        SumOfSquares({big, 2}), SumOfSquares({big, 2})),
            static_cast<double>(FLT_MAX));
}

TEST(VectorStoreTest, UpsertReplaceRemoveKeepRowsDense) {
  VectorIndexData d(2);
  d.Upsert("a", "", Entry({1, 0}, {}, 10));
  d.Upsert("b", "", Entry({0, 1}, {}, 20));
  d.Upsert("c", "x", Entry({1, 1}, {}, 30));
  EXPECT_EQ(d.size(), 3u);
  EXPECT_EQ(d.bytes(), 60);
  d.Upsert("a", "", Entry({2, 0}, {}, 15));  // replace in place
  EXPECT_EQ(d.size(), 3u);
  EXPECT_EQ(d.bytes(), 65);
  d.Remove("a", "");  // the last row moves into slot 0
  d.Remove("nope", "");
  EXPECT_EQ(d.size(), 2u);
  EXPECT_EQ(d.bytes(), 50);
  ASSERT_NE(d.Find("c", "x"), nullptr);
  EXPECT_EQ(d.Find("c", ""), nullptr);
  EXPECT_EQ(d.Find("a", ""), nullptr);
  const float q[2] = {1, 1};
  std::vector<VectorHit> hits =
      d.Search({q, 2}, DistanceFunction::kEuclidean, 5, {});
  EXPECT_EQ(Pks(d, hits), (std::vector<std::string>{"c", "b"}));
  EXPECT_EQ(hits[0].score, 0.0);
}

TEST(VectorStoreTest, TopKOrderTiesAndFilters) {
  VectorIndexData d(2);
  d.Upsert("p3", "", Entry({1, 0}, {"red"}));
  d.Upsert("p1", "", Entry({1, 0}, {"blue"}));  // ties with p3
  d.Upsert("p2", "", Entry({0, 1}, {"red"}));
  d.Upsert("p4", "", Entry({-1, 0}, {std::nullopt}));
  const float q[2] = {1, 0};
  // Nearest first; equal scores by primary key.
  EXPECT_EQ(Pks(d, d.Search({q, 2}, DistanceFunction::kCosine, 10, {})),
            (std::vector<std::string>{"p1", "p3", "p2", "p4"}));
  // DOT_PRODUCT ranks the highest first.
  EXPECT_EQ(Pks(d, d.Search({q, 2}, DistanceFunction::kDotProduct, 2, {})),
            (std::vector<std::string>{"p1", "p3"}));
  // A cut inside the tie keeps the lower key.
  EXPECT_EQ(Pks(d, d.Search({q, 2}, DistanceFunction::kCosine, 1, {})),
            (std::vector<std::string>{"p1"}));
  // Equality on the SearchSchema element; a row without it never matches.
  EXPECT_EQ(Pks(d, d.Search({q, 2}, DistanceFunction::kCosine, 10,
                            {SchemaEquality{0, "red"}})),
            (std::vector<std::string>{"p3", "p2"}));
}

}  // namespace
}  // namespace ddblab::engine
