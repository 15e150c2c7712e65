#!/usr/bin/env python3
"""The strategies table of docs/scenarios.md: what each strategy finds.

Usage:
  strategy_table.py DDBLAB SOURCE_DIR            print the table
  strategy_table.py DDBLAB SOURCE_DIR --check    compare it with the doc

DDBLAB is the built `ddblab` (or `ddblab-run`). For every shipped
scenarios/*_naive.json it finds the runs until the first failure under
`random` and `pct:3` (seeds 1, 2, ... in growing --explore windows, up to
MAX_SEEDS) and under `exhaustive` (seed 1, K=2, F=1, budget BUDGET
schedules); for every *_correct.json the result of seeds 1-CORRECT_SEEDS under
`random` and `pct:3`, and of `exhaustive` (seed 1, K=2, F=1, budget BUDGET). Everything is
seeded, so the numbers are exact and the same on every machine.

With --check, the table between the markers in docs/scenarios.md must equal
the generated one; else it names each differing row, prints the regenerated
table and exits 1. Runs the files on two worker processes.
"""
import concurrent.futures
import pathlib
import re
import subprocess
import sys

MAX_SEEDS = 1000
CORRECT_SEEDS = 20
BUDGET = 300
MAX_PREEMPTIONS = 2
MAX_FAULTS = 1  # fault draws flipped from the seed's (--max-faults)
WINDOWS = [10, 40, 150, 800]  # seeds 1-10, 11-50, 51-200, 201-1000
BEGIN = "<!-- strategies-table: scripts/strategy_table.py writes it -->"
END = "<!-- end of strategies-table -->"


def run(ddblab, args):
    proc = subprocess.run([ddblab, "run", *args], capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        raise RuntimeError("ddblab run %s: exit %d\n%s%s" %
                           (" ".join(args), proc.returncode, proc.stdout,
                            proc.stderr))
    return proc.stdout


def first_failing_seed(ddblab, path, strategy):
    """The first seed (from 1) that breaks, or None within MAX_SEEDS."""
    start = 1
    for window in WINDOWS:
        out = run(ddblab, [path, "--strategy", strategy, "--seed", str(start),
                           "--explore", str(window)])
        m = re.search(r"\(first: seed (\d+)\)", out)
        if m:
            return int(m.group(1))
        start += window
    return None


def held(ddblab, path, strategy):
    out = run(ddblab, [path, "--strategy", strategy, "--explore",
                       str(CORRECT_SEEDS)])
    m = re.search(r"\(first: seed (\d+)\)", out)
    if m:
        return "broke at seed %s" % m.group(1)
    return "held %d seeds" % CORRECT_SEEDS


def exhaustive(ddblab, path):
    out = run(ddblab, [path, "--strategy", "exhaustive", "--seed", "1",
                       "--budget", str(BUDGET), "--max-preemptions",
                       str(MAX_PREEMPTIONS), "--max-faults", str(MAX_FAULTS)])
    m = re.search(r"schedule ([\d,]+) of the exploration", out)
    if m:
        return "schedule %s" % m.group(1)
    m = re.search(r"explored all ([\d,]+) distinct schedules", out)
    if m:
        return "all %s schedule%s" % (m.group(1),
                                      "" if m.group(1) == "1" else "s")
    if "budget reached" in out:
        return "budget %d reached" % BUDGET
    raise RuntimeError("%s: unexpected exhaustive output:\n%s" % (path, out))


def row(ddblab, path):
    name = "`%s`" % path.stem
    if path.stem.endswith("_naive"):
        cells = []
        for strategy in ("random", "pct:3"):
            seed = first_failing_seed(ddblab, str(path), strategy)
            cells.append("seed %d" % seed if seed else
                         "none in 1-%d" % MAX_SEEDS)
        cells.append(exhaustive(ddblab, str(path)))
    else:
        cells = [held(ddblab, str(path), "random"),
                 held(ddblab, str(path), "pct:3"),
                 exhaustive(ddblab, str(path))]
    return "| %s | %s |" % (name, " | ".join(cells))


def table(ddblab, root):
    files = sorted((root / "scenarios").glob("*_naive.json")) + sorted(
        (root / "scenarios").glob("*_correct.json"))
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        rows = list(pool.map(lambda p: row(ddblab, p), files))
    head = ["| file | random | pct:3 | exhaustive (seed 1, K=%d, F=%d, budget %d) |"
            % (MAX_PREEMPTIONS, MAX_FAULTS, BUDGET), "|---|---|---|---|"]
    return head + rows


def main(argv):
    if len(argv) not in (3, 4) or (len(argv) == 4 and argv[3] != "--check"):
        print(__doc__, file=sys.stderr)
        return 2
    ddblab, root = argv[1], pathlib.Path(argv[2])
    generated = table(ddblab, root)
    if len(argv) == 3:
        print("\n".join(generated))
        return 0
    doc = (root / "docs" / "scenarios.md").read_text().splitlines()
    try:
        begin, end = doc.index(BEGIN), doc.index(END)
    except ValueError:
        print("docs/scenarios.md: no %s ... %s markers" % (BEGIN, END))
        return 1
    shown = [line for line in doc[begin + 1:end] if line.startswith("|")]
    if shown == generated:
        print("docs/scenarios.md: the strategies table matches (%d rows)" %
              (len(generated) - 2))
        return 0
    shown_by_file = {l.split("|")[1].strip(): l for l in shown}
    gen_by_file = {l.split("|")[1].strip(): l for l in generated}
    for key in sorted(set(shown_by_file) | set(gen_by_file)):
        if shown_by_file.get(key) != gen_by_file.get(key):
            print("row %s differs:\n  doc:       %s\n  generated: %s" %
                  (key, shown_by_file.get(key, "(missing)"),
                   gen_by_file.get(key, "(missing)")))
    print("\nthe regenerated table:\n" + "\n".join(generated))
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
