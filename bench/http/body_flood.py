#!/usr/bin/env python3
"""The 16 MB flood: peak memory of `ddblab serve` while clients send large
bodies at once (the security review's "no unbounded work before the
signature check").

    bench/http/body_flood.py [--requests 12] [--mb 16] [--auth verify|accept]

Starts `ddblab serve --port 0` (build/cli/ddblab or $DDBLAB_BIN), opens
--requests connections, sends on each a PutItem of --mb MB (an item whose
JSON nests no deeper than DynamoDB allows), all at once, reads every answer,
and prints the answers by status and the server's peak resident memory
(VmHWM of /proc/PID/status), before and after. With --auth verify (the
default) the requests carry no valid signature: the server must refuse them
without parsing their bodies. With --auth accept every request is
authenticated (any well-formed signature passes) and parsed, and the request
memory budget (1 GiB by default, 20x the body) bounds how many are held at
once: the others are answered 400 RequestLimitExceeded.
"""
import argparse
import json
import os
import pathlib
import re
import socket
import subprocess
import threading
import time

REPO = pathlib.Path(__file__).resolve().parents[2]


def vm_hwm_mb(pid):
    text = pathlib.Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmHWM:\s+(\d+) kB", text).group(1)) / 1024


def body_of(mb):
    """A PutItem body just under `mb` MB: many small attributes, the costly
    case for a JSON DOM."""
    compact = (",", ":")
    one = len(json.dumps({"a0000000": {"S": "vvvvvvvvvvvvvvv"}},
                         separators=compact))  # and a comma, less the braces
    n = (mb * 1024 * 1024 - 200) // one
    item = {"pk": {"S": "k"}}
    item.update({f"a{i:07d}": {"S": "vvvvvvvvvvvvvvv"} for i in range(n)})
    return json.dumps({"TableName": "t", "Item": item},
                      separators=compact).encode()


def send(port, body, out, index):
    head = ("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Content-Type: application/x-amz-json-1.0\r\n"
            "X-Amz-Target: DynamoDB_20120810.PutItem\r\n"
            "X-Amz-Date: 20240101T000000Z\r\n"
            "Authorization: AWS4-HMAC-SHA256 Credential=AKID/20240101/"
            "us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, "
            "Signature=" + "0" * 64 + "\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n")
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=120) as s:
            s.sendall(head.encode())
            try:
                s.sendall(body)
            except OSError:
                pass  # refused before the body was read: the answer waits
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        status = data.split(b"\r\n", 1)[0].decode() or "(closed)"
        kind = re.search(rb'"__type":"[^"#]*#([A-Za-z]+)"', data)
        out[index] = status + (" " + kind.group(1).decode() if kind else "")
    except OSError as e:
        out[index] = f"error {e}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=12)
    parser.add_argument("--mb", type=int, default=16)
    parser.add_argument("--auth", choices=["verify", "accept"],
                        default="verify")
    args = parser.parse_args()
    binary = os.environ.get("DDBLAB_BIN", str(REPO / "build/cli/ddblab"))
    command = [binary, "serve", "--port", "0", "--log-level", "error",
               "--control", "off", "--auth", args.auth]
    if args.auth == "verify":
        command += ["--access-key-id", "AKIDREAL",
                    "--secret-access-key", "real-secret"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    port = int(re.search(r":(\d+) ", server.stdout.readline()).group(1))
    threading.Thread(target=server.stdout.read, daemon=True).start()
    body = body_of(args.mb)
    before = vm_hwm_mb(server.pid)
    answers = [None] * args.requests
    threads = [threading.Thread(target=send, args=(port, body, answers, i))
               for i in range(args.requests)]
    began = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    took = time.monotonic() - began
    after = vm_hwm_mb(server.pid)
    server.terminate()
    server.wait(30)
    counts = {}
    for a in answers:
        counts[a] = counts.get(a, 0) + 1
    print(json.dumps({"auth": args.auth, "requests": args.requests,
                      "body_bytes": len(body), "answers": counts,
                      "peak_rss_mb_before": round(before, 1),
                      "peak_rss_mb_after": round(after, 1),
                      "seconds": round(took, 2)}))


if __name__ == "__main__":
    main()
