"""TTL through boto3 on `ddblab serve --clock manual`: items with past and
future TTL values, the clock moved through the control endpoint
(POST /_ddblab/clock), and exactly the expected items gone; the clock and
TTL control endpoints and their errors; TTL deletions in the stream."""
import unittest

from botocore.exceptions import ClientError

from ddb_client import (BotoModule, ClientTest, advance_clock,
                        control_request, index, table_spec)
from ddblab_server import DdblabServer

START = 1704067200  # 2024-01-01T00:00:00Z
server = BotoModule(["--clock", f"manual={START}", "--seed", "7"])
setUpModule, tearDownModule = server.start, server.stop


def control(method, path, body=None, endpoint=None):
    """A control request; returns (status, parsed JSON body)."""
    return control_request(endpoint or server.endpoint, method, path, body)


def now(endpoint=None):
    status, body = control("GET", "/_ddblab/clock", endpoint=endpoint)
    assert status == 200, body
    return body["now"]


def advance(amount, endpoint=None):
    return advance_clock(endpoint or server.endpoint, amount)


def create_table(client, name, gsi=False, stream=False):
    extra = {}
    if gsi:
        extra["attributes"] = [("g", "S")]
        extra["GlobalSecondaryIndexes"] = [index("by_g", "g",
                                                 projection="ALL")]
    if stream:
        extra["StreamSpecification"] = {
            "StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"}
    return client.create_table(**table_spec(name, **extra))


def enable_ttl(client, name, attribute="exp"):
    return client.update_time_to_live(
        TableName=name,
        TimeToLiveSpecification={"Enabled": True, "AttributeName": attribute})


def put(client, table, pk, exp=None, **extra):
    item = {"pk": {"S": pk}, **extra}
    if exp is not None:
        item["exp"] = exp if isinstance(exp, dict) else {"N": str(exp)}
    client.put_item(TableName=table, Item=item)


def present(client, table, pk):
    return "Item" in client.get_item(TableName=table,
                                     Key={"pk": {"S": pk}},
                                     ConsistentRead=True)


class ClockTest(unittest.TestCase):
    def test_get_advance_set(self):
        status, body = control("GET", "/_ddblab/clock")
        self.assertEqual(status, 200)
        self.assertEqual(body["mode"], "manual")
        t = body["now"]
        self.assertGreaterEqual(t, START)
        self.assertEqual(advance("90s")["now"], t + 90)
        self.assertEqual(advance(30)["now"], t + 120)
        self.assertEqual(advance("2m")["now"], t + 240)
        self.assertEqual(advance("1h")["now"], t + 3840)
        self.assertEqual(advance("1d")["now"], t + 3840 + 86400)
        t = now()
        status, body = control("POST", "/_ddblab/clock", {"set": t + 10})
        self.assertEqual((status, body["now"]), (200, t + 10))
        self.assertEqual(now(), t + 10)

    def test_errors(self):
        t = now()
        cases = [
            ({"set": t - 1},
             f"cannot move the clock backwards: now is {t}, asked for {t - 1}"),
            (b"{not json", "the body is not valid JSON"),
            (b"[1]", "the body must be a JSON object"),
            ({}, 'give exactly one of "advance" (e.g. "90s") or "set" '
                 '(epoch seconds)'),
            ({"advance": "1s", "set": t + 5},
             'give exactly one of "advance" (e.g. "90s") or "set" '
             '(epoch seconds)'),
            ({"later": "1s"},
             'unknown field "later": expected "advance" or "set"'),
            ({"advance": -5},
             'cannot move the clock backwards ("advance" is negative)'),
            ({"advance": "5 minutes"},
             "\"advance\": invalid duration '5 minutes': unknown unit "
             "' minutes' (expected a number with an optional unit us, ms, "
             "s, m, h or d, e.g. 90s, 1.5m, 250ms)"),
            ({"advance": True},
             '"advance" must be a duration string like "90s", "15m", "2h", '
             '"1d" or a number of seconds'),
            ({"set": "tomorrow"}, '"set" must be a number of epoch seconds'),
        ]
        for body, message in cases:
            with self.subTest(body=body):
                status, answer = control("POST", "/_ddblab/clock", body)
                self.assertEqual(status, 400)
                self.assertEqual(answer, {"message": message})
        self.assertEqual(now(), t)  # nothing moved


class TtlTest(ClientTest, unittest.TestCase):
    server = server

    def test_settings_and_errors(self):
        c = self.client
        create_table(c, "ttl_settings")
        self.assertEqual(
            c.describe_time_to_live(TableName="ttl_settings")
            ["TimeToLiveDescription"], {"TimeToLiveStatus": "DISABLED"})
        out = enable_ttl(c, "ttl_settings")
        self.assertEqual(out["TimeToLiveSpecification"],
                         {"Enabled": True, "AttributeName": "exp"})
        self.assertEqual(
            c.describe_time_to_live(TableName="ttl_settings")
            ["TimeToLiveDescription"],
            {"TimeToLiveStatus": "ENABLED", "AttributeName": "exp"})
        with self.assertRaises(ClientError) as e:
            enable_ttl(c, "ttl_settings")
        self.assertEqual(e.exception.response["Error"],
                         {"Code": "ValidationException",
                          "Message": "TimeToLive is already enabled"})
        with self.assertRaises(ClientError) as e:
            enable_ttl(c, "ttl_settings", "other")
        self.assertEqual(
            e.exception.response["Error"]["Message"],
            "TimeToLive is active on a different AttributeName: current "
            "AttributeName is exp")

    def test_expired_items_go_when_the_clock_moves(self):
        c = self.client
        create_table(c, "ttl_items")
        enable_ttl(c, "ttl_items")
        t = now()
        put(c, "ttl_items", "past", t - 10)
        put(c, "ttl_items", "soon", t + 60)
        put(c, "ttl_items", "later", t + 3600)
        put(c, "ttl_items", "fraction", f"{t + 59}.5")  # < now from t + 60
        put(c, "ttl_items", "no_ttl")
        put(c, "ttl_items", "string", {"S": str(t - 10)})
        put(c, "ttl_items", "ancient", 162777600)  # 1975: over five years
        # Expired at the write: readable until the clock moves.
        self.assertTrue(present(c, "ttl_items", "past"))
        status, body = control("GET", "/_ddblab/ttl")
        self.assertEqual(status, 200)
        self.assertEqual(body["tables"]["ttl_items"],
                         {"waiting": 4, "next_due": t})
        self.assertEqual(body["delay"], "0")
        self.assertEqual(advance("59s")["deleted"], 1)
        self.assertFalse(present(c, "ttl_items", "past"))
        self.assertEqual(advance("1s")["deleted"], 1)
        self.assertFalse(present(c, "ttl_items", "fraction"))
        # DynamoDB deletes ttl < now: "soon" (ttl = now) stays a second more.
        self.assertTrue(present(c, "ttl_items", "soon"))
        self.assertEqual(advance("1s")["deleted"], 1)
        self.assertFalse(present(c, "ttl_items", "soon"))
        self.assertTrue(present(c, "ttl_items", "later"))
        self.assertEqual(advance("1h")["deleted"], 1)
        remaining = c.scan(TableName="ttl_items", ConsistentRead=True)["Items"]
        self.assertEqual(sorted(i["pk"]["S"] for i in remaining),
                         ["ancient", "no_ttl", "string"])

    def test_expired_at_the_write_readable_until_the_clock_moves(self):
        """The TTL rule: deletions run when the clock moves or on an
        explicit sweep, never because another call arrived."""
        c = self.client
        create_table(c, "ttl_rule")
        enable_ttl(c, "ttl_rule")
        t = now()
        put(c, "ttl_rule", "a", t - 10)
        self.assertTrue(present(c, "ttl_rule", "a"))
        put(c, "ttl_rule", "b", t - 10)  # another call: nothing deleted
        self.assertTrue(present(c, "ttl_rule", "a"))
        self.assertEqual(c.scan(TableName="ttl_rule")["Count"], 2)
        _, body = control("GET", "/_ddblab/ttl")
        self.assertEqual(body["tables"]["ttl_rule"],
                         {"waiting": 2, "next_due": t})
        self.assertEqual(advance("1s"), {"now": t + 1, "deleted": 2})
        self.assertFalse(present(c, "ttl_rule", "a"))
        self.assertFalse(present(c, "ttl_rule", "b"))
        # An explicit sweep deletes without a move.
        put(c, "ttl_rule", "c", t - 10)
        self.assertTrue(present(c, "ttl_rule", "c"))
        self.assertEqual(control("POST", "/_ddblab/ttl/sweep", {}),
                         (200, {"deleted": 1}))
        self.assertFalse(present(c, "ttl_rule", "c"))
        self.assertEqual(now(), t + 1)

    def test_updates_reschedule_and_cancel(self):
        c = self.client
        create_table(c, "ttl_updates")
        enable_ttl(c, "ttl_updates")
        t = now()
        put(c, "ttl_updates", "pushed", t + 10)
        put(c, "ttl_updates", "removed", t + 10)
        put(c, "ttl_updates", "pulled", t + 1000)
        c.update_item(TableName="ttl_updates", Key={"pk": {"S": "pushed"}},
                      UpdateExpression="SET exp = :e",
                      ExpressionAttributeValues={":e": {"N": str(t + 100)}})
        c.update_item(TableName="ttl_updates", Key={"pk": {"S": "removed"}},
                      UpdateExpression="REMOVE exp")
        c.update_item(TableName="ttl_updates", Key={"pk": {"S": "pulled"}},
                      UpdateExpression="SET exp = :e",
                      ExpressionAttributeValues={":e": {"N": str(t + 10)}})
        advance("11s")
        self.assertTrue(present(c, "ttl_updates", "pushed"))
        self.assertTrue(present(c, "ttl_updates", "removed"))
        self.assertFalse(present(c, "ttl_updates", "pulled"))
        advance("90s")
        self.assertFalse(present(c, "ttl_updates", "pushed"))
        advance("1d")
        self.assertTrue(present(c, "ttl_updates", "removed"))

    def test_enable_covers_existing_items_and_disable_clears(self):
        c = self.client
        create_table(c, "ttl_existing")
        t = now()
        put(c, "ttl_existing", "old", t - 100)
        put(c, "ttl_existing", "new", t + 100)
        advance("1s")
        self.assertTrue(present(c, "ttl_existing", "old"))  # TTL not on yet
        enable_ttl(c, "ttl_existing")
        self.assertTrue(present(c, "ttl_existing", "old"))  # until a move
        self.assertEqual(advance("1s")["deleted"], 1)
        self.assertFalse(present(c, "ttl_existing", "old"))
        self.assertTrue(present(c, "ttl_existing", "new"))
        c.update_time_to_live(
            TableName="ttl_existing",
            TimeToLiveSpecification={"Enabled": False, "AttributeName": "exp"})
        _, body = control("GET", "/_ddblab/ttl")
        self.assertNotIn("ttl_existing", body["tables"])
        advance("200s")
        self.assertTrue(present(c, "ttl_existing", "new"))

    def test_index_entries_and_stream_record(self):
        c = self.client
        create_table(c, "ttl_gsi_stream", gsi=True, stream=True)
        enable_ttl(c, "ttl_gsi_stream")
        t = now()
        put(c, "ttl_gsi_stream", "a", t + 5, g={"S": "G"})
        put(c, "ttl_gsi_stream", "b", t + 500, g={"S": "G"})
        query = dict(TableName="ttl_gsi_stream", IndexName="by_g",
                     KeyConditionExpression="g = :g",
                     ExpressionAttributeValues={":g": {"S": "G"}})
        self.assertEqual(c.query(**query)["Count"], 2)
        self.assertEqual(advance("5s")["deleted"], 0)  # ttl = now: kept
        self.assertEqual(advance("1s")["deleted"], 1)
        self.assertEqual([i["pk"]["S"] for i in c.query(**query)["Items"]],
                         ["b"])

        streams = server.boto3_client("dynamodbstreams")
        arn = c.describe_table(TableName="ttl_gsi_stream")["Table"][
            "LatestStreamArn"]
        records = []
        for shard in streams.describe_stream(StreamArn=arn)[
                "StreamDescription"]["Shards"]:
            iterator = streams.get_shard_iterator(
                StreamArn=arn, ShardId=shard["ShardId"],
                ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
            records += streams.get_records(ShardIterator=iterator)["Records"]
        removes = [r for r in records if r["eventName"] == "REMOVE"]
        self.assertEqual(len(removes), 1)
        self.assertEqual(removes[0]["dynamodb"]["Keys"], {"pk": {"S": "a"}})
        self.assertEqual(removes[0]["userIdentity"],
                         {"Type": "Service",
                          "PrincipalId": "dynamodb.amazonaws.com"})
        inserts = [r for r in records if r["eventName"] == "INSERT"]
        self.assertEqual(len(inserts), 2)
        self.assertTrue(all("userIdentity" not in r for r in inserts))

    def test_sweep_endpoint(self):
        status, body = control("POST", "/_ddblab/ttl/sweep", {})
        self.assertEqual((status, body), (200, {"deleted": 0}))


class DelayModelTest(unittest.TestCase):
    """--ttl-delay with a seed: the same deletion time on every run."""

    def due_time(self):
        other = DdblabServer.start(["--clock", f"manual={START}", "--seed",
                                    "5", "--ttl-delay", "1m..10m"])
        try:
            c = other.boto3_client()
            create_table(c, "ttl_delay")
            enable_ttl(c, "ttl_delay")
            put(c, "ttl_delay", "a", START)
            _, body = control("GET", "/_ddblab/ttl", endpoint=other.endpoint)
            due = body["tables"]["ttl_delay"]["next_due"]
            self.assertEqual(body["delay"], "1m..10m")
            self.assertGreaterEqual(due, START + 60)
            self.assertLessEqual(due, START + 600)
            advance(due - START - 1, endpoint=other.endpoint)
            self.assertTrue(present(c, "ttl_delay", "a"))  # expired, kept
            self.assertEqual(advance(1, endpoint=other.endpoint)["deleted"], 1)
            self.assertFalse(present(c, "ttl_delay", "a"))
            return due
        finally:
            self.assertEqual(other.stop(), 0)

    def test_seeded_delay_is_reproducible(self):
        self.assertEqual(self.due_time(), self.due_time())


class CooldownTest(unittest.TestCase):
    """--ttl-change-cooldown aws: DynamoDB's hour between TTL changes."""

    def test_aws_cooldown_on_the_manual_clock(self):
        other = DdblabServer.start(["--clock", f"manual={START}",
                                    "--ttl-change-cooldown", "aws"])
        try:
            c = other.boto3_client()
            create_table(c, "ttl_cooldown")
            enable_ttl(c, "ttl_cooldown")
            disable = dict(TableName="ttl_cooldown",
                           TimeToLiveSpecification={"Enabled": False,
                                                    "AttributeName": "exp"})
            with self.assertRaises(ClientError) as e:
                c.update_time_to_live(**disable)
            self.assertEqual(
                e.exception.response["Error"],
                {"Code": "ValidationException",
                 "Message": "Time to live has been modified multiple times "
                            "within a fixed interval"})
            advance(3599, endpoint=other.endpoint)
            with self.assertRaises(ClientError):
                c.update_time_to_live(**disable)
            advance(1, endpoint=other.endpoint)
            c.update_time_to_live(**disable)
        finally:
            self.assertEqual(other.stop(), 0)


if __name__ == "__main__":
    unittest.main()
