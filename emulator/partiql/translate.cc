// Shared translation helpers and SELECT (see translate.h).
#include "emulator/partiql/translate.h"

#include <set>
#include <utility>

#include "emulator/partiql/expr_writer.h"
#include "emulator/partiql/translate_internal.h"

namespace ddblab::partiql {
namespace internal {
namespace {

using Json = nlohmann::json;

// Pinned on AWS (paritysuite/dynamodb-conformance
// tests/tier3/error-messages/partiqlFunctions.test.ts and
// tests/tier2/partiql/executeStatementIndex.test.ts).
constexpr char kBatchSelect[] =
    "Select statements within BatchExecuteStatement must specify the primary "
    "key in the where clause.";
constexpr char kTransactionSelect[] =
    "Select statements within ExecuteTransaction must specify the primary "
    "key in the where clause.";
// DynamoDB Local's message catalog (ValidationExceptionMessages).
constexpr char kTransactionIndex[] =
    "Reads on indices are not supported within transactions.";
constexpr char kConsistentGsi[] =
    "Strongly consistent read is not supported on Global Secondary Indexes";
constexpr char kOrderByNoWhere[] =
    "Must have WHERE clause in the statement when using ORDER BY clause.";
constexpr char kOrderByNoHash[] =
    "Must have at least one non-optional hash key condition in WHERE clause "
    "when using ORDER BY clause.";

bool ReferencesAny(const Expr& e, const std::set<std::string>& names) {
  if (e.IsPath() && names.count(e.text) > 0) return true;
  for (const auto& arg : e.args) {
    if (ReferencesAny(*arg, names)) return true;
  }
  return false;
}

BinaryOp Flip(BinaryOp op) {
  switch (op) {
    case BinaryOp::kLt:
      return BinaryOp::kGt;
    case BinaryOp::kLe:
      return BinaryOp::kGe;
    case BinaryOp::kGt:
      return BinaryOp::kLt;
    case BinaryOp::kGe:
      return BinaryOp::kLe;
    default:
      return op;
  }
}

// A sort-key condition a KeyConditionExpression can carry.
bool IsRangeCondition(const Expr& e, const std::string& range) {
  if (e.kind == ExprKind::kBinary &&
      (e.op == BinaryOp::kEq || e.op == BinaryOp::kLt ||
       e.op == BinaryOp::kLe || e.op == BinaryOp::kGt ||
       e.op == BinaryOp::kGe)) {
    const Expr& l = *e.args[0];
    const Expr& r = *e.args[1];
    return (l.IsTopLevelName() && l.text == range &&
            ValueBuilder::IsValue(r)) ||
           (r.IsTopLevelName() && r.text == range && ValueBuilder::IsValue(l));
  }
  if (e.kind == ExprKind::kBetween && !e.negated) {
    return e.args[0]->IsTopLevelName() && e.args[0]->text == range &&
           ValueBuilder::IsValue(*e.args[1]) &&
           ValueBuilder::IsValue(*e.args[2]);
  }
  if (e.kind == ExprKind::kCall && e.text == "begins_with" &&
      e.args.size() == 2) {
    return e.args[0]->IsTopLevelName() && e.args[0]->text == range &&
           ValueBuilder::IsValue(*e.args[1]);
  }
  return false;
}

Result<std::string> RangeKeyCondition(const Expr& e, ExprWriter* w) {
  if (e.kind == ExprKind::kBinary) {
    bool reversed = !e.args[0]->IsTopLevelName();
    const Expr& name = reversed ? *e.args[1] : *e.args[0];
    const Expr& value = reversed ? *e.args[0] : *e.args[1];
    BinaryOp op = reversed ? Flip(e.op) : e.op;
    DDBLAB_ASSIGN_OR_RETURN(std::string v, w->Operand(value));
    return w->Name(name.text) + " " + BinaryOpText(op) + " " + v;
  }
  return w->Condition(e);
}

}  // namespace

std::vector<const Expr*> Conjuncts(const Expr* where) {
  std::vector<const Expr*> out;
  if (where == nullptr) return out;
  if (where->kind == ExprKind::kBinary && where->op == BinaryOp::kAnd) {
    for (const auto& arg : where->args) {
      std::vector<const Expr*> part = Conjuncts(arg.get());
      out.insert(out.end(), part.begin(), part.end());
    }
    return out;
  }
  out.push_back(where);
  return out;
}

const Expr* EqualityValue(const Expr& e, const std::string& attribute) {
  if (e.kind != ExprKind::kBinary || e.op != BinaryOp::kEq) return nullptr;
  const Expr& l = *e.args[0];
  const Expr& r = *e.args[1];
  if (l.IsTopLevelName() && l.text == attribute && ValueBuilder::IsValue(r)) {
    return &r;
  }
  if (r.IsTopLevelName() && r.text == attribute && ValueBuilder::IsValue(l)) {
    return &l;
  }
  return nullptr;
}

Error IncompleteKey() {
  return Error::Validation(
      "Where clause does not contain a mandatory equality on all key "
      "attributes");
}

Status CheckKeyValue(const TableInfo& table, const std::string& attribute,
                     const value::AttributeValue& value) {
  const std::string type(value::AttributeValue::TypeName(value.type()));
  if (type != "S" && type != "N" && type != "B") {
    // DynamoDB Local's message catalog (ValidationExceptionMessages).
    return Error::Validation(
        "Key value must be of type S, N, or B. Key name: " + attribute +
        ", Key type: " + type);
  }
  auto it = table.attribute_types.find(attribute);
  if (it != table.attribute_types.end() && it->second != type) {
    // DynamoDB Local's message catalog; recorded on DynamoDB Local for a
    // parameter of the wrong type for the key.
    return Error::Validation(
        "Key attribute's data type should match its data type in table's "
        "schema: Key " +
        attribute);
  }
  return OkStatus();
}

Result<KeyAndRest> KeyFromWhere(const Expr* where, const TableInfo& table,
                                const ValueBuilder& values) {
  KeyAndRest out;
  std::vector<std::string> names = table.keys.Names();
  for (const Expr* conjunct : Conjuncts(where)) {
    bool used = false;
    for (const std::string& name : names) {
      const Expr* value = EqualityValue(*conjunct, name);
      if (value == nullptr) continue;
      if (out.key.count(name) > 0) {
        // DynamoDB Local's message catalog (ValidationExceptionMessages).
        return Error::Validation("Multiple conditions on same key " + name +
                                 ". Only single item Update/Insert/Delete are "
                                 "supported");
      }
      DDBLAB_ASSIGN_OR_RETURN(value::AttributeValue v, values.Build(*value));
      DDBLAB_RETURN_IF_ERROR(CheckKeyValue(table, name, v));
      out.key.emplace(name, std::move(v));
      used = true;
      break;
    }
    if (!used) out.rest.push_back(conjunct);
  }
  for (const std::string& name : names) {
    if (out.key.count(name) == 0) return IncompleteKey();
  }
  return out;
}

Result<Plan> TranslateSelect(const SelectStmt& select, const TableInfo& table,
                             const ValueBuilder& values,
                             const PlanOptions& options) {
  const IndexInfo* index = nullptr;
  if (select.index) {
    if (options.surface == Surface::kBatch) {
      return Error::Validation(kBatchSelect);
    }
    if (options.surface == Surface::kTransaction) {
      return Error::Validation(kTransactionIndex);
    }
    if (table.HasVectorIndex(*select.index)) {
      // "Vector indexes are not accessible through PartiQL": DynamoDB's
      // answer is its Scan text.
      return Error::Validation(
          "Scan operation not supported on this index type");
    }
    index = table.FindIndex(*select.index);
    if (index == nullptr) {
      // The engine's Query/Scan text for an unknown index (the DynamoDB API
      // reference); UNVERIFIED for PartiQL.
      return Error::Validation("The table does not have the specified index: " +
                               *select.index);
    }
    if (index->global && options.consistent_read) {
      return Error::Validation(kConsistentGsi);
    }
  }
  const KeySchema& keys = index != nullptr ? index->keys : table.keys;
  ExprWriter w(values);
  Plan plan;
  plan.read = true;
  OpRequest& request = plan.request;
  request.table_name = table.name;
  if (index != nullptr) request.index_name = index->name;

  std::string projection;
  std::vector<std::string> unprojected;
  // A GSI that does not project everything can't serve other attributes.
  bool check_projection =
      index != nullptr && index->global && index->projection_type != "ALL";
  std::set<std::string> projected;
  if (check_projection) {
    for (const std::string& n : table.keys.Names()) projected.insert(n);
    for (const std::string& n : index->keys.Names()) projected.insert(n);
    if (index->projection_type == "INCLUDE") {
      projected.insert(index->non_key_attributes.begin(),
                       index->non_key_attributes.end());
    }
  }
  for (const ExprPtr& item : select.projection) {
    if (!item->IsPath()) {
      // Pinned on AWS (partiqlFunctions.test.ts).
      return Error::Validation("Unexpected path component at " +
                               item->pos.ToString());
    }
    if (check_projection && projected.count(item->text) == 0) {
      unprojected.push_back(item->text);
    }
    DDBLAB_ASSIGN_OR_RETURN(std::string path, w.Path(*item));
    if (!projection.empty()) projection += ", ";
    projection += path;
  }
  if (!unprojected.empty()) {
    std::string list;
    for (const std::string& n : unprojected) {
      list += (list.empty() ? "" : ", ") + n;
    }
    // Pinned on AWS (executeStatementIndex.test.ts).
    return Error::Validation(
        "One or more parameter values were invalid: Global secondary index " +
        index->name + " does not project [" + list + "]");
  }

  std::vector<const Expr*> conjuncts = Conjuncts(select.where.get());
  // Equality on the partition key (exactly one) and at most one sort-key
  // condition make a Query; equality on the whole table key and nothing else
  // a GetItem.
  const Expr* hash_value = nullptr;
  int hash_count = 0;
  size_t hash_at = 0;
  for (size_t i = 0; i < conjuncts.size(); ++i) {
    if (const Expr* v = EqualityValue(*conjuncts[i], keys.hash)) {
      hash_value = v;
      hash_at = i;
      ++hash_count;
    }
  }
  int range_count = 0;
  size_t range_at = 0;
  if (keys.range) {
    for (size_t i = 0; i < conjuncts.size(); ++i) {
      if (i != hash_at && IsRangeCondition(*conjuncts[i], *keys.range)) {
        range_at = i;
        ++range_count;
      }
    }
  }
  std::set<std::string> key_names;
  for (const std::string& n : table.keys.Names()) key_names.insert(n);
  for (const std::string& n : keys.Names()) key_names.insert(n);
  // A multi-attribute index key is read with a Scan of the index filtered
  // by the whole WHERE clause (same rows; the Query planner here knows one
  // HASH and one RANGE attribute only).
  bool query = !keys.Multi() && hash_count == 1 && range_count <= 1;
  std::vector<const Expr*> rest;
  for (size_t i = 0; query && i < conjuncts.size(); ++i) {
    if (i == hash_at || (range_count == 1 && i == range_at)) continue;
    if (ReferencesAny(*conjuncts[i], key_names)) query = false;
    rest.push_back(conjuncts[i]);
  }
  bool full_key =
      query && rest.empty() && (!keys.range || range_count == 1) &&
      (!keys.range || EqualityValue(*conjuncts[range_at], *keys.range));

  if (options.surface != Surface::kExecuteStatement) {
    if (!full_key || conjuncts.size() != keys.Names().size()) {
      return Error::Validation(options.surface == Surface::kBatch
                                   ? kBatchSelect
                                   : kTransactionSelect);
    }
  }
  bool descending = false;
  if (!select.order_by.empty()) {
    if (select.where == nullptr) return Error::Validation(kOrderByNoWhere);
    for (const OrderBy& order : select.order_by) {
      if (!order.key->IsTopLevelName() ||
          key_names.count(order.key->text) == 0) {
        // DynamoDB Local's message catalog (ValidationExceptionMessages).
        return Error::Validation(
            "Variable reference " +
            (order.key->IsPath() ? order.key->text
                                 : std::string("expression")) +
            " in ORDER BY clause must be part of the primary key");
      }
      if (keys.range && order.key->text == *keys.range) {
        descending = order.descending;
      }
    }
    if (!query) return Error::Validation(kOrderByNoHash);
  }

  if (full_key && index == nullptr && select.order_by.empty()) {
    plan.op = Operation::kGetItem;
    value::Item key;
    DDBLAB_ASSIGN_OR_RETURN(value::AttributeValue hash,
                            values.Build(*hash_value));
    DDBLAB_RETURN_IF_ERROR(CheckKeyValue(table, keys.hash, hash));
    key.emplace(keys.hash, std::move(hash));
    if (keys.range) {
      DDBLAB_ASSIGN_OR_RETURN(
          value::AttributeValue range,
          values.Build(*EqualityValue(*conjuncts[range_at], *keys.range)));
      DDBLAB_RETURN_IF_ERROR(CheckKeyValue(table, *keys.range, range));
      key.emplace(*keys.range, std::move(range));
    }
    request.key = std::move(key);
  } else if (query) {
    plan.op = Operation::kQuery;
    DDBLAB_ASSIGN_OR_RETURN(value::AttributeValue hash,
                            values.Build(*hash_value));
    DDBLAB_RETURN_IF_ERROR(CheckKeyValue(table, keys.hash, hash));
    std::string key_condition = w.Name(keys.hash) + " = " + w.Value(hash);
    if (range_count == 1) {
      if (const Expr* v = EqualityValue(*conjuncts[range_at], *keys.range)) {
        DDBLAB_ASSIGN_OR_RETURN(value::AttributeValue range, values.Build(*v));
        DDBLAB_RETURN_IF_ERROR(CheckKeyValue(table, *keys.range, range));
      }
      DDBLAB_ASSIGN_OR_RETURN(std::string range_condition,
                              RangeKeyCondition(*conjuncts[range_at], &w));
      key_condition += " AND " + range_condition;
    }
    request.key_condition_expression = std::move(key_condition);
    if (!rest.empty()) {
      DDBLAB_ASSIGN_OR_RETURN(request.filter_expression, w.Conjunction(rest));
    }
    if (descending) request.scan_index_forward = false;
  } else {
    plan.op = Operation::kScan;
    if (select.where != nullptr) {
      DDBLAB_ASSIGN_OR_RETURN(request.filter_expression,
                              w.Condition(*select.where));
    }
  }
  if (!projection.empty()) request.projection_expression = projection;
  for (const ExprPtr& item : select.projection) {
    if (!item->steps.empty() &&
        item->steps.back().kind == PathStep::Kind::kMember) {
      for (const ExprPtr& each : select.projection) {
        PathStep root;
        root.name = each->text;
        std::vector<PathStep> path = {std::move(root)};
        path.insert(path.end(), each->steps.begin(), each->steps.end());
        plan.projection.push_back(std::move(path));
      }
      break;
    }
  }
  request.consistent_read = options.consistent_read;
  w.MoveTo(&request);
  return plan;
}

}  // namespace internal

std::string Plan::DebugString() const {
  return std::string(condition_check ? "ConditionCheck" : NameOf(op)) + " " +
         ToJson(request).dump();
}

nlohmann::json ShapeItem(const Plan& plan, nlohmann::json item) {
  if (plan.projection.empty() || !item.is_object()) return item;
  using Json = nlohmann::json;
  Json out = Json::object();
  for (const std::vector<PathStep>& path : plan.projection) {
    // Walk the DynamoDB JSON: members through {"M": ...}, indexes through
    // {"L": [...]}. A path ending in an index keeps its enclosing top-level
    // attribute, as the read returned it.
    if (path.back().kind == PathStep::Kind::kIndex || path.size() == 1) {
      auto it = item.find(path.front().name);
      if (it != item.end()) out[path.front().name] = *it;
      continue;
    }
    const Json* at = &item;
    for (size_t i = 0; i < path.size() && at != nullptr; ++i) {
      const PathStep& step = path[i];
      const Json* container = at;
      if (i > 0) {
        const char* type = step.kind == PathStep::Kind::kMember ? "M" : "L";
        auto c = at->find(type);
        container = c == at->end() ? nullptr : &*c;
      }
      at = nullptr;
      if (container == nullptr) break;
      if (step.kind == PathStep::Kind::kMember) {
        auto m = container->find(step.name);
        if (m != container->end()) at = &*m;
      } else if (container->is_array() && step.index >= 0 &&
                 static_cast<size_t>(step.index) < container->size()) {
        at = &(*container)[static_cast<size_t>(step.index)];
      }
    }
    if (at != nullptr) out[path.back().name] = *at;
  }
  return out;
}

const std::string& StatementTable(const Statement& statement) {
  switch (statement.kind) {
    case Statement::Kind::kSelect:
    case Statement::Kind::kExists:
      return statement.select.table;
    case Statement::Kind::kInsert:
      return statement.insert.table;
    case Statement::Kind::kUpdate:
      return statement.update.table;
    case Statement::Kind::kDelete:
      return statement.del.table;
  }
  return statement.select.table;
}

bool IsReadStatement(const Statement& statement) {
  return statement.kind == Statement::Kind::kSelect;
}

Result<Plan> Translate(const Statement& statement, const TableInfo& table,
                       const nlohmann::json& parameters,
                       const PlanOptions& options) {
  ValueBuilder values(parameters);
  switch (statement.kind) {
    case Statement::Kind::kSelect:
      return internal::TranslateSelect(statement.select, table, values,
                                       options);
    case Statement::Kind::kInsert:
      return internal::TranslateInsert(statement.insert, table, values,
                                       options);
    case Statement::Kind::kUpdate:
      return internal::TranslateUpdate(statement.update, table, values,
                                       options);
    case Statement::Kind::kDelete:
      return internal::TranslateDelete(statement.del, table, values, options);
    case Statement::Kind::kExists:
      return internal::TranslateExists(statement.select, table, values,
                                       options);
  }
  return Error::Internal("unknown statement kind");
}

}  // namespace ddblab::partiql
