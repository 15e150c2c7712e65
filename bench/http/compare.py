#!/usr/bin/env python3
"""Side-by-side table of bench/http/run.sh --out rows, with the aims checked.

    bench/http/compare.py ROWS.tsv [MORE_ROWS.tsv ...]

ROWS.tsv holds one row per run: target, workload, connections, req/s, p50,
p99 and max latency (ms), server CPU microseconds per request, system calls
per request ("-" when not measured) and the verification. A row measured
more than once (several files, or runs appended to one) is shown as the
median of each figure over its runs. Prints a Markdown
table per workload and connection count, then the aims:
  - server CPU per request <= 1/3 of dynalite's, on every row;
  - req/s >= 3x the faster peer (read only where the load generator is not
    the limit: the machine's cores are shared with wrk);
  - max latency at 256 connections below 100 ms;
  - system calls per request <= 4.
"""
import collections
import statistics
import sys


def median_text(values):
    """The median of numeric texts, printed like them; "-" if none is."""
    numbers = []
    for v in values:
        try:
            numbers.append(float(v))
        except ValueError:
            pass
    if not numbers:
        return "-"
    first = values[0]
    decimals = len(first.split(".")[1]) if "." in first else 0
    return f"{statistics.median(numbers):.{decimals}f}"


def main(argv):
    if len(argv) < 2:
        raise SystemExit(__doc__)
    runs = collections.OrderedDict()
    targets = []
    for path in argv[1:]:
        for line in open(path):
            f = line.rstrip("\n").split("\t")
            if len(f) < 10:
                continue
            target, workload, conns = f[0], f[1], int(f[2])
            if target not in targets:
                targets.append(target)
            runs.setdefault((workload, conns), {}).setdefault(
                target, []).append(f)
    rows = collections.OrderedDict()
    for key, by in runs.items():
        for target, fs in by.items():
            col = list(zip(*fs))
            rows.setdefault(key, {})[target] = {
                "rps": statistics.median(float(v) for v in col[3]),
                "p50": median_text(col[4]), "p99": median_text(col[5]),
                "max": statistics.median(float(v) for v in col[6]),
                "cpu": statistics.median(float(v) for v in col[7]),
                "sys": median_text(col[8]) if col[8][0] != "-" else "-",
                "verified": " ".join(sorted(set(col[9]))), "runs": len(fs)}
    head = ["workload", "conns"]
    for t in targets:
        head += [f"{t} req/s", f"{t} CPU µs/req", f"{t} max ms"]
    if "ddblab" in targets and "dynalite" in targets:
        head.append("CPU vs dynalite")
    peers = [t for t in targets if t != "ddblab"]
    if "ddblab" in targets and peers:
        head.append("req/s vs faster peer")
    if "ddblab" in targets:
        head.append("ddblab syscalls/req")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    misses = []
    for (workload, conns), by in rows.items():
        cells = [workload, str(conns)]
        for t in targets:
            r = by.get(t)
            cells += ([f"{r['rps']:.0f}", f"{r['cpu']:.1f}", f"{r['max']:.1f}"]
                      if r else ["-", "-", "-"])
        me = by.get("ddblab")
        if "ddblab" in targets and "dynalite" in targets:
            d = by.get("dynalite")
            if me and d and d["cpu"] > 0:
                ratio = me["cpu"] / d["cpu"]
                cells.append(f"{ratio:.2f}x")
                if ratio > 1 / 3:
                    misses.append(f"CPU/req {workload}@{conns}: {ratio:.2f}x "
                                  "dynalite's (aim <= 0.33x)")
            else:
                cells.append("-")
        if "ddblab" in targets and peers:
            best = max((by[p]["rps"] for p in peers if p in by), default=0)
            cells.append(f"{me['rps'] / best:.1f}x" if me and best else "-")
        if "ddblab" in targets:
            cells.append(me["sys"] if me else "-")
            if me and me["sys"] not in ("-", "") and float(me["sys"]) > 4:
                misses.append(f"syscalls/req {workload}@{conns}: {me['sys']} "
                              "(aim <= 4)")
            if me and conns == 256 and me["max"] >= 100:
                misses.append(f"max latency {workload}@256: {me['max']:.1f} ms "
                              "(aim < 100 ms)")
        print("| " + " | ".join(cells) + " |")
    print()
    print("Aims missed:" if misses else "Aims on CPU/req, syscalls/req and "
          "max latency at 256 connections: all met.")
    for m in misses:
        print(f"- {m}")


if __name__ == "__main__":
    main(sys.argv)
