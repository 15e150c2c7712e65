// emulator/server/extensions.cc: ControlExtensions (see extensions.h).
#include "emulator/server/extensions.h"

#include <ranges>

namespace ddblab::server {

bool PathUnder(std::string_view path, std::string_view prefix) {
  if (!path.starts_with(prefix)) return false;
  return path.size() == prefix.size() || path[prefix.size()] == '/';
}

Status ControlExtensions::AddPrefixRoute(std::string prefix,
                                         RouteHandler handler) {
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
  for (const auto& [taken, unused] : prefix_routes_) {
    if (PathUnder(prefix, taken) || PathUnder(taken, prefix)) {
      return Error::Validation("route prefix " + prefix + " overlaps " + taken);
    }
  }
  prefix_routes_.emplace_back(std::move(prefix), std::move(handler));
  return OkStatus();
}

const RouteHandler* ControlExtensions::FindPrefixRoute(
    std::string_view path) const {
  for (const auto& [prefix, handler] : prefix_routes_) {
    if (PathUnder(path, prefix)) return &handler;
  }
  return nullptr;
}

void ControlExtensions::AddAfterClockMove(std::function<void()> hook) {
  after_clock_move_.push_back(std::move(hook));
}

void ControlExtensions::AfterClockMove() const {
  for (const auto& hook : after_clock_move_) hook();
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
