#include "emulator/engine/table_schema.h"

#include <algorithm>
#include <limits>
#include <set>

namespace ddblab::engine {
namespace {

constexpr int64_t kMaxCapacityUnits = 1000000000000;  // 1e12
// HASH (and RANGE) attributes of a multi-attribute GSI key.
constexpr size_t kMaxKeyAttributes = 4;

Error Invalid(std::string_view text) {
  return Error::Validation(std::string(kInvalidParams) + std::string(text));
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out = "[";
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += ", ";
    out += names[i];
  }
  return out + "]";
}

bool Defined(const std::vector<KeyElement>& defs, const std::string& name) {
  return std::any_of(defs.begin(), defs.end(),
                     [&](const KeyElement& d) { return d.name == name; });
}

std::vector<std::string> DefNames(const std::vector<KeyElement>& defs) {
  std::vector<std::string> out;
  for (const KeyElement& d : defs) out.push_back(d.name);
  return out;
}

std::vector<std::string> KeyNames(const std::vector<RawKeyElement>& key) {
  std::vector<std::string> out;
  for (const RawKeyElement& k : key) out.push_back(k.name.value_or(""));
  return out;
}

AttrType TypeOf(const std::vector<KeyElement>& defs, const std::string& name) {
  for (const KeyElement& d : defs) {
    if (d.name == name) return d.type;
  }
  return AttrType::kS;
}

// Shared first checks of a key schema: same names, HASH first, RANGE second.
Status CheckKeyOrder(const std::vector<RawKeyElement>& key) {
  if (key.size() == 2 && key[0].name == key[1].name) {
    return Error::Validation(
        "Both the Hash Key and the Range Key element in the KeySchema have "
        "the same name");
  }
  if (key.empty() || key[0].key_type != "HASH") {
    return Error::Validation(
        "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
  }
  if (key.size() == 2 && key[1].key_type != "RANGE") {
    return Error::Validation(
        "Invalid KeySchema: The second KeySchemaElement is not a RANGE key "
        "type");
  }
  return OkStatus();
}

KeySchema MakeKeySchema(const std::vector<RawKeyElement>& key,
                        const std::vector<KeyElement>& defs) {
  KeySchema out;
  out.hash = KeyElement{*key[0].name, TypeOf(defs, *key[0].name)};
  for (size_t i = 1; i < key.size(); ++i) {
    KeyElement k{*key[i].name, TypeOf(defs, *key[i].name)};
    if (key[i].key_type == "HASH") {
      out.more_hash.push_back(std::move(k));
    } else if (!out.range) {
      out.range = std::move(k);
    } else {
      out.more_range.push_back(std::move(k));
    }
  }
  return out;
}

// The shape of a GSI KeySchema, which may hold up to four HASH and four
// RANGE attributes (multi-attribute keys). A one- or two-element schema
// gets the same checks and texts as before multi-attribute keys existed.
// The texts are DynamoDB's (recorded in docs/spec-notes/
// multi-attribute-gsi.md); the order of the checks among themselves is our
// choice: names, first element, counts, HASH-before-RANGE.
Status CheckGsiKeyShape(const std::vector<RawKeyElement>& key) {
  size_t hashes = 0;
  size_t ranges = 0;
  for (const RawKeyElement& k : key) {
    (k.key_type == "HASH" ? hashes : ranges)++;
  }
  if (key.size() <= 2 && !(hashes == 2)) return CheckKeyOrder(key);
  std::set<std::string> names;
  for (const RawKeyElement& k : key) {
    if (!names.insert(*k.name).second) {
      return Error::Validation(
          "The KeySchema contains multiple key attributes with the same name");
    }
  }
  if (key[0].key_type != "HASH") {
    return Error::Validation(
        "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
  }
  if (hashes > kMaxKeyAttributes) {
    return Invalid(
        "The KeySchema exceeds the maximum allowed number of HASH key "
        "attributes");
  }
  if (ranges > kMaxKeyAttributes) {
    return Invalid(
        "The KeySchema exceeds the maximum allowed number of RANGE key "
        "attributes");
  }
  bool seen_range = false;
  for (const RawKeyElement& k : key) {
    if (k.key_type == "RANGE") seen_range = true;
    if (k.key_type == "HASH" && seen_range) {
      return Invalid(
          "All HASH key attributes must precede RANGE key attributes in the "
          "KeySchema");
    }
  }
  return OkStatus();
}

}  // namespace

std::vector<RawAttributeDefinition> ParseAttributeDefinitions(
    RequestParser& p, const Json& request, bool required) {
  std::vector<RawAttributeDefinition> out;
  const Json* list = p.List(request, "AttributeDefinitions");
  if (required) p.NotNull(list != nullptr, "attributeDefinitions");
  if (list == nullptr) return out;
  for (size_t i = 0; i < list->size(); ++i) {
    std::string path = ElementPath("attributeDefinitions", i);
    const Json* s = p.StructValue((*list)[i], "AttributeDefinition");
    RawAttributeDefinition d;
    if (s == nullptr) {
      p.NotNull(false, path);
      out.push_back(d);
      continue;
    }
    d.name = p.String(*s, "AttributeName");
    p.NotNull(d.name.has_value(), MemberPath(path, "attributeName"));
    if (d.name) p.Length(*d.name, MemberPath(path, "attributeName"), 1, 255);
    d.type = p.String(*s, "AttributeType");
    p.NotNull(d.type.has_value(), MemberPath(path, "attributeType"));
    if (d.type)
      p.Enum(*d.type, MemberPath(path, "attributeType"), {"B", "N", "S"});
    out.push_back(d);
  }
  return out;
}

std::vector<RawKeyElement> ParseKeySchema(RequestParser& p, const Json& obj,
                                          std::string_view path, bool required,
                                          bool check_key_type, bool* present,
                                          int64_t max_elements) {
  std::vector<RawKeyElement> out;
  const Json* list = p.List(obj, "KeySchema");
  if (present != nullptr) *present = list != nullptr;
  if (required) p.NotNull(list != nullptr, path);
  if (list == nullptr) return out;
  p.ListLength(*list, path, 1, max_elements);
  for (size_t i = 0; i < list->size(); ++i) {
    std::string epath = ElementPath(path, i);
    const Json* s = p.StructValue((*list)[i], "KeySchemaElement");
    RawKeyElement k;
    if (s == nullptr) {
      p.NotNull(false, epath);
      out.push_back(k);
      continue;
    }
    k.name = p.String(*s, "AttributeName");
    p.NotNull(k.name.has_value(), MemberPath(epath, "attributeName"));
    if (k.name) p.Length(*k.name, MemberPath(epath, "attributeName"), 1, 255);
    k.key_type = p.String(*s, "KeyType");
    p.NotNull(k.key_type.has_value(), MemberPath(epath, "keyType"));
    if (k.key_type && check_key_type) {
      p.Enum(*k.key_type, MemberPath(epath, "keyType"), {"HASH", "RANGE"});
    }
    out.push_back(k);
  }
  return out;
}

RawThroughput ParseThroughput(RequestParser& p, const Json& obj,
                              std::string_view path) {
  RawThroughput t;
  const Json* s =
      p.Struct(obj, "ProvisionedThroughput", "ProvisionedThroughput");
  if (s == nullptr) return t;
  t.present = true;
  t.write = p.Long(*s, "WriteCapacityUnits");
  t.read = p.Long(*s, "ReadCapacityUnits");
  std::string wpath = MemberPath(path, "writeCapacityUnits");
  std::string rpath = MemberPath(path, "readCapacityUnits");
  p.NotNull(t.write.has_value(), wpath);
  if (t.write) p.Range(*t.write, wpath, 1, std::nullopt);
  p.NotNull(t.read.has_value(), rpath);
  if (t.read) p.Range(*t.read, rpath, 1, std::nullopt);
  return t;
}

RawProjection ParseProjection(RequestParser& p, const Json& obj,
                              std::string_view ppath) {
  RawProjection out;
  const Json* proj = p.Struct(obj, "Projection", "Projection");
  p.NotNull(proj != nullptr, ppath);
  if (proj == nullptr) return out;
  out.present = true;
  out.type = p.String(*proj, "ProjectionType");
  if (out.type) {
    p.Enum(*out.type, MemberPath(ppath, "projectionType"),
           {"ALL", "INCLUDE", "KEYS_ONLY"});
  }
  const Json* nka = p.List(*proj, "NonKeyAttributes");
  if (nka != nullptr) {
    std::string npath = MemberPath(ppath, "nonKeyAttributes");
    p.ListLength(*nka, npath, 1, 20);
    std::vector<std::string> names;
    for (size_t i = 0; i < nka->size(); ++i) {
      std::optional<std::string> n = p.StringValue((*nka)[i]);
      if (!n) continue;
      p.Length(*n, ElementPath(npath, i), 1, 255);
      names.push_back(*n);
    }
    out.non_key = std::move(names);
  }
  return out;
}

RawIndex ParseIndex(RequestParser& p, const Json& value, std::string_view path,
                    bool global) {
  RawIndex raw;
  const Json* s = p.StructValue(
      value, global ? "GlobalSecondaryIndex" : "LocalSecondaryIndex");
  if (s == nullptr) {
    p.NotNull(false, path);
    return raw;
  }
  raw.name = p.String(*s, "IndexName");
  p.CheckIndexName(raw.name, MemberPath(path, "indexName"));
  // A GSI KeySchema has no length bound of its own: the HASH/RANGE counts
  // are checked with their own messages (CheckGsiKeyShape).
  raw.key = ParseKeySchema(p, *s, MemberPath(path, "keySchema"), true, true,
                           &raw.key_present,
                           global ? std::numeric_limits<int64_t>::max() : 2);
  raw.projection = ParseProjection(p, *s, MemberPath(path, "projection"));
  if (global) {
    raw.throughput =
        ParseThroughput(p, *s, MemberPath(path, "provisionedThroughput"));
    raw.on_demand = ParseOnDemandSettings(p, *s, path);
  }
  return raw;
}

std::vector<KeyElement> ToDefinitions(
    const std::vector<RawAttributeDefinition>& defs) {
  std::vector<KeyElement> out;
  for (const RawAttributeDefinition& d : defs) {
    KeyElement k;
    k.name = d.name.value_or("");
    value::AttributeValue::TypeFromName(d.type.value_or("S"), &k.type);
    out.push_back(std::move(k));
  }
  return out;
}

Status CheckDuplicateDefinitions(const std::vector<KeyElement>& defs) {
  std::set<std::string> seen;
  for (const KeyElement& d : defs) {
    if (!seen.insert(d.name).second) {
      return Error::Validation("Attribute Name is duplicated: " + d.name);
    }
  }
  return OkStatus();
}

Result<KeySchema> BuildTableKey(const std::vector<RawKeyElement>& key,
                                const std::vector<KeyElement>& defs) {
  std::vector<std::string> names = KeyNames(key);
  bool undefined = std::any_of(names.begin(), names.end(), [&](const auto& n) {
    return !Defined(defs, n);
  });
  if (key.size() == 2 &&
      (undefined || (names[0] == names[1] && defs.size() == 1))) {
    return Error::Validation(
        "Invalid KeySchema: Some index key attribute have no definition");
  }
  if (key.size() == 1 && undefined) {
    return Invalid(
        "Some index key attributes are not defined in AttributeDefinitions. "
        "Keys: " +
        JoinNames(names) +
        ", AttributeDefinitions: " + JoinNames(DefNames(defs)));
  }
  DDBLAB_RETURN_IF_ERROR(CheckKeyOrder(key));
  return MakeKeySchema(key, defs);
}

Status BuildProjection(const RawProjection& proj, ProjectionType* type,
                       std::vector<std::string>* non_key) {
  if (!proj.type) return Invalid("Unknown ProjectionType: null");
  if (proj.non_key && *proj.type != "INCLUDE") {
    return Invalid("ProjectionType is " + *proj.type +
                   ", but NonKeyAttributes is specified");
  }
  if (!proj.non_key && *proj.type == "INCLUDE") {
    return Invalid(
        "ProjectionType is INCLUDE, but NonKeyAttributes is not specified");
  }
  if (*proj.type == "ALL") {
    *type = ProjectionType::kAll;
  } else if (*proj.type == "KEYS_ONLY") {
    *type = ProjectionType::kKeysOnly;
  } else {
    *type = ProjectionType::kInclude;
    std::set<std::string> seen;
    for (const std::string& n : *proj.non_key) {
      if (!seen.insert(n).second) {
        return Invalid("Duplicate element in NonKeyAttributes: " + n);
      }
    }
    *non_key = *proj.non_key;
  }
  return OkStatus();
}

Result<IndexDef> BuildIndex(const RawIndex& raw,
                            const std::vector<KeyElement>& defs,
                            const KeySchema& table_key, bool global) {
  const std::string& name = *raw.name;
  std::vector<std::string> names = KeyNames(raw.key);
  for (const std::string& n : names) {
    if (!Defined(defs, n)) {
      return Invalid(
          "Some index key attributes are not defined in "
          "AttributeDefinitions. Keys: " +
          JoinNames(names) +
          ", AttributeDefinitions: " + JoinNames(DefNames(defs)));
    }
  }
  DDBLAB_RETURN_IF_ERROR(global ? CheckGsiKeyShape(raw.key)
                                : CheckKeyOrder(raw.key));
  if (!global) {
    if (raw.key.size() != 2) {
      return Invalid("Index KeySchema does not have a range key for index: " +
                     name);
    }
    if (names[0] != table_key.hash.name) {
      return Invalid(
          "Index KeySchema does not have the same leading hash key as table "
          "KeySchema for index: " +
          name + ". index hash key: " + names[0] +
          ", table hash key: " + table_key.hash.name);
    }
  }
  IndexDef idx;
  idx.name = name;
  idx.global = global;
  idx.key = MakeKeySchema(raw.key, defs);
  DDBLAB_RETURN_IF_ERROR(BuildProjection(raw.projection, &idx.projection,
                                         &idx.non_key_attributes));
  return idx;
}

Status CheckIndexThroughput(const RawIndex& raw, BillingMode billing) {
  if (billing == BillingMode::kPayPerRequest && raw.throughput.present) {
    return Invalid("ProvisionedThroughput should not be specified for index: " +
                   *raw.name + " when BillingMode is PAY_PER_REQUEST");
  }
  if (billing == BillingMode::kProvisioned && !raw.throughput.present) {
    return Invalid("ProvisionedThroughput is not specified for index: " +
                   *raw.name);
  }
  if (raw.throughput.read && *raw.throughput.read > kMaxCapacityUnits) {
    return Error::Validation("Given value " +
                             std::to_string(*raw.throughput.read) +
                             " for ReadCapacityUnits is out of bounds");
  }
  if (raw.throughput.write && *raw.throughput.write > kMaxCapacityUnits) {
    return Error::Validation("Given value " +
                             std::to_string(*raw.throughput.write) +
                             " for WriteCapacityUnits is out of bounds");
  }
  return OkStatus();
}

Status CheckTableThroughput(const RawThroughput& t, BillingMode billing) {
  if (billing == BillingMode::kPayPerRequest) {
    if (t.present) {
      return Invalid(
          "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified "
          "when BillingMode is PAY_PER_REQUEST");
    }
    return OkStatus();
  }
  if (!t.present || !t.read || !t.write) {
    return Invalid(
        "ReadCapacityUnits and WriteCapacityUnits must both be specified when "
        "BillingMode is PROVISIONED");
  }
  if (*t.read > kMaxCapacityUnits) {
    return Error::Validation("Given value " + std::to_string(*t.read) +
                             " for ReadCapacityUnits is out of bounds");
  }
  if (*t.write > kMaxCapacityUnits) {
    return Error::Validation("Given value " + std::to_string(*t.write) +
                             " for WriteCapacityUnits is out of bounds");
  }
  return OkStatus();
}

Status CheckDefinitionsUsed(const std::vector<KeyElement>& defs,
                            const KeySchema& table_key,
                            const std::vector<IndexDef>& indexes,
                            const std::vector<VectorIndexDef>& vectors) {
  std::vector<std::string> used;
  auto use = [&](const KeySchema& k) {
    std::vector<const KeyElement*> elems = k.HashElements();
    for (const KeyElement* e : k.RangeElements()) elems.push_back(e);
    for (const KeyElement* e : elems) {
      if (std::find(used.begin(), used.end(), e->name) == used.end()) {
        used.push_back(e->name);
      }
    }
  };
  use(table_key);
  for (const IndexDef& idx : indexes) use(idx.key);
  for (const VectorIndexDef& v : vectors) {
    for (const SearchSchemaElement& e : v.search_schema) {
      if (std::find(used.begin(), used.end(), e.name) == used.end()) {
        used.push_back(e.name);
      }
    }
  }
  for (const KeyElement& d : defs) {
    if (std::find(used.begin(), used.end(), d.name) == used.end()) {
      return Invalid(
          "Some AttributeDefinitions are not used. "
          "AttributeDefinitions: " +
          JoinNames(DefNames(defs)) + ", keys used: " + JoinNames(used));
    }
  }
  return OkStatus();
}

Throughput IndexThroughput(const RawIndex& raw, BillingMode billing) {
  Throughput t;
  if (billing == BillingMode::kProvisioned) {
    t.read = raw.throughput.read.value_or(0);
    t.write = raw.throughput.write.value_or(0);
  }
  return t;
}

}  // namespace ddblab::engine
