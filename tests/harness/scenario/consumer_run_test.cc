// `ddblab run` with stream consumers: byte-identical traces of a rollup
// aggregator scenario for a fixed seed, consumer faults in the trace and
// under --replay and --shrink, and the exact message of every bad input the
// consumer actors, faults.consumer and `sum` over writes add.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "tests/harness/scenario/scenario_test_util.h"

namespace ddblab::harness::scenario {
namespace {

using testing::Command;
using testing::Lines;
using testing::ReadFile;
using testing::Shipped;
using testing::TempDirFor;
using testing::WriteFile;

size_t Count(const std::string& trace, const std::string& what) {
  size_t n = 0;
  for (const std::string& line : Lines(trace)) {
    if (line.find(what) != std::string::npos) ++n;
  }
  return n;
}

TEST(ConsumerRun, TheTraceOfAFixedSeedIsByteIdentical) {
  auto dir = TempDirFor("consumer_identical");
  const std::string file = Shipped("rollup_aggregator_redelivery_naive.json");
  const std::string a = (dir / "a.jsonl").string();
  const std::string b = (dir / "b.jsonl").string();
  ASSERT_EQ(Command({file, "--seed", "1", "--trace", a}).code, 0);
  ASSERT_EQ(Command({file, "--seed", "1", "--trace", b}).code, 0);
  const std::string first = ReadFile(a);
  EXPECT_EQ(first, ReadFile(b));
  EXPECT_TRUE(first.starts_with(
      "{\"event\":\"start\",\"scenario\":\"rollup-aggregator-redelivery-"
      "naive\",\"seed\":1,\"strategy\":\"random\",\"backend\":\"emulator\","
      "\"t\":\"2024-01-01T00:"
      "00:00.000Z\",\"consumer_faults\":[{\"id\":\"throws\",\"actor\":"
      "\"rollup\",\"effect\":\"error\",\"probability\":0.1,\"times\":3}]}\n"))
      << first;
  EXPECT_GT(Count(first, "\"delivery\":"), 3u);
  EXPECT_GT(Count(first, "\"call\":\"GetRecords\""), 3u);
  const std::set<std::string> traces =
      testing::TracesOfSeeds(file, dir, {"1", "2", "3", "4"});
  EXPECT_EQ(traces.size(), 4u);
}

TEST(ConsumerRun, ReplayFollowsTheFaultsOfTheSeedAndSeesThemChange) {
  auto dir = TempDirFor("consumer_replay");
  const std::string shipped =
      ReadFile(Shipped("rollup_aggregator_redelivery_naive.json"));
  const std::string file = WriteFile(dir / "s.json", shipped);
  const std::string trace = (dir / "t.jsonl").string();
  ASSERT_EQ(Command({file, "--seed", "1", "--trace", trace}).code, 0);
  ASSERT_GT(Count(ReadFile(trace), "\"fault\":\"throws\""), 0u);
  testing::Ran same = Command({file, "--replay", trace});
  EXPECT_EQ(same.code, 0) << same.out << same.err;
  EXPECT_NE(same.out.find("every response identical"), std::string::npos);
  // Without the fault, the first step it fired in differs.
  std::string edited = shipped;
  const std::string effect = "\"effect\": \"error\"";
  edited.replace(edited.find(effect), effect.size(), "\"effect\": \"timeout\"");
  WriteFile(dir / "s.json", edited);
  testing::Ran changed = Command({file, "--replay", trace});
  EXPECT_EQ(changed.code, 1);
  // A poll takes one step per Streams call or invocation.
  EXPECT_NE(changed.out.find(": step 18 differs\n  recorded: "
                             "{\"step\":18,\"fault\":\"throws\",\"effect\":"
                             "\"error\""),
            std::string::npos)
      << changed.out;
}

TEST(ConsumerRun, ShrinkPinsConsumerFaultsToKeysAndKeepsTheOvercount) {
  auto dir = TempDirFor("consumer_shrink");
  const std::string file = Shipped("rollup_aggregator_redelivery_naive.json");
  const std::string out = (dir / "small.json").string();
  testing::Ran ran =
      Command({file, "--seed", "1", "--shrink", "--shrink-out", out});
  ASSERT_EQ(ran.code, 0) << ran.out << ran.err;
  EXPECT_NE(ran.out.find("overcounted by"), std::string::npos) << ran.out;
  const nlohmann::json small = nlohmann::json::parse(ReadFile(out));
  ASSERT_EQ(small["faults"]["consumer"].size(), 1u) << small.dump(2);
  const nlohmann::json& fault = small["faults"]["consumer"][0];
  EXPECT_EQ(fault["id"], "throws");
  // Seed 1 threw at c2-t2 twice; one client's two transfers and three
  // polls (rounds of 4 steps and more: a poll takes a step per Streams call
  // or invocation) are enough to count c2-t1 three times; the last two
  // steps are the drain round every consumer takes once all are done.
  EXPECT_EQ(fault, nlohmann::json::parse(R"({"id": "throws", "actor":
      "rollup", "effect": "error", "key": "c2-t2", "times": 2})"));
  EXPECT_EQ(small["schedule"],
            nlohmann::json::parse(
                R"(["client#2", "client#2", "rollup", "rollup", "rollup",
                    "rollup", "rollup", "rollup", "rollup", "rollup",
                    "rollup", "rollup", "rollup", "rollup", "rollup",
                    "rollup"])"));
  EXPECT_NE(ran.out.find("from 63 steps, 2 faults, 4 actors to 16 steps, 2 "
                         "faults, 2 actors"),
            std::string::npos)
      << ran.out;
  // The shrunk file fails the same way on every run.
  testing::Ran again = Command({out, "--explore", "3"});
  EXPECT_EQ(again.code, 0) << again.out << again.err;
  EXPECT_NE(again.out.find("3 broke an invariant"), std::string::npos)
      << again.out;
}

// The consumer's one poll runs before the writer's transfers: once both
// are done it polls on until a round invokes nothing, so the correct
// function is judged caught up, not "undercounted".
TEST(ConsumerRun, AConsumerPollsOnUntilItCaughtUp) {
  auto dir = TempDirFor("consumer_drain");
  const std::string file = WriteFile(dir / "s.json", R"({
    "name": "drain", "backend": {"tick": "1s"},
    "actors": [
      {"name": "client", "pattern": "rollup_aggregator", "start": "10s",
       "repeat": 3,
       "ops": [{"transfer": {"id": "t{i}", "customer": "c", "bytes": 5}}]},
      {"name": "rollup", "pattern": "rollup_aggregator",
       "variant": "correct", "ops": [{"poll": {}}]}],
    "invariants": [{"check": "rollup_aggregator"}], "expect": "holds"})");
  const std::string trace = (dir / "t.jsonl").string();
  testing::Ran ran = Command({file, "--trace", trace});
  EXPECT_EQ(ran.code, 0) << ran.out << ran.err;
  EXPECT_NE(ran.out.find("every invariant held"), std::string::npos) << ran.out;
  const std::string text = ReadFile(trace);
  // Round 1 delivers the three transfers; round 2 invokes nothing.
  EXPECT_EQ(Count(text, "\"event\":\"drain\""), 2u) << text;
  EXPECT_NE(text.find("{\"event\":\"drain\",\"actor\":\"rollup\","
                      "\"round\":2}"),
            std::string::npos)
      << text;
}

// A batch that fails on every retry never lets the consumer catch up: the
// run says so rather than judging the sums.
TEST(ConsumerRun, AConsumerThatNeverCatchesUpFailsTheRun) {
  auto dir = TempDirFor("consumer_stuck");
  const std::string file = WriteFile(dir / "s.json", R"({
    "name": "stuck", "backend": {"tick": "1s"},
    "actors": [
      {"name": "client", "pattern": "rollup_aggregator",
       "ops": [{"transfer": {"id": "t1", "customer": "c", "bytes": 5}}]},
      {"name": "rollup", "pattern": "rollup_aggregator",
       "variant": "correct", "ops": [{"poll": {}}]}],
    "faults": {"consumer": [{"id": "poison", "actor": "rollup",
                             "effect": "error", "key": "t1"}]},
    "invariants": [{"check": "rollup_aggregator"}], "expect": "holds"})");
  testing::Ran ran = Command({file});
  EXPECT_EQ(ran.code, 1) << ran.out << ran.err;
  EXPECT_NE((ran.out + ran.err)
                .find("actor rollup: its event source mapping had not caught "
                      "up after 100 polling rounds past its last op (each "
                      "round still invoked the function or failed)"),
            std::string::npos)
      << ran.out << ran.err;
}

TEST(ConsumerRun, ShrinkDropsAConsumerFaultTheFailureDoesNotNeed) {
  auto dir = TempDirFor("consumer_shrink_drop");
  // A second fault that fires but changes nothing: the published mapping
  // has no ReportBatchItemFailures, so Lambda ignores the report.
  std::string text =
      ReadFile(Shipped("rollup_aggregator_redelivery_naive.json"));
  const std::string throws = R"("times": 3})";
  ASSERT_NE(text.find(throws), std::string::npos);
  text.replace(text.find(throws), throws.size(),
               throws + R"(, {"id": "ignored", "actor": "rollup",
                  "effect": "batch_item_failure", "key": ["c1-t1", "c2-t1",
                  "c3-t1"]})");
  const std::string file = WriteFile(dir / "s.json", text);
  const std::string trace = (dir / "t.jsonl").string();
  ASSERT_EQ(Command({file, "--seed", "1", "--trace", trace}).code, 0);
  EXPECT_GT(Count(ReadFile(trace), "\"fault\":\"ignored\""), 0u);
  const std::string out = (dir / "small.json").string();
  testing::Ran ran =
      Command({file, "--seed", "1", "--shrink", "--shrink-out", out});
  ASSERT_EQ(ran.code, 0) << ran.out << ran.err;
  const nlohmann::json small = nlohmann::json::parse(ReadFile(out));
  ASSERT_EQ(small["faults"]["consumer"].size(), 1u) << small.dump(2);
  EXPECT_EQ(small["faults"]["consumer"][0]["id"], "throws");
}

struct BadInput {
  const char* name;
  std::string text;
  std::string message;  // after "<file>: "
  int code = 2;
};

const char* kGood = R"({
  "name": "t",
  "actors": [
    {"name": "w", "pattern": "rollup_aggregator",
     "ops": [{"transfer": {"id": "t1", "customer": "c1", "bytes": 5}}]},
    {"name": "r", "pattern": "rollup_aggregator", "variant": "published",
     "params": {"mapping": {"BatchSize": 10}}, "ops": [{"poll": {}}]}],
  "faults": {"consumer": [{"id": "a", "actor": "r", "effect": "error"}]},
  "invariants": [{"check": "sum", "table": "ddblab_daily_rollup",
                  "attribute": "TotalBytes",
                  "over_writes": {"table": "ddblab_transfers",
                                  "attribute": "Bytes"}}],
  "expect": "holds"
})";

// kGood with `from` replaced by `to`.
std::string Edit(const std::string& from, const std::string& to) {
  std::string text = kGood;
  size_t at = text.find(from);
  if (at == std::string::npos) return "(edit did not apply: " + from + ")";
  return text.replace(at, from.size(), to);
}

const std::string kFault = R"({"id": "a", "actor": "r", "effect": "error"})";

std::string Fault(const std::string& fields) {
  return Edit(kFault, "{" + fields + "}");
}

class ConsumerBadInputTest : public ::testing::TestWithParam<BadInput> {};

TEST_P(ConsumerBadInputTest, NamesThePathAndWhatWasExpected) {
  auto dir = TempDirFor(std::string("consumer_bad_") + GetParam().name);
  const std::string file = WriteFile(dir / "s.json", GetParam().text);
  testing::Ran ran = Command({file});
  EXPECT_EQ(ran.code, GetParam().code);
  EXPECT_EQ(ran.out, "");
  EXPECT_EQ(ran.err, file + ": " + GetParam().message + "\n");
}

INSTANTIATE_TEST_SUITE_P(
    Messages, ConsumerBadInputTest,
    ::testing::Values(
        BadInput{"faults_empty",
                 Edit(R"("faults": {"consumer": [)", R"("faults": {"x": [)"),
                 "faults: expected a fault plan {\"rules\": [...]} and/or "
                 "consumer faults {\"consumer\": [...]}, got {\"x\":[{\"actor\""
                 ":\"r\",\"effect\":\"error\",\"id\":\"a\"}]}"},
        BadInput{"consumer_not_list",
                 Edit(R"("consumer": [)" + kFault + "]", R"("consumer": 3)"),
                 "faults.consumer: expected a non-empty list of consumer "
                 "faults, got 3"},
        BadInput{"effect", Fault(R"("effect": "crash")"),
                 "faults.consumer[0].effect: expected \"error\", "
                 "\"batch_item_failure\" or \"timeout\", got \"crash\""},
        BadInput{"no_effect", Fault(R"("id": "a")"),
                 "faults.consumer[0].effect: required"},
        BadInput{"records_number", Fault(R"("effect": "error", "records": 3)"),
                 "faults.consumer[0].records: expected a non-empty list of "
                 "record positions (1, 2, ...), got 3"},
        BadInput{"records_zero",
                 Fault(R"("effect": "error", "records": [2, 0])"),
                 "faults.consumer[0].records[1]: expected an integer from 1 "
                 "to 1099511627776, got 0"},
        BadInput{"key_number", Fault(R"("effect": "error", "key": 7)"),
                 "faults.consumer[0].key: expected a key value or a "
                 "non-empty list of them, got 7"},
        BadInput{"key_list_number",
                 Fault(R"("effect": "error", "key": ["a", 7])"),
                 "faults.consumer[0].key[1]: expected a string, got 7"},
        BadInput{"event_name",
                 Fault(R"("effect": "error", "event_name": "DELETE")"),
                 "faults.consumer[0].event_name: expected \"INSERT\", "
                 "\"MODIFY\" or \"REMOVE\", got \"DELETE\""},
        BadInput{"probability", Fault(R"("effect": "error", "probability": 2)"),
                 "faults.consumer[0].probability: expected a probability in "
                 "(0, 1], got 2"},
        BadInput{"times", Fault(R"("effect": "error", "times": 0)"),
                 "faults.consumer[0].times: expected an integer from 1 to "
                 "1000000, got 0"},
        BadInput{"unknown_field", Fault(R"("effect": "error", "when": 1)"),
                 "faults.consumer[0].when: unknown field (expected actor, "
                 "effect, event_name, id, key, probability, records, times)"},
        BadInput{"actor", Fault(R"("effect": "error", "actor": "w")"),
                 "faults.consumer[0].actor: no consumer (an actor with poll "
                 "ops) is named w"},
        BadInput{"same_id", Edit(kFault, kFault + ", " + kFault),
                 "faults.consumer[1].id: another consumer fault has the id "
                 "a"},
        BadInput{"mapping_not_object", Edit(R"({"BatchSize": 10})", "5"),
                 "actors[1].params.mapping: expected an object of "
                 "CreateEventSourceMapping fields, got 5"},
        BadInput{"mapping_table",
                 Edit(R"({"BatchSize": 10})", R"({"TableName": "x"})"),
                 "actors[1].params.mapping.TableName: set by the actor (the "
                 "pattern's table)"},
        BadInput{"mapping_batch_size",
                 Edit(R"({"BatchSize": 10})", R"({"BatchSize": 0})"),
                 "actors[1].params.mapping: ValidationException: 1 "
                 "validation error detected: Value '0' at 'batchSize' failed "
                 "to satisfy constraint: Member must have value greater than "
                 "or equal to 1"},
        BadInput{"variant",
                 Edit(R"("variant": "published")", R"("variant": "fast")"),
                 "actors[1].variant: unknown rollup aggregator variant "
                 "\"fast\" (correct, published)"},
        BadInput{"rollup_op", Edit(R"({"poll": {}})", R"({"cart": {}})"),
                 "actors[1].ops[0].cart: unknown operation (expected "
                 "transfer, poll)"},
        BadInput{"bytes", Edit(R"("bytes": 5)", R"("bytes": -1)"),
                 "actors[0].ops[0].transfer.bytes: expected an integer from "
                 "0 to 1099511627776, got -1"},
        BadInput{"rollup_param",
                 Edit(R"("params": {)", R"("params": {"table": "x", )"),
                 "actors[1].params.table: unknown field (expected "
                 "backoff, dedupe_retention, dedupe_table, mapping, "
                 "max_attempts, rollup_table, source_table)"},
        BadInput{"same_tables",
                 Edit(R"("params": {)",
                      R"("params": {"rollup_table": "ddblab_transfers", )"),
                 "actors[1].params: rollup aggregator: source_table, "
                 "rollup_table and dedupe_table must be three different "
                 "tables"},
        BadInput{"cart_products",
                 R"({"name": "t", "actors": [{"name": "s",
                   "pattern": "ttl_expiry_listener",
                   "ops": [{"cart": {"id": "c", "products": "p1",
                                     "expires_in": "1m"}}]}],
                   "invariants": [{"check": "ttl_expiry_listener"}],
                   "expect": "holds"})",
                 "actors[0].ops[0].cart.products: expected a list of product "
                 "ids (empty: none), got \"p1\""},
        BadInput{"cart_expires_in",
                 R"({"name": "t", "actors": [{"name": "s",
                   "pattern": "ttl_expiry_listener",
                   "ops": [{"cart": {"id": "c", "products": [],
                                     "expires_in": true}}]}],
                   "invariants": [{"check": "ttl_expiry_listener"}],
                   "expect": "holds"})",
                 "actors[0].ops[0].cart.expires_in: expected a duration such "
                 "as \"90s\" or \"1.5m\", or a number of seconds, got true"},
        BadInput{"listener_op",
                 R"({"name": "t", "actors": [{"name": "s",
                   "pattern": "ttl_expiry_listener",
                   "ops": [{"transfer": {}}]}],
                   "invariants": [{"check": "ttl_expiry_listener"}],
                   "expect": "holds"})",
                 "actors[0].ops[0].transfer: unknown operation (expected "
                 "cart, order, poll)"},
        BadInput{"listener_attribute",
                 R"({"name": "t", "actors": [{"name": "s",
                   "pattern": "ttl_expiry_listener",
                   "params": {"required_attribute": "ttl"},
                   "ops": [{"poll": {}}]}],
                   "invariants": [{"check": "ttl_expiry_listener"}],
                   "expect": "holds"})",
                 "actors[0].params: TTL expiry listener: required_attribute "
                 "must be a non-key attribute other than ttl (default "
                 "productids), got \"ttl\""},
        BadInput{"listener_attributes_differ",
                 R"({"name": "t", "actors": [
                   {"name": "s", "pattern": "ttl_expiry_listener",
                    "ops": [{"order": {"id": "c"}}]},
                   {"name": "m", "pattern": "ttl_expiry_listener",
                    "params": {"required_attribute": "items"},
                    "ops": [{"poll": {}}]}],
                   "invariants": [{"check": "ttl_expiry_listener"}],
                   "expect": "holds"})",
                 "actors[1].params.required_attribute: another actor of "
                 "table ddblab_carts requires productids"},
        BadInput{"sum_both",
                 Edit(R"("attribute": "TotalBytes",)",
                      R"("attribute": "TotalBytes", "equals": 3,)"),
                 "invariants[0]: a sum needs exactly one of equals, "
                 "over_writes"},
        BadInput{"over_writes_table",
                 Edit(R"("table": "ddblab_transfers",)", ""),
                 "invariants[0].over_writes.table: required"},
        BadInput{"over_writes_field",
                 Edit(R"("attribute": "Bytes")",
                      R"("attribute": "Bytes", "where": 1)"),
                 "invariants[0].over_writes.where: unknown field (expected "
                 "attribute, table)"}),
    [](const ::testing::TestParamInfo<BadInput>& param) {
      return std::string(param.param.name);
    });

}  // namespace
}  // namespace ddblab::harness::scenario
