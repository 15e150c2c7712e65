// common/sigv4/sigv4.h: AWS Signature Version 4 building blocks.
//
// One implementation shared by the server's verifier
// (emulator/server/authenticator.*) and the harness's signer
// (harness/backend/http_backend.*). A leaf library: it depends only on
// OpenSSL, the standard library and common/text (the query-string
// splitter).
//
// Canonical request, string to sign, signing key and signature exactly as
// AWS (and botocore's SigV4Auth) compute them, plus the ISO-8601 basic date
// format SigV4 uses. The policy (which checks, which errors) lives in
// emulator/server/authenticator.h; these are pure functions used by it, by
// the harness signer and by tests.
//
// Thread-safety: pure functions.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ddblab::sigv4 {

// The same types as ddblab::TimePoint (emulator/api/clock.h) and
// ddblab::server::HeaderList (emulator/server/wire_message.h), spelled out
// so this library depends on neither.
using TimePoint = std::chrono::sys_time<std::chrono::nanoseconds>;
using HeaderList = std::vector<std::pair<std::string, std::string>>;

inline constexpr std::string_view kAlgorithm = "AWS4-HMAC-SHA256";
inline constexpr std::string_view kTerminator = "aws4_request";

// HTTP header names compared as HTTP compares them: ASCII case-insensitive.
bool HeaderNameEquals(std::string_view a, std::string_view b);

std::string HexEncode(std::string_view bytes);
// Lowercase hex SHA-256 of `data`.
std::string Sha256Hex(std::string_view data);
// Raw (32-byte) HMAC-SHA256.
std::string HmacSha256(std::string_view key, std::string_view data);

// RFC 3986 percent-encoding (uppercase hex) of every byte that is not
// unreserved (A-Z a-z 0-9 - _ . ~); '/' is kept when keep_slash.
std::string UriEncode(std::string_view s, bool keep_slash);
// Decodes %XX sequences (malformed ones are kept as they are) and, when
// plus_is_space, '+' as a space.
std::string UriDecode(std::string_view s, bool plus_is_space = false);

// The canonical URI: dot segments removed, then encoded as botocore does for
// every service but S3 (quote(path, safe='/~'), so '%' becomes "%25").
// An empty path is "/".
std::string CanonicalUri(std::string_view raw_path);

// The canonical query string: each name and value decoded and re-encoded,
// pairs sorted by name then value, joined with '&'. A pair named
// `exclude_name` (e.g. "X-Amz-Signature" for presigned requests) is dropped.
std::string CanonicalQueryString(std::string_view raw_query,
                                 std::string_view exclude_name = {});

// Splits "a;B;c" into lowercase names, sorted, duplicates removed.
std::vector<std::string> ParseSignedHeaders(std::string_view list);
std::string JoinSignedHeaders(const std::vector<std::string>& names);

// "name:value\n" per signed header (names lowercase and sorted): values
// trimmed, inner whitespace runs collapsed to one space, repeated headers
// joined with ','.
std::string CanonicalHeaders(const HeaderList& headers,
                             const std::vector<std::string>& signed_headers);

struct RequestToSign {
  std::string_view method;
  std::string_view path;   // as sent
  std::string_view query;  // as sent, without '?'
  const HeaderList* headers = nullptr;
  std::vector<std::string> signed_headers;  // lowercase, sorted
  std::string payload_hash;                 // hex SHA-256 of the body
};

std::string CanonicalRequest(const RequestToSign& request);

// "<date>/<region>/<service>/aws4_request".
std::string CredentialScope(std::string_view date, std::string_view region,
                            std::string_view service);

// "AWS4-HMAC-SHA256\n<amz_date>\n<scope>\n<hex sha256(canonical request)>".
std::string StringToSign(std::string_view amz_date, std::string_view scope,
                         std::string_view canonical_request);

// HMAC chain "AWS4"+secret -> date -> region -> service -> aws4_request.
std::string SigningKey(std::string_view secret, std::string_view date,
                       std::string_view region, std::string_view service);

// Lowercase hex HMAC(signing key, string to sign).
std::string Signature(std::string_view signing_key,
                      std::string_view string_to_sign);

// Parses "YYYYMMDD'T'HHMMSS'Z'" (ISO-8601 basic format, UTC), any year
// 0000..9999, to whole seconds (which hold every such year).
std::optional<std::chrono::sys_seconds> ParseAmzDateSeconds(
    std::string_view text);
// The same as a TimePoint. Years outside kMinAmzYear..kMaxAmzYear, which a
// TimePoint cannot hold with room to spare, are refused like a malformed
// date.
inline constexpr int kMinAmzYear = 1700;
inline constexpr int kMaxAmzYear = 2200;
std::optional<TimePoint> ParseAmzDate(std::string_view text);
// Formats t (truncated to the second) as "YYYYMMDD'T'HHMMSS'Z'".
std::string FormatAmzDate(TimePoint t);

// Signs a request the way an SDK does (for tests and tools): returns the
// Authorization header value. `headers` must already hold the headers to
// sign (host, x-amz-date, ...); every header in it is signed.
std::string AuthorizationHeader(
    std::string_view method, std::string_view path, std::string_view query,
    const HeaderList& headers, std::string_view body,
    std::string_view access_key_id, std::string_view secret,
    std::string_view region, std::string_view service,
    std::string_view amz_date);

}  // namespace ddblab::sigv4
