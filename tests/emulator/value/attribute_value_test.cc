#include "emulator/value/attribute_value.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace ddblab::value {
namespace {

using Type = AttributeValue::Type;

Number Num(std::string_view text) { return *Number::Parse(text); }

TEST(AttributeValueTest, DefaultIsNull) {
  AttributeValue v;
  EXPECT_EQ(v.type(), Type::kNull);
  EXPECT_EQ(v, AttributeValue::Null());
  EXPECT_FALSE(v.is_set());
  EXPECT_FALSE(v.is_scalar());
}

TEST(AttributeValueTest, Accessors) {
  EXPECT_EQ(AttributeValue::S("x").s(), "x");
  EXPECT_EQ(AttributeValue::S("x").type(), Type::kS);
  EXPECT_EQ(AttributeValue::N(Num("1.5")).n(), Num("1.5"));
  EXPECT_EQ(AttributeValue::B(std::string("\0\1", 2)).b(),
            std::string("\0\1", 2));
  EXPECT_TRUE(AttributeValue::Bool(true).boolean());
  EXPECT_FALSE(AttributeValue::Bool(false).boolean());
  AttributeValue m = AttributeValue::M({{"a", AttributeValue::S("1")}});
  EXPECT_EQ(m.m().at("a").s(), "1");
  AttributeValue l = AttributeValue::L({AttributeValue::Null()});
  ASSERT_EQ(l.l().size(), 1u);
  EXPECT_EQ(l.l()[0].type(), Type::kNull);
  EXPECT_EQ(AttributeValue::SS({"a", "b"}).ss().size(), 2u);
  EXPECT_EQ(AttributeValue::NS({Num("1")}).ns()[0], Num("1"));
  EXPECT_EQ(AttributeValue::BS({"x"}).bs()[0], "x");
}

TEST(AttributeValueTest, TypePredicates) {
  EXPECT_TRUE(AttributeValue::S("").is_scalar());
  EXPECT_TRUE(AttributeValue::N(Number()).is_scalar());
  EXPECT_TRUE(AttributeValue::B("").is_scalar());
  EXPECT_FALSE(AttributeValue::Bool(true).is_scalar());
  EXPECT_FALSE(AttributeValue::M({}).is_scalar());
  EXPECT_TRUE(AttributeValue::SS({"a"}).is_set());
  EXPECT_TRUE(AttributeValue::NS({Number()}).is_set());
  EXPECT_TRUE(AttributeValue::BS({"a"}).is_set());
  EXPECT_FALSE(AttributeValue::L({}).is_set());
  EXPECT_FALSE(AttributeValue::S("a").is_set());
}

TEST(AttributeValueTest, TypeNames) {
  const std::pair<Type, const char*> names[] = {
      {Type::kS, "S"},       {Type::kN, "N"},       {Type::kB, "B"},
      {Type::kBool, "BOOL"}, {Type::kNull, "NULL"}, {Type::kM, "M"},
      {Type::kL, "L"},       {Type::kSS, "SS"},     {Type::kNS, "NS"},
      {Type::kBS, "BS"}};
  for (const auto& [type, name] : names) {
    EXPECT_EQ(AttributeValue::TypeName(type), name);
    Type parsed = Type::kNull;
    ASSERT_TRUE(AttributeValue::TypeFromName(name, &parsed)) << name;
    EXPECT_EQ(parsed, type);
  }
  Type t = Type::kS;
  EXPECT_FALSE(AttributeValue::TypeFromName("s", &t));
  EXPECT_FALSE(AttributeValue::TypeFromName("", &t));
  EXPECT_FALSE(AttributeValue::TypeFromName("BOOLEAN", &t));
  EXPECT_EQ(t, Type::kS);
}

TEST(AttributeValueTest, ScalarEquality) {
  EXPECT_EQ(AttributeValue::S("a"), AttributeValue::S("a"));
  EXPECT_NE(AttributeValue::S("a"), AttributeValue::S("b"));
  EXPECT_NE(AttributeValue::S("a"), AttributeValue::B("a"));
  EXPECT_EQ(AttributeValue::N(Num("1")), AttributeValue::N(Num("1.0")));
  EXPECT_NE(AttributeValue::N(Num("1")), AttributeValue::S("1"));
  EXPECT_EQ(AttributeValue::Bool(true), AttributeValue::Bool(true));
  EXPECT_NE(AttributeValue::Bool(true), AttributeValue::Bool(false));
  EXPECT_NE(AttributeValue::Bool(false), AttributeValue::Null());
  EXPECT_EQ(AttributeValue::Null(), AttributeValue::Null());
  EXPECT_NE(AttributeValue::S(""), AttributeValue::Null());
}

TEST(AttributeValueTest, SetEqualityIgnoresOrder) {
  EXPECT_EQ(AttributeValue::SS({"a", "b", "c"}),
            AttributeValue::SS({"c", "a", "b"}));
  EXPECT_NE(AttributeValue::SS({"a", "b"}), AttributeValue::SS({"a", "c"}));
  EXPECT_NE(AttributeValue::SS({"a", "b"}), AttributeValue::SS({"a"}));
  EXPECT_NE(AttributeValue::SS({"a"}), AttributeValue::BS({"a"}));
  EXPECT_EQ(AttributeValue::NS({Num("1"), Num("2.50")}),
            AttributeValue::NS({Num("2.5"), Num("1e0")}));
  EXPECT_NE(AttributeValue::NS({Num("1"), Num("2")}),
            AttributeValue::NS({Num("1"), Num("3")}));
  EXPECT_EQ(AttributeValue::BS({"x", "y"}), AttributeValue::BS({"y", "x"}));
  // Large sets take the sorting path.
  std::vector<std::string> a;
  std::vector<std::string> b;
  for (int i = 0; i < 50; ++i) {
    a.push_back(std::to_string(i));
    b.push_back(std::to_string(49 - i));
  }
  EXPECT_EQ(AttributeValue::SS(a), AttributeValue::SS(b));
  b[10] = "x";
  EXPECT_NE(AttributeValue::SS(a), AttributeValue::SS(b));
  std::vector<Number> na;
  std::vector<Number> nb;
  for (int i = 0; i < 30; ++i) {
    na.push_back(Number::FromInt64(i));
    nb.push_back(Number::FromInt64(29 - i));
  }
  EXPECT_EQ(AttributeValue::NS(na), AttributeValue::NS(nb));
  nb[0] = Number::FromInt64(100);
  EXPECT_NE(AttributeValue::NS(na), AttributeValue::NS(nb));
}

TEST(AttributeValueTest, MapAndListEquality) {
  AttributeMap m1;
  m1.emplace("b", AttributeValue::N(Num("1")));
  m1.emplace("a", AttributeValue::S("x"));
  AttributeMap m2;
  m2.emplace("a", AttributeValue::S("x"));
  m2.emplace("b", AttributeValue::N(Num("1.00")));
  EXPECT_EQ(AttributeValue::M(m1), AttributeValue::M(m2));
  m2["c"] = AttributeValue::Null();
  EXPECT_NE(AttributeValue::M(m1), AttributeValue::M(m2));
  EXPECT_EQ(AttributeValue::M({}), AttributeValue::M({}));
  EXPECT_NE(AttributeValue::M({}), AttributeValue::L({}));
  EXPECT_EQ(AttributeValue::L({AttributeValue::S("a"), AttributeValue::M(m1)}),
            AttributeValue::L({AttributeValue::S("a"), AttributeValue::M(m1)}));
  EXPECT_NE(
      AttributeValue::L({AttributeValue::S("a"), AttributeValue::S("b")}),
      AttributeValue::L({AttributeValue::S("b"), AttributeValue::S("a")}));
  // Sets nested in lists compare order-free.
  EXPECT_EQ(AttributeValue::L({AttributeValue::SS({"a", "b"})}),
            AttributeValue::L({AttributeValue::SS({"b", "a"})}));
}

TEST(AttributeValueTest, CopiesShareAndAreIndependentOfSource) {
  AttributeValue a = AttributeValue::S("hello");
  AttributeValue b = a;
  a = AttributeValue::N(Number::FromInt64(3));
  EXPECT_EQ(b.s(), "hello");
  EXPECT_EQ(a.n(), Number::FromInt64(3));
}

TEST(AttributeValueTest, SharedAcrossThreads) {
  const AttributeValue v = AttributeValue::L(
      {AttributeValue::S("x"), AttributeValue::SS({"a", "b", "c"})});
  std::vector<std::thread> threads;
  std::atomic<int> equal{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&v, &equal]() {
      for (int i = 0; i < 1000; ++i) {
        AttributeValue copy = v;
        if (copy == v) equal.fetch_add(1);
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(equal.load(), 4000);
}

}  // namespace
}  // namespace ddblab::value
