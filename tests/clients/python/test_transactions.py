"""TransactWriteItems / TransactGetItems through boto3 (retries off) and
the TransactionCanceledException body on the wire."""
import json
import unittest

from botocore.exceptions import ClientError

from ddb_client import BotoModule, ClientTest, key, table_spec
from wire import post

TABLE = "transactions"
server = BotoModule(tables=[table_spec(TABLE)])
setUpModule, tearDownModule = server.start, server.stop


class TransactionsTest(ClientTest, unittest.TestCase):
    server = server

    def get(self, pk):
        return self.get_item(TABLE, key(pk))

    def test_write_all_actions(self):
        self.client.put_item(TableName=TABLE,
                             Item={**key("w2"), "v": {"N": "1"}})
        self.client.put_item(TableName=TABLE, Item=key("w3"))
        self.client.put_item(TableName=TABLE, Item=key("w4"))
        out = self.client.transact_write_items(TransactItems=[
            {"Put": {"TableName": TABLE, "Item": {**key("w1"),
                                                  "v": {"N": "1"}}}},
            {"Update": {"TableName": TABLE, "Key": key("w2"),
                        "UpdateExpression": "SET v = v + :one",
                        "ExpressionAttributeValues": {":one": {"N": "1"}}}},
            {"Delete": {"TableName": TABLE, "Key": key("w3")}},
            {"ConditionCheck": {"TableName": TABLE, "Key": key("w4"),
                                "ConditionExpression":
                                    "attribute_exists(pk)"}},
        ], ReturnConsumedCapacity="TOTAL")
        self.assertEqual(out["ConsumedCapacity"],
                         [{"TableName": TABLE, "CapacityUnits": 8.0,
                           "WriteCapacityUnits": 8.0}])
        self.assertEqual(self.get("w1"), {**key("w1"), "v": {"N": "1"}})
        self.assertEqual(self.get("w2"), {**key("w2"), "v": {"N": "2"}})
        self.assertIsNone(self.get("w3"))

    def test_cancellation(self):
        self.client.put_item(TableName=TABLE,
                             Item={**key("c1"), "v": {"N": "1"}})
        with self.assertRaises(ClientError) as caught:
            self.client.transact_write_items(TransactItems=[
                {"Put": {"TableName": TABLE, "Item": key("c0")}},
                {"ConditionCheck": {
                    "TableName": TABLE, "Key": key("c1"),
                    "ConditionExpression": "v = :two",
                    "ExpressionAttributeValues": {":two": {"N": "2"}},
                    "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}},
            ])
        response = caught.exception.response
        self.assertEqual(response["Error"]["Code"],
                         "TransactionCanceledException")
        self.assertEqual(response["Error"]["Message"],
                         "Transaction cancelled, please refer cancellation "
                         "reasons for specific reasons "
                         "[None, ConditionalCheckFailed]")
        self.assertEqual(response["CancellationReasons"], [
            {"Code": "None"},
            {"Code": "ConditionalCheckFailed",
             "Message": "The conditional request failed",
             "Item": {**key("c1"), "v": {"N": "1"}}}])
        self.assertIsNone(self.get("c0"))

    def test_cancellation_wire_body(self):
        self.client.put_item(TableName=TABLE, Item=key("b1"))
        status, _, body = post(
            server.endpoint, "DynamoDB_20120810.TransactWriteItems",
            json.dumps({"TransactItems": [
                {"Put": {"TableName": TABLE, "Item": key("b1"),
                         "ConditionExpression": "attribute_not_exists(pk)"}},
                {"Put": {"TableName": TABLE, "Item": key("b2")}}]}))
        self.assertEqual(status, 400)
        self.assertEqual(json.loads(body), {
            "__type": "com.amazonaws.dynamodb.v20120810#"
                      "TransactionCanceledException",
            "Message": "Transaction cancelled, please refer cancellation "
                       "reasons for specific reasons "
                       "[ConditionalCheckFailed, None]",
            "CancellationReasons": [
                {"Code": "ConditionalCheckFailed",
                 "Message": "The conditional request failed"},
                {"Code": "None"}]})

    def test_multiple_operations_on_one_item(self):
        with self.assertRaises(ClientError) as caught:
            self.client.transact_write_items(TransactItems=[
                {"Put": {"TableName": TABLE, "Item": key("d1")}},
                {"Delete": {"TableName": TABLE, "Key": key("d1")}}])
        error = caught.exception.response["Error"]
        self.assertEqual(error["Code"], "ValidationException")
        self.assertEqual(error["Message"], "Transaction request cannot "
                                           "include multiple operations on "
                                           "one item")
        self.assertIsNone(self.get("d1"))

    def test_idempotency(self):
        items = [{"Put": {"TableName": TABLE,
                          "Item": {**key("i1"), "v": {"N": "1"}}}}]
        self.client.transact_write_items(TransactItems=items,
                                         ClientRequestToken="token-i1")
        self.client.put_item(TableName=TABLE,
                             Item={**key("i1"), "v": {"N": "2"}})
        self.client.transact_write_items(TransactItems=items,
                                         ClientRequestToken="token-i1")
        self.assertEqual(self.get("i1")["v"], {"N": "2"})
        with self.assertRaises(ClientError) as caught:
            self.client.transact_write_items(
                TransactItems=[{"Put": {"TableName": TABLE,
                                        "Item": key("i1")}}],
                ClientRequestToken="token-i1")
        self.assertEqual(caught.exception.response["Error"]["Code"],
                         "IdempotentParameterMismatchException")

    def test_transact_get(self):
        self.client.put_item(TableName=TABLE, Item={
            **key("g1"), "a": {"N": "1"}, "b": {"N": "2"}})
        out = self.client.transact_get_items(TransactItems=[
            {"Get": {"TableName": TABLE, "Key": key("g-missing")}},
            {"Get": {"TableName": TABLE, "Key": key("g1"),
                     "ProjectionExpression": "#b",
                     "ExpressionAttributeNames": {"#b": "b"}}}])
        self.assertEqual(out["Responses"], [{}, {"Item": {"b": {"N": "2"}}}])


if __name__ == "__main__":
    unittest.main()
