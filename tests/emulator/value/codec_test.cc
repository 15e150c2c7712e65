#include "emulator/value/codec.h"

#include <gtest/gtest.h>

#include <string>

namespace ddblab::value {
namespace {

using Json = nlohmann::json;
using Type = AttributeValue::Type;

AttributeValue Decode(std::string_view text) {
  Result<AttributeValue> r = DecodeAttributeValue(Json::parse(text));
  EXPECT_TRUE(r.ok()) << text << ": " << ToString(r.error());
  return r.ok() ? *r : AttributeValue();
}

void ExpectError(std::string_view text, ErrorType type,
                 std::string_view message) {
  Result<AttributeValue> r = DecodeAttributeValue(Json::parse(text));
  ASSERT_FALSE(r.ok()) << text;
  EXPECT_EQ(r.error().type, type) << text << ": " << ToString(r.error());
  EXPECT_EQ(r.error().message, message) << text;
}
void ExpectValidation(std::string_view text, std::string_view message) {
  ExpectError(text, ErrorType::kValidation, message);
}
void ExpectSerialization(std::string_view text, std::string_view message) {
  ExpectError(text, ErrorType::kSerialization, message);
}

constexpr char kEmpty[] =
    "Supplied AttributeValue is empty, must contain exactly one of the "
    "supported datatypes";
constexpr char kMoreThanOne[] =
    "Supplied AttributeValue has more than one datatypes set, must contain "
    "exactly one of the supported datatypes";
constexpr char kNesting[] =
    "Nesting Levels have exceeded supported limits: Attributes in the item "
    "have nested levels beyond supported limit";

TEST(CodecTest, DecodesEveryType) {
  EXPECT_EQ(Decode(R"({"S":"héllo"})"), AttributeValue::S("héllo"));
  EXPECT_EQ(Decode(R"({"S":""})"), AttributeValue::S(""));
  EXPECT_EQ(Decode(R"({"N":"1.50"})"),
            AttributeValue::N(*Number::Parse("1.5")));
  EXPECT_EQ(Decode(R"({"B":"AAEC"})"),
            AttributeValue::B(std::string("\0\1\2", 3)));
  EXPECT_EQ(Decode(R"({"B":""})"), AttributeValue::B(""));
  EXPECT_EQ(Decode(R"({"BOOL":true})"), AttributeValue::Bool(true));
  EXPECT_EQ(Decode(R"({"BOOL":false})"), AttributeValue::Bool(false));
  EXPECT_EQ(Decode(R"({"NULL":true})"), AttributeValue::Null());
  EXPECT_EQ(Decode(R"({"SS":["a","","b"]})"),
            AttributeValue::SS({"a", "", "b"}));
  EXPECT_EQ(Decode(R"({"NS":["1","2e1"]})"),
            AttributeValue::NS({Number::FromInt64(1), Number::FromInt64(20)}));
  EXPECT_EQ(Decode(R"({"BS":["YQ==","Yg=="]})"),
            AttributeValue::BS({"a", "b"}));
  EXPECT_EQ(Decode(R"({"M":{}})"), AttributeValue::M({}));
  EXPECT_EQ(Decode(R"({"L":[]})"), AttributeValue::L({}));
  EXPECT_EQ(
      Decode(R"({"M":{"x":{"L":[{"S":"a"},{"NULL":true}]}}})"),
      AttributeValue::M({{"x", AttributeValue::L({AttributeValue::S("a"),
                                                  AttributeValue::Null()})}}));
}

TEST(CodecTest, SetOrderIsKept) {
  AttributeValue v = Decode(R"({"SS":["c","a","b"]})");
  EXPECT_EQ(v.ss(), (std::vector<std::string>{"c", "a", "b"}));
}

TEST(CodecTest, EncodesCanonically) {
  EXPECT_EQ(EncodeAttributeValue(Decode(R"({"N":"+001.500e1"})")),
            Json::parse(R"({"N":"15"})"));
  EXPECT_EQ(EncodeAttributeValue(Decode(R"({"NS":["1e3","-0.50"]})")),
            Json::parse(R"({"NS":["1000","-0.5"]})"));
  EXPECT_EQ(EncodeAttributeValue(AttributeValue::B("ab")),
            Json::parse(R"({"B":"YWI="})"));
  EXPECT_EQ(EncodeAttributeValue(AttributeValue::BS({"a", "abc"})),
            Json::parse(R"({"BS":["YQ==","YWJj"]})"));
  EXPECT_EQ(EncodeAttributeValue(AttributeValue()),
            Json::parse(R"({"NULL":true})"));
  EXPECT_EQ(EncodeAttributeValue(AttributeValue::Bool(false)),
            Json::parse(R"({"BOOL":false})"));
  EXPECT_EQ(EncodeAttributeValue(AttributeValue::SS({"x"})),
            Json::parse(R"({"SS":["x"]})"));
  EXPECT_EQ(EncodeAttributeValue(AttributeValue::L({})),
            Json::parse(R"({"L":[]})"));
  EXPECT_EQ(EncodeAttributeValue(AttributeValue::M({})),
            Json::parse(R"({"M":{}})"));
}

TEST(CodecTest, ItemRoundTrip) {
  const Json item = Json::parse(R"({
    "pk": {"S": "user#1"}, "n": {"N": "-12.5"}, "b": {"B": "3q2+7w=="},
    "ok": {"BOOL": true}, "nothing": {"NULL": true},
    "m": {"M": {"inner": {"L": [{"N": "1"}, {"SS": ["x", "y"]}]}}},
    "ns": {"NS": ["3", "1", "2"]}, "bs": {"BS": ["AA==", "AAA="]}
  })");
  Result<Item> decoded = DecodeItem(item);
  ASSERT_TRUE(decoded.ok()) << ToString(decoded.error());
  EXPECT_EQ(decoded->size(), 8u);
  EXPECT_EQ(decoded->at("b").b(), "\xde\xad\xbe\xef");
  EXPECT_EQ(EncodeItem(*decoded), item);
  Result<Item> again = DecodeItem(EncodeItem(*decoded));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *decoded);
  EXPECT_EQ(EncodeItem({}), Json::object());
  ASSERT_TRUE(DecodeItem(Json::object()).ok());
  EXPECT_TRUE(DecodeItem(Json::object())->empty());
}

TEST(CodecTest, ShapeValidationMessages) {
  ExpectValidation("{}", kEmpty);
  ExpectValidation(R"({"S":"a","N":"1"})", kMoreThanOne);
  ExpectValidation(R"({"NULL":true,"BOOL":true})", kMoreThanOne);
  ExpectValidation(R"({"NULL":false})",
                   "One or more parameter values were invalid: Null attribute "
                   "value types must have the value of true");
}

TEST(CodecTest, UnknownAndNullMembersAreIgnored) {
  // Unknown members are dropped (as the SDK models do); alone, the value is
  // empty. JSON null means absent.
  ExpectValidation(R"({"X":"a"})", kEmpty);
  ExpectValidation(R"({"s":"a"})", kEmpty);
  ExpectValidation(R"({"S":null})", kEmpty);
  EXPECT_EQ(Decode(R"({"X":"a","S":"b"})"), AttributeValue::S("b"));
  EXPECT_EQ(Decode(R"({"S":null,"N":"1"})"),
            AttributeValue::N(Number::FromInt64(1)));
  ExpectValidation("null", kEmpty);
  ExpectValidation(R"({"L":[null]})", kEmpty);
}

TEST(CodecTest, SetValidationMessages) {
  ExpectValidation(R"({"SS":[]})",
                   "One or more parameter values were invalid: An string set  "
                   "may not be empty");
  ExpectValidation(R"({"NS":[]})",
                   "One or more parameter values were invalid: An number set  "
                   "may not be empty");
  ExpectValidation(R"({"BS":[]})",
                   "One or more parameter values were invalid: Binary sets "
                   "should not be empty");
  ExpectValidation(R"({"SS":["a","a"]})",
                   "One or more parameter values were invalid: Input "
                   "collection [a, a] contains duplicates.");
  ExpectValidation(R"({"SS":["a","b","","b"]})",
                   "One or more parameter values were invalid: Input "
                   "collection [a, b, , b] contains duplicates.");
  ExpectValidation(R"({"BS":["Yg==","Yg=="]})",
                   "One or more parameter values were invalid: Input "
                   "collection [Yg==, Yg==]of type BS contains duplicates.");
  ExpectValidation(R"({"NS":["1","2","1"]})",
                   "Input collection contains duplicates");
  ExpectValidation(R"({"NS":["1","1.0"]})",
                   "Input collection contains duplicates");
  ExpectValidation(R"({"NS":["-0","0e5"]})",
                   "Input collection contains duplicates");
}

TEST(CodecTest, NumberValidationMessages) {
  ExpectValidation(R"({"N":""})",
                   "The parameter cannot be converted to a numeric value");
  ExpectValidation(R"({"N":"dog"})",
                   "The parameter cannot be converted to a numeric value: dog");
  ExpectValidation(R"({"N":" 1"})",
                   "The parameter cannot be converted to a numeric value:  1");
  ExpectValidation(R"({"N":"NaN"})",
                   "The parameter cannot be converted to a numeric value: NaN");
  ExpectValidation(
      R"({"N":"1234567890123456789012345678901234567890"})",
      "Attempting to store more than 38 significant digits in a Number");
  ExpectValidation(R"({"N":"1e126"})",
                   "Number overflow. Attempting to store a number with "
                   "magnitude larger than supported range");
  ExpectValidation(R"({"N":"-1e126"})",
                   "Number overflow. Attempting to store a number with "
                   "magnitude larger than supported range");
  ExpectValidation(R"({"N":"1e-131"})",
                   "Number underflow. Attempting to store a number with "
                   "magnitude smaller than supported range");
  ExpectValidation(R"({"NS":["1","x"]})",
                   "The parameter cannot be converted to a numeric value: x");
  ExpectValidation(R"({"NS":[""]})",
                   "The parameter cannot be converted to a numeric value");
  // Number errors are reported before duplicates.
  ExpectValidation(R"({"NS":["1","1","1e200"]})",
                   "Number overflow. Attempting to store a number with "
                   "magnitude larger than supported range");
}

TEST(CodecTest, NestedValidation) {
  ExpectValidation(R"({"M":{"a":{}}})", kEmpty);
  ExpectValidation(R"({"L":[{"S":"x"},{"SS":[]}]})",
                   "One or more parameter values were invalid: An string set  "
                   "may not be empty");
  ExpectValidation(R"({"M":{"a":{"M":{"b":{"N":"x"}}}}})",
                   "The parameter cannot be converted to a numeric value: x");
  // Per-type checks come before the "more than one" check.
  ExpectValidation(R"({"N":"dog","S":"a"})",
                   "The parameter cannot be converted to a numeric value: dog");
}

TEST(CodecTest, SerializationMessages) {
  ExpectSerialization(R"({"N":123})",
                      "NUMBER_VALUE cannot be converted to String");
  ExpectSerialization(R"({"N":1.5})",
                      "DECIMAL_VALUE cannot be converted to String");
  ExpectSerialization(R"({"S":5})",
                      "NUMBER_VALUE cannot be converted to String");
  ExpectSerialization(R"({"S":-5})",
                      "NUMBER_VALUE cannot be converted to String");
  ExpectSerialization(R"({"S":true})",
                      "TRUE_VALUE cannot be converted to String");
  ExpectSerialization(R"({"S":false})",
                      "FALSE_VALUE cannot be converted to String");
  ExpectSerialization(R"({"S":{}})",
                      "Start of structure or map found where not expected");
  ExpectSerialization(R"({"S":["a"]})",
                      "Unrecognized collection type class java.lang.String");
  ExpectSerialization(R"({"B":7})",
                      "NUMBER_VALUE cannot be converted to String");
  ExpectSerialization(R"({"SS":"a"})", "Unexpected field type");
  ExpectSerialization(R"({"SS":{}})", "Unexpected field type");
  ExpectSerialization(R"({"NS":[1]})",
                      "NUMBER_VALUE cannot be converted to String");
  ExpectSerialization(R"({"SS":[true]})",
                      "TRUE_VALUE cannot be converted to String");
  ExpectSerialization(R"({"SS":[null]})", "Unexpected value type in payload");
  ExpectSerialization(R"({"L":{}})", "Unexpected field type");
  ExpectSerialization(R"({"L":"x"})", "Unexpected field type");
  ExpectSerialization(R"({"L":[1]})", "Unexpected value type in payload");
  ExpectSerialization(R"({"L":[[]]})",
                      "Start of list found where not expected");
  ExpectSerialization(R"({"M":[]})", "Start of list found where not expected");
  ExpectSerialization(R"({"M":"x"})", "Unexpected value type in payload");
  ExpectSerialization(R"({"M":{"a":"x"}})", "Unexpected value type in payload");
  ExpectSerialization(R"({"BOOL":"x"})",
                      "STRING_VALUE cannot be converted to Boolean");
  ExpectSerialization(R"({"BOOL":"true"})",
                      "STRING_VALUE cannot be converted to Boolean");
  ExpectSerialization(R"({"BOOL":1})",
                      "NUMBER_VALUE cannot be converted to Boolean");
  ExpectSerialization(R"({"NULL":1.5})",
                      "DECIMAL_VALUE cannot be converted to Boolean");
  ExpectSerialization(R"({"NULL":{}})",
                      "Start of structure or map found where not expected");
  ExpectSerialization(R"({"BOOL":[]})",
                      "Unrecognized collection type class java.lang.Boolean");
  ExpectSerialization(R"("x")", "Unexpected value type in payload");
  ExpectSerialization("5", "Unexpected value type in payload");
  ExpectSerialization("[]", "Start of list found where not expected");
}

TEST(CodecTest, SerializationErrorsWinOverValidationErrors) {
  // DynamoDB type-checks the whole request before validating it.
  ExpectSerialization(R"({"M":{"a":{},"b":{"S":5}}})",
                      "NUMBER_VALUE cannot be converted to String");
  ExpectSerialization(R"({"L":[{"N":"x"},{"B":"!"}]})",
                      "only base-64-encoded strings are convertible to bytes");
  ExpectSerialization(R"({"N":"x","S":1})",
                      "NUMBER_VALUE cannot be converted to String");
}

TEST(CodecTest, Base64Errors) {
  ExpectSerialization(R"({"B":"YQ"})",
                      "Base64 encoded length is expected a multiple of 4 "
                      "bytes but found: 2");
  ExpectSerialization(R"({"B":"YWJjZ"})",
                      "Base64 encoded length is expected a multiple of 4 "
                      "bytes but found: 5");
  ExpectSerialization(R"({"B":"YW*j"})",
                      "only base-64-encoded strings are convertible to bytes");
  ExpectSerialization(R"({"B":"Y=Q="})",
                      "only base-64-encoded strings are convertible to bytes");
  ExpectSerialization(R"({"B":"YQ==="})",
                      "only base-64-encoded strings are convertible to bytes");
  ExpectSerialization(R"({"B":"YR=="})",
                      "Invalid last non-pad Base64 character dectected");
  ExpectSerialization(R"({"B":"YWJ="})",
                      "Invalid last non-pad Base64 character dectected");
  ExpectSerialization(R"({"BS":["YQ==","Y"]})",
                      "Base64 encoded length is expected a multiple of 4 "
                      "bytes but found: 1");
}

TEST(CodecTest, Base64) {
  EXPECT_EQ(Base64Encode(""), "");
  EXPECT_EQ(Base64Encode("f"), "Zg==");
  EXPECT_EQ(Base64Encode("fo"), "Zm8=");
  EXPECT_EQ(Base64Encode("foo"), "Zm9v");
  EXPECT_EQ(Base64Encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(Base64Encode("\xff\xfe"), "//4=");
  std::string bytes = "junk";
  EXPECT_TRUE(Base64Decode("", &bytes));
  EXPECT_EQ(bytes, "");
  EXPECT_TRUE(Base64Decode("Zm9vYmE=", &bytes));
  EXPECT_EQ(bytes, "fooba");
  EXPECT_TRUE(Base64Decode("//4=", &bytes));
  EXPECT_EQ(bytes, "\xff\xfe");
  EXPECT_FALSE(Base64Decode("Zm9vYmE", &bytes));    // missing padding
  EXPECT_FALSE(Base64Decode("Zm9v YmE=", &bytes));  // illegal character
  EXPECT_FALSE(Base64Decode("Zm-_", &bytes));       // URL alphabet
  EXPECT_FALSE(Base64Decode("=", &bytes));
  EXPECT_FALSE(Base64Decode("====", &bytes));
  // Every byte string round-trips.
  std::string all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
  for (size_t len = 0; len < all.size(); len += 7) {
    std::string in = all.substr(len % 13, len);
    std::string out;
    ASSERT_TRUE(Base64Decode(Base64Encode(in), &out));
    EXPECT_EQ(out, in);
  }
}

Json Nested(int maps) {
  Json v = Json::parse(R"({"S":"leaf"})");
  for (int i = 0; i < maps; ++i) v = Json{{"M", Json{{"a", v}}}};
  return v;
}
Json NestedLists(int lists) {
  Json v = Json::parse(R"({"N":"1"})");
  for (int i = 0; i < lists; ++i) v = Json{{"L", Json::array({v})}};
  return v;
}

TEST(CodecTest, NestingLimit) {
  // The item is level 1, so an attribute may hold 31 nested maps or lists.
  EXPECT_TRUE(DecodeItem(Json{{"x", Nested(31)}}).ok());
  EXPECT_TRUE(DecodeItem(Json{{"x", NestedLists(31)}}).ok());
  EXPECT_TRUE(DecodeAttributeValue(Nested(31)).ok());
  for (const Json& v : {Nested(32), NestedLists(32), Nested(100)}) {
    Result<Item> r = DecodeItem(Json{{"x", v}});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().type, ErrorType::kValidation);
    EXPECT_EQ(r.error().message, kNesting);
  }
  Result<AttributeValue> r = DecodeAttributeValue(Nested(32));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, kNesting);
  // Validation inside the allowed depth is still reported.
  Json bad = Json::parse(R"({"N":"x"})");
  for (int i = 0; i < 31; ++i) bad = Json{{"M", Json{{"a", bad}}}};
  EXPECT_EQ(DecodeAttributeValue(bad).error().message,
            "The parameter cannot be converted to a numeric value: x");
}

TEST(CodecTest, AttributeNameLimits) {
  const std::string longest(65535, 'a');
  const std::string too_long(65536, 'a');
  constexpr char kTooLarge[] =
      "1 validation error detected: Attribute name is too large, must be less "
      "than 65536 bytes";
  constexpr char kEmptyName[] =
      "1 validation error detected: Empty attribute name";
  const Json one = Json::parse(R"({"N":"1"})");
  Result<Item> ok = DecodeItem(Json{{longest, one}});
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->begin()->first, longest);
  EXPECT_TRUE(DecodeItem(Json{{"m", Json{{"M", Json{{longest, one}}}}}}).ok());
  for (const Json& item :
       {Json{{too_long, one}}, Json{{"m", Json{{"M", Json{{too_long, one}}}}}},
        Json{{"l", Json{{"L", Json::array(
                                  {Json{{"M", Json{{too_long, one}}}}})}}}}}) {
    Result<Item> r = DecodeItem(item);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().type, ErrorType::kValidation);
    EXPECT_EQ(r.error().message, kTooLarge);
  }
  for (const Json& item :
       {Json{{"", one}}, Json{{"m", Json{{"M", Json{{"", one}}}}}}}) {
    Result<Item> r = DecodeItem(item);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().type, ErrorType::kValidation);
    EXPECT_EQ(r.error().message, kEmptyName);
  }
  // A name error wins over a value's own validation error...
  EXPECT_EQ(DecodeItem(Json{{"a", Json::parse(R"({"N":"x"})")}, {"", one}})
                .error()
                .message,
            kEmptyName);
  // ...but not over malformed JSON.
  EXPECT_EQ(DecodeItem(Json{{"", one}, {"b", Json{{"N", 1}}}}).error().type,
            ErrorType::kSerialization);
  ExpectValidation(R"({"M":{"":{"S":"x"}}})", kEmptyName);
}

TEST(CodecTest, DeepJsonNeverRecursesUnbounded) {
  // Built by parsing: copying a deep nlohmann::json recurses.
  const std::string deep_array =
      std::string(100000, '[') + std::string(100000, ']');
  EXPECT_EQ(DecodeAttributeValue(Json::parse(R"({"L":)" + deep_array + "}"))
                .error()
                .type,
            ErrorType::kSerialization);
  EXPECT_EQ(DecodeItem(Json::parse(deep_array)).error().type,
            ErrorType::kSerialization);
  std::string deep_maps;
  for (int i = 0; i < 20000; ++i) deep_maps += R"({"M":{"a":)";
  deep_maps += R"({"NULL":true})";
  for (int i = 0; i < 20000; ++i) deep_maps += "}}";
  EXPECT_EQ(DecodeAttributeValue(Json::parse(deep_maps)).error().message,
            kNesting);
}

TEST(CodecTest, DecodeItemShapeErrors) {
  Result<Item> r = DecodeItem(Json::parse("[]"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().type, ErrorType::kSerialization);
  EXPECT_EQ(r.error().message, "Start of list found where not expected");
  r = DecodeItem(Json::parse("\"x\""));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "Unexpected value type in payload");
  r = DecodeItem(Json::parse(R"({"a":{"S":"x"},"b":{}})"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().type, ErrorType::kValidation);
  EXPECT_EQ(r.error().message, kEmpty);
  r = DecodeItem(Json::parse(R"({"a":{"SS":[]},"b":{"N":5}})"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().type, ErrorType::kSerialization);
}

}  // namespace
}  // namespace ddblab::value
