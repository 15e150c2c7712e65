// common/control_token/control_token.h: the token that guards ddblab's
// /_ddblab/ control endpoints (`ddblab serve --control local-token`, the
// default).
//
// `ddblab serve` makes a random token at start, prints it and writes it to a
// file only its user can read. A control request carries it in the
// X-Ddblab-Token header. Clients on the same machine (the harness's
// HttpBackend, the test helpers) find it, for a server on PORT, in
// $DDBLAB_CONTROL_TOKEN, else in DefaultTokenPath(PORT).
//
// A leaf library shared by the server (which writes and checks the token)
// and the harness (which reads and sends it): OpenSSL and the standard
// library only.
//
// Thread-safety: pure functions (they read the environment and files).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ddblab::control_token {

inline constexpr std::string_view kHeader = "X-Ddblab-Token";
// The environment variable a client reads first.
inline constexpr std::string_view kEnvironmentVariable = "DDBLAB_CONTROL_TOKEN";

// 32 random bytes from the operating system's generator (OpenSSL RAND_bytes:
// a secret, so never from the emulator's seeded generator), as 64 hex digits.
std::string NewToken();

// Where `ddblab serve` on `port` writes its token by default:
// $XDG_RUNTIME_DIR/ddblab/control-<port>.token when XDG_RUNTIME_DIR is set,
// else $HOME/.ddblab/control-<port>.token; nullopt when neither is set.
std::optional<std::string> DefaultTokenPath(int port);

// Writes `token` to `path` so that only this user can read it: the folder is
// created with mode 0700 if missing (and must then be this user's, not a
// symbolic link, and not writable by others), the file is written to a
// temporary name with mode 0600 and renamed over `path`. Returns "" on
// success, else what went wrong ("cannot create /x: Permission denied").
std::string WriteTokenFile(const std::string& path, std::string_view token);

// Removes `path` if it still holds `token` (a newer server on the same port
// may have replaced it).
void RemoveTokenFile(const std::string& path, std::string_view token);

// The token in `path` (whitespace trimmed), or nullopt if it cannot be read
// or is empty.
std::optional<std::string> ReadTokenFile(const std::string& path);

// What a client on this machine sends to a ddblab on `port`:
// $DDBLAB_CONTROL_TOKEN if set, else the token in DefaultTokenPath(port).
std::optional<std::string> FindToken(int port);

// The port of a loopback endpoint, "http[s]://HOST[:PORT][/...]" or
// "HOST:PORT", HOST one of 127.0.0.1, localhost, ::1 (in brackets); the
// scheme's default port when a URL gives none. nullopt for any other host
// or a malformed endpoint: a token file is never read for another host.
std::optional<int> LoopbackPort(std::string_view endpoint);

// Constant-time comparison (OpenSSL CRYPTO_memcmp); lengths are public.
bool TokensEqual(std::string_view a, std::string_view b);

}  // namespace ddblab::control_token
