// Dispatcher: one API's view of the operation table (see dispatcher.h).
#include "emulator/engine/dispatcher.h"

#include <algorithm>

#include "emulator/engine/call_context.h"

namespace ddblab::engine {

Dispatcher::Dispatcher(Api api) {
  for (const OpEntry& entry : OperationTable()) {
    if (InfoOf(entry.operation).api == api) {
      handlers_[static_cast<size_t>(entry.operation)] = entry.handler;
    }
  }
}

Result<nlohmann::json> Dispatcher::Dispatch(
    EmulatorImpl& impl, CallContext& call,
    const nlohmann::json& request) const {
  OpHandler handler = Find(call.operation);
  if (handler == nullptr) return Error::Of(ErrorType::kUnknownOperation, "");
  // Every request of both APIs passes here once (PartiQL's statements do
  // not: they run the typed operations directly, with the same context).
  return handler(impl, call, request);
}

std::vector<std::string> Dispatcher::Operations() const {
  std::vector<std::string> out;
  for (size_t i = 0; i < kOperationCount; ++i) {
    if (handlers_[i] != nullptr) {
      out.emplace_back(NameOf(static_cast<Operation>(i)));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace ddblab::engine
