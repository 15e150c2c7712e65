// The TableName-as-ARN resolver (table_arn.h).
//
// Sources of the texts:
//   - the shape constraints ("Valid ARN format is ...", "Invalid resource
//     type", "Table name of ARN must have length greater than or equal to
//     3") as captured from DynamoDB by an emulator's project (ExtendDB,
//     table ARN resolution, 2026);
//   - "1 validation error detected: Invalid AWS region in '<arn>'": DynamoDB's
//     answer to a table ARN of another Region (DescribeTable,
//     DescribeTimeToLive, DescribeContinuousBackups: an AWS provider issue
//     quotes it verbatim; a 2026 message catalogue lists it with "Invalid AWS
//     partition in" as a sibling);
//   - another account: AccessDeniedException in IAM's cross-account form
//     "User: <caller> is not authorized to perform: dynamodb:<Op> on
//     resource: <arn> because no resource-based policy allows the
//     dynamodb:<Op> action". ddblab has one account and no IAM users, so the
//     caller is printed as the account's root (as ListTagsOfResource does);
//     the caller's ARN is the one part that differs from AWS.
#include "emulator/engine/table_arn.h"

#include <vector>

namespace ddblab::engine {
namespace {

constexpr std::string_view kInvalidFormat =
    "Valid ARN format is "
    "'arn:<awsPartition>:<vendor>:<region>:<subscriber>:resourceType/"
    "resourceName', where Resource name must have length less than or equal "
    "to 255, Resource name must have length greater than or equal to 3, "
    "Resource name must satisfy regular expression pattern: [a-zA-Z0-9_.-]+";

bool NameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
}

// Splits into the five colon-separated fields and the resource (which keeps
// any later colons); false when there are fewer than six fields.
bool Split(std::string_view arn, std::vector<std::string_view>* fields,
           std::string_view* resource) {
  size_t pos = 0;
  for (int i = 0; i < 5; ++i) {
    size_t colon = arn.find(':', pos);
    if (colon == std::string_view::npos) return false;
    fields->push_back(arn.substr(pos, colon - pos));
    pos = colon + 1;
  }
  *resource = arn.substr(pos);
  return true;
}

Status ScopeError(std::string_view what, std::string_view arn) {
  return Error::Validation("1 validation error detected: " + std::string(what) +
                           " in '" + std::string(arn) + "'");
}

}  // namespace

bool LooksLikeArn(std::string_view table_name) {
  return table_name.rfind("arn:", 0) == 0;
}

std::optional<std::string> TableArnShapeError(std::string_view arn) {
  std::vector<std::string_view> fields;
  std::string_view resource;
  if (!Split(arn, &fields, &resource) || resource.empty()) {
    return std::string(kInvalidFormat);
  }
  size_t slash = resource.find('/');
  if (slash == std::string_view::npos) return std::string(kInvalidFormat);
  // Unverified: a service other than dynamodb is reported like a resource
  // type other than table.
  if (resource.substr(0, slash) != "table" || fields[2] != "dynamodb") {
    return std::string("Invalid resource type");
  }
  std::string_view name = resource.substr(slash + 1);
  if (name.size() < 3) {
    return std::string(
        "Table name of ARN must have length greater than or equal to 3");
  }
  // An index or stream ARN (table/T/index/I) fails here: '/' is not a name
  // character.
  if (name.size() > 255) return std::string(kInvalidFormat);
  for (char c : name) {
    if (!NameChar(c)) return std::string(kInvalidFormat);
  }
  return std::nullopt;
}

std::optional<TableArnParts> ParseTableArn(std::string_view arn) {
  if (!LooksLikeArn(arn) || TableArnShapeError(arn)) return std::nullopt;
  std::vector<std::string_view> fields;
  std::string_view resource;
  Split(arn, &fields, &resource);
  return TableArnParts{std::string(fields[1]), std::string(fields[2]),
                       std::string(fields[3]), std::string(fields[4]),
                       std::string(resource.substr(6))};
}

Status CheckTableArnScope(Operation operation, std::string_view arn,
                          std::string_view region, std::string_view account) {
  std::optional<TableArnParts> parts = ParseTableArn(arn);
  if (!parts) return OkStatus();
  if (parts->partition != "aws") {
    return ScopeError("Invalid AWS partition", arn);
  }
  // The account before the Region: a cross-account request is refused
  // without saying whether the Region is valid (as the tag APIs do).
  if (parts->account != account) {
    std::string action = "dynamodb:" + std::string(NameOf(operation));
    return Error::Of(ErrorType::kAccessDenied,
                     "User: arn:aws:iam::" + std::string(account) +
                         ":root is not authorized to perform: " + action +
                         " on resource: " + std::string(arn) +
                         " because no resource-based policy allows the " +
                         action + " action");
  }
  if (parts->region != region) return ScopeError("Invalid AWS region", arn);
  return OkStatus();
}

Status CheckRequestTableArns(Operation operation, const nlohmann::json& request,
                             std::string_view region,
                             std::string_view account) {
  if (!request.is_object() || operation == Operation::kCreateTable) {
    return OkStatus();
  }
  auto check_name = [&](const std::string& name) -> Status {
    if (!LooksLikeArn(name)) return OkStatus();
    return CheckTableArnScope(operation, name, region, account);
  };
  auto check = [&](const nlohmann::json& name) -> Status {
    if (!name.is_string()) return OkStatus();
    return check_name(name.get_ref<const std::string&>());
  };
  if (auto it = request.find("TableName"); it != request.end()) {
    DDBLAB_RETURN_IF_ERROR(check(*it));
  }
  if (auto it = request.find("RequestItems");
      it != request.end() && it->is_object()) {
    for (auto entry = it->begin(); entry != it->end(); ++entry) {
      DDBLAB_RETURN_IF_ERROR(check_name(entry.key()));
    }
  }
  if (auto it = request.find("TransactItems");
      it != request.end() && it->is_array()) {
    for (const nlohmann::json& item : *it) {
      if (!item.is_object()) continue;
      for (const nlohmann::json& action : item) {
        if (!action.is_object()) continue;
        if (auto t = action.find("TableName"); t != action.end()) {
          DDBLAB_RETURN_IF_ERROR(check(*t));
        }
      }
    }
  }
  return OkStatus();
}

}  // namespace ddblab::engine
