"""`ddblab bench aggregator` as a user runs it, on one backend row:

    aggregator_cli_test.py DDBLAB_BIN SOURCE_DIR emulator|ddblab_http|ddblocal

Each run writes a report that must validate against
bench/pattern_report.schema.json and whose numbers must agree: every
produced record delivered, the idempotent (correct) aggregator's totals
exact, and the WCU consumed on the aggregate side what the writes imply
(a transfer is under 1 KB: 1 WCU per source put; the correct variant's
TransactWriteItems writes two items under 1 KB at 2 WCU each, so 4 WCU on
the aggregate side per source WCU; the published variant's UpdateItem 1).
Rows:
  emulator     in process, virtual clock: the correct variant, the published
               one with a function failing part way (exit 1, its check
               FAILED), stream shards, --plot, --help, bad flags (exit 2 with
               the exact message)
  ddblab_http  `ddblab serve --clock manual` over HTTP, virtual clock, two
               stream shards
  ddblocal     Amazon DynamoDB Local (tests/clients/ddblocal), real clock, a
               few seconds: stream shards reported not available
Exit 77 (ctest: skipped) when DynamoDB Local or java is missing.
"""
import json
import pathlib
import shutil
import sys
import tempfile

import jsonschema

BIN, SOURCE = sys.argv[1], pathlib.Path(sys.argv[2])
ROW = sys.argv[3]
sys.path.insert(0, str(SOURCE / "tests" / "clients"))
from ddblab_server import DdblabServer  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import bench_cli_common as common  # noqa: E402
from bench_cli_common import FAILURES, check  # noqa: E402

SCHEMA = json.loads((SOURCE / "bench" / "pattern_report.schema.json").read_text())
TMP = pathlib.Path(tempfile.mkdtemp(prefix="aggregator_cli_"))


def bench(*args):
    """Runs `ddblab bench ARGS`; (exit code, stdout, stderr)."""
    return common.bench(BIN, *args)


def report_of(name, *args, expect=0):
    """Runs the aggregator, validates its report and the numbers every run
    must agree on; (report, stdout)."""
    path = TMP / f"{name}.json"
    code, out, err = bench("aggregator", *args, "--json", str(path))
    check(code == expect, f"{name}: exit {code}, expected {expect}\n{out}{err}")
    report = json.loads(path.read_text())
    jsonschema.validate(report, SCHEMA, cls=jsonschema.Draft202012Validator)
    r, p = report["results"], report["parameters"]
    check(r["records_produced"] == p["records"] and
          r["records_delivered"] == p["records"],
          f"{name}: produced {r['records_produced']}, delivered "
          f"{r['records_delivered']} of {p['records']}")
    if p["variant"] == "correct":
        check(r["totals_exact"] is True, f"{name}: correct totals not exact")
    if r.get("wcu_source") is not None:
        per = 4.0 if p["variant"] == "correct" else 1.0
        check(r["wcu_source"] == p["records"],
              f"{name}: source WCU {r['wcu_source']}")
        if p["fail_every"] == 0:
            check(r["aggregate_wcu_per_source_wcu"] == per,
                  f"{name}: aggregate WCU per source WCU "
                  f"{r['aggregate_wcu_per_source_wcu']}, expected {per}")
    check(report["ok"] == (expect == 0), f"{name}: ok is {report['ok']}")
    return report, out


def bad(args, message):
    code, out, err = bench(*args)
    check(code == 2, f"{args}: exit {code}, expected 2")
    check(err == message + "\n", f"{args}: stderr {err!r}, expected {message!r}")
    check(out == "", f"{args}: stdout {out!r}")


def emulator_row():
    report, out = report_of("emulator", "--records", "2000", "--batch-size",
                            "50", "--parallelization", "2")
    check(report["backend"] == {"spec": "emulator", "kind": "emulator",
                                "clock": "virtual", "ttl_delay": "aws",
                                "capacity": "off"},
          f"backend {report['backend']}")
    r = report["results"]
    check(r["wcu_rollup"] == 4000 and r["wcu_dedupe"] == 4000,
          f"emulator: WCU {r}")
    check(r["calls_BatchWriteItem"] == 80, "emulator: 80 batches of 25")
    check(report["not_available"] == [], "emulator: not_available")
    check("check totals_exact: ok" in out and out.endswith("all checks ok\n"),
          f"emulator summary:\n{out}")

    naive, out = report_of("published", "--records", "400", "--variant",
                           "published", "--batch-size", "10", "--fail-every",
                           "4", "--write", "single", expect=1)
    r = naive["results"]
    check(r["totals_exact"] is False and r["injected_function_errors"] > 0,
          f"published: {r}")
    check(r["aggregator_applied"] == 400 + 5 * r["injected_function_errors"],
          "published: the first half of each failed batch counted twice")
    check("check totals_exact: FAILED (" in out and "overcounted by" in out and
          out.endswith("a check FAILED\n"), f"published summary:\n{out}")

    shards, _ = report_of("shards", "--records", "600", "--shards", "3")
    check(shards["results"]["stream_shards"] == 3, "emulator: 3 shards")

    png = TMP / "plot.png"
    code, out, err = bench("aggregator", "--records", "300", "--plot",
                           str(png))
    check(code == 0, f"--plot: exit {code}: {err}")
    check(png.exists() and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n",
          "--plot wrote no PNG")
    check(out.endswith(f"plot: {png}\n"), f"--plot summary:\n{out}")

    code, out, err = bench("--help")
    check(code == 0 and "aggregator flags:" in out and
          "--parallelization P" in out, f"--help: {code} {out}")

    bad(["aggregator", "--batch-size", "0"],
        'ddblab bench aggregator: --batch-size: expected a whole number '
        '1..10000, got "0"')
    bad(["aggregator", "--variant", "naive"],
        'ddblab bench aggregator: --variant: expected correct or published, '
        'got "naive"')
    bad(["aggregator", "--shards"],
        "ddblab bench aggregator: --shards: expected a value after it")


def http_row():
    server = DdblabServer.start(["--clock", "manual"])
    try:
        report, _ = report_of("http", "--backend", server.endpoint,
                              "--records", "1500", "--shards", "2")
        check(report["backend"] == {"spec": server.endpoint,
                                    "kind": "ddblab", "clock": "virtual"},
              f"backend {report['backend']}")
        r = report["results"]
        check(r["stream_shards"] == 2, f"http: shards {r['stream_shards']}")
        check(r["clock_seconds"] >= 0.25, f"http: clock {r['clock_seconds']}")
        check(report["not_available"] == [], "http: not_available")
    finally:
        server.stop()


def ddblocal_row():
    with common.dynamodb_local(SOURCE) as endpoint:
        report, _ = report_of("ddblocal", "--backend", endpoint, "--records",
                              "200", "--rate", "100", "--shards", "2",
                              "--poll-interval", "100ms")
        check(report["backend"] == {"spec": endpoint, "kind": "dynamodb",
                                    "clock": "real"},
              f"backend {report['backend']}")
        whats = [n["what"] for n in report["not_available"]]
        check(whats == ["stream_shards"], f"not_available {whats}")
        check(report["results"]["stream_shards"] == 1, "ddblocal: 1 shard")
        check(report["results"]["wcu_source"] == 200,
              "ddblocal: DynamoDB Local reports consumed capacity")


{"emulator": emulator_row, "ddblab_http": http_row,
 "ddblocal": ddblocal_row}[ROW]()
shutil.rmtree(TMP, ignore_errors=True)
print(f"{ROW}: {len(FAILURES)} failure(s)")
sys.exit(1 if FAILURES else 0)
