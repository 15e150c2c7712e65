#include "emulator/server/authenticator.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "common/sigv4/sigv4.h"

namespace ddblab::server {
namespace {

constexpr std::string_view kKeyId = "AKIDEXAMPLE";
constexpr std::string_view kSecret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
constexpr std::string_view kBody = R"({"TableName":"Music"})";
// ManualClock's default start, 2024-01-01T00:00:00Z.
constexpr std::string_view kNow = "20240101T000000Z";

struct SignOptions {
  std::string date = std::string(kNow);
  std::string region = "us-east-1";
  std::string service = "dynamodb";
  std::string key_id = std::string(kKeyId);
  std::string secret = std::string(kSecret);
  bool sign_host = true;
};

WireRequest Signed(const SignOptions& o = {}) {
  WireRequest request;
  request.method = "POST";
  request.path = "/";
  request.body = kBody;
  request.headers = {{"Content-Type", "application/x-amz-json-1.0"},
                     {"X-Amz-Target", "DynamoDB_20120810.DescribeTable"},
                     {"X-Amz-Date", o.date}};
  if (o.sign_host) request.headers.emplace_back("Host", "127.0.0.1:8000");
  std::string auth = sigv4::AuthorizationHeader(
      "POST", "/", "", request.headers, kBody, o.key_id, o.secret, o.region,
      o.service, o.date);
  if (!o.sign_host) request.headers.emplace_back("Host", "127.0.0.1:8000");
  request.headers.emplace_back("Authorization", auth);
  return request;
}

void SetHeader(WireRequest& request, std::string_view name, std::string value) {
  for (auto& [key, existing] : request.headers) {
    if (HeaderNameEquals(key, name)) {
      existing = std::move(value);
      return;
    }
  }
  request.headers.emplace_back(std::string(name), std::move(value));
}

void RemoveHeader(WireRequest& request, std::string_view name) {
  std::erase_if(request.headers,
                [&](const auto& h) { return HeaderNameEquals(h.first, name); });
}

class AuthenticatorTest : public ::testing::Test {
 protected:
  Authenticator Make(AuthMode mode) {
    AuthConfig config;
    config.mode = mode;
    config.credentials.Add(
        Credential{std::string(kKeyId), std::string(kSecret), ""});
    config.credentials.Add(Credential{"AKIDTOKEN", "tokensecret", "tok"});
    return Authenticator(std::move(config), clock_);
  }

  static void ExpectError(const Status& status, ErrorType type,
                          std::string_view message) {
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.error().Name(), ErrorTypeName(type));
    EXPECT_EQ(status.error().message, message);
  }

  ManualClock clock_;
};

TEST_F(AuthenticatorTest, MissingAuthorization) {
  for (AuthMode mode : {AuthMode::kAccept, AuthMode::kVerify}) {
    Authenticator auth = Make(mode);
    WireRequest request = Signed();
    RemoveHeader(request, "Authorization");
    ExpectError(auth.Check(request), ErrorType::kMissingAuthenticationToken,
                "Request is missing Authentication Token");
    SetHeader(request, "Authorization", "Basic dXNlcjpwYXNz");
    ExpectError(auth.Check(request), ErrorType::kMissingAuthenticationToken,
                "Request is missing Authentication Token");
  }
}

TEST_F(AuthenticatorTest, IncompleteHeaderListsEveryMissingPart) {
  Authenticator auth = Make(AuthMode::kAccept);
  WireRequest request = Signed();
  RemoveHeader(request, "X-Amz-Date");
  SetHeader(request, "Authorization", "AWS4-HMAC-SHA256 SignedHeaders=host");
  ExpectError(auth.Check(request), ErrorType::kIncompleteSignature,
              "Authorization header requires 'Credential' parameter. "
              "Authorization header requires 'Signature' parameter. "
              "Authorization header requires existence of either a "
              "'X-Amz-Date' or a 'Date' header. "
              "Authorization=AWS4-HMAC-SHA256 SignedHeaders=host");
}

TEST_F(AuthenticatorTest, BadDateFormat) {
  Authenticator auth = Make(AuthMode::kAccept);
  WireRequest request = Signed();
  SetHeader(request, "X-Amz-Date", "201");
  ExpectError(auth.Check(request), ErrorType::kIncompleteSignature,
              "Date must be in ISO-8601 'basic format'. Got '201'. See "
              "http://en.wikipedia.org/wiki/ISO_8601");
}

TEST_F(AuthenticatorTest, DateHeaderStandsInForXAmzDate) {
  Authenticator auth = Make(AuthMode::kAccept);
  WireRequest request = Signed();
  RemoveHeader(request, "X-Amz-Date");
  SetHeader(request, "Date", std::string(kNow));
  EXPECT_TRUE(auth.Check(request).ok());
}

TEST_F(AuthenticatorTest, UnsupportedAlgorithm) {
  Authenticator auth = Make(AuthMode::kAccept);
  WireRequest request = Signed();
  std::string header(*request.Header("Authorization"));
  header.replace(0, 16, "AWS4-HMAC-SHA25");
  SetHeader(request, "Authorization", header);
  ExpectError(auth.Check(request), ErrorType::kIncompleteSignature,
              "Unsupported AWS 'algorithm': 'AWS4-HMAC-SHA25' (only "
              "AWS4-HMAC-SHA256 for now). ");
}

TEST_F(AuthenticatorTest, CredentialNeedsFiveParts) {
  Authenticator auth = Make(AuthMode::kAccept);
  WireRequest request = Signed();
  SetHeader(request, "Authorization",
            "AWS4-HMAC-SHA256 Credential=a/b/c/d, SignedHeaders=host, "
            "Signature=abc");
  ExpectError(auth.Check(request), ErrorType::kIncompleteSignature,
              "Credential must have exactly 5 slash-delimited elements, e.g. "
              "keyid/date/region/service/term, got 'a/b/c/d'");
  // Trailing slashes are ignored.
  SetHeader(request, "Authorization",
            "AWS4-HMAC-SHA256 Credential=a/b/c/d/e//, SignedHeaders=host, "
            "Signature=abc");
  EXPECT_TRUE(auth.Check(request).ok());
}

TEST_F(AuthenticatorTest, AcceptModeTakesAnyWellFormedSignature) {
  Authenticator auth = Make(AuthMode::kAccept);
  SignOptions o;
  o.secret = "wrong";
  o.key_id = "unknown";
  o.region = "eu-west-1";
  o.date = "20200101T000000Z";  // far outside the skew window
  EXPECT_TRUE(auth.Check(Signed(o)).ok());
}

TEST_F(AuthenticatorTest, VerifyAcceptsCorrectSignature) {
  Authenticator auth = Make(AuthMode::kVerify);
  EXPECT_TRUE(auth.Check(Signed()).ok());
}

TEST_F(AuthenticatorTest, VerifyToleratesHeaderCaseOrderAndSpacing) {
  Authenticator auth = Make(AuthMode::kVerify);
  WireRequest request = Signed();
  std::string header(*request.Header("Authorization"));
  // No spaces after the commas (Scylla issue #9568) and extra leading space.
  std::string compact;
  for (size_t i = 0; i < header.size(); ++i) {
    if (header[i] == ' ' && i > 0 && header[i - 1] == ',') continue;
    compact += header[i];
  }
  RemoveHeader(request, "Authorization");
  request.headers.insert(request.headers.begin(),
                         {"authorization", "  " + compact});
  SetHeader(request, "content-type", "application/x-amz-json-1.0  ");
  std::reverse(request.headers.begin(), request.headers.end());
  EXPECT_TRUE(auth.Check(request).ok());
}

TEST_F(AuthenticatorTest, VerifyRejectsWrongSecret) {
  Authenticator auth = Make(AuthMode::kVerify);
  SignOptions o;
  o.secret = "not-the-secret";
  Status status = auth.Check(Signed(o));
  ExpectError(
      status, ErrorType::kInvalidSignature,
      "The request signature we calculated does not match the signature you "
      "provided. Check your AWS Secret Access Key and signing method. Consult "
      "the service documentation for details.\n\n"
      "The Canonical String for this request should have been\n'POST\n/\n\n"
      "content-type:application/x-amz-json-1.0\nhost:127.0.0.1:8000\n"
      "x-amz-date:20240101T000000Z\n"
      "x-amz-target:DynamoDB_20120810.DescribeTable\n\n"
      "content-type;host;x-amz-date;x-amz-target\n"
      "6b140459926d5b244a92626dd8d74fa6c3ddd91f508085b8e9e0a164221dba3a'\n\n"
      "The String-to-Sign should have been\n'AWS4-HMAC-SHA256\n"
      "20240101T000000Z\n20240101/us-east-1/dynamodb/aws4_request\n" +
          sigv4::Sha256Hex(
              "POST\n/\n\ncontent-type:application/x-amz-json-1.0\n"
              "host:127.0.0.1:8000\nx-amz-date:20240101T000000Z\n"
              "x-amz-target:DynamoDB_20120810.DescribeTable\n\n"
              "content-type;host;x-amz-date;x-amz-target\n"
              "6b140459926d5b244a92626dd8d74fa6c3ddd91f508085b8e9e0a164221dba3"
              "a") +
          "'\n");
}

TEST_F(AuthenticatorTest, VerifyRejectsTamperedBody) {
  Authenticator auth = Make(AuthMode::kVerify);
  WireRequest request = Signed();
  request.body = R"({"TableName":"Other"})";
  Status status = auth.Check(request);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().type, ErrorType::kInvalidSignature);
}

TEST_F(AuthenticatorTest, VerifyHonoursContentSha256Header) {
  Authenticator auth = Make(AuthMode::kVerify);
  WireRequest request = Signed();
  // The header is not signed here, but its value replaces the body hash.
  SetHeader(request, "X-Amz-Content-SHA256", sigv4::Sha256Hex("other"));
  EXPECT_FALSE(auth.Check(request).ok());
  SetHeader(request, "X-Amz-Content-SHA256", sigv4::Sha256Hex(kBody));
  EXPECT_TRUE(auth.Check(request).ok());
}

TEST_F(AuthenticatorTest, VerifyRejectsUnknownKey) {
  Authenticator auth = Make(AuthMode::kVerify);
  SignOptions o;
  o.key_id = "AKIDUNKNOWN";
  ExpectError(auth.Check(Signed(o)), ErrorType::kUnrecognizedClient,
              "The security token included in the request is invalid.");
}

TEST_F(AuthenticatorTest, VerifyRejectsExpiredAndFutureDates) {
  Authenticator auth = Make(AuthMode::kVerify);
  SignOptions o;
  o.date = "20231231T234459Z";  // 15 min 1 s before now
  ExpectError(auth.Check(Signed(o)), ErrorType::kInvalidSignature,
              "Signature expired: 20231231T234459Z is now earlier than "
              "20231231T234500Z (20240101T000000Z - 15 min.)");
  o.date = "20240101T001501Z";
  ExpectError(auth.Check(Signed(o)), ErrorType::kInvalidSignature,
              "Signature not yet current: 20240101T001501Z is still later "
              "than 20240101T001500Z (20240101T000000Z + 15 min.)");
  o.date = "20231231T234500Z";  // exactly 15 minutes: still fine
  EXPECT_TRUE(auth.Check(Signed(o)).ok());
  o.date = "20240101T001500Z";
  EXPECT_TRUE(auth.Check(Signed(o)).ok());
  clock_.Advance(std::chrono::minutes(16));
  ExpectError(auth.Check(Signed()), ErrorType::kInvalidSignature,
              "Signature expired: 20240101T000000Z is now earlier than "
              "20240101T000100Z (20240101T001600Z - 15 min.)");
}

TEST_F(AuthenticatorTest, SpaceSeparatedComponentsAreParsed) {
  // "Credential=... SignedHeaders=... Signature=..." without commas: AWS
  // parses it, so the signature's own problems are what it reports.
  auto spaced = [](WireRequest request) {
    std::string header(*request.Header("Authorization"));
    std::string out;
    for (char c : header) {
      if (c != ',') out += c;
    }
    SetHeader(request, "Authorization", out);
    return request;
  };
  Authenticator auth = Make(AuthMode::kVerify);
  EXPECT_TRUE(auth.Check(spaced(Signed())).ok());
  SignOptions o;
  o.date = "20231231T234459Z";
  ExpectError(auth.Check(spaced(Signed(o))), ErrorType::kInvalidSignature,
              "Signature expired: 20231231T234459Z is now earlier than "
              "20231231T234500Z (20240101T000000Z - 15 min.)");
  o.date = "20240101T001501Z";
  ExpectError(auth.Check(spaced(Signed(o))), ErrorType::kInvalidSignature,
              "Signature not yet current: 20240101T001501Z is still later "
              "than 20240101T001500Z (20240101T000000Z + 15 min.)");
  // Several separators in a row are one.
  WireRequest request = Signed();
  std::string header(*request.Header("Authorization"));
  std::string wide;
  for (char c : header)
    wide += c == ',' ? std::string(" ,  ") : std::string(1, c);
  SetHeader(request, "Authorization", wide);
  EXPECT_TRUE(auth.Check(request).ok());
}

TEST_F(AuthenticatorTest, VerifyRequiresSignedHost) {
  Authenticator auth = Make(AuthMode::kVerify);
  SignOptions o;
  o.sign_host = false;
  ExpectError(auth.Check(Signed(o)), ErrorType::kInvalidSignature,
              "'Host' must be a 'SignedHeader' in the AWS Authorization.");
}

TEST_F(AuthenticatorTest, VerifyChecksCredentialScope) {
  Authenticator auth = Make(AuthMode::kVerify);
  WireRequest request = Signed();
  SetHeader(request, "Authorization",
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20230101/eu-west-1/s3/"
            "aws4, SignedHeaders=host;x-amz-date, Signature=00");
  ExpectError(auth.Check(request), ErrorType::kInvalidSignature,
              "Credential should be scoped to a valid region, not "
              "'eu-west-1'. Credential should be scoped to correct service: "
              "'dynamodb'. Credential should be scoped with a valid "
              "terminator: 'aws4_request', not 'aws4'. Date in Credential "
              "scope does not match YYYYMMDD from ISO-8601 version of date "
              "from HTTP: '20230101' != '20240101', from '20240101T000000Z'.");
}

TEST_F(AuthenticatorTest, VerifyChecksSessionToken) {
  Authenticator auth = Make(AuthMode::kVerify);
  SignOptions o;
  o.key_id = "AKIDTOKEN";
  o.secret = "tokensecret";
  ExpectError(auth.Check(Signed(o)), ErrorType::kUnrecognizedClient,
              "The security token included in the request is invalid");
}

TEST_F(AuthenticatorTest, QueryAndHeaderTogether) {
  Authenticator auth = Make(AuthMode::kAccept);
  WireRequest request = Signed();
  request.query = "X-Amz-Algorithm=AWS4-HMAC-SHA256";
  ExpectError(auth.Check(request), ErrorType::kInvalidSignature,
              "Found both 'X-Amz-Algorithm' as a query-string param and "
              "'Authorization' as HTTP header.");
}

TEST_F(AuthenticatorTest, IncompleteQueryAuth) {
  Authenticator auth = Make(AuthMode::kAccept);
  WireRequest request = Signed();
  RemoveHeader(request, "Authorization");
  request.query =
      "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20240101T000000Z";
  ExpectError(auth.Check(request), ErrorType::kIncompleteSignature,
              "AWS query-string parameters must include 'X-Amz-Credential'. "
              "AWS query-string parameters must include 'X-Amz-Signature'. "
              "AWS query-string parameters must include "
              "'X-Amz-SignedHeaders'. Re-examine the query-string "
              "parameters.");
}

TEST_F(AuthenticatorTest, VerifyPresignedQuery) {
  Authenticator auth = Make(AuthMode::kVerify);
  WireRequest request;
  request.method = "POST";
  request.path = "/";
  request.body = kBody;
  request.headers = {{"Host", "127.0.0.1:8000"}};
  std::string query =
      "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIDEXAMPLE%2F"
      "20240101%2Fus-east-1%2Fdynamodb%2Faws4_request&X-Amz-Date="
      "20240101T000000Z&X-Amz-Expires=300&X-Amz-SignedHeaders=host";
  sigv4::RequestToSign to_sign;
  to_sign.method = "POST";
  to_sign.path = "/";
  to_sign.query = query;
  to_sign.headers = &request.headers;
  to_sign.signed_headers = {"host"};
  to_sign.payload_hash = "UNSIGNED-PAYLOAD";
  std::string signature = sigv4::Signature(
      sigv4::SigningKey(kSecret, "20240101", "us-east-1", "dynamodb"),
      sigv4::StringToSign(
          kNow, sigv4::CredentialScope("20240101", "us-east-1", "dynamodb"),
          sigv4::CanonicalRequest(to_sign)));
  request.query = query + "&X-Amz-Signature=" + signature;
  EXPECT_TRUE(auth.Check(request).ok());
  request.query = query + "&X-Amz-Signature=" + std::string(64, '0');
  Status status = auth.Check(request);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().type, ErrorType::kInvalidSignature);
}

}  // namespace
}  // namespace ddblab::server
