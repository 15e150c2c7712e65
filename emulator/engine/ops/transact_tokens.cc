#include "emulator/engine/ops/transact_tokens.h"

#include <utility>

namespace ddblab::engine {

void TransactTokens::Expire(TimePoint now) {
  for (auto it = entries_.begin(); it != entries_.end();) {
    if (now - it->second.completed >= kIdempotencyWindow) {
      it = entries_.erase(it);
    } else {
      ++it;
    }
  }
}

Result<std::optional<TransactTokens::Entry>> TransactTokens::Find(
    const std::string& token, const nlohmann::json& items, TimePoint now) {
  Expire(now);
  auto it = entries_.find(token);
  if (it == entries_.end()) return std::optional<Entry>();
  if (it->second.items != items) {
    return Error::Of(ErrorType::kIdempotentParameterMismatch,
                     "Request with the same client token was already used "
                     "with different parameters");
  }
  return std::optional<Entry>(it->second);
}

void TransactTokens::Remember(const std::string& token, Entry entry) {
  entries_.insert_or_assign(token, std::move(entry));
}

}  // namespace ddblab::engine
