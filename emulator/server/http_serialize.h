// emulator/server/http_serialize.h: a WireResponse as the bytes of an
// HTTP/1.1 response, written by the HTTP server in one write.
//
// Thread-safety: a stateless function.
#pragma once

#include <string>

#include "emulator/server/protocol.h"

namespace ddblab::server {

// Appends the whole response (status line, headers, Content-Type,
// Content-Length, Connection when it is not the version's default, then the
// body unless `head`) to `out`.
void SerializeResponse(const WireResponse& response, bool keep_alive, bool head,
                       unsigned version, std::string& out);

}  // namespace ddblab::server
