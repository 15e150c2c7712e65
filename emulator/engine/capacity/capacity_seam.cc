// emulator/engine/capacity/capacity_seam.cc: the per-call context of capacity
// enforcement (capacity_seam.h).
#include "emulator/engine/capacity/capacity_seam.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "emulator/engine/capacity/capacity.h"
#include "emulator/engine/emulator_impl.h"
#include "emulator/fault/throttle.h"

namespace ddblab::engine {
namespace {

using Json = nlohmann::json;

struct Taken {
  int64_t table_id;
  std::vector<CapacityCharge> charges;
};

struct CapacityCall {
  CapacityModel* model = nullptr;
  TimePoint now{};
  double factor = 1;                           // 2 in transactions
  std::vector<Taken> taken;                    // given back if the call fails
  std::optional<CapacityRejection> rejection;  // the last one
};

thread_local CapacityCall* t_call = nullptr;

class CallScope {
 public:
  explicit CallScope(CapacityCall& c) : previous_(t_call) { t_call = &c; }
  ~CallScope() { t_call = previous_; }
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;

 private:
  CapacityCall* previous_;
};

}  // namespace

Result<Json> CallWithCapacity(EmulatorImpl& impl, std::string_view operation,
                              const std::function<Result<Json>()>& run) {
  CapacityCall call;
  call.model = impl.capacity();
  call.now = impl.Now();
  if (operation == "TransactWriteItems" || operation == "TransactGetItems" ||
      operation == "ExecuteTransaction") {
    call.factor = 2;
  }
  Result<Json> answer = [&] {
    CallScope scope(call);
    return run();
  }();
  if (!answer.ok()) {
    for (const Taken& t : call.taken) {
      call.model->Refund(t.table_id, t.charges, call.now);
    }
  }
  return answer;
}

bool CapacityEnforced() { return t_call != nullptr; }

Status AdmitCapacity(const Table& table, std::vector<CapacityCharge> charges) {
  CapacityCall* call = t_call;
  if (call == nullptr) return OkStatus();
  for (CapacityCharge& c : charges) c.units *= call->factor;
  std::optional<CapacityRejection> rejection =
      call->model->Admit(table, charges, call->now);
  if (rejection) {
    Error error =
        fault::ThroughputThrottle(rejection->on_demand, rejection->causes);
    call->rejection = std::move(rejection);
    return error;
  }
  call->taken.push_back({table.id, std::move(charges)});
  return OkStatus();
}

Status ChargeFailedCondition(const Table& table, const std::string& pk,
                             bool exists, int64_t old_size, int64_t new_size,
                             Status check) {
  CapacityCall* call = t_call;
  if (call == nullptr || check.ok() ||
      check.error().type != ErrorType::kConditionalCheckFailed) {
    return check;
  }
  // DynamoDB's guides name the existing item's size in one place and the new
  // item's in another: the larger of the two is charged.
  const double units = exists ? WriteUnits(std::max(old_size, new_size)) : 1;
  std::vector<CapacityCharge> charges{{0, true, pk, units * call->factor}};
  std::optional<CapacityRejection> rejection =
      call->model->Admit(table, charges, call->now);
  if (rejection) {
    Error error =
        fault::ThroughputThrottle(rejection->on_demand, rejection->causes);
    call->rejection = std::move(rejection);
    return error;
  }
  return check;  // kept: not in `taken`, so never refunded
}

bool IsCapacityThrottle(const Error& error) {
  return t_call != nullptr && t_call->rejection &&
         (error.type == ErrorType::kProvisionedThroughputExceeded ||
          error.type == ErrorType::kThrottling);
}

Error CapacityCancellation(size_t actions, size_t throttled) {
  Json reasons = Json::array();
  for (size_t i = 0; i < actions; ++i) {
    if (i == throttled && t_call != nullptr && t_call->rejection &&
        !t_call->rejection->causes.empty()) {
      reasons.push_back(fault::ThrottleCancellationReason(
          t_call->rejection->on_demand, t_call->rejection->causes.front()));
    } else {
      reasons.push_back({{"Code", "None"}});
    }
  }
  return fault::TransactionCancelled(std::move(reasons));
}

}  // namespace ddblab::engine
