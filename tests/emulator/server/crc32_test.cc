#include "emulator/server/crc32.h"

#include <gtest/gtest.h>

#include <string>

namespace ddblab::server {
namespace {

// Bit-at-a-time reference implementation.
uint32_t ReferenceCrc32(std::string_view data) {
  uint32_t c = 0xFFFFFFFFu;
  for (unsigned char byte : data) {
    c ^= byte;
    for (int k = 0; k < 8; ++k) c = (c & 1u) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
  }
  return ~c;
}

TEST(Crc32Test, StandardCheckValue) {
  EXPECT_EQ(Crc32(""), 0u);
  EXPECT_EQ(Crc32("123456789"), 0xCBF43926u);
}

TEST(Crc32Test, RecordedDynamoDbBodies) {
  // DynamoDB's wire protocol: dynalite's recorded x-amz-crc32 values.
  EXPECT_EQ(Crc32("{\"__type\":\"com.amazon.coral.service#"
                  "MissingAuthenticationTokenException\",\"message\":"
                  "\"Request is missing Authentication Token\"}"),
            2088342776u);
  EXPECT_EQ(Crc32("healthy: dynamodb.us-east-1.amazonaws.com "), 3128867991u);
  EXPECT_EQ(Crc32("<UnknownOperationException/>\n"), 3552371480u);
}

TEST(Crc32Test, MatchesReferenceAtEveryLengthAndAlignment) {
  std::string data;
  for (int i = 0; i < 300; ++i) data += static_cast<char>((i * 131 + 7) & 0xFF);
  for (size_t start = 0; start < 9; ++start) {
    for (size_t len = 0; start + len <= data.size(); len += 7) {
      std::string_view piece = std::string_view(data).substr(start, len);
      ASSERT_EQ(Crc32(piece), ReferenceCrc32(piece))
          << "start " << start << " len " << len;
    }
  }
}

TEST(Crc32Test, ContinuesAcrossPieces) {
  std::string_view whole = "The quick brown fox jumps over the lazy dog";
  uint32_t c = Crc32(whole.substr(0, 10));
  c = Crc32(whole.substr(10), c);
  EXPECT_EQ(c, Crc32(whole));
  EXPECT_EQ(Crc32(whole), 0x414FA339u);
}

}  // namespace
}  // namespace ddblab::server
