"""The pytest plugin (entry point `pytest11: ddblab`): options, marker, fixtures.

Fixtures:
  ddblab_server    session: one `ddblab serve` per session, or per
                   pytest-xdist worker (each worker is its own process, so
                   each gets its own server on its own port); stopped with
                   SIGTERM at the end of the session
  ddblab_endpoint  session: that server's URL, for any AWS SDK
  ddblab           function: a DdblabControl for the control API
Marker `ddblab_fresh` (or ini `ddblab_fresh = true` for every test that uses
the server; `ddblab_fresh(False)` opts a test out): POST /_ddblab/reset
before the test, so it starts with no tables, streams, faults or mappings.
Options: --ddblab-bin PATH (else $DDBLAB_BIN, else ddblab on PATH),
--ddblab-arg ARG (repeatable) and ini `ddblab_args` for extra serve flags.
A missing binary is a usage error (exit status 4) when a collected test
needs the server. Thread-safety: pytest's (one test at a time per process).
"""
from __future__ import annotations

import os
from typing import Iterator, List, Optional, Tuple

import pytest

from .control import DdblabControl
from .server import WHAT_TO_DO, DdblabNotFound, DdblabServer, find_binary

FIXTURE = "ddblab_server"


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
           item.get_closest_marker("ddblab_fresh") for item in items):
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
def ddblab(ddblab_server: DdblabServer) -> DdblabControl:
    """A control client (clock, TTL, faults, shards, reset) for the server."""
    return ddblab_server.control()


@pytest.fixture(autouse=True)
def _ddblab_fresh(request: pytest.FixtureRequest) -> None:
    """Resets the server before a test marked ddblab_fresh (or every test
    using it under ini ddblab_fresh = true). Autouse fixtures run before the
    test's other function-scoped fixtures, so those see the empty server."""
    if _fresh(request.node):
        server: DdblabServer = request.getfixturevalue(FIXTURE)
        server.control().reset()
