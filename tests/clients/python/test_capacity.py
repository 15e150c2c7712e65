"""Capacity enforcement through boto3 with its retries ON, against
`ddblab serve --capacity enforce --clock manual`: an occasional throttle is
absorbed by the SDK's retries, a sustained one surfaces as
ProvisionedThroughputExceededException; GET /_ddblab/capacity reports the
units consumed per second and the throttled requests by reason.

The server's clock moves only when told: a botocore hook moves it on by
400 ms before every attempt, standing for the time that passes between a
client's attempts, so the same calls give the same throttles every run."""
import unittest

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

from ddb_client import BotoModule, ClientTest, advance_clock, control_request
from ddblab_server import ACCESS_KEY_ID, REGION, SECRET_ACCESS_KEY

START = 1704067200
server = BotoModule(["--capacity", "enforce", "--clock", f"manual={START}",
                     "--seed", "5"])
setUpModule, tearDownModule = server.start, server.stop

TABLE_TEXT = ("The level of configured provisioned throughput for the table "
              "was exceeded. Consider increasing your provisioning level "
              "with the UpdateTable API.")


def retrying_client(max_attempts):
    """boto3 in legacy retry mode (DynamoDB's 50 ms x 2^n backoff) with
    `max_attempts` calls at most, the clock moved 400 ms per attempt."""
    client = boto3.client(
        "dynamodb", endpoint_url=server.endpoint, region_name=REGION,
        aws_access_key_id=ACCESS_KEY_ID,
        aws_secret_access_key=SECRET_ACCESS_KEY,
        config=Config(retries={"mode": "legacy",
                               "total_max_attempts": max_attempts},
                      connect_timeout=5, read_timeout=30))

    def tick(**_):
        advance_clock(server.endpoint, 0.4)

    client.meta.events.register("before-send.dynamodb.PutItem", tick)
    return client


def item(pk, kilobytes):
    """An item of exactly `kilobytes` KB: "pk" + pk + "p" + payload."""
    size = kilobytes * 1024
    return {"pk": {"S": pk}, "p": {"S": "x" * (size - 3 - len(pk))}}


class CapacityTest(ClientTest, unittest.TestCase):
    server = server

    def test_occasional_throttle_absorbed_sustained_one_surfaces(self):
        self.client.create_table(
            TableName="slow",
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "pk",
                                   "AttributeType": "S"}],
            ProvisionedThroughput={"ReadCapacityUnits": 5,
                                   "WriteCapacityUnits": 1})
        # The table banks 300 s x 1 unit; a 300 KB item spends all of it.
        retrying = retrying_client(10)
        retrying.put_item(TableName="slow", Item=item("big", 300))
        # A 2 KB item needs 2 units: attempts at +0.4 s ... +2.0 s; the
        # fifth finds them. The caller sees a success.
        answer = retrying.put_item(TableName="slow", Item=item("a", 2))
        self.assertEqual(answer["ResponseMetadata"]["RetryAttempts"], 4)
        self.assertEqual(
            self.get_item("slow", {"pk": {"S": "a"}})["pk"], {"S": "a"})
        # Sustained: three attempts (1.2 s) never gather 2 units.
        impatient = retrying_client(3)
        with self.assertRaises(ClientError) as caught:
            impatient.put_item(TableName="slow", Item=item("b", 2))
        error = caught.exception.response["Error"]
        self.assertEqual(error["Code"],
                         "ProvisionedThroughputExceededException")
        self.assertEqual(error["Message"], TABLE_TEXT)
        self.assertEqual(
            caught.exception.response["ResponseMetadata"]["RetryAttempts"], 2)
        self.assertIsNone(self.get_item("slow", {"pk": {"S": "b"}}))

        status, report = control_request(server.endpoint, "GET",
                                         "/_ddblab/capacity")
        self.assertEqual(status, 200)
        self.assertTrue(report["Enforced"])
        table = [t for t in report["Tables"] if t["TableName"] == "slow"][0]
        self.assertEqual(table["BillingMode"], "PROVISIONED")
        self.assertEqual(table["Write"]["ProvisionedUnits"], 1)
        self.assertEqual(
            table["ThrottledRequests"],
            {"TableWriteProvisionedThroughputExceeded": 4 + 3})
        # 300 units in the first second, 2 units 2 s later.
        self.assertEqual(table["Write"]["Consumed"],
                         [{"Second": START + 0, "Units": 300.0},
                          {"Second": START + 2, "Units": 2.0}])


if __name__ == "__main__":
    unittest.main()
