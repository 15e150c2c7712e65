// emulator/server/protocol.h: DynamoDB's JSON 1.0 protocol, one request at
// a time, independent of the HTTP library.
//
// Handle() applies this order: body over 16 MB -> 413; GET/HEAD -> health
// check; not POST or a content type other than application/x-amz-json-1.0/1.1
// or application/json -> 404 with "<UnknownOperationException/>\n"; unknown
// X-Amz-Target -> UnknownOperationException; authentication (the signature
// covers the body as sent, so nothing is decoded or parsed for a request
// that is not authenticated); body decoding; unparseable JSON, empty or
// non-object body -> SerializationException; then the RequestHandler.
// Paths under /_ddblab/ are reserved for control endpoints: GET
// /_ddblab/health is the health check, AddRoute() registers others and
// extensions() holds routes by path prefix; who may call them is
// ProtocolConfig::control (control_access.h). CORS headers are sent for the
// DynamoDB API only, never on control paths.
//
// Every response carries x-amzn-RequestId, an exact x-amz-crc32 of its body
// as sent (the compressed bytes when compressed, which is what botocore
// checks), a Date header (from the injected Clock) and "Server: Server".
// Only the path "/" is served (plus /_ddblab/ control routes): any other
// path is a 404. A request with Content-Encoding gzip or deflate is decoded
// before parsing (an undecodable one is a 500, as DynamoDB answers); a
// successful response of 4 KiB or more is compressed when Accept-Encoding
// allows (compression.h). The HTTP front end must hand over the body as
// received (not decoded) and must not compress or re-encode responses.
//
// At LogLevel::kDebug, each DynamoDB API request (path "/", POST) logs one
// line "<operation> <table> <status> [<error type>] <ms>ms", e.g.
// "PutItem orders 200 0.4ms" or
// "GetItem orders 400 ResourceNotFoundException 0.1ms": the operation of
// X-Amz-Target ("-" if unknown), the body's TableName ("-" if none), the
// HTTP status, DynamoDB's error type, and the wall time (steady clock, not
// the emulator's) from Handle() receiving the request to the response
// built (a latency fault's hold not included).
//
// Ownership: borrows the handler, authenticator, clock and logger (all must
// outlive it). Thread-safety: after the routes are added, Handle() may run on
// many threads at once; AddRoute() must not race with Handle().
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>

#include "emulator/api/clock.h"
#include "emulator/api/result.h"
#include "emulator/server/authenticator.h"
#include "emulator/server/control_access.h"
#include "emulator/server/extensions.h"
#include "emulator/server/logger.h"
#include "emulator/server/request_handler.h"
#include "emulator/server/request_id.h"
#include "emulator/server/wire_message.h"

namespace ddblab::server {

inline constexpr size_t kMaxRequestBytes = 16 * 1024 * 1024;
// Deeper JSON bodies are refused with a SerializationException before any
// recursive code sees them (an item may nest 32 levels, about 70 JSON levels).
inline constexpr size_t kMaxJsonDepth = 512;

struct ProtocolConfig {
  std::string region = "us-east-1";
  // Seed of the request-id generator.
  uint64_t seed = 0;
  // Who may call the control endpoints (control_access.h).
  ControlAccess control;
};

class Protocol {
 public:
  Protocol(RequestHandler& handler, const Authenticator& authenticator,
           const Clock& clock, Logger& logger, ProtocolConfig config);

  // Registers a control endpoint. `path` must start with "/_ddblab/" and
  // not be taken. The handler's response is stamped like any other.
  Status AddRoute(std::string method, std::string path, RouteHandler handler);

  // Prefix routes, clock and stop hooks added by the program that composes
  // the server (extensions.h). A request under /_ddblab/ that matches no
  // exact route goes to the prefix route covering its path.
  ControlExtensions& extensions() { return extensions_; }

  WireResponse Handle(const WireRequest& request);

  // Adds x-amzn-RequestId (unless present), x-amz-crc32 of the body and
  // Date; for responses made outside Handle() (e.g. the HTTP library's 413).
  void Stamp(WireResponse& response);

  // "healthy: dynamodb.<region>.amazonaws.com " (trailing space included).
  std::string HealthText() const;

 private:
  WireResponse Dispatch(const WireRequest& request);
  // What the debug log line says of a DynamoDB API call.
  struct CallSummary {
    std::string operation = "-";  // "-": X-Amz-Target names none
    std::string table = "-";
    std::string error_type;  // empty: none
  };
  // ServeDynamo, plus the debug log line when --log-level debug.
  WireResponse HandleDynamo(const WireRequest& request);
  WireResponse ServeDynamo(const WireRequest& request, CallSummary& summary);
  // Compresses a successful response of kCompressMinBytes or more when the
  // request's Accept-Encoding allows gzip or deflate (compression.h).
  void MaybeCompress(const WireRequest& request, WireResponse& response);

  RequestHandler& handler_;
  const Authenticator& authenticator_;
  const Clock& clock_;
  Logger& logger_;
  ProtocolConfig config_;
  RequestIdGenerator request_ids_;
  std::map<std::pair<std::string, std::string>, RouteHandler> routes_;
  ControlExtensions extensions_;
};

// True when `body` nests objects/arrays deeper than `max_depth` (strings are
// skipped; malformed JSON is left to the parser).
bool JsonDeeperThan(std::string_view body, size_t max_depth);

// "application/x-amz-json-1.0; charset=utf-8" -> "application/x-amz-json-1.0"
// (lowercased, parameters and spaces dropped).
std::string MediaType(std::string_view content_type);

// RFC 1123 date for the Date header: "Mon, 01 Jan 2024 00:00:00 GMT".
std::string FormatHttpDate(TimePoint t);

}  // namespace ddblab::server
