#include "emulator/server/credentials.h"

#include <gtest/gtest.h>

namespace ddblab::server {
namespace {

TEST(CredentialsTest, ParsesEveryProfile) {
  auto store = ParseCredentialsIni(
      "# comment\n"
      "[default]\n"
      "aws_access_key_id = AKID1\n"
      "aws_secret_access_key=secret1\r\n"
      "region = us-east-1\n"
      "\n"
      "; another comment\n"
      "[other]\n"
      "  aws_access_key_id=AKID2  \n"
      "aws_secret_access_key = secret/2+x\n"
      "aws_session_token = tok\n"
      "[empty]\n");
  ASSERT_TRUE(store.ok()) << store.error().message;
  EXPECT_EQ(store->size(), 2u);
  const Credential* one = store->Find("AKID1");
  ASSERT_NE(one, nullptr);
  EXPECT_EQ(one->secret_access_key, "secret1");
  EXPECT_EQ(one->session_token, "");
  const Credential* two = store->Find("AKID2");
  ASSERT_NE(two, nullptr);
  EXPECT_EQ(two->secret_access_key, "secret/2+x");
  EXPECT_EQ(two->session_token, "tok");
  EXPECT_EQ(store->Find("AKID3"), nullptr);
}

TEST(CredentialsTest, Errors) {
  auto no_secret = ParseCredentialsIni("[p]\naws_access_key_id=A\n");
  ASSERT_FALSE(no_secret.ok());
  EXPECT_EQ(no_secret.error().message,
            "profile [p] needs both aws_access_key_id and "
            "aws_secret_access_key");
  // The INI format's own errors (common/text/ini.h, tested there) pass
  // through.
  auto garbage = ParseCredentialsIni("[p]\nnot a setting\n");
  ASSERT_FALSE(garbage.ok());
  EXPECT_EQ(garbage.error().message,
            "line 2: expected [section] or key = value");
  auto empty = ParseCredentialsIni("[p]\nregion=x\n");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().message, "no profile has aws_access_key_id");
}

TEST(CredentialsTest, MissingFile) {
  auto store = LoadCredentialsFile("/nonexistent/ddblab/credentials");
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.error().message,
            "cannot read /nonexistent/ddblab/credentials");
}

}  // namespace
}  // namespace ddblab::server
