// INSERT, UPDATE, DELETE and EXISTS translation (see translate.h).
#include <string>
#include <utility>

#include "emulator/partiql/expr_writer.h"
#include "emulator/partiql/translate_internal.h"

namespace ddblab::partiql::internal {
namespace {

// DynamoDB Local's message catalog (ValidationExceptionMessages); an
// emulator (dynoxide) pins the transaction one on AWS.
constexpr char kReturningInTransaction[] =
    "RETURNING clause is not supported in ExecuteTransaction.";
constexpr char kItemFormat[] =
    "Unsupported format in item expression. Please use struct format {...} "
    "to express item values for insert statement.";
constexpr char kExistsOutsideTransaction[] =
    "EXISTS can only be used in ExecuteTransaction write requests.";
// Pinned on AWS (paritysuite/dynamodb-conformance
// tests/tier3/error-messages/partiqlFunctions.test.ts).
constexpr char kExistsShape[] =
    "EXISTS() must contain a single item read with additional condition";
// DynamoDB Local's message catalog.
constexpr char kIndexInTransaction[] =
    "Operations on indices are not supported in transactions";

bool SamePath(const Expr& a, const Expr& b) {
  return a.IsPath() && b.IsPath() && a.text == b.text && a.steps == b.steps;
}

void AddReturnValuesOnFailure(const PlanOptions& options, OpRequest* request) {
  request->return_values_on_condition_check_failure =
      options.return_values_on_condition_check_failure;
}

Status CheckReturning(Returning returning, const PlanOptions& options) {
  if (returning != Returning::kNone &&
      options.surface == Surface::kTransaction) {
    return Error::Validation(kReturningInTransaction);
  }
  return OkStatus();
}

const char* ReturnValuesFor(Returning returning) {
  switch (returning) {
    case Returning::kAllOld:
      return "ALL_OLD";
    case Returning::kModifiedOld:
      return "UPDATED_OLD";
    case Returning::kAllNew:
      return "ALL_NEW";
    case Returning::kModifiedNew:
      return "UPDATED_NEW";
    case Returning::kNone:
      break;
  }
  return "NONE";
}

// set_add / set_delete on the right of SET: "ADD <path> <set>" /
// "DELETE <path> <set>". Texts pinned on AWS (partiqlFunctions.test.ts).
Result<std::string> SetFunction(const Expr& target, const Expr& call,
                                const ValueBuilder& values, ExprWriter* w) {
  std::string upper = call.text == "set_add" ? "SET_ADD" : "SET_DELETE";
  std::string at = " at " + call.pos.ToString();
  if (call.args.size() != 2) {
    return Error::Validation(upper + " must have exactly two arguments" + at);
  }
  if (!SamePath(*call.args[0], target)) {
    return Error::Validation("The first argument to " + upper +
                             " must equal the assignment value" + at);
  }
  const Expr& set = *call.args[1];
  Error not_a_set = Error::Validation("The second argument to " + upper +
                                      " must be a value with type SET at " +
                                      call.args[0]->pos.ToString());
  if (set.kind != ExprKind::kBag && set.kind != ExprKind::kParameter) {
    return not_a_set;
  }
  DDBLAB_ASSIGN_OR_RETURN(value::AttributeValue value, values.Build(set));
  if (!value.is_set()) return not_a_set;
  DDBLAB_ASSIGN_OR_RETURN(std::string path, w->Path(target));
  return path + " " + w->Value(std::move(value));
}

std::string Clause(const char* keyword, const std::vector<std::string>& parts) {
  if (parts.empty()) return "";
  std::string out = keyword;
  for (size_t i = 0; i < parts.size(); ++i) {
    out += (i == 0 ? " " : ", ") + parts[i];
  }
  return out;
}

}  // namespace

Result<Plan> TranslateInsert(const InsertStmt& insert, const TableInfo& table,
                             const ValueBuilder& values,
                             const PlanOptions& options) {
  const Expr& tuple = *insert.value;
  if (tuple.kind != ExprKind::kTuple) return Error::Validation(kItemFormat);
  value::Item item;
  for (size_t i = 0; i + 1 < tuple.args.size(); i += 2) {
    const Expr& key = *tuple.args[i];
    const Expr& value = *tuple.args[i + 1];
    if (key.kind != ExprKind::kLiteral || key.literal != LiteralKind::kString) {
      return Error::Validation(
          "Tuple keys must be of type String. Actual type: " +
          std::string(key.kind == ExprKind::kLiteral &&
                              key.literal == LiteralKind::kNumber
                          ? "DECIMAL"
                          : "EXPRESSION") +
          " under root");
    }
    if (item.count(key.text) > 0) {
      // DynamoDB Local's message catalog; the place is UNVERIFIED.
      return Error::Validation("Duplicate keys in tuple. Key: " + key.text +
                               " under root");
    }
    if (value.kind == ExprKind::kLiteral &&
        value.literal == LiteralKind::kMissing) {
      continue;
    }
    // Each attribute's value is "root" in messages (pinned on AWS:
    // {'pk': 1e126} -> "... under root", {'m': {'x': 1e126}} -> "... under
    // root.x").
    DDBLAB_ASSIGN_OR_RETURN(value::AttributeValue attribute,
                            values.Build(value));
    item.emplace(key.text, std::move(attribute));
  }
  for (const std::string& name : table.keys.Names()) {
    auto it = item.find(name);
    if (it == item.end()) {
      // DynamoDB Local's message catalog (ValidationExceptionMessages).
      return Error::Validation(
          "Key attribute should be present in the item: Key " + name);
    }
    DDBLAB_RETURN_IF_ERROR(CheckKeyValue(table, name, it->second));
  }
  Plan plan;
  plan.op = Operation::kPutItem;
  plan.insert = true;
  ExprWriter w(values);
  OpRequest& request = plan.request;
  request.table_name = table.name;
  request.item = std::move(item);
  request.condition_expression =
      "attribute_not_exists(" + w.Name(table.keys.hash) + ")";
  w.MoveTo(&request);
  AddReturnValuesOnFailure(options, &request);
  return plan;
}

Result<Plan> TranslateUpdate(const UpdateStmt& update, const TableInfo& table,
                             const ValueBuilder& values,
                             const PlanOptions& options) {
  DDBLAB_RETURN_IF_ERROR(CheckReturning(update.returning, options));
  DDBLAB_ASSIGN_OR_RETURN(KeyAndRest key,
                          KeyFromWhere(update.where.get(), table, values));
  ExprWriter w(values);
  std::vector<std::string> sets;
  std::vector<std::string> removes;
  std::vector<std::string> adds;
  std::vector<std::string> deletes;
  for (const UpdateAction& action : update.actions) {
    const Expr& target = *action.target;
    if (!target.IsPath()) {
      // DynamoDB Local's message catalog; the rendering is UNVERIFIED.
      return Error::Validation("Unrecognized assignment target: " +
                               target.DebugString());
    }
    if (action.kind == UpdateAction::Kind::kRemove) {
      DDBLAB_ASSIGN_OR_RETURN(std::string path, w.Path(target));
      removes.push_back(std::move(path));
      continue;
    }
    const Expr& value = *action.value;
    if (value.kind == ExprKind::kCall &&
        (value.text == "set_add" || value.text == "set_delete")) {
      DDBLAB_ASSIGN_OR_RETURN(std::string part,
                              SetFunction(target, value, values, &w));
      (value.text == "set_add" ? adds : deletes).push_back(std::move(part));
      continue;
    }
    if (value.kind == ExprKind::kIs) {
      // DynamoDB Local's message catalog (ValidationExceptionMessages).
      return Error::Validation(
          "IS operator is not supported in update expressions");
    }
    DDBLAB_ASSIGN_OR_RETURN(std::string path, w.Path(target));
    DDBLAB_ASSIGN_OR_RETURN(std::string rhs, w.SetValue(value));
    sets.push_back(path + " = " + rhs);
  }
  std::string expression;
  for (const std::string& clause :
       {Clause("SET", sets), Clause("REMOVE", removes), Clause("ADD", adds),
        Clause("DELETE", deletes)}) {
    if (clause.empty()) continue;
    if (!expression.empty()) expression += " ";
    expression += clause;
  }
  // The item must exist: DynamoDB answers an UPDATE of a missing item with
  // ConditionalCheckFailedException and creates nothing (pinned on AWS:
  // paritysuite/dynamodb-conformance tests/tier2/partiql/setFunctions.test.ts
  // and fromFirstUpdate.test.ts).
  std::string condition = "attribute_exists(" + w.Name(table.keys.hash) + ")";
  if (!key.rest.empty()) {
    DDBLAB_ASSIGN_OR_RETURN(std::string rest, w.Conjunction(key.rest));
    condition += " AND " + rest;
  }
  Plan plan;
  plan.op = Operation::kUpdateItem;
  OpRequest& request = plan.request;
  request.table_name = table.name;
  request.key = std::move(key.key);
  request.update_expression = std::move(expression);
  request.condition_expression = std::move(condition);
  w.MoveTo(&request);
  if (update.returning != Returning::kNone) {
    request.return_values = ReturnValuesFor(update.returning);
  }
  AddReturnValuesOnFailure(options, &request);
  return plan;
}

Result<Plan> TranslateDelete(const DeleteStmt& del, const TableInfo& table,
                             const ValueBuilder& values,
                             const PlanOptions& options) {
  DDBLAB_RETURN_IF_ERROR(CheckReturning(del.returning, options));
  if (del.returning != Returning::kNone &&
      del.returning != Returning::kAllOld) {
    // DynamoDB Local's message catalog; an emulator (dynoxide) pins the
    // same text on AWS.
    return Error::Validation(
        std::string("Invalid returning clause: RETURNING ") +
        ReturningText(del.returning) +
        ". Only RETURNING ALL OLD * is allowed in DELETE "
        "statements.");
  }
  DDBLAB_ASSIGN_OR_RETURN(KeyAndRest key,
                          KeyFromWhere(del.where.get(), table, values));
  ExprWriter w(values);
  Plan plan;
  plan.op = Operation::kDeleteItem;
  OpRequest& request = plan.request;
  request.table_name = table.name;
  request.key = std::move(key.key);
  if (!key.rest.empty()) {
    DDBLAB_ASSIGN_OR_RETURN(request.condition_expression,
                            w.Conjunction(key.rest));
  }
  w.MoveTo(&request);
  if (del.returning == Returning::kAllOld) request.return_values = "ALL_OLD";
  AddReturnValuesOnFailure(options, &request);
  return plan;
}

Result<Plan> TranslateExists(const SelectStmt& select, const TableInfo& table,
                             const ValueBuilder& values,
                             const PlanOptions& options) {
  if (options.surface != Surface::kTransaction) {
    return Error::Validation(kExistsOutsideTransaction);
  }
  if (select.index) return Error::Validation(kIndexInTransaction);
  Result<KeyAndRest> key = KeyFromWhere(select.where.get(), table, values);
  if (!key.ok()) {
    if (key.error().message == IncompleteKey().message) {
      return Error::Validation(kExistsShape);
    }
    return key.error();
  }
  if (key->rest.empty()) return Error::Validation(kExistsShape);
  ExprWriter w(values);
  DDBLAB_ASSIGN_OR_RETURN(std::string condition, w.Conjunction(key->rest));
  Plan plan;
  plan.condition_check = true;
  OpRequest& request = plan.request;
  request.table_name = table.name;
  request.key = std::move(key->key);
  request.condition_expression = std::move(condition);
  w.MoveTo(&request);
  AddReturnValuesOnFailure(options, &request);
  return plan;
}

}  // namespace ddblab::partiql::internal
