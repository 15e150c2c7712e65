// The capacity report endpoint of `ddblab serve` (control_capacity.h).
#include "emulator/server/control_capacity.h"

#include <nlohmann/json.hpp>

namespace ddblab::server {

Status AddCapacityRoutes(Emulator& emulator, Protocol& protocol) {
  Emulator* e = &emulator;
  return protocol.AddRoute("GET", "/_ddblab/capacity", [e](const WireRequest&) {
    WireResponse response;
    response.status = 200;
    response.content_type = "application/json";
    response.body = e->CapacityReport().dump();
    return response;
  });
}

}  // namespace ddblab::server
