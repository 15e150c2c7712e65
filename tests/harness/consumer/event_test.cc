// tests/harness/consumer/event_test.cc: SerializedSize counts exactly what
// dump() writes (the mapping's 6 MB payload limit is counted with it).
#include "harness/consumer/event.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>

namespace ddblab::harness::consumer {
namespace {

TEST(SerializedSizeTest, EqualsTheLengthOfDump) {
  const json values[] = {
      nullptr,
      true,
      false,
      0,
      -1,
      7,
      10,
      -10,
      123456789,
      std::numeric_limits<int64_t>::min(),
      std::numeric_limits<int64_t>::max(),
      std::numeric_limits<uint64_t>::max(),
      1.5,
      1704067200.0,
      -0.000123,
      "",
      "plain",
      "quote \" backslash \\ slash /",
      "\b\f\n\r\t",
      std::string("\x01\x1f\x7f", 3),
      std::string("nul \0 inside", 12),
      "caf\xc3\xa9 \xe2\x82\xac",
      json::array(),
      json::object(),
      {1, "two", nullptr, {{"k", "v"}}},
      {{"Records",
        {{{"eventName", "INSERT"},
          {"dynamodb",
           {{"Keys", {{"TransferId", {{"S", "t1"}}}}},
            {"ApproximateCreationDateTime", 1704067200},
            {"SizeBytes", 42}}}}}},
       {"empty", json::object()},
       {"key \"quoted\"\n", json::array()}},
  };
  for (const json& v : values) {
    EXPECT_EQ(SerializedSize(v), v.dump().size()) << v.dump();
  }
}

}  // namespace
}  // namespace ddblab::harness::consumer
