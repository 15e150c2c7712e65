// emulator/engine/ops/transact_tokens.h: the idempotency store of
// TransactWriteItems ClientRequestTokens (the DynamoDB API reference, DG
// transaction-apis "Idempotency").
//
// A successful TransactWriteItems with a token is remembered for 10 minutes
// of the engine clock after it completed: the same token with the same
// TransactItems replays the stored response with no side effects; with
// other TransactItems it is an IdempotentParameterMismatchException. Failed
// transactions are not remembered (a retry runs again). Expired entries are
// dropped lazily on each lookup.
//
// Ownership: one store per emulator, captured by the TransactWriteItems
// handler (ops_transact.cc). Thread-safety: not thread-safe; use it with
// the engine lock held.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "emulator/api/clock.h"
#include "emulator/api/result.h"

namespace ddblab::engine {

inline constexpr Duration kIdempotencyWindow = std::chrono::minutes(10);

class TransactTokens {
 public:
  struct Entry {
    nlohmann::json items;     // the TransactItems of the first request
    nlohmann::json response;  // its response, without ConsumedCapacity
    nlohmann::json tables;    // [[table name as given, item count], ...]
    TimePoint completed;
  };

  // The stored entry for `token` if it is still within the window and was
  // made with the same `items`; IdempotentParameterMismatchException if the
  // items differ; nullopt if unknown or expired.
  Result<std::optional<Entry>> Find(const std::string& token,
                                    const nlohmann::json& items, TimePoint now);

  void Remember(const std::string& token, Entry entry);

  size_t size() const { return entries_.size(); }

 private:
  void Expire(TimePoint now);

  std::map<std::string, Entry> entries_;
};

}  // namespace ddblab::engine
