#!/usr/bin/python3
"""bench/plot_aggregator.py: plots of `ddblab bench aggregator` reports.

    bench/plot_aggregator.py --out OUT.png [--kind sweep|backends] REPORT...

Reads JSON reports (schema ddblab-pattern-bench/1, benchmark aggregator, one
run each; other reports are refused) and draws one figure:

  sweep     throughput and lag vs BatchSize, one line per
            ParallelizationFactor: records/s on the backend clock (the
            modelled rate), iterator age p99, and records per CPU second of
            the bench process (how fast the harness ran; steadier than wall
            time on a shared machine)
  backends  the same benchmark on several backends side by side: records/s
            of wall time, iterator age p50/p99 (of repeated runs on one
            backend, the run with the median records/s)

Without --kind: backends when the reports come from more than one backend,
else sweep. Uses Debian's python3-matplotlib (Agg, no display needed).
Exit status: 0 written, 2 bad input, 3 matplotlib missing.
"""
import argparse
import json
import sys

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("plot_aggregator: matplotlib is missing (Debian: apt-get install "
          "python3-matplotlib)", file=sys.stderr)
    sys.exit(3)

SCHEMA = "ddblab-pattern-bench/1"


def fail(message):
    print(f"plot_aggregator: {message}", file=sys.stderr)
    sys.exit(2)


def load(paths):
    reports = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                report = json.load(f)
        except (OSError, ValueError) as e:
            fail(f"cannot read {path}: {e}")
        if report.get("schema") != SCHEMA or report.get("benchmark") != "aggregator":
            fail(f"{path} is not an aggregator report ({SCHEMA})")
        reports.append(report)
    return reports


def ms_to_s(value):
    return None if value is None else value / 1000.0


KINDS = {"emulator": "in process", "ddblab": "ddblab serve (HTTP)",
         "dynamodb": "DynamoDB Local", "aws": "Amazon DynamoDB"}


def label_of(report):
    backend = report["backend"]
    kind = KINDS.get(backend["kind"], backend["kind"])
    return f'{kind}\n({backend["clock"]} clock)'


def plot_sweep(out, reports):
    by_pf = {}
    for r in reports:
        p = r["parameters"]
        by_pf.setdefault(p["parallelization_factor"], []).append(r)
    fig, axes = plt.subplots(1, 3, figsize=(13, 4))
    for pf in sorted(by_pf):
        runs = sorted(by_pf[pf], key=lambda r: r["parameters"]["batch_size"])
        xs = [r["parameters"]["batch_size"] for r in runs]
        label = f"ParallelizationFactor {pf}"
        axes[0].plot(xs, [r["results"]["records_per_clock_second"] for r in runs],
                     marker="o", label=label)
        axes[1].plot(xs, [ms_to_s(r["results"]["iterator_age_ms"]["p99"]) for r in runs],
                     marker="o", label=label)
        axes[2].plot(xs, [r["results"].get("records_per_cpu_second") for r in runs],
                     marker="o", label=label)
    first = reports[0]
    p = first["parameters"]
    titles = ["records/s on the backend clock", "iterator age p99 (s)",
              "records per CPU second (harness speed)"]
    for ax, title in zip(axes, titles):
        ax.set_xscale("log")
        ax.set_xlabel("BatchSize")
        ax.set_title(title, fontsize=10)
        ax.set_ylim(bottom=0)
        ax.grid(True, alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.suptitle(
        f'aggregator ({p["variant"]}) on {first["backend"]["kind"]}, '
        f'{first["backend"]["clock"]} clock: {p["rate"]:.0f} records/s for '
        f'{p["seconds"]:.0f} s, handler {p["handler_cost_ms"]:g} ms + '
        f'{p["record_cost_ms"]:g} ms/record', fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=80)


def median_per_backend(reports):
    """One report per backend: the run with the median records/s."""
    groups = {}
    for r in reports:
        groups.setdefault(label_of(r), []).append(r)
    order = {"emulator": 0, "ddblab": 1, "dynamodb": 2, "aws": 3}
    picked = []
    for runs in groups.values():
        runs.sort(key=lambda r: r["results"]["records_per_second"] or 0)
        picked.append(runs[len(runs) // 2])
    picked.sort(key=lambda r: order.get(r["backend"]["kind"], 9))
    return picked


def plot_backends(out, reports):
    reports = median_per_backend(reports)
    labels = [label_of(r) for r in reports]
    xs = range(len(reports))
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    rates = [r["results"]["records_per_second"] for r in reports]
    bars = axes[0].bar(xs, rates, color="tab:blue")
    axes[0].bar_label(bars, fmt="%.0f", fontsize=8)
    axes[0].set_yscale("log")
    axes[0].set_title("records/s end to end (wall time)", fontsize=10)
    width = 0.4
    p50 = [ms_to_s(r["results"]["iterator_age_ms"]["p50"]) or 0 for r in reports]
    p99 = [ms_to_s(r["results"]["iterator_age_ms"]["p99"]) or 0 for r in reports]
    axes[1].bar([x - width / 2 for x in xs], p50, width, label="p50")
    axes[1].bar([x + width / 2 for x in xs], p99, width, label="p99")
    axes[1].set_title("iterator age (s)", fontsize=10)
    axes[1].legend(fontsize=8)
    for ax in axes:
        ax.set_xticks(list(xs))
        ax.set_xticklabels(labels, fontsize=8)
        ax.grid(True, axis="y", alpha=0.3)
    p = reports[0]["parameters"]
    fig.suptitle(
        f'aggregator ({p["variant"]}, {p["write"]} writes, BatchSize '
        f'{p["batch_size"]}, ParallelizationFactor '
        f'{p["parallelization_factor"]}), {p["records"]} records', fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=80)


def main(argv):
    parser = argparse.ArgumentParser(
        description="Plots ddblab bench aggregator reports.")
    parser.add_argument("--out", required=True, help="the PNG to write")
    parser.add_argument("--kind", choices=["sweep", "backends"])
    parser.add_argument("reports", nargs="+")
    args = parser.parse_args(argv[1:])
    reports = load(args.reports)
    kind = args.kind
    if kind is None:
        backends = {(r["backend"]["kind"], r["backend"]["clock"]) for r in reports}
        kind = "backends" if len(backends) > 1 else "sweep"
    (plot_sweep if kind == "sweep" else plot_backends)(args.out, reports)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
