#include "emulator/server/authenticator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>

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

constexpr std::string_view kOtherBody = R"({"TableName":"Other"})";

// The canonical request of the requests Signed() builds (X-Amz-Date kNow,
// those four headers signed), with `payload_hash` as its last line.
std::string SignedCanonical(std::string_view payload_hash) {
  return "POST\n/\n\ncontent-type:application/x-amz-json-1.0\n"
         "host:127.0.0.1:8000\nx-amz-date:20240101T000000Z\n"
         "x-amz-target:DynamoDB_20120810.DescribeTable\n\n"
         "content-type;host;x-amz-date;x-amz-target\n" +
         std::string(payload_hash);
}

// DynamoDB's signature-mismatch answer for a request whose canonical request
// (at kNow, in us-east-1) should have been `canonical`.
std::string MismatchMessage(std::string_view canonical) {
  return "The request signature we calculated does not match the signature "
         "you provided. Check your AWS Secret Access Key and signing method. "
         "Consult the service documentation for details.\n\n"
         "The Canonical String for this request should have been\n'" +
         std::string(canonical) +
         "'\n\nThe String-to-Sign should have been\n'AWS4-HMAC-SHA256\n"
         "20240101T000000Z\n20240101/us-east-1/dynamodb/aws4_request\n" +
         sigv4::Sha256Hex(canonical) + "'\n";
}

// The signature (kSecret, us-east-1) of `canonical` signed at `date`.
std::string SignatureOf(std::string_view canonical,
                        std::string_view date = kNow) {
  const std::string day(date.substr(0, 8));
  return sigv4::Signature(
      sigv4::SigningKey(kSecret, day, "us-east-1", "dynamodb"),
      sigv4::StringToSign(date,
                          sigv4::CredentialScope(day, "us-east-1", "dynamodb"),
                          canonical));
}

// A header-signed request (body kBody) that signs an X-Amz-Content-SHA256
// header `claimed` and, as a client trusting that header does, uses it as
// the payload hash. Returns the request and its canonical request with the
// payload hash replaced by the hash of the body.
WireRequest SignedWithContentHash(std::string claimed) {
  WireRequest request;
  request.method = "POST";
  request.path = "/";
  request.body = kBody;
  request.headers = {{"Host", "127.0.0.1:8000"},
                     {"X-Amz-Content-SHA256", claimed},
                     {"X-Amz-Date", std::string(kNow)}};
  sigv4::RequestToSign to_sign;
  to_sign.method = "POST";
  to_sign.path = "/";
  to_sign.headers = &request.headers;
  to_sign.signed_headers = {"host", "x-amz-content-sha256", "x-amz-date"};
  to_sign.payload_hash = claimed;
  request.headers.emplace_back(
      "Authorization",
      "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20240101/us-east-1/dynamodb/"
      "aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, "
      "Signature=" +
          SignatureOf(sigv4::CanonicalRequest(to_sign)));
  return request;
}

// SignedWithContentHash's canonical request for a header value `claimed`
// and a payload hash `payload_hash`.
std::string ContentHashCanonical(std::string_view claimed,
                                 std::string_view payload_hash) {
  return "POST\n/\n\nhost:127.0.0.1:8000\nx-amz-content-sha256:" +
         std::string(claimed) +
         "\nx-amz-date:20240101T000000Z\n\n"
         "host;x-amz-content-sha256;x-amz-date\n" +
         std::string(payload_hash);
}

struct PresignOptions {
  // X-Amz-Expires as given (percent-encoded in the query); none if nullopt.
  std::optional<std::string_view> expires = "300";
  std::string_view date = kNow;
  // If set, an X-Amz-Content-SHA256 header with this value is signed and
  // used as the payload hash (else the URL signs UNSIGNED-PAYLOAD).
  std::optional<std::string> content_hash;
};

// A presigned POST (body kBody, Host signed) signed with the secret.
WireRequest Presigned(const PresignOptions& o = {}) {
  WireRequest request;
  request.method = "POST";
  request.path = "/";
  request.body = kBody;
  request.headers = {{"Host", "127.0.0.1:8000"}};
  std::vector<std::string> signed_headers = {"host"};
  std::string signed_list = "host";
  if (o.content_hash) {
    request.headers.emplace_back("X-Amz-Content-SHA256", *o.content_hash);
    signed_headers.push_back("x-amz-content-sha256");
    signed_list += "%3Bx-amz-content-sha256";
  }
  std::string query =
      "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIDEXAMPLE%2F" +
      std::string(o.date.substr(0, 8)) +
      "%2Fus-east-1%2Fdynamodb%2Faws4_request&X-Amz-Date=" +
      std::string(o.date);
  if (o.expires) {
    query += "&X-Amz-Expires=" + sigv4::UriEncode(*o.expires, false);
  }
  query += "&X-Amz-SignedHeaders=" + signed_list;
  sigv4::RequestToSign to_sign;
  to_sign.method = "POST";
  to_sign.path = "/";
  to_sign.query = query;
  to_sign.headers = &request.headers;
  to_sign.signed_headers = signed_headers;
  to_sign.payload_hash = o.content_hash.value_or("UNSIGNED-PAYLOAD");
  request.query = query + "&X-Amz-Signature=" +
                  SignatureOf(sigv4::CanonicalRequest(to_sign), o.date);
  return request;
}

WireRequest PresignedExpiring(std::optional<std::string_view> expires) {
  PresignOptions o;
  o.expires = expires;
  return Presigned(o);
}

class AuthenticatorTest : public ::testing::Test {
 protected:
  Authenticator Make(AuthMode mode,
                     std::optional<Duration> max_skew = kDefaultMaxSkew) {
    AuthConfig config;
    config.mode = mode;
    config.max_skew = max_skew;
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

// The caller is the credential scope's key id and region, in both modes.
TEST_F(AuthenticatorTest, AuthenticateNamesTheCaller) {
  SignOptions o;
  o.key_id = "actor-b";
  o.region = "eu-west-1";
  Result<Caller> accepted = Make(AuthMode::kAccept).Authenticate(Signed(o));
  ASSERT_TRUE(accepted.ok());
  EXPECT_EQ(accepted->access_key, "actor-b");
  EXPECT_EQ(accepted->region, "eu-west-1");
  Result<Caller> verified = Make(AuthMode::kVerify).Authenticate(Signed());
  ASSERT_TRUE(verified.ok());
  EXPECT_EQ(verified->access_key, kKeyId);
  EXPECT_EQ(verified->region, "us-east-1");
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

TEST_F(AuthenticatorTest, VerifyIgnoresUnsignedContentSha256) {
  // The body swap: a captured request, its body replaced, with an unsigned
  // X-Amz-Content-SHA256 holding the original body's hash. The signature is
  // checked against the body received, so it no longer matches.
  Authenticator auth = Make(AuthMode::kVerify);
  WireRequest request = Signed();
  SetHeader(request, "X-Amz-Content-SHA256", sigv4::Sha256Hex(kBody));
  EXPECT_TRUE(auth.Check(request).ok());  // the header is true: harmless
  request.body = kOtherBody;
  ExpectError(auth.Check(request), ErrorType::kInvalidSignature,
              MismatchMessage(SignedCanonical(sigv4::Sha256Hex(kOtherBody))));
}

TEST_F(AuthenticatorTest, VerifyChecksSignedContentSha256AgainstBody) {
  Authenticator auth = Make(AuthMode::kVerify);
  const std::string body_hash = sigv4::Sha256Hex(kBody);
  // A signed header that is the body's hash: accepted.
  EXPECT_TRUE(auth.Check(SignedWithContentHash(body_hash)).ok());
  // The same request with another body: the canonical request holds the
  // hash of the body received, so the signature no longer matches.
  WireRequest swapped = SignedWithContentHash(body_hash);
  swapped.body = kOtherBody;
  ExpectError(auth.Check(swapped), ErrorType::kInvalidSignature,
              MismatchMessage(ContentHashCanonical(
                  body_hash, sigv4::Sha256Hex(kOtherBody))));
  // A signed header that is not the body's hash.
  const std::string other_hash = sigv4::Sha256Hex(kOtherBody);
  ExpectError(auth.Check(SignedWithContentHash(other_hash)),
              ErrorType::kInvalidSignature,
              MismatchMessage(ContentHashCanonical(other_hash, body_hash)));
  // UNSIGNED-PAYLOAD does not let a header-signed request skip its body.
  ExpectError(
      auth.Check(SignedWithContentHash("UNSIGNED-PAYLOAD")),
      ErrorType::kInvalidSignature,
      MismatchMessage(ContentHashCanonical("UNSIGNED-PAYLOAD", body_hash)));
}

TEST_F(AuthenticatorTest, VerifyComparesTheWholeSignature) {
  Authenticator auth = Make(AuthMode::kVerify);
  WireRequest request = Signed();
  std::string header(*request.Header("Authorization"));
  // A prefix of the right signature, and the right one with a suffix.
  SetHeader(request, "Authorization", header.substr(0, header.size() - 1));
  ExpectError(auth.Check(request), ErrorType::kInvalidSignature,
              MismatchMessage(SignedCanonical(sigv4::Sha256Hex(kBody))));
  SetHeader(request, "Authorization", header + "0");
  ExpectError(auth.Check(request), ErrorType::kInvalidSignature,
              MismatchMessage(SignedCanonical(sigv4::Sha256Hex(kBody))));
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

// Any four-digit year is a well-formed date: one a TimePoint cannot hold
// (past 2262) is still simply later than the window, not wrapped round to
// an expired one nor refused as malformed; one long past is expired.
TEST_F(AuthenticatorTest, DatesOfAnyYearAreCheckedAgainstTheWindow) {
  Authenticator auth = Make(AuthMode::kVerify);
  SignOptions o;
  o.date = "30200101T000000Z";
  ExpectError(auth.Check(Signed(o)), ErrorType::kInvalidSignature,
              "Signature not yet current: 30200101T000000Z is still later "
              "than 20240101T001500Z (20240101T000000Z + 15 min.)");
  o.date = "99991231T235959Z";
  ExpectError(auth.Check(Signed(o)), ErrorType::kInvalidSignature,
              "Signature not yet current: 99991231T235959Z is still later "
              "than 20240101T001500Z (20240101T000000Z + 15 min.)");
  o.date = "10200101T000000Z";
  ExpectError(auth.Check(Signed(o)), ErrorType::kInvalidSignature,
              "Signature expired: 10200101T000000Z is now earlier than "
              "20231231T234500Z (20240101T000000Z - 15 min.)");
  // --auth accept checks no date, only its form.
  Authenticator accept = Make(AuthMode::kAccept);
  o.date = "30200101T000000Z";
  EXPECT_TRUE(accept.Check(Signed(o)).ok());
}

// The window is around the Authenticator's clock (ddblab serve's: the
// emulator's), not the real time: it moves when the clock moves.
TEST_F(AuthenticatorTest, WindowFollowsTheClock) {
  Authenticator auth = Make(AuthMode::kVerify);
  const WireRequest at_t = Signed();  // dated kNow, the clock's start
  clock_.Advance(std::chrono::minutes(14));
  EXPECT_TRUE(auth.Check(at_t).ok());
  clock_.Advance(std::chrono::minutes(2));
  ExpectError(auth.Check(at_t), ErrorType::kInvalidSignature,
              "Signature expired: 20240101T000000Z is now earlier than "
              "20240101T000100Z (20240101T001600Z - 15 min.)");
  // A clock moved back puts the same request ahead of it.
  clock_.Reset(FromEpochSeconds(ManualClock::kDefaultStartEpochSeconds) -
               std::chrono::minutes(16));
  ExpectError(auth.Check(at_t), ErrorType::kInvalidSignature,
              "Signature not yet current: 20240101T000000Z is still later "
              "than 20231231T235900Z (20231231T234400Z + 15 min.)");
}

TEST_F(AuthenticatorTest, WiderSkewSurvivesAClockMovedByADay) {
  Authenticator auth = Make(AuthMode::kVerify, std::chrono::hours(48));
  const WireRequest at_t = Signed();
  clock_.Advance(std::chrono::hours(24));
  EXPECT_TRUE(auth.Check(at_t).ok());
  clock_.Advance(std::chrono::hours(24) + std::chrono::seconds(1));
  ExpectError(auth.Check(at_t), ErrorType::kInvalidSignature,
              "Signature expired: 20240101T000000Z is now earlier than "
              "20240101T000001Z (20240103T000001Z - 2880 min.)");
  // A window of whole seconds is written as --auth-skew reads it.
  Authenticator short_window =
      Make(AuthMode::kVerify, std::chrono::seconds(90));
  ExpectError(short_window.Check(at_t), ErrorType::kInvalidSignature,
              "Signature expired: 20240101T000000Z is now earlier than "
              "20240102T235831Z (20240103T000001Z - 90s)");
}

// --auth-skew off: no time check at all, presigned URLs included; the
// signature itself and a well-formed X-Amz-Expires still are.
TEST_F(AuthenticatorTest, SkewOffDropsEveryTimeCheck) {
  Authenticator auth = Make(AuthMode::kVerify, std::nullopt);
  const WireRequest at_t = Signed();
  clock_.Advance(std::chrono::hours(24 * 30));
  EXPECT_TRUE(auth.Check(at_t).ok());
  EXPECT_TRUE(auth.Check(PresignedExpiring("300")).ok());
  SignOptions ahead;
  ahead.date = "20250101T000000Z";
  EXPECT_TRUE(auth.Check(Signed(ahead)).ok());
  SignOptions wrong;
  wrong.secret = "not the secret";
  Status refused = auth.Check(Signed(wrong));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().type, ErrorType::kInvalidSignature);
  ExpectError(auth.Check(PresignedExpiring("soon")),
              ErrorType::kIncompleteSignature,
              "X-Amz-Expires should be a number");
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

TEST_F(AuthenticatorTest, PresignedUrlIsValidForItsExpires) {
  Authenticator auth = Make(AuthMode::kVerify);
  // Valid past the 15 minutes a header-signed request gets...
  clock_.Advance(std::chrono::minutes(30));
  EXPECT_TRUE(auth.Check(PresignedExpiring("3600")).ok());
  // ...up to X-Amz-Date + X-Amz-Expires inclusive.
  clock_.Advance(std::chrono::minutes(30));
  EXPECT_TRUE(auth.Check(PresignedExpiring("3600")).ok());
  // A week is the longest lifetime.
  EXPECT_TRUE(auth.Check(PresignedExpiring("604800")).ok());
}

TEST_F(AuthenticatorTest, ExpiredPresignedUrlIsRefused) {
  Authenticator auth = Make(AuthMode::kVerify);
  EXPECT_TRUE(auth.Check(PresignedExpiring("0")).ok());
  clock_.Advance(std::chrono::seconds(1));
  // A lifetime of 0 is over as soon as the clock passes X-Amz-Date.
  ExpectError(auth.Check(PresignedExpiring("0")), ErrorType::kAccessDenied,
              "Request has expired");
  clock_.Advance(std::chrono::seconds(300));
  ExpectError(auth.Check(PresignedExpiring("300")), ErrorType::kAccessDenied,
              "Request has expired");
  clock_.Advance(std::chrono::hours(1));
  ExpectError(auth.Check(PresignedExpiring("3600")), ErrorType::kAccessDenied,
              "Request has expired");
}

TEST_F(AuthenticatorTest, PresignedUrlDatedAheadIsNotYetCurrent) {
  Authenticator auth = Make(AuthMode::kVerify);
  PresignOptions o;
  o.date = "20240101T001501Z";
  ExpectError(auth.Check(Presigned(o)), ErrorType::kInvalidSignature,
              "Signature not yet current: 20240101T001501Z is still later "
              "than 20240101T001500Z (20240101T000000Z + 15 min.)");
  o.date = "20240101T001500Z";
  EXPECT_TRUE(auth.Check(Presigned(o)).ok());
}

TEST_F(AuthenticatorTest, BadExpiresIsRefused) {
  Authenticator auth = Make(AuthMode::kVerify);
  for (std::string_view bad : {"abc", "12a", "+60", " 60", "1.5", "-", "-x"}) {
    SCOPED_TRACE(bad);
    ExpectError(auth.Check(PresignedExpiring(bad)),
                ErrorType::kIncompleteSignature,
                "X-Amz-Expires should be a number");
  }
  ExpectError(auth.Check(PresignedExpiring("-1")),
              ErrorType::kIncompleteSignature,
              "X-Amz-Expires must be non-negative");
  for (std::string_view big : {"604801", "99999999999999999999999999"}) {
    SCOPED_TRACE(big);
    ExpectError(auth.Check(PresignedExpiring(big)),
                ErrorType::kIncompleteSignature,
                "X-Amz-Expires must be less than a week (in seconds); that "
                "is, the given X-Amz-Expires must be less than 604800 "
                "seconds");
  }
  for (std::optional<std::string_view> missing :
       {std::optional<std::string_view>(),
        std::optional<std::string_view>("")}) {
    ExpectError(auth.Check(PresignedExpiring(missing)),
                ErrorType::kIncompleteSignature,
                "AWS query-string parameters must include 'X-Amz-Expires'. "
                "Re-examine the query-string parameters.");
  }
  // kAccept takes a presigned URL without one, as DynamoDB Local does.
  EXPECT_TRUE(
      Make(AuthMode::kAccept).Check(PresignedExpiring(std::nullopt)).ok());
}

TEST_F(AuthenticatorTest, PresignedUrlIgnoresUnsignedContentSha256) {
  Authenticator auth = Make(AuthMode::kVerify);
  // The URL signs UNSIGNED-PAYLOAD; an unsigned header cannot change that.
  WireRequest request = Presigned();
  SetHeader(request, "X-Amz-Content-SHA256", sigv4::Sha256Hex(kOtherBody));
  EXPECT_TRUE(auth.Check(request).ok());
}

TEST_F(AuthenticatorTest, PresignedUrlBindsASignedContentSha256) {
  Authenticator auth = Make(AuthMode::kVerify);
  PresignOptions o;
  o.content_hash = sigv4::Sha256Hex(kBody);
  EXPECT_TRUE(auth.Check(Presigned(o)).ok());
  WireRequest swapped = Presigned(o);
  swapped.body = kOtherBody;
  Status status = auth.Check(swapped);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().type, ErrorType::kInvalidSignature);
  EXPECT_TRUE(status.error().message.starts_with(
      "The request signature we calculated does not match"));
  EXPECT_TRUE(status.error().message.find("host;x-amz-content-sha256\n" +
                                          sigv4::Sha256Hex(kOtherBody) + "'") !=
              std::string::npos);
  // Signed as UNSIGNED-PAYLOAD, the URL does not bind the body.
  o.content_hash = "UNSIGNED-PAYLOAD";
  swapped = Presigned(o);
  swapped.body = kOtherBody;
  EXPECT_TRUE(auth.Check(swapped).ok());
}

}  // namespace
}  // namespace ddblab::server
