"""The pytest plugin (entry point `pytest11: ddblab`): options, marker, fixtures.

Fixtures:
  ddblab_server    session: one `ddblab serve` per session, or per
                   pytest-xdist worker (each worker is its own process, so
                   each gets its own server on its own port); stopped with
                   SIGTERM at the end of the session
  ddblab_endpoint  session: that server's URL, for any AWS SDK
  ddblab_namespace function: the DdblabNamespace the test's clients use:
                   credentials (`client_kwargs` for boto3) and a control
                   client bound to it. The server keeps a database per
                   access key (--namespace access-key unless ddblab_args
                   say otherwise); an unmarked test gets the session's key
                   ($AWS_ACCESS_KEY_ID, else "ddblab")
  ddblab           function: the DdblabControl of ddblab_namespace
Marker `ddblab_namespace`: the test gets a fresh namespace, an access key no
other test uses; AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY /
AWS_DEFAULT_REGION are set to it for the test (and boto3's default session
is dropped for it), so clients built from the environment land in it too. Tests of parallel workers never meet.
Marker `ddblab_fresh` (or ini `ddblab_fresh = true` for every test that uses
the server; `ddblab_fresh(False)` opts a test out): POST /_ddblab/reset
(of the test's namespace) before the test, so it starts with no tables,
streams, faults or mappings.
Options: --ddblab-bin PATH (else $DDBLAB_BIN, else ddblab on PATH),
--ddblab-arg ARG (repeatable) and ini `ddblab_args` for extra serve flags.
A missing binary is a usage error (exit status 4) when a collected test
needs the server. Thread-safety: pytest's (one test at a time per process).
"""
from __future__ import annotations

import os
import sys
from typing import Iterator, List, Optional, Tuple

import pytest

from .control import DdblabControl
from .namespace import DdblabNamespace, fresh_access_key
from .server import WHAT_TO_DO, DdblabNotFound, DdblabServer, find_binary

FIXTURE = "ddblab_server"
DEFAULT_ACCESS_KEY = "ddblab"
DEFAULT_REGION = "us-east-1"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("ddblab", "ddblab (local DynamoDB emulator)")
    group.addoption(
        "--ddblab-bin", dest="ddblab_bin", metavar="PATH", default=None,
        help="the ddblab binary to run (default: $DDBLAB_BIN, else ddblab "
        "on PATH)")
    group.addoption(
        "--ddblab-arg", dest="ddblab_args", metavar="ARG", action="append",
        default=[],
        help="one more flag for ddblab serve, after those of the ini "
        "option ddblab_args (repeatable; write it with '=', e.g. "
        "--ddblab-arg=--seed=7)")
    parser.addini("ddblab_args", type="args", default=[],
                  help="flags for ddblab serve (e.g. --seed 7 --ttl-delay 0)")
    parser.addini("ddblab_fresh", type="bool", default=False,
                  help="reset the ddblab server before every test that uses "
                  "it, as if each were marked ddblab_fresh")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "ddblab_fresh(enabled=True): reset this worker's ddblab server "
        "(POST /_ddblab/reset) before the test, so it starts empty")
    config.addinivalue_line(
        "markers",
        "ddblab_namespace: give this test a fresh ddblab namespace (an "
        "access key of its own, also set in AWS_ACCESS_KEY_ID for the test)")
    if not _is_xdist_worker(config):
        config.pluginmanager.register(_MissingBinaryStatus(),
                                      "ddblab-missing-binary")


def _serve_args(config: pytest.Config) -> List[str]:
    return list(config.getini("ddblab_args")) + list(
        config.getoption("ddblab_args") or [])


def _find(config: pytest.Config) -> Tuple[Optional[str], str]:
    """(the binary, "") or (None, what is missing and what to do)."""
    try:
        return find_binary(config.getoption("ddblab_bin"), os.environ), ""
    except DdblabNotFound as missing:
        return None, str(missing)


def _fresh(item: pytest.Item) -> bool:
    marker = item.get_closest_marker("ddblab_fresh")
    if marker is not None:
        return bool(marker.args[0]) if marker.args else bool(
            marker.kwargs.get("enabled", True))
    return bool(item.config.getini("ddblab_fresh")) and (
        FIXTURE in getattr(item, "fixturenames", ()))


def _is_xdist_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def pytest_collection_modifyitems(session: pytest.Session,
                                  config: pytest.Config,
                                  items: List[pytest.Item]) -> None:
    # Say at once, not in every test, that the server cannot start. An xdist
    # worker cannot end the session cleanly: there the fixture fails each
    # test with the message and the controller makes the status a usage
    # error (pytest_sessionfinish).
    if _is_xdist_worker(config):
        return
    if any(FIXTURE in getattr(item, "fixturenames", ()) or
           item.get_closest_marker("ddblab_fresh") or
           item.get_closest_marker("ddblab_namespace") for item in items):
        binary, missing = _find(config)
        if binary is None:
            raise pytest.UsageError(missing)


class _MissingBinaryStatus:
    """On the process that reports (no xdist, or xdist's controller): a test
    whose setup failed for want of the binary makes the session's exit
    status a usage error (4)."""

    def __init__(self) -> None:
        self.seen = False

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if (report.when == "setup" and report.failed and
                WHAT_TO_DO in str(report.longrepr)):
            self.seen = True

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self.seen:
            session.exitstatus = pytest.ExitCode.USAGE_ERROR


@pytest.fixture(scope="session")
def ddblab_server(pytestconfig: pytest.Config) -> Iterator[DdblabServer]:
    """The `ddblab serve` of this session (or xdist worker)."""
    binary, missing = _find(pytestconfig)
    if binary is None:
        pytest.fail(missing, pytrace=False)
    server = DdblabServer.start(binary, _serve_args(pytestconfig))
    yield server
    status = server.stop()
    if status != 0:
        raise RuntimeError(
            f"pytest-ddblab: ddblab serve exited with status {status}\n"
            f"{server.stderr_text()}")


@pytest.fixture(scope="session")
def ddblab_endpoint(ddblab_server: DdblabServer) -> str:
    """The URL of this session's ddblab ("http://127.0.0.1:PORT")."""
    return ddblab_server.endpoint


@pytest.fixture
def ddblab_namespace(request: pytest.FixtureRequest,
                     ddblab_server: DdblabServer,
                     monkeypatch: pytest.MonkeyPatch) -> DdblabNamespace:
    """The namespace of this test: a fresh one under the ddblab_namespace
    marker (its key also in the environment for the test), else the
    session's ($AWS_ACCESS_KEY_ID, else "ddblab")."""
    region = (os.environ.get("AWS_DEFAULT_REGION") or
              os.environ.get("AWS_REGION") or DEFAULT_REGION)
    if request.node.get_closest_marker("ddblab_namespace") is not None:
        access_key = fresh_access_key()
        secret_key = "ddblab"
        monkeypatch.setenv("AWS_ACCESS_KEY_ID", access_key)
        monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", secret_key)
        monkeypatch.setenv("AWS_DEFAULT_REGION", region)
        monkeypatch.delenv("AWS_SESSION_TOKEN", raising=False)
        # boto3's default session keeps the credentials it first resolved:
        # boto3.client() in this test must read the environment anew.
        boto3 = sys.modules.get("boto3")
        if boto3 is not None:
            monkeypatch.setattr(boto3, "DEFAULT_SESSION", None)
    else:
        access_key = os.environ.get("AWS_ACCESS_KEY_ID") or DEFAULT_ACCESS_KEY
        secret_key = os.environ.get("AWS_SECRET_ACCESS_KEY") or "ddblab"
    name = ddblab_server.namespace_name(access_key, region)
    return DdblabNamespace(ddblab_server.endpoint, access_key, secret_key,
                           region, name, ddblab_server.control(name))


@pytest.fixture
def ddblab(ddblab_namespace: DdblabNamespace) -> DdblabControl:
    """A control client (clock, TTL, faults, shards, reset) for the server,
    bound to the test's namespace."""
    return ddblab_namespace.control


@pytest.fixture(autouse=True)
def _ddblab_fresh(request: pytest.FixtureRequest) -> None:
    """Resets the test's namespace before a test marked ddblab_fresh (or
    every test using the server under ini ddblab_fresh = true). Autouse
    fixtures run before the test's other function-scoped fixtures, so those
    see the empty namespace."""
    if _fresh(request.node):
        namespace: DdblabNamespace = request.getfixturevalue(
            "ddblab_namespace")
        namespace.control.reset()
