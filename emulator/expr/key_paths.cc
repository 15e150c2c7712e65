// emulator/expr/key_paths.cc
#include "emulator/expr/key_paths.h"

#include <algorithm>

namespace ddblab::expr {
namespace {

bool Contains(const std::vector<std::string>& names, const std::string& n) {
  return std::find(names.begin(), names.end(), n) != names.end();
}

}  // namespace

std::optional<Error> CheckNestedKeyPaths(
    const std::vector<const DocumentPath*>& paths,
    const std::vector<std::string>& table_keys,
    const std::vector<std::string>& index_keys) {
  constexpr char kPrefix[] =
      "Key attributes must be scalars; list random access '[]' and map "
      "lookup '.' are not allowed: ";
  for (const DocumentPath* p : paths) {
    if (p->nested() && Contains(table_keys, p->top())) {
      return Error::Validation(std::string(kPrefix) + "Key: " + p->top());
    }
  }
  for (const DocumentPath* p : paths) {
    if (p->nested() && Contains(index_keys, p->top())) {
      return Error::Validation(std::string(kPrefix) + "IndexKey: " + p->top());
    }
  }
  return std::nullopt;
}

std::optional<Error> CheckUpdateKeyTargets(
    const UpdateExpression& u, const std::vector<std::string>& table_keys) {
  for (const UpdateAction& a : u.actions) {
    if (Contains(table_keys, a.path.top())) {
      return Error::Validation(
          "One or more parameter values were invalid: Cannot update "
          "attribute " +
          a.path.top() + ". This attribute is part of the key");
    }
  }
  return std::nullopt;
}

}  // namespace ddblab::expr
