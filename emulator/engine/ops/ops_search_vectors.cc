// SearchVectors (the DynamoDB API reference; texts captured against
// DynamoDB): exact k-nearest neighbours over a vector index's float32
// copies (vector/vector_store.h), with the SearchConditionExpression grammar
// of vector/search_condition.h.
//
// Order of the checks: the request's shape (types; TableName, IndexName
// 3..255, SearchVector 1..4096 elements, TopK >= 1 — the classic
// request-model texts: DynamoDB's search endpoint words JSON errors like a
// Rust deserialiser, which is not reproduced), then
//   TopK > 100 -> "Provided TopK value '101' is out of valid range. The
//     value must be between 1 and 100 inclusive";
//   the expressions (placeholders, SearchConditionExpression and its
//   grammar, ProjectionExpression, unused names/values: the Query texts,
//   "Invalid SearchConditionExpression: " for the condition);
//   the table (ResourceNotFoundException "Requested resource not found");
//   the index: unknown, not a vector index, being deleted, or still in
//     resource allocation -> "The table does not have the specified index:
//     <i>"; backfilling -> "Cannot search backfilling vector index: <i>";
//   SearchVector elements that are not numbers within float32 range ->
//     "Search vector contains invalid values. All values in the search vector
//     must be a 32-bit floating-point number attribute";
//   its length -> "Input search vector dimension 2 does not match vector
//     index dimension 3";
//   attributes outside the SearchSchema -> "SearchConditionExpression must
//     not contain any attributes that is not in SearchSchema. Invalid
//     attribute: <a>" (DynamoDB's grammar);
//   the HASH rules: no expression -> "SearchConditionExpression must be
//     provided when SearchSchema has a HASH key"; an expression without the
//     HASH attribute -> "SearchConditionExpression must have all HASH
//     attributes in configured SearchSchema"; a HASH value of another type
//     -> "Type of '<a>' attribute in SearchConditionExpression (N) does not
//     match type in search schema (S)"; an empty string -> "One or more
//     parameter values are not valid. The AttributeValue for a key attribute
//     cannot contain an empty string value. Key: <a>".
//
// The answer: {"SearchResults": [{"Item", "Score"}...]} nearest first (an
// empty list when nothing matches), each Item the index's view of the item
// without the vector attribute, or what ProjectionExpression names of the
// view (the vector then as its float32 copy, Float32Text numbers). An
// INLINE_FILTER value of another type than declared matches nothing.
// ConsumedCapacity (TOTAL and INDEXES alike): {"VectorSearchRequestBytes":
// b}; DynamoDB's figure is not reproducible (it varies between identical
// calls), ours is deterministic: 30.6875 B x dimensions, plus per result 72
// B, the returned item's size and 4 B x dimensions if the vector is
// returned, at least 1024 (a model measured against DynamoDB by another
// emulator).
//
// Thread-safety: takes the engine lock for the lookup and the search.
#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "emulator/engine/capacity/capacity.h"
#include "emulator/engine/operations.h"
#include "emulator/engine/vector/search_condition.h"
#include "emulator/engine/vector/vector_entry.h"
#include "emulator/expr/expr.h"
#include "emulator/value/codec.h"
#include "emulator/value/item_codec.h"
#include "emulator/value/item_size.h"
#include "emulator/value/key_codec.h"

namespace ddblab::engine {
namespace {

constexpr int64_t kMaxTopK = 100;
constexpr size_t kMaxSearchVector = 4096;

struct SearchRequest {
  std::string table;
  std::string index;
  const Json* vector = nullptr;  // the SearchVector list as received
  int64_t top_k = 0;
  std::vector<SearchEquality> conditions;
  bool has_condition = false;
  std::optional<expr::ProjectionExpression> projection;
  CapacityMode capacity = CapacityMode::kNone;
};

// A length constraint without the value echo, as DynamoDB words it for
// SearchVectors' IndexName and SearchVector.
void LengthConstraint(RequestParser& p, std::string_view member, size_t size,
                      size_t min, size_t max) {
  if (size < min) {
    p.AddConstraintError("Value at '" + std::string(member) +
                         "' failed to satisfy constraint: Member must have "
                         "length greater than or equal to " +
                         std::to_string(min));
  } else if (size > max) {
    p.AddConstraintError("Value at '" + std::string(member) +
                         "' failed to satisfy constraint: Member must have "
                         "length less than or equal to " +
                         std::to_string(max));
  }
}

Result<SearchRequest> Parse(const Json& request) {
  RequestParser p(request);
  SearchRequest r;
  std::optional<std::string> table = p.TableNameOrArn(request);
  std::optional<std::string> index = p.String(request, "IndexName");
  p.NotNull(index.has_value(), "indexName");
  if (index) {
    LengthConstraint(p, "IndexName", index->size(), 3, 255);
    if (index->size() >= 3 && index->size() <= 255) {
      p.NamePattern(*index, "indexName");
    }
  }
  r.vector = p.List(request, "SearchVector");
  p.NotNull(r.vector != nullptr, "searchVector");
  if (r.vector != nullptr) {
    LengthConstraint(p, "SearchVector", r.vector->size(), 1, kMaxSearchVector);
  }
  std::optional<int64_t> top_k = p.Integer(request, "TopK");
  p.NotNull(top_k.has_value(), "topK");
  if (top_k) p.Range(*top_k, "topK", 1, std::nullopt);
  std::optional<std::string> condition =
      p.String(request, "SearchConditionExpression");
  std::optional<std::string> projection =
      p.String(request, "ProjectionExpression");
  const Json* names = p.Map(request, "ExpressionAttributeNames", "String");
  const Json* values =
      p.Map(request, "ExpressionAttributeValues", "AttributeValue");
  if (names != nullptr) {
    for (const auto& [key, v] : names->items()) (void)p.StringValue(v);
  }
  // A JSON-shape error inside the maps is a SerializationException, before
  // any constraint; their other errors come with the expressions.
  Result<expr::Placeholders> placeholders =
      expr::Placeholders::Create(names, values);
  if (!placeholders.ok() &&
      placeholders.error().type == ErrorType::kSerialization) {
    p.SerializationError(placeholders.error().message);
  }
  ReadCapacityMode(p, request, &r.capacity);
  DDBLAB_RETURN_IF_ERROR(p.Finish());
  r.table = *table;
  r.index = *index;
  r.top_k = *top_k;
  if (r.top_k > kMaxTopK) {
    return Error::Validation("Provided TopK value '" + std::to_string(r.top_k) +
                             "' is out of valid range. The value must be "
                             "between 1 and 100 inclusive");
  }

  DDBLAB_ASSIGN_OR_RETURN(expr::Placeholders ph, std::move(placeholders));
  if (ph.has_names() && !condition && !projection) {
    return Error::Validation(
        "ExpressionAttributeNames can only be specified when using "
        "expressions");
  }
  if (ph.has_values() && !condition) {
    return Error::Validation(
        "ExpressionAttributeValues can only be specified when using "
        "expressions: SearchConditionExpression is null");
  }
  if (condition) {
    r.has_condition = true;
    DDBLAB_ASSIGN_OR_RETURN(
        expr::ConditionExpression parsed,
        expr::ParseCondition(*condition, expr::ExpressionKind::kSearchCondition,
                             ph));
    DDBLAB_ASSIGN_OR_RETURN(r.conditions, AnalyzeSearchCondition(parsed));
  }
  if (projection) {
    DDBLAB_ASSIGN_OR_RETURN(r.projection,
                            expr::ParseProjection(*projection, ph));
  }
  DDBLAB_RETURN_IF_ERROR(ph.CheckAllUsed());
  return r;
}

// The query vector as float32s; nullopt if an element is not a number
// within the float32 range.
std::optional<std::vector<float>> QueryVector(const Json& list) {
  std::vector<float> out;
  out.reserve(list.size());
  for (const Json& e : list) {
    if (!e.is_object() || e.size() != 1 || !e.contains("N") ||
        !e["N"].is_string()) {
      return std::nullopt;
    }
    Result<value::Number> n = value::Number::Parse(e["N"].get<std::string>());
    if (!n.ok()) return std::nullopt;
    std::optional<float> f = ToFloat32(*n);
    if (!f) return std::nullopt;
    out.push_back(*f);
  }
  return out;
}

// The numbers of the vector attribute's JSON (any depth: a projection may
// name an element) rewritten as Float32Text.
void RewriteFloatTexts(Json& j) {
  if (j.is_array()) {
    for (Json& e : j) RewriteFloatTexts(e);
    return;
  }
  if (!j.is_object()) return;
  if (auto it = j.find("N"); it != j.end() && it->is_string()) {
    const std::string text = it->get<std::string>();
    float f = 0;
    auto r = std::from_chars(text.data(), text.data() + text.size(), f);
    if (r.ec == std::errc()) *it = Float32Text(f);
    return;
  }
  for (auto& [key, member] : j.items()) RewriteFloatTexts(member);
}

bool ReturnsVector(const SearchRequest& r, const VectorIndexDef& v) {
  if (!r.projection) return false;
  for (const expr::DocumentPath& path : r.projection->paths) {
    if (path.top() == v.attribute) return true;
  }
  return false;
}

Result<Json> SearchVectors(EmulatorImpl& impl, const Json& request) {
  DDBLAB_ASSIGN_OR_RETURN(SearchRequest r, Parse(request));
  auto lock = impl.Lock();
  DDBLAB_ASSIGN_OR_RETURN(Catalog::Entry * entry,
                          impl.FindTable(r.table, TableLookup::kData));
  const Table& table = *entry->table;
  const VectorIndexDef* index = table.FindVectorIndex(r.index);
  if (index == nullptr || !index->Live() ||
      (index->status == TableStatus::kCreating && !index->backfilling)) {
    return Error::Validation("The table does not have the specified index: " +
                             r.index);
  }
  if (index->status == TableStatus::kCreating) {
    return Error::Validation("Cannot search backfilling vector index: " +
                             r.index);
  }
  std::optional<std::vector<float>> query = QueryVector(*r.vector);
  if (!query) {
    return Error::Validation(
        "Search vector contains invalid values. All values in the search "
        "vector must be a 32-bit floating-point number attribute");
  }
  if (static_cast<int64_t>(query->size()) != index->dimensions) {
    return Error::Validation("Input search vector dimension " +
                             std::to_string(query->size()) +
                             " does not match vector index dimension " +
                             std::to_string(index->dimensions));
  }
  for (const SearchEquality& c : r.conditions) {
    if (index->FindSchemaElement(c.attribute) == nullptr) {
      return Error::Validation(
          "SearchConditionExpression must not contain any attributes that is "
          "not in SearchSchema. Invalid attribute: " +
          c.attribute);
    }
  }
  std::vector<SchemaEquality> where;
  bool matches_nothing = false;
  if (const SearchSchemaElement* hash = index->HashElement()) {
    if (!r.has_condition) {
      return Error::Validation(
          "SearchConditionExpression must be provided when SearchSchema has "
          "a HASH key");
    }
    bool named = false;
    for (const SearchEquality& c : r.conditions)
      named |= c.attribute == hash->name;
    if (!named) {
      return Error::Validation(
          "SearchConditionExpression must have all HASH attributes in "
          "configured SearchSchema");
    }
  }
  for (const SearchEquality& c : r.conditions) {
    size_t element = 0;
    while (index->search_schema[element].name != c.attribute) ++element;
    const SearchSchemaElement& e = index->search_schema[element];
    if (c.value.type() != e.type) {
      if (e.hash) {
        return Error::Validation(
            "Type of '" + e.name +
            "' attribute in SearchConditionExpression (" +
            std::string(value::AttributeValue::TypeName(c.value.type())) +
            ") does not match type in search schema (" +
            std::string(value::AttributeValue::TypeName(e.type)) + ")");
      }
      matches_nothing = true;
      continue;
    }
    if (e.hash && c.value.type() == AttrType::kS && c.value.s().empty()) {
      return Error::Validation(
          "One or more parameter values are not valid. The AttributeValue "
          "for a key attribute cannot contain an empty string value. Key: " +
          e.name);
    }
    where.push_back(SchemaEquality{element, value::EncodeKey(c.value)});
  }

  const bool with_vector = ReturnsVector(r, *index);
  double bytes = std::round(30.6875 * static_cast<double>(index->dimensions));
  Json results = Json::array();
  auto data = entry->vectors.find(index->name);
  if (!matches_nothing && data != entry->vectors.end()) {
    const VectorIndexData& d = data->second;
    std::vector<VectorHit> hits =
        d.Search(*query, index->distance, static_cast<size_t>(r.top_k), where);
    for (const VectorHit& hit : hits) {
      const VectorIndexData::Row& row = d.row(hit.slot);
      DDBLAB_ASSIGN_OR_RETURN(std::optional<storage::StoredItem> stored,
                              impl.store().Get(table.id, row.pk, row.sk));
      if (!stored) continue;  // cannot happen: the index follows the items
      DDBLAB_ASSIGN_OR_RETURN(value::Item item,
                              value::DeserializeItem(stored->bytes));
      value::Item view = VectorView(table, *index, item);
      if (r.projection) {
        if (with_vector) {
          view.insert_or_assign(index->attribute,
                                Float32List(d.values(hit.slot)));
        }
        view = expr::Project(*r.projection, view);
      }
      auto vector = view.find(index->attribute);
      bytes += 72;
      if (vector != view.end()) {
        bytes += static_cast<double>(4 * index->dimensions);
        value::Item rest = view;
        rest.erase(index->attribute);
        bytes += static_cast<double>(value::ItemSize(rest));
      } else {
        bytes += static_cast<double>(value::ItemSize(view));
      }
      Json item_json = value::EncodeItem(view);
      if (auto it = item_json.find(index->attribute); it != item_json.end()) {
        RewriteFloatTexts(*it);
      }
      Json result = Json::object();
      result["Item"] = std::move(item_json);
      result["Score"] = hit.score;
      results.push_back(std::move(result));
    }
  }
  Json out = Json::object();
  out["SearchResults"] = std::move(results);
  if (r.capacity != CapacityMode::kNone) {
    out["ConsumedCapacity"] =
        Json{{"VectorSearchRequestBytes", std::max(1024.0, bytes)}};
  }
  return out;
}

}  // namespace

Result<Json> HandleSearchVectors(EmulatorImpl& impl, CallContext& /*call*/,
                                 const Json& request) {
  return SearchVectors(impl, request);
}

}  // namespace ddblab::engine
