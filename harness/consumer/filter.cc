// harness/consumer/filter.cc: compiling and matching filter patterns (see
// filter.h).
#include "harness/consumer/filter.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <optional>
#include <utility>

namespace ddblab::harness::consumer {

using json = nlohmann::json;

namespace {

enum class RuleKind {
  kEquals,
  kAnythingBut,
  kNumeric,
  kExists,
  kPrefix,
  kPrefixIgnoreCase,
  kSuffix,
  kEqualsIgnoreCase,
};

struct Bound {
  std::string op;
  double value = 0;
};

struct Rule {
  RuleKind kind = RuleKind::kEquals;
  json literal;               // kEquals
  std::vector<json> values;   // kAnythingBut
  std::vector<Bound> bounds;  // kNumeric
  bool exists = true;         // kExists
  std::string text;           // prefix/suffix/ignore-case
};

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) {
    return static_cast<char>(std::tolower(c));
  });
  return s;
}

// Literal equality: strings exactly, numbers by their JSON text.
bool SameLiteral(const json& a, const json& b) {
  if (a.is_number() || b.is_number()) {
    return a.is_number() && b.is_number() && a.dump() == b.dump();
  }
  return a == b;
}

bool IsLiteral(const json& v) {
  return v.is_string() || v.is_number() || v.is_boolean() || v.is_null();
}

}  // namespace

struct FilterPattern::Node {
  bool leaf = false;
  std::vector<Rule> rules;               // leaf
  std::map<std::string, Node> children;  // object
};

namespace {

using Node = FilterPattern::Node;

Result<Rule> CompileOperator(const std::string& path, const json& op) {
  if (op.size() != 1) {
    return Error::Validation("field " + path +
                             ": an operator object must have exactly one "
                             "key, got " +
                             op.dump());
  }
  const std::string& name = op.begin().key();
  const json& arg = op.begin().value();
  Rule r;
  if (name == "exists") {
    if (!arg.is_boolean()) {
      return Error::Validation("field " + path +
                               ": \"exists\" takes true or false");
    }
    r.kind = RuleKind::kExists;
    r.exists = arg.get<bool>();
    return r;
  }
  if (name == "prefix" || name == "suffix" || name == "equals-ignore-case") {
    if (name == "prefix" && arg.is_object() && arg.size() == 1 &&
        arg.contains("equals-ignore-case") &&
        arg["equals-ignore-case"].is_string()) {
      r.kind = RuleKind::kPrefixIgnoreCase;
      r.text = Lower(arg["equals-ignore-case"].get<std::string>());
      return r;
    }
    if (!arg.is_string()) {
      return Error::Validation("field " + path + ": \"" + name +
                               "\" takes a string");
    }
    r.kind = name == "prefix"   ? RuleKind::kPrefix
             : name == "suffix" ? RuleKind::kSuffix
                                : RuleKind::kEqualsIgnoreCase;
    r.text = arg.get<std::string>();
    if (r.kind == RuleKind::kEqualsIgnoreCase) r.text = Lower(r.text);
    return r;
  }
  if (name == "anything-but") {
    r.kind = RuleKind::kAnythingBut;
    if (arg.is_array()) {
      if (arg.empty()) {
        return Error::Validation("field " + path +
                                 ": \"anything-but\" needs at least one value");
      }
      for (const json& v : arg) {
        if (!v.is_string() && !v.is_number()) {
          return Error::Validation("field " + path +
                                   ": \"anything-but\" takes strings or "
                                   "numbers");
        }
        r.values.push_back(v);
      }
      return r;
    }
    if (arg.is_string() || arg.is_number()) {
      r.values.push_back(arg);
      return r;
    }
    return Error::Validation(
        "field " + path + ": \"anything-but\" with an operator (" + arg.dump() +
        ") is not supported by event source mapping "
        "filters");
  }
  if (name == "numeric") {
    r.kind = RuleKind::kNumeric;
    if (!arg.is_array() || arg.empty() || arg.size() % 2 != 0 ||
        arg.size() > 4) {
      return Error::Validation(
          "field " + path +
          ": \"numeric\" takes one or two [operator, number] pairs");
    }
    for (size_t i = 0; i < arg.size(); i += 2) {
      if (!arg[i].is_string() || !arg[i + 1].is_number()) {
        return Error::Validation(
            "field " + path +
            ": \"numeric\" takes one or two [operator, number] pairs");
      }
      std::string o = arg[i].get<std::string>();
      if (o != "=" && o != "<" && o != "<=" && o != ">" && o != ">=") {
        return Error::Validation("field " + path +
                                 ": unknown numeric operator \"" + o + "\"");
      }
      r.bounds.push_back({o, arg[i + 1].get<double>()});
    }
    return r;
  }
  if (name == "wildcard" || name == "cidr") {
    return Error::Validation("field " + path + ": \"" + name +
                             "\" is not supported by event source mapping "
                             "filters");
  }
  return Error::Validation("field " + path + ": unknown operator \"" + name +
                           "\"");
}

Status CompileObject(const std::string& path, const json& obj, Node& node) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    const std::string& key = it.key();
    std::string child_path = path.empty() ? key : path + "." + key;
    if (key == "$or") {
      return Error::Validation(
          "\"$or\" is not supported by event source "
          "mapping filters");
    }
    Node child;
    if (it->is_object()) {
      if (it->empty()) {
        return Error::Validation("field " + child_path +
                                 ": an empty object matches nothing");
      }
      DDBLAB_RETURN_IF_ERROR(CompileObject(child_path, *it, child));
    } else if (it->is_array()) {
      if (it->empty()) {
        return Error::Validation("field " + child_path +
                                 ": an empty list matches nothing");
      }
      child.leaf = true;
      for (const json& alt : *it) {
        if (IsLiteral(alt)) {
          Rule r;
          r.literal = alt;
          child.rules.push_back(std::move(r));
        } else if (alt.is_object()) {
          DDBLAB_ASSIGN_OR_RETURN(Rule r, CompileOperator(child_path, alt));
          child.rules.push_back(std::move(r));
        } else {
          return Error::Validation("field " + child_path +
                                   ": a list of alternatives cannot hold a "
                                   "list");
        }
      }
    } else {
      return Error::Validation("field " + child_path +
                               ": must be a list of alternatives or an "
                               "object, got " +
                               it->dump());
    }
    node.children[key] = std::move(child);
  }
  return OkStatus();
}

bool MatchScalar(const Rule& r, const json& v) {
  switch (r.kind) {
    case RuleKind::kEquals:
      return SameLiteral(r.literal, v);
    case RuleKind::kAnythingBut:
      if (!v.is_string() && !v.is_number()) return false;
      for (const json& x : r.values) {
        if (SameLiteral(x, v)) return false;
      }
      return true;
    case RuleKind::kNumeric: {
      if (!v.is_number()) return false;
      double d = v.get<double>();
      for (const Bound& b : r.bounds) {
        bool ok = b.op == "="    ? d == b.value
                  : b.op == "<"  ? d < b.value
                  : b.op == "<=" ? d <= b.value
                  : b.op == ">"  ? d > b.value
                                 : d >= b.value;
        if (!ok) return false;
      }
      return true;
    }
    case RuleKind::kExists:
      return r.exists;
    case RuleKind::kPrefix:
      return v.is_string() && v.get<std::string>().starts_with(r.text);
    case RuleKind::kPrefixIgnoreCase:
      return v.is_string() && Lower(v.get<std::string>()).starts_with(r.text);
    case RuleKind::kSuffix:
      return v.is_string() && v.get<std::string>().ends_with(r.text);
    case RuleKind::kEqualsIgnoreCase:
      return v.is_string() && Lower(v.get<std::string>()) == r.text;
  }
  return false;
}

bool MatchRule(const Rule& r, const json* v) {
  if (r.kind == RuleKind::kExists) {
    bool present = v != nullptr && !(v->is_array() && v->empty());
    return present == r.exists;
  }
  if (v == nullptr) return false;
  if (v->is_array()) {
    for (const json& e : *v) {
      if (MatchScalar(r, e)) return true;
    }
    return false;
  }
  return MatchScalar(r, *v);
}

bool MatchNode(const Node& node, const json* v) {
  if (node.leaf) {
    for (const Rule& r : node.rules) {
      if (MatchRule(r, v)) return true;
    }
    return false;
  }
  for (const auto& [key, child] : node.children) {
    const json* field = nullptr;
    if (v != nullptr && v->is_object()) {
      auto it = v->find(key);
      if (it != v->end()) field = &*it;
    }
    if (!MatchNode(child, field)) return false;
  }
  return true;
}

}  // namespace

Result<FilterPattern> FilterPattern::Compile(std::string_view pattern) {
  if (pattern.size() > 4096) {
    return Error::Validation("the pattern is " +
                             std::to_string(pattern.size()) +
                             " characters long; at most 4096 are allowed");
  }
  json parsed = json::parse(pattern, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) {
    return Error::Validation("the pattern is not valid JSON");
  }
  if (!parsed.is_object()) {
    return Error::Validation("the pattern must be a JSON object");
  }
  auto node = std::make_shared<Node>();
  DDBLAB_RETURN_IF_ERROR(CompileObject("", parsed, *node));
  FilterPattern out;
  out.root_ = std::move(node);
  return out;
}

bool FilterPattern::Match(const json& record) const {
  return MatchNode(*root_, &record);
}

Result<FilterSet> FilterSet::Compile(const std::vector<std::string>& patterns) {
  FilterSet set;
  for (size_t i = 0; i < patterns.size(); ++i) {
    auto p = FilterPattern::Compile(patterns[i]);
    if (!p.ok()) {
      return Error::Validation("Invalid filter pattern definition. Filters[" +
                               std::to_string(i) + "]: " + p.error().message);
    }
    set.patterns_.push_back(std::move(*p));
  }
  return set;
}

bool FilterSet::Match(const json& record) const {
  if (patterns_.empty()) return true;
  for (const auto& p : patterns_) {
    if (p.Match(record)) return true;
  }
  return false;
}

}  // namespace ddblab::harness::consumer
