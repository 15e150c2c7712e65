#!/usr/bin/python3
"""ddblab-consume against `ddblab serve` over HTTP: the Powertools batch
handler (batch_handler.mjs) run as a command, one record failing once.

    DDBLAB_BIN=... DDBLAB_CONSUME_BIN=... python3 test_consume_cli.py

Skipped (exit 77) when node or this folder's node_modules is missing.
"""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from ddblab_server import DdblabServer, ACCESS_KEY_ID, SECRET_ACCESS_KEY, REGION  # noqa: E402

CONSUME = os.environ.get(
    "DDBLAB_CONSUME_BIN",
    str(HERE.parents[2] / "build" / "harness" / "consumer" / "ddblab-consume"))


class ConsumeCliTest(unittest.TestCase):
    def setUp(self):
        self.server = DdblabServer.start()
        self.client = self.server.boto3_client("dynamodb")
        self.dir = tempfile.mkdtemp(prefix="ddblab_consume_")

    def tearDown(self):
        self.server.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    def consume(self, mappings):
        path = os.path.join(self.dir, "esm.json")
        with open(path, "w") as f:
            json.dump(mappings, f)
        env = dict(os.environ, AWS_ACCESS_KEY_ID=ACCESS_KEY_ID,
                   AWS_SECRET_ACCESS_KEY=SECRET_ACCESS_KEY, AWS_REGION=REGION)
        out = subprocess.run(
            [CONSUME, "--backend", self.server.endpoint,
             "--event-source-mappings", path, "--once"],
            env=env, capture_output=True, text=True, timeout=120)
        self.assertEqual(out.returncode, 0, out.stderr)
        return json.loads(out.stdout)["EventSourceMappings"]

    def test_powertools_partial_failure_redelivers_from_failed_record(self):
        self.create_orders(["a", "b", "c", "d", "e"])
        log = os.path.join(self.dir, "log.jsonl")
        [esm] = self.consume([{
            "TableName": "orders", "FunctionName": "powertools",
            "StartingPosition": "TRIM_HORIZON",
            "FunctionResponseTypes": ["ReportBatchItemFailures"],
            "Function": {"Command": [
                "node", str(HERE / "run_handler.mjs"),
                str(HERE / "batch_handler.mjs"), "c",
                os.path.join(self.dir, "failed"), log],
                "TimeoutSeconds": 60}}])
        with open(log) as f:
            lines = [json.loads(line) for line in f]
        self.assertEqual([line["pks"] for line in lines],
                         [["a", "b", "c", "d", "e"], ["c", "d", "e"]])
        self.assertEqual(lines[1]["response"], {"batchItemFailures": []})
        self.assertEqual(esm["Metrics"]["Invocations"], 2)
        self.assertEqual(esm["Metrics"]["PartialFailures"], 1)
        self.assertEqual(esm["LastProcessingResult"], "OK")
        self.assertEqual(esm["Failures"], [])

    def create_orders(self, pks):
        self.client.create_table(
            TableName="orders",
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "pk",
                                   "AttributeType": "S"}],
            BillingMode="PAY_PER_REQUEST",
            StreamSpecification={"StreamEnabled": True,
                                 "StreamViewType": "NEW_AND_OLD_IMAGES"})
        for pk in pks:
            self.client.put_item(TableName="orders", Item={"pk": {"S": pk}})

    def test_powertools_behind_an_invoke_url(self):
        self.create_orders(["a", "b", "c", "d", "e"])
        log = os.path.join(self.dir, "log.jsonl")
        handler = subprocess.Popen(
            ["node", str(HERE / "serve_handler.mjs"),
             str(HERE / "batch_handler.mjs"), "c",
             os.path.join(self.dir, "failed"), log],
            stdout=subprocess.PIPE, text=True)
        try:
            url = handler.stdout.readline().strip()
            self.assertTrue(url.startswith("http://127.0.0.1:"), url)
            [esm] = self.consume([{
                "TableName": "orders", "FunctionName": "powertools",
                "StartingPosition": "TRIM_HORIZON",
                "FunctionResponseTypes": ["ReportBatchItemFailures"],
                "Function": {"Url": url, "TimeoutSeconds": 30}}])
        finally:
            handler.terminate()
            handler.wait(timeout=30)
            handler.stdout.close()
        with open(log) as f:
            lines = [json.loads(line) for line in f]
        self.assertEqual([line["pks"] for line in lines],
                         [["a", "b", "c", "d", "e"], ["c", "d", "e"]])
        self.assertEqual(esm["Metrics"]["PartialFailures"], 1)
        self.assertEqual(esm["Metrics"]["FunctionErrors"], 0)

    def test_handler_error_behind_an_invoke_url_is_a_function_error(self):
        self.create_orders(["a"])
        module = os.path.join(self.dir, "throws.mjs")
        with open(module, "w") as f:
            f.write("export const handler = async () => "
                    "{ throw new RangeError('nope'); };\n")
        handler = subprocess.Popen(["node", str(HERE / "serve_handler.mjs"),
                                    module], stdout=subprocess.PIPE, text=True)
        try:
            url = handler.stdout.readline().strip()
            [esm] = self.consume([{
                "TableName": "orders", "FunctionName": "throws",
                "StartingPosition": "TRIM_HORIZON", "MaximumRetryAttempts": 1,
                "Function": {"Url": url}}])
        finally:
            handler.terminate()
            handler.wait(timeout=30)
            handler.stdout.close()
        self.assertEqual(esm["Metrics"]["Invocations"], 2)
        self.assertEqual(esm["Metrics"]["FunctionErrors"], 2)
        self.assertEqual(len(esm["Failures"]), 1)
        self.assertEqual(esm["Failures"][0]["requestContext"]["condition"],
                         "RetryAttemptsExhausted")
        self.assertEqual(esm["LastProcessingResult"],
                         "PROBLEM: Function call failed")

    def test_sdk_aggregator_totals_are_exact(self):
        for name, key in [("orders", "pk"), ("totals", "customer")]:
            self.client.create_table(
                TableName=name,
                KeySchema=[{"AttributeName": key, "KeyType": "HASH"}],
                AttributeDefinitions=[{"AttributeName": key,
                                       "AttributeType": "S"}],
                BillingMode="PAY_PER_REQUEST",
                StreamSpecification={"StreamEnabled": True,
                                     "StreamViewType": "NEW_IMAGE"})
        expected = {}
        for i in range(60):
            customer = f"c{i % 4}"
            amount = (i * 37) % 101
            expected.setdefault(customer, [0, 0])
            expected[customer][0] += amount
            expected[customer][1] += 1
            self.client.put_item(TableName="orders", Item={
                "pk": {"S": f"o{i}"}, "customer": {"S": customer},
                "amount": {"N": str(amount)}})
        [esm] = self.consume([{
            "TableName": "orders", "FunctionName": "rollup",
            "StartingPosition": "TRIM_HORIZON", "BatchSize": 7,
            "Function": {"Command": [
                "node", str(HERE / "run_handler.mjs"),
                str(HERE / "aggregator.mjs"), self.server.endpoint],
                "TimeoutSeconds": 60}}])
        self.assertEqual(esm["Metrics"]["Invocations"], 9)  # ceil(60 / 7)
        self.assertEqual(esm["Metrics"]["FunctionErrors"], 0)
        items = self.client.scan(TableName="totals")["Items"]
        got = {item["customer"]["S"]: [int(item["amount"]["N"]),
                                       int(item["orders"]["N"])]
               for item in items}
        self.assertEqual(got, expected)

    def test_bad_mapping_file_is_rejected(self):
        path = os.path.join(self.dir, "bad.json")
        with open(path, "w") as f:
            json.dump([{"TableName": "orders", "FunctionName": "f",
                        "StartingPosition": "TRIM_HORIZON", "BatchSize": 0,
                        "Function": {"Command": ["true"]}}], f)
        out = subprocess.run([CONSUME, "--backend", self.server.endpoint,
                              "--event-source-mappings", path, "--once"],
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(out.returncode, 2)
        self.assertEqual(
            out.stderr,
            "ddblab-consume: ValidationException: " + path + ": mapping 0: "
            "1 validation error detected: Value '0' at 'batchSize' failed to "
            "satisfy constraint: Member must have value greater than or equal "
            "to 1\n")


if __name__ == "__main__":
    if shutil.which("node") is None or not (
            HERE / "node_modules" / "@aws-lambda-powertools" / "batch").is_dir():
        print("skipped: node or tests/clients/consumer/node_modules missing")
        sys.exit(77)
    result = unittest.main(exit=False, verbosity=2).result
    sys.exit(0 if result.wasSuccessful() else 1)
