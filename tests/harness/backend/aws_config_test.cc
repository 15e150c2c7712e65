// Credentials chain, region chain, INI parsing and endpoints, with a
// temporary HOME and an environment map (the process environment is never
// touched).
#include "harness/backend/aws_config.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace ddblab::harness {
namespace {

namespace fs = std::filesystem;

class AwsConfigTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/ddblab_home_XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    home_ = pattern;
    fs::create_directories(home_ / ".aws");
  }
  void TearDown() override { fs::remove_all(home_); }

  void Write(const std::string& name, const std::string& text) {
    std::ofstream(home_ / ".aws" / name) << text;
  }
  AwsEnvironment Env(std::map<std::string, std::string> vars) {
    vars["HOME"] = home_.string();
    return AwsEnvironment::FromMap(std::move(vars));
  }

  fs::path home_;
};

TEST_F(AwsConfigTest, ExplicitCredentialsWin) {
  Write("credentials",
        "[default]\naws_access_key_id=FILE\n"
        "aws_secret_access_key=filesecret\n");
  auto got = ResolveCredentials(
      Env({{"AWS_ACCESS_KEY_ID", "ENV"}, {"AWS_SECRET_ACCESS_KEY", "s"}}),
      AwsCredentials{"EXPLICIT", "secret", "", ""});
  ASSERT_TRUE(got.ok()) << ToString(got.error());
  EXPECT_EQ(got->access_key_id, "EXPLICIT");
  EXPECT_EQ(got->source, "explicit");
}

TEST_F(AwsConfigTest, EnvironmentBeforeFiles) {
  Write("credentials",
        "[default]\naws_access_key_id=FILE\n"
        "aws_secret_access_key=filesecret\n");
  auto got = ResolveCredentials(Env({{"AWS_ACCESS_KEY_ID", "ENV"},
                                     {"AWS_SECRET_ACCESS_KEY", "envsecret"},
                                     {"AWS_SESSION_TOKEN", "tok"}}));
  ASSERT_TRUE(got.ok()) << ToString(got.error());
  EXPECT_EQ(got->access_key_id, "ENV");
  EXPECT_EQ(got->secret_access_key, "envsecret");
  EXPECT_EQ(got->session_token, "tok");
  EXPECT_EQ(got->source, "environment");
  // A key id without a secret in the environment is skipped.
  got = ResolveCredentials(Env({{"AWS_ACCESS_KEY_ID", "ENV"}}));
  ASSERT_TRUE(got.ok()) << ToString(got.error());
  EXPECT_EQ(got->access_key_id, "FILE");
}

TEST_F(AwsConfigTest, CredentialsFileProfileFromAwsProfile) {
  Write("credentials",
        "# comment\n[default]\naws_access_key_id = DEF\n"
        "aws_secret_access_key = defsecret\n\n[work]\n"
        "aws_access_key_id = WORK\naws_secret_access_key = worksecret\n"
        "aws_session_token = worktoken\n");
  auto got = ResolveCredentials(Env({{"AWS_PROFILE", "work"}}));
  ASSERT_TRUE(got.ok()) << ToString(got.error());
  EXPECT_EQ(got->access_key_id, "WORK");
  EXPECT_EQ(got->session_token, "worktoken");
  EXPECT_EQ(got->source, (home_ / ".aws/credentials").string() + " [work]");
  got = ResolveCredentials(Env({}));
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->access_key_id, "DEF");
}

TEST_F(AwsConfigTest, ConfigFileUsesProfilePrefix) {
  Write("config",
        "[default]\nregion = eu-west-1\n[profile dev]\nregion = ap-south-1\n"
        "aws_access_key_id = DEV\naws_secret_access_key = devsecret\n");
  auto got = ResolveCredentials(Env({{"AWS_PROFILE", "dev"}}));
  ASSERT_TRUE(got.ok()) << ToString(got.error());
  EXPECT_EQ(got->access_key_id, "DEV");
  auto region = ResolveRegion(Env({{"AWS_PROFILE", "dev"}}));
  ASSERT_TRUE(region.ok());
  EXPECT_EQ(region->value_or(""), "ap-south-1");
  region = ResolveRegion(Env({}));
  ASSERT_TRUE(region.ok());
  EXPECT_EQ(region->value_or(""), "eu-west-1");
}

TEST_F(AwsConfigTest, RegionEnvironmentOrder) {
  Write("config", "[default]\nregion = eu-west-1\n");
  auto region = ResolveRegion(
      Env({{"AWS_REGION", "us-west-2"}, {"AWS_DEFAULT_REGION", "us-east-2"}}));
  ASSERT_TRUE(region.ok());
  EXPECT_EQ(region->value_or(""), "us-west-2");
  region = ResolveRegion(Env({{"AWS_DEFAULT_REGION", "us-east-2"}}));
  ASSERT_TRUE(region.ok());
  EXPECT_EQ(region->value_or(""), "us-east-2");
  fs::remove(home_ / ".aws/config");
  region = ResolveRegion(Env({}));
  ASSERT_TRUE(region.ok());
  EXPECT_FALSE(region->has_value());
}

TEST_F(AwsConfigTest, FileLocationsFromEnvironment) {
  std::ofstream(home_ / "creds") << "[default]\naws_access_key_id=ALT\n"
                                    "aws_secret_access_key=alt\n";
  std::ofstream(home_ / "conf") << "[default]\nregion=sa-east-1\n";
  auto env = Env({{"AWS_SHARED_CREDENTIALS_FILE", (home_ / "creds").string()},
                  {"AWS_CONFIG_FILE", (home_ / "conf").string()}});
  auto got = ResolveCredentials(env);
  ASSERT_TRUE(got.ok()) << ToString(got.error());
  EXPECT_EQ(got->access_key_id, "ALT");
  EXPECT_EQ(ResolveRegion(env)->value_or(""), "sa-east-1");
}

TEST_F(AwsConfigTest, NothingFoundSaysWhereItLooked) {
  auto got = ResolveCredentials(Env({}));
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().type, ErrorType::kValidation);
  std::string home = home_.string();
  EXPECT_EQ(got.error().message,
            "no AWS credentials found (looked in explicit credentials, "
            "AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, " +
                home + "/.aws/credentials [default], " + home +
                "/.aws/config [default])");
}

TEST_F(AwsConfigTest, HalfACredentialIsAnError) {
  Write("credentials", "[default]\naws_access_key_id = ONLY\n");
  auto got = ResolveCredentials(Env({}));
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().message,
            (home_ / ".aws/credentials").string() +
                " [default] has only one of aws_access_key_id and "
                "aws_secret_access_key");
}

TEST_F(AwsConfigTest, MalformedFileIsAnError) {
  Write("credentials", "[default]\nthis line has no equals sign\n");
  auto got = ResolveCredentials(Env({}));
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().message,
            (home_ / ".aws/credentials").string() +
                ": line 2: expected [section] or key = value");
}

TEST(AwsEndpointsTest, ByRegion) {
  EXPECT_EQ(DynamoDbEndpoint("eu-west-1"),
            "https://dynamodb.eu-west-1.amazonaws.com");
  EXPECT_EQ(StreamsEndpoint("us-east-1"),
            "https://streams.dynamodb.us-east-1.amazonaws.com");
  EXPECT_EQ(DynamoDbEndpoint("cn-north-1"),
            "https://dynamodb.cn-north-1.amazonaws.com.cn");
}

}  // namespace
}  // namespace ddblab::harness
