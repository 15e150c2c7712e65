// cli/namespace_router.cc: one engine per namespace (see namespace_router.h).
#include "cli/namespace_router.h"

#include <utility>

namespace ddblab::cli {
namespace {

constexpr char kNoCaller[] =
    "this server keeps a database per namespace: a call must be signed";

}  // namespace

NamespaceRouter::NamespaceRouter(NamespaceMode mode, Options base, OpenFn open,
                                 std::ostream& log)
    : mode_(mode),
      base_(std::move(base)),
      open_(std::move(open)),
      clock_(base_.clock ? base_.clock : std::make_shared<SystemClock>()),
      logger_(server::LogLevel::kWarn, log),
      authenticator_(server::AuthConfig{}, *clock_) {}

NamespaceRouter::~NamespaceRouter() {
  // Each control Protocol borrows its engine: it goes first.
  for (auto& [key, ns] : map_) ns->control.reset();
}

Status NamespaceRouter::OpenExisting() {
  for (const NamespaceKey& key : ListNamespaceFiles(base_.db_path, mode_)) {
    DDBLAB_RETURN_IF_ERROR(Get(key));
  }
  return OkStatus();
}

Status NamespaceRouter::SetControlRoutes(AddRoutesFn add) {
  std::lock_guard<std::mutex> lock(mu_);
  add_routes_ = std::move(add);
  for (auto& [key, ns] : map_) {
    DDBLAB_RETURN_IF_ERROR(AddControlLocked(*ns));
  }
  return OkStatus();
}

Status NamespaceRouter::AddControlLocked(Namespace& ns) {
  if (!add_routes_ || ns.control) return OkStatus();
  server::ProtocolConfig config{base_.region, base_.seed, {}};
  config.control.mode = server::ControlMode::kOpen;
  ns.control = std::make_unique<server::Protocol>(
      *ns.handler, authenticator_, *clock_, logger_, std::move(config));
  if (Status added = add_routes_(*ns.handler, *ns.control); !added.ok()) {
    ns.control->extensions().Stop();
    ns.control.reset();
    return added;
  }
  return OkStatus();
}

Result<NamespaceRouter::Namespace*> NamespaceRouter::Get(
    const NamespaceKey& key) {
  std::lock_guard<std::mutex> lock(mu_);
  return GetLocked(key);
}

Result<NamespaceRouter::Namespace*> NamespaceRouter::GetLocked(
    const NamespaceKey& key) {
  if (auto it = map_.find(key); it != map_.end()) return it->second.get();
  Options options = base_;
  options.db_path = NamespaceDbPath(base_.db_path, key);
  auto opened = open_(options);
  if (!opened.ok()) {
    Error error = opened.error();
    error.message = "cannot open the database of namespace " +
                    NamespaceName(key) + " (" + options.db_path +
                    "): " + error.message;
    return error;
  }
  auto ns = std::make_unique<Namespace>();
  ns->key = key;
  ns->handler = std::move(opened).value();
  if (stopping_) ns->handler->StopWaiting();
  DDBLAB_RETURN_IF_ERROR(AddControlLocked(*ns));
  Namespace* raw = ns.get();
  map_.emplace(key, std::move(ns));
  return raw;
}

NamespaceKey NamespaceRouter::KeyOf(const server::Caller& caller) const {
  return NamespaceKey{
      caller.access_key,
      mode_ == NamespaceMode::kAccessKeyRegion ? caller.region : ""};
}

std::vector<NamespaceRouter::Namespace*> NamespaceRouter::List() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<Namespace*> out;
  out.reserve(map_.size());
  for (const auto& [key, ns] : map_) out.push_back(ns.get());
  return out;
}

void NamespaceRouter::StopControl() {
  for (Namespace* ns : List()) {
    if (ns->control) ns->control->extensions().Stop();
  }
}

Result<nlohmann::json> NamespaceRouter::Call(std::string_view,
                                             const nlohmann::json&) {
  return Error::Internal(kNoCaller);
}

Result<nlohmann::json> NamespaceRouter::CallStreams(std::string_view,
                                                    const nlohmann::json&) {
  return Error::Internal(kNoCaller);
}

Result<NamespaceRouter::Namespace*> NamespaceRouter::OpenFor(
    const server::Caller& caller) {
  Result<Namespace*> ns = Get(KeyOf(caller));
  if (ns.ok()) return ns;
  logger_.Log(server::LogLevel::kError, ns.error().message);
  return Error::Internal(ns.error().message);
}

DeferredAnswer NamespaceRouter::CallAs(const server::Caller& caller,
                                       std::string_view operation,
                                       const nlohmann::json& request) {
  Result<Namespace*> ns = OpenFor(caller);
  if (!ns.ok()) return {std::move(ns).error(), std::nullopt};
  return (*ns)->handler->CallAs(caller, operation, request);
}

DeferredAnswer NamespaceRouter::CallStreamsAs(const server::Caller& caller,
                                              std::string_view operation,
                                              const nlohmann::json& request) {
  Result<Namespace*> ns = OpenFor(caller);
  if (!ns.ok()) return {std::move(ns).error(), std::nullopt};
  return (*ns)->handler->CallStreamsAs(caller, operation, request);
}

void NamespaceRouter::StopWaiting() {
  std::lock_guard<std::mutex> lock(mu_);
  stopping_ = true;
  for (auto& [key, ns] : map_) ns->handler->StopWaiting();
}

}  // namespace ddblab::cli
