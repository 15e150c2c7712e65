// RunServe's exit status when the engine cannot be opened: 3 for a database
// in use (ResourceInUseException from the storage's file lock), 1 for any
// other failure; the message names the database, nothing is printed on
// stdout (no endpoint: nothing was served) and the bound port is closed
// again.
#include "emulator/server/serve.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <sstream>

namespace ddblab::server {
namespace {

// Binds 127.0.0.1:0 and returns the port the kernel chose (then frees it).
int FreePort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  socklen_t len = sizeof addr;
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  close(fd);
  return ntohs(addr.sin_port);
}

// True if 127.0.0.1:port can be bound (nothing listens on it).
bool CanBind(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  bool ok = bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  close(fd);
  return ok;
}

int ServeFailingOpen(const Error& error, std::string* out_text,
                     std::string* err_text, int port) {
  ServeOptions config;
  config.port = port;
  config.db = "/data/x.db";
  config.log_level = LogLevel::kError;
  ServeHooks hooks;
  hooks.open =
      [&error](
          const Options& options) -> Result<std::unique_ptr<RequestHandler>> {
    EXPECT_EQ(options.db_path, "/data/x.db");
    return error;
  };
  std::ostringstream out, err;
  int status = RunServe(config, hooks, out, err);
  *out_text = out.str();
  *err_text = err.str();
  return status;
}

TEST(RunServeTest, DatabaseInUseExits3AndClosesThePort) {
  int port = FreePort();
  std::string out, err;
  int status = ServeFailingOpen(
      Error::ResourceInUse("database /data/x.db is in use by another ddblab "
                           "process (pid 42): one server per database file; "
                           "stop it or use another database file"),
      &out, &err, port);
  EXPECT_EQ(status, 3);
  EXPECT_EQ(status, kExitDatabaseInUse);
  EXPECT_EQ(out, "");
  EXPECT_EQ(err,
            "ddblab: cannot open database /data/x.db: database /data/x.db is "
            "in use by another ddblab process (pid 42): one server per "
            "database file; stop it or use another database file\n");
  EXPECT_TRUE(CanBind(port));
}

TEST(RunServeTest, OtherOpenFailureExits1) {
  std::string out, err;
  int status = ServeFailingOpen(
      Error::Internal("cannot open database '/data/x.db': unable to open "
                      "database file"),
      &out, &err, 0);
  EXPECT_EQ(status, 1);
  EXPECT_EQ(out, "");
  EXPECT_EQ(err,
            "ddblab: cannot open database /data/x.db: cannot open database "
            "'/data/x.db': unable to open database file\n");
}

}  // namespace
}  // namespace ddblab::server
