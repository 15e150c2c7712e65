"""DynamoDB Streams through boto3's 'dynamodbstreams' client on
`ddblab serve --clock manual`: every write seen exactly once, in per-item
order, walking all shards from TRIM_HORIZON parents first (with a shard
split through POST /_ddblab/streams/split in the middle); DescribeStream
paging and lineage; expiry and trimming on the manual clock; the API's
errors as botocore reports them."""
import unittest

from botocore.exceptions import ClientError

from ddb_client import BotoModule, advance_clock, control_request, table_spec

START = 1704067200  # 2024-01-01T00:00:00Z
server = BotoModule(["--clock", f"manual={START}", "--seed", "11"])
setUpModule, tearDownModule = server.start, server.stop


def control(method, path, body):
    return control_request(server.endpoint, method, path, body)


def advance(amount):
    advance_clock(server.endpoint, amount)


def create_table(client, name, view="NEW_AND_OLD_IMAGES"):
    out = client.create_table(**table_spec(
        name, sk=("sk", "N"),
        StreamSpecification={"StreamEnabled": True, "StreamViewType": view}))
    return out["TableDescription"]["LatestStreamArn"]


def all_shards(streams, arn, limit=100):
    shards, kwargs = [], {"StreamArn": arn, "Limit": limit}
    while True:
        desc = streams.describe_stream(**kwargs)["StreamDescription"]
        shards.extend(desc["Shards"])
        if "LastEvaluatedShardId" not in desc:
            return shards
        kwargs["ExclusiveStartShardId"] = desc["LastEvaluatedShardId"]


def read_shard(streams, arn, shard_id, limit=1000):
    """Every record of a shard from TRIM_HORIZON (a closed shard ends when
    NextShardIterator disappears, an open one at the first empty read)."""
    it = streams.get_shard_iterator(
        StreamArn=arn, ShardId=shard_id,
        ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
    records = []
    while True:
        out = streams.get_records(ShardIterator=it, Limit=limit)
        records.extend(out["Records"])
        if "NextShardIterator" not in out or not out["Records"]:
            return records, "NextShardIterator" in out
        it = out["NextShardIterator"]


def read_all(streams, arn, limit=1000):
    """All records, shards in lineage order (parents before children)."""
    shards = all_shards(streams, arn)
    listed = {s["ShardId"] for s in shards}
    done, records, order = set(), [], []
    while len(done) < len(shards):
        progress = False
        for s in shards:
            sid, parent = s["ShardId"], s.get("ParentShardId")
            if sid in done or (parent in listed and parent not in done):
                continue
            got, _ = read_shard(streams, arn, sid, limit)
            records.extend(got)
            done.add(sid)
            order.append(sid)
            progress = True
        assert progress, "shard lineage has a cycle"
    return records, order


class StreamsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.ddb = server.boto3_client("dynamodb")
        cls.streams = server.boto3_client("dynamodbstreams")

    def test_every_write_once_in_item_order_across_a_split(self):
        arn = create_table(self.ddb, "walk")
        expected = {}  # (pk, sk) -> [(eventName, new v or None)]
        previous = {}

        def put(pk, sk, v):
            self.ddb.put_item(TableName="walk", Item={
                "pk": {"S": pk}, "sk": {"N": str(sk)}, "v": {"S": v}})
            event = "MODIFY" if (pk, sk) in previous else "INSERT"
            expected.setdefault((pk, sk), []).append((event, v))
            previous[(pk, sk)] = v

        def delete(pk, sk):
            self.ddb.delete_item(TableName="walk", Key={
                "pk": {"S": pk}, "sk": {"N": str(sk)}})
            if (pk, sk) in previous:
                expected[(pk, sk)].append(("REMOVE", None))
                del previous[(pk, sk)]

        for round_ in range(3):
            for i in range(12):
                put(f"p{i % 4}", i, f"r{round_}")
            if round_ == 0:
                # Identical rewrite: no record.
                self.ddb.put_item(TableName="walk", Item={
                    "pk": {"S": "p0"}, "sk": {"N": "0"}, "v": {"S": "r0"}})
                status, body = control("POST", "/_ddblab/streams/split",
                                       {"TableName": "walk"})
                self.assertEqual(status, 200, body)
                self.assertEqual(len(body["closed"]), 1)
                self.assertEqual(len(body["created"]), 2)
            advance("1s")
        for i in range(0, 12, 3):
            delete(f"p{i % 4}", i)
        delete("nobody", 1)  # missing: no record

        records, order = read_all(self.streams, arn)
        shards = {s["ShardId"]: s for s in all_shards(self.streams, arn)}
        self.assertEqual(len(shards), 3)
        for sid in order:
            parent = shards[sid].get("ParentShardId")
            if parent:
                self.assertLess(order.index(parent), order.index(sid))
        seen = {}
        for r in records:
            self.assertEqual(r["eventSource"], "aws:dynamodb")
            self.assertEqual(r["awsRegion"], "us-east-1")
            self.assertRegex(r["eventID"], r"^[0-9a-f]{32}$")
            d = r["dynamodb"]
            self.assertTrue(d["SequenceNumber"].isdecimal())
            self.assertEqual(d["StreamViewType"], "NEW_AND_OLD_IMAGES")
            key = (d["Keys"]["pk"]["S"], int(d["Keys"]["sk"]["N"]))
            new = d.get("NewImage", {}).get("v", {}).get("S")
            seen.setdefault(key, []).append((r["eventName"], new))
        self.assertEqual(seen, expected)
        self.assertEqual(len(records), sum(len(v) for v in expected.values()))
        self.assertEqual(len({r["eventID"] for r in records}), len(records))

    def test_closed_shard_reads_to_its_end(self):
        arn = create_table(self.ddb, "closed", "KEYS_ONLY")
        self.ddb.put_item(TableName="closed",
                          Item={"pk": {"S": "a"}, "sk": {"N": "1"}})
        self.ddb.update_table(TableName="closed",
                              StreamSpecification={"StreamEnabled": False})
        desc = self.streams.describe_stream(StreamArn=arn)["StreamDescription"]
        self.assertEqual(desc["StreamStatus"], "DISABLED")
        shard = desc["Shards"][0]
        self.assertIn("EndingSequenceNumber", shard["SequenceNumberRange"])
        records, has_next = read_shard(self.streams, arn, shard["ShardId"])
        self.assertEqual(len(records), 1)
        self.assertFalse(has_next)
        listed = self.streams.list_streams(TableName="closed")["Streams"]
        self.assertEqual([s["StreamArn"] for s in listed], [arn])

    def test_describe_stream_paging_and_child_filter(self):
        arn = create_table(self.ddb, "paging", "KEYS_ONLY")
        for _ in range(2):
            status, body = control("POST", "/_ddblab/streams/split",
                                   {"TableName": "paging"})
            self.assertEqual(status, 200, body)
        shards = all_shards(self.streams, arn, limit=2)
        self.assertEqual(len(shards), 7)  # 1 + 2 + 4
        ids = [s["ShardId"] for s in shards]
        self.assertEqual(ids, sorted(ids))
        root = ids[0]
        # (This botocore predates ShardFilter; the JS test covers it.)
        children = [s for s in shards if s.get("ParentShardId") == root]
        self.assertEqual(len(children), 2)
        grandchildren = [s for s in shards
                         if s.get("ParentShardId") in
                         {c["ShardId"] for c in children}]
        self.assertEqual(len(grandchildren), 4)
        open_shards = [s for s in shards
                       if "EndingSequenceNumber" not in s["SequenceNumberRange"]]
        self.assertEqual(open_shards, grandchildren)
        status, body = control("POST", "/_ddblab/streams/split",
                               {"TableName": "paging", "ShardId": root})
        self.assertEqual(status, 400)
        self.assertEqual(body["type"], "ValidationException")
        status, body = control("POST", "/_ddblab/streams/split",
                               {"TableName": "no_such_table"})
        self.assertEqual(status, 400)
        self.assertEqual(body["type"], "ResourceNotFoundException")

    def test_errors(self):
        arn = create_table(self.ddb, "errors", "KEYS_ONLY")
        shard = all_shards(self.streams, arn)[0]["ShardId"]

        def error(call, **kwargs):
            with self.assertRaises(ClientError) as caught:
                call(**kwargs)
            e = caught.exception.response["Error"]
            return e["Code"], e["Message"]

        self.assertEqual(
            error(self.streams.get_records,
                  ShardIterator="sdfsdfsgagaddafgagasgasgasdfasdfasdfasdfa"),
            ("ValidationException", "Invalid ShardIterator"))
        missing = arn.replace("/errors/", "/missing/")
        self.assertEqual(
            error(self.streams.describe_stream, StreamArn=missing),
            ("ResourceNotFoundException",
             f"Requested resource not found: Stream: {missing} not found"))
        self.assertEqual(
            error(self.streams.get_shard_iterator, StreamArn=arn,
                  ShardId="shardId-00000000000000000000-00000000",
                  ShardIteratorType="LATEST"),
            ("ResourceNotFoundException",
             "Requested resource not found: Shard does not exist"))
        code, message = error(self.streams.get_records,
                              ShardIterator="x" * 10, Limit=1001)
        self.assertEqual(code, "ValidationException")
        self.assertIn("'limit'", message)
        it = self.streams.get_shard_iterator(
            StreamArn=arn, ShardId=shard,
            ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
        advance("15m")
        advance("1s")
        self.assertEqual(
            error(self.streams.get_records, ShardIterator=it),
            ("ExpiredIteratorException",
             "The provided iterator exceeds the maximum age allowed."))

    def test_trimmed_after_24_hours(self):
        arn = create_table(self.ddb, "trimmed", "KEYS_ONLY")
        shard = all_shards(self.streams, arn)[0]["ShardId"]
        self.ddb.put_item(TableName="trimmed",
                          Item={"pk": {"S": "a"}, "sk": {"N": "1"}})
        seq = read_shard(self.streams, arn, shard)[0][0]["dynamodb"][
            "SequenceNumber"]
        advance("24h")
        shards = all_shards(self.streams, arn)
        # The first shard rolled over (4 h) and its data is past retention.
        with self.assertRaises(ClientError) as caught:
            self.streams.get_shard_iterator(
                StreamArn=arn, ShardId=shard,
                ShardIteratorType="AT_SEQUENCE_NUMBER", SequenceNumber=seq)
        self.assertEqual(caught.exception.response["Error"]["Code"],
                         "TrimmedDataAccessException")
        self.assertEqual(read_all(self.streams, arn)[0], [])
        self.assertGreaterEqual(len(shards), 2)


class StreamFlagsTest(unittest.TestCase):
    """`--stream-shards 3 --shard-rollover 1h` on a server of its own."""

    flagged = BotoModule(["--clock", f"manual={START}", "--seed", "5",
                          "--stream-shards", "3", "--shard-rollover", "1h"])

    @classmethod
    def setUpClass(cls):
        cls.flagged.start()
        cls.ddb = cls.flagged.boto3_client("dynamodb")
        cls.streams = cls.flagged.boto3_client("dynamodbstreams")

    @classmethod
    def tearDownClass(cls):
        cls.flagged.stop()

    def test_three_shards_that_roll_over_hourly(self):
        arn = create_table(self.ddb, "fanout")
        first = all_shards(self.streams, arn)
        self.assertEqual(len(first), 3)
        self.assertTrue(all("ParentShardId" not in s for s in first))

        def put_all(version):
            for i in range(30):
                self.ddb.put_item(TableName="fanout", Item={
                    "pk": {"S": f"item{i}"}, "sk": {"N": "0"},
                    "v": {"N": str(version)}})

        put_all(1)
        advance_clock(self.flagged.endpoint, "1h")
        put_all(2)  # each shard rolls over at its next write
        shards = all_shards(self.streams, arn)
        self.assertEqual(len(shards), 6)
        parents = sorted(s["ParentShardId"] for s in shards
                         if "ParentShardId" in s)
        self.assertEqual(parents, sorted(s["ShardId"] for s in first))
        records, _ = read_all(self.streams, arn)
        by_item = {}
        for r in records:
            d = r["dynamodb"]
            by_item.setdefault(d["Keys"]["pk"]["S"], []).append(
                (r["eventName"], d["NewImage"]["v"]["N"]))
        self.assertEqual(by_item, {f"item{i}": [("INSERT", "1"),
                                                ("MODIFY", "2")]
                                   for i in range(30)})
        # 30 items over 3 hash ranges: every first-generation shard got some.
        for shard in first:
            got, has_next = read_shard(self.streams, arn, shard["ShardId"])
            self.assertGreater(len(got), 0)
            self.assertFalse(has_next)


if __name__ == "__main__":
    unittest.main()
