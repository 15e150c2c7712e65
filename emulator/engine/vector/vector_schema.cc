#include "emulator/engine/vector/vector_schema.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

namespace ddblab::engine {
namespace {

Error Invalid(std::string_view text) {
  return Error::Validation(std::string(kInvalidParams) + std::string(text));
}

bool Defined(const std::vector<KeyElement>& defs, const std::string& name,
             AttrType* type) {
  for (const KeyElement& d : defs) {
    if (d.name == name) {
      *type = d.type;
      return true;
    }
  }
  return false;
}

}  // namespace

Error VectorBillingError() {
  return Invalid(
      "Vector indexes are only supported for PAY_PER_REQUEST tables");
}

RawVectorIndex ParseVectorIndex(RequestParser& p, const Json& value,
                                std::string_view path) {
  RawVectorIndex raw;
  const Json* s = p.StructValue(value, "VectorIndex");
  if (s == nullptr) {
    p.NotNull(false, path);
    return raw;
  }
  raw.name = p.String(*s, "IndexName");
  p.CheckIndexName(raw.name, MemberPath(path, "indexName"));
  const std::string apath = MemberPath(path, "vectorAttribute");
  const Json* attr =
      p.Struct(*s, "VectorAttribute", "VectorAttributeDefinition");
  p.NotNull(attr != nullptr, apath);
  if (attr != nullptr) {
    raw.attribute = p.String(*attr, "AttributeName");
    const std::string npath = MemberPath(apath, "attributeName");
    p.NotNull(raw.attribute.has_value(), npath);
    if (raw.attribute) p.Length(*raw.attribute, npath, 1, 255);
  }
  if (const Json* list = p.List(*s, "SearchSchema")) {
    raw.schema_present = true;
    const std::string spath = MemberPath(path, "searchSchema");
    p.ListLength(*list, spath, 1, std::numeric_limits<int64_t>::max());
    for (size_t i = 0; i < list->size(); ++i) {
      const std::string epath = ElementPath(spath, i);
      RawSearchSchemaElement e;
      const Json* el = p.StructValue((*list)[i], "SearchSchemaElement");
      if (el == nullptr) {
        p.NotNull(false, epath);
        raw.schema.push_back(e);
        continue;
      }
      e.name = p.String(*el, "AttributeName");
      p.NotNull(e.name.has_value(), MemberPath(epath, "attributeName"));
      if (e.name) p.Length(*e.name, MemberPath(epath, "attributeName"), 1, 255);
      e.type = p.String(*el, "SearchSchemaElementType");
      const std::string tpath = MemberPath(epath, "searchSchemaElementType");
      p.NotNull(e.type.has_value(), tpath);
      if (e.type) p.Enum(*e.type, tpath, {"HASH", "INLINE_FILTER"});
      raw.schema.push_back(e);
    }
  }
  raw.projection = ParseProjection(p, *s, MemberPath(path, "projection"));
  raw.dimensions = p.Long(*s, "Dimensions");
  const std::string dpath = MemberPath(path, "dimensions");
  p.NotNull(raw.dimensions.has_value(), dpath);
  if (raw.dimensions) p.Range(*raw.dimensions, dpath, 1, std::nullopt);
  raw.distance = p.String(*s, "DistanceFunction");
  const std::string fpath = MemberPath(path, "distanceFunction");
  p.NotNull(raw.distance.has_value(), fpath);
  if (raw.distance) {
    p.Enum(*raw.distance, fpath, {"COSINE", "DOT_PRODUCT", "EUCLIDEAN"});
  }
  return raw;
}

Result<VectorIndexDef> BuildVectorIndex(const RawVectorIndex& raw,
                                        const std::vector<KeyElement>& defs) {
  VectorIndexDef v;
  v.name = *raw.name;
  v.attribute = *raw.attribute;
  v.dimensions = *raw.dimensions;
  if (v.dimensions > kMaxVectorDimensions) {
    return Invalid(
        "Number of dimensions must be between 1 and 4096 inclusive.");
  }
  AttrType ignored;
  if (Defined(defs, v.attribute, &ignored)) {
    return Invalid("Conflicting attribute definition for '" + v.attribute +
                   "'. An attribute cannot be defined in AttributeDefinitions "
                   "when used as a VectorAttribute.");
  }
  const size_t hashes = static_cast<size_t>(std::count_if(
      raw.schema.begin(), raw.schema.end(),
      [](const RawSearchSchemaElement& e) { return e.type == "HASH"; }));
  if (hashes > 1) {
    return Invalid("Value '" + std::to_string(hashes) +
                   "' at 'SearchSchema' failed to satisfy constraint: Member "
                   "must have HASH count less than or equal to 1");
  }
  std::set<std::string> seen;
  for (const RawSearchSchemaElement& e : raw.schema) {
    if (!seen.insert(*e.name).second) {
      return Invalid("SearchSchema contains a duplicate AttributeName");
    }
  }
  for (const RawSearchSchemaElement& e : raw.schema) {
    SearchSchemaElement el;
    el.name = *e.name;
    el.hash = e.type == "HASH";
    if (!Defined(defs, el.name, &el.type)) {
      return Invalid(
          "One element in SearchSchema is not defined in attribute "
          "definitions");
    }
    v.search_schema.push_back(std::move(el));
  }
  const size_t filters = raw.schema.size() - hashes;
  if (filters > kMaxInlineFilters) {
    return Invalid("Value '" + std::to_string(filters) +
                   "' at 'SearchSchema' failed to satisfy constraint: Member "
                   "must have INLINE_FILTER count less than or equal to 18");
  }
  DDBLAB_RETURN_IF_ERROR(
      BuildProjection(raw.projection, &v.projection, &v.non_key_attributes));
  if (*raw.distance == "EUCLIDEAN") {
    v.distance = DistanceFunction::kEuclidean;
  } else if (*raw.distance == "DOT_PRODUCT") {
    v.distance = DistanceFunction::kDotProduct;
  } else {
    v.distance = DistanceFunction::kCosine;
  }
  return v;
}

Status CheckVectorIndexSet(const std::vector<VectorIndexDef>& indexes) {
  size_t live = 0;
  for (const VectorIndexDef& v : indexes) live += v.Live() ? 1 : 0;
  if (live > kMaxVectorIndexes) {
    return Invalid("VectorIndex count exceeds the per-table limit of 5");
  }
  std::map<std::string, int64_t> dims;
  for (const VectorIndexDef& v : indexes) {
    if (!v.Live()) continue;
    auto [it, inserted] = dims.emplace(v.attribute, v.dimensions);
    if (!inserted && it->second != v.dimensions) {
      return Invalid("Conflicting attribute definition for '" + v.attribute +
                     "'. All VectorIndexes on the same vector attribute must "
                     "use the same dimensions.");
    }
  }
  return OkStatus();
}

}  // namespace ddblab::engine
