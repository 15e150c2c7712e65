// harness/backend/aws_config.cc: the SDK credentials and region chains over
// the AWS config/credentials files, AWS endpoints by region.
#include "harness/backend/aws_config.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <utility>

#include "common/text/ini.h"

namespace ddblab::harness {
namespace {

std::optional<std::string> NonEmpty(const AwsEnvironment& env,
                                    const std::string& name) {
  std::optional<std::string> value = env.get(name);
  if (value && value->empty()) return std::nullopt;
  return value;
}

// The file named by `variable`, else $HOME/<default_name>; nullopt when
// neither is known.
std::optional<std::string> FilePath(const AwsEnvironment& env,
                                    const std::string& variable,
                                    const std::string& default_name) {
  if (auto path = NonEmpty(env, variable)) return path;
  if (auto home = NonEmpty(env, "HOME")) return *home + "/" + default_name;
  return std::nullopt;
}

// Section -> key -> value.
using IniFile = std::map<std::string, std::map<std::string, std::string>>;

// Reads and parses `path`; a missing file is an empty IniFile.
Result<IniFile> LoadIni(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return IniFile{};
  std::stringstream text;
  text << in.rdbuf();
  text::IniDocument document = text::ParseIni(text.str());
  if (!document.error.empty()) {
    return Error::Validation(path + ": " + document.error);
  }
  IniFile ini;
  for (const text::IniSection& section : document.sections) {
    auto& values = ini[section.name];
    for (const auto& [key, value] : section.values) values[key] = value;
  }
  return ini;
}

// Credentials from one INI section; nullopt when it has no key id.
Result<std::optional<AwsCredentials>> FromSection(const IniFile& ini,
                                                  const std::string& section,
                                                  const std::string& source) {
  auto it = ini.find(section);
  if (it == ini.end()) return std::optional<AwsCredentials>();
  const auto& keys = it->second;
  auto get = [&](const char* key) {
    auto k = keys.find(key);
    return k == keys.end() ? std::string() : k->second;
  };
  AwsCredentials credentials{get("aws_access_key_id"),
                             get("aws_secret_access_key"),
                             get("aws_session_token"), source};
  if (credentials.access_key_id.empty() &&
      credentials.secret_access_key.empty()) {
    return std::optional<AwsCredentials>();
  }
  if (credentials.access_key_id.empty() ||
      credentials.secret_access_key.empty()) {
    return Error::Validation(source +
                             " has only one of aws_access_key_id and "
                             "aws_secret_access_key");
  }
  return std::optional<AwsCredentials>(std::move(credentials));
}

std::string ConfigSection(const std::string& profile) {
  return profile == "default" ? profile : "profile " + profile;
}

}  // namespace

AwsEnvironment AwsEnvironment::Process() {
  return AwsEnvironment{
      [](const std::string& name) -> std::optional<std::string> {
        const char* value = std::getenv(name.c_str());
        if (value == nullptr) return std::nullopt;
        return std::string(value);
      }};
}

AwsEnvironment AwsEnvironment::FromMap(
    std::map<std::string, std::string> vars) {
  return AwsEnvironment{[vars = std::move(vars)](const std::string& name)
                            -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  }};
}

std::string ResolveProfile(const AwsEnvironment& env) {
  return NonEmpty(env, "AWS_PROFILE").value_or("default");
}

Result<AwsCredentials> ResolveCredentials(
    const AwsEnvironment& env,
    const std::optional<AwsCredentials>& explicit_credentials) {
  if (explicit_credentials) {
    AwsCredentials credentials = *explicit_credentials;
    if (credentials.source.empty()) credentials.source = "explicit";
    return credentials;
  }
  auto key = NonEmpty(env, "AWS_ACCESS_KEY_ID");
  auto secret = NonEmpty(env, "AWS_SECRET_ACCESS_KEY");
  if (key && secret) {
    return AwsCredentials{*key, *secret,
                          NonEmpty(env, "AWS_SESSION_TOKEN").value_or(""),
                          "environment"};
  }
  std::string profile = ResolveProfile(env);
  std::string looked =
      "explicit credentials, AWS_ACCESS_KEY_ID/"
      "AWS_SECRET_ACCESS_KEY";
  if (auto path =
          FilePath(env, "AWS_SHARED_CREDENTIALS_FILE", ".aws/credentials")) {
    DDBLAB_ASSIGN_OR_RETURN(IniFile ini, LoadIni(*path));
    DDBLAB_ASSIGN_OR_RETURN(
        std::optional<AwsCredentials> found,
        FromSection(ini, profile, *path + " [" + profile + "]"));
    if (found) return *found;
    looked += ", " + *path + " [" + profile + "]";
  }
  if (auto path = FilePath(env, "AWS_CONFIG_FILE", ".aws/config")) {
    DDBLAB_ASSIGN_OR_RETURN(IniFile ini, LoadIni(*path));
    std::string section = ConfigSection(profile);
    DDBLAB_ASSIGN_OR_RETURN(
        std::optional<AwsCredentials> found,
        FromSection(ini, section, *path + " [" + section + "]"));
    if (found) return *found;
    looked += ", " + *path + " [" + section + "]";
  }
  return Error::Validation("no AWS credentials found (looked in " + looked +
                           ")");
}

Result<std::optional<std::string>> ResolveRegion(const AwsEnvironment& env) {
  if (auto region = NonEmpty(env, "AWS_REGION")) return region;
  if (auto region = NonEmpty(env, "AWS_DEFAULT_REGION")) return region;
  if (auto path = FilePath(env, "AWS_CONFIG_FILE", ".aws/config")) {
    DDBLAB_ASSIGN_OR_RETURN(IniFile ini, LoadIni(*path));
    auto section = ini.find(ConfigSection(ResolveProfile(env)));
    if (section != ini.end()) {
      auto region = section->second.find("region");
      if (region != section->second.end() && !region->second.empty()) {
        return std::optional<std::string>(region->second);
      }
    }
  }
  return std::optional<std::string>();
}

namespace {
std::string DnsSuffix(std::string_view region) {
  return region.starts_with("cn-") ? "amazonaws.com.cn" : "amazonaws.com";
}
}  // namespace

std::string DynamoDbEndpoint(std::string_view region) {
  return "https://dynamodb." + std::string(region) + "." + DnsSuffix(region);
}

std::string StreamsEndpoint(std::string_view region) {
  return "https://streams.dynamodb." + std::string(region) + "." +
         DnsSuffix(region);
}

}  // namespace ddblab::harness
