// emulator/server/credentials.cc: the access keys of --auth verify
// (credentials.h); the INI format is common/text/ini.h.
#include "emulator/server/credentials.h"

#include <fstream>
#include <sstream>
#include <utility>

#include "common/text/ini.h"

namespace ddblab::server {

void CredentialStore::Add(Credential credential) {
  std::string key = credential.access_key_id;
  by_key_[std::move(key)] = std::move(credential);
}

const Credential* CredentialStore::Find(std::string_view access_key_id) const {
  auto it = by_key_.find(access_key_id);
  return it == by_key_.end() ? nullptr : &it->second;
}

Result<CredentialStore> ParseCredentialsIni(std::string_view text) {
  text::IniDocument ini = text::ParseIni(text);
  if (!ini.error.empty()) return Error::Validation(ini.error);
  CredentialStore store;
  for (const text::IniSection& profile : ini.sections) {
    auto get = [&](std::string_view key) {
      auto it = profile.values.find(key);
      return it == profile.values.end() ? std::string() : it->second;
    };
    Credential c{get("aws_access_key_id"), get("aws_secret_access_key"),
                 get("aws_session_token")};
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
