// The errors faults answer with (injector.h: ImmediateError, OutcomeUnknown).
//
// Texts are DynamoDB's as recorded from real responses and the API model:
// ProvisionedThroughputExceededException (provisioned tables) and
// ThrottlingException with the hot-key text (on-demand tables, reason
// *KeyRangeThroughputExceeded — DynamoDB's choice between the two for
// key-range throttles is not documented; we follow the table's mode),
// control-plane "Rate exceeded", RequestLimitExceeded, InternalServerError,
// TransactionConflict(Exception), and the Streams iterator errors.
#include <string>
#include <utility>

#include "emulator/fault/injector.h"
#include "emulator/fault/throttle.h"

namespace ddblab::fault {
namespace {

using Json = nlohmann::json;

constexpr char kProvisionedMessage[] =
    "The level of configured provisioned throughput for the table was "
    "exceeded. Consider increasing your provisioning level with the "
    "UpdateTable API.";
constexpr char kOnDemandMessage[] =
    "Throughput exceeds the current capacity of your table or index. DynamoDB "
    "is automatically scaling your table or index so please try again "
    "shortly. If exceptions persist, check if you have a hot key: "
    "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/"
    "bp-partition-key-design.html";
// DynamoDB's texts for a global secondary index short of capacity: the
// provisioned one as captured (no final period), the on-demand one as the
// API model documents the transaction cancellation reason.
constexpr char kIndexProvisionedMessage[] =
    "The level of configured provisioned throughput for one or more global "
    "secondary indexes of the table was exceeded. Consider increasing your "
    "provisioning level for the under-provisioned global secondary indexes "
    "with the UpdateTable API";
constexpr char kIndexOnDemandReason[] =
    "Throughput exceeds the current capacity for one or more global secondary "
    "indexes. DynamoDB is automatically scaling your index so please try "
    "again shortly.";
constexpr char kMaxOnDemandMessage[] =
    "Throughput exceeds the maximum OnDemandThroughput configured on table or "
    "index";
constexpr char kRequestLimitMessage[] =
    "Throughput exceeds the current throughput limit for your account. To "
    "request a limit increase, contact AWS Support at "
    "https://aws.amazon.com/support";

TableFacts FactsOf(const TableResolver& resolve, const std::string& table) {
  if (!resolve || table.empty()) return {};
  return resolve(table);
}

Error Cancelled(const CallView& call, const Decision& decision,
                const TableResolver& resolve) {
  Json reasons = Json::array();
  for (size_t a = 0; a < call.actions; ++a) {
    Json reason = {{"Code", "None"}};
    for (size_t i : decision.items) {
      if (call.items[i].position != a) continue;
      if (*decision.effect == Effect::kConflict) {
        reason = {{"Code", "TransactionConflict"},
                  {"Message", "Transaction is ongoing for the item."}};
      } else if (FactsOf(resolve, call.items[i].table).on_demand) {
        reason = {{"Code", "ThrottlingError"},
                  {"Message", std::string(kOnDemandMessage) + "."}};
      } else {
        reason = {{"Code", "ProvisionedThroughputExceeded"},
                  {"Message", kProvisionedMessage}};
      }
    }
    reasons.push_back(std::move(reason));
  }
  return TransactionCancelled(std::move(reasons));
}

Error Throttle(const CallView& call, const Decision& decision,
               const TableResolver& resolve) {
  if (call.api == Api::kStreams) {
    // DynamoDB Streams models LimitExceededException for GetRecords; its
    // text is not recorded anywhere we could find: ours.
    return Error::Of(ErrorType::kLimitExceeded, "Rate exceeded");
  }
  const OperationInfo& op = InfoOf(call.operation);
  if (!op.data_plane) {
    return Error::Of(ErrorType::kThrottling, "Rate exceeded");
  }
  const TableFacts facts = FactsOf(resolve, decision.table);
  const std::string kind = op.write ? "Write" : "Read";
  if (!facts.found) {  // PartiQL, or a table that does not exist
    return Error::Of(ErrorType::kThrottling, kOnDemandMessage);
  }
  if (facts.on_demand) {
    Error error = Error::Of(ErrorType::kThrottling, kOnDemandMessage);
    error.extra =
        Json{{"throttlingReasons",
              Json::array(
                  {{{"reason", "Table" + kind + "KeyRangeThroughputExceeded"},
                    {"resource", facts.arn}}})}};
    return error;
  }
  Error error =
      Error::Of(ErrorType::kProvisionedThroughputExceeded, kProvisionedMessage);
  error.extra =
      Json{{"ThrottlingReasons",
            Json::array(
                {{{"reason", "Table" + kind + "ProvisionedThroughputExceeded"},
                  {"resource", facts.arn}}})}};
  return error;
}

bool IsTransaction(const CallView& call) {
  return InfoOf(call.operation).transact_items;
}

bool IsIndexReason(const ThrottleCause& cause) {
  return cause.reason.rfind("Index", 0) == 0;
}

bool EndsWith(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

Error ThroughputThrottle(bool on_demand,
                         const std::vector<ThrottleCause>& causes) {
  Json reasons = Json::array();
  for (const ThrottleCause& c : causes) {
    reasons.push_back({{"reason", c.reason}, {"resource", c.resource}});
  }
  const ThrottleCause first = causes.empty() ? ThrottleCause{} : causes.front();
  if (on_demand) {
    const char* message =
        EndsWith(first.reason, "MaxOnDemandThroughputExceeded")
            ? kMaxOnDemandMessage
            : kOnDemandMessage;
    Error error = Error::Of(ErrorType::kThrottling, message);
    error.extra = Json{{"throttlingReasons", std::move(reasons)}};
    return error;
  }
  Error error = Error::Of(
      ErrorType::kProvisionedThroughputExceeded,
      IsIndexReason(first) ? kIndexProvisionedMessage : kProvisionedMessage);
  error.extra = Json{{"ThrottlingReasons", std::move(reasons)}};
  return error;
}

Json ThrottleCancellationReason(bool on_demand, const ThrottleCause& cause) {
  if (on_demand) {
    return {{"Code", "ThrottlingError"},
            {"Message", IsIndexReason(cause)
                            ? std::string(kIndexOnDemandReason)
                            : std::string(kOnDemandMessage) + "."}};
  }
  return {{"Code", "ProvisionedThroughputExceeded"},
          {"Message", IsIndexReason(cause)
                          ? std::string(kIndexProvisionedMessage) + "."
                          : std::string(kProvisionedMessage)}};
}

Error TransactionCancelled(Json reasons) {
  std::string codes;
  for (const Json& reason : reasons) {
    if (!codes.empty()) codes += ", ";
    codes += reason.value("Code", std::string("None"));
  }
  Error error = Error::Of(
      ErrorType::kTransactionCanceled,
      "Transaction cancelled, please refer cancellation reasons for specific "
      "reasons [" +
          codes + "]");
  error.extra = Json{{"CancellationReasons", std::move(reasons)}};
  return error;
}

std::optional<Error> ImmediateError(const CallView& call,
                                    const Decision& decision,
                                    const TableResolver& resolve) {
  if (!decision.effect) return std::nullopt;
  switch (*decision.effect) {
    case Effect::kThrottle:
      if (IsTransaction(call)) return Cancelled(call, decision, resolve);
      return Throttle(call, decision, resolve);
    case Effect::kConflict:
      if (IsTransaction(call)) return Cancelled(call, decision, resolve);
      return Error::Of(ErrorType::kTransactionConflict,
                       "Transaction is ongoing for the item");
    case Effect::kInternalError:
      return Error::Of(ErrorType::kInternalServerError,
                       "Internal server error");
    case Effect::kUnavailable:
      // The body of DynamoDB's 503 is not recorded; this is the generic
      // AWS description of ServiceUnavailable.
      return Error::Of(ErrorType::kServiceUnavailable,
                       "The request has failed due to a temporary failure of "
                       "the server.");
    case Effect::kRequestLimit:
      return Error::Of(ErrorType::kRequestLimitExceeded, kRequestLimitMessage);
    case Effect::kExpiredIterator:
      return Error::Of(ErrorType::kExpiredIterator,
                       "The provided iterator exceeds the maximum age "
                       "allowed.");
    case Effect::kTrimmed:
      return Error::Of(ErrorType::kTrimmedDataAccess,
                       "The data you are trying to access has been trimmed.");
    case Effect::kUnprocessed:
      // DynamoDB fails a batch with the throttling exception only when none
      // of its items could be processed; otherwise it answers 200 with the
      // rest in UnprocessedItems / UnprocessedKeys.
      if (!call.items.empty() && decision.items.size() == call.items.size()) {
        return Throttle(call, decision, resolve);
      }
      return std::nullopt;
    case Effect::kLostResponse:
    case Effect::kLatency:
    case Effect::kEmpty:
    case Effect::kVisibilityDelay:
    case Effect::kStaleRead:
    case Effect::kIndexLag:
      return std::nullopt;
  }
  return std::nullopt;
}

Error OutcomeUnknown(std::string_view rule_id) {
  return Error::Of(ErrorType::kOutcomeUnknown,
                   "The request was executed but its response was lost "
                   "(fault rule " +
                       std::string(rule_id) + "); its outcome is unknown");
}

}  // namespace ddblab::fault
