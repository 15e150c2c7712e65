// tests/emulator/engine/ttl_test_util.h: a fixture for TTL tests — an
// in-memory Emulator on a ManualClock at 2024-01-01T00:00:00Z, helpers to
// write items with TTL values and to look at the deletion queue, and a
// ChangeSink that records every event.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "emulator/engine/keys.h"
#include "emulator/engine/ttl/ttl_sweeper.h"
#include "tests/emulator/engine/engine_test_util.h"

namespace ddblab::engine::testing {

inline constexpr int64_t kT0 = ManualClock::kDefaultStartEpochSeconds;

// Records every item change it sees (all tables).
class RecordingSink final : public ChangeSink {
 public:
  struct Event {
    std::string table;
    std::string pk;  // the S value of attribute "pk"
    ChangeEvent::Origin origin;
    bool had_old;
    bool has_new;
    int64_t now;
  };
  bool Wants(const Table&) const override { return true; }
  Status OnChange(const ChangeEvent& e, storage::WriteTransaction&) override {
    auto it = e.keys.find("pk");
    events.push_back(
        Event{e.table.name, it == e.keys.end() ? "" : it->second.s(), e.origin,
              e.existed(), e.new_image != nullptr, ToEpochSeconds(e.now)});
    return OkStatus();
  }
  std::vector<Event> events;
};

class TtlEngineTest : public EngineTest {
 protected:
  // A table "ttl" (hash key pk:S) with TTL on attribute "exp".
  void CreateTtlTable(const std::string& name = "ttl", bool enable = true) {
    CreateTable(name);
    if (enable) EnableTtl(name);
  }
  // A table with a GSI "by_g" on g:S (projection ALL).
  void CreateGsiTable(const std::string& name) {
    Ok("CreateTable",
       Json{{"TableName", name},
            {"BillingMode", "PAY_PER_REQUEST"},
            {"AttributeDefinitions",
             {{{"AttributeName", "pk"}, {"AttributeType", "S"}},
              {{"AttributeName", "g"}, {"AttributeType", "S"}}}},
            {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}},
            {"GlobalSecondaryIndexes",
             {{{"IndexName", "by_g"},
               {"KeySchema", {{{"AttributeName", "g"}, {"KeyType", "HASH"}}}},
               {"Projection", {{"ProjectionType", "ALL"}}}}}}});
  }
  void EnableTtl(const std::string& name, const std::string& attr = "exp") {
    Ok("UpdateTimeToLive", {{"TableName", name},
                            {"TimeToLiveSpecification",
                             {{"Enabled", true}, {"AttributeName", attr}}}});
  }
  void DisableTtl(const std::string& name, const std::string& attr = "exp") {
    Ok("UpdateTimeToLive", {{"TableName", name},
                            {"TimeToLiveSpecification",
                             {{"Enabled", false}, {"AttributeName", attr}}}});
  }

  // Puts {pk: S, exp: <exp>} (exp omitted when null) plus `extra`.
  void Put(const std::string& table, const std::string& pk, const Json& exp,
           Json extra = Json::object()) {
    Json item = extra;
    item["pk"] = {{"S", pk}};
    if (!exp.is_null()) item["exp"] = exp;
    Ok("PutItem", {{"TableName", table}, {"Item", item}});
  }
  static Json N(int64_t v) { return {{"N", std::to_string(v)}}; }
  static Json N(const std::string& v) { return {{"N", v}}; }

  bool Has(const std::string& table, const std::string& pk) {
    Json out = Ok("GetItem", {{"TableName", table},
                              {"Key", {{"pk", {{"S", pk}}}}},
                              {"ConsistentRead", true}});
    return out.contains("Item");
  }

  int64_t TableId(const std::string& name) {
    auto lock = impl().Lock();
    return impl().catalog().Find(name)->table->id;
  }
  // The queue row of item pk (hash-only table), if any.
  std::optional<int64_t> QueueDue(const std::string& table,
                                  const std::string& pk) {
    int64_t id = TableId(table);
    auto lock = impl().Lock();
    Result<std::optional<int64_t>> due = impl().ttl().queue().DueOf(
        id, EncodeKeyValue(value::AttributeValue::S(pk)), "");
    EXPECT_TRUE(due.ok());
    return due.ok() ? *due : std::nullopt;
  }
  // Queue rows of a table.
  int64_t Waiting(const std::string& table) {
    Result<std::vector<TtlTableStatus>> status = emu_->TtlStatus();
    EXPECT_TRUE(status.ok());
    for (const TtlTableStatus& s : *status) {
      if (s.table_name == table) return s.waiting;
    }
    return -1;  // not listed (TTL disabled, no rows)
  }
  int64_t Sweep() {
    Result<int64_t> n = emu_->SweepTtl();
    EXPECT_TRUE(n.ok()) << ToString(n.error());
    return n.ok() ? *n : -1;
  }
  void Advance(int64_t seconds) {
    clock_->Advance(std::chrono::seconds(seconds));
  }
  std::shared_ptr<RecordingSink> AddRecorder() {
    auto sink = std::make_shared<RecordingSink>();
    auto lock = impl().Lock();
    impl().AddChangeSink(sink);
    return sink;
  }
};

}  // namespace ddblab::engine::testing
