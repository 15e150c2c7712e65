#include "emulator/api/error.h"

#include <gtest/gtest.h>

namespace ddblab {
namespace {

TEST(ErrorTest, NamesAreDynamoDbExceptionNames) {
  EXPECT_EQ(Error::Validation("x").Name(), "ValidationException");
  EXPECT_EQ(Error::ConditionalCheckFailed("x").Name(),
            "ConditionalCheckFailedException");
  EXPECT_EQ(ErrorTypeName(ErrorType::kRequestLimitExceeded),
            "RequestLimitExceeded");
  EXPECT_EQ(ErrorTypeName(ErrorType::kInternalServerError),
            "InternalServerError");
  EXPECT_EQ(ErrorTypeName(ErrorType::kTrimmedDataAccess),
            "TrimmedDataAccessException");
}

TEST(ErrorTest, CarriesMessageAndExtra) {
  Error e = Error::Of(ErrorType::kTransactionCanceled, "Transaction cancelled");
  e.extra = {{"CancellationReasons", nlohmann::json::array()}};
  EXPECT_EQ(ToString(e), "TransactionCanceledException: Transaction cancelled");
  EXPECT_TRUE(e.extra.contains("CancellationReasons"));
}

}  // namespace
}  // namespace ddblab
