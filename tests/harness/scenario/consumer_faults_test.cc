// FaultyFunction (harness/scenario/consumer_faults.h): each consumer fault
// kind applied to a handler, how records are chosen (position, key, event
// name, draws from the seed, times), and the trace events it writes.
#include "harness/scenario/consumer_faults.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ddblab::harness::scenario {
namespace {

using consumer::Invocation;
using ojson = nlohmann::ordered_json;

json Record(const std::string& key, const std::string& seq,
            const std::string& event_name = "INSERT") {
  return {{"eventName", event_name},
          {"dynamodb",
           {{"Keys", {{"pk", {{"S", key}}}}}, {"SequenceNumber", seq}}}};
}

json Event(const std::vector<std::string>& keys) {
  json records = json::array();
  for (const std::string& k : keys) records.push_back(Record(k, "s-" + k));
  return {{"Records", records}};
}

ConsumerFault Fault(const std::string& effect) {
  ConsumerFault f;
  f.id = "f";
  f.effect = effect;
  return f;
}

// A handler that keeps the keys of each event it handled and answers
// `response`.
class Recorder {
 public:
  json response = nullptr;
  std::vector<std::vector<std::string>> calls;

  FaultyFunction::Handler Handler() {
    return [this](const json& event) -> Result<json> {
      std::vector<std::string> keys;
      for (const json& r : event["Records"]) keys.push_back(RecordKey(r));
      calls.push_back(keys);
      return response;
    };
  }
};

using Keys = std::vector<std::vector<std::string>>;

TEST(FaultyFunction, ErrorHandlesTheRecordsBeforeTheChosenOneThenFails) {
  Recorder handler;
  std::vector<ojson> events;
  ConsumerFault f = Fault("error");
  f.keys = {"b"};
  FaultyFunction fn(handler.Handler(), {f}, Rng(1), &events);
  Invocation out = fn.Invoke(Event({"a", "b", "c"}));
  EXPECT_EQ(out.kind, Invocation::Kind::kFunctionError);
  EXPECT_EQ(out.error_type, "Error");
  EXPECT_EQ(out.error_message,
            "ddblab consumer fault: the function failed on record s-b");
  EXPECT_EQ(handler.calls, (Keys{{"a"}}));
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].dump(),
            R"({"fault":"f","effect":"error","key":"b","sequence":"s-b"})");
  EXPECT_EQ(events[1].dump(),
            R"({"delivery":{"keys":["a","b","c"],"first":"s-a","last":"s-c",)"
            R"("result":"error Error: ddblab consumer fault: the function )"
            R"(failed on record s-b"}})");
}

TEST(FaultyFunction, ErrorOnTheFirstRecordHandlesNothing) {
  Recorder handler;
  std::vector<ojson> events;
  ConsumerFault f = Fault("error");
  f.records = {1};
  FaultyFunction fn(handler.Handler(), {f}, Rng(1), &events);
  EXPECT_EQ(fn.Invoke(Event({"a", "b"})).kind,
            Invocation::Kind::kFunctionError);
  EXPECT_TRUE(handler.calls.empty());
}

TEST(FaultyFunction, AHandlerThatStoppedByItselfAnswersBeforeTheError) {
  Recorder handler;
  handler.response = {{"batchItemFailures", {{{"itemIdentifier", "s-a"}}}}};
  std::vector<ojson> events;
  ConsumerFault f = Fault("error");
  f.keys = {"c"};
  FaultyFunction fn(handler.Handler(), {f}, Rng(1), &events);
  Invocation out = fn.Invoke(Event({"a", "b", "c"}));
  EXPECT_EQ(out.kind, Invocation::Kind::kOk);
  EXPECT_EQ(out.response, handler.response);
  EXPECT_EQ(handler.calls, (Keys{{"a", "b"}}));
}

TEST(FaultyFunction, BatchItemFailureReportsTheRecordAfterHandlingAll) {
  Recorder handler;
  handler.response = {{"batchItemFailures", {{{"itemIdentifier", "s-x"}}}}};
  std::vector<ojson> events;
  ConsumerFault f = Fault("batch_item_failure");
  f.keys = {"b"};
  FaultyFunction fn(handler.Handler(), {f}, Rng(1), &events);
  Invocation out = fn.Invoke(Event({"a", "b", "c"}));
  EXPECT_EQ(out.kind, Invocation::Kind::kOk);
  EXPECT_EQ(handler.calls, (Keys{{"a", "b", "c"}}));
  EXPECT_EQ(
      out.response,
      json({{"batchItemFailures",
             {{{"itemIdentifier", "s-x"}}, {{"itemIdentifier", "s-b"}}}}}));
  // A handler answering null (the published aggregator) gets a response.
  handler.response = nullptr;
  out = fn.Invoke(Event({"b"}));
  EXPECT_EQ(out.response,
            json({{"batchItemFailures", {{{"itemIdentifier", "s-b"}}}}}));
  EXPECT_EQ(events.back().dump(),
            R"({"delivery":{"keys":["b"],"first":"s-b","last":"s-b",)"
            R"("result":"batchItemFailures [{\"itemIdentifier\":\"s-b\"}]"}})");
}

TEST(FaultyFunction, TimeoutHandlesTheWholeBatchThenFails) {
  Recorder handler;
  std::vector<ojson> events;
  ConsumerFault f = Fault("timeout");
  f.keys = {"a"};
  FaultyFunction fn(handler.Handler(), {f}, Rng(1), &events);
  Invocation out = fn.Invoke(Event({"a", "b"}));
  EXPECT_EQ(out.kind, Invocation::Kind::kFunctionError);
  EXPECT_EQ(out.error_type, "Sandbox.Timedout");
  EXPECT_EQ(out.error_message, "Task timed out after 3.00 seconds");
  EXPECT_EQ(handler.calls, (Keys{{"a", "b"}}));
}

TEST(FaultyFunction, PositionsCountEveryRecordReceivedRedeliveriesIncluded) {
  Recorder handler;
  std::vector<ojson> events;
  ConsumerFault f = Fault("timeout");
  f.records = {4};
  FaultyFunction fn(handler.Handler(), {f}, Rng(1), &events);
  EXPECT_EQ(fn.Invoke(Event({"a", "b", "c"})).kind, Invocation::Kind::kOk);
  // The same batch again: its first record is the fourth received.
  EXPECT_EQ(fn.Invoke(Event({"a", "b", "c"})).kind,
            Invocation::Kind::kFunctionError);
  EXPECT_EQ(fn.Invoke(Event({"a", "b", "c"})).kind, Invocation::Kind::kOk);
  EXPECT_EQ(events[1].dump(),
            R"({"fault":"f","effect":"timeout","key":"a","sequence":"s-a"})");
}

TEST(FaultyFunction, TimesCapsTheFiringsAndEventNameFilters) {
  Recorder handler;
  std::vector<ojson> events;
  std::vector<ConsumerFiring> firings;
  ConsumerFault f = Fault("error");
  f.event_name = "REMOVE";
  f.times = 1;
  FaultyFunction fn(handler.Handler(), {f}, Rng(1), &events, "mailer",
                    &firings);
  json event = {{"Records", {Record("a", "1"), Record("b", "2", "REMOVE")}}};
  EXPECT_EQ(fn.Invoke(event).kind, Invocation::Kind::kFunctionError);
  EXPECT_EQ(fn.Invoke(event).kind, Invocation::Kind::kOk);
  EXPECT_EQ(handler.calls, (Keys{{"a"}, {"a", "b"}}));
  ASSERT_EQ(firings.size(), 1u);
  EXPECT_EQ(firings[0].fault, "f");
  EXPECT_EQ(firings[0].actor, "mailer");
  EXPECT_EQ(firings[0].key, "b");
}

// Which of 40 single-record invocations fail, for a seed.
std::vector<int> Failures(uint64_t seed) {
  Recorder handler;
  std::vector<ojson> events;
  ConsumerFault f = Fault("error");
  f.probability = 0.3;
  FaultyFunction fn(handler.Handler(), {f}, Rng(seed).Fork("consumer/x"),
                    &events);
  std::vector<int> failed;
  for (int i = 0; i < 40; ++i) {
    if (fn.Invoke(Event({"k" + std::to_string(i)})).kind !=
        Invocation::Kind::kOk) {
      failed.push_back(i);
    }
  }
  return failed;
}

TEST(FaultyFunction, ProbabilityDrawsComeFromTheSeed) {
  const std::vector<int> a = Failures(7);
  EXPECT_EQ(a, Failures(7));
  EXPECT_NE(a, Failures(8));
  EXPECT_GT(a.size(), 3u);
  EXPECT_LT(a.size(), 25u);
}

TEST(FaultyFunction, RecordKeyJoinsTheKeyValues) {
  EXPECT_EQ(RecordKey(Record("a", "1")), "a");
  json composite = {
      {"dynamodb", {{"Keys", {{"pk", {{"S", "u1"}}}, {"sk", {{"N", "7"}}}}}}}};
  EXPECT_EQ(RecordKey(composite), "u1/7");
}

}  // namespace
}  // namespace ddblab::harness::scenario
