// cli/control_esm.cc: hosted event source mappings in `ddblab serve` (see
// control_esm.h).
#include "cli/control_esm.h"

#include <memory>
#include <utility>

#include "cli/emulator_handler.h"
#include "harness/backend/inprocess_backend.h"
#include "harness/consumer/host.h"

namespace ddblab::cli {
namespace {

using harness::consumer::EsmHost;
using harness::consumer::json;

// The backend must outlive the host, which reads through it.
struct HostedMappings {
  explicit HostedMappings(Emulator& emulator, uint64_t seed)
      : backend(harness::BorrowEmulator(emulator)), host(*backend, seed) {}
  std::unique_ptr<harness::Backend> backend;
  EsmHost host;
};

server::WireResponse ToWire(const EsmHost::Response& answer) {
  server::WireResponse response;
  response.status = answer.status;
  response.content_type = "application/json";
  response.body = answer.body.dump();
  return response;
}

}  // namespace

Status AddEsmRoutes(Emulator& emulator, server::Protocol& protocol,
                    const std::vector<json>& mappings,
                    const std::string& source, uint64_t seed,
                    bool allow_functions) {
  auto hosted = std::make_shared<HostedMappings>(emulator, seed);
  hosted->host.AllowApiFunctions(allow_functions);
  DDBLAB_RETURN_IF_ERROR(hosted->host.LoadMappings(mappings, source));
  server::ControlExtensions& extensions = protocol.extensions();
  DDBLAB_RETURN_IF_ERROR(extensions.AddPrefixRoute(
      std::string(kEsmRoutePrefix),
      [hosted](const server::WireRequest& request) {
        return ToWire(
            hosted->host.Handle(request.method, request.path, request.body));
      }));
  // On a manual clock delivery happens only here (and on .../run), so a
  // test sees the same invocations on every run.
  extensions.AddAfterClockMove([hosted] { hosted->host.RunDue(); });
  if (dynamic_cast<ManualClock*>(&emulator.clock()) == nullptr) {
    hosted->host.Start();
  }
  extensions.AddOnReset(
      [hosted](uint64_t new_seed) { hosted->host.Clear(new_seed); });
  extensions.AddOnStop([hosted] { hosted->host.Stop(); });
  return OkStatus();
}

Status AddEsmControl(const ServeConfig& config, server::ServeHooks& hooks) {
  std::vector<json> mappings;
  const std::string& file = config.event_source_mappings_file;
  if (!file.empty()) {
    // Checked here so that a bad file stops the server before it binds.
    auto read = harness::consumer::ReadMappingsFile(file);
    if (!read.ok()) {
      return Error::Validation("--event-source-mappings: " +
                               read.error().message);
    }
    mappings = std::move(read).value();
  }
  AddEngineRoutes(hooks, "the event source mapping routes",
                  [mappings = std::move(mappings), file, seed = config.seed,
                   allow = config.allow_functions](Emulator& emulator,
                                                   server::Protocol& protocol) {
                    return AddEsmRoutes(emulator, protocol, mappings, file,
                                        seed, allow);
                  });
  return OkStatus();
}

}  // namespace ddblab::cli
