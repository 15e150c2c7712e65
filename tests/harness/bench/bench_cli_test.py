"""`ddblab bench sweeper` as a user runs it, on one backend row:

    bench_cli_test.py DDBLAB_BIN SOURCE_DIR emulator|ddblab_http|ddblocal

Each run writes a report that must validate against
bench/pattern_report.schema.json and whose numbers must agree (deleted =
expired in the swept windows, nothing left behind for the correct variant).
Rows:
  emulator     in process, virtual clock: a run, the naive variant (exit 1,
               its check FAILED), --plot, --help, bad arguments (exit 2 with
               the exact message)
  ddblab_http  `ddblab serve --clock manual --ttl-delay 90s` over HTTP,
               virtual clock, native TTL timed; Ctrl-C part way (exit 130,
               its tables deleted); --clock real refused
  ddblocal     Amazon DynamoDB Local (tests/clients/ddblocal), real clock,
               a few seconds: native TTL deletion reported not available;
               --clock virtual refused
Exit 77 (ctest: skipped) when DynamoDB Local or java is missing.
"""
import json
import pathlib
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import jsonschema

BIN, SOURCE = sys.argv[1], pathlib.Path(sys.argv[2])
ROW = sys.argv[3]
sys.path.insert(0, str(SOURCE / "tests" / "clients"))
from ddblab_server import DdblabServer  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import bench_cli_common as common  # noqa: E402
from bench_cli_common import FAILURES, check  # noqa: E402

SCHEMA = json.loads((SOURCE / "bench" / "pattern_report.schema.json").read_text())
TMP = pathlib.Path(tempfile.mkdtemp(prefix="bench_cli_"))


def bench(*args):
    """Runs `ddblab bench ARGS`; (exit code, stdout, stderr)."""
    return common.bench(BIN, *args)


def report_of(name, *args, expect=0):
    path = TMP / f"{name}.json"
    code, out, err = bench("sweeper", *args, "--json", str(path))
    check(code == expect, f"{name}: exit {code}, expected {expect}\n{out}{err}")
    report = json.loads(path.read_text())
    jsonschema.validate(report, SCHEMA,
                        cls=jsonschema.Draft202012Validator)
    r = report["results"]
    # What a sweep found expired it deleted or gave up (after its retries).
    check(r["items_deleted"] + r["unprocessed_given_up"] ==
          r["items_expired_in_swept_windows"]
          or report["parameters"]["variant"] == "no_pagination",
          f"{name}: deleted {r['items_deleted']} + given up "
          f"{r['unprocessed_given_up']} != expired in swept windows "
          f"{r['items_expired_in_swept_windows']}")
    check(r["items_in_table_at_end"] ==
          r["items_written"] - r["items_deleted"], f"{name}: table count")
    check(report["ok"] == (expect == 0), f"{name}: ok is {report['ok']}")
    return report, out


def bad(args, message):
    code, out, err = bench(*args)
    check(code == 2, f"{args}: exit {code}, expected 2")
    check(err.startswith(message + "\n"),
          f"{args}: stderr {err!r}, expected {message!r}")
    check(out == "", f"{args}: stdout {out!r}")


def emulator_row():
    report, out = report_of("emulator", "--items", "600", "--span", "10m",
                            "--native-sample", "100", "--workers", "2")
    check(report["backend"] == {"spec": "emulator", "kind": "emulator",
                                "clock": "virtual", "ttl_delay": "aws",
                                "capacity": "off"},
          f"backend {report['backend']}")
    r = report["results"]
    check(r["items_deleted"] == 600 and r["items_left_behind"] == 0,
          f"emulator: {r}")
    check(r["native_ttl_deleted"] == 100, "emulator: native TTL sample")
    check(report["not_available"] == [], "emulator: not_available")
    check("check nothing_left_behind: ok" in out and
          out.endswith("all checks ok\n"), f"emulator summary:\n{out}")

    naive, out = report_of("naive", "--items", "600", "--span", "10m",
                           "--window", "60s", "--frequency", "45s",
                           "--variant", "window_not_multiple_of_frequency",
                           "--native-sample", "0", expect=1)
    left = naive["results"]["items_left_behind"]
    check(left > 0, "naive: leaves items")
    check(f"check nothing_left_behind: FAILED ({left} of 600 expired items "
          "still in the table after the last trigger)" in out and
          out.endswith("a check FAILED\n"), f"naive summary:\n{out}")

    # The capacity model: one window of 3,000 items is more deletes at one
    # instant than the GSI partition of that window takes (1,000 WCU/s);
    # the correct sweeper's conditional DeleteItems are throttled, retried
    # with backoff (which moves the virtual clock and refills the
    # partition), and after 3 retries of one delete the sweeper gives it up.
    capped, out = report_of("capacity", "--items", "3000", "--span", "1m",
                            "--native-sample", "0", "--capacity", "enforce",
                            expect=1)
    check(capped["backend"]["capacity"] == "enforce",
          f"capacity backend {capped['backend']}")
    r = capped["results"]
    check(r["delete_retries"] > 0 and r["items_left_behind"] > 0 and
          r["items_left_behind"] == r["unprocessed_given_up"],
          f"capacity: {r}")
    # Throttled attempts consume nothing: 2 WCU (table + GSI) per item
    # deleted. The virtual clock makes the run exact: the same every time.
    check(r["write_units"] == 2 * r["items_deleted"], f"capacity WCU: {r}")
    check((r["items_deleted"], r["unprocessed_given_up"],
           r["delete_retries"]) == (2998, 2, 10),
          f"capacity: deterministic figures changed: {r}")
    check(out.startswith("sweeper on emulator (emulator, virtual clock, TTL "
                         "delay aws, capacity enforced), "),
          f"capacity summary:\n{out}")

    png = TMP / "plot.png"
    code, out, err = bench("sweeper", "--items", "300", "--span", "5m",
                           "--plot", str(png))
    check(code == 0, f"--plot: exit {code}: {err}")
    check(png.exists() and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n",
          "--plot wrote no PNG")
    check(out.endswith(f"plot: {png}\n"), f"--plot summary:\n{out}")
    check((TMP / "plot.png.json").exists(), "--plot keeps its report")

    code, out, err = bench("--help")
    check(code == 0 and "sweeper flags:" in out and "--workers C" in out,
          f"--help: {code} {out}")

    bad(["sweeper", "--items", "x"], 'ddblab bench sweeper: --items expects a '
        'whole number from 1 to 10000000, got "x"')
    bad(["sweeper", "--clock", "sometimes"],
        'ddblab bench: --clock expects virtual or real, got "sometimes"')
    bad(["sweeper", "--json"], "ddblab bench: --json needs a value")
    bad(["nosuch"], 'ddblab bench: unknown benchmark "nosuch" (sweeper, '
        'aggregator)')
    bad([], "ddblab bench: no benchmark named (sweeper, aggregator)")
    bad(["--items", "5", "sweeper"],
        "ddblab bench: no benchmark named (sweeper, aggregator)")
    bad(["sweeper", "--backend", "emulator?clock=manual"],
        "ddblab bench sweeper: --backend emulator takes no options (use "
        "--clock, --ttl-delay and --capacity), got emulator?clock=manual")
    bad(["sweeper", "--capacity", "sometimes"],
        'ddblab bench: --capacity expects off or enforce, got "sometimes"')
    bad(["sweeper", "--backend", "http://127.0.0.1:9", "--capacity",
         "enforce"],
        "ddblab bench: --capacity applies to --backend emulator (start "
        "ddblab serve with --capacity enforce instead)")
    bad(["sweeper", "--ttl-delay", "eventually"],
        "ddblab bench sweeper: invalid TTL delay 'eventually': invalid "
        "duration 'eventually': no number (expected a number with an "
        "optional unit us, ms, s, m, h or d, e.g. 90s, 1.5m, 250ms) (expected "
        "0, a duration like 90s or 15m, a range like 1m..48h, or aws)")
    bad(["sweeper", "--backend", "http://127.0.0.1:9", "--ttl-delay", "0"],
        "ddblab bench: --ttl-delay applies to --backend emulator (start "
        "ddblab serve with --ttl-delay instead)")
    bad(["sweeper", "--backend", "aws", "--clock", "virtual"],
        "ddblab bench sweeper: --clock virtual: Amazon DynamoDB's clock "
        "cannot be moved (use --clock real)")


def http_row():
    server = DdblabServer.start(["--clock", "manual", "--ttl-delay", "90s"])
    try:
        for run in ("http", "http_again"):  # the clock moved on: still fine
            report, _ = report_of(run, "--backend", server.endpoint,
                                  "--items", "500", "--span", "5m",
                                  "--native-sample", "50")
            check(report["backend"] == {"spec": server.endpoint,
                                        "kind": "ddblab", "clock": "virtual"},
                  f"backend {report['backend']}")
            r = report["results"]
            check(r["items_deleted"] == 500 and r["items_left_behind"] == 0,
                  f"http: {r}")
            check(r["native_ttl_deleted"] == 50 and
                  90 <= r["native_ttl_delay_seconds"]["p50"] <= 150,
                  f"http native TTL under 90s: {r}")
        interrupted_run(server)
        bad(["sweeper", "--backend", server.endpoint, "--clock", "real"],
            f"ddblab bench sweeper: --clock real: {server.endpoint} is ddblab "
            "serve --clock manual, whose clock moves only when told (use "
            "--clock virtual, or start it on the system clock)")
    finally:
        server.stop()


def interrupted_run(server):
    """Ctrl-C part way: exit 130, and the run's tables are gone."""
    dynamodb = server.boto3_client()
    proc = subprocess.Popen(
        [BIN, "bench", "sweeper", "--backend", server.endpoint, "--items",
         "50000", "--native-sample", "100"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while len(dynamodb.list_tables()["TableNames"]) < 2:
        check(proc.poll() is None, "interrupt: the run ended before its "
              "tables were seen")
        if proc.poll() is not None or time.monotonic() > deadline:
            break
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    check(proc.returncode == 130,
          f"interrupt: exit {proc.returncode}, expected 130\n{out}{err}")
    check(err.endswith("ddblab bench sweeper: interrupted by a signal; the "
                       "tables the run created were deleted\n"),
          f"interrupt: stderr {err!r}")
    tables = dynamodb.list_tables()["TableNames"]
    check(tables == [], f"interrupt: tables left {tables}")


def ddblocal_row():
    with common.dynamodb_local(SOURCE) as endpoint:
        report, _ = report_of("ddblocal", "--backend", endpoint, "--items",
                              "300", "--span", "2s", "--lead", "2s")
        check(report["backend"] == {"spec": endpoint, "kind": "dynamodb",
                                    "clock": "real"},
              f"backend {report['backend']}")
        r = report["results"]
        check(r["items_deleted"] == 300 and r["items_left_behind"] == 0,
              f"ddblocal: {r}")
        whats = [n["what"] for n in report["not_available"]]
        check(whats == ["native_ttl_deletion"], f"not_available {whats}")
        check(not any(k.startswith("native_ttl") for k in r),
              "ddblocal: native TTL figures reported")
        check(report["parameters"]["real_clock_defaults"] is True and
              "scaled down" in report["parameters"]["note"],
              "ddblocal: the scaled real-clock defaults are said")
        bad(["sweeper", "--backend", endpoint, "--clock", "virtual"],
            "ddblab bench sweeper: --clock virtual needs a backend whose "
            f"clock the benchmark can move: {endpoint} is not ddblab (use "
            "--clock real)")


{"emulator": emulator_row, "ddblab_http": http_row,
 "ddblocal": ddblocal_row}[ROW]()
shutil.rmtree(TMP, ignore_errors=True)
print(f"{ROW}: {len(FAILURES)} failure(s)")
sys.exit(1 if FAILURES else 0)
