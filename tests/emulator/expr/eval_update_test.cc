// UpdateExpression application semantics and runtime errors
// (DynamoDB's expression rules, the DynamoDB API reference UpdateItem).
#include "emulator/expr/eval_update.h"

#include <gtest/gtest.h>

#include "expr_test_util.h"

namespace ddblab::expr {
namespace {

using testing::IsValidation;
using testing::ItemOf;
using testing::Json;

constexpr char kValues[] = R"({
  ":v": {"S": "hi"}, ":one": {"N": "1"}, ":two": {"N": "2"},
  ":seven": {"N": "7"}, ":zero": {"N": "0"}, ":s": {"S": "dog"},
  ":l": {"L": [{"N": "4"}, {"S": "hello"}]}, ":l2": {"L": [{"S": "dog"}]},
  ":empty": {"L": []}, ":ss": {"SS": ["pig"]}, ":ss2": {"SS": ["coati", "beaver", "badger"]},
  ":ssDel": {"SS": ["cat", "mouse"]}, ":ssAll": {"SS": ["dog", "cat", "mouse"]},
  ":ns": {"NS": ["1", "5"]}, ":bs": {"BS": ["YQ=="]},
  ":a1": {"S": "a1"}, ":a2": {"S": "a2"}, ":a3": {"S": "a3"}, ":a4": {"S": "a4"},
  ":big": {"N": "9e125"}, ":e50": {"N": "1e50"}, ":m": {"M": {"x": {"N": "1"}}}})";

Result<value::Item> Apply(std::string_view text, const value::Item& item,
                          std::string_view names = "") {
  Placeholders ph = testing::Ph(names, kValues);
  auto u = ParseUpdate(text, ph);
  EXPECT_TRUE(u.ok()) << text << " " << (u.ok() ? "" : ToString(u.error()));
  if (!u.ok()) return u.error();
  return ApplyUpdate(*u, item);
}

std::string ApplyJson(std::string_view text, std::string_view item_json,
                      std::string_view names = "") {
  auto r = Apply(text, ItemOf(item_json), names);
  if (!r.ok()) return ToString(r.error());
  return Json(*r);
}

std::string J(std::string_view item_json) { return Json(ItemOf(item_json)); }

constexpr char kMissing[] =
    "The provided expression refers to an attribute that does not exist in the "
    "item";
constexpr char kBadType[] =
    "An operand in the update expression has an incorrect data type";
constexpr char kBadPath[] =
    "The document path provided in the update expression is invalid for update";

TEST(ApplyUpdateTest, SetCreatesReplacesAndCopies) {
  EXPECT_EQ(ApplyJson("SET b = :v", R"({"p": {"S": "k"}})"),
            J(R"({"p": {"S": "k"}, "b": {"S": "hi"}})"));
  EXPECT_EQ(ApplyJson("SET p = :s", R"({"p": {"S": "k"}})"),
            J(R"({"p": {"S": "dog"}})"));
  EXPECT_EQ(ApplyJson("SET b = a", R"({"a": {"S": "hello"}})"),
            J(R"({"a": {"S": "hello"}, "b": {"S": "hello"}})"));
  EXPECT_EQ(ApplyJson("SET a = a", R"({"a": {"S": "hello"}})"),
            J(R"({"a": {"S": "hello"}})"));
  EXPECT_EQ(ApplyJson("SET #a = :v", R"({})", R"({"#a": "a.b"})"),
            J(R"({"a.b": {"S": "hi"}})"));
  // A missing item is an empty item.
  EXPECT_EQ(ApplyJson("SET x = :v, y = :v", "{}"),
            J(R"({"x": {"S": "hi"}, "y": {"S": "hi"}})"));
}

TEST(ApplyUpdateTest, RightHandSidesSeeTheOriginalItem) {
  EXPECT_EQ(ApplyJson("REMOVE a SET b = a", R"({"a": {"S": "hello"}})"),
            J(R"({"b": {"S": "hello"}})"));
  EXPECT_EQ(ApplyJson("SET c = b REMOVE b", R"({"b": {"S": "hello"}})"),
            J(R"({"c": {"S": "hello"}})"));
  EXPECT_TRUE(IsValidation(Apply("SET x = :v, y = x", ItemOf("{}")), kMissing));
  EXPECT_EQ(
      ApplyJson("SET a = b, b = a", R"({"a": {"N": "1"}, "b": {"N": "2"}})"),
      J(R"({"a": {"N": "2"}, "b": {"N": "1"}})"));
}

TEST(ApplyUpdateTest, MissingAttributes) {
  EXPECT_TRUE(IsValidation(Apply("SET c = z", ItemOf(R"({"a": {"N": "1"}})")),
                           kMissing));
  EXPECT_TRUE(IsValidation(Apply("SET c = z", value::Item()), kMissing));
  EXPECT_TRUE(IsValidation(Apply("SET a = b + :one", ItemOf("{}")), kMissing));
  EXPECT_TRUE(IsValidation(Apply("SET a = list_append(b, :l)", ItemOf("{}")),
                           kMissing));
  EXPECT_TRUE(IsValidation(Apply("SET a = list_append(:l, b)", ItemOf("{}")),
                           kMissing));
}

TEST(ApplyUpdateTest, Arithmetic) {
  EXPECT_EQ(ApplyJson("SET b = :two + :seven", "{}"),
            J(R"({"b": {"N": "9"}})"));
  EXPECT_EQ(ApplyJson("SET nn = :seven - n", R"({"n": {"N": "2"}})"),
            J(R"({"n": {"N": "2"}, "nn": {"N": "5"}})"));
  EXPECT_EQ(ApplyJson("SET a = a + :seven", R"({"a": {"N": "2.5"}})"),
            J(R"({"a": {"N": "9.5"}})"));
  EXPECT_EQ(ApplyJson("SET c = if_not_exists(c, :zero) + :one", "{}"),
            J(R"({"c": {"N": "1"}})"));
  EXPECT_EQ(ApplyJson("SET c = if_not_exists(c, :zero) + :one",
                      R"({"c": {"N": "41"}})"),
            J(R"({"c": {"N": "42"}})"));
  EXPECT_TRUE(IsValidation(
      Apply("SET a = a + :one", ItemOf(R"({"a": {"S": "x"}})")), kBadType));
  EXPECT_TRUE(IsValidation(
      Apply("SET a = :one - a", ItemOf(R"({"a": {"SS": ["x"]}})")), kBadType));
  EXPECT_TRUE(IsValidation(
      Apply("SET a = :big + :big", ItemOf("{}")),
      "Number overflow. Attempting to store a number with magnitude larger "
      "than supported range"));
  EXPECT_FALSE(Apply("SET a = :e50 + :one", ItemOf("{}")).ok());
}

TEST(ApplyUpdateTest, ListAppendAndIfNotExists) {
  EXPECT_EQ(ApplyJson("SET a = list_append(:l, :l2)", "{}"),
            J(R"({"a": {"L": [{"N": "4"}, {"S": "hello"}, {"S": "dog"}]}})"));
  EXPECT_EQ(
      ApplyJson("SET a = list_append(:l2, a)", R"({"a": {"L": [{"N": "1"}]}})"),
      J(R"({"a": {"L": [{"S": "dog"}, {"N": "1"}]}})"));
  EXPECT_EQ(
      ApplyJson("SET h = list_append(if_not_exists(h, :empty), :l2)", "{}"),
      J(R"({"h": {"L": [{"S": "dog"}]}})"));
  for (const char* b :
       {R"({"N": "7"})", R"({"S": "hello"})", R"({"B": "aGk="})",
        R"({"NS": ["1"]})", R"({"M": {}})"}) {
    auto item = ItemOf(std::string(R"({"b": )") + b + "}");
    EXPECT_TRUE(
        IsValidation(Apply("SET a = list_append(b, :l)", item), kBadType))
        << b;
    EXPECT_TRUE(
        IsValidation(Apply("SET a = list_append(:l, b)", item), kBadType))
        << b;
  }
  EXPECT_EQ(ApplyJson("SET a = if_not_exists(a, :one)", R"({"a": {"N": "2"}})"),
            J(R"({"a": {"N": "2"}})"));
  EXPECT_EQ(ApplyJson("SET b = if_not_exists(c, :one)", R"({"a": {"N": "2"}})"),
            J(R"({"a": {"N": "2"}, "b": {"N": "1"}})"));
  EXPECT_EQ(ApplyJson("SET x = if_not_exists(b, if_not_exists(a, :one))",
                      R"({"a": {"N": "3"}})"),
            J(R"({"a": {"N": "3"}, "x": {"N": "3"}})"));
}

TEST(ApplyUpdateTest, NestedSet) {
  const char* item = R"({"a": {"M": {"b": {"N": "3"}, "c": {"L": [{"S": "hi"},
      {"M": {"x": {"M": {"y": {"L": [{"N": "3"}, {"N": "5"}, {"N": "7"}]}}}}}]}}}})";
  EXPECT_EQ(
      ApplyJson("SET a.c[1].#name.y[1] = :seven", item, R"({"#name": "x"})"),
      J(R"({"a": {"M": {"b": {"N": "3"}, "c": {"L": [{"S": "hi"},
      {"M": {"x": {"M": {"y": {"L": [{"N": "3"}, {"N": "7"}, {"N": "7"}]}}}}}]}}}})"));
  EXPECT_EQ(ApplyJson("SET a.d = :one", R"({"a": {"M": {"b": {"N": "3"}}}})"),
            J(R"({"a": {"M": {"b": {"N": "3"}, "d": {"N": "1"}}}})"));
  EXPECT_EQ(ApplyJson("SET a.b = :s",
                      R"({"a": {"M": {"b": {"M": {"q": {"N": "1"}}}}}})"),
            J(R"({"a": {"M": {"b": {"S": "dog"}}}})"));
  EXPECT_EQ(
      ApplyJson(
          "SET a.b = :one, a.c.d = :s, b.x = :two REMOVE a.x, b.y",
          R"({"a": {"M": {"x": {"N": "3"}, "y": {"N": "4"}, "c": {"M": {"y": {"N": "3"}}}}},
                          "b": {"M": {"x": {"N": "1"}, "y": {"N": "2"}}}})"),
      J(R"({"a": {"M": {"y": {"N": "4"}, "b": {"N": "1"}, "c": {"M": {"y": {"N": "3"}, "d": {"S": "dog"}}}}},
                  "b": {"M": {"x": {"N": "2"}}}})"));
}

TEST(ApplyUpdateTest, InvalidDocumentPaths) {
  auto item = ItemOf(R"({"a": {"S": "hello"}, "b": {"L": [{"S": "hi"}]}})");
  for (const char* text :
       {"SET a.c = :one", "SET b.c = :one", "SET c.c = :one", "REMOVE a.c",
        "REMOVE b.c", "REMOVE c.c", "SET a[0] = :one", "SET c[0] = :one",
        "REMOVE a[0]", "REMOVE c[0]", "SET b[3].x = :one", "ADD c.d :one",
        "SET b[0].x.y = :one"}) {
    EXPECT_TRUE(IsValidation(Apply(text, item), kBadPath)) << text;
  }
  // A missing item: nested SET fails, REMOVE is silently ignored.
  EXPECT_TRUE(IsValidation(Apply("SET c.c = :one", value::Item()), kBadPath));
  EXPECT_TRUE(IsValidation(Apply("SET b[0] = :one", value::Item()), kBadPath));
  EXPECT_EQ(ApplyJson("REMOVE x.y, z[0], w", "{}"), J("{}"));
}

TEST(ApplyUpdateTest, ListIndexes) {
  const char* three =
      R"({"a": {"L": [{"S": "one"}, {"S": "two"}, {"S": "three"}]}})";
  EXPECT_EQ(ApplyJson("SET a[1] = :v", three),
            J(R"({"a": {"L": [{"S": "one"}, {"S": "hi"}, {"S": "three"}]}})"));
  EXPECT_EQ(
      ApplyJson("SET a[7] = :v", three),
      J(R"({"a": {"L": [{"S": "one"}, {"S": "two"}, {"S": "three"}, {"S": "hi"}]}})"));
  EXPECT_EQ(ApplyJson("SET a[84] = :a1, a[37] = :a2, a[17] = :a3, a[50] = :a4",
                      three),
            J(R"({"a": {"L": [{"S": "one"}, {"S": "two"}, {"S": "three"},
                  {"S": "a3"}, {"S": "a2"}, {"S": "a4"}, {"S": "a1"}]}})"));
  const char* six =
      R"({"a": {"L": [{"N": "2"}, {"N": "3"}, {"N": "4"}, {"N": "5"}, {"N": "6"}, {"N": "7"}]}})";
  const std::string want = J(
      R"({"a": {"L": [{"N": "2"}, {"N": "4"}, {"N": "7"}, {"N": "6"}, {"N": "7"}]}})");
  EXPECT_EQ(ApplyJson("REMOVE a[1] SET a[3] = :seven", six), want);
  EXPECT_EQ(ApplyJson("SET a[3] = :seven REMOVE a[1]", six), want);
  EXPECT_EQ(ApplyJson("REMOVE a[0], a[2], a[4]", six),
            J(R"({"a": {"L": [{"N": "3"}, {"N": "5"}, {"N": "7"}]}})"));
  EXPECT_EQ(ApplyJson("REMOVE a[4], a[0], a[2]", six),
            J(R"({"a": {"L": [{"N": "3"}, {"N": "5"}, {"N": "7"}]}})"));
  EXPECT_EQ(ApplyJson("REMOVE a[17]", six), J(six));
  // An index past the end refers to nothing, even if SET appends there.
  EXPECT_EQ(
      ApplyJson("SET a[10] = :one REMOVE a[3]", three),
      J(R"({"a": {"L": [{"S": "one"}, {"S": "two"}, {"S": "three"}, {"N": "1"}]}})"));
  EXPECT_EQ(ApplyJson("REMOVE a[0]", R"({"a": {"L": [{"N": "1"}]}})"),
            J(R"({"a": {"L": []}})"));
  EXPECT_EQ(ApplyJson("REMOVE a.b", R"({"a": {"M": {"b": {"N": "1"}}}})"),
            J(R"({"a": {"M": {}}})"));
}

TEST(ApplyUpdateTest, RemoveMissingLeavesIsANoOp) {
  const char* item =
      R"({"a": {"M": {"x": {"N": "3"}}}, "b": {"L": [{"S": "hi"}]}})";
  EXPECT_EQ(ApplyJson("REMOVE a.y", item), J(item));
  EXPECT_EQ(ApplyJson("REMOVE b[7]", item), J(item));
  EXPECT_EQ(ApplyJson("REMOVE c", item), J(item));
  EXPECT_EQ(ApplyJson("REMOVE a.c[1].x.y[1], a.c[1].q",
                      R"({"a": {"M": {"b": {"N": "3"}, "c": {"L": [{"S": "hi"},
                          {"M": {"x": {"M": {"y": {"L": [{"N": "3"}, {"N": "5"}, {"N": "7"}]}}}, "q": {"N": "2"}}}]}}}})"),
            J(R"({"a": {"M": {"b": {"N": "3"}, "c": {"L": [{"S": "hi"},
                  {"M": {"x": {"M": {"y": {"L": [{"N": "3"}, {"N": "7"}]}}}}}]}}}})"));
}

TEST(ApplyUpdateTest, Add) {
  EXPECT_EQ(ApplyJson("ADD a :seven", R"({"a": {"N": "3"}, "b": {"S": "hi"}})"),
            J(R"({"a": {"N": "10"}, "b": {"S": "hi"}})"));
  EXPECT_EQ(ApplyJson("ADD b :seven", R"({"a": {"S": "hello"}})"),
            J(R"({"a": {"S": "hello"}, "b": {"N": "7"}})"));
  EXPECT_EQ(ApplyJson("ADD b :seven", "{}"), J(R"({"b": {"N": "7"}})"));
  EXPECT_EQ(ApplyJson("ADD a :ss", R"({"a": {"SS": ["dog", "cat", "mouse"]}})"),
            J(R"({"a": {"SS": ["dog", "cat", "mouse", "pig"]}})"));
  EXPECT_EQ(
      ApplyJson("ADD a :ss2", R"({"a": {"SS": ["beaver", "lynx", "coati"]}})"),
      J(R"({"a": {"SS": ["beaver", "lynx", "coati", "badger"]}})"));
  EXPECT_EQ(ApplyJson("ADD b :ss", "{}"), J(R"({"b": {"SS": ["pig"]}})"));
  EXPECT_EQ(ApplyJson("ADD a :ns", R"({"a": {"NS": ["5", "6"]}})"),
            J(R"({"a": {"NS": ["5", "6", "1"]}})"));
  EXPECT_EQ(ApplyJson("ADD m.cnt :one", R"({"m": {"M": {"cnt": {"N": "1"}}}})"),
            J(R"({"m": {"M": {"cnt": {"N": "2"}}}})"));
  EXPECT_TRUE(IsValidation(Apply("ADD b :one", ItemOf(R"({"b": {"S": "hi"}})")),
                           kBadType));
  EXPECT_TRUE(IsValidation(
      Apply("ADD a :ss", ItemOf(R"({"a": {"NS": ["1"]}})")), kBadType));
  EXPECT_TRUE(IsValidation(Apply("ADD a :ss", ItemOf(R"({"a": {"L": []}})")),
                           kBadType));
  EXPECT_TRUE(IsValidation(
      Apply("ADD a :big", ItemOf(R"({"a": {"N": "9e125"}})")),
      "Number overflow. Attempting to store a number with magnitude larger "
      "than supported range"));
}

TEST(ApplyUpdateTest, Delete) {
  const char* item =
      R"({"a": {"SS": ["dog", "cat", "mouse"]}, "b": {"S": "hi"}})";
  EXPECT_EQ(ApplyJson("DELETE a :ssDel", item),
            J(R"({"a": {"SS": ["dog"]}, "b": {"S": "hi"}})"));
  EXPECT_EQ(ApplyJson("DELETE a :ss", item), J(item));  // absent elements
  // Emptying the set removes the attribute.
  EXPECT_EQ(ApplyJson("DELETE a :ssAll", item), J(R"({"b": {"S": "hi"}})"));
  EXPECT_EQ(ApplyJson("DELETE z :ss", item), J(item));
  EXPECT_EQ(ApplyJson("DELETE z :ss", "{}"), J("{}"));
  EXPECT_EQ(ApplyJson("DELETE n :ns", R"({"n": {"NS": ["1", "2", "5"]}})"),
            J(R"({"n": {"NS": ["2"]}})"));
  EXPECT_EQ(ApplyJson("DELETE x :bs", R"({"x": {"BS": ["YQ==", "Yg=="]}})"),
            J(R"({"x": {"BS": ["Yg=="]}})"));
  EXPECT_TRUE(IsValidation(Apply("DELETE b :ss", ItemOf(item)), kBadType));
  EXPECT_TRUE(IsValidation(Apply("DELETE a :ns", ItemOf(item)), kBadType));
}

TEST(ApplyUpdateTest, InputItemIsNotModifiedAndErrorsLeaveNothingHalfDone) {
  value::Item item = ItemOf(R"({"a": {"N": "1"}, "l": {"L": [{"N": "1"}]}})");
  const std::string before = Json(item);
  auto ok = Apply("SET a = :two, b = :one", item);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(Json(item), before);
  auto bad = Apply("SET a = :two ADD s.t :one", item);
  EXPECT_TRUE(IsValidation(bad, kBadPath));
  EXPECT_EQ(Json(item), before);
}

TEST(ApplyUpdateTest, BuiltAstsAndLegacyListAdd) {
  UpdateExpression u;
  u.actions.push_back(UpdateAction::Add(DocumentPath("l"),
                                        testing::V(R"({"L": [{"N": "2"}]})")));
  u.actions.push_back(UpdateAction::Set(DocumentPath("n"),
                                        UpdateValue::Value(testing::N("5"))));
  auto r = ApplyUpdate(u, ItemOf(R"({"l": {"L": [{"N": "1"}]}})"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(Json(*r),
            J(R"({"l": {"L": [{"N": "1"}, {"N": "2"}]}, "n": {"N": "5"}})"));
  auto v = EvaluateUpdateValue(
      UpdateValue::Call(UpdateValue::Kind::kPlus,
                        {UpdateValue::Value(testing::N("1")),
                         UpdateValue::Path(DocumentPath("n"))}),
      ItemOf(R"({"n": {"N": "41"}})"));
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v, testing::N("42"));
}

}  // namespace
}  // namespace ddblab::expr
