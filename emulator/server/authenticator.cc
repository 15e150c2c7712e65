#include "emulator/server/authenticator.h"

#include <openssl/crypto.h>

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include "common/sigv4/sigv4.h"
#include "common/text/query_string.h"
#include "emulator/api/duration.h"

namespace ddblab::server {
namespace {

// SigV4's longest presigned lifetime: the signing key is valid for 7 days.
constexpr long long kMaxExpiresSeconds = 604800;

constexpr std::string_view kUnsignedPayload = "UNSIGNED-PAYLOAD";

constexpr std::string_view kSignatureMismatch =
    "The request signature we calculated does not match the signature you "
    "provided. Check your AWS Secret Access Key and signing method. Consult "
    "the service documentation for details.";

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

Error Incomplete(std::string message) {
  return Error::Of(ErrorType::kIncompleteSignature, std::move(message));
}
Error Invalid(std::string message) {
  return Error::Of(ErrorType::kInvalidSignature, std::move(message));
}

// A presigned request's X-Amz-Expires, in seconds. DynamoDB publishes no
// text for a bad value; these messages are Amazon S3's (its
// AuthorizationQueryParametersError answers, quoted in client bug reports,
// e.g. github.com/minio/minio-js/issues/1312 and
// github.com/bryanjos/aws_auth/issues/31), sent as DynamoDB's
// IncompleteSignatureException, the type it gives every malformed
// query-string authentication parameter.
Result<long long> ParseExpires(std::string_view text) {
  std::string_view digits = text;
  const bool negative = digits.starts_with('-');
  if (negative) digits.remove_prefix(1);
  if (digits.empty() ||
      digits.find_first_not_of("0123456789") != std::string_view::npos) {
    return Incomplete("X-Amz-Expires should be a number");
  }
  if (negative) return Incomplete("X-Amz-Expires must be non-negative");
  digits.remove_prefix(std::min(digits.find_first_not_of('0'), digits.size()));
  long long seconds = 0;
  for (char c : digits) {
    seconds = seconds * 10 + (c - '0');
    if (seconds > kMaxExpiresSeconds) {
      return Incomplete(
          "X-Amz-Expires must be less than a week (in seconds); that is, the "
          "given X-Amz-Expires must be less than 604800 seconds");
    }
  }
  return seconds;
}

// Compares in time independent of where the strings differ (the lengths are
// public: a signature is 64 hex digits).
bool SignatureEquals(std::string_view expected, std::string_view given) {
  return expected.size() == given.size() &&
         CRYPTO_memcmp(expected.data(), given.data(), expected.size()) == 0;
}

// Decoded query parameters, first value wins.
std::map<std::string, std::string, std::less<>> ParseQuery(
    std::string_view query) {
  std::map<std::string, std::string, std::less<>> params;
  for (const text::QueryPair& pair : text::SplitQuery(query)) {
    params.emplace(sigv4::UriDecode(pair.name, /*plus_is_space=*/true),
                   sigv4::UriDecode(pair.value, /*plus_is_space=*/true));
  }
  return params;
}

// "a/b/c/d/e/" -> {a, b, c, d, e}: trailing slashes are ignored.
std::vector<std::string_view> SplitCredential(std::string_view credential) {
  while (!credential.empty() && credential.back() == '/') {
    credential.remove_suffix(1);
  }
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (start <= credential.size()) {
    size_t slash = credential.find('/', start);
    if (slash == std::string_view::npos) slash = credential.size();
    parts.push_back(credential.substr(start, slash - start));
    start = slash + 1;
  }
  return parts;
}

// The payload hash of the canonical request: always the hash of the body
// received, so a signature only ever covers the bytes it is checked against.
// An X-Amz-Content-SHA256 header is never taken on trust: unsigned, it is
// ignored (else a captured request could carry another body); signed, it is
// part of the canonical headers, so a value that is not the body's hash
// (UNSIGNED-PAYLOAD included: DynamoDB signs its payloads) makes the
// signature differ and the request fail as a signature mismatch. A presigned
// URL signs no body (UNSIGNED-PAYLOAD) unless it signs that header as
// UNSIGNED-PAYLOAD or as the body's hash.
std::string PayloadHash(const WireRequest& request, bool presigned,
                        const std::vector<std::string>& signed_headers) {
  const bool header_signed =
      std::find(signed_headers.begin(), signed_headers.end(),
                "x-amz-content-sha256") != signed_headers.end();
  if (presigned) {
    auto claimed = request.Header("X-Amz-Content-SHA256");
    if (!header_signed || (claimed && *claimed == kUnsignedPayload)) {
      return std::string(kUnsignedPayload);
    }
  }
  return sigv4::Sha256Hex(request.body);
}

// How the date-window messages name the window: DynamoDB's "15 min." for
// whole minutes, else the duration as --auth-skew reads it ("90s").
std::string SkewText(Duration skew) {
  if (skew % std::chrono::minutes(1) == Duration::zero()) {
    return std::to_string(
               std::chrono::duration_cast<std::chrono::minutes>(skew).count()) +
           " min.";
  }
  return DurationText(skew);
}

}  // namespace

// Views into the request (its headers, or `query` for a presigned URL),
// valid while the request and this Parsed are.
struct Authenticator::Parsed {
  bool presigned = false;
  std::string_view algorithm;
  std::string_view credential;
  std::string_view signed_headers;
  std::string_view signature;
  std::string_view date;
  std::string_view expires;  // X-Amz-Expires, presigned only
  // A presigned request's decoded query parameters (the views point here).
  std::map<std::string, std::string, std::less<>> query;
};

Authenticator::Authenticator(AuthConfig config, const Clock& clock)
    : config_(std::move(config)), clock_(clock) {}

Status Authenticator::Check(const WireRequest& request) const {
  Result<Caller> caller = Authenticate(request);
  if (!caller.ok()) return std::move(caller).error();
  return OkStatus();
}

Result<Caller> Authenticator::Authenticate(const WireRequest& request) const {
  std::optional<std::string_view> header = request.Header("Authorization");
  bool query_auth = false;
  if (!request.query.empty()) {
    query_auth = ParseQuery(request.query).contains("X-Amz-Algorithm");
  }
  if (header && query_auth) {
    return Invalid(
        "Found both 'X-Amz-Algorithm' as a query-string param and "
        "'Authorization' as HTTP header.");
  }
  if (!query_auth && (!header || !Trim(*header).starts_with("AWS4-"))) {
    return Error::Of(ErrorType::kMissingAuthenticationToken,
                     "Request is missing Authentication Token");
  }
  Parsed parsed;
  if (header) {
    DDBLAB_RETURN_IF_ERROR(CheckHeader(request, *header, parsed));
  } else {
    DDBLAB_RETURN_IF_ERROR(CheckQuery(request, parsed));
  }
  return CheckCommon(request, parsed);
}

Status Authenticator::CheckHeader(const WireRequest& request,
                                  std::string_view header,
                                  Parsed& parsed) const {
  std::string_view trimmed = Trim(header);
  size_t space = 0;
  while (space < trimmed.size() && !IsSpace(trimmed[space])) ++space;
  parsed.algorithm = trimmed.substr(0, space);
  // The rest is "Credential=..., SignedHeaders=..., Signature=..." with the
  // components separated by commas, spaces or both, as AWS accepts (no
  // component value holds a comma or a space). A name given twice: the
  // first wins.
  const std::string_view rest = trimmed.substr(space);
  // The three components it needs, each the first of its name.
  bool have_credential = false, have_signature = false, have_signed = false;
  size_t start = 0;
  while (start < rest.size()) {
    size_t end = start;
    while (end < rest.size() && rest[end] != ',' && !IsSpace(rest[end])) {
      ++end;
    }
    std::string_view item = rest.substr(start, end - start);
    start = end + 1;
    size_t eq = item.find('=');
    if (eq == std::string_view::npos) continue;
    const std::string_view name = item.substr(0, eq);
    const std::string_view value = item.substr(eq + 1);
    if (name == "Credential" && !have_credential) {
      parsed.credential = value;
      have_credential = true;
    } else if (name == "Signature" && !have_signature) {
      parsed.signature = value;
      have_signature = true;
    } else if (name == "SignedHeaders" && !have_signed) {
      parsed.signed_headers = value;
      have_signed = true;
    }
  }
  if (auto date = request.Header("X-Amz-Date"); date && !date->empty()) {
    parsed.date = *date;
  } else if (auto http_date = request.Header("Date")) {
    parsed.date = *http_date;
  }

  std::string message;
  for (auto [name, value] :
       {std::pair{"Credential", parsed.credential},
        std::pair{"Signature", parsed.signature},
        std::pair{"SignedHeaders", parsed.signed_headers}}) {
    if (value.empty()) {
      message += "Authorization header requires '";
      message += name;
      message += "' parameter. ";
    }
  }
  if (parsed.date.empty()) {
    message +=
        "Authorization header requires existence of either a 'X-Amz-Date' or "
        "a 'Date' header. ";
  }
  if (!message.empty()) {
    message += "Authorization=";
    message += header;
    return Incomplete(std::move(message));
  }
  return OkStatus();
}

Status Authenticator::CheckQuery(const WireRequest& request,
                                 Parsed& parsed) const {
  parsed.query = ParseQuery(request.query);
  const auto& params = parsed.query;
  auto param = [&](std::string_view name) -> std::string_view {
    auto it = params.find(name);
    return it == params.end() ? std::string_view() : it->second;
  };
  std::string message;
  // X-Amz-Expires is required only when signatures are verified: kAccept
  // takes any well-formed request, as DynamoDB Local does.
  const bool verify = config_.mode == AuthMode::kVerify;
  for (std::string_view name :
       {"X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Signature",
        "X-Amz-SignedHeaders", "X-Amz-Date", "X-Amz-Expires"}) {
    if (name == "X-Amz-Expires" && !verify) continue;
    if (param(name).empty()) {
      message += "AWS query-string parameters must include '";
      message += name;
      message += "'. ";
    }
  }
  if (!message.empty()) {
    message += "Re-examine the query-string parameters.";
    return Incomplete(std::move(message));
  }
  parsed.presigned = true;
  parsed.algorithm = param("X-Amz-Algorithm");
  parsed.credential = param("X-Amz-Credential");
  parsed.signature = param("X-Amz-Signature");
  parsed.signed_headers = param("X-Amz-SignedHeaders");
  parsed.date = param("X-Amz-Date");
  parsed.expires = param("X-Amz-Expires");
  return OkStatus();
}

Status Authenticator::CheckDate(const Parsed& parsed,
                                std::chrono::sys_seconds date) const {
  using std::chrono::seconds;
  const Duration skew = *config_.max_skew;
  const TimePoint now = clock_.Now();
  const std::string now_text = sigv4::FormatAmzDate(now);
  // Compared in whole seconds, where a date of any year fits (a TimePoint
  // overflows past 2262): for a whole-second d and any t, d < t exactly
  // when d < ceil(t), and d > t exactly when d > floor(t).
  const std::chrono::sys_seconds earliest =
      std::chrono::ceil<seconds>(now - skew);
  const std::chrono::sys_seconds latest =
      std::chrono::floor<seconds>(now + skew);
  // A presigned request is valid from X-Amz-Date for X-Amz-Expires seconds
  // (AWS: "Authenticating Requests: Using Query Parameters"), not only the
  // window a header-signed one gets; it may still not be dated more than
  // the window ahead.
  std::optional<std::chrono::sys_seconds> expiry;
  if (parsed.presigned) {
    DDBLAB_ASSIGN_OR_RETURN(long long expires, ParseExpires(parsed.expires));
    expiry = date + seconds(expires);
  }
  if (expiry && std::chrono::ceil<seconds>(now) > *expiry) {
    // Amazon S3's answer to an expired presigned URL (AccessDenied,
    // "Request has expired"); DynamoDB publishes none of its own.
    return Error::Of(ErrorType::kAccessDenied, "Request has expired");
  }
  if (!expiry && date < earliest) {
    return Invalid("Signature expired: " + std::string(parsed.date) +
                   " is now earlier than " + sigv4::FormatAmzDate(now - skew) +
                   " (" + now_text + " - " + SkewText(skew) + ")");
  }
  if (date > latest) {
    return Invalid("Signature not yet current: " + std::string(parsed.date) +
                   " is still later than " + sigv4::FormatAmzDate(now + skew) +
                   " (" + now_text + " + " + SkewText(skew) + ")");
  }
  return OkStatus();
}

Result<Caller> Authenticator::CheckCommon(const WireRequest& request,
                                          const Parsed& parsed) const {
  const bool verify = config_.mode == AuthMode::kVerify;
  std::optional<std::chrono::sys_seconds> date =
      sigv4::ParseAmzDateSeconds(parsed.date);
  if (!date) {
    return Incomplete("Date must be in ISO-8601 'basic format'. Got '" +
                      std::string(parsed.date) +
                      "'. See http://en.wikipedia.org/wiki/ISO_8601");
  }
  std::vector<std::string> signed_headers;
  if (verify) {
    signed_headers = sigv4::ParseSignedHeaders(parsed.signed_headers);
    // Every time check reads the emulator's clock (a ManualClock follows
    // POST /_ddblab/clock); --auth-skew off (no max_skew) drops them all.
    if (config_.max_skew) {
      DDBLAB_RETURN_IF_ERROR(CheckDate(parsed, *date));
    } else if (parsed.presigned) {
      // Still a well-formed X-Amz-Expires of at most a week.
      if (Result<long long> expires = ParseExpires(parsed.expires);
          !expires.ok()) {
        return expires.error();
      }
    }
    bool host_signed = false;
    for (const std::string& name : signed_headers) {
      host_signed = host_signed || name == "host";
    }
    if (!host_signed) {
      return Invalid(
          "'Host' must be a 'SignedHeader' in the AWS Authorization.");
    }
  }
  if (parsed.algorithm != sigv4::kAlgorithm) {
    return Incomplete("Unsupported AWS 'algorithm': '" +
                      std::string(parsed.algorithm) +
                      "' (only AWS4-HMAC-SHA256 for now). ");
  }
  std::vector<std::string_view> scope = SplitCredential(parsed.credential);
  if (scope.size() != 5) {
    return Incomplete(
        "Credential must have exactly 5 slash-delimited elements, e.g. "
        "keyid/date/region/service/term, got '" +
        std::string(parsed.credential) + "'");
  }
  Caller caller{std::string(scope[0]), std::string(scope[2])};
  if (!verify) return caller;

  const std::string_view key_id = scope[0], scope_date = scope[1],
                         region = scope[2], service = scope[3],
                         terminator = scope[4];
  std::string day(parsed.date.substr(0, 8));
  std::string message;
  if (region != config_.region) {
    message += "Credential should be scoped to a valid region, not '";
    message += region;
    message += "'. ";
  }
  if (service != config_.service) {
    message += "Credential should be scoped to correct service: '" +
               config_.service + "'. ";
  }
  if (terminator != sigv4::kTerminator) {
    message += "Credential should be scoped with a valid terminator: '";
    message += sigv4::kTerminator;
    message += "', not '";
    message += terminator;
    message += "'. ";
  }
  if (scope_date != day) {
    message +=
        "Date in Credential scope does not match YYYYMMDD from ISO-8601 "
        "version of date from HTTP: '";
    message += scope_date;
    message += "' != '" + day + "', from '";
    message += parsed.date;
    message += "'.";
  }
  if (!message.empty()) return Invalid(std::move(message));

  const Credential* credential = config_.credentials.Find(key_id);
  if (credential == nullptr) {
    return Error::Of(ErrorType::kUnrecognizedClient,
                     "The security token included in the request is invalid.");
  }

  sigv4::RequestToSign to_sign;
  to_sign.method = request.method;
  to_sign.path = request.path;
  std::string query = parsed.presigned ? sigv4::CanonicalQueryString(
                                             request.query, "X-Amz-Signature")
                                       : std::string(request.query);
  to_sign.query = query;
  to_sign.headers = &request.headers;
  to_sign.signed_headers = std::move(signed_headers);
  to_sign.payload_hash =
      PayloadHash(request, parsed.presigned, to_sign.signed_headers);
  std::string canonical = sigv4::CanonicalRequest(to_sign);
  std::string string_to_sign = sigv4::StringToSign(
      parsed.date, sigv4::CredentialScope(scope_date, region, service),
      canonical);
  std::string expected =
      sigv4::Signature(sigv4::SigningKey(credential->secret_access_key,
                                         scope_date, region, service),
                       string_to_sign);
  if (!SignatureEquals(expected, parsed.signature)) {
    std::string text(kSignatureMismatch);
    text += "\n\nThe Canonical String for this request should have been\n'";
    text += canonical;
    text += "'\n\nThe String-to-Sign should have been\n'";
    text += string_to_sign;
    text += "'\n";
    return Invalid(std::move(text));
  }
  if (!credential->session_token.empty()) {
    auto token = request.Header("X-Amz-Security-Token");
    if (!token || *token != credential->session_token) {
      return Error::Of(ErrorType::kUnrecognizedClient,
                       "The security token included in the request is invalid");
    }
  }
  return caller;
}

}  // namespace ddblab::server
