#include "emulator/server/http_server.h"

#include <httplib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <thread>
#include <utility>

#include "emulator/server/crc32.h"

namespace ddblab::server {
namespace {

constexpr std::string_view kShuttingDownBody =
    "{\"__type\":\"com.amazonaws.dynamodb.v20120810#ServiceUnavailable\","
    "\"message\":\"ddblab is shutting down\"}";

// cpp-httplib decodes request bodies itself (and wrongly for DynamoDB:
// concatenated gzip members fail, unknown codings pass through), so the
// header is renamed before the body is read and restored in ToWire().
constexpr const char* kHiddenContentEncoding = "X-Ddblab-Content-Encoding";

bool IsPseudoHeader(const std::string& name) {
  // cpp-httplib records the peer and local addresses as request headers.
  return name == "REMOTE_ADDR" || name == "REMOTE_PORT" ||
         name == "LOCAL_ADDR" || name == "LOCAL_PORT";
}

WireRequest ToWire(const httplib::Request& req) {
  WireRequest wire;
  wire.method = req.method;
  std::string_view target = req.target;
  size_t question = target.find('?');
  wire.path = std::string(target.substr(0, question));
  if (question != std::string_view::npos) {
    wire.query = std::string(target.substr(question + 1));
  }
  wire.headers.reserve(req.headers.size());
  for (const auto& [name, value] : req.headers) {
    if (IsPseudoHeader(name)) continue;
    // The pre-routing handler hid Content-Encoding from the library so the
    // body arrives as sent; Protocol decodes it.
    if (name == kHiddenContentEncoding) {
      wire.headers.emplace_back("Content-Encoding", value);
      continue;
    }
    wire.headers.emplace_back(name, value);
  }
  wire.body = req.body;
  return wire;
}

void ToHttplib(WireResponse&& wire, httplib::Response& res) {
  res.status = wire.status;
  for (auto& [name, value] : wire.headers) res.set_header(name, value);
  if (!wire.content_type.empty()) {
    res.set_content(std::move(wire.body), wire.content_type.c_str());
  } else {
    res.body = std::move(wire.body);
  }
}

}  // namespace

size_t DefaultThreadCount() {
  size_t cores = std::max(1u, std::thread::hardware_concurrency());
  return std::max<size_t>(16, 4 * cores);
}

// httplib::Server with access to its listening socket (to raise the listen
// backlog above the library's 5).
class HttpServer::Impl : public httplib::Server {
 public:
  void RaiseBacklog() {
    socket_t fd = svr_sock_;
    if (fd != INVALID_SOCKET) ::listen(fd, SOMAXCONN);
  }
  // Like stop(), but also effective before listen_after_bind() started:
  // the accept loop exits as soon as it sees the socket gone.
  void ForceStop() {
    socket_t fd = svr_sock_.exchange(INVALID_SOCKET);
    if (fd != INVALID_SOCKET) {
      ::shutdown(fd, SHUT_RDWR);
      ::close(fd);
    }
  }
};

HttpServer::HttpServer(Protocol& protocol, Logger& logger,
                       HttpServerOptions options)
    : protocol_(protocol),
      logger_(logger),
      options_(std::move(options)),
      impl_(std::make_unique<Impl>()) {
  size_t threads =
      options_.threads == 0 ? DefaultThreadCount() : options_.threads;
  impl_->new_task_queue = [threads] {
    return new httplib::ThreadPool(threads);
  };
  impl_->set_payload_max_length(kMaxRequestBytes);
  impl_->set_keep_alive_max_count(1000000);
  impl_->set_keep_alive_timeout(options_.keep_alive_timeout_seconds);
  impl_->set_tcp_nodelay(true);
  // The library's default adds SO_REUSEPORT, which would let a second
  // ddblab bind the same port and silently share its connections. Keep
  // SO_REUSEADDR only (restart right after a crash, despite TIME_WAIT).
  impl_->set_socket_options([](socket_t fd) {
    int yes = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });

  auto handle = [this](const httplib::Request& req, httplib::Response& res) {
    if (!EnterRequest()) {
      WireResponse busy;
      busy.status = 503;
      busy.content_type = "application/x-amz-json-1.0";
      busy.body = std::string(kShuttingDownBody);
      protocol_.Stamp(busy);
      ToHttplib(std::move(busy), res);
      return;
    }
    WireResponse wire = protocol_.Handle(ToWire(req));
    LeaveRequest();
    ToHttplib(std::move(wire), res);
  };
  const std::string any = ".*";
  impl_->Get(any, handle);
  impl_->Post(any, handle);
  impl_->Put(any, handle);
  impl_->Patch(any, handle);
  impl_->Delete(any, handle);
  impl_->Options(any, handle);

  // Runs before the body is read: see kHiddenContentEncoding. The Request is
  // a non-const object owned by the library, so the const_cast is sound.
  impl_->set_pre_routing_handler(
      [](const httplib::Request& req, httplib::Response&) {
        auto& headers = const_cast<httplib::Request&>(req).headers;
        for (auto it = headers.begin(); it != headers.end();) {
          if (HeaderNameEquals(it->first, "Content-Encoding")) {
            std::string value = it->second;
            it = headers.erase(it);
            headers.emplace(kHiddenContentEncoding, std::move(value));
          } else {
            ++it;
          }
        }
        return httplib::Server::HandlerResponse::Unhandled;
      });

  // Runs after any compression, just before the response is written.
  impl_->set_post_routing_handler(
      [this](const httplib::Request&, httplib::Response& res) {
        if (!res.has_header("x-amzn-RequestId")) {
          // Made by the library itself (bad request line, 413, ...).
          WireResponse wire;
          wire.status = res.status;
          wire.body = res.body;
          protocol_.Stamp(wire);
          for (auto& [name, value] : wire.headers) res.set_header(name, value);
        } else if (res.has_header("Content-Encoding")) {
          res.headers.erase("x-amz-crc32");  // set_header() would add a second
          res.set_header("x-amz-crc32", std::to_string(Crc32(res.body)));
        }
      });
}

HttpServer::~HttpServer() = default;

Result<int> HttpServer::Bind() {
  int port = 0;
  if (options_.port == 0) {
    port = impl_->bind_to_any_port(options_.host);
    if (port < 0) port = 0;
  } else if (impl_->bind_to_port(options_.host, options_.port)) {
    port = options_.port;
  }
  if (port <= 0) {
    return Error::Internal("cannot listen on " + options_.host + ":" +
                           std::to_string(options_.port) +
                           " (address in use or host not found)");
  }
  impl_->RaiseBacklog();
  port_ = port;
  return port;
}

void HttpServer::Serve() { impl_->listen_after_bind(); }

bool HttpServer::EnterRequest() {
  std::lock_guard<std::mutex> lock(mu_);
  if (closed_) return false;
  ++in_flight_;
  return true;
}

void HttpServer::LeaveRequest() {
  std::lock_guard<std::mutex> lock(mu_);
  if (--in_flight_ == 0 && closed_) drained_.notify_all();
}

void HttpServer::Shutdown() {
  impl_->ForceStop();
  std::unique_lock<std::mutex> lock(mu_);
  closed_ = true;
  drained_.wait(lock, [this] { return in_flight_ == 0; });
}

}  // namespace ddblab::server
