// The capacity report endpoint of `ddblab serve` (control_capacity.h).
#include "cli/control_capacity.h"

#include "cli/control_response.h"

namespace ddblab::server {

Status AddCapacityRoutes(Emulator& emulator, Protocol& protocol) {
  Emulator* e = &emulator;
  return protocol.AddRoute("GET", "/_ddblab/capacity", [e](const WireRequest&) {
    return ControlJson(200, e->CapacityReport());
  });
}

}  // namespace ddblab::server
