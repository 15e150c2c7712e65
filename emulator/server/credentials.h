// emulator/server/credentials.h: the access keys `--auth verify` accepts.
//
// Loaded from --access-key-id/--secret-access-key or from an AWS
// credentials file (INI as common/text/ini.h reads it: [profile] sections
// with aws_access_key_id, aws_secret_access_key and optional
// aws_session_token; every profile is loaded). Built once at startup, then
// only read.
//
// Thread-safety: const methods may be called concurrently.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "emulator/api/result.h"

namespace ddblab::server {

struct Credential {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;  // empty: requests need no token
};

class CredentialStore {
 public:
  // Adds or replaces the credential for its access key id.
  void Add(Credential credential);
  const Credential* Find(std::string_view access_key_id) const;
  size_t size() const { return by_key_.size(); }

 private:
  std::map<std::string, Credential, std::less<>> by_key_;
};

// Parses AWS credentials-file text. Fails (with a message naming the line or
// profile) on a malformed line (common/text/ini.h's messages), a profile
// with a key id but no secret (or the reverse), or when no profile holds a
// key.
Result<CredentialStore> ParseCredentialsIni(std::string_view text);

// Reads and parses the file at `path`.
Result<CredentialStore> LoadCredentialsFile(const std::string& path);

}  // namespace ddblab::server
