// harness/consumer/filter.h: Lambda's event filter patterns (FilterCriteria).
//
// A pattern is a JSON object naming record fields; nested objects follow the
// record's nesting and arrays list the accepted alternatives of a leaf. A
// record matches when every named field matches (AND) and a leaf matches when
// any of its alternatives does (OR). Alternatives: a literal (string, number,
// true/false, null, compared exactly: numbers by their JSON text), and the
// operators {"anything-but": v|[v...]}, {"numeric": [op, n, (op, n)]},
// {"exists": bool}, {"prefix": s}, {"prefix": {"equals-ignore-case": s}},
// {"suffix": s}, {"equals-ignore-case": s}. Where the record holds an array,
// a leaf matches when any element does. Operators Lambda's stream filtering
// is not known to support (wildcard, cidr, $or, anything-but of an operator)
// are rejected at Compile with a message naming them.
//
// Thread-safety: a compiled FilterPattern is immutable; Match is const.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/result.h"

namespace ddblab::harness::consumer {

class FilterPattern {
 public:
  // Parses and checks one Pattern string. The error message says what is
  // wrong (the caller adds which filter).
  static Result<FilterPattern> Compile(std::string_view pattern);

  bool Match(const nlohmann::json& record) const;

  struct Node;

 private:
  std::shared_ptr<const Node> root_;
};

// A record passes when there are no patterns or any pattern matches.
class FilterSet {
 public:
  static Result<FilterSet> Compile(const std::vector<std::string>& patterns);
  bool Match(const nlohmann::json& record) const;
  bool empty() const { return patterns_.empty(); }

 private:
  std::vector<FilterPattern> patterns_;
};

}  // namespace ddblab::harness::consumer
