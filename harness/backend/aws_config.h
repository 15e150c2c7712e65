// harness/backend/aws_config.h: credentials, region and endpoints the way
// the AWS SDKs resolve them.
//
// Credentials chain (first hit wins): explicit credentials; the environment
// (AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY, optional AWS_SESSION_TOKEN);
// the shared credentials file (AWS_SHARED_CREDENTIALS_FILE, default
// ~/.aws/credentials), section [<profile>]; the config file (AWS_CONFIG_FILE,
// default ~/.aws/config), section [profile <profile>] ([default] for the
// default profile). The profile is AWS_PROFILE, else "default".
// Region: AWS_REGION, then AWS_DEFAULT_REGION, then `region` of the profile in
// the config file.
// Endpoints: https://dynamodb.<region>.amazonaws.com and
// https://streams.dynamodb.<region>.amazonaws.com (".amazonaws.com.cn" for
// the cn- regions).
//
// The files are INI as common/text/ini.h reads them (a section named twice
// is one section). Everything reads through an AwsEnvironment so tests use a
// temporary HOME and a map instead of the process environment.
//
// Thread-safety: pure functions; AwsEnvironment::Process reads getenv.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "emulator/api/result.h"

namespace ddblab::harness {

struct AwsCredentials {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;  // empty: none
  // Where they came from ("explicit", "environment", "<file> [profile]").
  std::string source;
};

struct AwsEnvironment {
  std::function<std::optional<std::string>(const std::string&)> get;

  // The process environment (getenv).
  static AwsEnvironment Process();
  // A fixed map (tests).
  static AwsEnvironment FromMap(std::map<std::string, std::string> vars);
};

// The profile name: AWS_PROFILE, else "default".
std::string ResolveProfile(const AwsEnvironment& env);

// The credentials chain above. Not found anywhere: a ValidationException
// listing where it looked. A file that exists but cannot be parsed, or a
// profile with a key id but no secret, is an error too.
Result<AwsCredentials> ResolveCredentials(
    const AwsEnvironment& env,
    const std::optional<AwsCredentials>& explicit_credentials = {});

// The region chain above; std::nullopt when none is configured.
Result<std::optional<std::string>> ResolveRegion(const AwsEnvironment& env);

// "https://dynamodb.<region>.amazonaws.com" (and the streams one).
std::string DynamoDbEndpoint(std::string_view region);
std::string StreamsEndpoint(std::string_view region);

}  // namespace ddblab::harness
