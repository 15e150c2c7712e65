// cli/control_namespaces.cc: --namespace and ?namespace= (see
// control_namespaces.h).
#include "cli/control_namespaces.h"

#include <algorithm>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>

#include "cli/control_response.h"
#include "cli/control_ttl.h"
#include "cli/emulator_handler.h"
#include "cli/namespace_router.h"
#include "common/sigv4/sigv4.h"
#include "common/text/query_string.h"

namespace ddblab::cli {
namespace {

using Json = nlohmann::json;

// The decoded value of the first "namespace" query parameter, if any.
std::optional<std::string> NamespaceParameter(std::string_view query) {
  for (const text::QueryPair& pair : text::SplitQuery(query)) {
    if (sigv4::UriDecode(pair.name, /*plus_is_space=*/true) == "namespace") {
      return sigv4::UriDecode(pair.value, /*plus_is_space=*/true);
    }
  }
  return std::nullopt;
}

std::string MissingNamespace(NamespaceMode mode, const std::string& path) {
  if (mode == NamespaceMode::kAccessKey) {
    return "this server keeps a namespace per access key (--namespace "
           "access-key): add ?namespace=ACCESS_KEY to " +
           path;
  }
  return "this server keeps a namespace per access key and region "
         "(--namespace access-key+region): add ?namespace=ACCESS_KEY:REGION "
         "to " +
         path;
}

Json NamespacesJson(NamespaceRouter* router) {
  Json list = Json::array();
  if (router != nullptr) {
    for (NamespaceRouter::Namespace* ns : router->List()) {
      Json entry{{"name", NamespaceName(ns->key)},
                 {"access_key", ns->key.access_key}};
      if (router->mode() == NamespaceMode::kAccessKeyRegion) {
        entry["region"] = ns->key.region;
      }
      list.push_back(std::move(entry));
    }
  }
  return Json{{"mode", NamespaceModeName(router ? router->mode()
                                                : NamespaceMode::kShared)},
              {"namespaces", std::move(list)}};
}

// The namespace a control request names; the 400 to answer otherwise.
Result<NamespaceRouter::Namespace*> NamedNamespace(
    NamespaceRouter& router, const server::WireRequest& request) {
  std::optional<std::string> text = NamespaceParameter(request.query);
  if (!text) {
    return Error::Validation(MissingNamespace(router.mode(), request.path));
  }
  DDBLAB_ASSIGN_OR_RETURN(NamespaceKey key,
                          ParseNamespaceName(router.mode(), *text));
  Result<NamespaceRouter::Namespace*> ns = router.Get(key);
  if (!ns.ok()) return Error::Internal(ns.error().message);
  if ((*ns)->control == nullptr) {
    return Error::Internal("namespace " + *text + " has no control routes");
  }
  return ns;
}

server::WireResponse RefuseOrFail(const Error& error) {
  server::WireResponse response = ControlError(error);
  if (error.type != ErrorType::kValidation) response.status = 500;
  return response;
}

// A control request of one namespace, answered by its own Protocol.
server::WireResponse Forward(NamespaceRouter& router,
                             const server::WireRequest& request) {
  Result<NamespaceRouter::Namespace*> ns = NamedNamespace(router, request);
  if (!ns.ok()) return RefuseOrFail(ns.error());
  if (request.path == "/_ddblab/reset" && request.method == "POST") {
    Json body = Json::parse(request.body, nullptr, /*allow_exceptions=*/false);
    if (body.is_object() && body.contains("clock")) {
      return ControlError(Error::Validation(
          "\"clock\": the clock is shared by every namespace; move it with "
          "POST /_ddblab/clock"));
    }
  }
  server::WireResponse response = (*ns)->control->Handle(request);
  // The server's Protocol stamps its own request id.
  std::erase_if(response.headers, [](const auto& header) {
    return server::HeaderNameEquals(header.first, "x-amzn-RequestId");
  });
  return response;
}

// POST /_ddblab/clock: one clock, every namespace catches up.
server::WireResponse MoveClock(NamespaceRouter& router,
                               server::ControlExtensions& extensions,
                               const server::WireRequest& request) {
  if (std::optional<std::string> text = NamespaceParameter(request.query)) {
    if (auto key = ParseNamespaceName(router.mode(), *text); !key.ok()) {
      return ControlError(key.error());
    }
  }
  if (std::optional<server::WireResponse> refused =
          MoveManualClock(router.clock(), request)) {
    return std::move(*refused);
  }
  int64_t deleted = 0;
  for (NamespaceRouter::Namespace* ns : router.List()) {
    if (auto* engine = dynamic_cast<EmulatorHandler*>(ns->handler.get())) {
      Result<int64_t> swept = engine->emulator().SweepTtl();
      if (!swept.ok()) {
        return ControlJson(500, Json{{"message", swept.error().message}});
      }
      deleted += *swept;
    }
    if (ns->control) ns->control->extensions().AfterClockMove();
  }
  extensions.AfterClockMove();
  return ControlJson(200, Json{{"now", EpochJson(router.clock().Now())},
                               {"deleted", deleted}});
}

Status AddServerRoutes(NamespaceRouter& router, server::Protocol& protocol) {
  NamespaceRouter* r = &router;
  server::ControlExtensions* extensions = &protocol.extensions();
  DDBLAB_RETURN_IF_ERROR(protocol.AddRoute(
      "GET", "/_ddblab/namespaces", [r](const server::WireRequest&) {
        return ControlJson(200, NamespacesJson(r));
      }));
  DDBLAB_RETURN_IF_ERROR(protocol.AddRoute(
      "GET", "/_ddblab/clock", [r](const server::WireRequest& request) {
        if (auto text = NamespaceParameter(request.query)) {
          if (auto key = ParseNamespaceName(r->mode(), *text); !key.ok()) {
            return ControlError(key.error());
          }
        }
        return ClockStatus(r->clock());
      }));
  DDBLAB_RETURN_IF_ERROR(
      protocol.AddRoute("POST", "/_ddblab/clock",
                        [r, extensions](const server::WireRequest& request) {
                          return MoveClock(*r, *extensions, request);
                        }));
  for (std::string_view prefix : kNamespacedControlPrefixes) {
    DDBLAB_RETURN_IF_ERROR(protocol.extensions().AddPrefixRoute(
        std::string(prefix), [r](const server::WireRequest& request) {
          return Forward(*r, request);
        }));
  }
  // Shutdown: every namespace's extensions let go of its engine before the
  // router (the server's handler) is destroyed.
  protocol.extensions().AddOnStop([r] { r->StopControl(); });
  return OkStatus();
}

}  // namespace

Status AddNamespaceControl(const ServeConfig& config,
                           server::ServeHooks& hooks) {
  const NamespaceMode mode = config.namespaces;
  if (mode == NamespaceMode::kShared) {
    hooks.add_routes = [before = std::move(hooks.add_routes)](
                           server::RequestHandler& handler,
                           server::Protocol& protocol) -> Status {
      if (before) DDBLAB_RETURN_IF_ERROR(before(handler, protocol));
      return protocol.AddRoute(
          "GET", "/_ddblab/namespaces", [](const server::WireRequest&) {
            return ControlJson(200, NamespacesJson(nullptr));
          });
    };
    return OkStatus();
  }
  hooks.open = [open = std::move(hooks.open), mode](const Options& base)
      -> Result<std::unique_ptr<server::RequestHandler>> {
    auto router =
        std::make_unique<NamespaceRouter>(mode, base, open, std::cerr);
    DDBLAB_RETURN_IF_ERROR(router->OpenExisting());
    return std::unique_ptr<server::RequestHandler>(std::move(router));
  };
  hooks.add_routes = [per_namespace = std::move(hooks.add_routes)](
                         server::RequestHandler& handler,
                         server::Protocol& protocol) -> Status {
    auto* router = dynamic_cast<NamespaceRouter*>(&handler);
    if (router == nullptr) {
      return Error::Internal("the namespace routes need the namespace router");
    }
    if (per_namespace) {
      DDBLAB_RETURN_IF_ERROR(router->SetControlRoutes(per_namespace));
    }
    return AddServerRoutes(*router, protocol);
  };
  return OkStatus();
}

}  // namespace ddblab::cli
