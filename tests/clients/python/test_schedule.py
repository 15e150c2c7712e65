"""Controlled scheduling at the wire through boto3 (POST /_ddblab/schedule,
cli/control_schedule.h): two clients signing with access keys "a" and "b"
make 3 calls each on threads under {"actors": ["a", "b"], "seed": 7,
"tick": "1s"}; the gate lets one request through at a time. Two runs with
seed 7 (after a reset) give the same trace, byte for byte; a client with
another key runs while an actor's request is held. With a lost_response on
actor a's PutItem, boto3's own retry (its default policy) is a's next step,
with the same body."""
import json
import threading
import time
import unittest

import boto3

from ddb_client import BotoModule, control_request, table_spec
from ddblab_server import control_headers
from wire import send

START = 1704067200  # 2024-01-01T00:00:00Z
server = BotoModule(["--clock", f"manual={START}"])
setUpModule, tearDownModule = server.start, server.stop

SCHEDULE = {"actors": ["a", "b"], "seed": 7, "tick": "1s"}


def control(method, path, body=None):
    return control_request(server.endpoint, method, path, body)


def actor_calls(client, name):
    """An actor's 3 calls: its own item, then two increments of a shared
    counter (whose values depend on the interleaving)."""
    client.put_item(TableName="sched",
                    Item={"pk": {"S": name}, "v": {"N": "1"}})
    for _ in range(2):
        client.update_item(TableName="sched", Key={"pk": {"S": "counter"}},
                           UpdateExpression="ADD n :one",
                           ExpressionAttributeValues={":one": {"N": "1"}},
                           ReturnValues="UPDATED_NEW")


class ScheduleTest(unittest.TestCase):
    def setUp(self):
        self.assertEqual(control("DELETE", "/_ddblab/schedule")[0], 200)
        status, body = control("POST", "/_ddblab/reset",
                               {"clock": START, "seed": 0})
        self.assertEqual(status, 200, body)
        server.boto3_client().create_table(**table_spec("sched"))

    def tearDown(self):
        control("DELETE", "/_ddblab/schedule")

    def wait_held(self, name):
        """Polls GET /_ddblab/schedule until actor `name` is held."""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            _, state = control("GET", "/_ddblab/schedule")
            actor = next(a for a in state["actors"] if a["name"] == name)
            if actor["state"] == "held":
                return state
        self.fail(f"actor {name} was never held: {state}")

    def run_actors(self):
        """One scheduled run; returns the trace's lines."""
        status, state = control("POST", "/_ddblab/schedule", SCHEDULE)
        self.assertEqual(status, 200, state)
        self.assertEqual(state["state"], "active")
        errors = []

        def actor(name, client):
            try:
                actor_calls(client, name)
            except Exception as e:  # reported by the main thread
                errors.append(f"{name}: {e!r}")
            control("POST", f"/_ddblab/schedule/actors/{name}/done")

        clients = {name: server.boto3_client(access_key_id=name)
                   for name in ("a", "b")}
        a = threading.Thread(target=actor, args=("a", clients["a"]))
        a.start()
        state = self.wait_held("a")
        self.assertEqual(state["step"], 0)
        # Another key runs at once, unscheduled, while "a" is held.
        other = server.boto3_client(access_key_id="setup")
        self.assertNotIn("Item", other.get_item(TableName="sched",
                                                Key={"pk": {"S": "a"}}))
        b = threading.Thread(target=actor, args=("b", clients["b"]))
        b.start()
        a.join(30)
        b.join(30)
        self.assertFalse(a.is_alive() or b.is_alive(), "an actor hung")
        self.assertEqual(errors, [])
        status, state = control("GET", "/_ddblab/schedule")
        self.assertEqual(state["step"], 6, state)
        self.assertEqual([(x["name"], x["state"], x["steps"])
                          for x in state["actors"]],
                         [("a", "done", 3), ("b", "done", 3)])
        status, _, raw = send(server.endpoint, "GET",
                                    "/_ddblab/schedule/trace", b"",
                                    control_headers(server.endpoint))
        self.assertEqual(status, 200)
        return raw.decode().splitlines()

    def test_same_seed_same_trace_and_other_keys_run_at_once(self):
        first = self.run_actors()
        self.setUp()
        second = self.run_actors()
        self.assertEqual(first, second)
        lines = [json.loads(line) for line in first]
        self.assertEqual(lines[0]["event"], "start")
        self.assertEqual(lines[0]["seed"], 7)
        self.assertEqual(lines[0]["tick"], "1s")
        steps = [x for x in lines if "step" in x and "call" in x]
        self.assertEqual([x["step"] for x in steps], [1, 2, 3, 4, 5, 6])
        self.assertEqual(sorted(x["actor"] for x in steps),
                         ["a", "a", "a", "b", "b", "b"])
        # The clock moves by the tick after each step.
        self.assertEqual([x["clock"] for x in steps],
                         [(START + i) * 1000 for i in range(6)])
        # The shared counter's answers count 1..4 in schedule order.
        counts = [x["response"]["Attributes"]["n"]["N"] for x in steps
                  if x["call"] == "UpdateItem"]
        self.assertEqual(counts, ["1", "2", "3", "4"])
        # The unscheduled GetItem of "setup" is not in the trace.
        self.assertNotIn("GetItem", [x.get("call") for x in lines])

    def test_boto3_retry_after_lost_response_is_the_actors_next_step(self):
        plan = {"rules": [{"operation": "PutItem", "table": "sched",
                           "key": {"pk": {"S": "a"}}, "nth": [1],
                           "effect": "lost_response"}]}
        self.assertEqual(control("POST", "/_ddblab/faults", plan)[0], 200)
        self.addCleanup(control, "DELETE", "/_ddblab/faults")
        status, state = control("POST", "/_ddblab/schedule", SCHEDULE)
        self.assertEqual(status, 200, state)
        errors = []

        def actor(name):
            # As a user writes it: boto3's default retry policy.
            client = boto3.client(
                "dynamodb", endpoint_url=server.endpoint,
                region_name="us-east-1", aws_access_key_id=name,
                aws_secret_access_key="secret")
            try:
                client.put_item(TableName="sched",
                                Item={"pk": {"S": name}, "v": {"N": "1"}})
            except Exception as e:  # reported by the main thread
                errors.append(f"{name}: {e!r}")
            finally:
                client.close()
            control("POST", f"/_ddblab/schedule/actors/{name}/done")

        threads = [threading.Thread(target=actor, args=(n,))
                   for n in ("a", "b")]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        self.assertFalse(any(t.is_alive() for t in threads), "an actor hung")
        self.assertEqual(errors, [])
        _, _, raw = send(server.endpoint, "GET", "/_ddblab/schedule/trace",
                         b"", control_headers(server.endpoint))
        lines = [json.loads(line) for line in raw.decode().splitlines()]
        a_steps = [x for x in lines if x.get("actor") == "a" and "step" in x]
        body = {"Item": {"pk": {"S": "a"}, "v": {"N": "1"}},
                "TableName": "sched"}
        self.assertEqual(
            [(x["call"], x["request"], x.get("fault"), x.get("response"))
             for x in a_steps],
            [("PutItem", body, "lost_response", None),
             ("PutItem", body, None, {})])
        _, state = control("GET", "/_ddblab/schedule")
        self.assertEqual([(x["name"], x["steps"]) for x in state["actors"]],
                         [("a", 2), ("b", 1)])


if __name__ == "__main__":
    unittest.main()
