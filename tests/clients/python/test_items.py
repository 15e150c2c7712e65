"""Item operations through boto3: PutItem, GetItem, DeleteItem (and
ConditionalCheckFailedException, which needs condition expressions)."""
import json
import threading
import unittest

from botocore.exceptions import ClientError

from ddb_client import BotoModule, ClientTest, table_spec
from wire import post

TABLE = "items"
server = BotoModule(tables=[table_spec(TABLE, sk=("sk", "N"))])
setUpModule, tearDownModule = server.start, server.stop


ITEM = {
    "pk": {"S": "user#1"},
    "sk": {"N": "1"},
    "name": {"S": "Ada"},
    "age": {"N": "36.50"},
    "blob": {"B": b"\x00\x01\xff"},
    "flag": {"BOOL": True},
    "nothing": {"NULL": True},
    "tags": {"SS": ["b", "a"]},
    "nums": {"NS": ["1", "2.5"]},
    "list": {"L": [{"S": "x"}, {"N": "1"}]},
    "map": {"M": {"inner": {"S": "y"}}},
}


class ItemsTest(ClientTest, unittest.TestCase):
    server = server

    def key(self, pk="user#1", sk="1"):
        return {"pk": {"S": pk}, "sk": {"N": sk}}

    def test_put_get_delete(self):
        self.assertEqual(
            set(self.client.put_item(TableName=TABLE, Item=ITEM)) -
            {"ResponseMetadata"}, set())
        got = self.client.get_item(TableName=TABLE, Key=self.key(),
                                   ConsistentRead=True)
        item = got["Item"]
        self.assertEqual(item["name"], {"S": "Ada"})
        self.assertEqual(item["blob"], {"B": b"\x00\x01\xff"})
        self.assertEqual(sorted(item["tags"]["SS"]), ["a", "b"])
        self.assertEqual(item["map"], {"M": {"inner": {"S": "y"}}})
        self.assertEqual(item["list"], {"L": [{"S": "x"}, {"N": "1"}]})
        self.assertEqual(item["flag"], {"BOOL": True})
        self.assertEqual(item["nothing"], {"NULL": True})

        deleted = self.client.delete_item(TableName=TABLE, Key=self.key(),
                                          ReturnValues="ALL_OLD")
        self.assertEqual(deleted["Attributes"]["name"], {"S": "Ada"})
        self.assertNotIn("Item", self.client.get_item(TableName=TABLE,
                                                      Key=self.key()))

    def test_get_missing_item(self):
        response = self.client.get_item(TableName=TABLE,
                                        Key=self.key("nobody"))
        self.assertEqual(set(response), {"ResponseMetadata"})

    def test_put_replaces_and_returns_old(self):
        self.client.put_item(TableName=TABLE, Item={**self.key("r"),
                                                    "v": {"N": "1"}})
        old = self.client.put_item(TableName=TABLE,
                                   Item={**self.key("r"), "w": {"N": "2"}},
                                   ReturnValues="ALL_OLD")
        self.assertEqual(old["Attributes"], {**self.key("r"),
                                             "v": {"N": "1"}})
        item = self.client.get_item(TableName=TABLE, Key=self.key("r"))["Item"]
        self.assertEqual(item, {**self.key("r"), "w": {"N": "2"}})

    def test_missing_table(self):
        with self.assertRaises(ClientError) as caught:
            self.client.get_item(TableName="items_nope", Key=self.key())
        self.assertEqual(caught.exception.response["Error"]["Code"],
                         "ResourceNotFoundException")
        self.assertEqual(caught.exception.response["Error"]["Message"],
                         "Requested resource not found")

    def test_wrong_key_type(self):
        with self.assertRaises(ClientError) as caught:
            self.client.get_item(TableName=TABLE,
                                 Key={"pk": {"N": "1"}, "sk": {"N": "1"}})
        self.assertEqual(caught.exception.response["Error"]["Code"],
                         "ValidationException")
        self.assertEqual(
            caught.exception.response["Error"]["Message"],
            "The provided key element does not match the schema")

    def test_concurrent_clients(self):
        # Several clients, each with its own keep-alive connection pool,
        # writing and reading at once.
        def work(w, errors):
            try:
                client = server.boto3_client()
                for i in range(40):
                    key = self.key(f"conc{w}", str(i))
                    client.put_item(TableName=TABLE,
                                    Item={**key, "w": {"N": str(w)}})
                    got = client.get_item(TableName=TABLE, Key=key,
                                          ConsistentRead=True)
                    if got["Item"]["w"] != {"N": str(w)}:
                        errors.append(f"{w}/{i}: {got}")
            except Exception as e:  # noqa: BLE001 - reported below
                errors.append(f"{w}: {e!r}")

        errors = []
        threads = [threading.Thread(target=work, args=(w, errors))
                   for w in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        self.assertEqual(errors, [])

    def test_conditional_check_failed(self):
        self.client.put_item(TableName=TABLE, Item={**self.key("c"),
                                                    "v": {"N": "1"}})
        with self.assertRaises(ClientError) as caught:
            self.client.put_item(
                TableName=TABLE, Item={**self.key("c"), "v": {"N": "2"}},
                ConditionExpression="attribute_not_exists(pk)")
        error = caught.exception.response
        self.assertEqual(error["Error"]["Code"],
                         "ConditionalCheckFailedException")
        self.assertEqual(error["Error"]["Message"],
                         "The conditional request failed")
        self.assertNotIn("Item", error)

    def test_conditional_check_failed_returns_old_item(self):
        # Debian's botocore 1.29 predates ReturnValuesOnConditionCheckFailure,
        # so this one goes over the wire by hand.
        self.client.put_item(TableName=TABLE, Item={**self.key("o"),
                                                    "v": {"N": "1"}})
        status, _, body = post(server.endpoint, "DynamoDB_20120810.PutItem",
                               json.dumps({
                                   "TableName": TABLE,
                                   "Item": {**self.key("o"), "v": {"N": "2"}},
                                   "ConditionExpression":
                                       "attribute_not_exists(pk)",
                                   "ReturnValuesOnConditionCheckFailure":
                                       "ALL_OLD"}))
        self.assertEqual(status, 400)
        self.assertEqual(json.loads(body), {
            "__type": "com.amazonaws.dynamodb.v20120810#"
                      "ConditionalCheckFailedException",
            "message": "The conditional request failed",
            "Item": {**self.key("o"), "v": {"N": "1"}}})

if __name__ == "__main__":
    unittest.main()
