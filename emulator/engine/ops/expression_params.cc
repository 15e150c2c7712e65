#include "emulator/engine/ops/expression_params.h"

#include <algorithm>
#include <utility>

#include "emulator/engine/expression_cache.h"
#include "emulator/engine/ops/index_key_types.h"
#include "emulator/expr/legacy.h"

namespace ddblab::engine {
namespace {

const Json* Present(const Json& obj, std::string_view name) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(name);
  if (it == obj.end() || it->is_null()) return nullptr;
  return &*it;
}

// Paths read by a SET right-hand side.
void CollectValuePaths(const expr::UpdateValue& v,
                       std::vector<const expr::DocumentPath*>* out) {
  if (v.kind == expr::UpdateValue::Kind::kPath ||
      v.kind == expr::UpdateValue::Kind::kIfNotExists) {
    out->push_back(&v.path);
  }
  for (const expr::UpdateValue& a : v.args) CollectValuePaths(a, out);
}

void AppendCondition(const std::optional<expr::ConditionExpression>& c,
                     std::vector<const expr::DocumentPath*>* out) {
  if (!c) return;
  std::vector<const expr::DocumentPath*> paths = expr::ReferencedPaths(c->root);
  out->insert(out->end(), paths.begin(), paths.end());
}

}  // namespace

ExpressionInput ReadExpressionInput(RequestParser& p, const Json& request,
                                    const ExpressionSpec& spec) {
  ExpressionInput in;
  in.request = &request;
  in.spec = spec;
  if (spec.condition)
    in.condition_text = p.String(request, "ConditionExpression");
  if (spec.update) in.update_text = p.String(request, "UpdateExpression");
  if (spec.key_condition) {
    in.key_condition_text = p.String(request, "KeyConditionExpression");
  }
  if (spec.filter) in.filter_text = p.String(request, "FilterExpression");
  if (spec.projection) {
    in.projection_text = p.String(request, "ProjectionExpression");
  }
  if (spec.legacy) {
    if (spec.condition) {
      in.expected = p.Map(request, "Expected", "ExpectedAttributeValue");
    }
    if (spec.update) {
      in.attribute_updates =
          p.Map(request, "AttributeUpdates", "AttributeValueUpdate");
    }
    if (spec.filter) {
      in.legacy_filter = p.Map(
          request, spec.operation == "Query" ? "QueryFilter" : "ScanFilter",
          "Condition");
    }
    if (spec.condition || spec.filter) {
      if (std::optional<std::string> op =
              p.String(request, "ConditionalOperator")) {
        p.Enum(*op, "conditionalOperator", {"AND", "OR"});
        in.conditional_operator = Present(request, "ConditionalOperator");
      }
    }
    if (spec.projection) {
      if (const Json* list = p.List(request, "AttributesToGet")) {
        bool strings = true;
        for (const Json& v : *list) {
          if (!p.StringValue(v)) strings = false;
        }
        p.ListLength(*list, "attributesToGet", 1, int64_t{1} << 30);
        if (strings) in.attributes_to_get = list;
      }
    }
  }
  const Json* names = p.Map(request, "ExpressionAttributeNames", "String");
  const Json* values = spec.values ? p.Map(request, "ExpressionAttributeValues",
                                           "AttributeValue")
                                   : nullptr;
  if (names != nullptr) {
    for (const auto& [key, v] : names->items()) (void)p.StringValue(v);
  }
  if (names != nullptr || values != nullptr) {
    Result<expr::Placeholders> ph = expr::Placeholders::Create(names, values);
    if (ph.ok()) {
      in.placeholders = std::move(ph).value();
    } else {
      Error error = std::move(ph).error();
      if (error.type == ErrorType::kSerialization) {
        p.SerializationError(std::move(error.message));
      } else {
        in.placeholder_error = std::move(error);
      }
    }
  }
  return in;
}

Status CheckExpressionStyles(const ExpressionInput& in) {
  const Json& request = *in.request;
  if (in.spec.legacy) {
    return expr::CheckParameterStyles(request, in.spec.operation);
  }
  const bool any_expression = in.condition_text || in.update_text ||
                              in.key_condition_text || in.filter_text ||
                              in.projection_text;
  if (Present(request, "ExpressionAttributeNames") && !any_expression) {
    return Error::Validation(
        "ExpressionAttributeNames can only be specified when using "
        "expressions");
  }
  if (in.spec.values && Present(request, "ExpressionAttributeValues") &&
      !in.condition_text && !in.update_text) {
    return Error::Validation(
        "ExpressionAttributeValues can only be specified when using "
        "expressions: " +
        std::string(in.spec.values_text));
  }
  return OkStatus();
}

Result<ExpressionParams> ParseExpressions(ExpressionInput in,
                                          ExpressionCache* cache) {
  ExpressionParams e;
  // 1. Legacy conversions.
  if (in.attribute_updates != nullptr) {
    DDBLAB_ASSIGN_OR_RETURN(
        e.update, expr::ConvertAttributeUpdates(*in.attribute_updates));
    e.legacy_update = true;
  }
  if (in.spec.condition &&
      (in.expected != nullptr || in.conditional_operator != nullptr)) {
    DDBLAB_ASSIGN_OR_RETURN(
        e.condition, expr::ConvertExpected(in.expected ? *in.expected : Json(),
                                           in.conditional_operator));
  }
  if (in.spec.filter &&
      (in.legacy_filter != nullptr || in.conditional_operator != nullptr)) {
    DDBLAB_ASSIGN_OR_RETURN(
        e.filter,
        expr::ConvertFilter(
            in.legacy_filter ? *in.legacy_filter : Json(),
            in.conditional_operator,
            in.spec.operation == "Query" ? "QueryFilter" : "ScanFilter"));
    e.legacy_filter = true;
  }
  if (in.attributes_to_get != nullptr) {
    DDBLAB_ASSIGN_OR_RETURN(
        e.projection, expr::ConvertAttributesToGet(*in.attributes_to_get));
    e.legacy_projection = true;
  }
  // 2. The placeholder maps.
  if (in.placeholder_error) return *std::move(in.placeholder_error);
  e.placeholders = std::move(in.placeholders);
  expr::Placeholders& ph = e.placeholders;
  // 3. The expressions, in DynamoDB's order.
  if (in.update_text) {
    DDBLAB_ASSIGN_OR_RETURN(e.update, ParseUpdate(cache, *in.update_text, ph));
  }
  if (in.condition_text) {
    DDBLAB_ASSIGN_OR_RETURN(
        e.condition, ParseCondition(cache, *in.condition_text,
                                    expr::ExpressionKind::kCondition, ph));
  }
  if (in.key_condition_text) {
    DDBLAB_ASSIGN_OR_RETURN(
        e.key_condition,
        ParseCondition(cache, *in.key_condition_text,
                       expr::ExpressionKind::kKeyCondition, ph));
  }
  if (in.filter_text) {
    DDBLAB_ASSIGN_OR_RETURN(e.filter,
                            ParseCondition(cache, *in.filter_text,
                                           expr::ExpressionKind::kFilter, ph));
  }
  if (in.projection_text) {
    DDBLAB_ASSIGN_OR_RETURN(e.projection,
                            ParseProjection(cache, *in.projection_text, ph));
  }
  // 4. Unused names / values.
  DDBLAB_RETURN_IF_ERROR(ph.CheckAllUsed());
  return e;
}

std::vector<std::string> TableKeyNames(const Table& table) {
  std::vector<std::string> out{table.key.hash.name};
  if (table.key.range) out.push_back(table.key.range->name);
  return out;
}

std::vector<std::string> IndexKeyNames(const Table& table) {
  std::vector<std::string> out;
  auto add = [&](const std::string& name) {
    if (table.key.Contains(name)) return;
    if (std::find(out.begin(), out.end(), name) != out.end()) return;
    out.push_back(name);
  };
  for (const IndexDef& index : table.indexes) {
    for (const KeyElement* k : index.key.HashElements()) add(k->name);
    for (const KeyElement* k : index.key.RangeElements()) add(k->name);
  }
  return out;
}

Status CheckExpressionKeys(const ExpressionParams& e, const Table& table) {
  std::vector<const expr::DocumentPath*> paths;
  if (e.update) {
    for (const expr::UpdateAction& a : e.update->actions) {
      paths.push_back(&a.path);
      if (a.kind == expr::UpdateAction::Kind::kSet) {
        CollectValuePaths(a.value, &paths);
      }
    }
  }
  AppendCondition(e.condition, &paths);
  AppendCondition(e.filter, &paths);
  if (e.projection) {
    for (const expr::DocumentPath& p : e.projection->paths) paths.push_back(&p);
  }
  const std::vector<std::string> table_keys = TableKeyNames(table);
  if (std::optional<Error> error =
          expr::CheckNestedKeyPaths(paths, table_keys, IndexKeyNames(table))) {
    return *std::move(error);
  }
  if (e.update) {
    if (std::optional<Error> error =
            expr::CheckUpdateKeyTargets(*e.update, table_keys)) {
      return *std::move(error);
    }
    DDBLAB_RETURN_IF_ERROR(CheckIndexKeyUpdateTypes(*e.update, table));
  }
  return OkStatus();
}

}  // namespace ddblab::engine
