// emulator/server/extensions.h: the seam through which the program that
// composes a server (the `ddblab` executable in cli/) adds features the
// server library knows nothing of, e.g. hosted event source mappings.
//
// Four extension points, in the server's own vocabulary:
//   - prefix routes: every request (any method) whose path is PREFIX or
//     starts with PREFIX + "/" goes to one RouteHandler; the Protocol tries
//     its exact routes (Protocol::AddRoute) first;
//   - after-clock-move hooks: run, in the order added, by whichever control
//     endpoint moved the server's clock (POST /_ddblab/clock), after the
//     clock moved and before that endpoint answers;
//   - reset hooks: run, in the order added, by POST /_ddblab/reset before
//     it empties the engine, with the seed the engine will have; an
//     extension drops what it holds (hosted mappings);
//   - stop hooks: run once at shutdown, newest first, after the HTTP server
//     has drained (no request in flight) and before the RequestHandler (the
//     engine) is destroyed, so an extension holding the engine can let go.
//
// Ownership: owns the handlers and hooks (owned by the Protocol).
// Thread-safety: add everything before serving (like Protocol::AddRoute);
// then FindPrefixRoute, AfterClockMove and Reset may run on many threads at
// once (hooks must be thread-safe), and Stop runs once, from the thread that
// shuts the server down.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "emulator/api/result.h"
#include "emulator/server/wire_message.h"

namespace ddblab::server {

// Paths under it are control endpoints, not DynamoDB's API.
inline constexpr std::string_view kControlPrefix = "/_ddblab/";

using RouteHandler = std::function<WireResponse(const WireRequest&)>;

class ControlExtensions {
 public:
  // `prefix` must start with "/_ddblab/", must not end with '/', and must not
  // contain, or be contained in, a prefix already added (segment-wise:
  // "/_ddblab/a" and "/_ddblab/a/b" overlap, "/_ddblab/a" and "/_ddblab/ab"
  // do not). "/_ddblab/health" is the server's.
  // A kPublic route (the web console's static files) is served without the
  // control token or signature (control_access.h); only files that reveal
  // and change nothing may be public.
  enum class Access { kControl, kPublic };
  Status AddPrefixRoute(std::string prefix, RouteHandler handler,
                        Access access = Access::kControl);
  // The handler whose prefix covers `path`, or null.
  const RouteHandler* FindPrefixRoute(std::string_view path) const;
  // True when a kPublic prefix route covers `path`.
  bool IsPublic(std::string_view path) const;

  void AddAfterClockMove(std::function<void()> hook);
  // Runs every after-clock-move hook in the order added.
  void AfterClockMove() const;

  void AddOnReset(std::function<void(uint64_t seed)> hook);
  // Runs every reset hook in the order added.
  void Reset(uint64_t seed) const;

  void AddOnStop(std::function<void()> hook);
  // Runs every stop hook, newest first; a second call does nothing.
  void Stop();

 private:
  struct PrefixRoute {
    std::string prefix;
    RouteHandler handler;
    Access access;
  };
  std::vector<PrefixRoute> prefix_routes_;
  std::vector<std::function<void()>> after_clock_move_;
  std::vector<std::function<void(uint64_t)>> on_reset_;
  std::vector<std::function<void()>> on_stop_;
  bool stopped_ = false;
};

// True when `path` is `prefix` or lies under it ("prefix/...").
bool PathUnder(std::string_view path, std::string_view prefix);

}  // namespace ddblab::server
