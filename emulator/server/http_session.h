// emulator/server/http_session.h: internal to the HTTP server
// (http_server.cc): one connection's life — read a request, answer it on the
// same thread, write the response in one write, read the next. A response
// due later (latency fault) goes to the server's hold (http_hold.h) and is
// written when released; the connection reads nothing meanwhile. Not for
// other folders.
//
// `Server` is the server's implementation: Answer(loop, request),
// Hold(due, release), Stamp(response), Unregister(loop, connection),
// max_connections(), and the request memory budget: Reserve(bytes),
// Release(bytes), request_memory_budget().
//
// Thread-safety: a Session runs on its socket's strand; Close() may be called
// from any thread.
#pragma once

#include <algorithm>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "emulator/server/http_event_loop.h"
#include "emulator/server/http_serialize.h"
#include "emulator/server/http_server.h"
#include "emulator/server/protocol.h"
#include "emulator/server/wire_error.h"
#include "emulator/server/wire_message.h"

namespace ddblab::server::http_internal {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;
using error_code = boost::system::error_code;

// DynamoDB refuses a request line, or header fields (all of them), of more
// than 16 KB each with a 400. The parser reads at most both together (with
// room for the blank line); OnHeader then checks each.
inline constexpr size_t kMaxRequestLineBytes = 16 * 1024;
inline constexpr size_t kMaxHeaderFieldBytes = 16 * 1024;
inline constexpr uint32_t kMaxHeaderBytes =
    kMaxRequestLineBytes + kMaxHeaderFieldBytes + 2;
// A connection's read buffer: most requests arrive in one read. A request
// that does not doubles it, up to kMaxReadBufferBytes, so that the
// connection's next one does (a BatchWriteItem of 25 small items is ~7 KB).
inline constexpr size_t kReadBufferBytes = 4096;
inline constexpr size_t kMaxReadBufferBytes = 64 * 1024;
// Bytes read and discarded after a final response before closing (so the
// client sees the response, not a reset), at most.
inline constexpr size_t kMaxDrainBytes = 32 * 1024 * 1024;

inline std::string_view View(boost::beast::string_view s) {
  return {s.data(), s.size()};
}

// "1024 MiB", or "20000 bytes" when not a whole number of MiB.
inline std::string BudgetText(size_t bytes) {
  constexpr size_t kMiB = size_t{1} << 20;
  return bytes % kMiB == 0 ? std::to_string(bytes / kMiB) + " MiB"
                           : std::to_string(bytes) + " bytes";
}

inline bool IsParseError(const error_code& ec) {
  return ec.category() ==
         http::make_error_code(http::error::bad_method).category();
}

// One connection: reads a request, answers it on the same thread, writes
// the response in one write, and reads the next. Every step runs on the
// connection's strand (the socket's executor) on its event loop; while the
// loop has one thread, the strand costs no hand-off.
template <class Server, class Stream>
class Session final
    : public Connection,
      public std::enable_shared_from_this<Session<Server, Stream>> {
 public:
  static constexpr bool kTls = !std::is_same_v<Stream, tcp::socket>;

  Session(Server& server, EventLoop& loop, Stream stream, bool refuse)
      : server_(server),
        loop_(loop),
        stream_(std::move(stream)),
        refuse_(refuse) {
    // Room for a whole ordinary request in the first read (beast reads at
    // most max(512, free capacity) bytes at a time).
    buffer_.reserve(kReadBufferBytes);
  }
  ~Session() override {
    ReleaseMemory();
    server_.Unregister(loop_, this);
  }

  void Start() {
    if constexpr (kTls) {
      stream_.async_handshake(
          asio::ssl::stream_base::server,
          [self = this->shared_from_this()](const error_code& ec) {
            ++self->activity;
            if (ec) return self->CloseNow();
            self->refuse_ ? self->Refuse() : self->ReadHeader();
          });
    } else {
      // Responses are written by a non-blocking send first (Reply).
      error_code ignored;
      Socket().non_blocking(true, ignored);
      refuse_ ? Refuse() : ReadHeader();
    }
  }

  auto executor() { return stream_.get_executor(); }

  void Close() override {
    asio::post(stream_.get_executor(), [self = this->shared_from_this()] {
      self->close_requested_ = true;
      if (self->state_ == State::kReading || self->state_ == State::kDraining) {
        self->CloseNow();
      }
    });
  }

 private:
  enum class State { kReading, kHandling, kHeld, kWriting, kDraining, kClosed };

  tcp::socket& Socket() {
    if constexpr (kTls) {
      return stream_.next_layer();
    } else {
      return stream_;
    }
  }

  void ReadHeader() {
    state_ = State::kReading;
    if (close_requested_) return CloseNow();
    parser_.emplace();
    parser_->header_limit(kMaxHeaderBytes);
    parser_->body_limit(kMaxRequestBytes);
    http::async_read_header(
        stream_, buffer_, *parser_,
        [self = this->shared_from_this()](const error_code& ec, size_t) {
          self->OnHeader(ec);
        });
  }

  void OnHeader(const error_code& ec) {
    ++activity;
    if (ec) return OnReadError(ec);
    if (!WithinHeaderLimits()) return Fail(400);
    if (!ReserveMemory()) return RefuseOverBudget();
    if (error_code parse_ec = ParseAvailableBody()) {
      return OnReadError(parse_ec);
    }
    auto expect = parser_->get()[http::field::expect];
    if (!parser_->is_done() && boost::beast::iequals(expect, "100-continue")) {
      out_ = "HTTP/1.1 100 Continue\r\n\r\n";
      asio::async_write(
          stream_, asio::buffer(out_),
          [self = this->shared_from_this()](const error_code& e, size_t) {
            ++self->activity;
            if (e) return self->CloseNow();
            self->ReadBody();
          });
      return;
    }
    ReadBody();
  }

  // The request line ("POST / HTTP/1.1\r\n") and the header fields
  // ("Name: value\r\n" each) within DynamoDB's 16 KB each.
  bool WithinHeaderLimits() {
    const auto& request = parser_->get();
    const size_t line = request.method_string().size() + 1 +
                        request.target().size() + 1 + 8 + 2;
    if (line > kMaxRequestLineBytes) return false;
    size_t fields = 0;
    for (const auto& field : request) {
      fields += field.name_string().size() + 2 + field.value().size() + 2;
    }
    return fields <= kMaxHeaderFieldBytes;
  }

  // Parses the body bytes already read with the header and, on plain TCP,
  // reads without waiting what the socket holds of the rest (up to 64 KB a
  // read). Beast's async_read would read 512 bytes at a time and post its
  // completion when it had nothing to wait for: a trip through the event
  // loop (an extra epoll_wait) per piece.
  error_code ParseAvailableBody() {
    error_code ec;
    parser_->eager(true);
    while (!parser_->is_done()) {
      if (buffer_.size() != 0) {
        size_t used = parser_->put(buffer_.data(), ec);
        buffer_.consume(used);
        if (ec == http::error::need_more) {
          ec = {};
        } else if (ec) {
          return ec;
        }
        if (parser_->is_done()) break;
      }
      if constexpr (kTls) {
        break;
      } else {
        size_t want = 65536;
        if (auto left = parser_->content_length_remaining()) {
          want = static_cast<size_t>(std::clamp<uint64_t>(*left, 512, want));
        }
        if (buffer_.capacity() < kMaxReadBufferBytes) {
          buffer_.reserve(
              std::min(2 * buffer_.capacity(), kMaxReadBufferBytes));
        }
        error_code read_ec;
        size_t n = Socket().read_some(buffer_.prepare(want), read_ec);
        // Would block, or an error the asynchronous read meets again.
        if (read_ec) break;
        buffer_.commit(n);
      }
    }
    return {};
  }

  void ReadBody() {
    if (error_code ec = ParseAvailableBody()) return OnReadError(ec);
    if (parser_->is_done()) return Answer();
    http::async_read(
        stream_, buffer_, *parser_,
        [self = this->shared_from_this()](const error_code& ec, size_t) {
          ++self->activity;
          if (ec) return self->OnReadError(ec);
          self->Answer();
        });
  }

  // Charges the request to the server's memory budget before its body is
  // read (http_server.h: request_memory_budget).
  bool ReserveMemory() {
    uint64_t length = 0;
    if (parser_->chunked()) {
      length = kMaxRequestBytes;
    } else if (auto given = parser_->content_length()) {
      if (*given > kMaxRequestBytes) return true;  // a 413, nothing read
      length = *given;
    }
    if (length == 0) return true;
    const size_t bytes = static_cast<size_t>(length) * kRequestMemoryFactor;
    if (!server_.Reserve(bytes)) return false;
    reserved_ = bytes;
    return true;
  }

  void ReleaseMemory() {
    if (reserved_ == 0) return;
    server_.Release(reserved_);
    reserved_ = 0;
  }

  // Over the memory budget: answered without reading the body, then closed.
  void RefuseOverBudget() {
    WireResponse response = ErrorResponse(Error::Of(
        ErrorType::kRequestLimitExceeded,
        "ddblab: the requests being read take more than the server's "
        "request memory budget (" +
            BudgetText(server_.request_memory_budget()) + "); retry later"));
    server_.Stamp(response);
    Reply(response, false, false, 11);
  }

  void OnReadError(const error_code& ec) {
    if (ec == http::error::body_limit) return Fail(413);
    if (ec == http::error::end_of_stream ||
        ec == http::error::partial_message || !IsParseError(ec)) {
      return CloseNow();
    }
    Fail(400);
  }

  void Answer() {
    auto& request = parser_->get();
    WireRequest wire;
    wire.method = std::string(request.method_string());
    std::string_view target = View(request.target());
    size_t question = target.find('?');
    wire.path = std::string(target.substr(0, question));
    if (question != std::string_view::npos) {
      wire.query = std::string(target.substr(question + 1));
    }
    wire.headers.reserve(8);
    for (const auto& field : request) {
      wire.headers.emplace_back(std::string(field.name_string()),
                                std::string(field.value()));
    }
    wire.body = request.body();
    state_ = State::kHandling;
    handling = true;
    WireResponse response = server_.Answer(loop_, wire);
    handling = false;
    ReleaseMemory();
    if (response.due) return Hold(std::move(response));
    Send(response);
  }

  // Writes the answer to the request in parser_ (or drops the connection).
  void Send(const WireResponse& response) {
    if (response.drop_connection) return CloseNow();
    auto& request = parser_->get();
    Reply(response, request.keep_alive() && !close_requested_,
          request.method() == http::verb::head, request.version());
  }

  // A latency fault: the response waits for its due time in the server's
  // hold, without a thread and without reading further requests; the
  // work guard keeps the loop running for it (shutdown releases it).
  void Hold(WireResponse response) {
    state_ = State::kHeld;
    held = true;
    hold_work_.emplace(stream_.get_executor());
    DueTime due = std::move(*response.due);
    response.due.reset();
    // Runs once: moves the response on to the session's strand.
    server_.Hold(std::move(due), [self = this->shared_from_this(),
                                  response = std::move(response)]() mutable {
      auto executor = self->executor();
      asio::post(executor, [self = std::move(self),
                            response = std::move(response)]() mutable {
        self->Release(std::move(response));
      });
    });
  }

  void Release(WireResponse response) {
    held = false;
    ++activity;
    server_.Stamp(response);  // the Date it is sent at
    Send(response);
    hold_work_.reset();  // after Send: its write (if any) is the loop's work
  }

  void Reply(const WireResponse& response, bool keep_alive, bool head,
             unsigned version) {
    out_.clear();
    SerializeResponse(response, keep_alive, head, version, out_);
    state_ = State::kWriting;
    size_t sent = 0;
    if constexpr (!kTls) {
      // One non-blocking send, the whole response as a rule: no completion
      // to post, so the next read starts on this thread at once. What the
      // socket does not take now (a full send buffer) goes asynchronously.
      error_code ec;
      sent = Socket().write_some(asio::buffer(out_), ec);
      if (ec && ec != asio::error::would_block &&
          ec != asio::error::try_again) {
        return CloseNow();
      }
      if (sent == out_.size()) return AfterWrite(keep_alive);
    }
    asio::async_write(stream_, asio::buffer(out_) + sent,
                      [self = this->shared_from_this(), keep_alive](
                          const error_code& ec, size_t) {
                        if (ec) return self->CloseNow();
                        self->AfterWrite(keep_alive);
                      });
  }

  void AfterWrite(bool keep_alive) {
    ++activity;
    if (keep_alive && !close_requested_) {
      ReadHeader();
    } else {
      FinishAndClose();
    }
  }

  // Answers a request the library could not read, then closes.
  void Fail(int status) {
    WireResponse response;
    response.status = status;
    server_.Stamp(response);
    Reply(response, false, false, 11);
  }

  // Over --max-connections: answer at once (before reading), then close.
  void Refuse() {
    WireResponse response;
    response.status = 503;
    response.content_type = "application/x-amz-json-1.0";
    // ddblab's own text: DynamoDB has no connection limit to quote.
    response.body =
        "{\"__type\":\"com.amazonaws.dynamodb.v20120810#"
        "ServiceUnavailable\",\"message\":\"ddblab: too many open "
        "connections (--max-connections " +
        std::to_string(server_.max_connections()) + ")\"}";
    server_.Stamp(response);
    Reply(response, false, false, 11);
  }

  // After a final response: stop sending, read and discard what the client
  // still sends (so it sees the response rather than a reset), then close.
  void FinishAndClose() {
    state_ = State::kDraining;
    parser_.reset();
    if constexpr (kTls) {
      stream_.async_shutdown([self = this->shared_from_this()](
                                 const error_code&) { self->CloseNow(); });
    } else {
      error_code ignored;
      Socket().shutdown(tcp::socket::shutdown_send, ignored);
      Drain();
    }
  }

  void Drain() {
    Socket().async_read_some(
        asio::buffer(drain_),
        [self = this->shared_from_this()](const error_code& ec, size_t n) {
          ++self->activity;
          self->drained_ += n;
          if (ec || self->drained_ > kMaxDrainBytes) return self->CloseNow();
          self->Drain();
        });
  }

  void CloseNow() {
    ReleaseMemory();
    state_ = State::kClosed;
    error_code ignored;
    Socket().close(ignored);
  }

  Server& server_;
  EventLoop& loop_;
  Stream stream_;
  const bool refuse_;
  boost::beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::string out_;
  // While held: keeps the loop's io_context running for the release.
  std::optional<asio::executor_work_guard<typename Stream::executor_type>>
      hold_work_;
  State state_ = State::kReading;
  bool close_requested_ = false;
  size_t drained_ = 0;
  size_t reserved_ = 0;  // of the server's request memory budget
  char drain_[4096];
};

}  // namespace ddblab::server::http_internal
