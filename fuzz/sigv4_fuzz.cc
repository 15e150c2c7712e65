// fuzz/sigv4_fuzz.cc: libFuzzer target for SigV4 parsing and verification.
//
// The input is split by FuzzedDataProvider into a request (method, path,
// query, up to 8 headers, body) that goes to Authenticator::Check in kAccept
// and kVerify mode (credential AKIDFUZZ / fuzzsecret, ManualClock at its
// default 2024-01-01T00:00:00Z), and into strings for the sigv4 primitives,
// which must keep their properties:
//   * ParseAmzDate: a parsed date (second < 60) formats back to the text;
//   * CanonicalQueryString is idempotent;
//   * ParseSignedHeaders is sorted, unique, lowercase and round-trips
//     through JoinSignedHeaders;
//   * UriDecode(UriEncode(s)) == s.
// When the input asks for it, the request is first signed correctly (every
// header, X-Amz-Date now) and kVerify must accept it, then refuse it once
// its body changes. Any violation aborts. No state survives an input.
//
//   ./build-fuzz/fuzz/sigv4_fuzz -max_total_time=60 fuzz-corpus/sigv4 \
//       fuzz/corpus/sigv4
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "common/sigv4/sigv4.h"
#include "emulator/api/clock.h"
#include "emulator/server/authenticator.h"

namespace {

using ddblab::server::AuthConfig;
using ddblab::server::Authenticator;
using ddblab::server::AuthMode;
using ddblab::server::Credential;
using ddblab::server::WireRequest;
namespace sigv4 = ddblab::sigv4;

constexpr std::string_view kKeyId = "AKIDFUZZ";
constexpr std::string_view kSecret = "fuzzsecret";
constexpr std::string_view kNow = "20240101T000000Z";

void Check(bool ok) {
  if (!ok) std::abort();
}

constexpr std::array<std::string_view, 12> kHeaderNames = {
    "Authorization", "X-Amz-Date",           "Date",
    "Host",          "X-Amz-Content-SHA256", "X-Amz-Security-Token",
    "Content-Type",  "X-Amz-Target",         "x-amz-date",
    "authorization", "Content-Encoding",     "X-Custom"};

Authenticator Make(AuthMode mode, const ddblab::Clock& clock) {
  AuthConfig config;
  config.mode = mode;
  config.credentials.Add(
      Credential{std::string(kKeyId), std::string(kSecret), ""});
  return Authenticator(std::move(config), clock);
}

void CheckPrimitives(FuzzedDataProvider& in) {
  const std::string date = in.ConsumeRandomLengthString(32);
  if (auto t = sigv4::ParseAmzDate(date); t && date.substr(13, 2) != "60") {
    Check(sigv4::FormatAmzDate(*t) == date);
  }
  const std::string query = in.ConsumeRandomLengthString(256);
  const std::string canonical = sigv4::CanonicalQueryString(query);
  Check(sigv4::CanonicalQueryString(canonical) == canonical);
  (void)sigv4::CanonicalQueryString(query, "X-Amz-Signature");
  const std::string list = in.ConsumeRandomLengthString(128);
  const std::vector<std::string> names = sigv4::ParseSignedHeaders(list);
  Check(std::is_sorted(names.begin(), names.end()));
  Check(std::adjacent_find(names.begin(), names.end()) == names.end());
  for (const std::string& name : names) {
    Check(!name.empty());
    Check(std::none_of(name.begin(), name.end(),
                       [](char c) { return c >= 'A' && c <= 'Z'; }));
  }
  Check(sigv4::ParseSignedHeaders(sigv4::JoinSignedHeaders(names)) == names);
  const std::string raw = in.ConsumeRandomLengthString(128);
  Check(sigv4::UriDecode(sigv4::UriEncode(raw, false)) == raw);
  Check(sigv4::UriDecode(sigv4::UriEncode(raw, true)) == raw);
  (void)sigv4::UriDecode(raw, true);
  (void)sigv4::CanonicalUri(raw);
}

// A name of [a-z0-9-] that is none of the headers the signer sets.
std::string SafeHeaderName(FuzzedDataProvider& in) {
  std::string name = "x-f";
  for (char c : in.ConsumeRandomLengthString(12)) {
    const unsigned char u = static_cast<unsigned char>(c);
    name += "abcdefghijklmnopqrstuvwxyz0123456789-"[u % 37];
  }
  return name;
}

void CheckSignedRoundTrip(FuzzedDataProvider& in, const Authenticator& verify) {
  WireRequest request;
  request.method = in.ConsumeBool() ? "POST" : "GET";
  request.path = "/" + in.ConsumeRandomLengthString(32);
  // Query parameters without X-Amz-Algorithm (that would be query auth).
  request.query = in.ConsumeRandomLengthString(64);
  if (sigv4::CanonicalQueryString(request.query).find("X-Amz-Algorithm") !=
      std::string::npos) {
    return;
  }
  request.headers = {{"Host", "127.0.0.1:8000"},
                     {"X-Amz-Date", std::string(kNow)}};
  const int extra = in.ConsumeIntegralInRange(0, 3);
  for (int i = 0; i < extra; ++i) {
    request.headers.emplace_back(SafeHeaderName(in),
                                 in.ConsumeRandomLengthString(32));
  }
  std::string body = in.ConsumeRandomLengthString(256);
  request.body = body;
  request.headers.emplace_back(
      "Authorization",
      sigv4::AuthorizationHeader(request.method, request.path, request.query,
                                 request.headers, request.body, kKeyId, kSecret,
                                 "us-east-1", "dynamodb", kNow));
  Check(verify.Check(request).ok());
  body += 'x';
  request.body = body;
  Check(!verify.Check(request).ok());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  ddblab::ManualClock clock;
  const Authenticator accept = Make(AuthMode::kAccept, clock);
  const Authenticator verify = Make(AuthMode::kVerify, clock);
  switch (in.ConsumeIntegralInRange(0, 2)) {
    case 0:
      CheckPrimitives(in);
      return 0;
    case 1:
      CheckSignedRoundTrip(in, verify);
      return 0;
    default:
      break;
  }
  WireRequest request;
  request.method = in.ConsumeRandomLengthString(8);
  request.path = in.ConsumeRandomLengthString(64);
  request.query = in.ConsumeRandomLengthString(512);
  const int headers = in.ConsumeIntegralInRange(0, 8);
  for (int i = 0; i < headers; ++i) {
    std::string name = in.ConsumeBool()
                           ? std::string(in.PickValueInArray(kHeaderNames))
                           : in.ConsumeRandomLengthString(16);
    request.headers.emplace_back(std::move(name),
                                 in.ConsumeRandomLengthString(256));
  }
  const std::string body = in.ConsumeRemainingBytesAsString();
  request.body = body;  // a view
  const ddblab::Status accepted = accept.Check(request);
  const ddblab::Status verified = verify.Check(request);
  // kVerify checks everything kAccept does, and more.
  if (!accepted.ok()) Check(!verified.ok());
  return 0;
}
