"""`ddblab serve --namespace access-key` with boto3: two clients signing
with keys A and B each create `orders`, put items, and never see each
other's items, stream records (DescribeStream/GetRecords) or faults (a plan
posted with ?namespace=A fires only for A); the control API's 400 without
?namespace=; GET /_ddblab/namespaces; --namespace bogus (exit 2); and
--db FILE with namespaces: one file per key, reopened after a restart."""
import os
import shutil
import subprocess
import tempfile
import unittest
import urllib.parse

from botocore.exceptions import ClientError

from ddb_client import control_request
from ddblab_server import DdblabServer, ServerModule, ddblab_bin

server = ServerModule(["--namespace", "access-key", "--clock",
                       "manual=1700000000"])
setUpModule, tearDownModule = server.start, server.stop

ORDERS = {
    "TableName": "orders",
    "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
    "BillingMode": "PAY_PER_REQUEST",
    "StreamSpecification": {"StreamEnabled": True,
                            "StreamViewType": "NEW_IMAGE"},
}


def control(method, path, body=None, namespace=None, endpoint=None):
    if namespace is not None:
        path += "?namespace=" + urllib.parse.quote(namespace, safe="")
    return control_request(endpoint or server.endpoint, method, path, body)


def stream_items(client, table):
    """Every NewImage pk in the table's stream, in order."""
    streams = client._ddblab_streams
    arn = client.describe_table(TableName=table)["Table"]["LatestStreamArn"]
    shards = streams.describe_stream(StreamArn=arn)["StreamDescription"][
        "Shards"]
    seen = []
    for shard in shards:
        iterator = streams.get_shard_iterator(
            StreamArn=arn, ShardId=shard["ShardId"],
            ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
        records = streams.get_records(ShardIterator=iterator)["Records"]
        seen += [r["dynamodb"]["NewImage"]["pk"]["S"] for r in records]
    return seen


class NamespacesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.a = server.boto3_client(access_key_id="KEYA")
        cls.b = server.boto3_client(access_key_id="KEYB")
        cls.a._ddblab_streams = server.boto3_client(
            "dynamodbstreams", access_key_id="KEYA")
        cls.b._ddblab_streams = server.boto3_client(
            "dynamodbstreams", access_key_id="KEYB")
        for client, who in ((cls.a, "a"), (cls.b, "b")):
            client.create_table(**ORDERS)
            for n in range(2):
                client.put_item(TableName="orders",
                                Item={"pk": {"S": f"{who}{n}"}})

    def test_items_stay_in_their_namespace(self):
        for client, who in ((self.a, "a"), (self.b, "b")):
            items = client.scan(TableName="orders")["Items"]
            self.assertEqual(sorted(i["pk"]["S"] for i in items),
                             [f"{who}0", f"{who}1"])
            self.assertEqual(client.list_tables()["TableNames"], ["orders"])

    def test_stream_records_stay_in_their_namespace(self):
        self.assertEqual(stream_items(self.a, "orders"), ["a0", "a1"])
        self.assertEqual(stream_items(self.b, "orders"), ["b0", "b1"])

    def test_a_fault_plan_fires_only_in_its_namespace(self):
        plan = {"rules": [{"operation": "GetItem", "table": "orders",
                           "effect": "throttle"}]}
        status, body = control("POST", "/_ddblab/faults", plan, "KEYA")
        self.assertEqual(status, 200, body)
        try:
            with self.assertRaises(ClientError) as throttled:
                self.a.get_item(TableName="orders", Key={"pk": {"S": "a0"}})
            self.assertEqual(throttled.exception.response["Error"]["Code"],
                             "ThrottlingException")  # on-demand
            got = self.b.get_item(TableName="orders", Key={"pk": {"S": "b0"}})
            self.assertEqual(got["Item"], {"pk": {"S": "b0"}})
            self.assertEqual(
                control("GET", "/_ddblab/faults", namespace="KEYB"),
                (200, {"rules": []}))
            _, log_b = control("GET", "/_ddblab/faults/log", namespace="KEYB")
            self.assertEqual(log_b, {"faults": []})
        finally:
            control("DELETE", "/_ddblab/faults", namespace="KEYA")

    def test_control_without_namespace_is_a_400(self):
        status, body = control("GET", "/_ddblab/faults")
        self.assertEqual((status, body), (400, {
            "type": "ValidationException",
            "message": "this server keeps a namespace per access key "
                       "(--namespace access-key): add ?namespace=ACCESS_KEY "
                       "to /_ddblab/faults"}))
        # The clock is global: no namespace needed.
        status, body = control("GET", "/_ddblab/clock")
        self.assertEqual((status, body["mode"]), (200, "manual"))

    def test_namespaces_are_listed(self):
        status, body = control("GET", "/_ddblab/namespaces")
        self.assertEqual(status, 200)
        self.assertEqual(body["mode"], "access-key")
        names = [n["name"] for n in body["namespaces"]]
        self.assertIn("KEYA", names)
        self.assertIn("KEYB", names)


class NamespaceFlagTest(unittest.TestCase):
    def test_bogus_mode_exits_2_naming_the_values(self):
        result = subprocess.run([ddblab_bin(), "serve", "--namespace",
                                 "bogus"], capture_output=True, text=True,
                                timeout=30)
        self.assertEqual(result.returncode, 2)
        self.assertEqual(result.stderr,
                         "ddblab: invalid value 'bogus' for --namespace: "
                         "expected shared, access-key or access-key+region "
                         "(run 'ddblab --help' for usage)\n")

    def test_db_file_per_namespace_survives_a_restart(self):
        folder = tempfile.mkdtemp(prefix="ddblab-ns-")
        try:
            db = os.path.join(folder, "app.db")
            args = ["--namespace", "access-key+region", "--db", db]
            first = DdblabServer.start(args)
            try:
                client = first.boto3_client(access_key_id="K_1")
                client.create_table(**ORDERS)
                client.put_item(TableName="orders",
                                Item={"pk": {"S": "kept"}})
            finally:
                self.assertEqual(first.stop(), 0, first.stderr_text())
            self.assertTrue(os.path.exists(
                os.path.join(folder, "app.K%5F1_us-east-1.db")),
                os.listdir(folder))
            second = DdblabServer.start(args)
            try:
                status, body = control("GET", "/_ddblab/namespaces",
                                       endpoint=second.endpoint)
                self.assertEqual((status, body), (200, {
                    "mode": "access-key+region",
                    "namespaces": [{"name": "K_1:us-east-1",
                                    "access_key": "K_1",
                                    "region": "us-east-1"}]}))
                client = second.boto3_client(access_key_id="K_1")
                self.assertEqual(client.scan(TableName="orders")["Items"],
                                 [{"pk": {"S": "kept"}}])
                other = second.boto3_client(access_key_id="K_1",
                                            region="eu-west-1")
                self.assertEqual(other.list_tables()["TableNames"], [])
            finally:
                self.assertEqual(second.stop(), 0, second.stderr_text())
        finally:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
