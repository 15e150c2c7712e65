// tests/harness/backend/scripted_server.cc: the scripted loopback server.
#include "tests/harness/backend/scripted_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

#include <cctype>
#include <utility>

namespace ddblab::harness::testing {

std::string Crc32Of(const std::string& body) {
  uLong crc = crc32(0L, Z_NULL, 0);
  crc = crc32(crc, reinterpret_cast<const Bytef*>(body.data()),
              static_cast<uInt>(body.size()));
  return std::to_string(crc);
}

ScriptedServer::ScriptedServer(std::deque<Action> script)
    : script_(std::move(script)) {
  fd_ = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  int one = 1;
  setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  listen(fd_, 16);
  socklen_t len = sizeof(addr);
  getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  thread_ = std::thread([this] { Run(); });
}

ScriptedServer::~ScriptedServer() {
  stop_ = true;
  shutdown(fd_, SHUT_RDWR);
  close(fd_);
  thread_.join();
}

std::string ScriptedServer::url() const {
  return "http://127.0.0.1:" + std::to_string(port_);
}

Action ScriptedServer::Next() {
  std::lock_guard<std::mutex> lock(mu_);
  if (script_.empty()) return Action::kOk;
  Action action = script_.front();
  script_.pop_front();
  return action;
}

void ScriptedServer::Run() {
  while (!stop_) {
    int conn = accept(fd_, nullptr, nullptr);
    if (conn < 0) return;
    ++connections_;
    while (ServeOne(conn)) {
    }
    close(conn);
  }
}

bool ScriptedServer::ServeOne(int conn) {
  std::string data;
  char buf[4096];
  size_t header_end = std::string::npos;
  while ((header_end = data.find("\r\n\r\n")) == std::string::npos) {
    ssize_t n = read(conn, buf, sizeof(buf));
    if (n <= 0) return false;
    data.append(buf, static_cast<size_t>(n));
  }
  size_t length = 0;
  std::string lower = data.substr(0, header_end);
  for (char& c : lower) c = static_cast<char>(std::tolower(c));
  size_t cl = lower.find("content-length:");
  if (cl != std::string::npos) length = std::stoul(lower.substr(cl + 15));
  while (data.size() < header_end + 4 + length) {
    ssize_t n = read(conn, buf, sizeof(buf));
    if (n <= 0) return false;
    data.append(buf, static_cast<size_t>(n));
  }
  std::string status = "404 Not Found";
  std::string body = "not ddblab";
  if (!data.starts_with("GET ")) {
    ++requests_;
    switch (Next()) {
      case Action::kDrop:
        return false;
      case Action::kReset: {
        linger hard{1, 0};
        setsockopt(conn, SOL_SOCKET, SO_LINGER, &hard, sizeof(hard));
        return false;
      }
      case Action::kHang:
        while (read(conn, buf, sizeof(buf)) > 0) {
        }
        return false;
      case Action::kThrottle:
        status = "400 Bad Request";
        body = kThrottleBody;
        break;
      case Action::kOk:
        status = "200 OK";
        body = R"({"TableNames":[]})";
        break;
    }
  }
  std::string response = "HTTP/1.1 " + status +
                         "\r\nContent-Type: application/x-amz-json-1.0"
                         "\r\nx-amz-crc32: " +
                         Crc32Of(body) +
                         "\r\nContent-Length: " + std::to_string(body.size()) +
                         "\r\n\r\n" + body;
  return write(conn, response.data(), response.size()) ==
         static_cast<ssize_t>(response.size());
}

}  // namespace ddblab::harness::testing
