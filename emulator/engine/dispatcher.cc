#include "emulator/engine/dispatcher.h"

#include <utility>

#include "emulator/engine/ops_partiql.h"

namespace ddblab::engine {

void Dispatcher::Register(std::string operation, Handler handler) {
  handlers_[std::move(operation)] = std::move(handler);
}

const Handler* Dispatcher::Find(std::string_view operation) const {
  auto it = handlers_.find(operation);
  return it == handlers_.end() ? nullptr : &it->second;
}

Result<nlohmann::json> Dispatcher::Dispatch(
    EmulatorImpl& impl, std::string_view operation,
    const nlohmann::json& request) const {
  const Handler* handler = Find(operation);
  if (handler == nullptr) return Error::Of(ErrorType::kUnknownOperation, "");
  return (*handler)(impl, request);
}

std::vector<std::string> Dispatcher::Operations() const {
  std::vector<std::string> out;
  for (const auto& [name, handler] : handlers_) out.push_back(name);
  return out;
}

void RegisterAllOps(Dispatcher& dynamodb, Dispatcher& streams) {
  RegisterTableOps(dynamodb);
  RegisterItemOps(dynamodb);
  RegisterTransactOps(dynamodb);
  RegisterQueryOps(dynamodb);
  RegisterPartiqlOps(dynamodb);
  RegisterBatchOps(dynamodb);
  // Later families: RegisterBatchOps(dynamodb);
  // RegisterTransactOps(dynamodb); RegisterStreamsOps(streams); ...
  RegisterStreamsOps(streams);
}

}  // namespace ddblab::engine
