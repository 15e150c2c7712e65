#!/usr/bin/env python3
"""bench/startup.py: time from starting `ddblab serve` to its first answered
ListTables, median of N starts (20 by default).

Each start: a free port is picked, the clock starts, the server process is
spawned, its banner line is awaited (blocking, so the script takes no CPU
from the server), and a ListTables POST is sent; the wall time until its
200 answer is one sample. The
server is then stopped with SIGTERM and reaped before the next start.

  bench/startup.py [--binary build/cli/ddblab] [--starts 20]
                   [-- extra serve flags]

Prints every sample and the median, min and max in milliseconds. Figures:
bench/README.md. Thread-safety: a single-threaded script.
"""
import argparse
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
        conn.close()
        if status != 200:
            sys.exit(f"ListTables answered {status}")
        return elapsed
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait()


def main():
    parser = argparse.ArgumentParser()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--binary",
                        default=os.path.join(root, "build/cli/ddblab"))
    parser.add_argument("--starts", type=int, default=20)
    parser.add_argument("extra", nargs="*")
    args = parser.parse_args()
    samples = [one_start(args.binary, args.extra) for _ in range(args.starts)]
    print("samples ms:", " ".join(f"{s:.1f}" for s in samples))
    print(f"median {statistics.median(samples):.1f} ms, min {min(samples):.1f}, "
          f"max {max(samples):.1f} (of {len(samples)} starts)")


if __name__ == "__main__":
    main()
