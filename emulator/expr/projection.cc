// emulator/expr/projection.cc
#include "emulator/expr/projection.h"

#include <map>
#include <memory>
#include <utility>

namespace ddblab::expr {
namespace {

using value::AttributeValue;
using Type = AttributeValue::Type;

// The selected parts of one value: either the whole value, or selected
// members (of a map) / elements (of a list).
struct Selection {
  bool whole = false;
  AttributeValue value;  // when whole
  std::map<std::string, Selection, std::less<>> members;
  std::map<uint32_t, Selection> elements;
  bool is_list = false;

  AttributeValue Build() const {
    if (whole) return value;
    if (is_list) {
      value::AttributeList list;
      list.reserve(elements.size());
      for (const auto& [index, sel] : elements) list.push_back(sel.Build());
      return AttributeValue::L(std::move(list));
    }
    value::AttributeMap map;
    for (const auto& [name, sel] : members) map.emplace(name, sel.Build());
    return AttributeValue::M(std::move(map));
  }
};

}  // namespace

value::Item Project(const ProjectionExpression& p, const value::Item& item) {
  value::Item out;
  std::map<std::string, Selection, std::less<>> nested;
  for (const DocumentPath& path : p.paths) {
    if (path.empty()) continue;
    auto it = item.find(path.top());
    if (it == item.end()) continue;
    if (!path.nested()) {
      out.insert_or_assign(it->first, it->second);
      continue;
    }
    // Walk the item first; only record the selection if the leaf exists.
    const AttributeValue* v = &it->second;
    bool found = true;
    for (size_t i = 1; i < path.size() && found; ++i) {
      const PathElement& e = path.elements[i];
      if (e.is_index) {
        if (v->type() != Type::kL || e.index >= v->l().size()) {
          found = false;
        } else {
          v = &v->l()[e.index];
        }
      } else {
        if (v->type() != Type::kM) {
          found = false;
        } else {
          auto mit = v->m().find(e.name);
          if (mit == v->m().end()) {
            found = false;
          } else {
            v = &mit->second;
          }
        }
      }
    }
    if (!found) continue;
    Selection* sel = &nested[path.top()];
    for (size_t i = 1; i < path.size(); ++i) {
      const PathElement& e = path.elements[i];
      if (e.is_index) {
        sel->is_list = true;
        sel = &sel->elements[e.index];
      } else {
        sel = &sel->members[e.name];
      }
    }
    sel->whole = true;
    sel->value = *v;
  }
  for (const auto& [name, sel] : nested)
    out.insert_or_assign(name, sel.Build());
  return out;
}

}  // namespace ddblab::expr
