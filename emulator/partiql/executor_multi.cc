// BatchExecuteStatement and ExecuteTransaction (see executor.h).
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "emulator/partiql/executor.h"
#include "emulator/partiql/executor_internal.h"
#include "emulator/partiql/literal.h"
#include "emulator/partiql/parser.h"

namespace ddblab::partiql {
namespace {

using internal::BoolMember;
using internal::Member;
using internal::StringMember;
using Json = nlohmann::json;

// Recorded on DynamoDB Local ("a transaction of a read and a write").
constexpr char kMixedTransaction[] =
    "ExecuteTransaction API does not support both read and write operations "
    "in the same request.";
// UNVERIFIED wording: the API reference says a batch "must consist of either
// read statements or write statements"; the text mirrors the transaction's.
constexpr char kMixedBatch[] =
    "BatchExecuteStatement API does not support both read and write "
    "operations in the same request.";

// "Validation failed in TransactStatements[<i>]: <message>" (pinned on AWS:
// paritysuite/dynamodb-conformance partiqlGrammar.test.ts and
// partiqlFunctions.test.ts).
Error InTransactStatement(size_t index, const Error& error) {
  if (error.type != ErrorType::kValidation) return error;
  return Error::Validation("Validation failed in TransactStatements[" +
                           std::to_string(index) + "]: " + error.message);
}

// Adds one ConsumedCapacity to per-table totals.
void AddCapacity(const Json& consumed, std::map<std::string, double>* totals) {
  if (!consumed.is_object()) return;
  std::string table = StringMember(consumed, "TableName");
  const Json& units = Member(consumed, "CapacityUnits");
  if (!table.empty() && units.is_number()) {
    (*totals)[table] += units.get<double>();
  }
}

Json CapacityList(const std::map<std::string, double>& totals) {
  Json list = Json::array();
  for (const auto& [table, units] : totals) {
    list.push_back({{"TableName", table}, {"CapacityUnits", units}});
  }
  return list;
}

// A DuplicateItem reason for an INSERT whose guard failed in a transaction.
// UNVERIFIED on AWS: BatchStatementError documents the DuplicateItem code;
// its use in CancellationReasons is our reading.
Json DuplicateReason() {
  return {{"Code", "DuplicateItem"},
          {"Message", "Duplicate primary key exists in table"}};
}

// The TransactItems action a statement's plan becomes.
TransactAction ActionOf(const Plan& plan) {
  if (plan.condition_check) return TransactAction::kConditionCheck;
  switch (plan.op) {
    case Operation::kGetItem:
      return TransactAction::kGet;
    case Operation::kPutItem:
      return TransactAction::kPut;
    case Operation::kUpdateItem:
      return TransactAction::kUpdate;
    case Operation::kDeleteItem:
      return TransactAction::kDelete;
    default:
      return TransactAction::kConditionCheck;
  }
}

}  // namespace

Result<Json> PartiqlExecutor::BatchExecuteStatement(const Json& request) {
  tables_.clear();
  const Json& statements = Member(request, "Statements");
  const std::string capacity = StringMember(request, "ReturnConsumedCapacity");
  if (!statements.is_array()) return Json{{"Responses", Json::array()}};

  // A parameter that is not even an AttributeValue fails the whole request;
  // an invalid value fails only its statement.
  std::vector<std::optional<Error>> errors(statements.size());
  std::vector<std::optional<Statement>> parsed(statements.size());
  bool reads = false;
  bool writes = false;
  for (size_t i = 0; i < statements.size(); ++i) {
    const Json& parameters = Member(statements[i], "Parameters");
    Status valid = ValidateParameters(parameters);
    if (!valid.ok()) {
      if (valid.error().type == ErrorType::kSerialization) return valid.error();
      errors[i] = valid.error();
      continue;
    }
    Result<Statement> statement = ParseWithParameters(
        StringMember(statements[i], "Statement"), parameters);
    if (!statement.ok()) {
      errors[i] = statement.error();
      continue;
    }
    (IsReadStatement(*statement) ? reads : writes) = true;
    parsed[i] = std::move(*statement);
  }
  if (reads && writes) return Error::Validation(kMixedBatch);

  std::map<std::string, double> totals;
  Json responses = Json::array();
  for (size_t i = 0; i < statements.size(); ++i) {
    const Json& item = statements[i];
    Json response = Json::object();
    std::optional<Error> error = errors[i];
    std::string table_name;
    if (!error) {
      PlanOptions options;
      options.surface = Surface::kBatch;
      options.consistent_read = BoolMember(item, "ConsistentRead");
      options.return_values_on_condition_check_failure =
          StringMember(item, "ReturnValuesOnConditionCheckFailure");
      Result<Plan> plan = [&]() -> Result<Plan> {
        DDBLAB_ASSIGN_OR_RETURN(TableInfo table,
                                Describe(StatementTable(*parsed[i])));
        return Translate(*parsed[i], table, Member(item, "Parameters"),
                         options);
      }();
      if (!plan.ok()) {
        error = plan.error();
      } else {
        // Executed statements name their table, failed or not (a throttled
        // statement's response carries TableName: boto3 issue #3834).
        table_name = StatementTable(*parsed[i]);
        plan->request.return_consumed_capacity = capacity;
        Result<Json> answer =
            operations_->Run(plan->op, std::move(plan->request));
        if (!answer.ok()) {
          error = internal::MapError(std::move(answer).error(), &*plan);
        } else {
          auto it = answer->find("ConsumedCapacity");
          if (it != answer->end()) AddCapacity(*it, &totals);
          it = answer->find("Item");
          if (it != answer->end()) {
            response["Item"] = ShapeItem(*plan, std::move(*it));
          }
          it = answer->find("Attributes");
          if (it != answer->end()) response["Item"] = std::move(*it);
        }
      }
    }
    if (error) {
      Json body = {{"Code", internal::BatchErrorCode(*error)},
                   {"Message", error->message}};
      if (error->extra.is_object() && error->extra.contains("Item")) {
        body["Item"] = error->extra["Item"];
      }
      response["Error"] = std::move(body);
      response.erase("Item");
    }
    if (!table_name.empty()) response["TableName"] = table_name;
    responses.push_back(std::move(response));
  }
  Json out = {{"Responses", std::move(responses)}};
  if (!capacity.empty() && capacity != "NONE") {
    out["ConsumedCapacity"] = CapacityList(totals);
  }
  return out;
}

Result<Json> PartiqlExecutor::ExecuteTransaction(const Json& request) {
  tables_.clear();
  const Json& statements = Member(request, "TransactStatements");
  if (!statements.is_array()) return Json{{"Responses", Json::array()}};

  std::vector<Statement> parsed;
  bool reads = false;
  bool writes = false;
  for (size_t i = 0; i < statements.size(); ++i) {
    const Json& parameters = Member(statements[i], "Parameters");
    // Parameter errors are not prefixed (pinned on AWS:
    // partiqlParameterNumbers.test.ts "in ExecuteTransaction").
    DDBLAB_RETURN_IF_ERROR(ValidateParameters(parameters));
    Result<Statement> statement = ParseWithParameters(
        StringMember(statements[i], "Statement"), parameters);
    if (!statement.ok()) return InTransactStatement(i, statement.error());
    (IsReadStatement(*statement) ? reads : writes) = true;
    parsed.push_back(std::move(*statement));
  }
  if (reads && writes) return Error::Validation(kMixedTransaction);

  std::vector<Plan> plans;
  for (size_t i = 0; i < parsed.size(); ++i) {
    Result<TableInfo> table = Describe(StatementTable(parsed[i]));
    if (!table.ok()) return InTransactStatement(i, table.error());
    PlanOptions options;
    options.surface = Surface::kTransaction;
    options.return_values_on_condition_check_failure =
        StringMember(statements[i], "ReturnValuesOnConditionCheckFailure");
    Result<Plan> plan = Translate(parsed[i], *table,
                                  Member(statements[i], "Parameters"), options);
    if (!plan.ok()) return InTransactStatement(i, plan.error());
    plans.push_back(std::move(*plan));
  }

  TransactRequest call_request;
  call_request.write = writes;
  call_request.items.reserve(plans.size());
  for (Plan& plan : plans) {
    TransactItem& item = call_request.items.emplace_back();
    item.action = ActionOf(plan);
    item.request = std::move(plan.request);
    item.request.consistent_read = false;
  }
  call_request.return_consumed_capacity =
      StringMember(request, "ReturnConsumedCapacity");
  if (writes) {
    call_request.client_request_token =
        StringMember(request, "ClientRequestToken");
  }
  Result<Json> response = operations_->RunTransaction(std::move(call_request));
  if (!response.ok()) {
    Error error = std::move(response).error();
    if (error.type == ErrorType::kTransactionCanceled &&
        error.extra.is_object() &&
        error.extra.contains("CancellationReasons") &&
        error.extra["CancellationReasons"].is_array()) {
      Json& reasons = error.extra["CancellationReasons"];
      std::string codes;
      for (size_t i = 0; i < reasons.size(); ++i) {
        if (i < plans.size() && plans[i].insert &&
            StringMember(reasons[i], "Code") == "ConditionalCheckFailed") {
          reasons[i] = DuplicateReason();
        }
        codes += (i == 0 ? "" : ", ") + StringMember(reasons[i], "Code");
      }
      error.message =
          "Transaction cancelled, please refer cancellation reasons for "
          "specific reasons [" +
          codes + "]";
      return error;
    }
    return internal::MapError(std::move(error), nullptr);
  }
  // A transaction of writes answers an empty Responses list (pinned on AWS:
  // paritysuite/dynamodb-conformance tests/tier2/partiql/
  // writeResponses.test.ts); one of reads one entry per statement.
  Json out = {
      {"Responses", writes ? Json::array() : Member(*response, "Responses")}};
  if (out["Responses"].is_null()) out["Responses"] = Json::array();
  for (size_t i = 0; i < out["Responses"].size() && i < plans.size(); ++i) {
    Json& entry = out["Responses"][i];
    if (entry.is_object() && entry.contains("Item")) {
      entry["Item"] = ShapeItem(plans[i], std::move(entry["Item"]));
    }
  }
  if (response->contains("ConsumedCapacity")) {
    out["ConsumedCapacity"] = (*response)["ConsumedCapacity"];
  }
  return out;
}

}  // namespace ddblab::partiql
