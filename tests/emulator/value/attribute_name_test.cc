// Tests for emulator/value/attribute_name.h: names of 1..65535 bytes pass;
// an empty name and one of 65,536 bytes get DynamoDB's texts.
#include "emulator/value/attribute_name.h"

#include <gtest/gtest.h>

#include <string>

namespace ddblab::value {
namespace {

TEST(AttributeNameTest, OneTo65535Bytes) {
  EXPECT_TRUE(CheckAttributeName("a").ok());
  EXPECT_TRUE(CheckAttributeName(std::string(65535, 'n')).ok());
  Status empty = CheckAttributeName("");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().type, ErrorType::kValidation);
  EXPECT_EQ(empty.error().message,
            "1 validation error detected: Empty attribute name");
  Status long_name = CheckAttributeName(std::string(65536, 'n'));
  ASSERT_FALSE(long_name.ok());
  EXPECT_EQ(long_name.error().type, ErrorType::kValidation);
  EXPECT_EQ(long_name.error().message,
            "1 validation error detected: Attribute name is too large, must "
            "be less than 65536 bytes");
}

}  // namespace
}  // namespace ddblab::value
