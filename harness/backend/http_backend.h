// harness/backend/http_backend.h: a DynamoDB client over HTTP(S).
//
// Speaks DynamoDB's JSON 1.0 protocol to any endpoint: `ddblab serve`,
// DynamoDB Local, Amazon DynamoDB. Every request is signed with SigV4
// (service "dynamodb" for DynamoDB and Streams alike, common/sigv4),
// x-amz-crc32 is checked on every response that carries it, and failed
// attempts are retried by RetryPolicy (retry_policy.h). Retry waits go
// through the backend's Clock: on a ManualClock they advance it (nothing
// sleeps) and every wait is recorded (waits()), so tests assert them.
//
// Against ddblab (GET /_ddblab/health answers "healthy: ..."), the control
// endpoints give the optional controls: the clock (when the server runs
// --clock manual), TTL sweeps, stream shard splits, fault plans, reset
// (POST /_ddblab/reset) and the consistency model (/_ddblab/consistency).
// On a server with a namespace per access key (serve --namespace
// access-key[+region]) every control call names the backend's own namespace
// (?namespace=KEY or KEY:REGION, from GET /_ddblab/namespaces at open).
// Unless its clock is the system clock (GET /_ddblab/clock), requests to
// ddblab are signed with the server's clock, as --auth verify checks them:
// a mirror set at open, moved by this backend's clock calls, and following
// each answer's Date header (one re-signed attempt when a request was
// refused as out of the date window because another caller moved it).
//
// Thread-safety: Call/CallStreams may run concurrently (the transports
// serialise on their connection); waits() and the retry quota are guarded.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "emulator/api/mutex.h"
#include "emulator/api/thread_annotations.h"
#include "harness/backend/aws_config.h"
#include "harness/backend/backend.h"
#include "harness/backend/http_transport.h"
#include "harness/backend/retry_policy.h"

namespace ddblab::harness {

struct HttpBackendConfig {
  std::string name;
  std::unique_ptr<Transport> dynamodb;
  // Null: Streams calls use the DynamoDB transport (ddblab, DynamoDB Local).
  std::unique_ptr<Transport> streams;
  AwsCredentials credentials;
  std::string region = "us-east-1";
  RetryPolicy retry;
  // Times retry waits; null: a SystemClock.
  std::shared_ptr<Clock> clock;
  // The X-Amz-Date of signatures; null: a SystemClock (signatures need the
  // real time), or server_clock when set.
  std::shared_ptr<Clock> signing_clock;
  // ddblab serve with a manual (or unknown) clock: the mirror of its clock
  // that signatures use (set by OpenEndpoint).
  std::shared_ptr<ManualClock> server_clock;
  // ddblab serve --namespace access-key[+region]: this backend's namespace
  // ("KEY" or "KEY:REGION"), sent as ?namespace= on control calls; empty
  // on a shared server.
  std::string control_namespace;
  // Use the ddblab control endpoints (set by Open after the health probe).
  bool ddblab_control = false;
  bool ddblab_manual_clock = false;
  // Sent as X-Ddblab-Token on control calls, when known.
  std::optional<std::string> control_token;
};

class HttpBackend final : public Backend {
 public:
  explicit HttpBackend(HttpBackendConfig config);

  // Opens `url` (http[s]://host[:port]): credentials from the chain (a
  // fixed local key pair when none is configured, since local endpoints
  // accept any), region from the chain (default us-east-1), and the ddblab
  // probe.
  static Result<std::unique_ptr<Backend>> OpenEndpoint(
      const std::string& url, const BackendOptions& options);
  // Opens Amazon DynamoDB in `region` (empty: from the chain). Credentials
  // are required.
  static Result<std::unique_ptr<Backend>> OpenAws(
      const std::string& region, const BackendOptions& options);

  const std::string& name() const override { return config_.name; }
  Result<json> Call(std::string_view operation, const json& request) override;
  Result<json> CallStreams(std::string_view operation,
                           const json& request) override;
  Clock& clock() override { return *config_.clock; }

  bool Has(Capability capability) const override;
  Status AdvanceClock(Duration d) override;
  Status SetClock(TimePoint t) override;
  Result<json> SplitStreamShards(
      std::string_view table,
      const std::optional<std::string>& shard_id) override;
  Result<int64_t> SweepTtl() override;
  // POST /_ddblab/faults (a null plan: DELETE).
  Status SetFaultPlan(const json& plan) override;
  // POST /_ddblab/reset with the members `spec` sets.
  Status Reset(const ResetSpec& spec) override;
  // POST /_ddblab/consistency, POST /_ddblab/consistency/settle.
  Status SetConsistency(const json& settings) override;
  Result<int64_t> SettleConsistency() override;

  // Every retry wait so far, in order.
  std::vector<Duration> waits() const;
  // Attempts made by the last finished call (any thread).
  int last_attempts() const;
  const RetryState& retry_state() const { return retry_; }
  const AwsCredentials& credentials() const { return config_.credentials; }
  const std::string& region() const { return config_.region; }

 private:
  Result<json> Exchange(Transport& transport, std::string_view target,
                        const json& request);
  HttpRequest Sign(const Transport& transport, std::string_view target,
                   std::string body) const;
  // A control request (/_ddblab/...): JSON, the control token, and signed
  // like a DynamoDB request (ddblab serve --auth verify checks it).
  HttpRequest SignControl(const Transport& transport, std::string method,
                          std::string path, std::string body) const;
  // A latency fault's answer on a manual clock moved the server's clock to
  // its due time (header X-Ddblab-Due): a manual mirror follows.
  void FollowDueTime(const HttpResponse& response);
  // The server clock mirror follows the answer's Date (and due time).
  void FollowServerClock(const HttpResponse& response);
  // Sends make()'s request; when ddblab refused it as outside its date
  // window and the answer moved the server clock mirror, sends it once more
  // signed anew.
  Result<HttpResponse> SendSigned(Transport& transport,
                                  const std::function<HttpRequest()>& make);
  // A POST /_ddblab/clock answer's "now": the mirror moves to it.
  void FollowClockAnswer(const json& answer);
  void Wait(Duration d);
  Result<json> Control(std::string method, std::string path, const json& body);

  HttpBackendConfig config_;
  RetryState retry_;
  mutable Mutex mu_;
  std::vector<Duration> waits_ DDBLAB_GUARDED_BY(mu_);
  int last_attempts_ DDBLAB_GUARDED_BY(mu_) = 0;
};

// Decodes one DynamoDB response: the body of a 200 (an empty body is {}),
// or the Error of an error body ("__type" after its last '#', "message" or
// "Message", other members in Error::extra; a name outside ErrorType keeps
// its type as InternalServerError with extra "__type" = the name). A wrong
// x-amz-crc32 or an unparseable body is kOutcomeUnknown.
Result<json> DecodeResponse(const HttpResponse& response);

}  // namespace ddblab::harness
