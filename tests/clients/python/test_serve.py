"""The `ddblab` command itself: --help, --version, flag errors (exit 2),
a taken port (exit 1), SIGINT/SIGTERM shutdown (exit 0, also with an idle
keep-alive connection open)."""
import http.client
import signal
import socket
import subprocess
import time
import unittest

from ddblab_server import DdblabServer, ddblab_bin
from wire import post


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
