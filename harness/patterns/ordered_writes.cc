// harness/patterns/ordered_writes.cc: client-timestamp ordered writes.
#include "harness/patterns/ordered_writes.h"

#include <algorithm>
#include <set>

namespace ddblab::harness::patterns {
namespace {

constexpr const char* kVariantNames[] = {"correct", "unconditional_puts",
                                         "hard_deletes"};
constexpr const char* kOwnAttributes[] = {"pk", "sk", "ts", "Deleted", "ttl"};
constexpr const char* kNewer = "attribute_not_exists(#ts) OR :ts >= #ts";

std::string KeyText(std::string_view pk, std::string_view sk) {
  return std::string(pk) + "/" + std::string(sk);
}

}  // namespace

std::string_view OrderedVariantName(OrderedVariant variant) {
  return kVariantNames[static_cast<int>(variant)];
}

Result<OrderedVariant> ParseOrderedVariant(std::string_view name) {
  for (int i = 0; i < 3; ++i) {
    if (name == kVariantNames[i]) return static_cast<OrderedVariant>(i);
  }
  return Error::Validation("unknown ordered writes variant \"" +
                           std::string(name) +
                           "\" (correct, unconditional_puts, hard_deletes)");
}

size_t OrderedLedger::Put(std::string pk, std::string sk, int64_t ts,
                          json attributes) {
  return Record(std::move(pk), std::move(sk),
                Write{ts, false, std::move(attributes)});
}

size_t OrderedLedger::Delete(std::string pk, std::string sk, int64_t ts) {
  return Record(std::move(pk), std::move(sk), Write{ts, true, json::object()});
}

void OrderedLedger::Settle(size_t id, WriteFate fate) {
  const auto& [key, index] = ids_.at(id);
  writes_[key][index].fate = fate;
}

size_t OrderedLedger::Record(std::string pk, std::string sk, Write write) {
  Key key(std::move(pk), std::move(sk));
  std::vector<Write>& writes = writes_[key];
  writes.push_back(std::move(write));
  ids_.emplace_back(std::move(key), writes.size() - 1);
  return ids_.size() - 1;
}

Result<OrderedWrites> OrderedWrites::Open(Backend& backend,
                                          OrderedConfig config) {
  DDBLAB_RETURN_IF_ERROR(CheckTableName("ordered writes", config.table));
  if (config.tombstone_ttl < std::chrono::seconds(1)) {
    return Error::Validation(
        "ordered writes: tombstone_ttl must be at least 1 second (default 7 "
        "days)");
  }
  return OrderedWrites(backend, std::move(config));
}

Status OrderedWrites::Setup() {
  DDBLAB_RETURN_IF_ERROR(EnsureTable(
      *backend_, {{"TableName", config_.table},
                  {"KeySchema",
                   {{{"AttributeName", "pk"}, {"KeyType", "HASH"}},
                    {{"AttributeName", "sk"}, {"KeyType", "RANGE"}}}},
                  {"AttributeDefinitions",
                   {{{"AttributeName", "pk"}, {"AttributeType", "S"}},
                    {{"AttributeName", "sk"}, {"AttributeType", "S"}}}},
                  {"BillingMode", "PAY_PER_REQUEST"}}));
  auto ttl =
      backend_->Call("DescribeTimeToLive", {{"TableName", config_.table}});
  if (!ttl.ok()) return ttl.error();
  const json& description = (*ttl)["TimeToLiveDescription"];
  const std::string status = description.value("TimeToLiveStatus", "");
  if (status == "ENABLED" || status == "ENABLING") {
    if (description.value("AttributeName", "") != "ttl") {
      return Error::Validation("ordered writes: table " + config_.table +
                               " has TTL on " +
                               description.value("AttributeName", "") +
                               ", the pattern needs it on ttl");
    }
    return Status();
  }
  auto enabled = backend_->Call(
      "UpdateTimeToLive", {{"TableName", config_.table},
                           {"TimeToLiveSpecification",
                            {{"Enabled", true}, {"AttributeName", "ttl"}}}});
  if (!enabled.ok()) return enabled.error();
  return Status();
}

Result<WriteOutcome> OrderedWrites::Write(json request, bool conditional) {
  if (conditional) {
    request["ConditionExpression"] = kNewer;
    request["ExpressionAttributeNames"] = {{"#ts", "ts"}};
    request["ExpressionAttributeValues"] = {{":ts", request["Item"]["ts"]}};
  }
  auto out = backend_->Call("PutItem", request);
  if (out.ok()) return WriteOutcome::kApplied;
  if (out.error().type == ErrorType::kConditionalCheckFailed) {
    return WriteOutcome::kStale;
  }
  return out.error();
}

Result<WriteOutcome> OrderedWrites::Put(std::string_view pk,
                                        std::string_view sk, int64_t ts,
                                        const json& attributes) {
  if (!attributes.is_object()) {
    return Error::Validation(
        "ordered writes: attributes must be an object of AttributeValues");
  }
  for (const char* own : kOwnAttributes) {
    if (attributes.contains(own)) {
      return Error::Validation(std::string("ordered writes: attribute ") + own +
                               " belongs to the pattern");
    }
  }
  json item = attributes;
  item["pk"] = S(pk);
  item["sk"] = S(sk);
  item["ts"] = N(ts);
  return Write({{"TableName", config_.table}, {"Item", item}},
               config_.variant != OrderedVariant::kUnconditionalPuts);
}

Result<WriteOutcome> OrderedWrites::Delete(std::string_view pk,
                                           std::string_view sk, int64_t ts) {
  if (config_.variant == OrderedVariant::kHardDeletes) {
    // Conditional, so the only flaw is that nothing is left behind.
    auto out = backend_->Call(
        "DeleteItem", {{"TableName", config_.table},
                       {"Key", {{"pk", S(pk)}, {"sk", S(sk)}}},
                       {"ConditionExpression", kNewer},
                       {"ExpressionAttributeNames", {{"#ts", "ts"}}},
                       {"ExpressionAttributeValues", {{":ts", N(ts)}}}});
    if (out.ok()) return WriteOutcome::kApplied;
    if (out.error().type == ErrorType::kConditionalCheckFailed) {
      return WriteOutcome::kStale;
    }
    return out.error();
  }
  const int64_t expires =
      ToEpochSeconds(backend_->clock().Now() + config_.tombstone_ttl);
  json item = {{"pk", S(pk)},
               {"sk", S(sk)},
               {"ts", N(ts)},
               {"Deleted", {{"BOOL", true}}},
               {"ttl", N(expires)}};
  return Write({{"TableName", config_.table}, {"Item", item}},
               config_.variant == OrderedVariant::kCorrect);
}

Result<std::optional<json>> OrderedWrites::Get(std::string_view pk,
                                               std::string_view sk) {
  auto out = backend_->Call("GetItem", {{"TableName", config_.table},
                                        {"Key", {{"pk", S(pk)}, {"sk", S(sk)}}},
                                        {"ConsistentRead", true}});
  if (!out.ok()) return out.error();
  if (!out->contains("Item") || (*out)["Item"].contains("Deleted")) {
    return std::optional<json>();
  }
  return std::optional<json>((*out)["Item"]);
}

Result<std::vector<json>> OrderedWrites::Query(std::string_view pk) {
  std::vector<json> items;
  json request = {
      {"TableName", config_.table},
      {"KeyConditionExpression", "#pk = :pk"},
      {"FilterExpression", "attribute_not_exists(#deleted)"},
      {"ExpressionAttributeNames", {{"#pk", "pk"}, {"#deleted", "Deleted"}}},
      {"ExpressionAttributeValues", {{":pk", S(pk)}}},
      {"ConsistentRead", true}};
  while (true) {
    auto page = backend_->Call("Query", request);
    if (!page.ok()) return page.error();
    for (json& item : (*page)["Items"]) items.push_back(std::move(item));
    if (!page->contains("LastEvaluatedKey")) break;
    request["ExclusiveStartKey"] = (*page)["LastEvaluatedKey"];
  }
  return items;
}

namespace {

// What a key may hold: the newest answered write (none: nothing), or any
// write whose outcome is unknown and that is not older than it.
struct Acceptable {
  const OrderedLedger::Write* answered = nullptr;
  std::vector<const OrderedLedger::Write*> unknown;
};

Acceptable AcceptableOf(const std::vector<OrderedLedger::Write>& writes) {
  Acceptable out;
  for (const OrderedLedger::Write& w : writes) {
    if (w.fate != WriteFate::kAnswered) continue;
    if (out.answered == nullptr || w.ts > out.answered->ts) out.answered = &w;
  }
  for (const OrderedLedger::Write& w : writes) {
    if (w.fate != WriteFate::kUnknown) continue;
    if (out.answered == nullptr || w.ts >= out.answered->ts) {
      out.unknown.push_back(&w);
    }
  }
  return out;
}

json ItemOf(const std::string& pk, const std::string& sk,
            const OrderedLedger::Write& write) {
  json item = write.attributes;
  item["pk"] = S(pk);
  item["sk"] = S(sk);
  item["ts"] = N(write.ts);
  return item;
}

// " or a write whose answer was lost (ts 3, 5)"; "" when there is none.
std::string UnknownText(const Acceptable& ok) {
  if (ok.unknown.empty()) return "";
  std::string text = ok.unknown.size() == 1
                         ? " or the write whose answer was lost (ts "
                         : " or one of the writes whose answer was lost (ts ";
  for (size_t i = 0; i < ok.unknown.size(); ++i) {
    text += (i ? ", " : "") + std::to_string(ok.unknown[i]->ts) +
            (ok.unknown[i]->deleted ? " delete" : "");
  }
  return text + ")";
}

}  // namespace

Result<Problems> OrderedWrites::Check(const OrderedLedger& ledger) {
  Problems problems;
  std::map<std::string, std::set<std::string>> live_by_pk;
  for (const auto& [key, writes] : ledger.writes()) {
    const auto& [pk, sk] = key;
    live_by_pk[pk];  // every partition of the ledger is queried
    auto out =
        backend_->Call("GetItem", {{"TableName", config_.table},
                                   {"Key", {{"pk", S(pk)}, {"sk", S(sk)}}},
                                   {"ConsistentRead", true}});
    if (!out.ok()) return out.error();
    const json item = out->value("Item", json());
    const bool live = !item.is_null() && !item.contains("Deleted");
    const Acceptable ok = AcceptableOf(writes);
    auto holds = [&](const OrderedLedger::Write* w) {
      if (w == nullptr) return item.is_null();
      return w->deleted ? !live : item == ItemOf(pk, sk, *w);
    };
    if (holds(ok.answered) ||
        std::any_of(ok.unknown.begin(), ok.unknown.end(), holds)) {
      if (live) live_by_pk[pk].insert(sk);
      continue;
    }
    const std::string held =
        item.is_null()
            ? std::string("nothing")
            : std::string(live ? "a write" : "a tombstone") + " of ts " +
                  item.value("ts", json()).value("N", "?");
    const OrderedLedger::Write* newest = ok.answered;
    if (newest == nullptr) {
      problems.push_back(KeyText(pk, sk) +
                         " should hold nothing (no write to it was applied" +
                         UnknownText(ok) + ") but holds " + held);
      continue;
    }
    if (newest->deleted) {
      problems.push_back(KeyText(pk, sk) + " was deleted at ts " +
                         std::to_string(newest->ts) + UnknownText(ok) +
                         " but holds " + held +
                         " (an older write resurrected it)");
      continue;
    }
    live_by_pk[pk].insert(sk);
    problems.push_back(KeyText(pk, sk) + " should hold the write of ts " +
                       std::to_string(newest->ts) + UnknownText(ok) +
                       " but holds " + held +
                       (live && AsInt(item["ts"]).value_or(0) < newest->ts
                            ? " (an older write arrived last and won)"
                            : ""));
  }
  for (const auto& [pk, expected] : live_by_pk) {
    auto items = Query(pk);
    if (!items.ok()) return items.error();
    std::set<std::string> seen;
    for (const json& item : *items) {
      seen.insert(item["sk"].value("S", ""));
    }
    if (seen != expected) {
      std::string text = "Query(" + pk + ") shows [";
      for (const std::string& sk : seen)
        text += (text.back() == '[' ? "" : ", ") + sk;
      text += "], expected [";
      for (const std::string& sk : expected) {
        text += (text.back() == '[' ? "" : ", ") + sk;
      }
      problems.push_back(text + "]");
    }
  }
  return problems;
}

}  // namespace ddblab::harness::patterns
