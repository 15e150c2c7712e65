"""Finds, starts and stops one `ddblab serve` (the process behind the fixtures).

    binary = find_binary(option_value, os.environ)   # or DdblabNotFound
    server = DdblabServer.start(binary, ["--seed=7"])
    server.endpoint, server.token, server.control()
    server.stop()                                     # SIGTERM, wait; status

The server listens on a free loopback port (`--port 0`; the endpoint is read
from the first line it prints) and writes its control token into a private
temporary folder (`--control-token-file`), read once it answers its health
check. Unless the extra flags set a clock, it runs on a manual clock
(`--clock manual`: time moves only through the control API); unless they
set --namespace, it keeps a database per access key (`--namespace
access-key`), so that tests signing with different keys are isolated. Its stdout is
drained by a daemon thread; its stderr goes to a temporary file that
`stderr_text()` returns. Standard library only.
Thread-safety: one owner (the session fixture); not for concurrent use.
"""
from __future__ import annotations

import os
import pathlib
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from typing import IO, List, Mapping, Optional, Sequence

from .control import DdblabControl, DdblabControlError

ENDPOINT_RE = re.compile(r"(https?://\S+)")

WHAT_TO_DO = ("Put ddblab on PATH, pass --ddblab-bin PATH, or set DDBLAB_BIN "
              "(a build of ddblab leaves it at build/cli/ddblab).")


class DdblabNotFound(Exception):
    """No runnable ddblab binary; the message says where it looked."""


def find_binary(option: Optional[str], environ: Mapping[str, str]) -> str:
    """The ddblab to run: `option` (--ddblab-bin), else $DDBLAB_BIN, else
    `ddblab` on PATH. Raises DdblabNotFound naming what to do."""
    for given, name in ((option, "--ddblab-bin"),
                        (environ.get("DDBLAB_BIN"), "DDBLAB_BIN")):
        if given:
            path = pathlib.Path(given).expanduser()
            if path.is_file() and os.access(path, os.X_OK):
                return str(path.resolve())
            return _not_found(f"{name} {given} is not an executable file.")
    found = shutil.which("ddblab", path=environ.get("PATH"))
    if found:
        return found
    return _not_found("no ddblab on PATH.")


def _not_found(why: str) -> str:
    raise DdblabNotFound(f"pytest-ddblab: {why} {WHAT_TO_DO}")


def _flag_value(args: Sequence[str], flag: str) -> Optional[str]:
    """The value of `flag` in args (`--flag V` or `--flag=V`), last wins."""
    value = None
    for i, arg in enumerate(args):
        if arg == flag and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith(flag + "="):
            value = arg[len(flag) + 1:]
    return value


class DdblabServer:
    """One running `ddblab serve`: endpoint, port, pid, control token."""

    def __init__(self, process: subprocess.Popen, endpoint: str,
                 token_file: pathlib.Path, private_dir: Optional[str],
                 stderr_file: IO[str], command: List[str]) -> None:
        self.process = process
        self.endpoint = endpoint
        self.port = int(endpoint.rsplit(":", 1)[1].rstrip("/"))
        self.pid = process.pid
        self.command = command
        self.token: Optional[str] = None
        # shared | access-key | access-key+region (the --namespace flag).
        self.namespace_mode = _flag_value(command, "--namespace") or "shared"
        self._token_file = token_file
        self._private_dir = private_dir
        self._stderr_file = stderr_file

    @classmethod
    def start(cls, binary: str, args: Sequence[str] = (),
              timeout: float = 15.0) -> "DdblabServer":
        """Starts `binary serve --port 0 [--clock manual] ARGS` and returns
        once it answers GET /_ddblab/health. Raises RuntimeError with the
        server's stderr when it does not come up within `timeout` seconds."""
        args = list(args)
        private_dir = None
        token_path = _flag_value(args, "--control-token-file")
        if token_path is None:
            private_dir = tempfile.mkdtemp(prefix="pytest-ddblab-")
            token_path = os.path.join(private_dir, "control.token")
            args = ["--control-token-file", token_path] + args
        if _flag_value(args, "--clock") is None:
            args = ["--clock", "manual"] + args
        if _flag_value(args, "--namespace") is None:
            args = ["--namespace", "access-key"] + args
        command = [binary, "serve", "--port", "0", "--log-level", "warn"]
        command += args
        stderr_file = tempfile.TemporaryFile(mode="w+")
        process = subprocess.Popen(command, stdout=subprocess.PIPE,
                                   stderr=stderr_file, text=True)
        deadline = time.monotonic() + timeout
        first_line: List[str] = []
        reader = threading.Thread(
            target=lambda: first_line.append(process.stdout.readline()),
            daemon=True)
        reader.start()
        reader.join(timeout)
        match = ENDPOINT_RE.search(first_line[0]) if first_line else None
        server = None
        if match:
            # Keep draining stdout so the server never blocks on a full pipe.
            threading.Thread(target=process.stdout.read, daemon=True).start()
            server = cls(process, match.group(1), pathlib.Path(token_path),
                         private_dir, stderr_file, command)
            if server._wait_healthy(deadline):
                server.token = server._read_token()
                return server
        process.kill()
        process.wait()
        if private_dir:
            shutil.rmtree(private_dir, ignore_errors=True)
        stderr_file.seek(0)
        printed = first_line[0] if first_line else ""
        raise RuntimeError(
            f"pytest-ddblab: ddblab serve did not come up within {timeout}s "
            f"(exit status {process.returncode}): {' '.join(command)}\n"
            f"stdout: {printed!r}\nstderr: {stderr_file.read()}")

    def control(self, namespace: Optional[str] = None) -> DdblabControl:
        """A control client for this server, with its token, bound to
        `namespace` (see namespace_name; None: none)."""
        return DdblabControl(self.endpoint, self.token or "",
                             namespace=namespace)

    def namespace_name(self, access_key: str, region: str) -> Optional[str]:
        """What ?namespace= names for clients signing with `access_key` in
        `region`: "KEY", "KEY:REGION", or None on a shared server."""
        if self.namespace_mode == "access-key":
            return access_key
        if self.namespace_mode == "access-key+region":
            return f"{access_key}:{region}"
        return None

    def stderr_text(self) -> str:
        """What the server wrote to stderr so far."""
        self._stderr_file.seek(0)
        return self._stderr_file.read()

    def stop(self, timeout: float = 20.0) -> int:
        """SIGTERM, then waits; returns the exit status (0 after a clean
        shutdown). Kills it and raises RuntimeError when it does not stop
        within `timeout` seconds."""
        try:
            if self.process.poll() is None:
                self.process.send_signal(signal.SIGTERM)
            try:
                return self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                raise RuntimeError(
                    f"pytest-ddblab: ddblab (pid {self.pid}) did not stop "
                    f"within {timeout}s of SIGTERM\n{self.stderr_text()}")
        finally:
            if self._private_dir:
                shutil.rmtree(self._private_dir, ignore_errors=True)

    def _wait_healthy(self, deadline: float) -> bool:
        probe = DdblabControl(self.endpoint, "", timeout=1.0)
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                probe.health()
                return True
            except DdblabControlError:
                time.sleep(0.02)
        return False

    def _read_token(self) -> Optional[str]:
        # No file under --control open or off: requests go without a token.
        try:
            return self._token_file.read_text().strip() or None
        except OSError:
            return None
