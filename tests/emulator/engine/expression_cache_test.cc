// ExpressionCache (engine/expression_cache.h): a hit gives what a parse
// gives (tree, errors, used marks), names maps never share an entry, a
// request's own values are bound on a hit, content checks are redone, the
// bound holds; and through the emulator, a repeated request is a hit with
// the right answer.
#include "emulator/engine/expression_cache.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "emulator/expr/expr.h"
#include "emulator/value/codec.h"
#include "engine_test_util.h"

namespace ddblab::engine {
namespace {

using expr::ExpressionKind;
using expr::Placeholders;
using Json = nlohmann::json;

// Placeholders from JSON texts ("" = absent).
Placeholders Ph(std::string_view names, std::string_view values = "") {
  Json n, v;
  if (!names.empty()) n = Json::parse(names);
  if (!values.empty()) v = Json::parse(values);
  auto r = Placeholders::Create(names.empty() ? nullptr : &n,
                                values.empty() ? nullptr : &v);
  EXPECT_TRUE(r.ok());
  return r.ok() ? std::move(r).value() : Placeholders();
}

value::Item ItemOf(std::string_view json) {
  auto r = value::DecodeItem(Json::parse(json));
  EXPECT_TRUE(r.ok()) << json;
  return r.ok() ? *r : value::Item();
}

std::string Render(const value::AttributeValue& v) {
  return value::EncodeAttributeValue(v).dump();
}

// A tree as text, for comparing a hit with a parse.
std::string Render(const expr::Condition& c) {
  std::string out = "(" + std::to_string(static_cast<int>(c.kind)) + " " +
                    std::to_string(static_cast<int>(c.op)) + " " +
                    std::to_string(static_cast<int>(c.attribute_type));
  for (const expr::Operand& o : c.operands) {
    out += " [" + std::to_string(static_cast<int>(o.kind)) + " " +
           expr::RenderPath(o.path) + " " + Render(o.value) + "]";
  }
  for (const expr::Condition& child : c.children) out += " " + Render(child);
  return out + ")";
}

std::string Render(const expr::UpdateValue& v) {
  std::string out = "(" + std::to_string(static_cast<int>(v.kind)) + " " +
                    expr::RenderPath(v.path) + " " + Render(v.value);
  for (const expr::UpdateValue& a : v.args) out += " " + Render(a);
  return out + ")";
}

std::string Render(const expr::UpdateExpression& u) {
  std::string out;
  for (const expr::UpdateAction& a : u.actions) {
    out += std::to_string(static_cast<int>(a.kind)) + " " +
           expr::RenderPath(a.path) + " " + Render(a.value) + " " +
           Render(a.operand) + "; ";
  }
  return out;
}

template <class T>
std::string ErrorText(const Result<T>& r) {
  return r.ok() ? "ok" : ToString(r.error());
}

std::string UnusedText(const Placeholders& ph) {
  return ErrorText(ph.CheckAllUsed());
}

// Parses `text` through the cache and without it, from equal placeholders;
// both must agree (tree or error, and the unused check after).
std::string Both(ExpressionCache& cache, std::string_view text,
                 ExpressionKind kind, std::string_view names,
                 std::string_view values) {
  Placeholders cached_ph = Ph(names, values);
  Placeholders plain_ph = Ph(names, values);
  auto cached = cache.ParseCondition(text, kind, cached_ph);
  auto plain = expr::ParseCondition(text, kind, plain_ph);
  EXPECT_EQ(ErrorText(cached), ErrorText(plain)) << text;
  if (cached.ok() && plain.ok()) {
    EXPECT_EQ(Render(cached->root), Render(plain->root)) << text;
    EXPECT_EQ(UnusedText(cached_ph), UnusedText(plain_ph));
  }
  return cached.ok() ? Render(cached->root) : ErrorText(cached);
}

TEST(ExpressionCacheTest, HitGivesTheParsedTreeWithThisRequestsValues) {
  ExpressionCache cache;
  constexpr char kText[] =
      "#a = :v AND (size(:s) > :n OR #b.c[1] IN (:v, :n)) AND "
      "begins_with(#a, :p) AND NOT contains(#b, :s)";
  constexpr char kNames[] = R"({"#a": "x", "#b": "y"})";
  const std::string first =
      Both(cache, kText, ExpressionKind::kFilter, kNames,
           R"({":v": {"S": "one"}, ":s": {"S": "abc"}, ":n": {"N": "1"},
               ":p": {"S": "o"}})");
  EXPECT_EQ(cache.stats().misses, 1u);
  EXPECT_EQ(cache.stats().size, 1u);
  // Same text, names and value types, other values: a hit, and the tree
  // holds the new values.
  const std::string second =
      Both(cache, kText, ExpressionKind::kFilter, kNames,
           R"({":v": {"S": "two"}, ":s": {"S": "abcd"}, ":n": {"N": "7"},
               ":p": {"S": "t"}})");
  EXPECT_EQ(cache.stats().hits, 1u);
  EXPECT_NE(first, second);
  EXPECT_NE(second.find(R"({"S":"two"})"), std::string::npos) << second;
  EXPECT_EQ(second.find(R"({"S":"one"})"), std::string::npos) << second;
}

TEST(ExpressionCacheTest, NamesMapsNeverShareAnEntry) {
  ExpressionCache cache;
  const value::Item item = ItemOf(R"({"x": {"N": "1"}, "y": {"N": "2"}})");
  for (int round = 0; round < 2; ++round) {
    for (const char* names : {R"({"#a": "x"})", R"({"#a": "y"})"}) {
      Placeholders ph = Ph(names, R"({":v": {"N": "2"}})");
      auto c = cache.ParseCondition("#a = :v", ExpressionKind::kCondition, ph);
      ASSERT_TRUE(c.ok()) << ErrorText(c);
      // #a -> x: 1 = 2 is false; #a -> y: 2 = 2 is true.
      EXPECT_EQ(expr::EvaluateCondition(*c, item),
                std::string_view(names).find('y') != std::string_view::npos)
          << names << " round " << round;
    }
  }
  EXPECT_EQ(cache.stats().size, 2u);
  EXPECT_EQ(cache.stats().hits, 2u);
}

TEST(ExpressionCacheTest, HitMarksNamesAndValuesUsedAsAParseDoes) {
  ExpressionCache cache;
  for (int round = 0; round < 2; ++round) {
    // #z and :w are in the maps but not in the text: reported unused.
    Placeholders ph = Ph(R"({"#a": "x", "#z": "z"})",
                         R"({":v": {"N": "1"}, ":w": {"N": "2"}})");
    ASSERT_TRUE(cache.ParseUpdate("SET #a = :v", ph).ok());
    EXPECT_EQ(UnusedText(ph),
              "ValidationException: Value provided in "
              "ExpressionAttributeNames unused in expressions: keys: {#z}");
    Placeholders all = Ph(R"({"#a": "x"})", R"({":v": {"N": "1"}})");
    ASSERT_TRUE(cache.ParseUpdate("SET #a = :v", all).ok());
    EXPECT_EQ(UnusedText(all), "ok");
  }
  EXPECT_EQ(cache.stats().hits, 2u);
  EXPECT_EQ(cache.stats().misses, 2u);
}

TEST(ExpressionCacheTest, UpdateHitAppliesThisRequestsValues) {
  ExpressionCache cache;
  constexpr char kText[] =
      "SET a = :x + :y, b = list_append(:l, b), c = if_not_exists(c, :x) "
      "REMOVE d ADD n :one DELETE s :ss";
  const value::Item item = ItemOf(
      R"({"b": {"L": [{"S": "old"}]}, "d": {"S": "gone"}, "n": {"N": "1"},
          "s": {"SS": ["p", "q"]}})");
  std::string last;
  for (const char* values :
       {R"({":x": {"N": "1"}, ":y": {"N": "2"}, ":l": {"L": [{"S": "new"}]},
            ":one": {"N": "1"}, ":ss": {"SS": ["p"]}})",
        R"({":x": {"N": "10"}, ":y": {"N": "20"}, ":l": {"L": []},
            ":one": {"N": "5"}, ":ss": {"SS": ["q"]}})"}) {
    Placeholders cached_ph = Ph("", values);
    Placeholders plain_ph = Ph("", values);
    auto cached = cache.ParseUpdate(kText, cached_ph);
    auto plain = expr::ParseUpdate(kText, plain_ph);
    ASSERT_TRUE(cached.ok()) << ErrorText(cached);
    ASSERT_TRUE(plain.ok()) << ErrorText(plain);
    EXPECT_EQ(Render(*cached), Render(*plain));
    auto applied = expr::ApplyUpdate(*cached, item);
    ASSERT_TRUE(applied.ok()) << ErrorText(applied);
    const std::string now = value::EncodeItem(*applied).dump();
    EXPECT_NE(now, last);
    last = now;
  }
  EXPECT_EQ(last, R"({"a":{"N":"30"},"b":{"L":[{"S":"old"}]},"c":{"N":"10"},)"
                  R"("n":{"N":"6"},"s":{"SS":["p"]}})");
  EXPECT_EQ(cache.stats().hits, 1u);
}

TEST(ExpressionCacheTest, ErrorsComeOutAsTheParserWordsThemAndAreNotCached) {
  ExpressionCache cache;
  struct Case {
    const char* text;
    const char* values;
    const char* error;
  };
  const Case cases[] = {
      {"a = :missing", R"({":v": {"N": "1"}})",
       "ValidationException: Invalid ConditionExpression: An expression "
       "attribute value used in expression is not defined; attribute value: "
       ":missing"},
      {"a < :v", R"({":v": {"L": []}})",
       "ValidationException: Invalid ConditionExpression: Incorrect operand "
       "type for operator or function; operator or function: <, operand "
       "type: L"},
      {"a = = :v", R"({":v": {"N": "1"}})",
       "ValidationException: Invalid ConditionExpression: Syntax error; "
       "token: \"=\", near: \"= = :v\""},
  };
  for (const Case& c : cases) {
    for (int round = 0; round < 2; ++round) {
      EXPECT_EQ(Both(cache, c.text, ExpressionKind::kCondition, "", c.values),
                c.error);
    }
  }
  // `a < :v` with an N value parses; with an L value (another key: value
  // types are part of it) it fails again, as the parser says.
  Both(cache, "a < :v", ExpressionKind::kCondition, "",
       R"({":v": {"N": "1"}})");
  EXPECT_EQ(Both(cache, "a < :v", ExpressionKind::kCondition, "",
                 R"({":v": {"L": []}})"),
            cases[1].error);
  EXPECT_EQ(cache.stats().size, 1u);
}

TEST(ExpressionCacheTest, BetweenBoundsAreCheckedOnEveryHit) {
  ExpressionCache cache;
  constexpr char kText[] = "n BETWEEN :lo AND :hi";
  Both(cache, kText, ExpressionKind::kFilter, "",
       R"({":lo": {"N": "1"}, ":hi": {"N": "5"}})");
  EXPECT_EQ(Both(cache, kText, ExpressionKind::kFilter, "",
                 R"({":lo": {"N": "5"}, ":hi": {"N": "1"}})"),
            "ValidationException: Invalid FilterExpression: The BETWEEN "
            "operator requires upper bound to be greater than or equal to "
            "lower bound; lower bound operand: AttributeValue: {N:5}, upper "
            "bound operand: AttributeValue: {N:1}");
  Both(cache, kText, ExpressionKind::kFilter, "",
       R"({":lo": {"N": "2"}, ":hi": {"N": "3"}})");
  EXPECT_EQ(cache.stats().hits, 2u);
}

TEST(ExpressionCacheTest, AttributeTypeIsNotCached) {
  ExpressionCache cache;
  for (const char* type : {R"("S")", R"("N")", R"("XX")"}) {
    Both(cache, "attribute_type(a, :t)", ExpressionKind::kCondition, "",
         std::string(R"({":t": {"S": )") + type + "}}");
  }
  EXPECT_EQ(cache.stats().size, 0u);
  EXPECT_EQ(cache.stats().hits, 0u);
}

TEST(ExpressionCacheTest, KindIsPartOfTheKey) {
  ExpressionCache cache;
  Both(cache, "a = b", ExpressionKind::kCondition, "", "");
  EXPECT_EQ(Both(cache, "a = b", ExpressionKind::kFilter, "", ""),
            Both(cache, "a = b", ExpressionKind::kCondition, "", ""));
  EXPECT_EQ(cache.stats().size, 2u);
  EXPECT_EQ(Both(cache, "a = a", ExpressionKind::kFilter, "", ""),
            "ValidationException: Invalid FilterExpression: The first operand "
            "must be distinct from the remaining operands for this operator or "
            "function; operator: =, first operand: [a]");
}

TEST(ExpressionCacheTest, BoundedLeastRecentlyUsedFirst) {
  ExpressionCache cache(4);
  auto parse = [&](const std::string& text) {
    Placeholders ph;
    ASSERT_TRUE(cache.ParseProjection(text, ph).ok()) << text;
  };
  for (int i = 0; i < 4; ++i) parse("a" + std::to_string(i));
  parse("a0");  // a1 is now the least recently used
  parse("a4");  // the fifth distinct one
  EXPECT_EQ(cache.stats().size, 4u);
  const uint64_t hits = cache.stats().hits;
  parse("a0");
  EXPECT_EQ(cache.stats().hits, hits + 1);  // kept
  parse("a1");
  EXPECT_EQ(cache.stats().hits, hits + 1);  // evicted: parsed again
  EXPECT_EQ(cache.stats().size, 4u);

  ExpressionCache none(0);
  Placeholders ph;
  ASSERT_TRUE(none.ParseProjection("a", ph).ok());
  ASSERT_TRUE(none.ParseProjection("a", ph).ok());
  EXPECT_EQ(none.stats().size, 0u);
  EXPECT_EQ(none.stats().hits, 0u);
}

// Through the emulator: the same Query with #a -> x, then #a -> y, then
// again; each answer is the right one, and the repeats are hits.
class ExpressionCacheEngineTest : public testing::EngineTest {};

TEST_F(ExpressionCacheEngineTest, RepeatedRequestsHitAndAnswerRight) {
  CreateTable("tbl");
  Ok("PutItem",
     {{"TableName", "tbl"},
      {"Item",
       {{"pk", {{"S", "k"}}}, {"x", {{"N", "1"}}}, {"y", {{"N", "2"}}}}}});
  auto query = [&](const char* attr, const char* v) {
    return Ok("Query", {{"TableName", "tbl"},
                        {"KeyConditionExpression", "pk = :k"},
                        {"FilterExpression", "#a = :v"},
                        {"ProjectionExpression", "#a"},
                        {"ExpressionAttributeNames", {{"#a", attr}}},
                        {"ExpressionAttributeValues",
                         {{":k", {{"S", "k"}}}, {":v", {{"N", v}}}}}});
  };
  for (int round = 0; round < 2; ++round) {
    EXPECT_EQ(query("x", "1")["Items"], Json::parse(R"([{"x": {"N": "1"}}])"));
    EXPECT_EQ(query("x", "2")["Count"], 0);
    EXPECT_EQ(query("y", "2")["Items"], Json::parse(R"([{"y": {"N": "2"}}])"));
  }
  const ExpressionCache::Stats stats = impl().expression_cache().stats();
  // Key condition, filter and projection, for #a -> x and #a -> y.
  EXPECT_EQ(stats.size, 6u);
  EXPECT_EQ(stats.misses, 6u);
  EXPECT_EQ(stats.hits, 12u);
  // An unused value: the same error on a miss and on a hit.
  for (int round = 0; round < 2; ++round) {
    EXPECT_EQ(
        FailText("Query", {{"TableName", "tbl"},
                           {"KeyConditionExpression", "pk = :k"},
                           {"ExpressionAttributeValues",
                            {{":k", {{"S", "k"}}}, {":w", {{"N", "1"}}}}}}),
        "ValidationException: Value provided in "
        "ExpressionAttributeValues unused in expressions: keys: {:w}");
  }
}

}  // namespace
}  // namespace ddblab::engine
