// harness/backend/http_backend.cc: HttpBackend (signing, checksums,
// retries, ddblab controls) and the response decoder.
#include "harness/backend/http_backend.h"

#include <zlib.h>

#include <charconv>
#include <chrono>
#include <cmath>
#include <utility>

#include "common/control_token/control_token.h"
#include "common/sigv4/sigv4.h"

namespace ddblab::harness {
namespace {

constexpr std::string_view kDynamoDbPrefix = "DynamoDB_20120810.";
constexpr std::string_view kStreamsPrefix = "DynamoDBStreams_20120810.";

// BackendOptions::control_token, else $DDBLAB_CONTROL_TOKEN, else the token
// file of a ddblab serve on this (loopback) port.
std::optional<std::string> ControlToken(const std::string& url,
                                        const BackendOptions& options) {
  if (options.control_token) return options.control_token;
  if (options.environment.get) {
    std::optional<std::string> set = options.environment.get(
        std::string(control_token::kEnvironmentVariable));
    if (set && !set->empty()) return set;
  }
  std::optional<int> port = control_token::LoopbackPort(url);
  if (!port) return std::nullopt;
  std::optional<std::string> path = control_token::DefaultTokenPath(*port);
  if (!path) return std::nullopt;
  return control_token::ReadTokenFile(*path);
}

// Local endpoints (ddblab --auth accept, DynamoDB Local) accept any keys;
// these are used when the chain finds none.
constexpr std::string_view kLocalAccessKeyId = "ddblablocal";
constexpr std::string_view kLocalSecret = "ddblablocal";

Error Outcome(std::string kind, std::string message) {
  Error error = Error::Of(ErrorType::kOutcomeUnknown, std::move(message));
  error.extra = json{{kTransportMember, std::move(kind)}};
  return error;
}

std::optional<ErrorType> TypeFromName(std::string_view name) {
  for (int i = 0; i < static_cast<int>(ErrorType::kOutcomeUnknown); ++i) {
    auto type = static_cast<ErrorType>(i);
    if (ErrorTypeName(type) == name) return type;
  }
  return std::nullopt;
}

int StatusOf(const Result<HttpResponse>& response) {
  return response.ok() ? response->status : 0;
}

std::shared_ptr<Clock> OrSystem(std::shared_ptr<Clock> clock) {
  return clock ? std::move(clock) : std::make_shared<SystemClock>();
}

// An IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT"), the Date header ddblab
// stamps with its clock; nullopt for any other text.
std::optional<TimePoint> ParseHttpDate(std::string_view text) {
  static constexpr std::string_view kMonths =
      "JanFebMarAprMayJunJulAugSepOctNovDec";
  if (text.size() != 29 || text.substr(25) != " GMT") return std::nullopt;
  auto number = [&](size_t at, size_t length) -> std::optional<int> {
    int value = 0;
    auto [end, ec] =
        std::from_chars(text.data() + at, text.data() + at + length, value);
    if (ec != std::errc() || end != text.data() + at + length) {
      return std::nullopt;
    }
    return value;
  };
  const size_t month_at = kMonths.find(text.substr(8, 3));
  std::optional<int> day = number(5, 2), year = number(12, 4),
                     hour = number(17, 2), minute = number(20, 2),
                     second = number(23, 2);
  if (month_at == std::string_view::npos || month_at % 3 != 0 || !day ||
      !year || !hour || !minute || !second) {
    return std::nullopt;
  }
  const std::chrono::year_month_day date{
      std::chrono::year(*year),
      std::chrono::month(static_cast<unsigned>(month_at / 3 + 1)),
      std::chrono::day(static_cast<unsigned>(*day))};
  if (!date.ok()) return std::nullopt;
  return TimePoint(std::chrono::sys_days(date).time_since_epoch() +
                   std::chrono::hours(*hour) + std::chrono::minutes(*minute) +
                   std::chrono::seconds(*second));
}

// ddblab's answer to a request dated outside its window (--auth verify).
bool RefusedAsOutOfWindow(const HttpResponse& response) {
  return response.status == 400 &&
         response.body.find("InvalidSignatureException") != std::string::npos &&
         (response.body.find("Signature expired") != std::string::npos ||
          response.body.find("Signature not yet current") != std::string::npos);
}

// The namespace a backend signing with `credentials` in `region` has on a
// server in `mode` (GET /_ddblab/namespaces); empty when shared.
std::string NamespaceOf(const std::string& mode,
                        const AwsCredentials& credentials,
                        const std::string& region) {
  if (mode == "access-key") return credentials.access_key_id;
  if (mode == "access-key+region") {
    return credentials.access_key_id + ":" + region;
  }
  return "";
}

}  // namespace

Result<json> DecodeResponse(const HttpResponse& response) {
  if (const std::string* crc = response.Header("x-amz-crc32")) {
    uLong actual = crc32(0L, Z_NULL, 0);
    actual = crc32(actual, reinterpret_cast<const Bytef*>(response.body.data()),
                   static_cast<uInt>(response.body.size()));
    if (std::to_string(actual) != *crc) {
      return Outcome("crc32", "x-amz-crc32 mismatch: header " + *crc +
                                  ", body " + std::to_string(actual));
    }
  }
  json body;
  if (!response.body.empty()) {
    body = json::parse(response.body, nullptr, /*allow_exceptions=*/false);
  } else if (response.status == 200) {
    body = json::object();
  }
  if (response.status == 200) {
    if (!body.is_object()) {
      return Outcome("malformed", "response body is not a JSON object: " +
                                      response.body.substr(0, 200));
    }
    return body;
  }
  if (!body.is_object() || !body.contains("__type")) {
    Error error =
        Error::Of(response.status >= 500 ? ErrorType::kInternalServerError
                                         : ErrorType::kValidation,
                  "HTTP " + std::to_string(response.status) + ": " +
                      response.body.substr(0, 200));
    error.extra = json{{"HttpStatus", response.status}};
    return error;
  }
  std::string type = body["__type"].is_string()
                         ? body["__type"].get<std::string>()
                         : std::string();
  std::string name = type.substr(type.rfind('#') + 1);
  Error error;
  if (auto known = TypeFromName(name)) {
    error.type = *known;
  } else {
    error.type = ErrorType::kInternalServerError;
    error.extra = json{{"__type", name}};
  }
  for (const auto& [key, value] : body.items()) {
    if (key == "__type") continue;
    if ((key == "message" || key == "Message") && value.is_string()) {
      error.message = value.get<std::string>();
      continue;
    }
    if (!error.extra.is_object()) error.extra = json::object();
    error.extra[key] = value;
  }
  return error;
}

HttpBackend::HttpBackend(HttpBackendConfig config)
    : config_(std::move(config)), retry_(config_.retry) {
  config_.clock = OrSystem(config_.clock);
  if (!config_.signing_clock) config_.signing_clock = config_.server_clock;
  config_.signing_clock = OrSystem(config_.signing_clock);
}

Result<std::unique_ptr<Backend>> HttpBackend::OpenEndpoint(
    const std::string& url, const BackendOptions& options) {
  TransportOptions transport_options{
      options.ca_cert_file, std::chrono::seconds(10), options.read_timeout};
  DDBLAB_ASSIGN_OR_RETURN(std::unique_ptr<BeastTransport> transport,
                          BeastTransport::Open(url, transport_options));
  HttpBackendConfig config;
  config.name = url;
  Result<AwsCredentials> credentials =
      ResolveCredentials(options.environment, options.credentials);
  if (credentials.ok()) {
    config.credentials = *credentials;
  } else {
    config.credentials =
        AwsCredentials{std::string(kLocalAccessKeyId),
                       std::string(kLocalSecret), "", "local default"};
  }
  DDBLAB_ASSIGN_OR_RETURN(std::optional<std::string> region,
                          ResolveRegion(options.environment));
  if (region) config.region = *region;
  config.retry = options.retry;
  config.clock = options.clock;
  // The ddblab probe: a short, unsigned GET.
  TransportOptions probe_options = transport_options;
  probe_options.read_timeout = std::chrono::seconds(5);
  DDBLAB_ASSIGN_OR_RETURN(std::unique_ptr<BeastTransport> probe,
                          BeastTransport::Open(url, probe_options));
  Result<HttpResponse> health = probe->Send({"GET", "/_ddblab/health", {}, {}});
  config.control_token = ControlToken(url, options);
  const bool ddblab = health.ok() && health->status == 200 &&
                      health->body.starts_with("healthy: ");
  config.ddblab_control = ddblab;
  config.dynamodb = std::move(transport);
  if (ddblab) {
    // Until the clock probe answers, sign with the time the health answer
    // was stamped with (the server's clock, manual or not).
    std::optional<TimePoint> stamped;
    if (const std::string* date = health->Header("Date")) {
      stamped = ParseHttpDate(*date);
    }
    config.server_clock =
        std::make_shared<ManualClock>(stamped.value_or(SystemClock().Now()));
  }
  auto backend =
      std::unique_ptr<HttpBackend>(new HttpBackend(std::move(config)));
  if (ddblab) {
    HttpBackendConfig& c = backend->config_;
    Result<json> clock = backend->Control("GET", "/_ddblab/clock", json());
    // A refused probe (no or a wrong control token, --control off) leaves
    // every control capability on, so that using one answers the server's
    // own message instead of a wrong "has no clock control".
    c.ddblab_manual_clock = !clock.ok() || clock->value("mode", "") == "manual";
    if (clock.ok() && clock->value("mode", "") != "manual") {
      // The system clock: sign with the real time, as for any endpoint.
      c.server_clock = nullptr;
      c.signing_clock = std::make_shared<SystemClock>();
    } else if (clock.ok() && clock->contains("now") &&
               (*clock)["now"].is_number()) {
      c.server_clock->Reset(TimePoint(std::chrono::milliseconds(
          std::llround((*clock)["now"].get<double>() * 1000.0))));
    }
    Result<json> namespaces =
        backend->Control("GET", "/_ddblab/namespaces", json());
    if (namespaces.ok()) {
      c.control_namespace = NamespaceOf(namespaces->value("mode", "shared"),
                                        c.credentials, c.region);
    }
  }
  return std::unique_ptr<Backend>(std::move(backend));
}

Result<std::unique_ptr<Backend>> HttpBackend::OpenAws(
    const std::string& region_name, const BackendOptions& options) {
  std::string region = region_name;
  if (region.empty()) {
    DDBLAB_ASSIGN_OR_RETURN(std::optional<std::string> resolved,
                            ResolveRegion(options.environment));
    if (!resolved) {
      return Error::Validation(
          "backend aws: no region (set AWS_REGION or AWS_DEFAULT_REGION, "
          "`region` in ~/.aws/config, or name it: aws:REGION)");
    }
    region = *resolved;
  }
  DDBLAB_ASSIGN_OR_RETURN(
      AwsCredentials credentials,
      ResolveCredentials(options.environment, options.credentials));
  TransportOptions transport_options{
      options.ca_cert_file, std::chrono::seconds(10), options.read_timeout};
  HttpBackendConfig config;
  config.name = "aws:" + region;
  DDBLAB_ASSIGN_OR_RETURN(
      config.dynamodb,
      BeastTransport::Open(DynamoDbEndpoint(region), transport_options));
  DDBLAB_ASSIGN_OR_RETURN(
      config.streams,
      BeastTransport::Open(StreamsEndpoint(region), transport_options));
  config.credentials = std::move(credentials);
  config.region = region;
  config.retry = options.retry;
  config.clock = options.clock;
  return std::unique_ptr<Backend>(new HttpBackend(std::move(config)));
}

Result<json> HttpBackend::Call(std::string_view operation,
                               const json& request) {
  std::string target(kDynamoDbPrefix);
  target += operation;
  return Exchange(*config_.dynamodb, target, request);
}

Result<json> HttpBackend::CallStreams(std::string_view operation,
                                      const json& request) {
  std::string target(kStreamsPrefix);
  target += operation;
  Transport& transport = config_.streams ? *config_.streams : *config_.dynamodb;
  return Exchange(transport, target, request);
}

HttpRequest HttpBackend::SignControl(const Transport& transport,
                                     std::string method, std::string path,
                                     std::string body) const {
  std::string query;
  if (!config_.control_namespace.empty()) {
    query = "namespace=" + sigv4::UriEncode(config_.control_namespace,
                                            /*keep_slash=*/false);
  }
  std::string amz_date = sigv4::FormatAmzDate(config_.signing_clock->Now());
  sigv4::HeaderList signed_headers = {
      {"Host", transport.host_header()},
      {"X-Amz-Date", amz_date},
  };
  // A GET carries no body, and its transport sends no Content-Type.
  if (method != "GET") {
    signed_headers.emplace_back("Content-Type", "application/json");
  }
  if (config_.control_token) {
    signed_headers.emplace_back(std::string(control_token::kHeader),
                                *config_.control_token);
  }
  std::string authorization = sigv4::AuthorizationHeader(
      method, path, query, signed_headers, body,
      config_.credentials.access_key_id, config_.credentials.secret_access_key,
      config_.region, "dynamodb", amz_date);
  HttpRequest request;
  request.method = std::move(method);
  request.path = query.empty() ? std::move(path) : path + "?" + query;
  request.headers = std::move(signed_headers);
  request.headers.emplace_back("Authorization", std::move(authorization));
  request.body = std::move(body);
  return request;
}

HttpRequest HttpBackend::Sign(const Transport& transport,
                              std::string_view target, std::string body) const {
  std::string amz_date = sigv4::FormatAmzDate(config_.signing_clock->Now());
  sigv4::HeaderList signed_headers = {
      {"Host", transport.host_header()},
      {"Content-Type", "application/x-amz-json-1.0"},
      {"X-Amz-Date", amz_date},
      {"X-Amz-Target", std::string(target)},
  };
  if (!config_.credentials.session_token.empty()) {
    signed_headers.emplace_back("X-Amz-Security-Token",
                                config_.credentials.session_token);
  }
  std::string authorization = sigv4::AuthorizationHeader(
      "POST", "/", "", signed_headers, body, config_.credentials.access_key_id,
      config_.credentials.secret_access_key, config_.region, "dynamodb",
      amz_date);
  HttpRequest request;
  request.headers = std::move(signed_headers);
  request.headers.emplace_back("Authorization", std::move(authorization));
  // Compressed responses would need their CRC checked before decoding;
  // like boto3, ask for none.
  request.headers.emplace_back("Accept-Encoding", "identity");
  request.body = std::move(body);
  return request;
}

Result<json> HttpBackend::Exchange(Transport& transport,
                                   std::string_view target,
                                   const json& request) {
  std::string body = request.dump();
  int taken = 0;
  for (int attempt = 1;; ++attempt) {
    Result<HttpResponse> response =
        SendSigned(transport, [&] { return Sign(transport, target, body); });
    Result<json> decoded = response.ok() ? DecodeResponse(*response)
                                         : Result<json>(response.error());
    if (decoded.ok()) {
      retry_.OnSuccess(taken);
      MutexLock lock(mu_);
      last_attempts_ = attempt;
      return decoded;
    }
    FailureKind kind = Classify(decoded.error(), StatusOf(response));
    std::optional<Duration> wait = retry_.NextWait(attempt, kind, &taken);
    if (!wait) {
      MutexLock lock(mu_);
      last_attempts_ = attempt;
      return decoded;
    }
    Wait(*wait);
  }
}

void HttpBackend::FollowDueTime(const HttpResponse& response) {
  // What ddblab serve sends on an answer a latency fault delayed
  // (kDueHeader of the emulator's API, which the harness does not include).
  const std::string* due = response.Header("X-Ddblab-Due");
  auto* manual = dynamic_cast<ManualClock*>(config_.clock.get());
  if (due == nullptr || manual == nullptr) return;
  int64_t ms = 0;
  auto [end, ec] = std::from_chars(due->data(), due->data() + due->size(), ms);
  if (ec != std::errc() || end != due->data() + due->size()) return;
  manual->Set(TimePoint(std::chrono::milliseconds(ms)));  // forward only
}

void HttpBackend::FollowServerClock(const HttpResponse& response) {
  FollowDueTime(response);
  ManualClock* mirror = config_.server_clock.get();
  if (mirror == nullptr) return;
  if (const std::string* due = response.Header("X-Ddblab-Due")) {
    int64_t ms = 0;
    auto [end, ec] =
        std::from_chars(due->data(), due->data() + due->size(), ms);
    if (ec == std::errc() && end == due->data() + due->size()) {
      mirror->Set(TimePoint(std::chrono::milliseconds(ms)));
    }
  }
  const std::string* date = response.Header("Date");
  std::optional<TimePoint> stamped = date ? ParseHttpDate(*date) : std::nullopt;
  if (!stamped) return;
  // The Date is the server's time floored to the second: the mirror moves
  // forward to it, and back only when the server's clock went back (a
  // reset by another caller).
  if (!mirror->Set(*stamped) &&
      *stamped + std::chrono::seconds(1) <= mirror->Now()) {
    mirror->Reset(*stamped);
  }
}

Result<HttpResponse> HttpBackend::SendSigned(
    Transport& transport, const std::function<HttpRequest()>& make) {
  for (int sent = 1;; ++sent) {
    const TimePoint signed_at = config_.signing_clock->Now();
    Result<HttpResponse> response = transport.Send(make());
    if (!response.ok()) return response;
    FollowServerClock(*response);
    if (sent == 2 || config_.server_clock == nullptr ||
        !RefusedAsOutOfWindow(*response) ||
        std::chrono::floor<std::chrono::seconds>(
            config_.signing_clock->Now()) ==
            std::chrono::floor<std::chrono::seconds>(signed_at)) {
      return response;
    }
  }
}

void HttpBackend::Wait(Duration d) {
  {
    MutexLock lock(mu_);
    waits_.push_back(d);
  }
  if (auto* manual = dynamic_cast<ManualClock*>(config_.clock.get())) {
    manual->Advance(d);
    return;
  }
  config_.clock->SleepUntil(config_.clock->Now() + d, std::stop_token());
}

std::vector<Duration> HttpBackend::waits() const {
  MutexLock lock(mu_);
  return waits_;
}

int HttpBackend::last_attempts() const {
  MutexLock lock(mu_);
  return last_attempts_;
}

bool HttpBackend::Has(Capability capability) const {
  if (!config_.ddblab_control) return false;
  switch (capability) {
    case Capability::kClock:
      return config_.ddblab_manual_clock;
    case Capability::kTtlSweep:
    case Capability::kStreamShards:
    case Capability::kFaultPlan:
    case Capability::kReset:
    case Capability::kConsistency:
      return true;
    case Capability::kFaultDraws:
      return false;  // the hook runs in process only
  }
  return false;
}

Status HttpBackend::SetFaultPlan(const json& plan) {
  if (!Has(Capability::kFaultPlan)) return NoControl(Capability::kFaultPlan);
  if (plan.is_null()) {
    DDBLAB_RETURN_IF_ERROR(Control("DELETE", "/_ddblab/faults", json()));
  } else {
    DDBLAB_RETURN_IF_ERROR(Control("POST", "/_ddblab/faults", plan));
  }
  return OkStatus();
}

Status HttpBackend::Reset(const ResetSpec& spec) {
  if (!Has(Capability::kReset)) return NoControl(Capability::kReset);
  if (spec.clock && !Has(Capability::kClock)) {
    return NoControl(Capability::kClock);
  }
  json body = json::object();
  if (spec.clock) {
    const int64_t ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                           spec.clock->time_since_epoch())
                           .count();
    body["clock"] = ms % 1000 == 0 ? json(ms / 1000)
                                   : json(static_cast<double>(ms) / 1000.0);
  }
  if (spec.seed) body["seed"] = *spec.seed;
  if (spec.ttl_delay) body["ttl_delay"] = *spec.ttl_delay;
  if (spec.stream_shards) body["stream_shards"] = *spec.stream_shards;
  if (spec.shard_rollover) {
    const int64_t ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                           *spec.shard_rollover)
                           .count();
    body["shard_rollover"] = ms <= 0 ? "off" : std::to_string(ms) + "ms";
  }
  if (!config_.control_namespace.empty() && body.contains("clock")) {
    // A namespace's reset may not move the clock every namespace shares:
    // move it first (forward only), then reset the namespace.
    if (Status moved = SetClock(*spec.clock); !moved.ok()) {
      Error error = moved.error();
      error.message =
          "the server keeps a namespace per access key, and its "
          "one clock moves forward only: " +
          error.message;
      return error;
    }
    body.erase("clock");
  }
  DDBLAB_RETURN_IF_ERROR(Control("POST", "/_ddblab/reset", body));
  if (spec.clock && config_.server_clock)
    config_.server_clock->Reset(*spec.clock);
  return OkStatus();
}

Result<json> HttpBackend::Control(std::string method, std::string path,
                                  const json& body) {
  const std::string text = body.is_null() ? std::string() : body.dump();
  HttpRequest request;
  DDBLAB_ASSIGN_OR_RETURN(
      HttpResponse response, SendSigned(*config_.dynamodb, [&] {
        request = SignControl(*config_.dynamodb, method, path, text);
        return request;
      }));
  json out = json::parse(response.body, nullptr, false);
  if (response.status != 200) {
    std::string message = out.is_object() && out.contains("message")
                              ? out["message"].get<std::string>()
                              : response.body;
    ErrorType type = ErrorType::kValidation;
    if (out.is_object() && out.contains("type") && out["type"].is_string()) {
      type = TypeFromName(out["type"].get<std::string>()).value_or(type);
    }
    return Error::Of(type, message);
  }
  if (!out.is_object()) {
    return Error::Internal("control " + request.path +
                           " answered a non-JSON body: " + response.body);
  }
  return out;
}

void HttpBackend::FollowClockAnswer(const json& answer) {
  if (config_.server_clock == nullptr || !answer.contains("now") ||
      !answer["now"].is_number()) {
    return;
  }
  config_.server_clock->Set(TimePoint(std::chrono::milliseconds(
      std::llround(answer["now"].get<double>() * 1000.0))));
}

Status HttpBackend::AdvanceClock(Duration d) {
  if (!Has(Capability::kClock)) return NoControl(Capability::kClock);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
  DDBLAB_ASSIGN_OR_RETURN(
      json out, Control("POST", "/_ddblab/clock",
                        json{{"advance", std::to_string(ms) + "ms"}}));
  FollowClockAnswer(out);
  return OkStatus();
}

Status HttpBackend::SetClock(TimePoint t) {
  if (!Has(Capability::kClock)) return NoControl(Capability::kClock);
  DDBLAB_ASSIGN_OR_RETURN(json out, Control("POST", "/_ddblab/clock",
                                            json{{"set", ToEpochSeconds(t)}}));
  FollowClockAnswer(out);
  return OkStatus();
}

Result<json> HttpBackend::SplitStreamShards(
    std::string_view table, const std::optional<std::string>& shard_id) {
  if (!Has(Capability::kStreamShards)) {
    return NoControl(Capability::kStreamShards);
  }
  json body{{"TableName", std::string(table)}};
  if (shard_id) body["ShardId"] = *shard_id;
  return Control("POST", "/_ddblab/streams/split", body);
}

Status HttpBackend::SetConsistency(const json& settings) {
  if (!Has(Capability::kConsistency)) {
    return NoControl(Capability::kConsistency);
  }
  DDBLAB_RETURN_IF_ERROR(Control("POST", "/_ddblab/consistency", settings));
  return OkStatus();
}

Result<int64_t> HttpBackend::SettleConsistency() {
  if (!Has(Capability::kConsistency)) {
    return NoControl(Capability::kConsistency);
  }
  DDBLAB_ASSIGN_OR_RETURN(
      json out, Control("POST", "/_ddblab/consistency/settle", json()));
  return out.value("settled", int64_t{0});
}

Result<int64_t> HttpBackend::SweepTtl() {
  if (!Has(Capability::kTtlSweep)) return NoControl(Capability::kTtlSweep);
  DDBLAB_ASSIGN_OR_RETURN(json out,
                          Control("POST", "/_ddblab/ttl/sweep", json()));
  return out.value("deleted", int64_t{0});
}

}  // namespace ddblab::harness
