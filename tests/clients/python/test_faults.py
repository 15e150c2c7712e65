"""Fault plans through boto3 with its retries ON (standard mode) against
`ddblab serve`: a throttled PutItem retried by the SDK, a lost response
after an UpdateItem ADD that the SDK re-sends (the counter goes up twice),
a BatchWriteItem with exactly the matched items unprocessed; the control
endpoints (POST/GET/DELETE /_ddblab/faults, GET /_ddblab/faults/log), a
bad plan (400 naming the path, old plan kept) and `--faults FILE`."""
import json
import os
import tempfile
import unittest

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

import wire
from ddb_client import BotoModule, ClientTest, control_request, table_spec
from ddblab_server import (ACCESS_KEY_ID, REGION, SECRET_ACCESS_KEY,
                           DdblabServer)

server = BotoModule(["--seed", "7"],
                    tables=[table_spec("throttled"), table_spec("counters"),
                            table_spec("batch"), table_spec("plain")])
setUpModule, tearDownModule = server.start, server.stop

REASONS = [{"reason": "TableWriteKeyRangeThroughputExceeded",
            "resource": "arn:aws:dynamodb:us-east-1:000000000000:table/"
                        "throttled"}]


def control(method, path, body=None):
    return control_request(server.endpoint, method, path, body)


def set_plan(plan):
    status, body = control("POST", "/_ddblab/faults", plan)
    assert status == 200, body
    return body


def retrying_client():
    """boto3 with standard-mode retries (3 attempts)."""
    client = boto3.client(
        "dynamodb", endpoint_url=server.endpoint, region_name=REGION,
        aws_access_key_id=ACCESS_KEY_ID,
        aws_secret_access_key=SECRET_ACCESS_KEY,
        config=Config(retries={"mode": "standard", "total_max_attempts": 3},
                      connect_timeout=5, read_timeout=30))
    return client


class FaultsTest(ClientTest, unittest.TestCase):
    server = server

    def setUp(self):
        self.retrying = retrying_client()
        self.log_before = len(control("GET", "/_ddblab/faults/log")[1]
                              ["faults"])

    def tearDown(self):
        self.assertEqual(control("DELETE", "/_ddblab/faults"),
                         (200, {"rules": []}))
        self.retrying.close()

    def new_log(self):
        status, body = control("GET", "/_ddblab/faults/log")
        self.assertEqual(status, 200)
        return body["faults"][self.log_before:]

    def test_throttled_twice_then_the_sdk_succeeds(self):
        set_plan({"rules": [{"id": "slow-down", "operation": "PutItem",
                             "table": "throttled", "nth": [1, 2],
                             "effect": "throttle"}]})
        out = self.retrying.put_item(
            TableName="throttled", Item={"pk": {"S": "a"}})
        self.assertEqual(out["ResponseMetadata"]["RetryAttempts"], 2)
        item = self.client.get_item(TableName="throttled",
                                    Key={"pk": {"S": "a"}})
        self.assertEqual(item["Item"], {"pk": {"S": "a"}})
        log = self.new_log()
        self.assertEqual(len(log), 2)
        for entry in log:
            self.assertEqual(entry["operation"], "PutItem")
            self.assertEqual(entry["table"], "throttled")
            self.assertEqual(entry["keys"], [{"pk": {"S": "a"}}])
            self.assertEqual(entry["rule"], "slow-down")
            self.assertEqual(entry["effect"], "throttle")
        self.assertEqual(log[1]["seq"], log[0]["seq"] + 1)
        status, body = control("GET", "/_ddblab/faults")
        self.assertEqual(status, 200)
        self.assertEqual(body["rules"][0]["matched"], 3)
        self.assertEqual(body["rules"][0]["fired"], 2)

    def test_throttle_without_retries_shows_the_exception(self):
        set_plan({"rules": [{"operation": "PutItem", "table": "throttled",
                             "effect": "throttle"}]})
        with self.assertRaises(ClientError) as caught:
            self.client.put_item(TableName="throttled",
                                 Item={"pk": {"S": "b"}})
        error = caught.exception.response
        self.assertEqual(error["ResponseMetadata"]["HTTPStatusCode"], 400)
        self.assertEqual(error["Error"]["Code"], "ThrottlingException")
        self.assertEqual(
            error["Error"]["Message"],
            "Throughput exceeds the current capacity of your table or index. "
            "DynamoDB is automatically scaling your table or index so please "
            "try again shortly. If exceptions persist, check if you have a "
            "hot key: https://docs.aws.amazon.com/amazondynamodb/latest/"
            "developerguide/bp-partition-key-design.html")
        # Newer botocore models throttlingReasons; Debian's (1.29) drops it,
        # so the field is read from the wire as well.
        if "throttlingReasons" in error:
            self.assertEqual(error["throttlingReasons"], REASONS)
        status, _, data = wire.post(
            server.endpoint, "DynamoDB_20120810.PutItem",
            json.dumps({"TableName": "throttled",
                        "Item": {"pk": {"S": "c"}}}))
        self.assertEqual(status, 400)
        body = json.loads(data)
        self.assertEqual(
            body["__type"],
            "com.amazonaws.dynamodb.v20120810#ThrottlingException")
        self.assertEqual(body["throttlingReasons"], REASONS)

    def test_lost_response_makes_the_sdk_add_twice(self):
        set_plan({"rules": [{"id": "lost", "operation": "UpdateItem",
                             "table": "counters", "nth": [1],
                             "effect": "lost_response"}]})
        out = self.retrying.update_item(
            TableName="counters", Key={"pk": {"S": "visits"}},
            UpdateExpression="ADD n :one",
            ExpressionAttributeValues={":one": {"N": "1"}},
            ReturnValues="UPDATED_NEW")
        # The SDK saw a closed connection, re-sent the same ADD, and that
        # second ADD is the answer it got: the counter went up twice.
        self.assertEqual(out["ResponseMetadata"]["RetryAttempts"], 1)
        self.assertEqual(out["Attributes"], {"n": {"N": "2"}})
        item = self.client.get_item(TableName="counters",
                                    Key={"pk": {"S": "visits"}})
        self.assertEqual(item["Item"]["n"], {"N": "2"})
        log = self.new_log()
        self.assertEqual([(e["rule"], e["effect"]) for e in log],
                         [("lost", "lost_response")])

    def test_batch_write_of_25_with_7_unprocessed(self):
        hit = {1, 4, 7, 10, 13, 16, 19}
        requests = [{"PutRequest": {"Item": {
            "pk": {"S": f"k{i:02d}"},
            "group": {"S": "hot" if i in hit else "cold"}}}}
            for i in range(25)]
        set_plan({"rules": [{"operation": "BatchWriteItem",
                             "table": "batch",
                             "key": {"group": {"S": "hot"}},
                             "effect": "unprocessed"}]})
        out = self.retrying.batch_write_item(RequestItems={"batch": requests})
        self.assertEqual(out["ResponseMetadata"]["RetryAttempts"], 0)
        self.assertEqual(out["UnprocessedItems"],
                         {"batch": [requests[i] for i in sorted(hit)]})
        scan = self.client.scan(TableName="batch")
        self.assertEqual(sorted(item["pk"]["S"] for item in scan["Items"]),
                         [f"k{i:02d}" for i in range(25) if i not in hit])
        log = self.new_log()
        self.assertEqual(len(log), 1)
        self.assertEqual(log[0]["keys"],
                         [{"pk": {"S": f"k{i:02d}"}} for i in sorted(hit)])

    def test_bad_plan_is_a_400_naming_the_path_and_the_old_plan_stays(self):
        set_plan({"rules": [{"id": "keep", "operation": "GetItem",
                             "table": "plain", "effect": "internal_error"}]})
        status, body = control("POST", "/_ddblab/faults", {"rules": [
            {"effect": "throttle"}, {"effect": "throttle"},
            {"effect": "thorttle"}]})
        self.assertEqual(status, 400)
        self.assertEqual(body, {
            "type": "ValidationException",
            "message": 'rules[2].effect: unknown effect "thorttle"'})
        status, body = control("POST", "/_ddblab/faults", b"{not json")
        self.assertEqual((status, body["message"]),
                         (400, "the plan is not valid JSON"))
        status, body = control("GET", "/_ddblab/faults")
        self.assertEqual(status, 200)
        self.assertEqual(body, {"rules": [{
            "id": "keep", "operation": ["GetItem"], "table": ["plain"],
            "effect": "internal_error", "matched": 0, "fired": 0}]})
        with self.assertRaises(ClientError) as caught:
            self.client.get_item(TableName="plain", Key={"pk": {"S": "x"}})
        self.assertEqual(
            caught.exception.response["ResponseMetadata"]["HTTPStatusCode"],
            500)
        self.assertEqual(caught.exception.response["Error"]["Code"],
                         "InternalServerError")


class FaultsFileTest(unittest.TestCase):
    def test_faults_file_is_in_force_from_the_start(self):
        with tempfile.NamedTemporaryFile("w", suffix=".json",
                                         delete=False) as f:
            json.dump({"rules": [{"operation": "ListTables",
                                  "effect": "unavailable"}]}, f)
        try:
            started = DdblabServer.start(["--faults", f.name])
            try:
                with self.assertRaises(ClientError) as caught:
                    started.boto3_client().list_tables()
                self.assertEqual(caught.exception.response
                                 ["ResponseMetadata"]["HTTPStatusCode"], 503)
                status, body = control_request(started.endpoint, "GET",
                                               "/_ddblab/faults/log")
                self.assertEqual(status, 200)
                self.assertEqual([e["effect"] for e in body["faults"]],
                                 ["unavailable"])
            finally:
                self.assertEqual(started.stop(), 0)
        finally:
            os.unlink(f.name)

    def test_a_bad_faults_file_stops_the_server(self):
        with tempfile.NamedTemporaryFile("w", suffix=".json",
                                         delete=False) as f:
            json.dump({"rules": [{"effect": "thorttle"}]}, f)
        try:
            with self.assertRaises(RuntimeError) as caught:
                DdblabServer.start(["--faults", f.name])
            self.assertIn(f'ddblab: --faults {f.name}: rules[0].effect: '
                          'unknown effect "thorttle"', str(caught.exception))
        finally:
            os.unlink(f.name)


if __name__ == "__main__":
    unittest.main()
