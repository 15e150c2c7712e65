#include "emulator/engine/ops/batch_common.h"

namespace ddblab::engine {
namespace {

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
}

// Length in code points, as Coral counts it (see request.cc).
size_t CodePoints(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) {
    if ((c & 0xC0) != 0x80) ++n;
  }
  return n;
}

bool ValidName(const std::string& name) {
  const size_t n = CodePoints(name);
  if (n < 3 || n > 255) return false;
  for (char c : name) {
    if (!IsNameChar(c)) return false;
  }
  return true;
}

}  // namespace

void CheckRequestItemsMap(RequestParser& p, const Json& items,
                          int64_t max_tables) {
  const int64_t n = static_cast<int64_t>(items.size());
  if (n < 1) {
    p.AddConstraint(FormatConstraintValue(items), "requestItems",
                    "Member must have length greater than or equal to 1");
  } else if (n > max_tables) {
    p.AddConstraint(FormatConstraintValue(items), "requestItems",
                    "Member must have length less than or equal to " +
                        std::to_string(max_tables));
  }
  for (auto it = items.begin(); it != items.end(); ++it) {
    const std::string& key = it.key();
    if (key.rfind("arn:", 0) == 0) {
      const size_t len = CodePoints(key);
      if (len >= 1 && len <= 1024) continue;
      p.AddConstraint(FormatConstraintValue(items), "requestItems",
                      "Map keys must satisfy constraint: [Member must have "
                      "length less than or equal to 1024, Member must have "
                      "length greater than or equal to 1]");
      return;
    }
    if (ValidName(key)) continue;
    p.AddConstraint(FormatConstraintValue(items), "requestItems",
                    "Map keys must satisfy constraint: [Member must have "
                    "length less than or equal to 255, Member must have "
                    "length greater than or equal to 3, Member must satisfy "
                    "regular expression pattern: [a-zA-Z0-9_.-]+]");
    return;
  }
}

std::string TableMemberPath(const std::string& table) {
  return "requestItems." + table + ".member";
}

Json ConsumedCapacityList(const std::vector<TableConsumed>& tables,
                          CapacityMode mode) {
  if (mode == CapacityMode::kNone) return nullptr;
  Json out = Json::array();
  for (const TableConsumed& t : tables) {
    out.push_back(ConsumedCapacityJson(t.name, t.consumed, mode));
  }
  return out;
}

}  // namespace ddblab::engine
