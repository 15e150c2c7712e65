#!/usr/bin/python3
"""Plots sweeper benchmark reports (`ddblab bench sweeper --json OUT`).

    bench/plot_patterns.py --out sweeper.png REPORT.json [REPORT.json ...]

Reads reports of schema ddblab-pattern-bench/1 (other benchmarks' reports
are skipped: the aggregator has bench/plot_aggregator.py) and draws four
panels:
  - deleted items/s against the number of items, one line per backend;
  - deleted items/s against the number of sweep workers, one line per
    backend;
  - the delay from expiry to deletion (p50, p99, max) of each report next
    to DynamoDB's native TTL under the same run's delay model, log scale;
  - the backends side by side: sweep and write throughput of each backend
    at its largest run.
A panel without data says so. Uses Debian's python3-matplotlib (Agg, no
display needed). Exit status: 0 written, 2 bad input, 3 matplotlib missing.
"""
import argparse
import json
import sys


KINDS = {"emulator": "in process", "ddblab": "ddblab serve (HTTP)",
         "dynamodb": "DynamoDB Local", "aws": "Amazon DynamoDB"}


def label(report):
    b = report["backend"]
    return f"{KINDS.get(b['kind'], b['kind'])}, {b['clock']} clock"


def load(paths):
    reports = []
    for path in paths:
        try:
            with open(path) as f:
                report = json.load(f)
        except (OSError, ValueError) as e:
            raise SystemExit(f"plot_patterns: cannot read {path}: {e}")
        if report.get("schema") != "ddblab-pattern-bench/1":
            raise SystemExit(f"plot_patterns: {path} is not a "
                             "ddblab-pattern-bench/1 report")
        if report.get("benchmark") == "sweeper":
            reports.append(report)
    return reports


def series(reports, x_key, fixed_key):
    """label -> sorted [(x, deleted/s)], keeping reports whose other sweep
    parameter (fixed_key) has its most common value for that label."""
    out = {}
    for r in reports:
        out.setdefault(label(r), []).append(r)
    lines = {}
    for name, rs in out.items():
        values = [r["parameters"].get(fixed_key) for r in rs]
        common = max(set(values), key=values.count)
        by_x = {}
        for r in rs:
            if r["parameters"].get(fixed_key) == common:
                by_x.setdefault(r["parameters"][x_key], []).append(
                    r["results"]["deleted_per_second"])
        # Repeated runs of one point: their median.
        lines[name] = [(x, sorted(ys)[len(ys) // 2])
                       for x, ys in sorted(by_x.items())]
    return lines


def empty(ax, text):
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes,
            color="gray")


def throughput_panel(ax, reports, x_key, fixed_key, xlabel):
    lines = series(reports, x_key, fixed_key)
    for name, points in sorted(lines.items()):
        xs, ys = zip(*points)
        ax.plot(xs, ys, marker="o", label=name)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("deleted items/s")
    ax.grid(True, alpha=0.3)
    if lines:
        ax.legend(fontsize=7)
    else:
        empty(ax, "no reports")


def delay_panel(ax, reports):
    groups = []
    for r in reports:
        res = r["results"]
        b = r["backend"]
        name = f"{KINDS.get(b['kind'], b['kind'])}\n{b['clock']}"
        groups.append((name + "\nsweeper", res.get("delay_seconds")))
        native = res.get("native_ttl_delay_seconds")
        if native is not None and res.get("native_ttl_deleted", 0) > 0:
            model = b.get("ttl_delay", "server's")
            groups.append((f"{name}\nnative TTL\n({model})", native))
    groups = [(n, d) for n, d in groups if d is not None][:6]
    if not groups:
        empty(ax, "no delay figures")
        return
    width = 0.25
    for i, stat in enumerate(("p50", "p99", "max")):
        xs = [g + (i - 1) * width for g in range(len(groups))]
        ax.bar(xs, [max(d[stat], 0.01) for _, d in groups], width,
               label=stat)
    ax.set_yscale("log")
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels([n for n, _ in groups], fontsize=6)
    ax.set_ylabel("expiry to deletion (s, log)")
    ax.legend(fontsize=7)
    ax.grid(True, axis="y", alpha=0.3)


def side_by_side_panel(ax, reports):
    best = {}
    for r in reports:
        name = label(r)
        if (name not in best or r["parameters"]["items"] >
                best[name]["parameters"]["items"]):
            best[name] = r
    if not best:
        empty(ax, "no reports")
        return
    names = sorted(best)
    width = 0.35
    sweep = [best[n]["results"]["deleted_per_second"] for n in names]
    write = [best[n]["results"].get("written_per_second", 0) for n in names]
    ax.bar([i - width / 2 for i in range(len(names))], sweep, width,
           label="sweep: deleted/s")
    ax.bar([i + width / 2 for i in range(len(names))], write, width,
           label="setup: written/s")
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(
        [f"{n}\n{best[n]['parameters']['items']} items" for n in names],
        fontsize=7)
    ax.set_ylabel("items/s")
    ax.legend(fontsize=7)
    ax.grid(True, axis="y", alpha=0.3)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="PNG to write")
    parser.add_argument("reports", nargs="+", help="report JSON files")
    args = parser.parse_args(argv)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_patterns: matplotlib is missing (apt-get install "
              "python3-matplotlib)", file=sys.stderr)
        return 3
    reports = load(args.reports)
    if not reports:
        print("plot_patterns: no sweeper report among the files",
              file=sys.stderr)
        return 2
    fig, axes = plt.subplots(2, 2, figsize=(11, 7.5))
    throughput_panel(axes[0][0], reports, "items", "workers", "items")
    axes[0][0].set_title("sweeper throughput vs items", fontsize=9)
    throughput_panel(axes[0][1], reports, "workers", "items", "sweep workers")
    axes[0][1].set_title("sweeper throughput vs workers", fontsize=9)
    delay_panel(axes[1][0], reports)
    axes[1][0].set_title("deletion delay: sweeper vs native TTL", fontsize=9)
    side_by_side_panel(axes[1][1], reports)
    axes[1][1].set_title("backends side by side", fontsize=9)
    fig.tight_layout()
    fig.savefig(args.out, dpi=72)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
