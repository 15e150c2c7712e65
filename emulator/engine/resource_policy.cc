// Resource-based policy documents and slots (resource_policy.h).
//
// Texts: DynamoDB's answers to PutResourcePolicy as recorded live in 2026
// (a public probe of DynamoDB's resource-policy APIs): the size limit, "This
// policy contains invalid Json" (also for ""), "Could not parse the policy:
// Statement is empty!", "Missing required field Resource", "The Statement Ids
// in the policy are not unique" and the unbounded-access refusal. The
// canonical form (member order, minified, account-id principals as root
// ARNs, duplicate principals collapsed to one string) is the same probe's
// read-back. Texts marked "unverified" follow the same pattern for cases
// with no recorded answer.
#include "emulator/engine/resource_policy.h"

#include <algorithm>
#include <chrono>
#include <set>
#include <string_view>
#include <vector>

#include "emulator/engine/request.h"

namespace ddblab::engine {
namespace {

using Ordered = nlohmann::ordered_json;

Error InvalidDocument(std::string_view detail) {
  return Error::Validation(std::string(kInvalidParams) +
                           "Invalid policy document: " + std::string(detail));
}

bool IsAccountId(const std::string& s) {
  return s.size() == 12 && std::all_of(s.begin(), s.end(), [](char c) {
           return c >= '0' && c <= '9';
         });
}

// A string-or-list member: duplicates dropped (first kept), one element
// written as a plain string. `rewrite` maps each string element.
template <typename F>
Ordered CanonicalList(const nlohmann::json& value, F rewrite) {
  if (!value.is_array()) {
    return value.is_string() ? Ordered(rewrite(value.get<std::string>()))
                             : Ordered::parse(value.dump());
  }
  std::vector<Ordered> out;
  std::set<std::string> seen;
  for (const nlohmann::json& v : value) {
    Ordered e = v.is_string() ? Ordered(rewrite(v.get<std::string>()))
                              : Ordered::parse(v.dump());
    if (seen.insert(e.dump()).second) out.push_back(std::move(e));
  }
  if (out.size() == 1) return out[0];
  Ordered list = Ordered::array();
  for (Ordered& e : out) list.push_back(std::move(e));
  return list;
}

std::string Same(const std::string& s) { return s; }

Ordered CanonicalPrincipal(const nlohmann::json& principal) {
  if (!principal.is_object()) return Ordered::parse(principal.dump());
  Ordered out = Ordered::object();
  for (auto it = principal.begin(); it != principal.end(); ++it) {
    if (it.key() == "AWS") {
      out[it.key()] = CanonicalList(*it, [](const std::string& s) {
        return IsAccountId(s) ? "arn:aws:iam::" + s + ":root" : s;
      });
    } else {
      out[it.key()] = CanonicalList(*it, Same);
    }
  }
  return out;
}

bool GrantsEveryone(const nlohmann::json& principal) {
  if (principal.is_string()) return principal.get<std::string>() == "*";
  if (!principal.is_object()) return false;
  auto aws = principal.find("AWS");
  if (aws == principal.end()) return false;
  if (aws->is_string()) return aws->get<std::string>() == "*";
  if (aws->is_array()) {
    for (const nlohmann::json& v : *aws) {
      if (v.is_string() && v.get<std::string>() == "*") return true;
    }
  }
  return false;
}

Result<Ordered> CanonicalStatement(const nlohmann::json& s) {
  // Unverified: a statement that is not an object.
  if (!s.is_object())
    return InvalidDocument("This policy contains invalid Json");
  // Unverified texts for Effect, Action and Principal; Resource's is
  // recorded.
  if (!s.contains("Effect"))
    return InvalidDocument("Missing required field Effect");
  const nlohmann::json& effect = s["Effect"];
  if (!effect.is_string() || (effect.get<std::string>() != "Allow" &&
                              effect.get<std::string>() != "Deny")) {
    return InvalidDocument("Invalid effect: " + (effect.is_string()
                                                     ? effect.get<std::string>()
                                                     : effect.dump()));
  }
  if (!s.contains("Action") && !s.contains("NotAction")) {
    return InvalidDocument("Missing required field Action");
  }
  if (!s.contains("Resource") && !s.contains("NotResource")) {
    return InvalidDocument("Missing required field Resource");
  }
  if (!s.contains("Principal") && !s.contains("NotPrincipal")) {
    return InvalidDocument("Missing required field Principal");
  }
  if (effect.get<std::string>() == "Allow" && s.contains("Principal") &&
      !s.contains("Condition") && GrantsEveryone(s["Principal"])) {
    return Error::Validation(
        "Resource-based policy grants unbounded access in one or more "
        "elements. Please revise the policy to ensure least-privilege form of "
        "access");
  }
  Ordered out = Ordered::object();
  static constexpr std::string_view kOrder[] = {
      "Sid",       "Effect",   "Principal",   "NotPrincipal", "Action",
      "NotAction", "Resource", "NotResource", "Condition"};
  for (std::string_view key : kOrder) {
    auto it = s.find(std::string(key));
    if (it == s.end()) continue;
    if (key == "Principal" || key == "NotPrincipal") {
      out[std::string(key)] = CanonicalPrincipal(*it);
    } else if (key == "Sid" || key == "Effect" || key == "Condition") {
      out[std::string(key)] = Ordered::parse(it->dump());
    } else {
      out[std::string(key)] = CanonicalList(*it, Same);
    }
  }
  for (auto it = s.begin(); it != s.end(); ++it) {
    if (!out.contains(it.key())) out[it.key()] = Ordered::parse(it->dump());
  }
  return out;
}

}  // namespace

Result<std::string> CanonicalPolicy(const std::string& document) {
  if (document.size() > kMaxPolicyBytes) {
    return Error::Validation(std::string(kInvalidParams) +
                             "Maximum policy size of 20480 bytes exceeded");
  }
  nlohmann::json doc = nlohmann::json::parse(document, nullptr, false);
  // Unverified: valid JSON that is not an object.
  if (doc.is_discarded() || !doc.is_object()) {
    return InvalidDocument("This policy contains invalid Json");
  }
  auto statement = doc.find("Statement");
  // Unverified: a missing or non-list Statement.
  if (statement == doc.end()) {
    return InvalidDocument("Missing required field Statement");
  }
  if (!statement->is_array() && !statement->is_object()) {
    return InvalidDocument("This policy contains invalid Json");
  }
  if (statement->is_array() && statement->empty()) {
    return InvalidDocument("Could not parse the policy: Statement is empty!");
  }
  std::vector<const nlohmann::json*> statements;
  if (statement->is_array()) {
    for (const nlohmann::json& s : *statement) statements.push_back(&s);
  } else {
    statements.push_back(&*statement);
  }
  std::set<std::string> sids;
  Ordered list = Ordered::array();
  for (const nlohmann::json* s : statements) {
    if (s->is_object()) {
      auto sid = s->find("Sid");
      if (sid != s->end() && sid->is_string() &&
          !sids.insert(sid->get<std::string>()).second) {
        return InvalidDocument(
            "The Statement Ids in the policy are not unique");
      }
    }
    DDBLAB_ASSIGN_OR_RETURN(Ordered one, CanonicalStatement(*s));
    list.push_back(std::move(one));
  }
  Ordered out = Ordered::object();
  if (auto v = doc.find("Version"); v != doc.end()) {
    out["Version"] = Ordered::parse(v->dump());
  }
  out["Statement"] = statement->is_array() ? std::move(list) : list[0];
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    if (!out.contains(it.key())) out[it.key()] = Ordered::parse(it->dump());
  }
  return out.dump();
}

std::string NextRevision(TimePoint now, const PolicySlot& slot) {
  int64_t ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                   now.time_since_epoch())
                   .count();
  if (!slot.last_revision.empty()) {
    int64_t last = std::stoll(slot.last_revision);
    ms = std::max(ms, last + 1);
  }
  return std::to_string(ms);
}

nlohmann::json ResourcePolicies::ToJson() const {
  auto slot_json = [](const PolicySlot& s) {
    nlohmann::json j = {{"last", s.last_revision}};
    if (s.policy) {
      j["doc"] = s.policy->document;
      j["rev"] = s.policy->revision;
    }
    return j;
  };
  nlohmann::json streams_json = nlohmann::json::object();
  for (const auto& [arn, slot] : streams) streams_json[arn] = slot_json(slot);
  return {{"table", slot_json(table)}, {"streams", std::move(streams_json)}};
}

ResourcePolicies ResourcePolicies::FromJson(const nlohmann::json& j) {
  auto read_slot = [](const nlohmann::json& s) {
    PolicySlot slot;
    slot.last_revision = s.value("last", std::string());
    if (s.contains("doc")) {
      slot.policy = StoredPolicy{s.at("doc").get<std::string>(),
                                 s.at("rev").get<std::string>()};
    }
    return slot;
  };
  ResourcePolicies out;
  if (!j.is_object()) return out;
  if (j.contains("table")) out.table = read_slot(j.at("table"));
  if (j.contains("streams")) {
    for (auto it = j.at("streams").begin(); it != j.at("streams").end(); ++it) {
      out.streams[it.key()] = read_slot(*it);
    }
  }
  return out;
}

}  // namespace ddblab::engine
