// common/text/query_string.cc: SplitQuery (query_string.h).
#include "common/text/query_string.h"

namespace ddblab::text {

std::vector<QueryPair> SplitQuery(std::string_view query) {
  std::vector<QueryPair> pairs;
  size_t start = 0;
  while (start < query.size()) {
    size_t amp = query.find('&', start);
    if (amp == std::string_view::npos) amp = query.size();
    std::string_view pair = query.substr(start, amp - start);
    start = amp + 1;
    if (pair.empty()) continue;
    size_t eq = pair.find('=');
    if (eq == std::string_view::npos) {
      pairs.push_back({pair, {}});
    } else {
      pairs.push_back({pair.substr(0, eq), pair.substr(eq + 1)});
    }
  }
  return pairs;
}

}  // namespace ddblab::text
