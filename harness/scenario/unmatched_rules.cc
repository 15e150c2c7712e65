// harness/scenario/unmatched_rules.cc: matching fault rules against the
// calls of a run by operation and table.
#include "harness/scenario/unmatched_rules.h"

#include <algorithm>
#include <set>

namespace ddblab::harness::scenario {
namespace {

// "cartz" from a table name or "arn:...:table/cartz[/stream/...]".
std::string TableOfName(const std::string& name_or_arn) {
  if (!name_or_arn.starts_with("arn:")) return name_or_arn;
  const size_t pos = name_or_arn.find(":table/");
  if (pos == std::string::npos) return name_or_arn;
  const std::string rest = name_or_arn.substr(pos + 7);
  return rest.substr(0, rest.find('/'));
}

// "PutItem", "PutItem or UpdateItem", "PutItem, UpdateItem or DeleteItem".
std::string OneOf(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
    out += names[i];
  }
  return out;
}

std::string Quoted(const std::vector<std::string>& names) {
  std::vector<std::string> quoted;
  for (const std::string& n : names) quoted.push_back("\"" + n + "\"");
  return OneOf(quoted);
}

}  // namespace

std::vector<std::string> TablesOfRequest(const json& request) {
  std::vector<std::string> tables;
  if (!request.is_object()) return tables;
  for (const char* member : {"TableName", "StreamArn", "TableArn"}) {
    auto it = request.find(member);
    if (it != request.end() && it->is_string()) {
      tables.push_back(TableOfName(it->get<std::string>()));
    }
  }
  auto items = request.find("RequestItems");
  if (items != request.end() && items->is_object()) {
    for (const auto& [name, value] : items->items()) {
      tables.push_back(TableOfName(name));
    }
  }
  auto transact = request.find("TransactItems");
  if (transact != request.end() && transact->is_array()) {
    for (const json& item : *transact) {
      if (!item.is_object()) continue;
      for (const auto& [kind, body] : item.items()) {
        if (body.is_object() && body.contains("TableName") &&
            body["TableName"].is_string()) {
          tables.push_back(TableOfName(body["TableName"].get<std::string>()));
        }
      }
    }
  }
  return tables;
}

namespace {

// A rule's "operation" or "table": a name or a list of names.
std::vector<std::string> Names(const json& rule, const char* field) {
  std::vector<std::string> names;
  auto it = rule.find(field);
  if (it == rule.end()) return names;
  if (it->is_string()) names.push_back(it->get<std::string>());
  if (it->is_array()) {
    for (const json& name : *it) {
      if (name.is_string()) names.push_back(name.get<std::string>());
    }
  }
  return names;
}

bool IsStreamsOperation(std::string_view operation) {
  return operation == "ListStreams" || operation == "DescribeStream" ||
         operation == "GetShardIterator" || operation == "GetRecords";
}

}  // namespace

std::vector<std::string> UnmatchedRules(const json& plan,
                                        const std::vector<CallSeen>& calls) {
  std::vector<std::string> lines;
  if (!plan.is_object() || !plan.contains("rules") ||
      !plan["rules"].is_array()) {
    return lines;
  }
  const json& rules = plan["rules"];
  for (size_t i = 0; i < rules.size(); ++i) {
    if (!rules[i].is_object()) continue;
    struct {
      std::string id;
      std::vector<std::string> operations;
      std::vector<std::string> tables;
    } rule{rules[i].contains("id") && rules[i]["id"].is_string()
               ? rules[i]["id"].get<std::string>()
               : std::to_string(i),
           Names(rules[i], "operation"), Names(rules[i], "table")};
    const auto op_fits = [&](const CallSeen& call) {
      if (rule.operations.empty()) {
        // Every operation the effect fits: DynamoDB's, not Streams'.
        return !IsStreamsOperation(call.operation);
      }
      return std::find(rule.operations.begin(), rule.operations.end(),
                       call.operation) != rule.operations.end();
    };
    const auto table_fits = [&](const CallSeen& call) {
      if (rule.tables.empty() || call.tables.empty()) return true;
      for (const std::string& t : call.tables) {
        if (std::find(rule.tables.begin(), rule.tables.end(), t) !=
            rule.tables.end()) {
          return true;
        }
      }
      return false;
    };
    bool op_seen = false;
    bool matched = false;
    std::set<std::string> tables_called;
    for (const CallSeen& call : calls) {
      if (!op_fits(call)) continue;
      op_seen = true;
      tables_called.insert(call.tables.begin(), call.tables.end());
      if (table_fits(call)) {
        matched = true;
        break;
      }
    }
    if (matched) continue;
    const std::string ops = rule.operations.empty() ? std::string("DynamoDB")
                                                    : OneOf(rule.operations);
    std::string why;
    if (!op_seen) {
      why = "the run made no " + ops + " call";
    } else {
      why = "the run made no " + ops + " call on table " + Quoted(rule.tables) +
            " (only on " +
            Quoted({tables_called.begin(), tables_called.end()}) + ")";
    }
    lines.push_back("fault rule " + rule.id + " (faults.rules[" +
                    std::to_string(i) + "]) matched no call: " + why);
  }
  return lines;
}

}  // namespace ddblab::harness::scenario
