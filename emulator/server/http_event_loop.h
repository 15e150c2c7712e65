// emulator/server/http_event_loop.h: internal to the HTTP server
// (http_server.cc): what its registry sees of a connection, and one event
// loop. Not for other folders.
//
// Thread-safety: the counters are atomic; see each member.
#pragma once

#include <atomic>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <cstddef>
#include <cstdint>
#include <ctime>

namespace ddblab::server::http_internal {

// What the connection registry, the idle sweep and Shutdown see of a
// connection.
class Connection {
 public:
  virtual ~Connection() = default;
  // Closes the connection once any response being written is written;
  // thread-safe.
  virtual void Close() = 0;

  // Bumped on every completed read or write.
  std::atomic<uint32_t> activity{0};
  // True while the request is inside the Protocol.
  std::atomic<bool> handling{false};
  // True while its response is held for its due time (not idle then).
  std::atomic<bool> held{false};
  // Touched by the idle sweep only (on the control strand).
  uint32_t seen_activity = 0;
  time_t idle_ticks = 0;
};

// One event loop: an io_context run by one thread, serving the connections
// handed to it. The watchdog adds threads to a loop whose threads are all
// blocked inside handlers (see Watch()); a loop never has fewer than one.
struct EventLoop {
  EventLoop() : guard(boost::asio::make_work_guard(ioc)) {}
  // Declared first: sessions destroyed with `ioc` still count down.
  std::atomic<size_t> running{0};      // threads inside ioc.run()
  std::atomic<size_t> in_handler{0};   // of them, inside the Protocol
  std::atomic<uint64_t> finished{0};   // requests answered, ever
  std::atomic<size_t> connections{0};  // open connections it serves
  boost::asio::io_context ioc;
  // Keeps run() going while the loop has no connection; reset on shutdown.
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type>
      guard;
};

}  // namespace ddblab::server::http_internal
