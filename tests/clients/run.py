#!/usr/bin/python3
"""Real-client tests of `ddblab serve`.

    /usr/bin/python3 tests/clients/run.py [--ddblab BIN] SUITE [-k PATTERN]

SUITE is one of:
  boto3       tests/clients/python/test_*.py (unittest; each module starts
              its own server with --port 0 and stops it with SIGTERM)
  awscli      tests/clients/awscli/test_*.py (/usr/bin/aws, AWS CLI v2)
  js          tests/clients/js/*.test.mjs (node --test, AWS SDK for JS v3;
              runs `npm ci` first if node_modules is missing); one server
              for the run, on a manual clock (a test that needs time to pass
              advances it), its endpoint in $DDBLAB_ENDPOINT and its control
              token in $DDBLAB_CONTROL_TOKEN
  durability  tests/clients/durability/test_*.py (kill -9 mid-load)
  all         every suite above

BIN defaults to $DDBLAB_BIN, else build/cli/ddblab. Exit status:
0 all passed, 1 a test failed, 77 the suite's client is not installed
(ctest reports it as skipped).

To add tests: drop a test_<area>.py into python/ (copy the ServerModule
setUpModule/tearDownModule lines from test_items.py) or a
<area>.test.mjs into js/; nothing else needs registering.
"""
import argparse
import glob
import os
import pathlib
import shutil
import subprocess
import sys
import unittest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from ddblab_server import DdblabServer, control_token  # noqa: E402

SKIP = 77


def run_unittest(folder, pattern):
    loader = unittest.TestLoader()
    if pattern:
        loader.testNamePatterns = [f"*{pattern}*"]
    suite = loader.discover(str(HERE / folder), pattern="test_*.py",
                            top_level_dir=str(HERE / folder))
    if suite.countTestCases() == 0:
        print(f"no tests matched in {folder}/")
        return 1
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    return 0 if result.wasSuccessful() else 1


def run_awscli(pattern):
    aws = os.environ.get("DDBLAB_AWS_CLI", "/usr/bin/aws")
    if not os.access(aws, os.X_OK):
        print(f"skipped: AWS CLI not found at {aws}")
        return SKIP
    return run_unittest("awscli", pattern)


def run_js(pattern):
    node = shutil.which("node")
    npm = shutil.which("npm")
    if not node or not npm:
        print("skipped: node/npm not installed")
        return SKIP
    js = HERE / "js"
    if not (js / "node_modules" / "@aws-sdk" / "client-dynamodb").is_dir():
        print("installing the JS SDK (npm ci) ...", flush=True)
        done = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=js)
        if done.returncode != 0:
            print("npm ci failed: cannot run the JS SDK tests")
            return 1
    files = sorted(glob.glob(str(js / "*.test.mjs")))
    server = DdblabServer.start(args=("--clock", "manual"))
    try:
        command = [node, "--test"]
        if pattern:
            command.append(f"--test-name-pattern={pattern}")
        env = dict(os.environ, DDBLAB_ENDPOINT=server.endpoint,
                   DDBLAB_CONTROL_TOKEN=control_token(server.endpoint))
        status = subprocess.run(command + files, cwd=js, env=env).returncode
    finally:
        stopped = server.stop()
    if stopped != 0:
        print(f"ddblab exited with status {stopped}\n{server.stderr_text()}")
        return 1
    return status


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("suite", choices=["boto3", "awscli", "js",
                                          "durability", "all"])
    parser.add_argument("--ddblab", help="the ddblab binary")
    parser.add_argument("-k", dest="pattern",
                        help="only tests whose name contains PATTERN")
    args = parser.parse_args()
    if args.ddblab:
        os.environ["DDBLAB_BIN"] = os.path.abspath(args.ddblab)

    suites = {
        "boto3": lambda: run_unittest("python", args.pattern),
        "awscli": lambda: run_awscli(args.pattern),
        "js": lambda: run_js(args.pattern),
        "durability": lambda: run_unittest("durability", args.pattern),
    }
    names = list(suites) if args.suite == "all" else [args.suite]
    worst = 0
    for name in names:
        print(f"=== {name} ===", flush=True)
        status = suites[name]()
        if status == 1 or (status == SKIP and worst == 0):
            worst = status
    return worst


if __name__ == "__main__":
    sys.exit(main())
