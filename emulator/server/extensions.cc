// emulator/server/extensions.cc: ControlExtensions (see extensions.h).
#include "emulator/server/extensions.h"

#include <ranges>

namespace ddblab::server {

bool PathUnder(std::string_view path, std::string_view prefix) {
  if (!path.starts_with(prefix)) return false;
  return path.size() == prefix.size() || path[prefix.size()] == '/';
}

Status ControlExtensions::AddPrefixRoute(std::string prefix,
                                         RouteHandler handler, Access access) {
  if (!prefix.starts_with(kControlPrefix) ||
      prefix.size() == kControlPrefix.size()) {
    return Error::Validation("control routes live under /_ddblab/: " + prefix);
  }
  if (prefix.ends_with('/')) {
    return Error::Validation("a route prefix must not end with '/': " + prefix);
  }
  if (!handler) {
    return Error::Validation("no handler for route prefix " + prefix);
  }
  if (PathUnder("/_ddblab/health", prefix)) {
    return Error::Validation("route prefix " + prefix +
                             " covers /_ddblab/health");
  }
  for (const PrefixRoute& taken : prefix_routes_) {
    if (PathUnder(prefix, taken.prefix) || PathUnder(taken.prefix, prefix)) {
      return Error::Validation("route prefix " + prefix + " overlaps " +
                               taken.prefix);
    }
  }
  prefix_routes_.push_back(
      PrefixRoute{std::move(prefix), std::move(handler), access});
  return OkStatus();
}

const RouteHandler* ControlExtensions::FindPrefixRoute(
    std::string_view path) const {
  for (const PrefixRoute& route : prefix_routes_) {
    if (PathUnder(path, route.prefix)) return &route.handler;
  }
  return nullptr;
}

bool ControlExtensions::IsPublic(std::string_view path) const {
  for (const PrefixRoute& route : prefix_routes_) {
    if (PathUnder(path, route.prefix)) return route.access == Access::kPublic;
  }
  return false;
}

void ControlExtensions::AddAfterClockMove(std::function<void()> hook) {
  after_clock_move_.push_back(std::move(hook));
}

void ControlExtensions::AfterClockMove() const {
  for (const auto& hook : after_clock_move_) hook();
}

void ControlExtensions::AddOnReset(std::function<void(uint64_t)> hook) {
  on_reset_.push_back(std::move(hook));
}

void ControlExtensions::Reset(uint64_t seed) const {
  for (const auto& hook : on_reset_) hook(seed);
}

void ControlExtensions::AddOnStop(std::function<void()> hook) {
  on_stop_.push_back(std::move(hook));
}

void ControlExtensions::Stop() {
  if (stopped_) return;
  stopped_ = true;
  for (auto& hook : std::views::reverse(on_stop_)) hook();
}

}  // namespace ddblab::server
