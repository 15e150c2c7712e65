"""BatchGetItem and BatchWriteItem through boto3 (retries off), including
the SDK loops on UnprocessedKeys / UnprocessedItems and a TTL-window
sweeper: a GSI on an expiration window, Query it, delete what expired with
BatchWriteItem in chunks of 25, resubmit UnprocessedItems until empty."""
import unittest

from ddb_client import BotoModule, ClientTest, index, table_spec

HASH = "batch_hash"
RANGE = "batch_range"
EVENTS = "batch_events"
server = BotoModule(tables=[
    table_spec(HASH),
    table_spec(RANGE, sk=("sk", "N")),
    # Events bucketed by expiration window (hour), sorted by expiry.
    table_spec(EVENTS, sk=("sk", "S"),
               attributes=[("window", "S"), ("expires", "N")],
               GlobalSecondaryIndexes=[
                   index("by_window", "window", "expires")]),
])
setUpModule, tearDownModule = server.start, server.stop


def chunks(items, size):
    for i in range(0, len(items), size):
        yield items[i:i + size]


class BatchTest(ClientTest, unittest.TestCase):
    server = server

    def write_all(self, request_items):
        """The SDK loop: resubmit UnprocessedItems until it is empty."""
        for _ in range(100):
            out = self.client.batch_write_item(RequestItems=request_items)
            request_items = out["UnprocessedItems"]
            if not request_items:
                return
        self.fail("UnprocessedItems never emptied")

    def get_all(self, request_items):
        """The SDK loop on UnprocessedKeys; returns {table: [items]}."""
        got = {}
        for calls in range(1, 101):
            out = self.client.batch_get_item(RequestItems=request_items)
            for table, items in out["Responses"].items():
                got.setdefault(table, []).extend(items)
            request_items = out["UnprocessedKeys"]
            if not request_items:
                return got, calls
        self.fail("UnprocessedKeys never emptied")

    def test_write_then_get_across_tables(self):
        out = self.client.batch_write_item(
            RequestItems={
                HASH: [{"PutRequest": {"Item": {"pk": {"S": "a"},
                                                "v": {"N": "1.50"}}}},
                       {"PutRequest": {"Item": {"pk": {"S": "b"}}}},
                       {"DeleteRequest": {"Key": {"pk": {"S": "never"}}}}],
                RANGE: [{"PutRequest": {"Item": {"pk": {"S": "a"},
                                                 "sk": {"N": "1"}}}}]},
            ReturnConsumedCapacity="TOTAL")
        self.assertEqual(out["UnprocessedItems"], {})
        self.assertEqual(
            sorted(out["ConsumedCapacity"], key=lambda c: c["TableName"]),
            [{"TableName": HASH, "CapacityUnits": 3.0},
             {"TableName": RANGE, "CapacityUnits": 1.0}])
        out = self.client.batch_get_item(
            RequestItems={
                HASH: {"Keys": [{"pk": {"S": "a"}}, {"pk": {"S": "zz"}}],
                       "ConsistentRead": True},
                RANGE: {"Keys": [{"pk": {"S": "a"}, "sk": {"N": "1.0"}}],
                        "ProjectionExpression": "#s",
                        "ExpressionAttributeNames": {"#s": "sk"}}},
            ReturnConsumedCapacity="TOTAL")
        self.assertEqual(out["Responses"], {
            HASH: [{"pk": {"S": "a"}, "v": {"N": "1.5"}}],
            RANGE: [{"sk": {"N": "1"}}]})
        self.assertEqual(out["UnprocessedKeys"], {})
        self.assertEqual(
            sorted(out["ConsumedCapacity"], key=lambda c: c["TableName"]),
            [{"TableName": HASH, "CapacityUnits": 2.0},
             {"TableName": RANGE, "CapacityUnits": 0.5}])

    def test_duplicates_reject_the_whole_batch(self):
        code, message = self.error(
            self.client.batch_write_item,
            RequestItems={HASH: [
                {"PutRequest": {"Item": {"pk": {"S": "dup-ok"}}}},
                {"PutRequest": {"Item": {"pk": {"S": "dup"}}}},
                {"DeleteRequest": {"Key": {"pk": {"S": "dup"}}}}]})
        self.assertEqual((code, message), (
            "ValidationException",
            "Provided list of item keys contains duplicates"))
        got = self.client.get_item(TableName=HASH,
                                   Key={"pk": {"S": "dup-ok"}})
        self.assertNotIn("Item", got)
        code, message = self.error(
            self.client.batch_get_item,
            RequestItems={HASH: {"Keys": [{"pk": {"S": "x"}},
                                          {"pk": {"S": "x"}}]}})
        self.assertEqual((code, message), (
            "ValidationException",
            "Provided list of item keys contains duplicates"))

    def test_limits(self):
        code, message = self.error(
            self.client.batch_write_item,
            RequestItems={HASH: [
                {"PutRequest": {"Item": {"pk": {"S": f"l{i}"}}}}
                for i in range(26)]})
        self.assertEqual(code, "ValidationException")
        self.assertTrue(message.startswith(
            "1 validation error detected: Value '{"), message)
        self.assertTrue(message.endswith(
            "' at 'requestItems' failed to satisfy constraint: Map value "
            "must satisfy constraint: [Member must have length less than or "
            "equal to 25, Member must have length greater than or equal to "
            "1]"), message)
        code, message = self.error(
            self.client.batch_get_item,
            RequestItems={
                HASH: {"Keys": [{"pk": {"S": f"k{i}"}} for i in range(60)]},
                RANGE: {"Keys": [{"pk": {"S": "p"}, "sk": {"N": str(i)}}
                                 for i in range(41)]}})
        self.assertEqual((code, message), (
            "ValidationException",
            "Too many items requested for the BatchGetItem call"))
        code, message = self.error(
            self.client.batch_write_item,
            RequestItems={"batch_nope": [
                {"PutRequest": {"Item": {"pk": {"S": "a"}}}}]})
        self.assertEqual((code, message), (
            "ResourceNotFoundException", "Requested resource not found"))
        code, message = self.error(
            self.client.batch_write_item,
            RequestItems={HASH: [{"PutRequest": {"Item": {
                "pk": {"S": "big"}, "v": {"S": "x" * 409600}}}}]})
        self.assertEqual((code, message), (
            "ValidationException",
            "Item size has exceeded the maximum allowed size"))

    def test_response_limit_and_unprocessed_keys_loop(self):
        # 60 items of 300 KB: 52 fit in one response (16,000,000 bytes);
        # the SDK loop fetches the other 8 with a second call.
        value = "x" * (307200 - len("pk") - len("big00") - len("v"))
        keys = []
        for batch in chunks(list(range(60)), 25):
            self.write_all({HASH: [
                {"PutRequest": {"Item": {"pk": {"S": f"big{i:02d}"},
                                         "v": {"S": value}}}}
                for i in batch]})
        keys = [{"pk": {"S": f"big{i:02d}"}} for i in range(60)]
        first = self.client.batch_get_item(
            RequestItems={HASH: {"Keys": keys, "ConsistentRead": True}})
        self.assertEqual(len(first["Responses"][HASH]), 52)
        self.assertEqual(first["UnprocessedKeys"],
                         {HASH: {"Keys": keys[52:], "ConsistentRead": True}})
        got, calls = self.get_all({HASH: {"Keys": keys}})
        self.assertEqual(calls, 2)
        self.assertEqual(sorted(i["pk"]["S"] for i in got[HASH]),
                         [k["pk"]["S"] for k in keys])
        self.write_all({HASH: [{"DeleteRequest": {"Key": k}}
                               for k in keys[:25]]})
        self.write_all({HASH: [{"DeleteRequest": {"Key": k}}
                               for k in keys[25:50]]})
        self.write_all({HASH: [{"DeleteRequest": {"Key": k}}
                               for k in keys[50:]]})

    def test_ttl_window_sweeper(self):
        now = 1_700_000_000
        window = "2023-11-14T22"
        items = []
        for i in range(70):
            # 0..59 expired (in the past), 60..69 still live.
            expires = now - 3600 + i * 60
            items.append({"pk": {"S": f"user{i % 7}"},
                          "sk": {"S": f"event{i:03d}"},
                          "window": {"S": window},
                          "expires": {"N": str(expires)}})
        items.append({"pk": {"S": "other"}, "sk": {"S": "event"},
                      "window": {"S": "2023-11-14T23"},
                      "expires": {"N": str(now - 10)}})
        for batch in chunks(items, 25):
            self.write_all({EVENTS: [{"PutRequest": {"Item": it}}
                                     for it in batch]})

        # The sweeper: Query the window for what expired, page by page.
        expired = []
        query = {"TableName": EVENTS, "IndexName": "by_window",
                 "KeyConditionExpression": "#w = :w AND expires <= :now",
                 "ExpressionAttributeNames": {"#w": "window"},
                 "ExpressionAttributeValues": {":w": {"S": window},
                                               ":now": {"N": str(now)}},
                 "Limit": 16}
        while True:
            page = self.client.query(**query)
            expired.extend({"pk": it["pk"], "sk": it["sk"]}
                           for it in page["Items"])
            if "LastEvaluatedKey" not in page:
                break
            query["ExclusiveStartKey"] = page["LastEvaluatedKey"]
        self.assertEqual(len(expired), 61)  # expires <= now: i in 0..60
        deletes = 0
        for batch in chunks(expired, 25):
            self.write_all({EVENTS: [{"DeleteRequest": {"Key": k}}
                                     for k in batch]})
            deletes += 1
        self.assertEqual(deletes, 3)

        left = self.client.query(
            TableName=EVENTS, IndexName="by_window",
            KeyConditionExpression="#w = :w",
            ExpressionAttributeNames={"#w": "window"},
            ExpressionAttributeValues={":w": {"S": window}})
        self.assertEqual(sorted(it["sk"]["S"] for it in left["Items"]),
                         [f"event{i:03d}" for i in range(61, 70)])
        got, _ = self.get_all({EVENTS: {"Keys": expired[:50]}})
        self.assertEqual(got, {EVENTS: []})
        other = self.client.get_item(
            TableName=EVENTS, Key={"pk": {"S": "other"}, "sk": {"S": "event"}})
        self.assertIn("Item", other)


if __name__ == "__main__":
    unittest.main()
