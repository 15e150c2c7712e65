// Query (the DynamoDB API reference; DynamoDB's expression rules, including
// the legacy KeyConditions). Shared page logic: read_common.h.
//
// Check order, as DynamoDB (modelled by dynalite's AWS-verified tests):
// without the lock — JSON types, constraints (Select rules count as one:
// "1 validation error detected: Cannot specify the ..."), mixing styles,
// legacy conversions (QueryFilter, AttributesToGet), ExclusiveStartKey
// values, a missing key condition, the expressions and unused placeholders,
// then the key condition's structure ("Invalid operator used in
// KeyConditionExpression: OR", "Conditions can be of length 1 or 2 only",
// ...); with the lock — the table, the index, the ExclusiveStartKey shape
// interleaved with the key condition against the schema (per key element,
// hash then range: the start key's element, then the condition on it), the
// start key's table keys and its position against the condition, nested
// key paths in the projection, key attributes in the filter, ALL_ATTRIBUTES
// on a GSI, nested key paths in the filter, attributes a GSI does not
// project.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "emulator/engine/call_context.h"
#include "emulator/engine/emulator_impl.h"
#include "emulator/engine/keys.h"
#include "emulator/engine/ops/expression_params.h"
#include "emulator/engine/ops/item_request.h"
#include "emulator/engine/ops/ops_read.h"
#include "emulator/engine/ops/query_multi_key.h"
#include "emulator/engine/ops/read_common.h"
#include "emulator/expr/legacy.h"
#include "emulator/value/codec.h"

namespace ddblab::engine {
namespace {

using value::AttributeValue;
using value::Item;

constexpr char kNotSupported[] = "Query key condition not supported";
constexpr char kMissed[] = "Query condition missed key schema element: ";

// The schema-dependent texts of the key analysis: anything else it reports
// is about the condition's structure and can be reported without the table.
bool IsSchemaError(const Error& e) {
  const std::string& m = e.message;
  return m == kNotSupported || m.rfind(kMissed, 0) == 0 ||
         m == "Attempted conditional constraint is not an indexable "
              "operation" ||
         m == std::string(kInvalidParams) +
                  "Condition parameter type does not match schema type";
}

// The terms of a KeyConditionExpression whose structure was accepted (an
// AND of comparisons, BETWEENs and begins_with, one attribute each).
void CollectTerms(const expr::Condition& c, std::vector<KeyTerm>* out) {
  using Kind = expr::Condition::Kind;
  if (c.kind == Kind::kAnd) {
    for (const expr::Condition& child : c.children) CollectTerms(child, out);
    return;
  }
  KeyTerm t;
  size_t attr = 0;
  for (size_t i = 0; i < c.operands.size(); ++i) {
    if (c.operands[i].kind == expr::Operand::Kind::kPath) attr = i;
  }
  if (attr < c.operands.size() && !c.operands[attr].path.empty()) {
    t.attr = c.operands[attr].path.top();
  }
  for (size_t i = 0; i < c.operands.size(); ++i) {
    if (i != attr) t.values.push_back(c.operands[i].value);
  }
  if (c.kind == Kind::kBetween) {
    t.op = expr::RangeOp::kBetween;
  } else if (c.kind == Kind::kBeginsWith) {
    t.op = expr::RangeOp::kBeginsWith;
  } else {
    t.op = expr::RangeOpOf(c.op, attr != 0);
  }
  out->push_back(std::move(t));
}

// The terms of a (validated) legacy KeyConditions map.
Result<std::vector<KeyTerm>> LegacyTerms(const Json& key_conditions) {
  std::vector<KeyTerm> out;
  for (const auto& [attr, cond] : key_conditions.items()) {
    KeyTerm t;
    t.attr = attr;
    if (!cond.is_object()) continue;  // rejected by ConvertKeyConditions
    auto op_json = cond.find("ComparisonOperator");
    const std::string op = op_json != cond.end() && op_json->is_string()
                               ? op_json->get<std::string>()
                               : std::string();
    if (op == "EQ") t.op = expr::RangeOp::kEq;
    if (op == "LT") t.op = expr::RangeOp::kLt;
    if (op == "LE") t.op = expr::RangeOp::kLe;
    if (op == "GT") t.op = expr::RangeOp::kGt;
    if (op == "GE") t.op = expr::RangeOp::kGe;
    if (op == "BETWEEN") t.op = expr::RangeOp::kBetween;
    if (op == "BEGINS_WITH") t.op = expr::RangeOp::kBeginsWith;
    auto list = cond.find("AttributeValueList");
    if (list != cond.end() && list->is_array()) {
      for (const Json& v : *list) {
        DDBLAB_ASSIGN_OR_RETURN(AttributeValue av,
                                value::DecodeAttributeValue(v));
        t.values.push_back(std::move(av));
      }
    }
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace

Status CollectKeyConditionTerms(QueryRequest& r) {
  CollectTerms(r.expr.key_condition->root, &r.terms);
  // (A condition count only a multi-attribute key accepts waits for the
  // schema: query_multi_key.h.)
  Result<expr::KeyCondition> shape =
      expr::AnalyzeKeyCondition(*r.expr.key_condition, expr::KeySchemaInfo());
  if (!shape.ok() && !IsSchemaError(shape.error()) &&
      !MultiKeyCountDeferred(shape.error(), r.terms.size())) {
    return shape.error();
  }
  return OkStatus();
}

Result<QueryRequest> ParseQuery(const Json& request, ExpressionCache* cache) {
  RequestParser p(request);
  QueryRequest r;
  r.select = p.String(request, "Select");
  const bool select_valid =
      r.select && (*r.select == "SPECIFIC_ATTRIBUTES" || *r.select == "COUNT" ||
                   *r.select == "ALL_ATTRIBUTES" ||
                   *r.select == "ALL_PROJECTED_ATTRIBUTES");
  if (r.select) {
    p.Enum(*r.select, "select",
           {"SPECIFIC_ATTRIBUTES", "COUNT", "ALL_ATTRIBUTES",
            "ALL_PROJECTED_ATTRIBUTES"});
  }
  r.index_name = p.String(request, "IndexName");
  if (r.index_name) p.CheckIndexName(r.index_name, "indexName");
  ReadCapacityMode(p, request, &r.capacity);
  std::optional<std::string> name = p.TableNameOrArn(request);
  r.limit = p.Integer(request, "Limit");
  CheckLimit(p, r.limit);
  r.consistent = p.Bool(request, "ConsistentRead").value_or(false);
  r.forward = p.Bool(request, "ScanIndexForward").value_or(true);
  const Json* key_conditions = p.Map(request, "KeyConditions", "Condition");
  ExpressionInput in = ReadExpressionInput(p, request, kQuerySpec);
  std::optional<Error> start_key_error;
  r.start_key =
      ReadAttributeMap(p, request, "ExclusiveStartKey", &start_key_error);
  if (select_valid) {
    if (std::optional<std::string> conflict = SelectConflict(
            r.select, in.attributes_to_get != nullptr,
            in.projection_text.has_value(), r.index_name.has_value())) {
      p.AddConstraintError(*conflict);
    }
  }
  DDBLAB_RETURN_IF_ERROR(p.Finish());
  DDBLAB_RETURN_IF_ERROR(CheckExpressionStyles(in));

  r.query_filter = in.legacy_filter;
  const bool legacy = in.legacy_filter != nullptr ||
                      in.attributes_to_get != nullptr ||
                      in.conditional_operator != nullptr;
  const bool has_key_condition_expression = in.key_condition_text.has_value();
  auto early_checks = [&]() -> Status {
    if (start_key_error) return StartKeyValueError(*start_key_error);
    if (key_conditions == nullptr && !has_key_condition_expression) {
      return Error::Validation(
          "Either the KeyConditions or KeyConditionExpression parameter must "
          "be specified in the request.");
    }
    return OkStatus();
  };
  if (!legacy) DDBLAB_RETURN_IF_ERROR(early_checks());
  DDBLAB_ASSIGN_OR_RETURN(r.expr, ParseExpressions(std::move(in), cache));
  if (legacy) DDBLAB_RETURN_IF_ERROR(early_checks());

  // The key condition's structure; the schema checks come with the table.
  if (r.expr.key_condition) {
    DDBLAB_RETURN_IF_ERROR(CollectKeyConditionTerms(r));
  } else {
    expr::KeySchemaInfo no_schema;
    Result<expr::KeyCondition> shape =
        expr::ConvertKeyConditions(*key_conditions, no_schema);
    if (!shape.ok() && !IsSchemaError(shape.error()) &&
        !MultiKeyCountDeferred(shape.error(), key_conditions->size())) {
      return shape.error();
    }
    DDBLAB_ASSIGN_OR_RETURN(r.terms, LegacyTerms(*key_conditions));
  }
  r.table_name = std::move(*name);
  return r;
}

namespace {

// ---------------------------------------------------------------------------
// Under the lock.

// The key condition against the schema read, interleaved with the start
// key's elements as DynamoDB does.
Result<expr::KeyCondition> AnalyzeTerms(const KeySchema& key,
                                        const std::vector<KeyTerm>& terms,
                                        const Item* esk) {
  if (terms.size() > 2) return Error::Validation(kConditionCount);
  DDBLAB_RETURN_IF_ERROR(CheckStartElement(esk, key.hash, true));
  if (!key.range && terms.size() > 1) {
    return Error::Validation(kNotSupported);
  }
  const KeyTerm* hash = FindKeyTerm(terms, key.hash.name);
  if (hash == nullptr) return Error::Validation(kMissed + key.hash.name);
  DDBLAB_RETURN_IF_ERROR(CheckKeyTerm(*hash, key.hash.type));
  if (*hash->op != expr::RangeOp::kEq) return Error::Validation(kNotSupported);
  expr::KeyCondition out;
  out.hash_value = hash->values[0];
  if (!key.range) return out;

  DDBLAB_RETURN_IF_ERROR(CheckStartElement(esk, *key.range, false));
  const KeyTerm* range = FindKeyTerm(terms, key.range->name);
  if (range == nullptr) {
    if (terms.size() > 1) return Error::Validation(kMissed + key.range->name);
    return out;
  }
  DDBLAB_RETURN_IF_ERROR(CheckKeyTerm(*range, key.range->type));
  expr::RangeCondition rc;
  rc.op = *range->op;
  rc.a = range->values[0];
  if (range->values.size() > 1) rc.b = range->values[1];
  out.range = std::move(rc);
  return out;
}

// The start key's position against the key condition.
Status CheckStartBounds(const KeySchema& key, bool base_table,
                        const expr::KeyCondition& kc, const Item& esk) {
  const bool same_hash = esk.at(key.hash.name) == kc.hash_value;
  if (!key.range || !kc.range) {
    if (!same_hash) {
      return Error::Validation(
          "The provided starting key is outside query boundaries based on "
          "provided conditions");
    }
    // A table keyed by its hash alone holds at most one item per hash: its
    // Query has no page to resume, and DynamoDB refuses the start key as it
    // refuses one that does not fit the schema.
    if (!key.range && base_table) {
      return Error::Validation(
          "The provided starting key is invalid: The provided key element "
          "does not match the schema");
    }
    return OkStatus();
  }
  if (!expr::RangeMatches(*kc.range, esk.at(key.range->name))) {
    return Error::Validation(
        "The provided starting key does not match the range key predicate");
  }
  if (!same_hash) {
    return Error::Validation(
        "The query can return at most one row and cannot be restarted");
  }
  return OkStatus();
}

// "Filter Expression can only contain non-primary key attributes: Primary
// key attribute: <a>" for the keys of the table or index read.
Status CheckFilterKeys(const QueryRequest& r, const KeySchema& key) {
  if (!r.expr.legacy_filter && !r.expr.filter) return OkStatus();
  std::vector<std::string> names{key.hash.name};
  if (key.range) names.push_back(key.range->name);
  for (const KeyElement& k : key.more_hash) names.push_back(k.name);
  for (const KeyElement& k : key.more_range) names.push_back(k.name);
  if (r.expr.legacy_filter) {
    return r.query_filter != nullptr
               ? expr::CheckQueryFilterKeys(*r.query_filter, names)
               : OkStatus();
  }
  if (!r.expr.filter) return OkStatus();
  const std::vector<const expr::DocumentPath*> paths =
      expr::ReferencedPaths(r.expr.filter->root);
  for (const std::string& name : names) {
    for (const expr::DocumentPath* p : paths) {
      if (p->top() == name) {
        return Error::Validation(
            "Filter Expression can only contain non-primary key attributes: "
            "Primary key attribute: " +
            name);
      }
    }
  }
  return OkStatus();
}

void SetBounds(const expr::RangeCondition& rc, storage::ScanSpec* spec) {
  const std::string a = EncodeKeyValue(rc.a);
  switch (rc.op) {
    case expr::RangeOp::kEq:
      spec->lower = storage::SortBound{a, true};
      spec->upper = storage::SortBound{a, true};
      break;
    case expr::RangeOp::kLt:
      spec->upper = storage::SortBound{a, false};
      break;
    case expr::RangeOp::kLe:
      spec->upper = storage::SortBound{a, true};
      break;
    case expr::RangeOp::kGt:
      spec->lower = storage::SortBound{a, false};
      break;
    case expr::RangeOp::kGe:
      spec->lower = storage::SortBound{a, true};
      break;
    case expr::RangeOp::kBetween:
      spec->lower = storage::SortBound{a, true};
      spec->upper = storage::SortBound{EncodeKeyValue(rc.b), true};
      break;
    case expr::RangeOp::kBeginsWith:
      spec->lower = storage::SortBound{a, true};
      if (std::optional<std::string> end = storage::PrefixUpperBound(a)) {
        spec->upper = storage::SortBound{*end, false};
      }
      break;
  }
}

}  // namespace

Result<ReadResult> ExecuteQuery(EmulatorImpl& impl, CallContext& call,
                                const QueryRequest& r) {
  const Item* esk = r.start_key ? &*r.start_key : nullptr;
  ReadResult result;
  std::shared_ptr<const Table>& table = result.table;
  const IndexDef*& index = result.index;
  SelectMode& select = result.select;
  RawPage& page = result.page;
  {
    auto lock = impl.Lock();
    DDBLAB_ASSIGN_OR_RETURN(Catalog::Entry * entry,
                            impl.FindTable(r.table_name, TableLookup::kData));
    table = entry->table;
    DDBLAB_ASSIGN_OR_RETURN(index,
                            FindReadIndex(*table, r.index_name, r.consistent,
                                          ReadOperation::kQuery));
    const KeySchema& key = ReadKeySchema(*table, index);
    if (esk != nullptr && esk->size() != StartKeyNames(*table, index).size()) {
      return Error::Validation("The provided starting key is invalid");
    }
    // A multi-attribute GSI key has its own analysis (query_multi_key.h).
    const bool multi = key.MultiHash() || key.MultiRange();
    expr::KeyCondition kc;
    MultiKeyCondition mkc;
    if (multi) {
      DDBLAB_ASSIGN_OR_RETURN(mkc, AnalyzeMultiKeyTerms(key, r.terms, esk));
    } else {
      DDBLAB_ASSIGN_OR_RETURN(kc, AnalyzeTerms(key, r.terms, esk));
    }
    if (esk != nullptr) {
      DDBLAB_RETURN_IF_ERROR(CheckStartTableKey(*table, *esk));
      DDBLAB_RETURN_IF_ERROR(
          multi ? CheckMultiKeyStart(key, mkc, *esk)
                : CheckStartBounds(key, index == nullptr, kc, *esk));
    }
    DDBLAB_RETURN_IF_ERROR(
        CheckNestedKeyPaths(*table, ProjectionPaths(r.expr.projection)));
    DDBLAB_RETURN_IF_ERROR(CheckFilterKeys(r, key));
    select = ResolveSelect(r.select, r.expr.projection.has_value(),
                           index != nullptr);
    DDBLAB_RETURN_IF_ERROR(CheckGsiSelect(index, select));
    if (r.expr.filter) {
      DDBLAB_RETURN_IF_ERROR(CheckNestedKeyPaths(
          *table, expr::ReferencedPaths(r.expr.filter->root)));
    }
    DDBLAB_RETURN_IF_ERROR(
        CheckGsiProjection(*table, index, r.expr.projection));

    PageSpec spec;
    spec.scan.table_id = table->id;
    spec.scan.index_id = index != nullptr ? index->id : storage::kBaseTable;
    if (multi) {
      spec.scan.partition = std::move(mkc.partition);
      spec.scan.lower = std::move(mkc.lower);
      spec.scan.upper = std::move(mkc.upper);
    } else {
      spec.scan.partition = EncodeKeyValue(kc.hash_value);
      if (kc.range) SetBounds(*kc.range, &spec.scan);
    }
    spec.scan.forward = r.forward;
    if (esk != nullptr) spec.scan.start = StartPosition(*table, index, *esk);
    spec.limit = r.limit;
    spec.fetch_from_table = NeedsTableFetch(*table, index, select,
                                            r.expr.projection, r.expr.filter);
    const ReadView view = impl.consistency().View(
        impl.store(), *table, index, r.consistent, impl.Now(), call.faults);
    DDBLAB_ASSIGN_OR_RETURN(page, ReadPage(view, *table, spec));
    // A hash-only table holds at most one item per partition: the read
    // always exhausts the key range.
    if (index == nullptr && !table->key.range) page.stopped = false;
    DDBLAB_RETURN_IF_ERROR(AdmitPage(call.capacity, *table, index, page,
                                     r.consistent, 0,
                                     spec.scan.partition.value_or("")));
  }
  return result;
}

Result<Json> RenderQuery(const QueryRequest& r, ReadResult& result) {
  RenderSpec render;
  render.table = result.table.get();
  render.index = result.index;
  render.select = result.select;
  render.filter = r.expr.filter ? &*r.expr.filter : nullptr;
  render.projection = r.expr.projection ? &*r.expr.projection : nullptr;
  render.consistent = r.consistent;
  render.capacity = r.capacity;
  render.table_name = r.table_name;
  return RenderPage(result.page, render);
}

}  // namespace ddblab::engine
