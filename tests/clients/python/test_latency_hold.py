"""Latency faults over HTTP. On the system clock they hold requests without
a thread each, and a shutdown answers them: `ddblab serve` with a 30 s
GetItem latency rule; 200 GetItems on 200 connections are all held while
the server's thread count stays small; SIGTERM: the server exits 0 within
5 s and every held client got its answer. On `--clock manual` the call
moves the clock to the answer's due time itself and answers at once, with
that time in X-Ddblab-Due (nobody has to move the clock for it)."""
import json
import os
import signal
import tempfile
import threading
import time
import unittest

import wire
from ddb_client import control_request
from ddblab_server import DdblabServer

TABLE = {"TableName": "held", "BillingMode": "PAY_PER_REQUEST",
         "AttributeDefinitions": [{"AttributeName": "pk",
                                   "AttributeType": "S"}],
         "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}
# The largest thread count the server may have with every request held.
MAX_THREADS = 20


def control(endpoint, method, path, body=None):
    """Every /_ddblab/ call of this module goes through here."""
    return control_request(endpoint, method, path, body)


def call(endpoint, op, body):
    status, _, data = wire.post(endpoint, "DynamoDB_20120810." + op,
                                json.dumps(body))
    return status, json.loads(data) if data else None


def server_threads(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("Threads:"):
                return int(line.split()[1])
    raise AssertionError("no Threads: line")


class HeldGets:
    """`count` GetItems of item i (i in `keys`), each on its own connection
    from its own thread; answers[i] = (status, body) once answered."""

    def __init__(self, endpoint, keys):
        self.answers = {}
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self._get, args=(endpoint, k),
                                         daemon=True) for k in keys]
        for thread in self.threads:
            thread.start()

    def _get(self, endpoint, key):
        try:
            answer = call(endpoint, "GetItem",
                          {"TableName": "held", "Key": {"pk": {"S": key}}})
        except Exception as error:  # the test reports what went wrong
            answer = (None, repr(error))
        with self.lock:
            self.answers[key] = answer

    def answered(self):
        with self.lock:
            return dict(self.answers)

    def join(self, timeout):
        deadline = time.monotonic() + timeout
        for thread in self.threads:
            thread.join(max(0.0, deadline - time.monotonic()))


class LatencyHoldTest(unittest.TestCase):
    def start(self, args):
        with tempfile.NamedTemporaryFile("w", suffix=".json",
                                         delete=False) as f:
            json.dump({"rules": [{"id": "slow", "operation": "GetItem",
                                  "effect": "latency",
                                  "duration": "30s"}]}, f)
        self.addCleanup(os.unlink, f.name)
        self.server = DdblabServer.start([*args, "--faults", f.name])
        self.addCleanup(self.stop_if_running)
        self.endpoint = self.server.endpoint
        self.assertEqual(call(self.endpoint, "CreateTable", TABLE)[0], 200)

    def stop_if_running(self):
        if self.server.process.poll() is None:
            self.server.kill9()

    def put(self, keys):
        for key in keys:
            status, body = call(self.endpoint, "PutItem", {
                "TableName": "held",
                "Item": {"pk": {"S": key}, "n": {"N": key[1:]}}})
            self.assertEqual(status, 200, body)

    def wait_for_faults(self, count):
        """Until `count` latency faults fired (the GetItems ran)."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            status, body = control(self.endpoint, "GET",
                                   "/_ddblab/faults/log")
            self.assertEqual(status, 200)
            if len(body["faults"]) >= count:
                return
            time.sleep(0.05)
        self.fail(f"fewer than {count} GetItems reached the engine")

    def expect_items(self, answers, keys):
        self.assertEqual(sorted(answers), sorted(keys))
        for key in keys:
            self.assertEqual(answers[key],
                             (200, {"Item": {"pk": {"S": key},
                                             "n": {"N": key[1:]}}}), key)

    def test_held_requests_take_no_thread_and_sigterm_answers_them(self):
        self.start([])
        keys = [f"k{i}" for i in range(200)]
        self.put(keys)
        held = HeldGets(self.endpoint, keys)
        self.wait_for_faults(200)
        pid = self.server.process.pid
        self.assertLess(server_threads(pid), MAX_THREADS)
        self.assertEqual(held.answered(), {})  # all held
        self.server.process.send_signal(signal.SIGTERM)
        self.assertEqual(self.server.process.wait(5), 0)
        held.join(10)
        self.expect_items(held.answered(), keys)

    def test_on_a_manual_clock_the_call_moves_the_clock_and_answers(self):
        self.start(["--clock", "manual"])
        self.put(["k1"])
        status, body = control(self.endpoint, "GET", "/_ddblab/clock")
        self.assertEqual(status, 200)
        start = body["now"]
        status, headers, data = wire.post(
            self.endpoint, "DynamoDB_20120810.GetItem",
            json.dumps({"TableName": "held", "Key": {"pk": {"S": "k1"}}}))
        self.assertEqual((status, json.loads(data)),
                         (200, {"Item": {"pk": {"S": "k1"},
                                         "n": {"N": "1"}}}))
        self.assertEqual(headers.get("x-ddblab-due"),
                         str((start + 30) * 1000))
        status, body = control(self.endpoint, "GET", "/_ddblab/clock")
        self.assertEqual((status, body["now"]), (200, start + 30))
        # A call with no latency carries no due time.
        status, headers, _ = wire.post(
            self.endpoint, "DynamoDB_20120810.PutItem",
            json.dumps({"TableName": "held",
                        "Item": {"pk": {"S": "k2"}, "n": {"N": "2"}}}))
        self.assertEqual(status, 200)
        self.assertNotIn("x-ddblab-due", headers)
        self.assertEqual(self.server.stop(), 0)


if __name__ == "__main__":
    unittest.main()
