// common/control_token/control_token.cc: see control_token.h.
#include "common/control_token/control_token.h"

#include <fcntl.h>
#include <openssl/crypto.h>
#include <openssl/rand.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace ddblab::control_token {
namespace {

std::string Reason(const std::string& what, const std::string& path) {
  return what + " " + path + ": " + std::strerror(errno);
}

bool IsSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// The folder of `path` ("." when it has none).
std::string FolderOf(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// Creates `folder` (one level) with 0700 if missing; an existing folder is
// accepted when it is a real folder of this user that others cannot write.
std::string EnsurePrivateFolder(const std::string& folder) {
  if (mkdir(folder.c_str(), 0700) != 0 && errno != EEXIST) {
    return Reason("cannot create", folder);
  }
  struct stat st {};
  if (lstat(folder.c_str(), &st) != 0) return Reason("cannot read", folder);
  if (!S_ISDIR(st.st_mode)) return folder + " is not a folder";
  if (st.st_uid != geteuid()) return folder + " belongs to another user";
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    return folder + " is writable by other users";
  }
  return "";
}

}  // namespace

std::string NewToken() {
  unsigned char bytes[32];
  if (RAND_bytes(bytes, sizeof(bytes)) != 1) std::abort();
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * sizeof(bytes));
  for (unsigned char b : bytes) {
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  return out;
}

std::optional<std::string> DefaultTokenPath(int port) {
  const std::string file = "/control-" + std::to_string(port) + ".token";
  if (const char* runtime = std::getenv("XDG_RUNTIME_DIR");
      runtime != nullptr && *runtime != '\0') {
    return std::string(runtime) + "/ddblab" + file;
  }
  if (const char* home = std::getenv("HOME");
      home != nullptr && *home != '\0') {
    return std::string(home) + "/.ddblab" + file;
  }
  return std::nullopt;
}

std::string WriteTokenFile(const std::string& path, std::string_view token) {
  if (std::string problem = EnsurePrivateFolder(FolderOf(path));
      !problem.empty()) {
    return problem;
  }
  const std::string temporary = path + ".tmp" + std::to_string(getpid());
  unlink(temporary.c_str());
  int fd = open(temporary.c_str(),
                O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return Reason("cannot create", temporary);
  std::string text = std::string(token) + "\n";
  bool written =
      write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  if (close(fd) != 0) written = false;
  if (!written) {
    std::string problem = Reason("cannot write", temporary);
    unlink(temporary.c_str());
    return problem;
  }
  if (rename(temporary.c_str(), path.c_str()) != 0) {
    std::string problem = Reason("cannot write", path);
    unlink(temporary.c_str());
    return problem;
  }
  return "";
}

void RemoveTokenFile(const std::string& path, std::string_view token) {
  std::optional<std::string> held = ReadTokenFile(path);
  if (held && *held == token) unlink(path.c_str());
}

std::optional<std::string> ReadTokenFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  std::string token = text.str();
  while (!token.empty() && IsSpace(token.back())) token.pop_back();
  while (!token.empty() && IsSpace(token.front())) token.erase(0, 1);
  if (token.empty()) return std::nullopt;
  return token;
}

std::optional<std::string> FindToken(int port) {
  if (const char* set = std::getenv(std::string(kEnvironmentVariable).c_str());
      set != nullptr && *set != '\0') {
    return std::string(set);
  }
  std::optional<std::string> path = DefaultTokenPath(port);
  if (!path) return std::nullopt;
  return ReadTokenFile(*path);
}

std::optional<int> LoopbackPort(std::string_view endpoint) {
  std::optional<int> default_port;
  if (size_t scheme = endpoint.find("://"); scheme != std::string_view::npos) {
    default_port = endpoint.starts_with("https://") ? 443 : 80;
    endpoint.remove_prefix(scheme + 3);
  }
  endpoint = endpoint.substr(0, endpoint.find('/'));
  std::string_view host = endpoint;
  std::string_view port;
  if (endpoint.starts_with('[')) {
    size_t close = endpoint.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    host = endpoint.substr(1, close - 1);
    std::string_view rest = endpoint.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return std::nullopt;
      port = rest.substr(1);
    }
  } else if (size_t colon = endpoint.rfind(':');
             colon != std::string_view::npos) {
    host = endpoint.substr(0, colon);
    port = endpoint.substr(colon + 1);
  }
  if (host != "127.0.0.1" && host != "localhost" && host != "::1") {
    return std::nullopt;
  }
  if (port.empty()) return default_port;
  int number = 0;
  for (char c : port) {
    if (c < '0' || c > '9' || number > 65535) return std::nullopt;
    number = number * 10 + (c - '0');
  }
  if (number < 1 || number > 65535) return std::nullopt;
  return number;
}

bool TokensEqual(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace ddblab::control_token
