#include "emulator/api/result.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace ddblab {
namespace {

Result<int> Half(int v) {
  if (v % 2 != 0) return Error::Validation("odd");
  return v / 2;
}

Result<int> Quarter(int v) {
  DDBLAB_ASSIGN_OR_RETURN(int h, Half(v));
  DDBLAB_ASSIGN_OR_RETURN(int q, Half(h));
  return q;
}

Status CheckEven(int v) {
  DDBLAB_RETURN_IF_ERROR(Half(v));
  return OkStatus();
}

TEST(ResultTest, HoldsValueOrError) {
  Result<int> ok = Half(8);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, 4);
  Result<int> bad = Half(3);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().type, ErrorType::kValidation);
  EXPECT_EQ(bad.error().message, "odd");
}

TEST(ResultTest, MacrosPropagateTheFirstError) {
  EXPECT_EQ(*Quarter(8), 2);
  EXPECT_EQ(Quarter(6).error().message, "odd");  // 6 -> 3 is odd
  EXPECT_TRUE(CheckEven(2).ok());
  EXPECT_EQ(CheckEven(1).error().message, "odd");
}

TEST(ResultTest, MoveOnlyValues) {
  Result<std::unique_ptr<std::string>> r = std::make_unique<std::string>("x");
  ASSERT_TRUE(r.ok());
  std::unique_ptr<std::string> p = std::move(r).value();
  EXPECT_EQ(*p, "x");
}

}  // namespace
}  // namespace ddblab
