// Tests for emulator/server/compression.h and the compression paths of
// Protocol: Accept-Encoding negotiation (DynamoDB's observed choices),
// response compression above 4 KiB with the CRC over the compressed bytes,
// and request Content-Encoding decoding with DynamoDB's 500 for bodies it
// cannot decode (and nothing handed to the engine).
#include "emulator/server/compression.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <sstream>

#include "common/sigv4/sigv4.h"
#include "emulator/server/crc32.h"
#include "emulator/server/protocol.h"
#include "fake_handler.h"

namespace ddblab::server {
namespace {

std::string Choice(std::string_view accept) {
  auto c = ChooseResponseCoding(accept);
  return c ? std::string(CodingName(*c)) : "none";
}

// Cases observed against DynamoDB by an independent conformance suite.
TEST(AcceptEncodingTest, DynamoDbChoices) {
  const std::pair<std::string_view, std::string_view> cases[] = {
      {"gzip", "gzip"},
      {"deflate", "deflate"},
      {"identity", "none"},
      {"", "none"},
      {"br", "none"},
      {"zstd", "none"},
      {"compress", "none"},
      {"x-gzip", "none"},
      {"gzip, deflate", "gzip"},
      {"br, identity, deflate, gzip", "deflate"},
      {"GZIP, identity", "gzip"},
      {"dog, gzip ,, cat", "gzip"},
      {"gzip;q=0.8, deflate;q=0.5", "gzip"},
      {"br, gzip;q=0, deflate; q = 0.5 , identity;q=0", "deflate"},
      {"*", "gzip"},
      {"*, deflate;q=0.5", "gzip"},
      {"*, deflate", "deflate"},
      {"*, identity", "gzip"},
      {"*, gzip;q=0.5", "deflate"},
      {"gzip ;q=0", "none"},
      {"identity;q=0", "none"},
      {"*;q=0", "none"},
      {"*;q=0.5,identity", "gzip"},
      {"gzip;q=0.5,identity;q=0.8", "gzip"},
      {"br;q=0.8,identity;q=0.5,*;q=0", "none"},
      {"\"gzip\"", "none"},
      {"gzip br", "none"},
      {"gzip:q=1", "none"},
      {"deflate;q=0.5, gzip;q=31", "gzip"},
      {"gzip;q=31,deflate;q=51", "gzip"},
      {"deflate;q=0.5, gzip;q=0.2", "deflate"},
      {"deflate;q=0.5, gzip;q=1;q=0.2", "gzip"},
      {"deflate;q=0.5,gzip;q=0.", "deflate"},
      {"deflate;q=0.5,gzip;q=0.x", "gzip"},
      {"deflate;q=-0.5,gzip;q=0.2", "gzip"},
      {"gzip;nq=1;q=0 ", "none"},
      {"gzip;q=0, gzip;q=1, gzip;q=0", "gzip"},
      {"br,identity;q=0.5,gzip;q=0.0001", "gzip"},
  };
  for (const auto& [accept, want] : cases) {
    EXPECT_EQ(Choice(accept), want) << "Accept-Encoding: " << accept;
  }
}

// "q =0" is a parameter named "q " (no whitespace may come before "="), not
// a weight: DynamoDB takes the next one, q=1, and compresses.
TEST(AcceptEncodingTest, WhitespaceBeforeEqualsIsNotAWeight) {
  EXPECT_EQ(Choice("gzip;q =0;q=1"), "gzip");
  EXPECT_EQ(Choice("gzip;q =0"), "gzip");
  EXPECT_EQ(Choice("gzip; q=0;q=1"), "none");
  EXPECT_EQ(Choice("deflate;q=0.5, gzip;q =1;q=0.2"), "deflate");
}

TEST(AcceptEncodingTest, OnlyTheFirstHeaderCounts) {
  HeaderList a = {{"Accept-Encoding", "identity"}, {"accept-encoding", "gzip"}};
  EXPECT_EQ(ChooseResponseCoding(a), std::nullopt);
  HeaderList b = {{"Accept-Encoding", "gzip"}, {"ACCEPT-ENCODING", "identity"}};
  EXPECT_EQ(ChooseResponseCoding(b), ContentCoding::kGzip);
  HeaderList c = {{"Accept-Encoding", "deflate"}, {"Accept-Encoding", "gzip"}};
  EXPECT_EQ(ChooseResponseCoding(c), ContentCoding::kDeflate);
  EXPECT_EQ(ChooseResponseCoding(HeaderList{}), std::nullopt);
}

std::string Gunzip(std::string_view in, int window_bits) {
  z_stream zs{};
  inflateInit2(&zs, window_bits);
  std::string out(1 << 20, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  int rc = inflate(&zs, Z_FINISH);
  EXPECT_EQ(rc, Z_STREAM_END);
  out.resize(zs.total_out);
  inflateEnd(&zs);
  return out;
}

TEST(CompressBodyTest, RoundTrips) {
  std::string text(5000, 'x');
  std::string gz = CompressBody(ContentCoding::kGzip, text);
  ASSERT_GE(gz.size(), 2u);
  EXPECT_EQ(gz.substr(0, 2), "\x1f\x8b");
  EXPECT_EQ(Gunzip(gz, 15 + 16), text);
  std::string z = CompressBody(ContentCoding::kDeflate, text);
  EXPECT_EQ(Gunzip(z, 15), text);
  EXPECT_LT(z.size(), 100u);
}

TEST(DecodeRequestBodyTest, GzipDeflateAndConcatenatedMembers) {
  std::string a = R"({"TableName":)", b = R"("t"})";
  EXPECT_EQ(*DecodeRequestBody("gzip",
                               CompressBody(ContentCoding::kGzip, a + b), 1000),
            a + b);
  EXPECT_EQ(*DecodeRequestBody("GZIP",
                               CompressBody(ContentCoding::kGzip, a) +
                                   CompressBody(ContentCoding::kGzip, b),
                               1000),
            a + b);
  EXPECT_EQ(*DecodeRequestBody(
                "deflate", CompressBody(ContentCoding::kDeflate, a + b), 1000),
            a + b);
  EXPECT_EQ(*DecodeRequestBody("", "plain", 1000), "plain");
  EXPECT_EQ(*DecodeRequestBody("identity", "plain", 1000), "plain");
  // Trailing bytes that are not another member are ignored, as DynamoDB does.
  EXPECT_EQ(
      *DecodeRequestBody(
          "gzip", CompressBody(ContentCoding::kGzip, a + b) + "junk", 1000),
      a + b);
}

TEST(DecodeRequestBodyTest, BadBodiesFail) {
  std::string gz = CompressBody(ContentCoding::kGzip, std::string(100, 'y'));
  for (auto [encoding, body] : std::vector<std::pair<std::string, std::string>>{
           {"garbage", "{}"},
           {"gzip", "{}"},
           {"gzip", ""},
           {"deflate", ""},
           {"gzip", gz.substr(0, gz.size() - 1)},
           {"deflate", "{}"},
           {"br", "{}"}}) {
    auto r = DecodeRequestBody(encoding, body, 1000);
    ASSERT_FALSE(r.ok()) << encoding << " " << body.size();
    EXPECT_EQ(r.error().type, ErrorType::kInternalServerError);
  }
  auto big = DecodeRequestBody("gzip", gz, 50);
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error().type, ErrorType::kValidation);
}

class CompressionProtocolTest : public ::testing::Test {
 protected:
  CompressionProtocolTest()
      : logger_(LogLevel::kError, log_),
        auth_(AuthConfig{}, clock_),
        protocol_(handler_, auth_, clock_, logger_, ProtocolConfig{}) {}

  WireRequest Post(std::string_view body, HeaderList extra = {}) {
    body_ = std::string(body);
    WireRequest r;
    r.method = "POST";
    r.path = "/";
    r.body = body_;
    r.headers = {{"Host", "localhost:8000"},
                 {"Content-Type", "application/x-amz-json-1.0"},
                 {"X-Amz-Date", "20240101T000000Z"},
                 {"X-Amz-Target", "DynamoDB_20120810.PutItem"}};
    for (auto& h : extra) r.headers.push_back(h);
    r.headers.emplace_back("Authorization",
                           sigv4::AuthorizationHeader(
                               "POST", "/", "", r.headers, r.body, "AK", "SK",
                               "us-east-1", "dynamodb", "20240101T000000Z"));
    return r;
  }

  ManualClock clock_;
  std::ostringstream log_;
  Logger logger_;
  FakeHandler handler_;
  Authenticator auth_;
  Protocol protocol_;
  std::string body_;
};

TEST_F(CompressionProtocolTest, LargeResponsesAreCompressedWhenAsked) {
  std::string big(5000, 'x');
  handler_.answer = [&](std::string_view, const nlohmann::json&) {
    return Result<nlohmann::json>(nlohmann::json{{"x", big}});
  };
  std::string plain = nlohmann::json{{"x", big}}.dump();
  for (auto [accept, coding] : std::vector<std::pair<std::string, std::string>>{
           {"gzip", "gzip"}, {"deflate", "deflate"}}) {
    WireResponse r =
        protocol_.Handle(Post("{}", {{"Accept-Encoding", accept}}));
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.Header("Content-Encoding").value_or(""), coding);
    EXPECT_EQ(Gunzip(r.body, coding == "gzip" ? 31 : 15), plain);
    // The CRC covers the bytes sent: the compressed body.
    EXPECT_EQ(r.Header("x-amz-crc32").value_or(""),
              std::to_string(Crc32(r.body)));
  }
  WireResponse none = protocol_.Handle(Post("{}"));
  EXPECT_FALSE(none.Header("Content-Encoding"));
  EXPECT_EQ(none.body, plain);
  WireResponse identity =
      protocol_.Handle(Post("{}", {{"Accept-Encoding", "identity"}}));
  EXPECT_FALSE(identity.Header("Content-Encoding"));
}

TEST_F(CompressionProtocolTest, ThresholdIs4096Bytes) {
  size_t size = 0;
  handler_.answer = [&](std::string_view, const nlohmann::json&) {
    // {"x":"..."} is 8 bytes of framing.
    return Result<nlohmann::json>(
        nlohmann::json{{"x", std::string(size - 8, 'x')}});
  };
  size = kCompressMinBytes - 1;
  WireResponse below =
      protocol_.Handle(Post("{}", {{"Accept-Encoding", "gzip"}}));
  EXPECT_EQ(below.body.size(), kCompressMinBytes - 1);
  EXPECT_FALSE(below.Header("Content-Encoding"));
  size = kCompressMinBytes;
  WireResponse at = protocol_.Handle(Post("{}", {{"Accept-Encoding", "gzip"}}));
  EXPECT_EQ(at.Header("Content-Encoding").value_or(""), "gzip");
}

TEST_F(CompressionProtocolTest, ErrorResponsesAreNotCompressed) {
  handler_.answer = [&](std::string_view, const nlohmann::json&) {
    return Result<nlohmann::json>(Error::Validation(std::string(5000, 'm')));
  };
  WireResponse r = protocol_.Handle(Post("{}", {{"Accept-Encoding", "gzip"}}));
  EXPECT_EQ(r.status, 400);
  EXPECT_FALSE(r.Header("Content-Encoding"));
}

TEST_F(CompressionProtocolTest, CompressedRequestsAreDecoded) {
  std::string json = R"({"TableName":"t","Item":{"p":{"S":"a"}}})";
  std::string two = CompressBody(ContentCoding::kGzip, json.substr(0, 10)) +
                    CompressBody(ContentCoding::kGzip, json.substr(10));
  for (auto [encoding, body] : std::vector<std::pair<std::string, std::string>>{
           {"gzip", CompressBody(ContentCoding::kGzip, json)},
           {"gzip", two},
           {"deflate", CompressBody(ContentCoding::kDeflate, json)}}) {
    WireResponse r =
        protocol_.Handle(Post(body, {{"Content-Encoding", encoding}}));
    EXPECT_EQ(r.status, 200) << r.body;
  }
  auto calls = handler_.calls();
  ASSERT_EQ(calls.size(), 3u);
  for (const auto& call : calls) {
    EXPECT_EQ(call.request, nlohmann::json::parse(json));
  }
}

TEST_F(CompressionProtocolTest, UndecodableRequestsAre500AndNotExecuted) {
  std::string json = R"({"TableName":"t","Item":{"p":{"S":"a"}}})";
  std::string gz = CompressBody(ContentCoding::kGzip, json);
  for (auto [encoding, body] : std::vector<std::pair<std::string, std::string>>{
           {"garbage", json},
           {"gzip", json},
           {"gzip", gz.substr(0, gz.size() - 1)},
           {"gzip", ""}}) {
    WireResponse r =
        protocol_.Handle(Post(body, {{"Content-Encoding", encoding}}));
    EXPECT_EQ(r.status, 500) << encoding;
    EXPECT_EQ(r.body,
              "{\"__type\":\"com.amazonaws.dynamodb.v20120810#"
              "InternalServerError\",\"message\":\"The server encountered an "
              "internal error trying to fulfill the request.\"}");
  }
  EXPECT_TRUE(handler_.calls().empty());
}

TEST_F(CompressionProtocolTest, DecodedBodyOver16MBIs413) {
  std::string json = "{" + std::string(kMaxRequestBytes + 10, ' ') + "}";
  WireResponse r =
      protocol_.Handle(Post(CompressBody(ContentCoding::kGzip, json),
                            {{"Content-Encoding", "gzip"}}));
  EXPECT_EQ(r.status, 413);
  EXPECT_TRUE(handler_.calls().empty());
}

}  // namespace
}  // namespace ddblab::server
