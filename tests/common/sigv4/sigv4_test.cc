#include "common/sigv4/sigv4.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>

namespace ddblab::sigv4 {
namespace {

// Seconds since the epoch <-> TimePoint, without the emulator's clock.h
// (common/ is a leaf).
int64_t ToEpochSeconds(TimePoint t) {
  return std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch())
      .count();
}
TimePoint FromEpochSeconds(int64_t s) {
  return TimePoint(std::chrono::seconds(s));
}

constexpr std::string_view kSecret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";

// AWS's published SigV4 test suite, "get-vanilla".
TEST(SigV4Test, GetVanilla) {
  HeaderList headers = {{"Host", "example.amazonaws.com"},
                        {"X-Amz-Date", "20150830T123600Z"}};
  RequestToSign request;
  request.method = "GET";
  request.path = "/";
  request.headers = &headers;
  request.signed_headers = ParseSignedHeaders("host;x-amz-date");
  request.payload_hash = Sha256Hex("");
  std::string canonical = CanonicalRequest(request);
  EXPECT_EQ(canonical,
            "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z"
            "\n\nhost;x-amz-date\n"
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  std::string scope = CredentialScope("20150830", "us-east-1", "service");
  std::string string_to_sign =
      StringToSign("20150830T123600Z", scope, canonical);
  EXPECT_EQ(string_to_sign,
            "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/"
            "aws4_request\n"
            "bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63");
  EXPECT_EQ(Signature(SigningKey(kSecret, "20150830", "us-east-1", "service"),
                      string_to_sign),
            "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
  EXPECT_EQ(
      AuthorizationHeader("GET", "/", "", headers, "", "AKIDEXAMPLE", kSecret,
                          "us-east-1", "service", "20150830T123600Z"),
      "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/"
      "service/aws4_request, SignedHeaders=host;x-amz-date, "
      "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1"
      "d763fbf31");
}

// Computed with botocore 1.29 SigV4Auth for a DynamoDB request.
TEST(SigV4Test, DynamoDbPostMatchesBotocore) {
  HeaderList headers = {{"Content-Type", "application/x-amz-json-1.0"},
                        {"X-Amz-Target", "DynamoDB_20120810.DescribeTable"},
                        {"Host", "127.0.0.1:8000"},
                        {"X-Amz-Date", "20240101T000000Z"}};
  EXPECT_EQ(
      AuthorizationHeader("POST", "/", "", headers, R"({"TableName":"Music"})",
                          "AKIDEXAMPLE", kSecret, "us-east-1", "dynamodb",
                          "20240101T000000Z"),
      "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20240101/us-east-1/dynamodb/"
      "aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, "
      "Signature=7800f463dd4fcde978f35305a6edf8ff70927e5ca110bbd1fb298d1286c5"
      "3120");
}

TEST(SigV4Test, Sha256AndHmac) {
  EXPECT_EQ(Sha256Hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // RFC 4231 test case 2.
  EXPECT_EQ(HexEncode(HmacSha256("Jefe", "what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST(SigV4Test, CanonicalHeadersTrimAndJoin) {
  HeaderList headers = {{"My-Header1", "  a   b   c  "},
                        {"X-Multi", "one"},
                        {"x-multi", "\ttwo  three "},
                        {"Host", "h"}};
  EXPECT_EQ(
      CanonicalHeaders(headers, ParseSignedHeaders("x-multi;Host;my-header1")),
      "host:h\nmy-header1:a b c\nx-multi:one,two three\n");
}

TEST(SigV4Test, SignedHeadersAreLowercasedSortedUnique) {
  auto names = ParseSignedHeaders("X-Amz-Date;host;Host; content-type");
  EXPECT_EQ(JoinSignedHeaders(names), "content-type;host;x-amz-date");
}

TEST(SigV4Test, CanonicalUri) {
  EXPECT_EQ(CanonicalUri(""), "/");
  EXPECT_EQ(CanonicalUri("/"), "/");
  EXPECT_EQ(CanonicalUri("/a/./b/../c/"), "/a/c/");
  EXPECT_EQ(CanonicalUri("//a//b"), "/a/b");
  EXPECT_EQ(CanonicalUri("/a b/%41"), "/a%20b/%2541");
  EXPECT_EQ(CanonicalUri("/.."), "/");
}

TEST(SigV4Test, CanonicalQueryString) {
  EXPECT_EQ(CanonicalQueryString(""), "");
  EXPECT_EQ(CanonicalQueryString("b=2&a=1&a=0"), "a=0&a=1&b=2");
  EXPECT_EQ(CanonicalQueryString("k=a%20b&x"), "k=a%20b&x=");
  EXPECT_EQ(CanonicalQueryString("k=a+b&t=%7e"), "k=a%20b&t=~");
  EXPECT_EQ(CanonicalQueryString("X-Amz-Signature=abc&z=1", "X-Amz-Signature"),
            "z=1");
}

TEST(SigV4Test, UriEncodeDecode) {
  EXPECT_EQ(UriEncode("a-_.~/ =", false), "a-_.~%2F%20%3D");
  EXPECT_EQ(UriEncode("a/b", true), "a/b");
  EXPECT_EQ(UriDecode("%41%zz%4"), "A%zz%4");
  EXPECT_EQ(UriDecode("a+b", true), "a b");
  EXPECT_EQ(UriDecode("a+b", false), "a+b");
}

TEST(SigV4Test, AmzDates) {
  auto t = ParseAmzDate("20240101T000000Z");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(ToEpochSeconds(*t), 1704067200);
  EXPECT_EQ(FormatAmzDate(*t), "20240101T000000Z");
  EXPECT_EQ(FormatAmzDate(FromEpochSeconds(1440938160)), "20150830T123600Z");
  auto leap = ParseAmzDate("20240229T235959Z");
  ASSERT_TRUE(leap.has_value());
  EXPECT_EQ(FormatAmzDate(*leap), "20240229T235959Z");
  for (std::string_view edge : {"17000101T000000Z", "22001231T235959Z"}) {
    auto parsed = ParseAmzDate(edge);
    ASSERT_TRUE(parsed.has_value()) << edge;
    EXPECT_EQ(FormatAmzDate(*parsed), edge);
  }
  for (std::string_view bad :
       {"", "201", "20240101T000000", "20240101 000000Z", "20241301T000000Z",
        "20230229T000000Z", "20240101T250000Z", "2024010aT000000Z",
        "Mon, 01 Jan 2024 00:00:00 GMT",
        // Found by sigv4_fuzz: a year a TimePoint cannot hold overflowed
        // its nanosecond count (undefined behaviour).
        "40480101T000000Z", "99991231T235959Z", "00000101T000000Z",
        "16991231T235959Z", "22010101T000000Z"}) {
    EXPECT_FALSE(ParseAmzDate(bad).has_value()) << bad;
  }
}

// In whole seconds every four-digit year is a date (the authenticator
// compares these with its window).
TEST(SigV4Test, AmzDatesOfAnyYearInSeconds) {
  auto far = ParseAmzDateSeconds("30200101T000000Z");
  ASSERT_TRUE(far.has_value());
  EXPECT_EQ(far->time_since_epoch().count(), 33134745600);
  auto last = ParseAmzDateSeconds("99991231T235959Z");
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ(last->time_since_epoch().count(), 253402300799);
  auto first = ParseAmzDateSeconds("00000101T000000Z");
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->time_since_epoch().count(), -62167219200);
  for (std::string_view bad :
       {"30201301T000000Z", "30200101T240000Z", "", "3020-01-01T000000Z"}) {
    EXPECT_FALSE(ParseAmzDateSeconds(bad).has_value()) << bad;
  }
}

}  // namespace
}  // namespace ddblab::sigv4
