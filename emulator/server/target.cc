// X-Amz-Target parsing (see target.h); the names of the service models are
// the one list of emulator/api/operation.h.
#include "emulator/server/target.h"

#include "emulator/api/operation.h"

namespace ddblab::server {

bool IsKnownOperation(Service service, std::string_view op) {
  return InApiModel(service == Service::kDynamoDB ? OperationApi::kDynamoDb
                                                  : OperationApi::kStreams,
                    op);
}

std::optional<Target> ParseTarget(std::string_view header) {
  size_t dot = header.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  std::string_view prefix = header.substr(0, dot);
  std::string_view op = header.substr(dot + 1);
  Service service;
  if (prefix == kDynamoDbPrefix) {
    service = Service::kDynamoDB;
  } else if (prefix == kStreamsPrefix) {
    service = Service::kStreams;
  } else {
    return std::nullopt;
  }
  if (!IsKnownOperation(service, op)) return std::nullopt;
  return Target{service, op};
}

}  // namespace ddblab::server
