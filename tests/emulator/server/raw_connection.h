// tests/emulator/server/raw_connection.h: a plain TCP connection speaking
// HTTP/1.1 by hand, to see the server's bytes, and a signed DynamoDB
// request to send on it. For the server's tests only.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

#include "common/sigv4/sigv4.h"
#include "emulator/server/wire_message.h"

namespace ddblab::server {

struct RawResponse {
  int status = 0;
  std::multimap<std::string, std::string> headers;  // lowercase names

  // The value of a header that must appear exactly once ("" otherwise).
  std::string Single(const std::string& name) const {
    if (headers.count(name) != 1) return "";
    return headers.find(name)->second;
  }
  std::string body;
};

// A plain TCP connection speaking HTTP/1.1 by hand, to see the bytes.
class RawConnection {
 public:
  explicit RawConnection(int port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ =
        ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
    // Read() gives up after a minute without a byte: the failure signal of
    // a response that never comes (no duration is asserted).
    SetReadTimeout(60);
  }
  ~RawConnection() { ::close(fd_); }

  bool connected() const { return connected_; }

  // Makes Read() give up after `seconds` without a byte: the failure signal
  // of the tests that expect an answer at once (no duration is asserted).
  void SetReadTimeout(int seconds) {
    timeval tv{seconds, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  }

  // True when nothing has arrived (and the connection is open).
  bool NothingYet() {
    if (!buffer_.empty()) return false;
    char c;
    ssize_t n = ::recv(fd_, &c, 1, MSG_DONTWAIT | MSG_PEEK);
    return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
  }

  // True when the server closed the connection without sending a byte.
  bool ClosedWithoutBytes() {
    char c;
    return buffer_.empty() && ::recv(fd_, &c, 1, 0) == 0;
  }

  bool Send(std::string_view bytes) {
    while (!bytes.empty()) {
      ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (n <= 0) return false;
      bytes.remove_prefix(static_cast<size_t>(n));
    }
    return true;
  }

  // Reads one status line and headers (e.g. an interim 100), returning the
  // status line.
  std::optional<std::string> ReadHead() {
    size_t header_end;
    while ((header_end = buffer_.find("\r\n\r\n")) == std::string::npos) {
      if (!Fill()) return std::nullopt;
    }
    std::string head = buffer_.substr(0, buffer_.find("\r\n"));
    buffer_.erase(0, header_end + 4);
    return head;
  }

  // Reads one response (Content-Length framed).
  std::optional<RawResponse> Read() {
    size_t header_end;
    while ((header_end = buffer_.find("\r\n\r\n")) == std::string::npos) {
      if (!Fill()) return std::nullopt;
    }
    RawResponse response;
    std::istringstream head(buffer_.substr(0, header_end));
    std::string line;
    std::getline(head, line);
    response.status = std::stoi(line.substr(9, 3));
    while (std::getline(head, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      size_t colon = line.find(':');
      if (colon == std::string::npos) continue;
      std::string name = line.substr(0, colon);
      for (char& c : name) c = static_cast<char>(std::tolower(c));
      std::string value = line.substr(colon + 1);
      value.erase(0, value.find_first_not_of(' '));
      response.headers.emplace(name, value);
    }
    size_t length = std::stoul(response.Single("content-length"));
    while (buffer_.size() < header_end + 4 + length) {
      if (!Fill()) return std::nullopt;
    }
    response.body = buffer_.substr(header_end + 4, length);
    buffer_.erase(0, header_end + 4 + length);
    return response;
  }

 private:
  bool Fill() {
    char chunk[65536];
    ssize_t n = ::recv(fd_, chunk, sizeof(chunk), 0);
    if (n <= 0) return false;
    buffer_.append(chunk, static_cast<size_t>(n));
    return true;
  }

  int fd_ = -1;
  bool connected_ = false;
  std::string buffer_;
};

// A DynamoDB request signed as the server's default (accept) auth wants.
inline std::string SignedPost(std::string_view op, std::string_view body) {
  HeaderList headers = {
      {"Host", "127.0.0.1"},
      {"Content-Type", "application/x-amz-json-1.0"},
      {"X-Amz-Date", "20240101T000000Z"},
      {"X-Amz-Target", "DynamoDB_20120810." + std::string(op)}};
  std::string auth =
      sigv4::AuthorizationHeader("POST", "/", "", headers, body, "AK", "SK",
                                 "us-east-1", "dynamodb", "20240101T000000Z");
  std::string request = "POST / HTTP/1.1\r\n";
  for (const auto& [name, value] : headers) {
    request += name + ": " + value + "\r\n";
  }
  request += "Authorization: " + auth + "\r\n";
  request += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  request += body;
  return request;
}

}  // namespace ddblab::server
