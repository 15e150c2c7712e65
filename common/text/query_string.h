// common/text/query_string.h: a URL query string split into its name=value
// pairs. The one splitter of the SigV4 signer and verifier
// (common/sigv4, emulator/server/authenticator) and of the in-process
// backend's options ("emulator?clock=manual&seed=1").
//
// Thread-safety: a pure function.
#pragma once

#include <string_view>
#include <vector>

namespace ddblab::text {

struct QueryPair {
  std::string_view name;
  std::string_view value;  // "" when the pair has no '='
};

// "a=1&b&&c=x%20y=z" -> {a, 1}, {b, ""}, {c, x%20y=z}: split at each '&',
// then at the first '='; empty pairs are skipped; nothing is decoded. The
// views point into `query`.
std::vector<QueryPair> SplitQuery(std::string_view query);

}  // namespace ddblab::text
