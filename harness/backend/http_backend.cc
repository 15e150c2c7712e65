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
  config_.signing_clock = OrSystem(config_.signing_clock);
}

Result<std::unique_ptr<Backend>> HttpBackend::OpenEndpoint(
    const std::string& url, const BackendOptions& options) {
  TransportOptions transport_options{
      options.ca_cert_file, std::chrono::seconds(10), options.read_timeout};
  DDBLAB_ASSIGN_OR_RETURN(std::unique_ptr<HttplibTransport> transport,
                          HttplibTransport::Open(url, transport_options));
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
  DDBLAB_ASSIGN_OR_RETURN(std::unique_ptr<HttplibTransport> probe,
                          HttplibTransport::Open(url, probe_options));
  Result<HttpResponse> health = probe->Send({"GET", "/_ddblab/health", {}, {}});
  config.control_token = ControlToken(url, options);
  const bool ddblab = health.ok() && health->status == 200 &&
                      health->body.starts_with("healthy: ");
  config.ddblab_control = ddblab;
  config.dynamodb = std::move(transport);
  auto backend =
      std::unique_ptr<HttpBackend>(new HttpBackend(std::move(config)));
  if (ddblab) {
    Result<json> clock = backend->Control("GET", "/_ddblab/clock", json());
    // A refused probe (no or a wrong control token, --control off) leaves
    // every control capability on, so that using one answers the server's
    // own message instead of a wrong "has no clock control".
    backend->config_.ddblab_manual_clock =
        !clock.ok() || clock->value("mode", "") == "manual";
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
      HttplibTransport::Open(DynamoDbEndpoint(region), transport_options));
  DDBLAB_ASSIGN_OR_RETURN(
      config.streams,
      HttplibTransport::Open(StreamsEndpoint(region), transport_options));
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
      method, path, "", signed_headers, body, config_.credentials.access_key_id,
      config_.credentials.secret_access_key, config_.region, "dynamodb",
      amz_date);
  HttpRequest request;
  request.method = std::move(method);
  request.path = std::move(path);
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
        transport.Send(Sign(transport, target, body));
    if (response.ok()) FollowDueTime(*response);
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
  DDBLAB_RETURN_IF_ERROR(Control("POST", "/_ddblab/reset", body));
  return OkStatus();
}

Result<json> HttpBackend::Control(std::string method, std::string path,
                                  const json& body) {
  HttpRequest request =
      SignControl(*config_.dynamodb, std::move(method), std::move(path),
                  body.is_null() ? std::string() : body.dump());
  DDBLAB_ASSIGN_OR_RETURN(HttpResponse response,
                          config_.dynamodb->Send(request));
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

Status HttpBackend::AdvanceClock(Duration d) {
  if (!Has(Capability::kClock)) return NoControl(Capability::kClock);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
  DDBLAB_RETURN_IF_ERROR(Control("POST", "/_ddblab/clock",
                                 json{{"advance", std::to_string(ms) + "ms"}}));
  return OkStatus();
}

Status HttpBackend::SetClock(TimePoint t) {
  if (!Has(Capability::kClock)) return NoControl(Capability::kClock);
  DDBLAB_RETURN_IF_ERROR(
      Control("POST", "/_ddblab/clock", json{{"set", ToEpochSeconds(t)}}));
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
