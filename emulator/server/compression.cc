#include "emulator/server/compression.h"

#include <zlib.h>

#include <cstdlib>
#include <vector>

namespace ddblab::server {
namespace {

constexpr int kGzipWindowBits = 15 + 16;  // zlib: gzip wrapper
constexpr int kZlibWindowBits = 15;       // zlib: zlib wrapper

char Lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) {
    s.remove_suffix(1);
  }
  return s;
}

std::string LowerCopy(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = Lower(c);
  return out;
}

// The weight of one Accept-Encoding element's parameters ("q=0.5;x=y"):
// the first q parameter; 1 when absent or not a number; capped at 1. A
// parameter's name is trimmed on the left only: "q =0" names "q ", not q
// (no whitespace may precede "=", RFC 9110 section 5.6.6), so DynamoDB
// passes over it to the next one.
double Weight(std::string_view params) {
  while (!params.empty()) {
    size_t semi = params.find(';');
    std::string_view param = params.substr(0, semi);
    params = semi == std::string_view::npos ? std::string_view()
                                            : params.substr(semi + 1);
    size_t eq = param.find('=');
    if (eq == std::string_view::npos) continue;
    std::string_view name = param.substr(0, eq);
    while (!name.empty() && (name.front() == ' ' || name.front() == '\t')) {
      name.remove_prefix(1);
    }
    if (name != "q" && name != "Q") continue;
    std::string value(Trim(param.substr(eq + 1)));
    if (value.empty()) return 1.0;
    char* end = nullptr;
    double q = std::strtod(value.c_str(), &end);
    if (end != value.c_str() + value.size()) return 1.0;
    return q > 1.0 ? 1.0 : q;
  }
  return 1.0;
}

struct Candidate {
  double weight = 0;
  bool explicit_name = false;
  size_t position = 0;
  bool seen = false;
};

// True when `a` is the better choice than `b`.
bool Better(const Candidate& a, const Candidate& b) {
  if (a.weight != b.weight) return a.weight > b.weight;
  if (a.explicit_name != b.explicit_name) return a.explicit_name;
  return a.position < b.position;
}

constexpr int kTooLarge = Z_BUF_ERROR - 100;

int Inflate(std::string_view in, int window_bits, size_t max_bytes,
            std::string& out, size_t& consumed) {
  z_stream zs{};
  if (inflateInit2(&zs, window_bits) != Z_OK) return Z_MEM_ERROR;
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  char buf[16384];
  int rc = Z_OK;
  while (rc == Z_OK) {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof(buf);
    rc = inflate(&zs, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) break;
    out.append(buf, sizeof(buf) - zs.avail_out);
    if (out.size() > max_bytes) {
      rc = kTooLarge;
      break;
    }
    if (rc == Z_OK && zs.avail_in == 0 && zs.avail_out != 0) {
      rc = Z_DATA_ERROR;  // input ended before the stream did
    }
  }
  consumed = in.size() - zs.avail_in;
  inflateEnd(&zs);
  return rc;
}

Error DecodeError(std::string_view what) {
  // DynamoDB answers a body it cannot decode with HTTP 500.
  return Error::Internal("cannot decode request body: " + std::string(what));
}

}  // namespace

std::string_view CodingName(ContentCoding coding) {
  return coding == ContentCoding::kGzip ? "gzip" : "deflate";
}

std::optional<ContentCoding> ChooseResponseCoding(
    std::string_view accept_encoding) {
  Candidate gzip, deflate, star;
  size_t position = 0;
  std::string_view rest = accept_encoding;
  while (true) {
    size_t comma = rest.find(',');
    std::string_view element = rest.substr(0, comma);
    size_t semi = element.find(';');
    std::string name = LowerCopy(Trim(element.substr(0, semi)));
    if (!name.empty()) {
      double weight = semi == std::string_view::npos
                          ? 1.0
                          : Weight(element.substr(semi + 1));
      Candidate* target = name == "gzip"      ? &gzip
                          : name == "deflate" ? &deflate
                          : name == "*"       ? &star
                                              : nullptr;
      if (target != nullptr) {
        // A coding named more than once keeps its best weight.
        if (!target->seen) {
          target->seen = true;
          target->position = position;
          target->weight = weight;
        } else if (weight > target->weight) {
          target->weight = weight;
        }
        target->explicit_name = true;
      }
      ++position;
    }
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  auto resolve = [&](Candidate c) {
    if (c.seen) return c;
    if (!star.seen) return Candidate{};
    Candidate via_star = star;
    via_star.explicit_name = false;
    via_star.position = SIZE_MAX;
    return via_star;
  };
  Candidate g = resolve(gzip);
  Candidate d = resolve(deflate);
  if (g.weight <= 0 && d.weight <= 0) return std::nullopt;
  if (d.weight > 0 && Better(d, g)) return ContentCoding::kDeflate;
  return ContentCoding::kGzip;
}

std::optional<ContentCoding> ChooseResponseCoding(const HeaderList& headers) {
  for (const auto& [name, value] : headers) {
    if (HeaderNameEquals(name, "Accept-Encoding")) {
      return ChooseResponseCoding(value);
    }
  }
  return std::nullopt;
}

std::string CompressBody(ContentCoding coding, std::string_view body) {
  z_stream zs{};
  deflateInit2(
      &zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED,
      coding == ContentCoding::kGzip ? kGzipWindowBits : kZlibWindowBits, 8,
      Z_DEFAULT_STRATEGY);
  std::string out;
  out.resize(deflateBound(&zs, static_cast<uLong>(body.size())));
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(body.data()));
  zs.avail_in = static_cast<uInt>(body.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

Result<std::string> DecodeRequestBody(std::string_view encoding,
                                      std::string_view body, size_t max_bytes) {
  std::string name = LowerCopy(Trim(encoding));
  if (name.empty() || name == "identity") return std::string(body);
  const bool gzip = name == "gzip";
  if (!gzip && name != "deflate") {
    return DecodeError("unsupported Content-Encoding " + name);
  }
  if (body.empty()) return DecodeError("empty compressed body");
  std::string out;
  std::string_view rest = body;
  do {
    size_t consumed = 0;
    int rc = Inflate(rest, gzip ? kGzipWindowBits : kZlibWindowBits, max_bytes,
                     out, consumed);
    if (rc == kTooLarge) {
      return Error::Validation("decoded request body too large");
    }
    if (rc != Z_STREAM_END) return DecodeError("corrupt or truncated body");
    rest.remove_prefix(consumed);
    // Another member follows only if it starts with the gzip magic bytes;
    // DynamoDB ignores other trailing bytes after a complete member.
  } while (gzip && rest.size() >= 2 && rest[0] == '\x1f' && rest[1] == '\x8b');
  return out;
}

}  // namespace ddblab::server
