#!/usr/bin/env python3
"""What running your own programs under the scheduler costs.

    python3 bench/own_code.py [--ddblab BIN] [--seeds N] [--requests N]

(defaults: build/cli/ddblab, 20 seeds, 2000 requests; --seeds 0 skips 1.)

1. seeds per second: `ddblab run --explore N bench/own_code/two_writers.json`,
   two boto3 processes of 10 requests each (writer.py) per seed, a fresh
   server per seed; wall time and the CPU time of ddblab and its children.
2. the cost per scheduled request: one boto3 client making --requests
   PutItem calls against one `ddblab serve --clock manual` under a schedule
   whose only actor is "a": one client signs with "a" (scheduled), another
   with a key that is no actor's (plain, run at once), in alternating blocks;
   the difference of the medians per request is what the gate adds (hold,
   pick, clock tick, trace line).

Needs python3-boto3. The figures and the machine's load go to bench/README.md.
"""
import argparse
import os
import pathlib
import resource
import statistics
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests" / "clients"))

from ddblab_server import DdblabServer, control_headers  # noqa: E402
from wire import send  # noqa: E402


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def seeds_per_second(ddblab, seeds):
    scenario = HERE / "own_code" / "two_writers.json"
    cpu, wall = children_cpu(), time.monotonic()
    done = subprocess.run([ddblab, "run", "--explore", str(seeds), str(scenario)],
                          capture_output=True, text=True)
    wall, cpu = time.monotonic() - wall, children_cpu() - cpu
    if done.returncode != 0:
        sys.exit(f"ddblab run failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    print(done.stdout.strip().splitlines()[-2])
    print(f"{seeds} seeds in {wall:.1f} s: {seeds / wall:.2f} seeds/s "
          f"({wall / seeds:.2f} s a seed), CPU {cpu:.1f} s ({cpu / seeds:.2f} s a seed)")


def control(server, method, path, body=b""):
    status, _, raw = send(server.endpoint, method, path, body,
                          control_headers(server.endpoint))
    assert status == 200, (status, raw)
    return raw


def timed_puts(client, requests):
    start = time.perf_counter()
    for i in range(requests):
        client.put_item(TableName="bench",
                        Item={"id": {"S": f"k{i % 50}"}, "n": {"N": str(i)}})
    return (time.perf_counter() - start) / requests


def cost_per_request(requests):
    server = DdblabServer.start(args=("--clock", "manual"))
    try:
        setup = server.boto3_client(access_key_id="setup")
        setup.create_table(
            TableName="bench", BillingMode="PAY_PER_REQUEST",
            KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}])
        plain_client = server.boto3_client(access_key_id="plain")
        actor_client = server.boto3_client(access_key_id="a")
        timed_puts(plain_client, 50)  # warm both connections
        timed_puts(actor_client, 50)
        # While the schedule is active, "plain" is no actor's key and runs
        # at once: alternating blocks of both, the medians compared.
        control(server, "POST", "/_ddblab/schedule",
                b'{"actors": ["a"], "seed": 1, "tick": "1s"}')
        rounds, block = 10, max(1, requests // 10)
        plains, scheduleds = [], []
        for _ in range(rounds):
            plains.append(timed_puts(plain_client, block))
            scheduleds.append(timed_puts(actor_client, block))
        control(server, "DELETE", "/_ddblab/schedule")
        plain = statistics.median(plains)
        scheduled = statistics.median(scheduleds)
    finally:
        server.stop()
    print(f"{requests} PutItem each, {rounds} alternating blocks, medians: "
          f"plain {plain * 1e6:.0f} us a request, scheduled {scheduled * 1e6:.0f} us: the gate adds "
          f"{(scheduled - plain) * 1e6:.0f} us ({scheduled / plain:.2f}x)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ddblab", default=str(ROOT / "build" / "cli" / "ddblab"))
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--requests", type=int, default=2000)
    args = parser.parse_args()
    os.environ["DDBLAB_BIN"] = os.path.abspath(args.ddblab)
    print(f"load average before: {os.getloadavg()[0]:.1f} (cores: {os.cpu_count()})")
    if args.seeds:  # --seeds 0: only the cost per request
        seeds_per_second(args.ddblab, args.seeds)
    cost_per_request(args.requests)
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
