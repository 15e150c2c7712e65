#include "common/sigv4/sigv4.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <utility>

#include "common/text/query_string.h"

namespace ddblab::sigv4 {

bool HeaderNameEquals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

namespace {

bool IsUnreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
         (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' || c == '~';
}

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
         c == '\f';
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string ToLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// Trims and collapses whitespace runs to one space (Python's
// ' '.join(value.split())).
std::string TrimAll(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  bool pending_space = false;
  for (char c : value) {
    if (IsSpace(c)) {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out += ' ';
    pending_space = false;
    out += c;
  }
  return out;
}

}  // namespace

std::string HexEncode(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out += kDigits[c >> 4];
    out += kDigits[c & 0x0F];
  }
  return out;
}

std::string Sha256Hex(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(data.data(), data.size(), digest, &length, EVP_sha256(), nullptr);
  return HexEncode(
      std::string_view(reinterpret_cast<const char*>(digest), length));
}

std::string HmacSha256(std::string_view key, std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest,
       &length);
  return std::string(reinterpret_cast<const char*>(digest), length);
}

std::string UriEncode(std::string_view s, bool keep_slash) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) {
    if (IsUnreserved(c) || (keep_slash && c == '/')) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kDigits[c >> 4];
      out += kDigits[c & 0x0F];
    }
  }
  return out;
}

std::string UriDecode(std::string_view s, bool plus_is_space) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      int hi = HexValue(s[i + 1]);
      int lo = HexValue(s[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
        continue;
      }
    }
    out += (plus_is_space && s[i] == '+') ? ' ' : s[i];
  }
  return out;
}

std::string CanonicalUri(std::string_view raw_path) {
  if (raw_path.empty()) return "/";
  std::vector<std::string_view> segments;
  size_t start = 0;
  while (start <= raw_path.size()) {
    size_t slash = raw_path.find('/', start);
    if (slash == std::string_view::npos) slash = raw_path.size();
    std::string_view segment = raw_path.substr(start, slash - start);
    if (segment == "..") {
      if (!segments.empty()) segments.pop_back();
    } else if (!segment.empty() && segment != ".") {
      segments.push_back(segment);
    }
    start = slash + 1;
  }
  std::string path;
  if (raw_path.front() == '/') path += '/';
  for (size_t i = 0; i < segments.size(); ++i) {
    if (i > 0) path += '/';
    path += segments[i];
  }
  if (raw_path.back() == '/' && !segments.empty()) path += '/';
  return UriEncode(path, /*keep_slash=*/true);
}

std::string CanonicalQueryString(std::string_view raw_query,
                                 std::string_view exclude_name) {
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const text::QueryPair& pair : text::SplitQuery(raw_query)) {
    std::string name = UriDecode(pair.name, /*plus_is_space=*/true);
    std::string value = UriDecode(pair.value, /*plus_is_space=*/true);
    if (!exclude_name.empty() && name == exclude_name) continue;
    pairs.emplace_back(UriEncode(name, false), UriEncode(value, false));
  }
  std::sort(pairs.begin(), pairs.end());
  std::string out;
  for (const auto& [name, value] : pairs) {
    if (!out.empty()) out += '&';
    out += name;
    out += '=';
    out += value;
  }
  return out;
}

std::vector<std::string> ParseSignedHeaders(std::string_view list) {
  std::vector<std::string> names;
  size_t start = 0;
  while (start <= list.size()) {
    size_t semi = list.find(';', start);
    if (semi == std::string_view::npos) semi = list.size();
    std::string name = TrimAll(list.substr(start, semi - start));
    if (!name.empty()) names.push_back(ToLower(name));
    start = semi + 1;
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

std::string JoinSignedHeaders(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) {
    if (!out.empty()) out += ';';
    out += name;
  }
  return out;
}

std::string CanonicalHeaders(const HeaderList& headers,
                             const std::vector<std::string>& signed_headers) {
  std::string out;
  for (const std::string& name : signed_headers) {
    out += name;
    out += ':';
    bool first = true;
    for (const auto& [key, value] : headers) {
      if (!HeaderNameEquals(key, name)) continue;
      if (!first) out += ',';
      out += TrimAll(value);
      first = false;
    }
    out += '\n';
  }
  return out;
}

std::string CanonicalRequest(const RequestToSign& request) {
  static const HeaderList kNoHeaders;
  std::string out(request.method);
  out += '\n';
  out += CanonicalUri(request.path);
  out += '\n';
  out += CanonicalQueryString(request.query);
  out += '\n';
  out += CanonicalHeaders(request.headers ? *request.headers : kNoHeaders,
                          request.signed_headers);
  out += '\n';
  out += JoinSignedHeaders(request.signed_headers);
  out += '\n';
  out += request.payload_hash;
  return out;
}

std::string CredentialScope(std::string_view date, std::string_view region,
                            std::string_view service) {
  std::string out(date);
  out += '/';
  out += region;
  out += '/';
  out += service;
  out += '/';
  out += kTerminator;
  return out;
}

std::string StringToSign(std::string_view amz_date, std::string_view scope,
                         std::string_view canonical_request) {
  std::string out(kAlgorithm);
  out += '\n';
  out += amz_date;
  out += '\n';
  out += scope;
  out += '\n';
  out += Sha256Hex(canonical_request);
  return out;
}

std::string SigningKey(std::string_view secret, std::string_view date,
                       std::string_view region, std::string_view service) {
  std::string key = "AWS4";
  key += secret;
  key = HmacSha256(key, date);
  key = HmacSha256(key, region);
  key = HmacSha256(key, service);
  return HmacSha256(key, kTerminator);
}

std::string Signature(std::string_view signing_key,
                      std::string_view string_to_sign) {
  return HexEncode(HmacSha256(signing_key, string_to_sign));
}

std::optional<std::chrono::sys_seconds> ParseAmzDateSeconds(
    std::string_view text) {
  if (text.size() != 16 || text[8] != 'T' || text[15] != 'Z') {
    return std::nullopt;
  }
  auto number = [&](size_t pos, size_t len) -> int {
    int value = 0;
    for (size_t i = pos; i < pos + len; ++i) {
      if (text[i] < '0' || text[i] > '9') return -1;
      value = value * 10 + (text[i] - '0');
    }
    return value;
  };
  int year = number(0, 4), month = number(4, 2), day = number(6, 2);
  int hour = number(9, 2), minute = number(11, 2), second = number(13, 2);
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 ||
      second < 0 || hour > 23 || minute > 59 || second > 60) {
    return std::nullopt;
  }
  std::chrono::year_month_day ymd{
      std::chrono::year(year), std::chrono::month(static_cast<unsigned>(month)),
      std::chrono::day(static_cast<unsigned>(day))};
  if (!ymd.ok()) return std::nullopt;
  return std::chrono::sys_seconds(std::chrono::sys_days(ymd)) +
         std::chrono::hours(hour) + std::chrono::minutes(minute) +
         std::chrono::seconds(second);
}

std::optional<TimePoint> ParseAmzDate(std::string_view text) {
  std::optional<std::chrono::sys_seconds> t = ParseAmzDateSeconds(text);
  if (!t) return std::nullopt;
  // A TimePoint counts nanoseconds in 64 bits (years 1678..2262); the
  // margin leaves room for the checks' arithmetic (15 minutes, 7 days).
  const int year = static_cast<int>(
      std::chrono::year_month_day(std::chrono::floor<std::chrono::days>(*t))
          .year());
  if (year < kMinAmzYear || year > kMaxAmzYear) return std::nullopt;
  return TimePoint(*t);
}

std::string FormatAmzDate(TimePoint t) {
  auto seconds = std::chrono::floor<std::chrono::seconds>(t);
  auto days = std::chrono::floor<std::chrono::days>(seconds);
  std::chrono::year_month_day ymd(days);
  std::chrono::hh_mm_ss<std::chrono::seconds> hms(seconds - days);
  char buf[32];
  std::snprintf(
      buf, sizeof(buf), "%04d%02u%02uT%02d%02d%02dZ",
      static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
      static_cast<unsigned>(ymd.day()), static_cast<int>(hms.hours().count()),
      static_cast<int>(hms.minutes().count()),
      static_cast<int>(hms.seconds().count()));
  return buf;
}

std::string AuthorizationHeader(
    std::string_view method, std::string_view path, std::string_view query,
    const HeaderList& headers, std::string_view body,
    std::string_view access_key_id, std::string_view secret,
    std::string_view region, std::string_view service,
    std::string_view amz_date) {
  RequestToSign request;
  request.method = method;
  request.path = path;
  request.query = query;
  request.headers = &headers;
  std::string names;
  for (const auto& [key, value] : headers) {
    if (!names.empty()) names += ';';
    names += key;
  }
  request.signed_headers = ParseSignedHeaders(names);
  request.payload_hash = Sha256Hex(body);
  std::string date(amz_date.substr(0, 8));
  std::string scope = CredentialScope(date, region, service);
  std::string string_to_sign =
      StringToSign(amz_date, scope, CanonicalRequest(request));
  std::string signature =
      Signature(SigningKey(secret, date, region, service), string_to_sign);
  std::string out(kAlgorithm);
  out += " Credential=";
  out += access_key_id;
  out += '/';
  out += scope;
  out += ", SignedHeaders=";
  out += JoinSignedHeaders(request.signed_headers);
  out += ", Signature=";
  out += signature;
  return out;
}

}  // namespace ddblab::sigv4
