#!/usr/bin/python3
"""`ddblab serve --clock manual --event-source-mappings FILE` hosting event
source mappings itself: the Powertools batch handler (batch_handler.mjs) and
a throwing handler run as commands, items written with boto3, the clock
advanced through POST /_ddblab/clock, and the mappings, their metrics and
their on-failure records read back through the mapping API on the server's
own port. Also: a bad FILE stops the server with an exact message.

    DDBLAB_BIN=build/cli/ddblab python3 test_serve_esm.py

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
import urllib.error
import urllib.request

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from ddblab_server import (DdblabServer, control_headers,  # noqa: E402
                           ddblab_bin)

START = 1700000000
ESM = "/_ddblab/event-source-mappings"


class ServeEsmTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="ddblab_serve_esm_")
        self.server = None

    def tearDown(self):
        if self.server is not None:
            status = self.server.stop()
            self.assertEqual(status, 0, self.server.stderr_text())
        shutil.rmtree(self.dir, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.dir, name)

    def write_mappings(self, mappings, name="esm.json"):
        with open(self.path(name), "w") as f:
            json.dump(mappings, f)
        return self.path(name)

    def request(self, method, path, body=None):
        """(status, JSON body) of a control request to the server."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(
            self.server.endpoint + path, data=data, method=method,
            headers=control_headers(self.server.endpoint))
        try:
            with urllib.request.urlopen(req, timeout=120) as res:
                return res.status, json.loads(res.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def advance(self, amount):
        return self.request("POST", "/_ddblab/clock", {"advance": amount})

    def create_orders(self, client):
        out = client.create_table(
            TableName="orders",
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "pk",
                                   "AttributeType": "S"}],
            BillingMode="PAY_PER_REQUEST",
            StreamSpecification={"StreamEnabled": True,
                                 "StreamViewType": "NEW_AND_OLD_IMAGES"})
        return out["TableDescription"]["LatestStreamArn"]

    def log_lines(self, name):
        if not os.path.exists(self.path(name)):
            return []
        with open(self.path(name)) as f:
            return [json.loads(line) for line in f]

    def test_clock_advance_delivers_to_hosted_powertools_handler(self):
        throws = self.path("throws.mjs")
        with open(throws, "w") as f:
            f.write("export const handler = async () => "
                    "{ throw new RangeError('nope'); };\n")
        powertools_fn = {"Command": [
            "node", str(HERE / "run_handler.mjs"),
            str(HERE / "batch_handler.mjs"), "c", self.path("failed"),
            self.path("log.jsonl")], "TimeoutSeconds": 60}
        throws_fn = {"Command": ["node", str(HERE / "run_handler.mjs"),
                                 throws], "TimeoutSeconds": 60}
        path = self.write_mappings([
            {"TableName": "orders", "FunctionName": "powertools",
             "StartingPosition": "TRIM_HORIZON",
             "FunctionResponseTypes": ["ReportBatchItemFailures"],
             "Function": powertools_fn},
            {"TableName": "orders", "FunctionName": "throws",
             "StartingPosition": "TRIM_HORIZON", "MaximumRetryAttempts": 1,
             "Function": throws_fn}])
        self.server = DdblabServer.start(
            ["--clock", f"manual={START}", "--event-source-mappings", path])
        client = self.server.boto3_client("dynamodb")
        stream_arn = self.create_orders(client)
        for pk in ["a", "b", "c", "d", "e"]:
            client.put_item(TableName="orders", Item={"pk": {"S": pk}})

        status, listed = self.request("GET", ESM)
        self.assertEqual(status, 200)
        by_name = {m["FunctionArn"].rsplit(":", 1)[1]: m
                   for m in listed["EventSourceMappings"]}
        self.assertEqual(sorted(by_name), ["powertools", "throws"])
        for m in by_name.values():  # nothing delivered before the clock moves
            self.assertEqual(m["Metrics"]["Invocations"], 0)
            self.assertEqual(m["LastProcessingResult"], "No records processed")
        self.assertEqual(self.log_lines("log.jsonl"), [])

        # Delivery runs to the end before the clock call answers.
        self.assertEqual(self.advance("1s"),
                         (200, {"now": START + 1, "deleted": 0}))
        # Only the failed record and the ones after it come again.
        self.assertEqual(self.log_lines("log.jsonl"), [
            {"pks": ["a", "b", "c", "d", "e"],
             "response": {"batchItemFailures": [{"itemIdentifier":
                                                 self.sequence_of(client, stream_arn, "c")}]}},
            {"pks": ["c", "d", "e"], "response": {"batchItemFailures": []}}])

        uuid = by_name["powertools"]["UUID"]
        status, got = self.request("GET", f"{ESM}/{uuid}")
        self.assertEqual(status, 200)
        # The checkpoint stands at the last record of the one shard.
        shards = self.server.boto3_client("dynamodbstreams").describe_stream(
            StreamArn=stream_arn)["StreamDescription"]["Shards"]
        self.assertEqual(got.pop("ShardCheckpoints"), [
            {"ShardId": shards[0]["ShardId"],
             "SequenceNumber": self.sequence_of(client, stream_arn, "e")}])
        self.assertEqual(got, {
            "BatchSize": 100, "MaximumBatchingWindowInSeconds": 0,
            "ParallelizationFactor": 1, "EventSourceArn": stream_arn,
            "StartingPosition": "TRIM_HORIZON",
            "MaximumRecordAgeInSeconds": -1,
            "BisectBatchOnFunctionError": False, "MaximumRetryAttempts": -1,
            "TumblingWindowInSeconds": 0,
            "FunctionResponseTypes": ["ReportBatchItemFailures"],
            "DestinationConfig": {}, "UUID": uuid,
            "FunctionArn":
                "arn:aws:lambda:us-east-1:000000000000:function:powertools",
            "LastModified": START, "LastProcessingResult": "OK",
            "State": "Enabled", "StateTransitionReason": "User action",
            "Function": powertools_fn,
            "Metrics": {"Invocations": 2, "FunctionErrors": 0,
                        "PartialFailures": 1, "NotDelivered": 0,
                        "Retries": 1, "Bisections": 0,
                        "RecordsDelivered": 8, "RecordsFiltered": 0,
                        "RecordsDiscarded": 0,
                        "IteratorAgeMilliseconds": 1000}})
        self.assertEqual(self.request("GET", f"{ESM}/{uuid}/failures"),
                         (200, {"Failures": []}))

        # The throwing handler: first try + 1 retry, then an on-failure
        # record for the whole batch.
        bad = by_name["throws"]["UUID"]
        status, got = self.request("GET", f"{ESM}/{bad}")
        self.assertEqual(got["LastProcessingResult"],
                         "PROBLEM: Function call failed")
        self.assertEqual(got["Metrics"]["Invocations"], 2)
        self.assertEqual(got["Metrics"]["FunctionErrors"], 2)
        self.assertEqual(got["Metrics"]["RecordsDiscarded"], 5)
        status, failures = self.request("GET", f"{ESM}/{bad}/failures")
        self.assertEqual(status, 200)
        [record] = failures["Failures"]
        self.assertEqual(record["requestContext"]["condition"],
                         "RetryAttemptsExhausted")
        self.assertEqual(record["requestContext"]["approximateInvokeCount"], 2)
        self.assertEqual(record["requestContext"]["functionArn"],
                         "arn:aws:lambda:us-east-1:000000000000:function:throws")
        info = record["DDBStreamBatchInfo"]
        self.assertEqual(info["batchSize"], 5)
        self.assertEqual(info["streamArn"], stream_arn)
        self.assertEqual(info["startSequenceNumber"],
                         self.sequence_of(client, stream_arn, "a"))
        self.assertEqual(info["endSequenceNumber"],
                         self.sequence_of(client, stream_arn, "e"))

        # A later write waits for the next advance.
        client.put_item(TableName="orders", Item={"pk": {"S": "f"}})
        self.assertEqual(len(self.log_lines("log.jsonl")), 2)
        self.assertEqual(self.advance("1s")[0], 200)
        self.assertEqual([line["pks"] for line in self.log_lines("log.jsonl")],
                         [["a", "b", "c", "d", "e"], ["c", "d", "e"], ["f"]])

    def attack(self, headers):
        """The attack of the security review: a mapping whose function is a
        shell command, created and run through the control API. Returns the
        (status, body) answers of the create and of the run."""
        marker = self.path("pwned")
        body = json.dumps({
            "TableName": "orders", "FunctionName": "x",
            "StartingPosition": "TRIM_HORIZON",
            "Function": {"Command": ["sh", "-c", f"cat > {marker}"]}}).encode()
        answers = []
        for path, data in ((ESM, body), (ESM + "/run", b"")):
            req = urllib.request.Request(self.server.endpoint + path,
                                         data=data, method="POST",
                                         headers=headers)
            try:
                with urllib.request.urlopen(req, timeout=30) as res:
                    answers.append((res.status, json.loads(res.read())))
            except urllib.error.HTTPError as e:
                answers.append((e.code, json.loads(e.read())))
        return answers

    def test_no_command_runs_through_the_control_api(self):
        self.server = DdblabServer.start(["--clock", f"manual={START}"])
        client = self.server.boto3_client("dynamodb")
        self.create_orders(client)
        client.put_item(TableName="orders", Item={"pk": {"S": "secret"}})
        # Without the token: refused before anything is read.
        self.assertEqual(
            self.attack({"Content-Type": "text/plain"}),
            [(403, {"type": "AccessDeniedException",
                    "message": "missing control token: send the token "
                    "ddblab serve printed at start (also in its token file) "
                    "in the X-Ddblab-Token header"})] * 2)
        self.assertEqual(
            self.attack({"Content-Type": "application/json",
                         "X-Ddblab-Token": "0" * 64})[0],
            (403, {"type": "AccessDeniedException",
                   "message": "wrong control token in the X-Ddblab-Token "
                   "header"}))
        # With the token but as text/plain (what a page of another origin
        # can send without a preflight): refused.
        headers = control_headers(self.server.endpoint)
        self.assertEqual(
            self.attack(dict(headers, **{"Content-Type": "text/plain"}))[0],
            (415, {"type": "ValidationException",
                   "message": "control requests must be sent with "
                   "Content-Type: application/json"}))
        # With the token, as JSON, but no --allow-functions: refused.
        create, run = self.attack(headers)
        self.assertEqual(create, (403, {
            "__type": "AccessDeniedException",
            "message": "creating a mapping through this API would run a "
            "command or call a URL, which this host does not allow: start "
            "ddblab serve with --allow-functions, or give the mapping in "
            "--event-source-mappings FILE"}))
        self.assertEqual(run, (200, {"Invocations": 0}))
        self.assertEqual(self.request("GET", ESM),
                         (200, {"EventSourceMappings": []}))
        self.assertEqual(self.advance("1s")[0], 200)
        self.assertFalse(os.path.exists(self.path("pwned")))

    def test_allow_functions_needs_the_token(self):
        out = subprocess.run(
            [ddblab_bin(), "serve", "--port", "0", "--allow-functions",
             "--control", "open"], capture_output=True, text=True, timeout=60)
        self.assertEqual((out.returncode, out.stdout), (2, ""))
        self.assertEqual(
            out.stderr,
            "ddblab: --allow-functions needs --control local-token: with "
            "--control open anyone who reaches the port could run commands "
            "as this user (run 'ddblab --help' for usage)\n")

    def test_api_on_the_servers_port_pauses_and_resumes(self):
        self.server = DdblabServer.start(["--clock", f"manual={START}",
                                          "--allow-functions"])
        client = self.server.boto3_client("dynamodb")
        self.create_orders(client)
        fn = {"Command": ["node", str(HERE / "run_handler.mjs"),
                          str(HERE / "batch_handler.mjs"), "none",
                          self.path("failed"), self.path("log.jsonl")],
              "TimeoutSeconds": 60}
        status, created = self.request("POST", ESM, {
            "TableName": "orders", "FunctionName": "powertools",
            "StartingPosition": "TRIM_HORIZON", "BatchSize": 2,
            "FunctionResponseTypes": ["ReportBatchItemFailures"],
            "Function": fn})
        self.assertEqual(status, 202, created)
        uuid = created["UUID"]
        self.assertEqual(created["State"], "Enabled")
        for pk in ["a", "b", "c"]:
            client.put_item(TableName="orders", Item={"pk": {"S": pk}})
        self.assertEqual(self.advance("1s")[0], 200)
        self.assertEqual([line["pks"] for line in self.log_lines("log.jsonl")],
                         [["a", "b"], ["c"]])
        status, paused = self.request("PUT", f"{ESM}/{uuid}",
                                      {"Enabled": False})
        self.assertEqual((status, paused["State"]), (202, "Disabled"))
        client.put_item(TableName="orders", Item={"pk": {"S": "d"}})
        self.assertEqual(self.advance("1s")[0], 200)
        self.assertEqual(len(self.log_lines("log.jsonl")), 2)
        status, resumed = self.request("PUT", f"{ESM}/{uuid}",
                                       {"Enabled": True})
        self.assertEqual((status, resumed["State"]), (202, "Enabled"))
        self.assertEqual(self.advance("1s")[0], 200)
        self.assertEqual([line["pks"] for line in self.log_lines("log.jsonl")],
                         [["a", "b"], ["c"], ["d"]])
        self.assertEqual(self.request("PUT", f"{ESM}/{uuid}",
                                      {"BatchSize": 0}),
                         (400, {"__type": "ValidationException",
                                "message": "1 validation error detected: "
                                "Value '0' at 'batchSize' failed to satisfy "
                                "constraint: Member must have value greater "
                                "than or equal to 1"}))
        status, deleted = self.request("DELETE", f"{ESM}/{uuid}")
        self.assertEqual((status, deleted["State"]), (202, "Deleting"))
        self.assertEqual(self.request("GET", f"{ESM}/{uuid}"),
                         (404, {"__type": "ResourceNotFoundException",
                                "message": "The resource you requested does "
                                "not exist."}))
        self.assertEqual(self.request("GET", ESM),
                         (200, {"EventSourceMappings": []}))

    def test_bad_mapping_file_stops_the_server(self):
        good = {"TableName": "orders", "FunctionName": "f",
                "StartingPosition": "TRIM_HORIZON",
                "Function": {"Command": ["true"]}}
        bad = dict(good, StartingPosition="AT_NOON")
        path = self.write_mappings([good, bad], "bad.json")
        out = subprocess.run(
            [ddblab_bin(), "serve", "--port", "0", "--clock", "manual",
             "--event-source-mappings", path],
            capture_output=True, text=True, timeout=60)
        self.assertEqual(out.returncode, 2)
        self.assertEqual(out.stdout, "")
        self.assertEqual(
            out.stderr,
            "ddblab: --event-source-mappings: " + path + ": mapping 1: "
            + self.starting_position_error())

    def test_help_names_the_flag(self):
        out = subprocess.run([ddblab_bin(), "--help"], capture_output=True,
                             text=True, timeout=60)
        self.assertEqual(out.returncode, 0)
        self.assertIn("  --event-source-mappings FILE\n", out.stdout)

    # Helpers that read what they compare against from the system itself.

    def sequence_of(self, client, stream_arn, pk):
        """The sequence number of pk's INSERT record in the stream."""
        streams = self.server.boto3_client("dynamodbstreams")
        shards = streams.describe_stream(
            StreamArn=stream_arn)["StreamDescription"]["Shards"]
        for shard in shards:
            it = streams.get_shard_iterator(
                StreamArn=stream_arn, ShardId=shard["ShardId"],
                ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
            for r in streams.get_records(ShardIterator=it)["Records"]:
                if (r["eventName"] == "INSERT"
                        and r["dynamodb"]["Keys"]["pk"]["S"] == pk):
                    return r["dynamodb"]["SequenceNumber"]
        self.fail(f"no INSERT record for {pk}")

    def starting_position_error(self):
        """What the consumer's own validation says (ddblab-consume's text)."""
        return ("1 validation error detected: Value 'AT_NOON' at "
                "'startingPosition' failed to satisfy constraint: Member must "
                "satisfy enum value set: [TRIM_HORIZON, LATEST, AT_TIMESTAMP]\n")


if __name__ == "__main__":
    if shutil.which("node") is None or not (
            HERE / "node_modules" / "@aws-lambda-powertools" / "batch").is_dir():
        print("skipped: node or tests/clients/consumer/node_modules missing")
        sys.exit(77)
    result = unittest.main(exit=False, verbosity=2).result
    sys.exit(0 if result.wasSuccessful() else 1)
