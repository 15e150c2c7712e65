"""Query and Scan through boto3: pagination (Limit, 1 MB pages, the
paginators), GSI queries, filters, Select=COUNT, parallel scans and the main
ValidationExceptions."""
import unittest

from ddb_client import BotoModule, ClientTest, index, table_spec

TABLE = "query_scan"


def fill(client):
    client.get_waiter("table_exists").wait(TableName=TABLE)
    # 5 partitions of 20 items; g on the multiples of 5.
    for p in range(5):
        for s in range(20):
            item = {"pk": {"S": f"p{p}"}, "sk": {"N": str(s - 10)},
                    "n": {"N": str(p * 100 + s)}}
            if s % 5 == 0:
                item["g"] = {"S": f"g{s}"}
            client.put_item(TableName=TABLE, Item=item)


server = BotoModule(
    tables=[table_spec(TABLE, sk=("sk", "N"), attributes=[("g", "S")],
                       GlobalSecondaryIndexes=[index("by_g", "g")])],
    setup=fill)
setUpModule, tearDownModule = server.start, server.stop


class QueryScanTest(ClientTest, unittest.TestCase):
    server = server

    def assert_validation(self, call, message, **kwargs):
        code, got = self.error(call, **kwargs)
        self.assertEqual(code, "ValidationException")
        self.assertEqual(got, message)

    def test_query_order_and_pages(self):
        pages = list(self.client.get_paginator("query").paginate(
            TableName=TABLE, KeyConditionExpression="pk = :p",
            ExpressionAttributeValues={":p": {"S": "p1"}},
            PaginationConfig={"PageSize": 6}))
        self.assertEqual([p["Count"] for p in pages], [6, 6, 6, 2])
        keys = [int(i["sk"]["N"]) for p in pages for i in p["Items"]]
        self.assertEqual(keys, list(range(-10, 10)))
        self.assertEqual(pages[0]["LastEvaluatedKey"],
                         {"pk": {"S": "p1"}, "sk": {"N": "-5"}})
        backwards = self.client.query(
            TableName=TABLE, KeyConditionExpression="pk = :p AND sk < :z",
            ExpressionAttributeValues={":p": {"S": "p1"}, ":z": {"N": "0"}},
            ScanIndexForward=False, Limit=3)
        self.assertEqual([i["sk"]["N"] for i in backwards["Items"]],
                         ["-1", "-2", "-3"])

    def test_query_filter_count_and_projection(self):
        got = self.client.query(
            TableName=TABLE, KeyConditionExpression="pk = :p",
            FilterExpression="n >= :n", ProjectionExpression="#n",
            ExpressionAttributeNames={"#n": "n"},
            ExpressionAttributeValues={":p": {"S": "p2"}, ":n": {"N": "215"}},
            Limit=18)
        self.assertEqual(got["ScannedCount"], 18)
        self.assertEqual(got["Count"], 3)
        self.assertEqual(got["Items"], [{"n": {"N": "215"}},
                                        {"n": {"N": "216"}},
                                        {"n": {"N": "217"}}])
        self.assertIn("LastEvaluatedKey", got)
        count = self.client.query(
            TableName=TABLE, KeyConditionExpression="pk = :p",
            ExpressionAttributeValues={":p": {"S": "p2"}}, Select="COUNT")
        self.assertEqual(count["Count"], 20)
        self.assertNotIn("Items", count)

    def test_gsi_query(self):
        pages = list(self.client.get_paginator("query").paginate(
            TableName=TABLE, IndexName="by_g",
            KeyConditionExpression="g = :g",
            ExpressionAttributeValues={":g": {"S": "g5"}},
            PaginationConfig={"PageSize": 2}))
        items = [i for p in pages for i in p["Items"]]
        self.assertEqual(items, [{"pk": {"S": f"p{p}"}, "sk": {"N": "-5"},
                                  "g": {"S": "g5"}} for p in range(5)])
        self.assertEqual(
            pages[0]["LastEvaluatedKey"],
            {"pk": {"S": "p1"}, "sk": {"N": "-5"}, "g": {"S": "g5"}})
        self.assert_validation(
            self.client.query,
            "One or more parameter values were invalid: Select type "
            "ALL_ATTRIBUTES is not supported for global secondary index by_g "
            "because its projection type is not ALL",
            TableName=TABLE, IndexName="by_g",
            KeyConditionExpression="g = :g", Select="ALL_ATTRIBUTES",
            ExpressionAttributeValues={":g": {"S": "g5"}})
        self.assert_validation(
            self.client.query,
            "Consistent reads are not supported on global secondary indexes",
            TableName=TABLE, IndexName="by_g", ConsistentRead=True,
            KeyConditionExpression="g = :g",
            ExpressionAttributeValues={":g": {"S": "g5"}})

    def test_scan_pages_and_segments(self):
        pages = list(self.client.get_paginator("scan").paginate(
            TableName=TABLE, PaginationConfig={"PageSize": 30}))
        self.assertEqual([p["Count"] for p in pages], [30, 30, 30, 10])
        seen = {(i["pk"]["S"], i["sk"]["N"]) for p in pages
                for i in p["Items"]}
        self.assertEqual(len(seen), 100)
        segments = []
        for segment in range(3):
            got = set()
            for page in self.client.get_paginator("scan").paginate(
                    TableName=TABLE, Segment=segment, TotalSegments=3,
                    PaginationConfig={"PageSize": 7}):
                got |= {(i["pk"]["S"], i["sk"]["N"]) for i in page["Items"]}
            segments.append(got)
        self.assertEqual(set().union(*segments), seen)
        self.assertEqual(sum(len(s) for s in segments), 100)
        for s in segments:  # whole partitions only
            self.assertEqual(len(s) % 20, 0)
        filtered = self.client.scan(
            TableName=TABLE, FilterExpression="sk = :z",
            ExpressionAttributeValues={":z": {"N": "0"}})
        self.assertEqual(filtered["Count"], 5)
        self.assertEqual(filtered["ScannedCount"], 100)

    def test_one_megabyte_pages(self):
        name = "query_scan_big"
        self.client.create_table(
            TableName=name,
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                       {"AttributeName": "sk", "KeyType": "RANGE"}],
            AttributeDefinitions=[
                {"AttributeName": "pk", "AttributeType": "S"},
                {"AttributeName": "sk", "AttributeType": "N"}],
            BillingMode="PAY_PER_REQUEST")
        self.client.get_waiter("table_exists").wait(TableName=name)
        blob = "z" * 100000
        for s in range(23):
            self.client.put_item(TableName=name, Item={
                "pk": {"S": "big"}, "sk": {"N": str(s)}, "d": {"S": blob}})
        pages = list(self.client.get_paginator("query").paginate(
            TableName=name, KeyConditionExpression="pk = :p",
            ProjectionExpression="sk",
            ExpressionAttributeValues={":p": {"S": "big"}}))
        self.assertEqual([p["Count"] for p in pages], [11, 11, 1])

    def test_errors(self):
        self.assert_validation(
            self.client.query,
            "Either the KeyConditions or KeyConditionExpression parameter "
            "must be specified in the request.",
            TableName=TABLE)
        self.assert_validation(
            self.client.query,
            "The table does not have the specified index: nope",
            TableName=TABLE, IndexName="nope",
            KeyConditionExpression="pk = :p",
            ExpressionAttributeValues={":p": {"S": "p1"}})
        self.assert_validation(
            self.client.query,
            "Filter Expression can only contain non-primary key attributes: "
            "Primary key attribute: sk",
            TableName=TABLE, KeyConditionExpression="pk = :p",
            FilterExpression="sk > :p",
            ExpressionAttributeValues={":p": {"S": "p1"}})
        self.assert_validation(
            self.client.query,
            "1 validation error detected: Cannot specify the "
            "ProjectionExpression when choosing to get only the Count",
            TableName=TABLE, KeyConditionExpression="pk = :p",
            Select="COUNT", ProjectionExpression="n",
            ExpressionAttributeValues={":p": {"S": "p1"}})
        self.assert_validation(
            self.client.query,
            "The provided starting key is outside query boundaries based on "
            "provided conditions",
            TableName=TABLE, KeyConditionExpression="pk = :p",
            ExpressionAttributeValues={":p": {"S": "p1"}},
            ExclusiveStartKey={"pk": {"S": "p2"}, "sk": {"N": "1"}})
        self.assert_validation(
            self.client.query,
            "Value provided in ExpressionAttributeValues unused in "
            "expressions: keys: {:q}",
            TableName=TABLE, KeyConditionExpression="pk = :p",
            ExpressionAttributeValues={":p": {"S": "p1"}, ":q": {"S": "x"}})
        self.assert_validation(
            self.client.scan,
            "The Segment parameter is zero-based and must be less than "
            "parameter TotalSegments: Segment: 2 is not less than "
            "TotalSegments: 2",
            TableName=TABLE, Segment=2, TotalSegments=2)
        self.assert_validation(
            self.client.scan,
            "The provided starting key is invalid: The provided key element "
            "does not match the schema",
            TableName=TABLE, ExclusiveStartKey={"pk": {"S": "p1"}})
        self.assert_validation(
            self.client.scan,
            "Can not use both expression and non-expression parameters in the "
            "same request: Non-expression parameters: {AttributesToGet} "
            "Expression parameters: {ProjectionExpression}",
            TableName=TABLE, AttributesToGet=["n"], ProjectionExpression="n")

    def test_legacy_parameters(self):
        got = self.client.query(
            TableName=TABLE,
            KeyConditions={
                "pk": {"ComparisonOperator": "EQ",
                       "AttributeValueList": [{"S": "p3"}]},
                "sk": {"ComparisonOperator": "BETWEEN",
                       "AttributeValueList": [{"N": "-1"}, {"N": "1"}]}},
            QueryFilter={"n": {"ComparisonOperator": "NE",
                               "AttributeValueList": [{"N": "310"}]}},
            AttributesToGet=["n"])
        self.assertEqual(got["Items"], [{"n": {"N": "309"}},
                                        {"n": {"N": "311"}}])
        got = self.client.scan(
            TableName=TABLE,
            ScanFilter={"n": {"ComparisonOperator": "LT",
                              "AttributeValueList": [{"N": "3"}]}})
        self.assertEqual(got["Count"], 3)


if __name__ == "__main__":
    unittest.main()
