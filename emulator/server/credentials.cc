#include "emulator/server/credentials.h"

#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

namespace ddblab::server {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() &&
         (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) {
    s.remove_prefix(1);
  }
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

struct Profile {
  std::string name;
  Credential credential;
};

}  // namespace

void CredentialStore::Add(Credential credential) {
  std::string key = credential.access_key_id;
  by_key_[std::move(key)] = std::move(credential);
}

const Credential* CredentialStore::Find(std::string_view access_key_id) const {
  auto it = by_key_.find(access_key_id);
  return it == by_key_.end() ? nullptr : &it->second;
}

Result<CredentialStore> ParseCredentialsIni(std::string_view text) {
  std::vector<Profile> profiles;
  size_t line_number = 0;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = Trim(text.substr(start, end - start));
    start = end + 1;
    ++line_number;
    if (line.empty() || line.front() == '#' || line.front() == ';') continue;
    if (line.front() == '[') {
      if (line.back() != ']') {
        return Error::Validation("line " + std::to_string(line_number) +
                                 ": unterminated profile header");
      }
      profiles.push_back(
          Profile{std::string(Trim(line.substr(1, line.size() - 2))), {}});
      continue;
    }
    size_t eq = line.find('=');
    if (eq == std::string_view::npos) {
      return Error::Validation("line " + std::to_string(line_number) +
                               ": expected 'key = value'");
    }
    if (profiles.empty()) {
      return Error::Validation("line " + std::to_string(line_number) +
                               ": setting outside a [profile] section");
    }
    std::string_view key = Trim(line.substr(0, eq));
    std::string value(Trim(line.substr(eq + 1)));
    Credential& credential = profiles.back().credential;
    if (key == "aws_access_key_id") {
      credential.access_key_id = std::move(value);
    } else if (key == "aws_secret_access_key") {
      credential.secret_access_key = std::move(value);
    } else if (key == "aws_session_token") {
      credential.session_token = std::move(value);
    }
  }
  CredentialStore store;
  for (Profile& profile : profiles) {
    Credential& c = profile.credential;
    if (c.access_key_id.empty() && c.secret_access_key.empty()) continue;
    if (c.access_key_id.empty() || c.secret_access_key.empty()) {
      return Error::Validation("profile [" + profile.name +
                               "] needs both aws_access_key_id and " +
                               "aws_secret_access_key");
    }
    store.Add(std::move(c));
  }
  if (store.size() == 0) {
    return Error::Validation("no profile has aws_access_key_id");
  }
  return store;
}

Result<CredentialStore> LoadCredentialsFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error::Validation("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  auto store = ParseCredentialsIni(text.str());
  if (!store.ok()) {
    return Error::Validation(path + ": " + store.error().message);
  }
  return store;
}

}  // namespace ddblab::server
