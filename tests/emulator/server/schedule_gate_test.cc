// tests/emulator/server/schedule_gate_test.cc: the scheduling gate
// (emulator/server/schedule_gate.h) over a FakeHandler, actors on threads:
// off it passes through; the Chooser's order and one request at a time;
// the same chooser gives the same trace; other keys run at once; done,
// after_done, idle (a ManualClock as the idle clock: advanced, never slept
// on), Stop releasing, the tick, lost_response, and refused configs.
#include "emulator/server/schedule_gate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "emulator/api/clock.h"
#include "tests/emulator/server/fake_handler.h"

namespace ddblab::server {
namespace {

using Json = nlohmann::json;

constexpr TimePoint kStart = TimePoint(std::chrono::seconds(1704067200));

// Always the lowest / the highest ready actor.
size_t Lowest(const std::vector<size_t>& ready, int) { return ready.front(); }
size_t Highest(const std::vector<size_t>& ready, int) { return ready.back(); }

// A seeded pick (splitmix64 of seed and step).

std::function<size_t(const std::vector<size_t>&, int)> Seeded(uint64_t seed) {
  return [seed](const std::vector<size_t>& ready, int step) {
    uint64_t z = seed + 0x9e3779b97f4a7c15ULL * static_cast<uint64_t>(step);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return ready[z % ready.size()];
  };
}

ScheduleConfig Config(
    std::vector<std::string> actors,
    std::function<size_t(const std::vector<size_t>&, int)> choose = Lowest) {
  ScheduleConfig config;
  config.actors = std::move(actors);
  config.seed = 7;
  config.choose = std::move(choose);
  return config;
}

Json Body(const std::string& who, int i) {
  return Json{{"TableName", "t"}, {"Item", {{"who", who}, {"i", i}}}};
}

class ScheduleGateTest : public ::testing::Test {
 protected:
  ScheduleGateTest() : clock_(kStart), idle_(kStart) {}

  // The operation names of the calls the inner handler ran, "a0" style:
  // who and which of its calls.
  std::vector<std::string> Ran() {
    std::vector<std::string> out;
    for (const auto& call : fake_.calls()) {
      out.push_back(call.caller.access_key +
                    std::to_string(call.request["Item"]["i"].get<int>()));
    }
    return out;
  }

  // `name` makes `n` PutItem calls, then ends (Done); on a thread.
  std::thread Actor(const std::string& name, int n, bool done = true) {
    return std::thread([this, name, n, done] {
      for (int i = 0; i < n; ++i) {
        DeferredAnswer answer =
            gate_.CallAs({name, "us-east-1"}, "PutItem", Body(name, i));
        EXPECT_TRUE(answer.result.ok()) << name << i;
      }
      if (done) {
        EXPECT_TRUE(gate_.Done(name).ok());
      }
    });
  }

  std::vector<std::string> StepActors() {
    std::vector<std::string> out;
    std::istringstream lines(gate_.Trace());
    for (std::string line; std::getline(lines, line);) {
      Json j = Json::parse(line);
      if (j.contains("step") && j.contains("call")) {
        out.push_back(j["actor"].get<std::string>());
      }
    }
    return out;
  }

  FakeHandler fake_;
  ManualClock clock_;
  ManualClock idle_;
  ScheduleGate gate_{fake_, clock_, &clock_, idle_};
};

TEST_F(ScheduleGateTest, OffPassesEveryCallThrough) {
  EXPECT_EQ(gate_.State(), Json({{"state", "off"}}));
  DeferredAnswer answer = gate_.CallAs({"a", "r"}, "PutItem", Body("a", 0));
  ASSERT_TRUE(answer.result.ok());
  EXPECT_EQ(Ran(), std::vector<std::string>{"a0"});
  EXPECT_EQ(gate_.Trace(), "");
}

TEST_F(ScheduleGateTest, TheChooserOrdersTheStepsOneAtATime) {
  std::atomic<int> in_flight{0};
  std::atomic<int> most{0};
  fake_.answer = [&](std::string_view, const Json&) -> Result<Json> {
    int now = ++in_flight;
    most = std::max(most.load(), now);
    --in_flight;
    return Json::object();
  };
  ASSERT_TRUE(gate_.Start(Config({"a", "b"}, Highest)).ok());
  std::thread a = Actor("a", 3);
  gate_.AwaitHeld("a");
  EXPECT_TRUE(fake_.calls().empty());  // b has not sent: a waits
  std::thread b = Actor("b", 3);
  a.join();
  b.join();
  // Highest first: b to its end, then a.
  EXPECT_EQ(Ran(),
            (std::vector<std::string>{"b0", "b1", "b2", "a0", "a1", "a2"}));
  EXPECT_EQ(most.load(), 1);
  Json state = gate_.State();
  EXPECT_EQ(state["state"], "active");
  EXPECT_EQ(state["step"], 6);
  EXPECT_EQ(state["actors"],
            Json::parse(R"([{"name":"a","state":"done","steps":3},
                            {"name":"b","state":"done","steps":3}])"));
}

TEST_F(ScheduleGateTest, TheSameChooserGivesTheSameTrace) {
  auto run = [this](uint64_t seed) {
    gate_.Stop();
    EXPECT_TRUE(gate_.Start(Config({"a", "b"}, Seeded(seed))).ok());
    std::thread a = Actor("a", 3);
    std::thread b = Actor("b", 3);
    a.join();
    b.join();
    return std::make_pair(gate_.Trace(), StepActors());
  };
  auto [trace1, order1] = run(7);
  auto [trace2, order2] = run(7);
  EXPECT_EQ(trace1, trace2);
  EXPECT_EQ(order1, order2);
  EXPECT_EQ(order1.size(), 6u);
  // The first step line, byte for byte.
  std::istringstream lines(trace1);
  std::string start, step1;
  std::getline(lines, start);
  std::getline(lines, step1);
  EXPECT_EQ(start,
            "{\"event\":\"start\",\"seed\":7,\"strategy\":\"random\","
            "\"tick\":\"0s\",\"idle\":\"10s\",\"actors\":[\"a\",\"b\"],"
            "\"clock\":1704067200000}");
  const std::string who = order1[0];
  EXPECT_EQ(step1, "{\"step\":1,\"actor\":\"" + who +
                       "\",\"call\":\"PutItem\",\"request\":{\"Item\":{\"i\":"
                       "0,\"who\":\"" +
                       who +
                       "\"},\"TableName\":\"t\"},\"response\":{\"Operation\":"
                       "\"PutItem\",\"Request\":{\"Item\":{\"i\":0,\"who\":\"" +
                       who +
                       "\"},\"TableName\":\"t\"}},\"clock\":1704067200000}");
}

TEST_F(ScheduleGateTest, OtherKeysRunAtOnceWhileActorsAreHeld) {
  ASSERT_TRUE(gate_.Start(Config({"a", "b"})).ok());
  std::thread a = Actor("a", 1);
  gate_.AwaitHeld("a");
  DeferredAnswer other =
      gate_.CallAs({"setup", "us-east-1"}, "PutItem", Body("setup", 0));
  EXPECT_TRUE(other.result.ok());
  EXPECT_EQ(Ran(), std::vector<std::string>{"setup0"});  // a still held
  EXPECT_EQ(gate_.State()["actors"][0]["state"], "held");
  ASSERT_TRUE(gate_.Done("b").ok());  // a alone now: it runs
  a.join();
  EXPECT_EQ(Ran(), (std::vector<std::string>{"setup0", "a0"}));
}

TEST_F(ScheduleGateTest, AfterDoneAnActorRunsUnscheduledAndIsTracedSo) {
  ASSERT_TRUE(gate_.Start(Config({"a", "b", "c"})).ok());
  ASSERT_TRUE(gate_.Done("a").ok());
  EXPECT_TRUE(gate_.Done("a").ok());  // again: nothing more
  std::thread b = Actor("b", 1, /*done=*/false);
  gate_.AwaitHeld("b");  // c keeps it waiting
  DeferredAnswer late = gate_.CallAs({"a", "r"}, "PutItem", Body("a", 5));
  EXPECT_TRUE(late.result.ok());
  EXPECT_EQ(Ran(), (std::vector<std::string>{"a5"}));
  ASSERT_TRUE(gate_.Done("c").ok());  // b alone: it runs
  b.join();
  EXPECT_EQ(Ran(), (std::vector<std::string>{"a5", "b0"}));
  std::string trace = gate_.Trace();
  EXPECT_NE(trace.find("{\"event\":\"done\",\"actor\":\"a\",\"steps\":0,"
                       "\"clock\":1704067200000}\n"),
            std::string::npos)
      << trace;
  EXPECT_NE(trace.find(",\"clock\":1704067200000,\"after_done\":true}\n"),
            std::string::npos)
      << trace;
  Status unknown = gate_.Done("zz");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().message,
            "unknown actor \"zz\": the schedule's actors are a, b, c");
}

TEST_F(ScheduleGateTest, AnIdleActorStopsTheScheduleNamingIt) {
  ASSERT_TRUE(gate_.Start(Config({"a", "b"})).ok());
  DeferredAnswer held{Json(), std::nullopt};
  std::thread a([&] {
    held = gate_.CallAs({"a", "r"}, "PutItem", Body("a", 0));
  });
  gate_.AwaitHeld("a");
  idle_.Advance(std::chrono::seconds(10));
  a.join();  // answered by the stop
  const std::string problem =
      "actor b made no request for 10s and did not end: does it wait on "
      "something outside DynamoDB?";
  ASSERT_FALSE(held.result.ok());
  EXPECT_EQ(held.result.error().type, ErrorType::kInternalServerError);
  EXPECT_EQ(held.result.error().message, problem);
  EXPECT_TRUE(fake_.calls().empty());
  // Later requests of any actor: the same 500, until Stop.
  DeferredAnswer later = gate_.CallAs({"b", "r"}, "PutItem", Body("b", 0));
  ASSERT_FALSE(later.result.ok());
  EXPECT_EQ(later.result.error().message, problem);
  Json state = gate_.State();
  EXPECT_EQ(state["state"], "stopped");
  EXPECT_EQ(state["problem"], problem);
  EXPECT_NE(gate_.Trace().find("{\"event\":\"stopped\",\"problem\":\"" +
                               problem + "\",\"step\":0}\n"),
            std::string::npos);
  Status again = gate_.Start(Config({"a"}));
  EXPECT_EQ(again.error().type, ErrorType::kResourceInUse);
  gate_.Stop();
  EXPECT_EQ(gate_.State()["state"], "off");
  EXPECT_TRUE(gate_.CallAs({"b", "r"}, "PutItem", Body("b", 1)).result.ok());
}

TEST_F(ScheduleGateTest, StopReleasesHeldRequests) {
  ASSERT_TRUE(gate_.Start(Config({"a", "b", "c"})).ok());
  std::thread b = Actor("b", 1, /*done=*/false);
  gate_.AwaitHeld("b");
  std::thread a = Actor("a", 1, /*done=*/false);
  gate_.AwaitHeld("a");
  EXPECT_TRUE(fake_.calls().empty());
  gate_.Stop();
  a.join();
  b.join();
  // Both ran (released in arrival order, then concurrently).
  std::vector<std::string> ran = Ran();
  std::sort(ran.begin(), ran.end());
  EXPECT_EQ(ran, (std::vector<std::string>{"a0", "b0"}));
  EXPECT_EQ(gate_.State()["state"], "off");
  EXPECT_NE(gate_.Trace().find("{\"event\":\"end\",\"steps\":0}\n"),
            std::string::npos);
}

TEST_F(ScheduleGateTest, StopWaitingReleasesAndRefusesLaterStarts) {
  ASSERT_TRUE(gate_.Start(Config({"a", "b"})).ok());
  std::thread a = Actor("a", 1, /*done=*/false);
  gate_.AwaitHeld("a");
  gate_.StopWaiting();
  a.join();
  EXPECT_EQ(Ran(), std::vector<std::string>{"a0"});
  Status late = gate_.Start(Config({"a"}));
  ASSERT_FALSE(late.ok());
  EXPECT_EQ(late.error().message, "the server is shutting down");
}

TEST_F(ScheduleGateTest, TheTickMovesTheManualClockOncePerStep) {
  ScheduleConfig config = Config({"a", "b"});
  config.tick = std::chrono::seconds(1);
  ASSERT_TRUE(gate_.Start(config).ok());
  std::thread a = Actor("a", 2);
  std::thread b = Actor("b", 2);
  a.join();
  b.join();
  EXPECT_EQ(clock_.Now(), kStart + std::chrono::seconds(4));
  std::vector<int64_t> clocks;
  std::istringstream lines(gate_.Trace());
  for (std::string line; std::getline(lines, line);) {
    Json j = Json::parse(line);
    if (j.contains("step")) clocks.push_back(j["clock"].get<int64_t>());
  }
  EXPECT_EQ(clocks, (std::vector<int64_t>{1704067200000, 1704067201000,
                                          1704067202000, 1704067203000}));
}

TEST_F(ScheduleGateTest, ALostResponseIsTheActorsStep) {
  int calls = 0;
  fake_.answer = [&](std::string_view, const Json&) -> Result<Json> {
    if (++calls == 1) {
      return Error::Of(ErrorType::kOutcomeUnknown, "lost");
    }
    return Json::object();
  };
  ASSERT_TRUE(gate_.Start(Config({"a"})).ok());
  DeferredAnswer lost = gate_.CallAs({"a", "r"}, "PutItem", Body("a", 0));
  EXPECT_EQ(lost.result.error().type, ErrorType::kOutcomeUnknown);
  DeferredAnswer retry = gate_.CallAs({"a", "r"}, "PutItem", Body("a", 0));
  EXPECT_TRUE(retry.result.ok());
  std::string trace = gate_.Trace();
  EXPECT_NE(trace.find("{\"step\":1,\"actor\":\"a\",\"call\":\"PutItem\","),
            std::string::npos);
  EXPECT_NE(trace.find(",\"fault\":\"lost_response\",\"clock\":"),
            std::string::npos)
      << trace;
  EXPECT_EQ(gate_.State()["actors"][0]["steps"], 2);
}

TEST_F(ScheduleGateTest, AnErrorAnswerIsTracedWithItsTypeAndMessage) {
  fake_.answer = [](std::string_view, const Json&) -> Result<Json> {
    return Error::ConditionalCheckFailed("The conditional request failed");
  };
  ASSERT_TRUE(gate_.Start(Config({"a"})).ok());
  gate_.CallStreamsAs({"a", "r"}, "GetRecords", Json{{"ShardIterator", "x"}});
  EXPECT_NE(gate_.Trace().find(
                "\"call\":\"GetRecords\",\"service\":\"streams\",\"request\":"
                "{\"ShardIterator\":\"x\"},\"error\":\""
                "ConditionalCheckFailedException: The conditional request "
                "failed\""),
            std::string::npos)
      << gate_.Trace();
}

ScheduleConfig Replay(std::vector<std::string> actors,
                      std::vector<std::string> steps) {
  ScheduleConfig config;
  config.actors = std::move(actors);
  config.replay = std::move(steps);
  return config;
}

TEST_F(ScheduleGateTest, AReplayFollowsTheRecordedActors) {
  ASSERT_TRUE(
      gate_.Start(Replay({"a", "b"}, {"b", "a", "a", "b", "b", "a"})).ok());
  EXPECT_EQ(gate_.State()["strategy"], "replay");
  std::thread a = Actor("a", 3);
  std::thread b = Actor("b", 3);
  a.join();
  b.join();
  EXPECT_EQ(Ran(),
            (std::vector<std::string>{"b0", "a0", "a1", "b1", "b2", "a2"}));
  EXPECT_EQ(StepActors(),
            (std::vector<std::string>{"b", "a", "a", "b", "b", "a"}));
  EXPECT_EQ(gate_.State()["state"], "active");
}

TEST_F(ScheduleGateTest, AReplayWaitsForTheRecordedActor) {
  ASSERT_TRUE(gate_.Start(Replay({"a", "b"}, {"b", "a"})).ok());
  std::thread a = Actor("a", 1);
  gate_.AwaitHeld("a");
  EXPECT_TRUE(fake_.calls().empty());  // step 1 is b's
  std::thread b = Actor("b", 1);
  a.join();
  b.join();
  EXPECT_EQ(Ran(), (std::vector<std::string>{"b0", "a0"}));
}

TEST_F(ScheduleGateTest, AReplayWhoseActorHasEndedStops) {
  ASSERT_TRUE(gate_.Start(Replay({"a", "b"}, {"a", "b", "a"})).ok());
  std::thread a = Actor("a", 1);  // one request, then done: step 3 is lost
  DeferredAnswer second{Json(), std::nullopt};
  std::thread b([&] {
    EXPECT_TRUE(gate_.CallAs({"b", "r"}, "PutItem", Body("b", 0)).result.ok());
    second = gate_.CallAs({"b", "r"}, "PutItem", Body("b", 1));
  });
  a.join();
  b.join();
  const std::string problem = "replay: step 3 was actor a's, but a has ended";
  ASSERT_FALSE(second.result.ok());
  EXPECT_EQ(second.result.error().message, problem);
  EXPECT_EQ(Ran(), (std::vector<std::string>{"a0", "b0"}));
  Json state = gate_.State();
  EXPECT_EQ(state["state"], "stopped");
  EXPECT_EQ(state["problem"], problem);
  EXPECT_NE(gate_.Trace().find("{\"event\":\"stopped\",\"problem\":\"" +
                               problem + "\",\"step\":2}\n"),
            std::string::npos)
      << gate_.Trace();
  // Later requests of an actor: a 500 with the problem.
  DeferredAnswer later = gate_.CallAs({"b", "r"}, "PutItem", Body("b", 9));
  ASSERT_FALSE(later.result.ok());
  EXPECT_EQ(later.result.error().type, ErrorType::kInternalServerError);
  EXPECT_EQ(later.result.error().message, problem);
}

TEST_F(ScheduleGateTest, AReplayWithNoStepLeftStops) {
  ASSERT_TRUE(gate_.Start(Replay({"a", "b"}, {"a", "b"})).ok());
  DeferredAnswer third{Json(), std::nullopt};
  std::thread a([&] {
    EXPECT_TRUE(gate_.CallAs({"a", "r"}, "PutItem", Body("a", 0)).result.ok());
    third = gate_.CallAs({"a", "r"}, "PutItem", Body("a", 1));
  });
  std::thread b([&] {
    EXPECT_TRUE(gate_.CallAs({"b", "r"}, "PutItem", Body("b", 0)).result.ok());
    EXPECT_TRUE(gate_.Done("b").ok());
  });
  a.join();
  b.join();
  const std::string problem =
      "replay: the recording has 2 steps; actor a sent a 3rd request";
  ASSERT_FALSE(third.result.ok());
  EXPECT_EQ(third.result.error().type, ErrorType::kInternalServerError);
  EXPECT_EQ(third.result.error().message, problem);
  EXPECT_EQ(Ran(), (std::vector<std::string>{"a0", "b0"}));
  EXPECT_EQ(gate_.State()["problem"], problem);
}

TEST_F(ScheduleGateTest, BadConfigsAreRefusedNamingTheField) {
  auto refused = [](ScheduleGate& gate, ScheduleConfig config) {
    Status status = gate.Start(std::move(config));
    return status.ok() ? std::string("ok") : status.error().message;
  };
  EXPECT_EQ(refused(gate_, Config({})),
            "actors: give 1 to 64 actor names (the access keys they sign "
            "with)");
  EXPECT_EQ(refused(gate_, Config({"a", ""})), "actors[1]: the name is empty");
  EXPECT_EQ(refused(gate_, Config({"a", "b", "a"})),
            "actors[2]: \"a\" is listed twice");
  EXPECT_EQ(refused(gate_, Replay({"a", "b"}, {"a", "c"})),
            "replay[1]: \"c\" is not one of the actors");
  ScheduleConfig idle = Config({"a"});
  idle.idle = Duration::zero();
  EXPECT_EQ(refused(gate_, idle), "idle: must be more than 0");
  // On a system clock, a tick is refused.
  SystemClock system;
  ScheduleGate on_system(fake_, system, nullptr, idle_);
  ScheduleConfig tick = Config({"a"});
  tick.tick = std::chrono::seconds(1);
  EXPECT_EQ(refused(on_system, tick), "tick needs --clock manual");
  EXPECT_EQ(refused(on_system, Config({"a"})), "ok");
  EXPECT_EQ(on_system.Start(Config({"a"})).error().message,
            "a schedule is already active: DELETE /_ddblab/schedule first");
  EXPECT_EQ(gate_.State()["state"], "off");
}

}  // namespace
}  // namespace ddblab::server
