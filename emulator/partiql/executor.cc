// ExecuteStatement and the helpers the three PartiQL operations share.
#include "emulator/partiql/executor.h"

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <utility>

#include "emulator/partiql/executor_internal.h"
#include "emulator/partiql/literal.h"
#include "emulator/partiql/parser.h"
#include "emulator/value/codec.h"

namespace ddblab::partiql {
namespace internal {
namespace {

using Json = nlohmann::json;

const Json& NullJson() {
  static const Json* const kNull = new Json(nullptr);
  return *kNull;
}

// The prefixes the engine puts before expression errors; PartiQL's texts
// have none.
constexpr std::string_view kExpressionPrefixes[] = {
    "Invalid FilterExpression: ",       "Invalid ConditionExpression: ",
    "Invalid KeyConditionExpression: ", "Invalid UpdateExpression: ",
    "Invalid ProjectionExpression: ",
};

}  // namespace

std::string StringMember(const Json& obj, std::string_view name) {
  const Json& m = Member(obj, name);
  return m.is_string() ? m.get<std::string>() : std::string();
}

bool BoolMember(const Json& obj, std::string_view name) {
  const Json& m = Member(obj, name);
  return m.is_boolean() && m.get<bool>();
}

const Json& Member(const Json& obj, std::string_view name) {
  if (!obj.is_object()) return NullJson();
  auto it = obj.find(name);
  return it == obj.end() ? NullJson() : *it;
}

Error TableNotFound() {
  return Error::ResourceNotFound("Requested resource not found");
}

Status CheckTableName(const std::string& name) {
  bool ok = name.size() >= 3 && name.size() <= 255;
  for (char c : name) {
    ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '-' ||
                c == '_' || c == '.');
  }
  if (ok) return OkStatus();
  return Error::Validation(
      "Table name should be within the length [3, 255] and only contain "
      "'a-z', 'A-Z', '0-9', '-', '_', '.'.");
}

Error MapError(Error error, const Plan* plan) {
  if (plan != nullptr && plan->insert &&
      error.type == ErrorType::kConditionalCheckFailed) {
    // The INSERT guard failed: the key exists. Texts: DynamoDB's PartiQL
    // INSERT reference ("DuplicateItemException") and captured AWS CLI
    // output ("Duplicate primary key exists in table").
    return Error::Of(ErrorType::kDuplicateItem,
                     "Duplicate primary key exists in table");
  }
  if (error.type == ErrorType::kResourceNotFound) return TableNotFound();
  if (error.type == ErrorType::kValidation) {
    for (std::string_view prefix : kExpressionPrefixes) {
      if (error.message.rfind(prefix, 0) == 0) {
        error.message.erase(0, prefix.size());
        break;
      }
    }
  }
  return error;
}

std::string BatchErrorCode(const Error& error) {
  // BatchStatementError.Code values (DynamoDB API reference).
  switch (error.type) {
    case ErrorType::kValidation:
    case ErrorType::kSerialization:
      return "ValidationError";
    case ErrorType::kConditionalCheckFailed:
      return "ConditionalCheckFailed";
    case ErrorType::kDuplicateItem:
      return "DuplicateItem";
    case ErrorType::kResourceNotFound:
      return "ResourceNotFound";
    case ErrorType::kProvisionedThroughputExceeded:
      return "ProvisionedThroughputExceeded";
    case ErrorType::kThrottling:
      return "ThrottlingError";
    case ErrorType::kTransactionConflict:
      return "TransactionConflict";
    case ErrorType::kRequestLimitExceeded:
      return "RequestLimitExceeded";
    case ErrorType::kItemCollectionSizeLimitExceeded:
      return "ItemCollectionSizeLimitExceeded";
    case ErrorType::kAccessDenied:
      return "AccessDenied";
    default:
      return "InternalServerError";
  }
}

namespace {

// FNV-1a, to tie a NextToken to the statement and parameters it came from.
std::string RequestHash(const std::string& statement, const Json& parameters) {
  uint64_t h = 1469598103934665603ULL;
  auto mix = [&h](std::string_view s) {
    for (char c : s) {
      h ^= static_cast<unsigned char>(c);
      h *= 1099511628211ULL;
    }
  };
  mix(statement);
  mix("\n");
  mix(parameters.is_null()
          ? ""
          : parameters.dump(-1, ' ', false, Json::error_handler_t::replace));
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016llx",
                static_cast<unsigned long long>(h));
  return buf;
}

// An opaque token: base64 of {"h": <request hash>, "k": <LastEvaluatedKey>}.
std::string EncodeNextToken(const std::string& hash, const Json& key) {
  Json token = {{"h", hash}, {"k", key}};
  return value::Base64Encode(
      token.dump(-1, ' ', false, Json::error_handler_t::replace));
}

// Texts from DynamoDB Local's message catalog (ValidationExceptionMessages);
// UNVERIFIED on AWS.
Result<Json> DecodeNextToken(const std::string& token,
                             const std::string& hash) {
  std::string bytes;
  Json decoded = Json::parse(
      value::Base64Decode(token, &bytes) ? bytes : std::string(), nullptr,
      /*allow_exceptions=*/false);
  if (!decoded.is_object() || !decoded.contains("h") ||
      !decoded["h"].is_string() || !decoded.contains("k") ||
      !decoded["k"].is_object()) {
    return Error::Validation("Invalid NextToken");
  }
  if (decoded["h"].get<std::string>() != hash) {
    return Error::Validation("NextToken does not match request");
  }
  return decoded["k"];
}

}  // namespace
}  // namespace internal

using internal::BoolMember;
using internal::Member;
using internal::StringMember;
using Json = nlohmann::json;

Result<TableInfo> JsonOperations::Describe(const std::string& table) {
  DDBLAB_ASSIGN_OR_RETURN(Json described, call_(Operation::kDescribeTable,
                                                Json{{"TableName", table}}));
  return TableInfo::FromDescribeTable(described);
}

Result<Json> JsonOperations::Run(Operation op, OpRequest request) {
  return call_(op, ToJson(request));
}

Result<Json> JsonOperations::RunTransaction(TransactRequest request) {
  return call_(request.write ? Operation::kTransactWriteItems
                             : Operation::kTransactGetItems,
               ToJson(request));
}

PartiqlExecutor::PartiqlExecutor(Operations& operations)
    : operations_(&operations) {}

PartiqlExecutor::PartiqlExecutor(CallFn call)
    : owned_(std::make_unique<JsonOperations>(std::move(call))),
      operations_(owned_.get()) {}

Result<Statement> PartiqlExecutor::ParseWithParameters(const std::string& text,
                                                       const Json& parameters) {
  DDBLAB_ASSIGN_OR_RETURN(Statement statement, Parse(text));
  size_t given = parameters.is_array() ? parameters.size() : 0;
  // Extra parameters are accepted (recorded on DynamoDB Local: "Too many
  // values are accepted with no error"); missing ones are an error.
  if (static_cast<size_t>(statement.parameter_count) > given) {
    return ParameterCountMismatch();
  }
  return statement;
}

Result<TableInfo> PartiqlExecutor::Describe(const std::string& table) {
  auto it = tables_.find(table);
  if (it != tables_.end()) return it->second;
  DDBLAB_RETURN_IF_ERROR(internal::CheckTableName(table));
  Result<TableInfo> info = operations_->Describe(table);
  if (!info.ok()) {
    if (info.error().type == ErrorType::kResourceNotFound) {
      return internal::TableNotFound();
    }
    return std::move(info).error();
  }
  tables_[table] = *info;
  return info;
}

Result<Plan> PartiqlExecutor::Prepare(const std::string& text,
                                      const Json& parameters,
                                      const PlanOptions& options) {
  DDBLAB_ASSIGN_OR_RETURN(Statement statement,
                          ParseWithParameters(text, parameters));
  DDBLAB_ASSIGN_OR_RETURN(TableInfo table, Describe(StatementTable(statement)));
  return Translate(statement, table, parameters, options);
}

Result<Json> PartiqlExecutor::RunWrite(Plan& plan, const std::string& capacity,
                                       Json* consumed) {
  plan.request.return_consumed_capacity = capacity;
  Result<Json> response = operations_->Run(plan.op, std::move(plan.request));
  if (!response.ok()) {
    return internal::MapError(std::move(response).error(), &plan);
  }
  if (consumed != nullptr) {
    auto it = response->find("ConsumedCapacity");
    if (it != response->end()) *consumed = std::move(*it);
  }
  Json items = Json::array();
  auto it = response->find("Attributes");
  if (it != response->end()) items.push_back(std::move(*it));
  return items;
}

Result<Json> PartiqlExecutor::ExecuteStatement(const Json& request) {
  tables_.clear();
  const std::string text = StringMember(request, "Statement");
  const Json& parameters = Member(request, "Parameters");
  const std::string capacity = StringMember(request, "ReturnConsumedCapacity");
  DDBLAB_RETURN_IF_ERROR(ValidateParameters(parameters));
  PlanOptions options;
  options.surface = Surface::kExecuteStatement;
  options.consistent_read = BoolMember(request, "ConsistentRead");
  options.return_values_on_condition_check_failure =
      StringMember(request, "ReturnValuesOnConditionCheckFailure");
  DDBLAB_ASSIGN_OR_RETURN(Plan plan, Prepare(text, parameters, options));

  Json out = {{"Items", Json::array()}};
  if (!plan.read) {
    Json consumed;
    DDBLAB_ASSIGN_OR_RETURN(out["Items"], RunWrite(plan, capacity, &consumed));
    if (!consumed.is_null()) out["ConsumedCapacity"] = consumed;
    return out;
  }

  OpRequest& call_request = plan.request;
  call_request.return_consumed_capacity = capacity;
  const bool get = plan.op == Operation::kGetItem;
  std::string hash;
  if (!get) {
    hash = internal::RequestHash(text, parameters);
    const Json& limit = Member(request, "Limit");
    if (limit.is_number_integer()) call_request.limit = limit.get<int64_t>();
    const std::string token = StringMember(request, "NextToken");
    if (!token.empty()) {
      DDBLAB_ASSIGN_OR_RETURN(call_request.exclusive_start_key,
                              internal::DecodeNextToken(token, hash));
    }
  }
  Result<Json> response = operations_->Run(plan.op, std::move(call_request));
  if (!response.ok()) {
    return internal::MapError(std::move(response).error(), &plan);
  }
  Json& items = out["Items"];
  if (get) {
    auto it = response->find("Item");
    if (it != response->end()) {
      items.push_back(ShapeItem(plan, std::move(*it)));
    }
  } else {
    auto it = response->find("Items");
    if (it != response->end()) {
      for (Json& item : *it) items.push_back(ShapeItem(plan, std::move(item)));
    }
    it = response->find("LastEvaluatedKey");
    if (it != response->end()) {
      out["NextToken"] = internal::EncodeNextToken(hash, *it);
      out["LastEvaluatedKey"] = std::move(*it);
    }
  }
  auto it = response->find("ConsumedCapacity");
  if (it != response->end()) out["ConsumedCapacity"] = std::move(*it);
  return out;
}

}  // namespace ddblab::partiql
