// The JSON answers of the control endpoints (control_response.h).
#include "cli/control_response.h"

#include <string>

namespace ddblab::server {

WireResponse ControlJson(int status, const nlohmann::json& body) {
  WireResponse response;
  response.status = status;
  response.content_type = "application/json";
  response.body = body.dump();
  return response;
}

WireResponse ControlError(const Error& error) {
  return ControlJson(400, nlohmann::json{{"type", std::string(error.Name())},
                                         {"message", error.message}});
}

}  // namespace ddblab::server
