// harness/patterns/common.cc: shared helpers of the patterns.
#include "harness/patterns/common.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <optional>
#include <stop_token>

#include "harness/backend/retry_policy.h"

namespace ddblab::harness::patterns {

json S(std::string_view s) { return {{"S", std::string(s)}}; }

json N(int64_t n) { return {{"N", std::to_string(n)}}; }

std::optional<int64_t> AsInt(const json& value) {
  if (!value.is_object() || !value.contains("N") || !value["N"].is_string()) {
    return std::nullopt;
  }
  const std::string& text = value["N"].get_ref<const std::string&>();
  if (text.empty()) return std::nullopt;
  size_t used = 0;
  int64_t out = 0;
  try {
    out = std::stoll(text, &used);
  } catch (...) {
    return std::nullopt;
  }
  if (used != text.size()) return std::nullopt;
  return out;
}

Status CheckTableName(std::string_view pattern, const std::string& table) {
  bool ok = table.size() >= 3 && table.size() <= 255;
  for (char c : table) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' &&
        c != '.') {
      ok = false;
    }
  }
  if (ok) return Status();
  return Error::Validation(std::string(pattern) +
                           ": table name must be 3 to 255 characters of a-z, "
                           "A-Z, 0-9, '_', '-' and '.', got \"" +
                           table + "\"");
}

namespace {

// The names of the indexes in a CreateTable request or a DescribeTable
// answer, sorted.
std::vector<std::string> IndexNames(const json& table, const char* member) {
  std::vector<std::string> names;
  if (table.contains(member)) {
    for (const json& index : table[member]) {
      names.push_back(index.value("IndexName", ""));
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

Status EnsureTable(Backend& backend, const json& create_table) {
  const std::string name = create_table.value("TableName", "");
  auto created = backend.Call("CreateTable", create_table);
  if (!created.ok() && created.error().type != ErrorType::kResourceInUse) {
    return created.error();
  }
  // Wait for ACTIVE (and for the GSIs to be ACTIVE): at most ~5 minutes of
  // the backend's time, polling every 2 s.
  for (int attempt = 0; attempt < 150; ++attempt) {
    auto described = backend.Call("DescribeTable", {{"TableName", name}});
    if (!described.ok()) return described.error();
    const json& table = (*described)["Table"];
    if (!created.ok()) {
      // It existed before: it must be the table this pattern needs.
      if (table["KeySchema"] != create_table["KeySchema"]) {
        return Error::Validation("table " + name + " exists with key schema " +
                                 table["KeySchema"].dump() + ", expected " +
                                 create_table["KeySchema"].dump());
      }
      if (IndexNames(table, "GlobalSecondaryIndexes") !=
          IndexNames(create_table, "GlobalSecondaryIndexes")) {
        return Error::Validation(
            "table " + name +
            " exists with other global secondary indexes than this pattern "
            "needs; delete it or choose another table name");
      }
    }
    bool active = table.value("TableStatus", "") == "ACTIVE";
    if (table.contains("GlobalSecondaryIndexes")) {
      for (const json& index : table["GlobalSecondaryIndexes"]) {
        if (index.value("IndexStatus", "") != "ACTIVE") active = false;
      }
    }
    if (active) return Status();
    backend.clock().SleepUntil(backend.clock().Now() + std::chrono::seconds(2),
                               std::stop_token());
  }
  return Error::Validation("table " + name +
                           " did not become ACTIVE within 5 minutes");
}

Status EnsureStream(Backend& backend, const std::string& table,
                    std::string_view view_type) {
  bool updated = false;
  // At most ~5 minutes of the backend's time for the table to be ACTIVE
  // again after enabling the stream, polling every 2 s.
  for (int attempt = 0; attempt < 150; ++attempt) {
    auto described = backend.Call("DescribeTable", {{"TableName", table}});
    if (!described.ok()) return described.error();
    const json& desc = (*described)["Table"];
    const json spec = desc.value("StreamSpecification", json::object());
    const bool enabled = spec.value("StreamEnabled", false);
    if (enabled && spec.value("StreamViewType", "") != view_type) {
      return Error::Validation(
          "table " + table + " has a " + spec.value("StreamViewType", "") +
          " stream; this pattern needs " + std::string(view_type) +
          ": delete it or choose another table name");
    }
    if (!enabled && !updated) {
      auto out = backend.Call("UpdateTable",
                              {{"TableName", table},
                               {"StreamSpecification",
                                {{"StreamEnabled", true},
                                 {"StreamViewType", std::string(view_type)}}}});
      if (!out.ok()) return out.error();
      updated = true;
      continue;
    }
    if (enabled && desc.value("TableStatus", "") == "ACTIVE") return Status();
    backend.clock().SleepUntil(backend.clock().Now() + std::chrono::seconds(2),
                               std::stop_token());
  }
  return Error::Validation("table " + table +
                           " did not become ACTIVE with its stream within 5 "
                           "minutes");
}

Status EnsureTtl(Backend& backend, const std::string& table,
                 std::string_view attribute) {
  auto ttl = backend.Call("DescribeTimeToLive", {{"TableName", table}});
  if (!ttl.ok()) return ttl.error();
  const json desc = (*ttl).value("TimeToLiveDescription", json::object());
  const std::string status = desc.value("TimeToLiveStatus", "");
  if (status == "ENABLED" || status == "ENABLING") {
    if (desc.value("AttributeName", "") == attribute) return Status();
    return Error::Validation(
        "table " + table + " has TTL on " + desc.value("AttributeName", "") +
        "; this pattern needs it on " + std::string(attribute));
  }
  auto enabled = backend.Call(
      "UpdateTimeToLive",
      {{"TableName", table},
       {"TimeToLiveSpecification",
        {{"Enabled", true}, {"AttributeName", std::string(attribute)}}}});
  if (!enabled.ok()) return enabled.error();
  return Status();
}

void WaitFor(Backend& backend, Duration d) {
  if (d <= Duration::zero()) return;
  if (backend.Has(Capability::kClock) && backend.AdvanceClock(d).ok()) return;
  backend.clock().SleepUntil(backend.clock().Now() + d, std::stop_token());
}

bool SdkRetries(const Error& error) {
  return Classify(error) != FailureKind::kNotRetryable;
}

std::string IsoSeconds(int64_t epoch_seconds) {
  std::time_t t = static_cast<std::time_t>(epoch_seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[96];
  std::snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02dZ",
                tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                tm.tm_min, tm.tm_sec);
  return buf;
}

Result<std::vector<json>> ScanAll(Backend& backend, std::string_view table) {
  std::vector<json> items;
  json request = {{"TableName", std::string(table)}, {"ConsistentRead", true}};
  while (true) {
    auto page = backend.Call("Scan", request);
    if (!page.ok()) return page.error();
    for (json& item : (*page)["Items"]) items.push_back(std::move(item));
    if (!page->contains("LastEvaluatedKey")) break;
    request["ExclusiveStartKey"] = (*page)["LastEvaluatedKey"];
  }
  return items;
}

}  // namespace ddblab::harness::patterns
