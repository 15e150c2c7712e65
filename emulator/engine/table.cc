#include "emulator/engine/table.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <utility>

namespace ddblab::engine {
namespace {

constexpr int kMetaVersion = 1;

int64_t ToNanos(TimePoint t) { return t.time_since_epoch().count(); }
TimePoint FromNanos(int64_t n) { return TimePoint(Duration(n)); }

Json OptTime(const std::optional<TimePoint>& t) {
  return t ? Json(ToNanos(*t)) : Json(nullptr);
}
std::optional<TimePoint> ReadOptTime(const Json& j) {
  if (!j.is_number_integer()) return std::nullopt;
  return FromNanos(j.get<int64_t>());
}

Json KeyElementMeta(const KeyElement& k) {
  return Json{{"name", k.name},
              {"type", std::string(value::AttributeValue::TypeName(k.type))}};
}

Result<KeyElement> ReadKeyElement(const Json& j) {
  KeyElement k;
  k.name = j.at("name").get<std::string>();
  if (!value::AttributeValue::TypeFromName(j.at("type").get<std::string>(),
                                           &k.type)) {
    return Error::Internal("corrupt table metadata: key type");
  }
  return k;
}

// Multi-attribute GSI keys add "more_hash"/"more_range" lists; a
// single-attribute schema is written exactly as before.
Json KeySchemaMeta(const KeySchema& k) {
  Json j{{"hash", KeyElementMeta(k.hash)}};
  if (k.range) j["range"] = KeyElementMeta(*k.range);
  auto list = [](const std::vector<KeyElement>& elems) {
    Json out = Json::array();
    for (const KeyElement& e : elems) out.push_back(KeyElementMeta(e));
    return out;
  };
  if (!k.more_hash.empty()) j["more_hash"] = list(k.more_hash);
  if (!k.more_range.empty()) j["more_range"] = list(k.more_range);
  return j;
}

Result<KeySchema> ReadKeySchema(const Json& j) {
  KeySchema k;
  DDBLAB_ASSIGN_OR_RETURN(k.hash, ReadKeyElement(j.at("hash")));
  if (j.contains("range")) {
    DDBLAB_ASSIGN_OR_RETURN(KeyElement range, ReadKeyElement(j.at("range")));
    k.range = std::move(range);
  }
  for (const char* member : {"more_hash", "more_range"}) {
    if (!j.contains(member)) continue;
    for (const Json& e : j.at(member)) {
      DDBLAB_ASSIGN_OR_RETURN(KeyElement k2, ReadKeyElement(e));
      (member[5] == 'h' ? k.more_hash : k.more_range).push_back(std::move(k2));
    }
  }
  return k;
}

Json ThroughputMeta(const Throughput& t) {
  return Json{{"read", t.read},
              {"write", t.write},
              {"decreases", t.decreases_today},
              {"last_increase", OptTime(t.last_increase)},
              {"last_decrease", OptTime(t.last_decrease)}};
}

Throughput ReadThroughput(const Json& j) {
  Throughput t;
  t.read = j.at("read").get<int64_t>();
  t.write = j.at("write").get<int64_t>();
  t.decreases_today = j.value("decreases", int64_t{0});
  t.last_increase = ReadOptTime(j.value("last_increase", Json()));
  t.last_decrease = ReadOptTime(j.value("last_decrease", Json()));
  return t;
}

Result<TableStatus> ReadStatus(const Json& j) {
  std::string s = j.get<std::string>();
  for (TableStatus st : {TableStatus::kCreating, TableStatus::kActive,
                         TableStatus::kUpdating, TableStatus::kDeleting}) {
    if (TableStatusName(st) == s) return st;
  }
  return Error::Internal("corrupt table metadata: status " + s);
}

Result<ProjectionType> ReadProjection(const Json& j) {
  std::string s = j.get<std::string>();
  for (ProjectionType p : {ProjectionType::kAll, ProjectionType::kKeysOnly,
                           ProjectionType::kInclude}) {
    if (ProjectionTypeName(p) == s) return p;
  }
  return Error::Internal("corrupt table metadata: projection " + s);
}

Result<DistanceFunction> ReadDistance(const Json& j) {
  std::string s = j.get<std::string>();
  for (DistanceFunction f :
       {DistanceFunction::kCosine, DistanceFunction::kEuclidean,
        DistanceFunction::kDotProduct}) {
    if (DistanceFunctionName(f) == s) return f;
  }
  return Error::Internal("corrupt table metadata: distance " + s);
}

// Vector indexes are written only when the table has some ("vector_indexes"
// absent otherwise), so older databases read unchanged.
Json VectorIndexMeta(const VectorIndexDef& v) {
  Json schema = Json::array();
  for (const SearchSchemaElement& e : v.search_schema) {
    schema.push_back(
        Json{{"name", e.name},
             {"hash", e.hash},
             {"type", std::string(value::AttributeValue::TypeName(e.type))}});
  }
  return Json{{"name", v.name},
              {"attribute", v.attribute},
              {"dimensions", v.dimensions},
              {"distance", std::string(DistanceFunctionName(v.distance))},
              {"schema", schema},
              {"projection", std::string(ProjectionTypeName(v.projection))},
              {"non_key", v.non_key_attributes},
              {"status", std::string(TableStatusName(v.status))},
              {"status_until", ToNanos(v.status_until)},
              {"added_by_update", v.added_by_update},
              {"backfilling", v.backfilling}};
}

Result<VectorIndexDef> ReadVectorIndex(const Json& j) {
  VectorIndexDef v;
  v.name = j.at("name").get<std::string>();
  v.attribute = j.at("attribute").get<std::string>();
  v.dimensions = j.at("dimensions").get<int64_t>();
  DDBLAB_ASSIGN_OR_RETURN(v.distance, ReadDistance(j.at("distance")));
  for (const Json& e : j.at("schema")) {
    SearchSchemaElement el;
    el.name = e.at("name").get<std::string>();
    el.hash = e.at("hash").get<bool>();
    if (!value::AttributeValue::TypeFromName(e.at("type").get<std::string>(),
                                             &el.type)) {
      return Error::Internal("corrupt table metadata: search schema type");
    }
    v.search_schema.push_back(std::move(el));
  }
  DDBLAB_ASSIGN_OR_RETURN(v.projection, ReadProjection(j.at("projection")));
  v.non_key_attributes = j.at("non_key").get<std::vector<std::string>>();
  DDBLAB_ASSIGN_OR_RETURN(v.status, ReadStatus(j.at("status")));
  v.status_until = FromNanos(j.at("status_until").get<int64_t>());
  v.added_by_update = j.at("added_by_update").get<bool>();
  v.backfilling = j.at("backfilling").get<bool>();
  return v;
}

Result<Table> ParseMeta(const Json& m) {
  if (m.value("v", 0) != kMetaVersion) {
    return Error::Internal("unsupported table metadata version");
  }
  Table t;
  t.id = m.at("id").get<int64_t>();
  t.name = m.at("name").get<std::string>();
  t.uuid = m.at("uuid").get<std::string>();
  t.arn = m.at("arn").get<std::string>();
  t.created = FromNanos(m.at("created").get<int64_t>());
  DDBLAB_ASSIGN_OR_RETURN(t.status, ReadStatus(m.at("status")));
  t.status_until = FromNanos(m.at("status_until").get<int64_t>());
  for (const Json& a : m.at("attributes")) {
    DDBLAB_ASSIGN_OR_RETURN(KeyElement k, ReadKeyElement(a));
    t.attribute_definitions.push_back(std::move(k));
  }
  DDBLAB_ASSIGN_OR_RETURN(t.key, ReadKeySchema(m.at("key")));
  for (const Json& ij : m.at("indexes")) {
    IndexDef idx;
    idx.id = ij.at("id").get<int64_t>();
    idx.name = ij.at("name").get<std::string>();
    idx.global = ij.at("global").get<bool>();
    DDBLAB_ASSIGN_OR_RETURN(idx.key, ReadKeySchema(ij.at("key")));
    DDBLAB_ASSIGN_OR_RETURN(idx.projection,
                            ReadProjection(ij.at("projection")));
    idx.non_key_attributes = ij.at("non_key").get<std::vector<std::string>>();
    idx.throughput = ReadThroughput(ij.at("throughput"));
    idx.on_demand = OnDemandSettings::FromMeta(ij.value("on_demand", Json()));
    DDBLAB_ASSIGN_OR_RETURN(idx.status, ReadStatus(ij.at("status")));
    idx.status_until = FromNanos(ij.at("status_until").get<int64_t>());
    idx.backfilling = ij.at("backfilling").get<bool>();
    t.indexes.push_back(std::move(idx));
  }
  if (m.contains("vector_indexes")) {
    for (const Json& vj : m.at("vector_indexes")) {
      DDBLAB_ASSIGN_OR_RETURN(VectorIndexDef v, ReadVectorIndex(vj));
      t.vector_indexes.push_back(std::move(v));
    }
  }
  t.billing = m.at("billing").get<std::string>() == "PAY_PER_REQUEST"
                  ? BillingMode::kPayPerRequest
                  : BillingMode::kProvisioned;
  t.billing_explicit = m.at("billing_explicit").get<bool>();
  t.last_update_to_pay_per_request = ReadOptTime(m.value("last_ppr", Json()));
  t.throughput = ReadThroughput(m.at("throughput"));
  t.on_demand = OnDemandSettings::FromMeta(m.value("on_demand", Json()));
  const Json& s = m.at("stream");
  t.stream.enabled = s.at("enabled").get<bool>();
  t.stream.view_type = s.at("view_type").get<std::string>();
  t.stream.label = s.at("label").get<std::string>();
  t.stream.arn = s.at("arn").get<std::string>();
  const Json& ttl = m.at("ttl");
  t.ttl.enabled = ttl.at("enabled").get<bool>();
  t.ttl.attribute = ttl.at("attribute").get<std::string>();
  t.ttl.last_change = ReadOptTime(ttl.value("last_change", Json()));
  for (const Json& tag : m.at("tags")) {
    t.tags.emplace_back(tag.at(0).get<std::string>(),
                        tag.at(1).get<std::string>());
  }
  t.deletion_protection = m.at("deletion_protection").get<bool>();
  if (const Json pitr = m.value("pitr", Json()); pitr.is_object()) {
    t.pitr_enabled = pitr.at("enabled").get<bool>();
    t.pitr_since = ReadOptTime(pitr.at("since")).value_or(TimePoint());
    t.pitr_recovery_days = pitr.at("days").get<int64_t>();
  }
  t.table_class = m.at("table_class").get<std::string>();
  t.sse_description = m.value("sse", Json());
  t.restore_summary = m.value("restore", Json());
  t.next_index_id = m.at("next_index_id").get<int64_t>();
  t.policies = ResourcePolicies::FromJson(m.value("policies", Json()));
  return t;
}

// Whether an index of `projection` carries the non-key attribute `attr`.
bool ProjectsNonKey(ProjectionType projection,
                    const std::vector<std::string>& non_key_attributes,
                    std::string_view attr) {
  switch (projection) {
    case ProjectionType::kAll:
      return true;
    case ProjectionType::kKeysOnly:
      return false;
    case ProjectionType::kInclude:
      return std::find(non_key_attributes.begin(), non_key_attributes.end(),
                       attr) != non_key_attributes.end();
  }
  return false;
}

}  // namespace

std::string_view TableStatusName(TableStatus status) {
  switch (status) {
    case TableStatus::kCreating:
      return "CREATING";
    case TableStatus::kActive:
      return "ACTIVE";
    case TableStatus::kUpdating:
      return "UPDATING";
    case TableStatus::kDeleting:
      return "DELETING";
  }
  return "ACTIVE";
}

std::string_view ProjectionTypeName(ProjectionType type) {
  switch (type) {
    case ProjectionType::kAll:
      return "ALL";
    case ProjectionType::kKeysOnly:
      return "KEYS_ONLY";
    case ProjectionType::kInclude:
      return "INCLUDE";
  }
  return "ALL";
}

std::string_view DistanceFunctionName(DistanceFunction f) {
  switch (f) {
    case DistanceFunction::kCosine:
      return "COSINE";
    case DistanceFunction::kEuclidean:
      return "EUCLIDEAN";
    case DistanceFunction::kDotProduct:
      return "DOT_PRODUCT";
  }
  return "COSINE";
}

const SearchSchemaElement* VectorIndexDef::HashElement() const {
  for (const SearchSchemaElement& e : search_schema) {
    if (e.hash) return &e;
  }
  return nullptr;
}

const SearchSchemaElement* VectorIndexDef::FindSchemaElement(
    std::string_view attr) const {
  for (const SearchSchemaElement& e : search_schema) {
    if (e.name == attr) return &e;
  }
  return nullptr;
}

bool VectorIndexDef::ProjectsOther(std::string_view attr) const {
  return ProjectsNonKey(projection, non_key_attributes, attr);
}

std::string_view BillingModeName(BillingMode mode) {
  return mode == BillingMode::kPayPerRequest ? "PAY_PER_REQUEST"
                                             : "PROVISIONED";
}

bool IndexDef::Projects(std::string_view attr) const {
  return ProjectsNonKey(projection, non_key_attributes, attr);
}

const IndexDef* Table::FindIndex(std::string_view index_name) const {
  for (const IndexDef& idx : indexes) {
    if (idx.name == index_name) return &idx;
  }
  return nullptr;
}

const VectorIndexDef* Table::FindVectorIndex(
    std::string_view index_name) const {
  for (const VectorIndexDef& v : vector_indexes) {
    if (v.name == index_name) return &v;
  }
  return nullptr;
}

bool Table::HasIndexNamed(std::string_view index_name) const {
  return FindIndex(index_name) != nullptr ||
         FindVectorIndex(index_name) != nullptr;
}

bool Table::HasLiveVectorIndexes() const {
  return std::any_of(vector_indexes.begin(), vector_indexes.end(),
                     [](const VectorIndexDef& v) { return v.Live(); });
}

std::string Table::IndexArn(std::string_view index_name) const {
  return arn + "/index/" + std::string(index_name);
}

bool Table::HasGlobalIndexes() const {
  return std::any_of(indexes.begin(), indexes.end(),
                     [](const IndexDef& i) { return i.global; });
}

bool Table::HasLocalIndexes() const {
  return std::any_of(indexes.begin(), indexes.end(),
                     [](const IndexDef& i) { return !i.global; });
}

void Table::PruneAttributeDefinitions() {
  auto used = [&](const std::string& attr) {
    if (key.Contains(attr)) return true;
    for (const IndexDef& idx : indexes) {
      if (idx.key.Contains(attr)) return true;
    }
    for (const VectorIndexDef& v : vector_indexes) {
      if (v.FindSchemaElement(attr) != nullptr) return true;
    }
    return false;
  };
  std::erase_if(attribute_definitions,
                [&](const KeyElement& d) { return !used(d.name); });
}

std::optional<AttrType> Table::DefinedType(std::string_view attr) const {
  for (const KeyElement& a : attribute_definitions) {
    if (a.name == attr) return a.type;
  }
  return std::nullopt;
}

Json Table::ToMeta() const {
  Json attrs = Json::array();
  for (const KeyElement& a : attribute_definitions) {
    attrs.push_back(KeyElementMeta(a));
  }
  Json idxs = Json::array();
  for (const IndexDef& i : indexes) {
    idxs.push_back(
        Json{{"id", i.id},
             {"name", i.name},
             {"global", i.global},
             {"key", KeySchemaMeta(i.key)},
             {"projection", std::string(ProjectionTypeName(i.projection))},
             {"non_key", i.non_key_attributes},
             {"throughput", ThroughputMeta(i.throughput)},
             {"on_demand", i.on_demand.ToMeta()},
             {"status", std::string(TableStatusName(i.status))},
             {"status_until", ToNanos(i.status_until)},
             {"backfilling", i.backfilling}});
  }
  Json tag_list = Json::array();
  for (const auto& [k, v] : tags) tag_list.push_back(Json::array({k, v}));
  Json meta{
      {"v", kMetaVersion},
      {"id", id},
      {"name", name},
      {"uuid", uuid},
      {"arn", arn},
      {"created", ToNanos(created)},
      {"status", std::string(TableStatusName(status))},
      {"status_until", ToNanos(status_until)},
      {"attributes", attrs},
      {"key", KeySchemaMeta(key)},
      {"indexes", idxs},
      {"billing", std::string(BillingModeName(billing))},
      {"billing_explicit", billing_explicit},
      {"last_ppr", OptTime(last_update_to_pay_per_request)},
      {"throughput", ThroughputMeta(throughput)},
      {"on_demand", on_demand.ToMeta()},
      {"stream", Json{{"enabled", stream.enabled},
                      {"view_type", stream.view_type},
                      {"label", stream.label},
                      {"arn", stream.arn}}},
      {"ttl", Json{{"enabled", ttl.enabled},
                   {"attribute", ttl.attribute},
                   {"last_change", OptTime(ttl.last_change)}}},
      {"tags", tag_list},
      {"deletion_protection", deletion_protection},
      {"pitr", Json{{"enabled", pitr_enabled},
                    {"since", OptTime(pitr_since)},
                    {"days", pitr_recovery_days}}},
      {"table_class", table_class},
      {"sse", sse_description},
      {"next_index_id", next_index_id},
  };
  if (!restore_summary.is_null()) meta["restore"] = restore_summary;
  if (!policies.empty()) meta["policies"] = policies.ToJson();
  if (!vector_indexes.empty()) {
    Json vj = Json::array();
    for (const VectorIndexDef& v : vector_indexes) {
      vj.push_back(VectorIndexMeta(v));
    }
    meta["vector_indexes"] = std::move(vj);
  }
  return meta;
}

Result<Table> Table::FromMeta(const Json& meta) {
  try {
    return ParseMeta(meta);
  } catch (const std::exception& e) {
    return Error::Internal(std::string("corrupt table metadata: ") + e.what());
  }
}

std::string MakeTableArn(std::string_view region, std::string_view account,
                         std::string_view name) {
  std::string arn = "arn:aws:dynamodb:";
  arn += region;
  arn += ":";
  arn += account;
  arn += ":table/";
  arn += name;
  return arn;
}

std::optional<std::string> TableNameFromArn(std::string_view arn,
                                            std::string_view region,
                                            std::string_view account) {
  std::string prefix = MakeTableArn(region, account, "");
  if (arn.size() <= prefix.size() || arn.substr(0, prefix.size()) != prefix) {
    return std::nullopt;
  }
  std::string_view name = arn.substr(prefix.size());
  if (name.find('/') != std::string_view::npos) return std::nullopt;
  return std::string(name);
}

std::string FormatStreamLabel(TimePoint t) {
  auto ms = std::chrono::floor<std::chrono::milliseconds>(t);
  auto days = std::chrono::floor<std::chrono::days>(ms);
  std::chrono::year_month_day ymd(days);
  std::chrono::hh_mm_ss<std::chrono::milliseconds> hms(ms - days);
  char buf[32];
  std::snprintf(
      buf, sizeof(buf), "%04d-%02u-%02uT%02d:%02d:%02d.%03d",
      static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
      static_cast<unsigned>(ymd.day()), static_cast<int>(hms.hours().count()),
      static_cast<int>(hms.minutes().count()),
      static_cast<int>(hms.seconds().count()),
      static_cast<int>(hms.subseconds().count()));
  return buf;
}

}  // namespace ddblab::engine
