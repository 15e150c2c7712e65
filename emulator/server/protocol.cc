#include "emulator/server/protocol.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <nlohmann/json.hpp>

#include "emulator/api/deferred_answer.h"
#include "emulator/server/compression.h"
#include "emulator/server/crc32.h"
#include "emulator/server/target.h"
#include "emulator/server/wire_error.h"

namespace ddblab::server {
namespace {

constexpr std::string_view kNotFoundBody = "<UnknownOperationException/>\n";
constexpr std::string_view kInternalMessage =
    "The server encountered an internal error trying to fulfill the request.";

WireResponse NotFound() {
  WireResponse response;
  response.status = 404;
  response.content_type = "text/plain";
  response.body = std::string(kNotFoundBody);
  return response;
}

// AWS answers TagResource and UntagResource with an empty body.
bool HasEmptySuccessBody(const Target& target) {
  return target.service == Service::kDynamoDB &&
         (target.operation == "TagResource" ||
          target.operation == "UntagResource");
}

bool IsAcceptedMediaType(std::string_view media_type) {
  return media_type == "application/x-amz-json-1.0" ||
         media_type == "application/x-amz-json-1.1" ||
         media_type == "application/json";
}

void AddCorsHeaders(const WireRequest& request, WireResponse& response) {
  if (!request.Header("Origin")) return;
  response.SetHeader("Access-Control-Allow-Origin", "*");
  response.SetHeader("Access-Control-Expose-Headers",
                     "x-amzn-RequestId,x-amzn-ErrorType,x-amz-crc32,Date");
}

WireResponse CorsPreflight(const WireRequest& request) {
  WireResponse response;
  response.status = 200;
  response.SetHeader("Access-Control-Allow-Origin", "*");
  if (auto headers = request.Header("Access-Control-Request-Headers")) {
    response.SetHeader("Access-Control-Allow-Headers", std::string(*headers));
  }
  if (auto method = request.Header("Access-Control-Request-Method")) {
    response.SetHeader("Access-Control-Allow-Methods", std::string(*method));
  }
  response.SetHeader("Access-Control-Max-Age", "172800");
  return response;
}

// The debug log line's table: the request's TableName when it is a plain
// name or ARN (printable ASCII, no space, at most 1024 characters: nothing
// a request can inject into the log), else "-" (batch calls, Streams calls,
// a missing or strange name).
std::string LoggedTableName(const nlohmann::json& body) {
  auto it = body.find("TableName");
  if (it == body.end() || !it->is_string()) return "-";
  const std::string& name = it->get_ref<const std::string&>();
  if (name.empty() || name.size() > 1024) return "-";
  for (char c : name) {
    if (c <= ' ' || c > '~') return "-";
  }
  return name;
}

}  // namespace

bool JsonDeeperThan(std::string_view body, size_t max_depth) {
  size_t depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > max_depth) return true;
    } else if ((c == '}' || c == ']') && depth > 0) {
      --depth;
    }
  }
  return false;
}

std::string MediaType(std::string_view content_type) {
  std::string out;
  for (char c : content_type.substr(0, content_type.find(';'))) {
    if (c == ' ' || c == '\t') continue;
    out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return out;
}

std::string FormatHttpDate(TimePoint t) {
  static constexpr const char* kDays[] = {"Sun", "Mon", "Tue", "Wed",
                                          "Thu", "Fri", "Sat"};
  static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr",
                                            "May", "Jun", "Jul", "Aug",
                                            "Sep", "Oct", "Nov", "Dec"};
  auto seconds = std::chrono::floor<std::chrono::seconds>(t);
  auto days = std::chrono::floor<std::chrono::days>(seconds);
  std::chrono::year_month_day ymd(days);
  std::chrono::weekday weekday(days);
  std::chrono::hh_mm_ss<std::chrono::seconds> hms(seconds - days);
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%s, %02u %s %04d %02d:%02d:%02d GMT",
                kDays[weekday.c_encoding()], static_cast<unsigned>(ymd.day()),
                kMonths[static_cast<unsigned>(ymd.month()) - 1],
                static_cast<int>(ymd.year()),
                static_cast<int>(hms.hours().count()),
                static_cast<int>(hms.minutes().count()),
                static_cast<int>(hms.seconds().count()));
  return buf;
}

Protocol::Protocol(RequestHandler& handler, const Authenticator& authenticator,
                   const Clock& clock, Logger& logger, ProtocolConfig config)
    : handler_(handler),
      authenticator_(authenticator),
      clock_(clock),
      logger_(logger),
      config_(std::move(config)),
      request_ids_(config_.seed) {}

Status Protocol::AddRoute(std::string method, std::string path,
                          RouteHandler handler) {
  if (!path.starts_with(kControlPrefix)) {
    return Error::Validation("control routes live under /_ddblab/: " + path);
  }
  auto key = std::make_pair(std::move(method), std::move(path));
  if (routes_.contains(key) || key.second == "/_ddblab/health") {
    return Error::Validation("route already registered: " + key.first + " " +
                             key.second);
  }
  routes_.emplace(std::move(key), std::move(handler));
  return OkStatus();
}

std::string Protocol::HealthText() const {
  return "healthy: dynamodb." + config_.region + ".amazonaws.com ";
}

void Protocol::Stamp(WireResponse& response) {
  if (!response.Header("x-amzn-RequestId")) {
    response.SetHeader("x-amzn-RequestId", request_ids_.Next());
  }
  response.SetHeader("x-amz-crc32", std::to_string(Crc32(response.body)));
  // The text changes once a second: formatted once per second per thread.
  thread_local int64_t date_second = INT64_MIN;
  thread_local std::string date_text;
  const TimePoint now = clock_.Now();
  const int64_t second =
      std::chrono::floor<std::chrono::seconds>(now).time_since_epoch().count();
  if (second != date_second) {
    date_text = FormatHttpDate(now);
    date_second = second;
  }
  response.SetHeader("Date", date_text);
  // DynamoDB's responses all carry "Server: Server".
  response.SetHeader("Server", "Server");
}

void Protocol::MaybeCompress(const WireRequest& request,
                             WireResponse& response) {
  if (response.status != 200 || response.body.size() < kCompressMinBytes ||
      response.Header("Content-Encoding")) {
    return;
  }
  std::optional<ContentCoding> coding = ChooseResponseCoding(request.headers);
  if (!coding) return;
  response.body = CompressBody(*coding, response.body);
  response.SetHeader("Content-Encoding", std::string(CodingName(*coding)));
}

WireResponse Protocol::Handle(const WireRequest& request) {
  WireResponse response = Dispatch(request);
  if (!request.path.starts_with(kControlPrefix)) {
    AddCorsHeaders(request, response);
  }
  MaybeCompress(request, response);
  Stamp(response);
  return response;
}

WireResponse Protocol::Dispatch(const WireRequest& request) {
  if (request.body.size() > kMaxRequestBytes) {
    WireResponse response;
    response.status = 413;
    return response;
  }
  const bool is_get = request.method == "GET" || request.method == "HEAD";
  if (request.path.starts_with(kControlPrefix)) {
    if (is_get && request.path == "/_ddblab/health") {
      WireResponse response;
      response.content_type = "text/plain";
      response.body = HealthText();
      return response;
    }
    auto it = routes_.find(std::make_pair(
        request.method == "HEAD" ? std::string("GET") : request.method,
        request.path));
    const RouteHandler* route = it != routes_.end()
                                    ? &it->second
                                    : extensions_.FindPrefixRoute(request.path);
    if (route == nullptr && config_.control.mode != ControlMode::kOff) {
      return NotFound();  // the routes are documented: no secret in a 404
    }
    if (std::optional<WireResponse> refused =
            CheckControlAccess(config_.control, authenticator_, request,
                               extensions_.IsPublic(request.path))) {
      return std::move(*refused);
    }
    try {
      return (*route)(request);
    } catch (const std::exception& e) {
      logger_.Log(LogLevel::kError, std::string("control endpoint ") +
                                        request.path + " threw: " + e.what());
      return ErrorResponse(Error::Internal(std::string(kInternalMessage)));
    }
  }
  // Only "/" answers the health check and the API; DynamoDB refuses every
  // other path.
  if (request.path != "/") return NotFound();
  if (is_get) {
    WireResponse response;
    response.content_type = "text/plain";
    response.body = HealthText();
    return response;
  }
  if (request.method == "OPTIONS" && request.Header("Origin")) {
    return CorsPreflight(request);
  }
  if (request.method != "POST" ||
      !IsAcceptedMediaType(MediaType(
          request.Header("Content-Type").value_or(std::string_view())))) {
    return NotFound();
  }
  return HandleDynamo(request);
}

WireResponse Protocol::HandleDynamo(const WireRequest& request) {
  if (!logger_.Enabled(LogLevel::kDebug)) {
    CallSummary ignored;
    return ServeDynamo(request, ignored);
  }
  // Log time, not emulator time: how long the server took.
  const auto start = std::chrono::steady_clock::now();
  CallSummary summary;
  WireResponse response = ServeDynamo(request, summary);
  const std::chrono::duration<double, std::milli> elapsed =
      std::chrono::steady_clock::now() - start;
  char ms[32];
  std::snprintf(ms, sizeof(ms), "%.1fms", elapsed.count());
  std::string line(summary.operation);
  line += ' ';
  line += summary.table;
  line += ' ';
  line += std::to_string(response.status);
  if (!summary.error_type.empty()) {
    line += ' ';
    line += summary.error_type;
  }
  line += ' ';
  line += ms;
  logger_.Log(LogLevel::kDebug, line);
  return response;
}

WireResponse Protocol::ServeDynamo(const WireRequest& request,
                                   CallSummary& summary) {
  auto refuse = [&summary](const Error& error) {
    summary.error_type = std::string(error.Name());
    return ErrorResponse(error);
  };
  std::optional<Target> target =
      ParseTarget(request.Header("X-Amz-Target").value_or(std::string_view()));
  if (!target) return refuse(Error::Of(ErrorType::kUnknownOperation, ""));
  summary.operation = std::string(target->operation);
  // Authenticated before any work on the body: the signature covers the
  // body as sent (compressed or not).
  Result<Caller> caller = authenticator_.Authenticate(request);
  if (!caller.ok()) return refuse(caller.error());
  std::string decoded;
  std::string_view text = request.body;
  if (auto encoding = request.Header("Content-Encoding")) {
    Result<std::string> plain =
        DecodeRequestBody(*encoding, request.body, kMaxRequestBytes);
    if (!plain.ok()) {
      if (plain.error().type == ErrorType::kValidation) {
        WireResponse too_large;
        too_large.status = 413;
        return too_large;
      }
      // DynamoDB answers an undecodable body with a bare 500.
      logger_.Log(LogLevel::kWarn, plain.error().message);
      return refuse(Error::Internal(std::string(kInternalMessage)));
    }
    decoded = std::move(*plain);
    text = decoded;
  }
  nlohmann::json body;
  const bool has_body = !text.empty();
  if (has_body) {
    if (JsonDeeperThan(text, kMaxJsonDepth)) {
      return refuse(Error::Serialization(""));
    }
    body = nlohmann::json::parse(text, nullptr,
                                 /*allow_exceptions=*/false);
    if (body.is_discarded()) return refuse(Error::Serialization(""));
  }
  if (!has_body || !body.is_object()) {
    return refuse(Error::Serialization(""));
  }
  summary.table = LoggedTableName(body);

  Result<nlohmann::json> result =
      Error::Internal(std::string(kInternalMessage));
  std::optional<DueTime> due;  // a latency fault: the server holds it
  try {
    DeferredAnswer answer =
        target->service == Service::kDynamoDB
            ? handler_.CallAs(*caller, target->operation, body)
            : handler_.CallStreamsAs(*caller, target->operation, body);
    result = std::move(answer.result);
    due = std::move(answer.due);
  } catch (const std::exception& e) {
    logger_.Log(LogLevel::kError,
                std::string(target->operation) + " threw: " + e.what());
    result = Error::Internal(std::string(kInternalMessage));
  }

  WireResponse response;
  if (!result.ok()) {
    summary.error_type = std::string(result.error().Name());
    response = ErrorResponse(result.error());
    if (response.status >= 500) {
      logger_.Log(LogLevel::kWarn, std::string(target->operation) + ": " +
                                       ToString(result.error()));
    }
  } else {
    response.content_type = "application/x-amz-json-1.0";
    if (!HasEmptySuccessBody(*target)) {
      response.body = result->dump(-1, ' ', false,
                                   nlohmann::json::error_handler_t::replace);
    }
  }
  if (due) {
    // When a latency fault's answer is due on the emulator's clock: a
    // client that mirrors a manual clock (the harness) follows it.
    response.headers.emplace_back(
        std::string(kDueHeader),
        std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(
                           due->at.time_since_epoch())
                           .count()));
  }
  response.due = std::move(due);
  return response;
}

}  // namespace ddblab::server
