#include "emulator/engine/capacity/capacity.h"

namespace ddblab::engine {
namespace {

double Units(int64_t size, int64_t unit) {
  if (size <= 0) return 1;
  return static_cast<double>((size + unit - 1) / unit);
}

Json IndexMap(const std::map<std::string, double>& m) {
  Json out = Json::object();
  for (const auto& [name, units] : m) {
    out[name]["CapacityUnits"] = units;
  }
  return out;
}

}  // namespace

void ReadCapacityMode(RequestParser& parser, const Json& request,
                      CapacityMode* mode) {
  *mode = CapacityMode::kNone;
  std::optional<std::string> v =
      parser.String(request, "ReturnConsumedCapacity");
  if (!v) return;
  parser.Enum(*v, "returnConsumedCapacity", {"INDEXES", "TOTAL", "NONE"});
  if (*v == "INDEXES") *mode = CapacityMode::kIndexes;
  if (*v == "TOTAL") *mode = CapacityMode::kTotal;
}

double ReadUnits(int64_t size, bool consistent) {
  double units = Units(size, 4096);
  return consistent ? units : units / 2;
}

double WriteUnits(int64_t size) { return Units(size, 1024); }

double Consumed::Total() const {
  double total = table;
  for (const auto& [name, u] : global_indexes) total += u;
  for (const auto& [name, u] : local_indexes) total += u;
  return total;
}

Consumed& Consumed::operator+=(const Consumed& other) {
  table += other.table;
  for (const auto& [name, u] : other.global_indexes) global_indexes[name] += u;
  for (const auto& [name, u] : other.local_indexes) local_indexes[name] += u;
  for (const auto& [name, b] : other.vector_indexes) vector_indexes[name] += b;
  return *this;
}

Consumed& Consumed::Scale(double factor) {
  table *= factor;
  for (auto& [name, u] : global_indexes) u *= factor;
  for (auto& [name, u] : local_indexes) u *= factor;
  return *this;
}

Json ConsumedCapacityJson(std::string_view table_name, const Consumed& c,
                          CapacityMode mode) {
  if (mode == CapacityMode::kNone) return nullptr;
  // Member by member: an initializer list builds every pair as an array
  // first, several times the cost on every write's answer.
  Json out = Json::object();
  out["TableName"] = std::string(table_name);
  out["CapacityUnits"] = c.Total();
  if (mode == CapacityMode::kIndexes) {
    out["Table"]["CapacityUnits"] = c.table;
    if (!c.global_indexes.empty()) {
      out["GlobalSecondaryIndexes"] = IndexMap(c.global_indexes);
    }
    if (!c.local_indexes.empty()) {
      out["LocalSecondaryIndexes"] = IndexMap(c.local_indexes);
    }
    if (!c.vector_indexes.empty()) {
      Json vectors = Json::object();
      for (const auto& [name, bytes] : c.vector_indexes) {
        vectors[name]["VectorWriteRequestBytes"] = bytes;
      }
      out["VectorIndexes"] = std::move(vectors);
    }
  }
  return out;
}

}  // namespace ddblab::engine
