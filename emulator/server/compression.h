// emulator/server/compression.h: HTTP content codings for DynamoDB's JSON
// protocol, independent of any HTTP library.
//
// Responses: ChooseResponseCoding() reads the request's Accept-Encoding the
// way DynamoDB does (only the first header counts; gzip and deflate are the
// codings it knows; q-weights; "*" stands for both; "identity" is ignored)
// and CompressBody() produces the body. Protocol compresses a successful
// response only when its body is at least kCompressMinBytes long.
// Requests: DecodeRequestBody() undoes Content-Encoding gzip (one or more
// concatenated members) or deflate (zlib format); anything else fails.
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "emulator/api/result.h"
#include "emulator/server/wire_message.h"

namespace ddblab::server {

// DynamoDB compresses responses of 4 KiB and more.
inline constexpr size_t kCompressMinBytes = 4096;

enum class ContentCoding { kGzip, kDeflate };

// "gzip" or "deflate".
std::string_view CodingName(ContentCoding coding);

// The coding to answer with for this Accept-Encoding value, or nullopt for
// an uncompressed answer. Rules: elements are comma-separated, names
// case-insensitive and trimmed; the first "q" parameter is the weight (a
// value that is not a number counts as 1, above 1 counts as 1, 0 or less
// excludes); the highest weight wins; on a tie an explicitly named coding
// beats one reached through "*", then the one named first, then gzip.
std::optional<ContentCoding> ChooseResponseCoding(
    std::string_view accept_encoding);

// The same, over a request's headers: the first Accept-Encoding header
// counts (DynamoDB ignores the others).
std::optional<ContentCoding> ChooseResponseCoding(const HeaderList& headers);

// `body` compressed (gzip: RFC 1952 member; deflate: RFC 1950 zlib stream).
std::string CompressBody(ContentCoding coding, std::string_view body);

// Decodes a request body sent with `Content-Encoding: <encoding>`. An empty
// or "identity" encoding returns the body unchanged. Fails (Internal) for an
// unknown coding or a corrupt, truncated or empty compressed body, and
// (Validation, so the caller can answer 413) when the output passes
// `max_bytes`. Bytes after a complete gzip member are decoded as another
// member when they start with the gzip magic, and ignored otherwise (as
// DynamoDB does).
Result<std::string> DecodeRequestBody(std::string_view encoding,
                                      std::string_view body, size_t max_bytes);

}  // namespace ddblab::server
