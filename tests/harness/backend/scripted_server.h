// tests/harness/backend/scripted_server.h: a DynamoDB stand-in on a loopback
// socket that answers each POST by a script, so HttpBackend's retries are
// tested over a real connection before the emulator's fault plans exist.
//
// Each POST takes the next action from the script (kOk once it is empty):
//   kOk        200 {"TableNames":[]} with its x-amz-crc32
//   kThrottle  400 ProvisionedThroughputExceededException (DynamoDB's text)
//   kDrop      the request is read, then the connection closed without a byte
//   kReset     the request is read, then the connection reset (RST)
//   kHang      the request is read and never answered (until the client
//              gives up and closes)
// A GET (the ddblab health probe) gets 404: this is not ddblab.
//
// Thread-safety: one server thread serves connections one at a time; the
// accessors are atomic.
#pragma once

#include <atomic>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

namespace ddblab::harness::testing {

enum class Action { kOk, kThrottle, kDrop, kReset, kHang };

inline constexpr const char* kThrottleBody =
    R"({"__type":"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException","message":"The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API."})";

// x-amz-crc32 of `body` (decimal, as DynamoDB sends it).
std::string Crc32Of(const std::string& body);

class ScriptedServer {
 public:
  explicit ScriptedServer(std::deque<Action> script);
  ScriptedServer(const ScriptedServer&) = delete;
  ScriptedServer& operator=(const ScriptedServer&) = delete;
  ~ScriptedServer();

  std::string url() const;
  int port() const { return port_; }
  // POST requests received so far.
  int requests() const { return requests_; }
  // Connections accepted so far.
  int connections() const { return connections_; }

 private:
  void Run();
  bool ServeOne(int conn);
  Action Next();

  int fd_ = -1;
  int port_ = 0;
  std::mutex mu_;
  std::deque<Action> script_;
  std::atomic<int> requests_{0};
  std::atomic<int> connections_{0};
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace ddblab::harness::testing
