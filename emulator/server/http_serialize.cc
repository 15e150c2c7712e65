// emulator/server/http_serialize.cc: see http_serialize.h.
#include "emulator/server/http_serialize.h"

#include <boost/beast/core/string.hpp>
#include <boost/beast/http/status.hpp>
#include <string_view>

namespace ddblab::server {

namespace http = boost::beast::http;

void SerializeResponse(const WireResponse& response, bool keep_alive, bool head,
                       unsigned version, std::string& out) {
  out += "HTTP/1.1 ";
  out += std::to_string(response.status);
  out += ' ';
  const boost::beast::string_view text = http::obsolete_reason(
      http::int_to_status(static_cast<unsigned>(response.status)));
  std::string_view reason(text.data(), text.size());
  out += reason;
  out += "\r\n";
  for (const auto& [name, value] : response.headers) {
    out += name;
    out += ": ";
    out += value;
    out += "\r\n";
  }
  if (!response.content_type.empty()) {
    out += "Content-Type: ";
    out += response.content_type;
    out += "\r\n";
  }
  out += "Content-Length: ";
  out += std::to_string(response.body.size());
  out += "\r\n";
  if (!keep_alive) {
    out += "Connection: close\r\n";
  } else if (version == 10) {
    out += "Connection: keep-alive\r\n";
  }
  out += "\r\n";
  if (!head) out += response.body;
}

}  // namespace ddblab::server
