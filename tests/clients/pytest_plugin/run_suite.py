#!/usr/bin/python3
"""Installs pytest-ddblab (clients/python) into a fresh venv and runs its
example suite (this folder) over two pytest-xdist workers.

    /usr/bin/python3 tests/clients/pytest_plugin/run_suite.py --ddblab BIN

Offline: the venv sees the system's packages (--system-site-packages:
Debian's pytest, pytest-xdist, boto3, setuptools, wheel) and pip installs
the plugin with --no-index --no-build-isolation, from a copy of
clients/python so the source tree gets no build/ or egg-info. The suite
runs from a temp folder with `-n 2 --ddblab-bin=BIN --ddblab-arg=--seed=7`;
the plugin comes from its pytest11 entry point. Then checks that each worker
had its own server (distinct endpoints) and that both were stopped.
Exit status: 0 passed, 1 failed, 77 pytest, pytest-xdist or boto3 missing.
"""
import argparse
import importlib.util
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[2]
SKIP = 77


def fail(message):
    print(f"FAIL: {message}")
    return 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ddblab", required=True)
    args = ap.parse_args()
    binary = pathlib.Path(args.ddblab).resolve()  # pytest runs elsewhere
    missing = [m for m in ("pytest", "xdist", "boto3", "venv")
               if importlib.util.find_spec(m) is None]
    if missing:
        print(f"skipped: {', '.join(missing)} not installed for "
              f"{sys.executable} (scripts/setup.sh installs them)")
        return SKIP
    work = pathlib.Path(tempfile.mkdtemp(prefix="pytest-ddblab-suite-"))
    try:
        venv = work / "venv"
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages",
                        "--without-pip", str(venv)], check=True)
        python = venv / "bin" / "python"
        source = work / "pytest-ddblab"
        shutil.copytree(ROOT / "clients" / "python", source)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet",
                        "--no-index", "--no-build-isolation",
                        "--disable-pip-version-check", str(source)],
                       check=True)
        where = subprocess.run(
            [str(python), "-c", "import pytest_ddblab; print(pytest_ddblab.__file__)"],
            check=True, capture_output=True, text=True, cwd=work).stdout.strip()
        if not where.startswith(str(venv)):
            return fail(f"pytest_ddblab imported from {where}, not the venv")
        report = work / "report"
        report.mkdir()
        env = dict(os.environ, DDBLAB_PLUGIN_REPORT=str(report))
        env.pop("DDBLAB_BIN", None)
        suite = work / "suite"
        shutil.copytree(HERE, suite, ignore=shutil.ignore_patterns(
            "run_suite.py", "__pycache__"))
        ran = subprocess.run(
            [str(python), "-m", "pytest", "-n", "2", "-q",
             f"--ddblab-bin={binary}",
             "--ddblab-arg=--seed=7"], cwd=suite, env=env)
        if ran.returncode != 0:
            return fail(f"pytest exited with status {ran.returncode}")
        servers = [json.loads(p.read_text()) for p in sorted(report.iterdir())]
        workers = sorted(s["worker"] for s in servers)
        if workers != ["gw0", "gw1"]:
            return fail(f"servers reported by workers {workers}, want gw0, gw1")
        if len({s["endpoint"] for s in servers}) != 2:
            return fail(f"the workers shared a server: {servers}")
        for s in servers:
            try:
                os.kill(s["pid"], 0)
            except ProcessLookupError:
                continue
            return fail(f"ddblab pid {s['pid']} of {s['worker']} still runs")
        print(f"ok: one server per worker ({', '.join(s['endpoint'] for s in servers)}),"
              " both stopped")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
