"""The `ddblab` command itself: --help, --version, flag errors (exit 2),
a taken port (exit 1), SIGINT/SIGTERM shutdown (exit 0, also with an idle
keep-alive connection open), the control token (its file, `ddblab token`,
--control open|off)."""
import http.client
import os
import re
import signal
import stat
import tempfile
import socket
import subprocess
import time
import unittest

from ddblab_server import DdblabServer, control_token_path, ddblab_bin
from wire import post, send


def run(*args):
    return subprocess.run([ddblab_bin(), *args], capture_output=True,
                          text=True, timeout=30)


class CommandLineTest(unittest.TestCase):
    def test_help(self):
        result = run("--help")
        self.assertEqual(result.returncode, 0)
        self.assertIn("ddblab serve [flags]", result.stdout)
        self.assertIn("--auth accept|verify", result.stdout)

    def test_version(self):
        result = run("--version")
        self.assertEqual(result.returncode, 0)
        self.assertRegex(result.stdout, r"^ddblab \d+\.\d+\.\d+\n$")

    def test_bad_flags_exit_2(self):
        cases = {
            ("serve", "--bogus"): "ddblab: unknown flag '--bogus' for ddblab "
                                  "serve (run 'ddblab --help' for usage)\n",
            ("serve", "--port", "x"): "ddblab: invalid value 'x' for --port: "
                                      "expected a port 0..65535 (run 'ddblab "
                                      "--help' for usage)\n",
            ("serve", "--auth", "verify"): "ddblab: --auth verify needs "
                                           "--access-key-id/"
                                           "--secret-access-key or "
                                           "--credentials-file (run 'ddblab "
                                           "--help' for usage)\n",
            (): "ddblab: missing command (run 'ddblab --help' for usage)\n",
        }
        for args, stderr in cases.items():
            result = run(*args)
            self.assertEqual(result.returncode, 2, args)
            self.assertEqual(result.stderr, stderr)
            self.assertEqual(result.stdout, "")

    def test_missing_credentials_file(self):
        result = run("serve", "--port", "0", "--auth", "verify",
                     "--credentials-file", "/nonexistent/creds")
        self.assertEqual(result.returncode, 2)
        self.assertEqual(result.stderr,
                         "ddblab: cannot read /nonexistent/creds\n")

    def test_port_in_use_exits_1(self):
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen(1)
            port = taken.getsockname()[1]
            result = run("serve", "--port", str(port))
        self.assertEqual(result.returncode, 1)
        self.assertEqual(result.stderr,
                         f"ddblab: cannot listen on 127.0.0.1:{port} "
                         "(address in use or host not found)\n")


class ShutdownTest(unittest.TestCase):
    def test_startup_prints_endpoint_and_hint(self):
        server = DdblabServer.start()
        try:
            print(f"startup to endpoint line: "
                  f"{server.startup_seconds * 1000:.1f} ms")
            status, _, body = post(server.endpoint,
                                   "DynamoDB_20120810.ListTables", "{}")
            self.assertEqual(status, 200, body)
        finally:
            self.assertEqual(server.stop(), 0)

    def test_sigint_exits_0(self):
        server = DdblabServer.start()
        server.process.send_signal(signal.SIGINT)
        self.assertEqual(server.process.wait(20), 0)
        self.assertEqual(server.stderr_text(), "")  # --log-level warn

    def test_idle_keep_alive_connection_does_not_hold_shutdown(self):
        server = DdblabServer.start()
        conn = http.client.HTTPConnection(server.host, server.port,
                                          timeout=30)
        try:
            status, _, _ = post(server.endpoint,
                                "DynamoDB_20120810.ListTables", "{}",
                                conn=conn)
            self.assertEqual(status, 200)
            began = time.monotonic()
            server.process.send_signal(signal.SIGTERM)
            self.assertEqual(server.process.wait(20), 0)
            # The keep-alive timeout is 5 s; shutdown must not wait for it.
            self.assertLess(time.monotonic() - began, 4.0)
        finally:
            conn.close()

    def test_no_longer_listening_after_shutdown(self):
        server = DdblabServer.start()
        port = server.port
        self.assertEqual(server.stop(), 0)
        with self.assertRaises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", port), timeout=5).close()


if __name__ == "__main__":
    unittest.main()


class ControlTokenTest(unittest.TestCase):
    def test_token_printed_written_for_the_user_and_removed(self):
        server = DdblabServer.start()
        try:
            path = control_token_path(server.port)
            token = path.read_text().strip()
            self.assertRegex(token, r"^[0-9a-f]{64}$")
            self.assertEqual(stat.S_IMODE(os.stat(path).st_mode), 0o600)
            self.assertEqual(stat.S_IMODE(os.stat(path.parent).st_mode),
                             0o700)
            printed = run("token", server.endpoint)
            self.assertEqual((printed.returncode, printed.stdout),
                             (0, token + "\n"))
            status, _, body = send(server.endpoint, "GET", "/_ddblab/clock",
                                   b"", {"X-Ddblab-Token": token})
            self.assertEqual(status, 200, body)
            status, _, body = send(server.endpoint, "GET", "/_ddblab/clock",
                                   b"", {})
            self.assertEqual(status, 403, body)
        finally:
            self.assertEqual(server.stop(), 0)
        self.assertFalse(path.exists())
        gone = run("token", f"localhost:{server.port}")
        self.assertEqual(gone.returncode, 2)
        self.assertIn(f"no token for port {server.port}", gone.stderr)

    def test_token_file_flag_and_startup_lines(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "t.token")
            process = subprocess.Popen(
                [ddblab_bin(), "serve", "--port", "0",
                 "--control-token-file", path],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            try:
                lines = [process.stdout.readline() for _ in range(4)]
                token = open(path).read().strip()
                endpoint = re.search(r"(http://\S+)", lines[0]).group(1)
                self.assertEqual(
                    lines[2],
                    "Control endpoints (/_ddblab/) need the header "
                    f"X-Ddblab-Token: {token} (also in {path})\n")
                self.assertEqual(
                    lines[3],
                    f"Web console: {endpoint}/_ddblab/ui#token={token}\n")
            finally:
                process.send_signal(signal.SIGTERM)
                self.assertEqual(process.wait(20), 0)
            self.assertFalse(os.path.exists(path))

    def test_open_warns_and_off_serves_only_health(self):
        server = DdblabServer.start(["--control", "open"])
        try:
            self.assertIn("WARNING: --control open", server.stderr_text())
            status, _, body = send(server.endpoint, "GET", "/_ddblab/clock",
                                   b"", {})
            self.assertEqual(status, 200, body)
        finally:
            self.assertEqual(server.stop(), 0)
        server = DdblabServer.start(["--control", "off"])
        try:
            self.assertEqual(send(server.endpoint, "GET", "/_ddblab/clock",
                                  b"", {})[0], 404)
            self.assertEqual(send(server.endpoint, "GET", "/_ddblab/health",
                                  b"", {})[0], 200)
        finally:
            self.assertEqual(server.stop(), 0)

    def test_token_refuses_other_hosts(self):
        result = run("token", "http://10.0.0.1:8000")
        self.assertEqual(result.returncode, 2)
        self.assertEqual(
            result.stderr,
            "ddblab token: 'http://10.0.0.1:8000' is not a loopback endpoint "
            "(127.0.0.1:PORT, localhost:PORT or [::1]:PORT): tokens are kept "
            "for servers on this machine only\n")
