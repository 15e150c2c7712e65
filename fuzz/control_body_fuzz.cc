// fuzz/control_body_fuzz.cc: libFuzzer target for the control-plane bodies.
//
// The first byte picks the parser, the rest is the body:
//   0: a fault plan (fault::ParsePlanText); a plan that parses must print
//      (PlanToJson) to a document that parses again;
//   1: POST /_ddblab/clock through a Protocol with the TTL routes
//      (cli/control_ttl.h AddTtlRoutes) on a fresh in-memory Emulator on a
//      ManualClock, so every input starts at 2024-01-01T00:00:00Z; the
//      answer must be 200 or 400, never a 500;
//   2: POST /_ddblab/event-source-mappings (create) to a fresh EsmHost on an
//      in-process backend; the answer must be 202, 400 or 404;
//   3: consistency settings (Emulator::SetConsistency, what POST
//      /_ddblab/consistency applies) on a fresh Emulator: a body that is JSON
//      is applied or refused with a ValidationException; once applied, the
//      status's lags and tables, applied again, change nothing.
// Nothing here can run a command or call a URL: a hosted mapping invokes its
// Function only from RunDue (POST .../run, the delivery thread of Start(),
// or a clock move with the mapping routes registered), and this target never
// calls run, never starts the host and registers no mapping routes with the
// clock. Any other outcome aborts.
//
//   ./build-fuzz/fuzz/control_body_fuzz -max_total_time=60 \
//       fuzz-corpus/control_body fuzz/corpus/control_body
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>

#include "cli/control_ttl.h"
#include "emulator/api/clock.h"
#include "emulator/api/emulator.h"
#include "emulator/fault/plan.h"
#include "emulator/server/authenticator.h"
#include "emulator/server/logger.h"
#include "emulator/server/protocol.h"
#include "emulator/server/request_handler.h"
#include "harness/backend/inprocess_backend.h"
#include "harness/consumer/host.h"

namespace {

void Check(bool ok) {
  if (!ok) std::abort();
}

class EmptyHandler : public ddblab::server::RequestHandler {
 public:
  ddblab::Result<nlohmann::json> Call(std::string_view,
                                      const nlohmann::json&) override {
    return nlohmann::json::object();
  }
  ddblab::Result<nlohmann::json> CallStreams(std::string_view,
                                             const nlohmann::json&) override {
    return nlohmann::json::object();
  }
};

std::unique_ptr<ddblab::Emulator> OpenEmulator() {
  ddblab::Options options;
  options.clock = std::make_shared<ddblab::ManualClock>();
  options.seed = 7;
  auto emulator = ddblab::Emulator::Open(std::move(options));
  Check(emulator.ok());
  return std::move(emulator).value();
}

void FuzzPlan(std::string_view body) {
  auto plan = ddblab::fault::ParsePlanText(body);
  if (!plan.ok()) return;
  Check(ddblab::fault::ParsePlan(ddblab::fault::PlanToJson(*plan)).ok());
}

void FuzzClock(std::string_view body) {
  std::unique_ptr<ddblab::Emulator> emulator = OpenEmulator();
  std::ostream log(nullptr);  // no buffer: discards
  ddblab::server::Logger logger(ddblab::server::LogLevel::kError, log);
  ddblab::server::Authenticator authenticator({}, emulator->clock());
  EmptyHandler handler;
  ddblab::server::Protocol protocol(handler, authenticator, emulator->clock(),
                                    logger, {});
  Check(ddblab::cli::AddTtlRoutes(*emulator, protocol).ok());
  ddblab::server::WireRequest request;
  request.method = "POST";
  request.path = "/_ddblab/clock";
  request.headers = {{"Content-Type", "application/json"}};
  request.body = body;
  const ddblab::server::WireResponse response = protocol.Handle(request);
  Check(response.status == 200 || response.status == 400);
}

void FuzzEsmCreate(std::string_view body) {
  static ddblab::Emulator* emulator = OpenEmulator().release();
  static ddblab::harness::Backend* backend =
      ddblab::harness::BorrowEmulator(*emulator).release();
  // A fresh host per input: mappings do not pile up. Only create is called.
  ddblab::harness::consumer::EsmHost host(*backend);
  const auto answer =
      host.Handle("POST", "/_ddblab/event-source-mappings", body);
  Check(answer.status == 202 || answer.status == 400 || answer.status == 404);
}

void FuzzConsistency(std::string_view body) {
  nlohmann::json settings = nlohmann::json::parse(body, nullptr, false);
  if (settings.is_discarded()) return;
  std::unique_ptr<ddblab::Emulator> emulator = OpenEmulator();
  ddblab::Status applied = emulator->SetConsistency(settings);
  if (!applied.ok()) {
    Check(applied.error().type == ddblab::ErrorType::kValidation);
    return;
  }
  nlohmann::json status = emulator->ConsistencyStatus();
  status.erase("pending");
  Check(emulator->SetConsistency(status).ok());
  nlohmann::json again = emulator->ConsistencyStatus();
  again.erase("pending");
  Check(again == status);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view body(reinterpret_cast<const char*>(data) + 1,
                              size - 1);
  switch (data[0] % 4) {
    case 0:
      FuzzPlan(body);
      break;
    case 1:
      FuzzClock(body);
      break;
    case 2:
      FuzzEsmCreate(body);
      break;
    default:
      FuzzConsistency(body);
      break;
  }
  return 0;
}
