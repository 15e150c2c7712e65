// emulator/expr/path.h: document paths (`a.b[3].#c` after placeholder
// substitution) and the item operations built on them.
//
// A DocumentPath is a top-level attribute name followed by map-member and
// list-index steps. Names are exactly as stored: a '.' inside a name that
// came from a #placeholder is part of the name. Rendering for error texts
// follows DynamoDB: `[a, b, [3]]`.
//
// Thread-safety: plain value types and stateless functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/value/attribute_value.h"

namespace ddblab::expr {

// A path may have at most this many elements (including the top-level
// attribute): "The document path has too many nesting levels".
inline constexpr size_t kMaxPathDepth = 32;

struct PathElement {
  std::string name;    // a map member (or the top-level attribute)
  uint32_t index = 0;  // a list index, when is_index
  bool is_index = false;

  static PathElement Name(std::string n) {
    PathElement e;
    e.name = std::move(n);
    return e;
  }
  static PathElement Index(uint32_t i) {
    PathElement e;
    e.index = i;
    e.is_index = true;
    return e;
  }
  friend bool operator==(const PathElement& a, const PathElement& b) {
    return a.is_index == b.is_index &&
           (a.is_index ? a.index == b.index : a.name == b.name);
  }
};

struct DocumentPath {
  // elements[0] is always a name (the top-level attribute).
  std::vector<PathElement> elements;

  DocumentPath() = default;
  explicit DocumentPath(std::string top) {
    elements.push_back(PathElement::Name(std::move(top)));
  }
  static DocumentPath Of(std::vector<PathElement> elems) {
    DocumentPath p;
    p.elements = std::move(elems);
    return p;
  }

  bool empty() const { return elements.empty(); }
  size_t size() const { return elements.size(); }
  const std::string& top() const { return elements.front().name; }
  bool nested() const { return elements.size() > 1; }

  friend bool operator==(const DocumentPath& a, const DocumentPath& b) {
    return a.elements == b.elements;
  }
};

// "[a, b, [3]]".
std::string RenderPath(const DocumentPath& path);

// The value at `path`, or nullptr if any step is missing or of the wrong
// type (a member of a non-map, an index of a non-list or beyond its end).
const value::AttributeValue* FindPath(const value::Item& item,
                                      const DocumentPath& path);

// How two paths of one expression relate (DynamoDB's expression rules):
// kOverlap when one is a prefix of the other (or they are equal), kConflict
// when they agree on a prefix and then one steps into a map member and the
// other into a list index at the same position, kNone otherwise.
enum class PathRelation { kNone, kOverlap, kConflict };
PathRelation ComparePaths(const DocumentPath& a, const DocumentPath& b);

// Total order used to apply list-index actions deterministically: element by
// element, names by bytes, indexes numerically, a name before an index, and a
// prefix before its extensions.
bool PathLess(const DocumentPath& a, const DocumentPath& b);

// The overlap / conflict texts, without the "Invalid <Param>: " prefix:
// "Two document paths overlap with each other; must remove or rewrite one of
// these paths; path one: [a], path two: [a, b]" (and "... conflict ...").
std::string PathRelationMessage(PathRelation relation, const DocumentPath& one,
                                const DocumentPath& two);

}  // namespace ddblab::expr
