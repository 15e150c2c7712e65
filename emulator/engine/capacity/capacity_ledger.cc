// emulator/engine/capacity/capacity_ledger.cc: one call's account with the
// capacity model (capacity_ledger.h).
#include "emulator/engine/capacity/capacity_ledger.h"

#include <algorithm>
#include <utility>

#include "emulator/engine/capacity/capacity.h"
#include "emulator/fault/throttle.h"

namespace ddblab::engine {

using Json = nlohmann::json;

Status CapacityLedger::Admit(const Table& table,
                             std::vector<CapacityCharge> charges) {
  if (model_ == nullptr) return OkStatus();
  for (CapacityCharge& c : charges) c.units *= factor_;
  DDBLAB_RETURN_IF_ERROR(Take(table, charges));
  taken_.push_back({table.id, std::move(charges)});
  return OkStatus();
}

Status CapacityLedger::Take(const Table& table,
                            const std::vector<CapacityCharge>& charges) {
  std::optional<CapacityRejection> rejection =
      model_->Admit(table, charges, now_);
  if (!rejection) return OkStatus();
  Error error =
      fault::ThroughputThrottle(rejection->on_demand, rejection->causes);
  rejection_ = std::move(rejection);
  return error;
}

Status CapacityLedger::ChargeFailedCondition(const Table& table,
                                             const std::string& pk, bool exists,
                                             int64_t old_size, int64_t new_size,
                                             Status check) {
  if (model_ == nullptr || check.ok() ||
      check.error().type != ErrorType::kConditionalCheckFailed) {
    return check;
  }
  // DynamoDB's guides name the existing item's size in one place and the new
  // item's in another: the larger of the two is charged.
  const double units = exists ? WriteUnits(std::max(old_size, new_size)) : 1;
  std::vector<CapacityCharge> charges{{0, true, pk, units * factor_}};
  DDBLAB_RETURN_IF_ERROR(Take(table, charges));
  return check;  // kept: not in `taken_`, so never refunded
}

bool CapacityLedger::IsThrottle(const Error& error) const {
  return model_ != nullptr && rejection_ &&
         (error.type == ErrorType::kProvisionedThroughputExceeded ||
          error.type == ErrorType::kThrottling);
}

Error CapacityLedger::Cancellation(size_t actions, size_t throttled) const {
  Json reasons = Json::array();
  for (size_t i = 0; i < actions; ++i) {
    if (i == throttled && rejection_ && !rejection_->causes.empty()) {
      reasons.push_back(fault::ThrottleCancellationReason(
          rejection_->on_demand, rejection_->causes.front()));
    } else {
      reasons.push_back({{"Code", "None"}});
    }
  }
  return fault::TransactionCancelled(std::move(reasons));
}

void CapacityLedger::RefundAll() {
  if (model_ == nullptr) return;
  for (const Taken& t : taken_) model_->Refund(t.table_id, t.charges, now_);
  taken_.clear();
}

}  // namespace ddblab::engine
