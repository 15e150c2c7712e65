#include "emulator/server/http_server.h"

#include <algorithm>
#include <atomic>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>
#include <functional>
#include <optional>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "emulator/server/http_event_loop.h"
#include "emulator/server/http_hold.h"
#include "emulator/server/http_serialize.h"
#include "emulator/server/http_session.h"

namespace ddblab::server {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using error_code = boost::system::error_code;
using http_internal::Connection;
using http_internal::EventLoop;
using http_internal::Session;

namespace {

constexpr std::string_view kShuttingDownBody =
    "{\"__type\":\"com.amazonaws.dynamodb.v20120810#ServiceUnavailable\","
    "\"message\":\"ddblab is shutting down\"}";
// How long every thread must have been inside a handler, with none
// finishing, before the watchdog adds a thread.
constexpr auto kWatchdogTick = std::chrono::milliseconds(5);
// Connections taken from the backlog per accept completion, at most.
constexpr size_t kAcceptsPerTurn = 1024;

}  // namespace

class HttpServer::Impl {
 public:
  explicit Impl(HttpServer& owner);
  ~Impl();

  Result<int> Bind();
  void Serve();
  void StopAccepting();
  void CloseAll();

  // Runs the Protocol (or answers 503 once shut down), counting the
  // threads inside handlers for the watchdog.
  WireResponse Answer(EventLoop& loop, const WireRequest& request);
  void Stamp(WireResponse& response) { owner_.protocol_.Stamp(response); }
  // Takes `bytes` of the request memory budget; false when they are not
  // left (nothing taken).
  bool Reserve(size_t bytes);
  void Release(size_t bytes) { reserved_.fetch_sub(bytes); }
  size_t request_memory_budget() const {
    return owner_.options_.request_memory_budget;
  }
  // Keeps a response until `due` (http_hold.h); `release` posts it back to
  // its session.
  void Hold(DueTime due, std::function<void()> release) {
    hold_->Add(std::move(due), std::move(release));
  }
  // Sends every held response now, and any later one at once.
  void ReleaseHeld() { hold_->ReleaseAll(); }
  void Unregister(EventLoop& loop, Connection* connection);
  size_t max_connections() const { return owner_.options_.max_connections; }

 private:
  template <class Stream>
  void StartSession(EventLoop& loop, Stream stream, bool refuse);
  EventLoop& NextLoop();
  void Accept();
  void OnAccept(EventLoop& loop, const error_code& ec, tcp::socket socket);
  // Hands an accepted connection to `loop` (or refuses it: too many open).
  void Adopt(EventLoop& loop, tcp::socket socket);
  void Sweep();
  void SweepOnce();
  // A loop's own thread (runs until the loop is out of work), or one the
  // watchdog adds (leaves once no thread of the loop is inside a handler).
  void StartThread(EventLoop& loop, bool added);
  void Watch();

  HttpServer& owner_;
  // Responses due later (latency faults), all on one thread. Destroyed
  // first (~Impl): its release actions hold sessions.
  std::unique_ptr<http_internal::ResponseHold> hold_ =
      std::make_unique<http_internal::ResponseHold>();

  Mutex connections_mu_;
  std::unordered_map<Connection*, std::weak_ptr<Connection>> connections_
      DDBLAB_GUARDED_BY(connections_mu_);
  bool refuse_connections_ DDBLAB_GUARDED_BY(connections_mu_) = false;
  std::atomic<bool> stopping_{false};
  std::atomic<size_t> reserved_{0};  // of the request memory budget

  struct Worker {
    std::thread thread;
    std::atomic<bool> done{false};
  };
  Mutex threads_mu_;
  std::vector<std::unique_ptr<Worker>> workers_ DDBLAB_GUARDED_BY(threads_mu_);
  std::atomic<size_t> live_threads_{0};
  std::atomic<size_t> in_handler_{0};  // over all loops
  Mutex watchdog_mu_;
  std::condition_variable_any watchdog_cv_;
  std::atomic<bool> watchdog_sleeping_{false};
  std::atomic<bool> watchdog_stop_{false};

  // Destroyed first (in ~Impl, control before loops, loop 0 first): pending
  // handlers hold sessions, whose destructors unregister from the map above.
  std::optional<asio::ssl::context> tls_;
  std::vector<std::unique_ptr<EventLoop>> loops_;
  size_t next_loop_ = 0;  // on the control strand
  // The acceptor, the idle sweep and the accept retry run on loop 0.
  struct Control {
    explicit Control(asio::io_context& ioc)
        : strand(asio::make_strand(ioc)),
          acceptor(strand),
          sweep(strand),
          accept_retry(strand) {}
    asio::strand<asio::io_context::executor_type> strand;
    tcp::acceptor acceptor;
    asio::steady_timer sweep;
    asio::steady_timer accept_retry;
  };
  std::optional<Control> control_;
};

Result<int> HttpServer::Impl::Bind() {
  const HttpServerOptions& options = owner_.options_;
  if (!options.tls_cert_file.empty() || !options.tls_key_file.empty()) {
    tls_.emplace(asio::ssl::context::tls_server);
    tls_->set_options(asio::ssl::context::default_workarounds |
                      asio::ssl::context::no_sslv2 |
                      asio::ssl::context::no_sslv3);
    error_code ec;
    tls_->use_certificate_chain_file(options.tls_cert_file, ec);
    if (ec) {
      return Error::Internal("cannot load the TLS certificate " +
                             options.tls_cert_file + ": " + ec.message());
    }
    tls_->use_private_key_file(options.tls_key_file, asio::ssl::context::pem,
                               ec);
    if (ec) {
      return Error::Internal("cannot load the TLS key " + options.tls_key_file +
                             ": " + ec.message());
    }
  }
  auto fail = [&] {
    return Error::Internal("cannot listen on " + options.host + ":" +
                           std::to_string(options.port) +
                           " (address in use or host not found)");
  };
  error_code ec;
  tcp::resolver resolver(loops_[0]->ioc);
  auto endpoints = resolver.resolve(
      options.host, std::to_string(options.port),
      tcp::resolver::passive | tcp::resolver::numeric_service, ec);
  if (ec || endpoints.empty()) return fail();
  tcp::endpoint endpoint = endpoints.begin()->endpoint();
  control_->acceptor.open(endpoint.protocol(), ec);
  if (ec) return fail();
  // SO_REUSEADDR only (restart right after a crash, despite TIME_WAIT); not
  // SO_REUSEPORT, which would let a second ddblab share the port.
  control_->acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  control_->acceptor.bind(endpoint, ec);
  if (ec) return fail();
  control_->acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return fail();
  // OnAccept drains the backlog with synchronous accepts that must not wait.
  control_->acceptor.non_blocking(true, ec);
  if (ec) return fail();
  int port = control_->acceptor.local_endpoint(ec).port();
  if (ec) return fail();
  Accept();
  Sweep();
  return port;
}

HttpServer::Impl::Impl(HttpServer& owner) : owner_(owner) {
  size_t count = owner_.options_.threads == 0 ? DefaultThreadCount()
                                              : owner_.options_.threads;
  for (size_t i = 0; i < count; ++i) {
    loops_.push_back(std::make_unique<EventLoop>());
  }
  control_.emplace(loops_[0]->ioc);
}

HttpServer::Impl::~Impl() {
  // Held responses are released (posted to their loops, which are not run
  // again) and their sessions let go before the loops go.
  hold_.reset();
  // The acceptor's pending accept (in loop 0) holds a socket of another
  // loop: loop 0 goes first, the others after.
  control_.reset();
  for (auto& loop : loops_) loop.reset();
}

// The loop with the fewest open connections, ties taken in turn.
EventLoop& HttpServer::Impl::NextLoop() {
  size_t best = next_loop_;
  for (size_t i = 1; i < loops_.size(); ++i) {
    size_t candidate = (next_loop_ + i) % loops_.size();
    if (loops_[candidate]->connections < loops_[best]->connections) {
      best = candidate;
    }
  }
  next_loop_ = (best + 1) % loops_.size();
  return *loops_[best];
}

void HttpServer::Impl::Accept() {
  EventLoop& loop = NextLoop();
  control_->acceptor.async_accept(
      asio::make_strand(loop.ioc),
      asio::bind_executor(control_->strand, [this, &loop](const error_code& ec,
                                                          tcp::socket socket) {
        OnAccept(loop, ec, std::move(socket));
      }));
}

void HttpServer::Impl::OnAccept(EventLoop& loop, const error_code& ec,
                                tcp::socket socket) {
  if (stopping_ || !control_->acceptor.is_open()) return;
  if (ec) {
    // Out of descriptors (or a transient error): retry shortly rather than
    // spin; the connection stays in the backlog.
    owner_.logger_.Log(LogLevel::kWarn, "accept failed: " + ec.message());
    control_->accept_retry.expires_after(std::chrono::milliseconds(50));
    control_->accept_retry.async_wait([this](const error_code& e) {
      if (!e && !stopping_) Accept();
    });
    return;
  }
  Adopt(loop, std::move(socket));
  // Take what else waits in the backlog now: an asynchronous accept
  // completes behind every handler queued on loop 0, one connection per
  // turn of a busy loop (256 connections opened at once took 2 s).
  for (size_t i = 0; i < kAcceptsPerTurn && !stopping_; ++i) {
    EventLoop& next = NextLoop();
    tcp::socket more(asio::make_strand(next.ioc));
    error_code more_ec;
    control_->acceptor.accept(more, more_ec);  // non-blocking (Bind)
    if (more_ec) break;  // would block, or an error async_accept meets
    Adopt(next, std::move(more));
  }
  Accept();
}

void HttpServer::Impl::Adopt(EventLoop& loop, tcp::socket socket) {
  error_code ignored;
  socket.set_option(tcp::no_delay(true), ignored);
  bool refuse;
  {
    MutexLock lock(connections_mu_);
    refuse = connections_.size() >= owner_.options_.max_connections;
  }
  if (tls_) {
    StartSession(loop, asio::ssl::stream<tcp::socket>(std::move(socket), *tls_),
                 refuse);
  } else {
    StartSession(loop, std::move(socket), refuse);
  }
}

template <class Stream>
void HttpServer::Impl::StartSession(EventLoop& loop, Stream stream,
                                    bool refuse) {
  auto session = std::make_shared<Session<Impl, Stream>>(
      *this, loop, std::move(stream), refuse);
  bool registered = false;
  {
    MutexLock lock(connections_mu_);
    if (!refuse_connections_) {  // else shutting down: dropped, closed
      connections_.emplace(session.get(), session);
      registered = true;
    }
  }
  ++loop.connections;
  // The session's first step runs on its own loop.
  if (registered) {
    asio::post(session->executor(), [session] { session->Start(); });
  }
}

bool HttpServer::Impl::Reserve(size_t bytes) {
  const size_t budget = owner_.options_.request_memory_budget;
  size_t now = reserved_.load();
  do {
    if (bytes > budget || now > budget - bytes) return false;
  } while (!reserved_.compare_exchange_weak(now, now + bytes));
  return true;
}

void HttpServer::Impl::Unregister(EventLoop& loop, Connection* connection) {
  --loop.connections;
  MutexLock lock(connections_mu_);
  connections_.erase(connection);
}

void HttpServer::Impl::Sweep() {
  control_->sweep.expires_after(std::chrono::seconds(1));
  control_->sweep.async_wait([this](const error_code& ec) {
    if (ec || stopping_) return;
    SweepOnce();
    Sweep();
  });
}

void HttpServer::Impl::SweepOnce() {
  std::vector<std::shared_ptr<Connection>> open;
  {
    MutexLock lock(connections_mu_);
    open.reserve(connections_.size());
    for (auto& [raw, weak] : connections_) {
      if (auto strong = weak.lock()) open.push_back(std::move(strong));
    }
  }
  for (auto& connection : open) {
    uint32_t now = connection->activity.load(std::memory_order_relaxed);
    if (now != connection->seen_activity || connection->handling ||
        connection->held) {
      connection->seen_activity = now;
      connection->idle_ticks = 0;
    } else if (++connection->idle_ticks >=
               owner_.options_.idle_timeout_seconds) {
      connection->Close();
    }
  }
}

void HttpServer::Impl::StopAccepting() {
  stopping_ = true;
  asio::post(control_->strand, [this] {
    error_code ignored;
    control_->acceptor.close(ignored);
    control_->sweep.cancel();
    control_->accept_retry.cancel();
    // No connection is handed to a loop after this (OnAccept sees
    // stopping_): each loop's run() returns once its connections are gone.
    for (auto& loop : loops_) loop->guard.reset();
  });
}

void HttpServer::Impl::CloseAll() {
  std::vector<std::shared_ptr<Connection>> open;
  {
    MutexLock lock(connections_mu_);
    refuse_connections_ = true;
    for (auto& [raw, weak] : connections_) {
      if (auto strong = weak.lock()) open.push_back(std::move(strong));
    }
  }
  for (auto& connection : open) connection->Close();
}

WireResponse HttpServer::Impl::Answer(EventLoop& loop,
                                      const WireRequest& request) {
  ++loop.in_handler;
  if (in_handler_.fetch_add(1) == 0 && watchdog_sleeping_) {
    MutexLock lock(watchdog_mu_);
    watchdog_cv_.notify_one();
  }
  WireResponse response;
  if (owner_.EnterRequest()) {
    response = owner_.protocol_.Handle(request);
    owner_.LeaveRequest();
  } else {
    response.status = 503;
    response.content_type = "application/x-amz-json-1.0";
    response.body = std::string(kShuttingDownBody);
    owner_.protocol_.Stamp(response);
  }
  in_handler_.fetch_sub(1);
  --loop.in_handler;
  loop.finished.fetch_add(1, std::memory_order_relaxed);
  return response;
}

void HttpServer::Impl::StartThread(EventLoop& loop, bool added) {
  MutexLock lock(threads_mu_);
  // Join the added threads that have left their loops.
  std::erase_if(workers_, [](const std::unique_ptr<Worker>& worker) {
    if (!worker->done) return false;
    worker->thread.join();
    return true;
  });
  ++loop.running;
  ++live_threads_;
  auto worker = std::make_unique<Worker>();
  Worker* self = worker.get();
  worker->thread = std::thread([this, &loop, added, self] {
    if (!added) {
      loop.ioc.run();
    } else {
      // A handler of this loop was blocked: serve until none is (the
      // loop's own thread is then free again), so that a loop does not
      // keep two threads waking each other.
      while (loop.ioc.run_one() != 0 && loop.in_handler.load() != 0) {
      }
    }
    --loop.running;
    --live_threads_;
    self->done = true;
  });
  workers_.push_back(std::move(worker));
}

// Adds a thread to a loop whose threads are all inside handlers with none
// finishing during a whole tick (they are blocked, not busy), so the other
// connections of that loop are served. Ticks only while requests are being
// served.
void HttpServer::Impl::Watch() {
  const size_t max_threads = owner_.options_.max_connections + 2;
  std::vector<uint64_t> before(loops_.size());
  MutexLock lock(watchdog_mu_);
  while (!watchdog_stop_) {
    uint64_t finished_before = 0;
    for (size_t i = 0; i < loops_.size(); ++i) {
      before[i] = loops_[i]->finished.load();
      finished_before += before[i];
    }
    watchdog_cv_.wait_for(lock, kWatchdogTick,
                          [this] { return watchdog_stop_.load(); });
    if (watchdog_stop_) break;
    uint64_t finished_after = 0;
    for (auto& loop : loops_) finished_after += loop->finished.load();
    if (in_handler_.load() == 0 && finished_after == finished_before) {
      watchdog_sleeping_ = true;
      watchdog_cv_.wait(lock, [this] {
        return watchdog_stop_.load() || in_handler_.load() > 0;
      });
      watchdog_sleeping_ = false;
      continue;
    }
    for (size_t i = 0; i < loops_.size(); ++i) {
      EventLoop& loop = *loops_[i];
      size_t busy = loop.in_handler.load();
      if (busy > 0 && busy >= loop.running.load() &&
          loop.finished.load() == before[i] &&
          live_threads_.load() < max_threads) {
        StartThread(loop, true);
      }
    }
  }
}

void HttpServer::Impl::Serve() {
  for (size_t i = 1; i < loops_.size(); ++i) StartThread(*loops_[i], false);
  std::thread watchdog([this] { Watch(); });
  EventLoop& first = *loops_[0];
  ++first.running;
  first.ioc.run();
  --first.running;
  // Loop 0 ran out of work (shut down); the others return as their
  // connections close. The watchdog keeps watching until they have: a
  // handler of another loop may still be blocked.
  auto join_workers = [this] {
    for (;;) {
      std::vector<std::unique_ptr<Worker>> to_join;
      {
        MutexLock lock(threads_mu_);
        to_join.swap(workers_);
      }
      if (to_join.empty()) return;
      for (auto& worker : to_join) worker->thread.join();
    }
  };
  join_workers();
  {
    MutexLock lock(watchdog_mu_);
    watchdog_stop_ = true;
    watchdog_cv_.notify_all();
  }
  watchdog.join();
  join_workers();  // any added after the first pass
}

size_t DefaultThreadCount() {
  return std::max(1u, std::thread::hardware_concurrency());
}

HttpServer::HttpServer(Protocol& protocol, Logger& logger,
                       HttpServerOptions options)
    : protocol_(protocol),
      logger_(logger),
      options_(std::move(options)),
      impl_(std::make_unique<Impl>(*this)) {}

HttpServer::~HttpServer() = default;

Result<int> HttpServer::Bind() {
  DDBLAB_ASSIGN_OR_RETURN(port_, impl_->Bind());
  return port_;
}

void HttpServer::Serve() { impl_->Serve(); }

bool HttpServer::EnterRequest() {
  MutexLock lock(mu_);
  if (closed_) return false;
  ++in_flight_;
  return true;
}

void HttpServer::LeaveRequest() {
  MutexLock lock(mu_);
  if (--in_flight_ == 0 && closed_) drained_.notify_all();
}

void HttpServer::Shutdown() {
  impl_->StopAccepting();
  {
    MutexLock lock(mu_);
    closed_ = true;
    while (in_flight_ != 0) drained_.wait(lock);
  }
  // The held requests were executed: answer them now, whatever the clock
  // (one held from here on is answered at once).
  impl_->ReleaseHeld();
  impl_->CloseAll();
}

}  // namespace ddblab::server
