"""Multi-attribute GSI keys through boto3: CreateTable with a GSI of two HASH
and three RANGE attributes, writes (items missing a key attribute stay out of
the index), Query with every legal key-condition shape and refused ones,
pagination, Scan, UpdateItem moving an item between partitions, DeleteItem,
an UpdateTable that adds (backfills) and deletes such an index, and the
malformed KeySchemas."""
import unittest

from ddb_client import BotoModule, ClientTest, table_spec

TABLE = "gsi_multi"

ATTRS = [("tenant", "S"), ("region", "S"), ("year", "N"), ("month", "N"),
         ("day", "S")]
KEY_SCHEMA = [{"AttributeName": "tenant", "KeyType": "HASH"},
              {"AttributeName": "region", "KeyType": "HASH"},
              {"AttributeName": "year", "KeyType": "RANGE"},
              {"AttributeName": "month", "KeyType": "RANGE"},
              {"AttributeName": "day", "KeyType": "RANGE"}]
PLACES = [("p1", "T", "eu", 2024, 1, "05"), ("p2", "T", "eu", 2024, 2, "10"),
          ("p3", "T", "eu", 2024, 2, "20"), ("p4", "T", "eu", 2025, 1, "01"),
          ("p5", "T", "us", 2024, 1, "01")]
NAMES = {"#r": "region", "#y": "year", "#m": "month", "#d": "day"}


def place_item(pk, tenant, region, year, month, day):
    return {"pk": {"S": pk}, "tenant": {"S": tenant},
            "region": {"S": region}, "year": {"N": str(year)},
            "month": {"N": str(month)}, "day": {"S": day}}


def fill(client):
    client.get_waiter("table_exists").wait(TableName=TABLE)
    for place in PLACES:
        client.put_item(TableName=TABLE, Item=place_item(*place))
    # Not in the index: "day" is missing.
    client.put_item(TableName=TABLE, Item={
        "pk": {"S": "p6"}, "tenant": {"S": "T"}, "region": {"S": "eu"},
        "year": {"N": "2024"}, "month": {"N": "1"}})


server = BotoModule(
    tables=[table_spec(TABLE, attributes=ATTRS, GlobalSecondaryIndexes=[{
        "IndexName": "by_place", "KeySchema": KEY_SCHEMA,
        "Projection": {"ProjectionType": "ALL"}}])],
    setup=fill)
setUpModule, tearDownModule = server.start, server.stop


class MultiKeyGsiTest(ClientTest, unittest.TestCase):
    server = server

    def query(self, condition="", table=TABLE, index="by_place", **values):
        """Query of tenant T, region eu, plus `condition`; values :y :m :d
        :d2 as given (ints are N, strings S)."""
        expression = "tenant = :t AND #r = :r"
        if condition:
            expression += " AND " + condition
        attr_values = {":t": {"S": "T"}, ":r": {"S": "eu"}}
        for name, value in values.items():
            attr_values[":" + name] = ({"N": str(value)}
                                       if isinstance(value, int)
                                       else {"S": value})
        names = {k: v for k, v in NAMES.items() if k in expression}
        return dict(TableName=table, IndexName=index,
                    KeyConditionExpression=expression,
                    ExpressionAttributeNames=names,
                    ExpressionAttributeValues=attr_values)

    def pks(self, request):
        items = []
        for page in self.client.get_paginator("query").paginate(**request):
            items += page["Items"]
        return [i["pk"]["S"] for i in items]

    def test_describe_shows_the_key_schema_as_given(self):
        table = self.client.describe_table(TableName=TABLE)["Table"]
        gsi = table["GlobalSecondaryIndexes"][0]
        self.assertEqual(gsi["KeySchema"], KEY_SCHEMA)
        self.assertEqual(gsi["IndexStatus"], "ACTIVE")
        self.assertEqual(
            sorted(d["AttributeName"] for d in table["AttributeDefinitions"]),
            ["day", "month", "pk", "region", "tenant", "year"])

    def test_every_legal_key_condition_shape(self):
        q = self.query
        self.assertEqual(self.pks(q()), ["p1", "p2", "p3", "p4"])
        self.assertEqual(self.pks({**q(), "ScanIndexForward": False}),
                         ["p4", "p3", "p2", "p1"])
        self.assertEqual(self.pks(q("#y = :y", y=2024)), ["p1", "p2", "p3"])
        self.assertEqual(self.pks(q("#y > :y", y=2024)), ["p4"])
        self.assertEqual(self.pks(q("#y >= :y", y=2024)),
                         ["p1", "p2", "p3", "p4"])
        self.assertEqual(self.pks(q("#y < :y", y=2025)), ["p1", "p2", "p3"])
        self.assertEqual(self.pks(q("#y <= :y", y=2024)), ["p1", "p2", "p3"])
        self.assertEqual(self.pks(q("#y BETWEEN :y AND :z", y=2025, z=2030)),
                         ["p4"])
        self.assertEqual(self.pks(q("#y = :y AND #m = :m", y=2024, m=2)),
                         ["p2", "p3"])
        self.assertEqual(self.pks(q("#y = :y AND #m > :m", y=2024, m=1)),
                         ["p2", "p3"])
        self.assertEqual(self.pks(q("#y = :y AND #m < :m", y=2024, m=2)),
                         ["p1"])
        self.assertEqual(
            self.pks(q("#y = :y AND #m = :m AND #d = :d", y=2024, m=2,
                       d="20")), ["p3"])
        self.assertEqual(
            self.pks(q("#y = :y AND #m = :m AND begins_with(#d, :d)",
                       y=2024, m=2, d="1")), ["p2"])
        self.assertEqual(
            self.pks(q("#y = :y AND #m = :m AND #d BETWEEN :d AND :e",
                       y=2024, m=2, d="00", e="15")), ["p2"])
        us = q()
        us["ExpressionAttributeValues"][":r"] = {"S": "us"}
        self.assertEqual(self.pks(us), ["p5"])

    def test_refused_key_condition_shapes(self):
        def refused(request, message):
            code, got = self.error(self.client.query, **request)
            self.assertEqual((code, got), ("ValidationException", message))

        only_tenant = self.query()
        only_tenant["KeyConditionExpression"] = "tenant = :t"
        del only_tenant["ExpressionAttributeValues"][":r"]
        del only_tenant["ExpressionAttributeNames"]
        refused(only_tenant,
                "HASH key attributes region must have equality conditions "
                "specified in the query")
        refused(self.query("#m = :m", m=1),
                "RANGE key attributes year must have equality conditions "
                "specified in the query because a condition is present on "
                "key attribute month")
        refused(self.query("#y > :y AND #m = :m", y=2024, m=1),
                "RANGE key attributes year must have equality conditions "
                "specified in the query because a condition is present on "
                "key attribute month")
        refused(self.query("#y = :y", y="2024"),
                "One or more parameter values were invalid: Condition "
                "parameter type does not match schema type")

    def test_pages_carry_every_key_attribute(self):
        page = self.client.query(**self.query(), Limit=2)
        self.assertEqual(page["Count"], 2)
        self.assertEqual(page["LastEvaluatedKey"], place_item(*PLACES[1]))
        rest = self.client.query(**self.query(),
                                 ExclusiveStartKey=page["LastEvaluatedKey"])
        self.assertEqual([i["pk"]["S"] for i in rest["Items"]], ["p3", "p4"])

    def test_scan_of_the_index(self):
        items = []
        for page in self.client.get_paginator("scan").paginate(
                TableName=TABLE, IndexName="by_place",
                PaginationConfig={"PageSize": 2}):
            items += page["Items"]
        self.assertEqual(sorted(i["pk"]["S"] for i in items),
                         ["p1", "p2", "p3", "p4", "p5"])

    def test_writes_keep_the_index(self):
        item = place_item("w1", "W", "eu", 2024, 3, "01")
        self.client.put_item(TableName=TABLE, Item=item)
        q = self.query()
        q["ExpressionAttributeValues"][":t"] = {"S": "W"}
        self.assertEqual(self.pks(q), ["w1"])
        # Moving to another partition, then out of the index.
        self.client.update_item(
            TableName=TABLE, Key={"pk": {"S": "w1"}},
            UpdateExpression="SET #r = :r", ExpressionAttributeNames={
                "#r": "region"},
            ExpressionAttributeValues={":r": {"S": "us"}})
        self.assertEqual(self.pks(q), [])
        q["ExpressionAttributeValues"][":r"] = {"S": "us"}
        self.assertEqual(self.pks(q), ["w1"])
        self.client.update_item(TableName=TABLE, Key={"pk": {"S": "w1"}},
                                UpdateExpression="REMOVE #d",
                                ExpressionAttributeNames={"#d": "day"})
        self.assertEqual(self.pks(q), [])
        # A mistyped key attribute is refused; nothing is written.
        code, message = self.error(
            self.client.put_item, TableName=TABLE,
            Item={**item, "pk": {"S": "w2"}, "month": {"S": "3"}})
        self.assertEqual(code, "ValidationException")
        self.assertEqual(message,
                         "One or more parameter values were invalid: Type "
                         "mismatch for Index Key month Expected: N Actual: S "
                         "IndexName: by_place")
        self.assertIsNone(self.get_item(TABLE, {"pk": {"S": "w2"}}))
        self.client.delete_item(TableName=TABLE, Key={"pk": {"S": "w1"}})

    def test_update_table_backfills_and_deletes(self):
        name = "gsi_multi_bf"
        self.client.create_table(**table_spec(name))
        self.client.put_item(TableName=name, Item={
            "pk": {"S": "a"}, "h1": {"S": "x"}, "h2": {"N": "1"},
            "r1": {"S": "k"}})
        self.client.put_item(TableName=name, Item={
            "pk": {"S": "b"}, "h1": {"S": "x"}, "h2": {"N": "1"},
            "r1": {"S": "z" * 1025}})  # too long for an index key
        self.client.put_item(TableName=name, Item={
            "pk": {"S": "c"}, "h1": {"S": "x"}})  # incomplete key
        self.client.update_table(
            TableName=name,
            AttributeDefinitions=[
                {"AttributeName": "h1", "AttributeType": "S"},
                {"AttributeName": "h2", "AttributeType": "N"},
                {"AttributeName": "r1", "AttributeType": "S"}],
            GlobalSecondaryIndexUpdates=[{"Create": {
                "IndexName": "hhx", "Projection": {"ProjectionType": "ALL"},
                "KeySchema": [{"AttributeName": "h1", "KeyType": "HASH"},
                              {"AttributeName": "h2", "KeyType": "HASH"},
                              {"AttributeName": "r1", "KeyType": "RANGE"}]}}])
        self.client.get_waiter("table_exists").wait(TableName=name)
        gsi = self.client.describe_table(
            TableName=name)["Table"]["GlobalSecondaryIndexes"][0]
        self.assertEqual([k["AttributeName"] for k in gsi["KeySchema"]],
                         ["h1", "h2", "r1"])
        self.assertEqual(gsi["ItemCount"], 1)
        out = self.client.query(
            TableName=name, IndexName="hhx",
            KeyConditionExpression="h1 = :a AND h2 = :b",
            ExpressionAttributeValues={":a": {"S": "x"}, ":b": {"N": "1"}})
        self.assertEqual([i["pk"]["S"] for i in out["Items"]], ["a"])
        # The index now refuses an oversized key value.
        code, message = self.error(
            self.client.put_item, TableName=name,
            Item={"pk": {"S": "d"}, "r1": {"S": "z" * 1025}})
        self.assertEqual((code, message), (
            "ValidationException",
            "One or more parameter values were invalid: Aggregated size of all "
            "range keys has exceeded the size limit of 1024 bytes"))
        self.client.update_table(
            TableName=name,
            GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "hhx"}}])
        self.client.get_waiter("table_exists").wait(TableName=name)
        self.assertNotIn("GlobalSecondaryIndexes",
                         self.client.describe_table(TableName=name)["Table"])
        code, message = self.error(
            self.client.update_table, TableName=name,
            GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "hhx"}}])
        self.assertEqual((code, message), (
            "ResourceNotFoundException",
            f"Requested resource not found: Index hhx for table {name}"))
        self.client.delete_table(TableName=name)

    def test_malformed_key_schemas(self):
        def create(key_schema):
            attrs = sorted({k["AttributeName"] for k in key_schema})
            return self.error(
                self.client.create_table,
                **table_spec("gsi_multi_bad",
                             attributes=[(a, "S") for a in attrs],
                             GlobalSecondaryIndexes=[{
                                 "IndexName": "bad", "KeySchema": key_schema,
                                 "Projection": {
                                     "ProjectionType": "KEYS_ONLY"}}]))

        def keys(*spec):
            return [{"AttributeName": n, "KeyType": t} for n, t in spec]

        self.assertEqual(
            create(keys(*[(f"h{i}", "HASH") for i in range(5)])),
            ("ValidationException",
             "One or more parameter values were invalid: The KeySchema "
             "exceeds the maximum allowed number of HASH key attributes"))
        self.assertEqual(
            create(keys(("h", "HASH"),
                        *[(f"r{i}", "RANGE") for i in range(5)])),
            ("ValidationException",
             "One or more parameter values were invalid: The KeySchema "
             "exceeds the maximum allowed number of RANGE key attributes"))
        self.assertEqual(
            create(keys(("a", "HASH"), ("b", "RANGE"), ("c", "HASH"))),
            ("ValidationException",
             "One or more parameter values were invalid: All HASH key "
             "attributes must precede RANGE key attributes in the KeySchema"))
        self.assertEqual(
            create(keys(("a", "HASH"), ("b", "HASH"), ("a", "RANGE"))),
            ("ValidationException",
             "The KeySchema contains multiple key attributes with the same "
             "name"))
        self.assertNotIn("gsi_multi_bad",
                         self.client.list_tables()["TableNames"])


if __name__ == "__main__":
    unittest.main()
