// emulator/expr/path.cc
#include "emulator/expr/path.h"

#include <algorithm>

namespace ddblab::expr {

using value::AttributeValue;

std::string RenderPath(const DocumentPath& path) {
  std::string out = "[";
  for (size_t i = 0; i < path.elements.size(); ++i) {
    if (i > 0) out += ", ";
    const PathElement& e = path.elements[i];
    if (e.is_index) {
      out += "[";
      out += std::to_string(e.index);
      out += "]";
    } else {
      out += e.name;
    }
  }
  out += "]";
  return out;
}

const AttributeValue* FindPath(const value::Item& item,
                               const DocumentPath& path) {
  if (path.empty()) return nullptr;
  auto it = item.find(path.elements[0].name);
  if (it == item.end()) return nullptr;
  const AttributeValue* v = &it->second;
  for (size_t i = 1; i < path.elements.size(); ++i) {
    const PathElement& e = path.elements[i];
    if (e.is_index) {
      if (v->type() != AttributeValue::Type::kL) return nullptr;
      const auto& l = v->l();
      if (e.index >= l.size()) return nullptr;
      v = &l[e.index];
    } else {
      if (v->type() != AttributeValue::Type::kM) return nullptr;
      const auto& m = v->m();
      auto mit = m.find(e.name);
      if (mit == m.end()) return nullptr;
      v = &mit->second;
    }
  }
  return v;
}

PathRelation ComparePaths(const DocumentPath& a, const DocumentPath& b) {
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    const PathElement& x = a.elements[i];
    const PathElement& y = b.elements[i];
    if (x.is_index != y.is_index) return PathRelation::kConflict;
    if (!(x == y)) return PathRelation::kNone;
  }
  return PathRelation::kOverlap;
}

bool PathLess(const DocumentPath& a, const DocumentPath& b) {
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    const PathElement& x = a.elements[i];
    const PathElement& y = b.elements[i];
    if (x.is_index != y.is_index) return !x.is_index;
    if (x.is_index) {
      if (x.index != y.index) return x.index < y.index;
    } else if (x.name != y.name) {
      return x.name < y.name;
    }
  }
  return a.size() < b.size();
}

std::string PathRelationMessage(PathRelation relation, const DocumentPath& one,
                                const DocumentPath& two) {
  std::string msg = relation == PathRelation::kConflict
                        ? "Two document paths conflict with each other"
                        : "Two document paths overlap with each other";
  msg += "; must remove or rewrite one of these paths; path one: ";
  msg += RenderPath(one);
  msg += ", path two: ";
  msg += RenderPath(two);
  return msg;
}

}  // namespace ddblab::expr
