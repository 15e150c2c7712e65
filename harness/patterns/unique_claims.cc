// harness/patterns/unique_claims.cc: the unique claims' requests and check.
#include "harness/patterns/unique_claims.h"

#include <map>
#include <set>
#include <utility>

namespace ddblab::harness::patterns {
namespace {

constexpr const char* kVariantNames[] = {"correct", "gsi_check"};

// The S value of `item[name]`, or "" when absent or not an S.
std::string StringOf(const json& item, const char* name) {
  if (!item.is_object() || !item.contains(name)) return "";
  const json& value = item[name];
  if (!value.is_object() || !value.contains("S") || !value["S"].is_string()) {
    return "";
  }
  return value["S"].get<std::string>();
}

// The ConditionalCheckFailedException of a claim whose account exists with
// another email; `old_item` is the account as the failed condition saw it
// (null when the backend did not return it).
Error AccountExists(const std::string& account, const json& old_item) {
  const std::string email = StringOf(old_item, "email");
  return Error::ConditionalCheckFailed(
      "unique claims: account " + account + " already exists" +
      (email.empty() ? std::string() : " with email " + email));
}

// The reason of the transaction's action `index`, or null.
const json* ReasonOf(const Error& error, size_t index) {
  if (!error.extra.is_object() ||
      !error.extra.contains("CancellationReasons")) {
    return nullptr;
  }
  const json& reasons = error.extra["CancellationReasons"];
  if (!reasons.is_array() || reasons.size() <= index ||
      !reasons[index].is_object()) {
    return nullptr;
  }
  return &reasons[index];
}

bool ConditionFailed(const json* reason) {
  return reason != nullptr &&
         reason->value("Code", "") == "ConditionalCheckFailed";
}

}  // namespace

std::string_view ClaimVariantName(ClaimVariant variant) {
  return kVariantNames[static_cast<int>(variant)];
}

Result<ClaimVariant> ParseClaimVariant(std::string_view name) {
  for (int i = 0; i < 2; ++i) {
    if (name == kVariantNames[i]) return static_cast<ClaimVariant>(i);
  }
  return Error::Validation("unknown unique claims variant \"" +
                           std::string(name) + "\" (correct, gsi_check)");
}

Result<UniqueClaims> UniqueClaims::Open(Backend& backend,
                                        UniqueClaimsConfig config) {
  DDBLAB_RETURN_IF_ERROR(CheckTableName("unique claims", config.table));
  if (config.max_attempts < 1) {
    return Error::Validation(
        "unique claims: max_attempts must be at least 1, got " +
        std::to_string(config.max_attempts));
  }
  return UniqueClaims(backend, std::move(config));
}

Status UniqueClaims::Setup() {
  // KEYS_ONLY: the check needs to know only which accounts (pk, projected
  // with every index entry) hold an email, so the index stores nothing
  // else and each claim's index write is as small as it can be.
  return EnsureTable(
      *backend_,
      {{"TableName", config_.table},
       {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}},
       {"AttributeDefinitions",
        {{{"AttributeName", "pk"}, {"AttributeType", "S"}},
         {{"AttributeName", "email"}, {"AttributeType", "S"}}}},
       {"GlobalSecondaryIndexes",
        {{{"IndexName", kEmailIndex},
          {"KeySchema", {{{"AttributeName", "email"}, {"KeyType", "HASH"}}}},
          {"Projection", {{"ProjectionType", "KEYS_ONLY"}}}}}},
       {"BillingMode", "PAY_PER_REQUEST"}});
}

Result<ClaimOutcome> UniqueClaims::Claim(std::string_view account,
                                         std::string_view email) {
  for (int attempt = 1;; ++attempt) {
    auto out = ClaimAttempt(account, email);
    if (out.ok() || !SdkRetries(out.error()) ||
        attempt >= config_.max_attempts) {
      return out;
    }
  }
}

Result<ClaimOutcome> UniqueClaims::ClaimAttempt(std::string_view account,
                                                std::string_view email) {
  if (account.empty() || email.empty()) {
    return Error::Validation(
        "unique claims: account and email must not be empty");
  }
  if (account.starts_with(kGuardPrefix)) {
    return Error::Validation("unique claims: account " + std::string(account) +
                             " starts with \"" + kGuardPrefix +
                             "\", the prefix of the guard items' keys");
  }
  const std::string a(account), e(email);
  return config_.variant == ClaimVariant::kGsiCheck ? ClaimByGsiCheck(a, e)
                                                    : ClaimByTransaction(a, e);
}

Result<ClaimOutcome> UniqueClaims::ClaimByGsiCheck(const std::string& account,
                                                   const std::string& email) {
  // The check: every account the index shows under the email. A GSI Query
  // is eventually consistent (ConsistentRead true is refused).
  json query = {{"TableName", config_.table},
                {"IndexName", kEmailIndex},
                {"KeyConditionExpression", "#email = :email"},
                {"ExpressionAttributeNames", {{"#email", "email"}}},
                {"ExpressionAttributeValues", {{":email", S(email)}}}};
  bool ours = false;
  while (true) {
    auto page = backend_->Call("Query", query);
    if (!page.ok()) return page.error();
    for (const json& item : (*page)["Items"]) {
      if (StringOf(item, "pk") != account) return ClaimOutcome::kTaken;
      ours = true;
    }
    if (!page->contains("LastEvaluatedKey")) break;
    query["ExclusiveStartKey"] = (*page)["LastEvaluatedKey"];
  }
  // The index already shows this account under the email: an earlier
  // attempt of this claim.
  if (ours) return ClaimOutcome::kClaimed;
  auto put = backend_->Call(
      "PutItem", {{"TableName", config_.table},
                  {"Item", {{"pk", S(account)}, {"email", S(email)}}},
                  {"ConditionExpression", "attribute_not_exists(#pk)"},
                  {"ExpressionAttributeNames", {{"#pk", "pk"}}},
                  {"ReturnValuesOnConditionCheckFailure", "ALL_OLD"}});
  if (put.ok()) return ClaimOutcome::kClaimed;
  if (put.error().type != ErrorType::kConditionalCheckFailed) {
    return put.error();
  }
  const json old_item = put.error().extra.is_object()
                            ? put.error().extra.value("Item", json())
                            : json();
  if (StringOf(old_item, "email") == email) return ClaimOutcome::kClaimed;
  return AccountExists(account, old_item);
}

Result<ClaimOutcome> UniqueClaims::ClaimByTransaction(
    const std::string& account, const std::string& email) {
  const auto put = [&](json item) {
    return json{{"Put",
                 {{"TableName", config_.table},
                  {"Item", std::move(item)},
                  {"ConditionExpression", "attribute_not_exists(#pk)"},
                  {"ExpressionAttributeNames", {{"#pk", "pk"}}},
                  {"ReturnValuesOnConditionCheckFailure", "ALL_OLD"}}}};
  };
  auto out = backend_->Call(
      "TransactWriteItems",
      {{"TransactItems",
        {put({{"pk", S(account)}, {"email", S(email)}}),
         put({{"pk", S(kGuardPrefix + email)}, {"owner", S(account)}})}}});
  if (out.ok()) return ClaimOutcome::kClaimed;
  const Error& error = out.error();
  if (error.type != ErrorType::kTransactionCanceled) return error;
  // One reason per action, in request order: [account, guard].
  const json* account_reason = ReasonOf(error, 0);
  const json* guard_reason = ReasonOf(error, 1);
  if (ConditionFailed(guard_reason)) {
    const std::string owner =
        StringOf(guard_reason->value("Item", json()), "owner");
    // The guard is this account's and the account exists: an earlier
    // attempt of this claim committed.
    if (owner == account && ConditionFailed(account_reason)) {
      return ClaimOutcome::kClaimed;
    }
    if (owner != account) return ClaimOutcome::kTaken;
  } else if (ConditionFailed(account_reason) && guard_reason != nullptr &&
             guard_reason->value("Code", "") == "None") {
    return AccountExists(account, account_reason->value("Item", json()));
  }
  return error;
}

Result<Problems> UniqueClaims::Check() {
  DDBLAB_ASSIGN_OR_RETURN(std::vector<json> items,
                          ScanAll(*backend_, config_.table));
  std::map<std::string, std::set<std::string>> accounts_by_email;
  for (const json& item : items) {
    const std::string pk = StringOf(item, "pk");
    const std::string email = StringOf(item, "email");
    if (pk.starts_with(kGuardPrefix) || email.empty()) continue;
    accounts_by_email[email].insert(pk);
  }
  Problems problems;
  for (const auto& [email, accounts] : accounts_by_email) {
    if (accounts.size() < 2) continue;
    std::string text = "email " + email + " is held by " +
                       std::to_string(accounts.size()) + " accounts: ";
    bool first = true;
    for (const std::string& account : accounts) {
      text += (first ? "" : ", ") + account;
      first = false;
    }
    problems.push_back(std::move(text));
  }
  return problems;
}

}  // namespace ddblab::harness::patterns
