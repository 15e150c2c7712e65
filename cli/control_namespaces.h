// cli/control_namespaces.h: `ddblab serve --namespace shared|access-key|
// access-key+region` and the control API's ?namespace= parameter.
//
// --namespace shared (the default): one engine for every caller, as before;
// nothing is wrapped, and ?namespace= is ignored.
// --namespace access-key | access-key+region: the server's handler is a
// NamespaceRouter (namespace_router.h; files with --db in
// namespace_files.h). Control endpoints then:
//   GET  /_ddblab/namespaces -> 200 {"mode": "access-key", "namespaces":
//        [{"name": "A", "access_key": "A"}, ...]} ("region" too in mode
//        access-key+region); in mode shared {"mode": "shared",
//        "namespaces": []}.
//   GET/POST /_ddblab/clock: global (one clock for every namespace; a
//        ?namespace= is checked and otherwise ignored). POST moves the
//        clock, then sweeps TTL and runs the after-clock-move hooks
//        (hosted mappings) of every namespace -> {"now", "deleted": the TTL
//        deletions of all namespaces}.
//   /_ddblab/ttl, /_ddblab/streams, /_ddblab/faults, /_ddblab/capacity,
//   /_ddblab/consistency, /_ddblab/event-source-mappings, /_ddblab/reset
//   and everything under them: the namespace's own endpoint, as documented
//   for one engine, once ?namespace=KEY (access-key) or
//   ?namespace=KEY:REGION (access-key+region) names it (URL-encoded). A
//   namespace not used yet is opened empty: a test may post a fault plan or
//   mappings before its first DynamoDB call. Without ?namespace= -> 400
//   {"type": "ValidationException", "message": "this server keeps a
//   namespace per access key (--namespace access-key): add
//   ?namespace=ACCESS_KEY to /_ddblab/faults"}; a value that does not fit
//   the mode -> 400 naming the parameter (namespace_files.h). A reset may
//   not move the clock (it is every namespace's): "clock" in its body ->
//   400.
//   /_ddblab/ui (the console) and /_ddblab/health stay global.
//
// Thread-safety: the routes may run concurrently with DynamoDB calls.
#pragma once

#include <array>
#include <string_view>

#include "cli/command_line.h"
#include "emulator/api/result.h"
#include "emulator/server/serve.h"

namespace ddblab::cli {

// The control paths served per namespace (each with everything under it).
// A control family of one engine added to cli/ adds its prefix here.
inline constexpr std::array<std::string_view, 7> kNamespacedControlPrefixes = {
    "/_ddblab/ttl",         "/_ddblab/streams",
    "/_ddblab/faults",      "/_ddblab/capacity",
    "/_ddblab/consistency", "/_ddblab/event-source-mappings",
    "/_ddblab/reset"};

// Must come after every Add*Control whose routes belong to one engine and
// before AddUiControl (global): in a namespace mode it wraps hooks.open
// (the router, reopening the namespaces of --db's files) and
// hooks.add_routes (the routes added before go to each namespace; the
// routes above to the server). Always adds GET /_ddblab/namespaces.
Status AddNamespaceControl(const ServeConfig& config,
                           server::ServeHooks& hooks);

}  // namespace ddblab::cli
