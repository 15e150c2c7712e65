// The JSON answers of the control endpoints (control_response.h).
#include "cli/control_response.h"

#include <chrono>
#include <cstdint>
#include <string>

namespace ddblab::cli {

server::WireResponse ControlJson(int status, const nlohmann::json& body) {
  server::WireResponse response;
  response.status = status;
  response.content_type = "application/json";
  response.body = body.dump();
  return response;
}

server::WireResponse ControlError(const Error& error) {
  return ControlJson(400, nlohmann::json{{"type", std::string(error.Name())},
                                         {"message", error.message}});
}

nlohmann::json EpochJson(TimePoint t) {
  constexpr int64_t kNanosPerSecond = 1'000'000'000;
  int64_t ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch())
          .count();
  if (ns % kNanosPerSecond == 0) return ns / kNanosPerSecond;
  return ToEpochSecondsDouble(t);
}

}  // namespace ddblab::cli
