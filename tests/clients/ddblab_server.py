"""Starts and stops `ddblab serve` for the real-client tests.

    server = DdblabServer.start(["--auth", "verify", ...])
    client = server.boto3_client("dynamodb")   # retries OFF
    ...
    server.stop()   # SIGTERM, waits, returns the exit status

The binary is $DDBLAB_BIN, or build/cli/ddblab in the repo.
The server listens on a free loopback port (--port 0); its endpoint is read
from the first line it prints. Its stderr goes to a temporary file that
`stderr_text()` returns (shown when a test module fails).
"""
import os
import pathlib
import re
import signal
import subprocess
import tempfile
import threading
import time

REPO = pathlib.Path(__file__).resolve().parents[2]
DEFAULT_BIN = REPO / "build" / "cli" / "ddblab"
ENDPOINT_RE = re.compile(r"(https?://\S+)")

ACCESS_KEY_ID = "AKIDDDBLABTEST"
SECRET_ACCESS_KEY = "ddblab-test-secret"
REGION = "us-east-1"


def ddblab_bin():
    return os.environ.get("DDBLAB_BIN", str(DEFAULT_BIN))


def control_token_path(port):
    """Where `ddblab serve --port PORT` writes its control token by default
    ($XDG_RUNTIME_DIR/ddblab/control-PORT.token, else
    ~/.ddblab/control-PORT.token)."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    folder = (pathlib.Path(runtime) / "ddblab" if runtime
              else pathlib.Path.home() / ".ddblab")
    return folder / f"control-{port}.token"


def control_token(endpoint):
    """The token a client on this machine sends to the ddblab at `endpoint`
    (X-Ddblab-Token): $DDBLAB_CONTROL_TOKEN, else the server's token file;
    None when there is none (--control open or off)."""
    if os.environ.get("DDBLAB_CONTROL_TOKEN"):
        return os.environ["DDBLAB_CONTROL_TOKEN"]
    port = int(endpoint.rstrip("/").rsplit(":", 1)[1])
    try:
        return control_token_path(port).read_text().strip() or None
    except OSError:
        return None


def control_headers(endpoint):
    """Headers of a control request (/_ddblab/...) to `endpoint`."""
    headers = {"Content-Type": "application/json"}
    token = control_token(endpoint)
    if token:
        headers["X-Ddblab-Token"] = token
    return headers


class DdblabServer:
    def __init__(self, process, endpoint, stderr_file, startup_seconds):
        self.process = process
        self.endpoint = endpoint
        self.startup_seconds = startup_seconds
        self._stderr_file = stderr_file
        self._clients = []
        host_port = endpoint.split("://", 1)[1]
        self.host, _, port = host_port.rpartition(":")
        self.port = int(port)

    @classmethod
    def start(cls, args=(), timeout=15.0):
        """Starts `ddblab serve --port 0 <args>` and waits for its endpoint."""
        binary = ddblab_bin()
        if not os.access(binary, os.X_OK):
            raise RuntimeError(f"ddblab binary not found: {binary} "
                               "(build it or set DDBLAB_BIN)")
        stderr_file = tempfile.TemporaryFile(mode="w+")
        command = [binary, "serve", "--port", "0", "--log-level", "warn",
                   *args]
        began = time.monotonic()
        process = subprocess.Popen(command, stdout=subprocess.PIPE,
                                   stderr=stderr_file, text=True)
        line_box = []
        reader = threading.Thread(
            target=lambda: line_box.append(process.stdout.readline()),
            daemon=True)
        reader.start()
        reader.join(timeout)
        line = line_box[0] if line_box else ""
        match = ENDPOINT_RE.search(line)
        if not match:
            process.kill()
            process.wait()
            stderr_file.seek(0)
            raise RuntimeError(
                f"ddblab did not print its endpoint within {timeout}s: "
                f"{command}\nstdout: {line!r}\nstderr: {stderr_file.read()}")
        # Keep draining stdout so the server never blocks on a full pipe.
        threading.Thread(target=process.stdout.read, daemon=True).start()
        return cls(process, match.group(1), stderr_file,
                   time.monotonic() - began)

    def boto3_client(self, service="dynamodb", access_key_id=ACCESS_KEY_ID,
                     secret_access_key=SECRET_ACCESS_KEY, region=REGION,
                     **config):
        """A boto3 client for this server with retries OFF (one attempt, in
        botocore's legacy mode, where a CRC32 mismatch raises at once)."""
        import boto3
        from botocore.config import Config
        client = boto3.client(
            service, endpoint_url=self.endpoint, region_name=region,
            aws_access_key_id=access_key_id,
            aws_secret_access_key=secret_access_key,
            config=Config(retries={"mode": "legacy",
                                   "total_max_attempts": 1},
                          connect_timeout=5, read_timeout=30, **config))
        self._clients.append(client)
        return client

    def stderr_text(self):
        self._stderr_file.seek(0)
        return self._stderr_file.read()

    def stop(self, timeout=20.0):
        """Closes the clients, sends SIGTERM and waits; returns the exit
        status (0 after a graceful shutdown)."""
        for client in self._clients:
            client.close()
        self._clients = []
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise RuntimeError(f"ddblab did not stop within {timeout}s "
                               f"after SIGTERM\n{self.stderr_text()}")

    def kill9(self):
        self.process.send_signal(signal.SIGKILL)
        return self.process.wait()


class ServerModule:
    """Shared server per test module:

        server = ServerModule()
        def setUpModule(): server.start()
        def tearDownModule(): server.stop()
    """

    def __init__(self, args=()):
        self.args = list(args)
        self.server = None

    def start(self):
        self.server = DdblabServer.start(self.args)
        return self.server

    def stop(self):
        if self.server is None:
            return
        status = self.server.stop()
        if status != 0:
            raise RuntimeError(f"ddblab exited with status {status}\n"
                               f"{self.server.stderr_text()}")

    def __getattr__(self, name):
        return getattr(self.server, name)
