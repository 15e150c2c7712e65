// emulator/server/authenticator.h: SigV4 authentication of a request.
//
// Two modes:
//  * kAccept (default, like DynamoDB Local): any well-formed SigV4
//    Authorization header (or presigned query) is accepted; the secret is
//    not checked. A missing or malformed one is still rejected.
//  * kVerify: the signature is recomputed with the configured secret, and
//    the date (within AuthConfig::max_skew, 15 min by default, of the
//    clock; a presigned URL is valid from X-Amz-Date for its X-Amz-Expires
//    seconds, at most 7 days; no max_skew: no time check at all), the signed
//    Host header, the credential scope (region, service "dynamodb",
//    terminator) and the key id are checked, in AWS's order, with AWS's
//    messages (DynamoDB's wire protocol). The signature always covers the
//    hash of the body received: an X-Amz-Content-SHA256 header is not
//    trusted (see PayloadHash in the .cc). Signatures are compared in
//    constant time.
//
// The clock is the emulator's (ddblab serve gives it the engine's clock, a
// ManualClock with --clock manual): the window moves when that clock moves.
//
// Thread-safety: Check() is const and may run on many threads at once; the
// Clock must be thread-safe (all ddblab clocks are). The Authenticator keeps
// a reference to the clock, which must outlive it.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "emulator/api/clock.h"
#include "emulator/api/result.h"
#include "emulator/server/caller.h"
#include "emulator/server/credentials.h"
#include "emulator/server/wire_message.h"

namespace ddblab::server {

enum class AuthMode { kAccept, kVerify };

// DynamoDB's window: a request dated more than 15 minutes away from the
// server's clock is refused.
inline constexpr Duration kDefaultMaxSkew = std::chrono::minutes(15);

struct AuthConfig {
  AuthMode mode = AuthMode::kAccept;
  CredentialStore credentials;  // used by kVerify
  std::string region = "us-east-1";
  std::string service = "dynamodb";
  // kVerify's date window around the clock (--auth-skew). A presigned URL
  // may be dated at most this far ahead. nullopt (--auth-skew off): no time
  // check at all, neither the window nor a presigned URL's X-Amz-Expires
  // (which must still be a number of seconds up to a week).
  std::optional<Duration> max_skew = kDefaultMaxSkew;
};

class Authenticator {
 public:
  Authenticator(AuthConfig config, const Clock& clock);

  // Who signed the request (its credential scope's key id and region), or
  // the auth error DynamoDB sends (MissingAuthenticationToken,
  // IncompleteSignature, InvalidSignature, UnrecognizedClient).
  Result<Caller> Authenticate(const WireRequest& request) const;
  // Authenticate(), the caller dropped.
  Status Check(const WireRequest& request) const;

  AuthMode mode() const { return config_.mode; }

 private:
  struct Parsed;
  Status CheckHeader(const WireRequest& request, std::string_view header,
                     Parsed& parsed) const;
  Status CheckQuery(const WireRequest& request, Parsed& parsed) const;
  Result<Caller> CheckCommon(const WireRequest& request,
                             const Parsed& parsed) const;
  // The date window (and a presigned URL's expiry) against clock_. `date`
  // is in whole seconds, which hold any X-Amz-Date year (0000..9999).
  Status CheckDate(const Parsed& parsed, std::chrono::sys_seconds date) const;

  AuthConfig config_;
  const Clock& clock_;
};

}  // namespace ddblab::server
