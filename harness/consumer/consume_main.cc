// harness/consumer/consume_main.cc: `ddblab-consume`, event source mappings
// run against any DynamoDB endpoint (ddblab serve, ddblab in process, AWS).
//
//   ddblab-consume --event-source-mappings FILE [--backend SPEC]
//                  [--listen HOST:PORT] [--once]
//
// FILE holds the mappings (see host.h). --backend is a backend string
// (harness/backend/backend.h; default http://127.0.0.1:8000). --listen serves
// the mapping API (/_ddblab/event-source-mappings...) on its own port.
// --once delivers everything due, prints the mappings and their on-failure
// records as JSON and exits; otherwise it runs until SIGINT/SIGTERM.
#include <httplib.h>
#include <signal.h>

#include <iostream>
#include <string>
#include <vector>

#include "harness/backend/backend.h"
#include "harness/consumer/host.h"

namespace {

constexpr const char* kUsage =
    "usage: ddblab-consume --event-source-mappings FILE [--backend SPEC]\n"
    "                      [--listen HOST:PORT] [--once]\n";

}  // namespace

int main(int argc, char** argv) {
  using namespace ddblab::harness;
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string file, spec = "http://127.0.0.1:8000", listen;
  bool once = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string& out) {
      if (i + 1 >= args.size()) return false;
      out = args[++i];
      return true;
    };
    bool ok = true;
    if (a == "--event-source-mappings") {
      ok = value(file);
    } else if (a == "--backend") {
      ok = value(spec);
    } else if (a == "--listen") {
      ok = value(listen);
    } else if (a == "--once") {
      once = true;
    } else if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    } else {
      std::cerr << "ddblab-consume: unknown argument " << a << "\n" << kUsage;
      return 2;
    }
    if (!ok) {
      std::cerr << "ddblab-consume: " << a << " needs a value\n";
      return 2;
    }
  }
  if (file.empty()) {
    std::cerr << "ddblab-consume: --event-source-mappings FILE is required\n"
              << kUsage;
    return 2;
  }
  auto backend = OpenBackend(spec);
  if (!backend.ok()) {
    std::cerr << "ddblab-consume: " << ddblab::ToString(backend.error())
              << "\n";
    return 2;
  }
  consumer::EsmHost host(**backend);
  if (auto s = host.LoadFile(file); !s.ok()) {
    std::cerr << "ddblab-consume: " << ddblab::ToString(s.error()) << "\n";
    return 2;
  }
  if (once) {
    host.RunDue();
    auto list = host.Handle("GET", "/_ddblab/event-source-mappings", "");
    nlohmann::json out = list.body;
    for (auto& m : out["EventSourceMappings"]) {
      m["Failures"] =
          host.Handle("GET",
                      "/_ddblab/event-source-mappings/" +
                          m["UUID"].get<std::string>() + "/failures",
                      "")
              .body["Failures"];
    }
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  host.Start();
  httplib::Server server;
  std::thread http;
  if (!listen.empty()) {
    size_t colon = listen.rfind(':');
    if (colon == std::string::npos) {
      std::cerr << "ddblab-consume: --listen wants HOST:PORT\n";
      return 2;
    }
    auto route = [&host](const httplib::Request& req, httplib::Response& res) {
      // A page of another origin cannot send JSON without a CORS preflight,
      // which this server never grants.
      if (req.method != "GET" &&
          req.get_header_value("Content-Type").rfind("application/json", 0) !=
              0) {
        res.status = 415;
        res.set_content(
            R"({"__type":"ValidationException","message":"requests must be sent with Content-Type: application/json"})",
            "application/json");
        return;
      }
      auto out = host.Handle(req.method, req.path, req.body);
      res.status = out.status;
      res.set_content(out.body.dump(), "application/json");
    };
    const char* pattern = R"(/_ddblab/event-source-mappings(/.*)?)";
    server.Get(pattern, route);
    server.Post(pattern, route);
    server.Put(pattern, route);
    server.Delete(pattern, route);
    std::string host_name = listen.substr(0, colon);
    int port = std::stoi(listen.substr(colon + 1));
    if (!server.bind_to_port(host_name.c_str(), port)) {
      std::cerr << "ddblab-consume: cannot listen on " << listen << "\n";
      return 2;
    }
    http = std::thread([&server] { server.listen_after_bind(); });
    std::cout << "ddblab-consume: mapping API on http://" << listen
              << "/_ddblab/event-source-mappings\n"
              << std::flush;
  }
  int sig = 0;
  sigwait(&set, &sig);
  server.stop();
  if (http.joinable()) http.join();
  host.Stop();
  return 0;
}
