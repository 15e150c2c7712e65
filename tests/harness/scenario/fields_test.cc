// tests/harness/scenario/fields_test.cc: a scenario file's durations read
// through Fields take the one grammar (emulator/api/duration.h, tested
// there) and name the path when refused; the scenario's tick, start, every
// and fault durations all read the same forms.
#include "harness/scenario/fields.h"

#include <gtest/gtest.h>

#include <chrono>

#include "harness/scenario/scenario.h"

namespace ddblab::harness::scenario {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

TEST(FieldsTest, DurationsUseTheOneGrammar) {
  const json object = {
      {"text", "1.5s"}, {"number", 90}, {"bad", "5 min"}, {"odd", true}};
  Result<Fields> f = Fields::Of(object, "actors[0].params");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(*f->DurationOf("text"), milliseconds(1500));
  EXPECT_EQ(*f->DurationOf("number"), seconds(90));
  EXPECT_EQ(*f->DurationOr("absent", seconds(7)), seconds(7));
  EXPECT_EQ(f->DurationOf("bad").error().message,
            "actors[0].params.bad: invalid duration '5 min': unknown unit "
            "' min' (expected a number with an optional unit us, ms, s, m, h "
            "or d, e.g. 90s, 1.5m, 250ms)");
  EXPECT_EQ(f->DurationOf("odd").error().message,
            "actors[0].params.odd: expected a duration such as \"90s\" or "
            "\"1.5m\", or a number of seconds, got true");
}

// The complaint that started the one grammar: "1.5s" worked in a fault rule
// and not as the tick of the same file.
TEST(FieldsTest, TickStartEveryAndFaultsReadTheSameForms) {
  Result<Scenario> s = ParseScenario(R"({
    "name": "forms",
    "backend": {"tick": "1.5s"},
    "faults": {"rules": [{"effect": "latency", "duration": "1.5s"}]},
    "actors": [{"name": "a", "pattern": "script", "start": 60,
                "every": "0.5m", "ops": [{"call": "ListTables",
                                          "request": {}}]}],
    "invariants": [{"check": "count", "table": "t", "equals": 0}],
    "expect": "holds"})",
                                     "forms.json");
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->tick, milliseconds(1500));
  ASSERT_EQ(s->actors.size(), 1u);
  EXPECT_EQ(s->actors[0].start, seconds(60));
  EXPECT_EQ(s->actors[0].every, seconds(30));
}

}  // namespace
}  // namespace ddblab::harness::scenario
