"""UpdateItem, condition / projection expressions and their legacy forms
through boto3 (retries off)."""
import threading
import unittest

from botocore.exceptions import ClientError

from ddb_client import BotoModule, ClientTest, key, table_spec

TABLE = "item_expressions"
server = BotoModule(tables=[table_spec(TABLE)])
setUpModule, tearDownModule = server.start, server.stop


class ItemExpressionsTest(ClientTest, unittest.TestCase):
    server = server

    def get(self, pk):
        return self.get_item(TABLE, key(pk))

    def error(self, call, **kwargs):
        return super().error(call, TableName=TABLE, **kwargs)

    def test_update_upsert_and_return_values(self):
        out = self.client.update_item(
            TableName=TABLE, Key=key("u1"),
            UpdateExpression="SET #n = :n ADD c :one",
            ExpressionAttributeNames={"#n": "name"},
            ExpressionAttributeValues={":n": {"S": "x"}, ":one": {"N": "1"}},
            ReturnValues="ALL_NEW")
        self.assertEqual(out["Attributes"], {**key("u1"), "name": {"S": "x"},
                                             "c": {"N": "1"}})
        out = self.client.update_item(
            TableName=TABLE, Key=key("u1"), UpdateExpression="ADD c :one",
            ExpressionAttributeValues={":one": {"N": "1"}},
            ReturnValues="UPDATED_NEW")
        self.assertEqual(out["Attributes"], {"c": {"N": "2"}})
        out = self.client.update_item(
            TableName=TABLE, Key=key("u1"), UpdateExpression="REMOVE c",
            ReturnValues="UPDATED_OLD")
        self.assertEqual(out["Attributes"], {"c": {"N": "2"}})
        self.assertEqual(self.get("u1"), {**key("u1"), "name": {"S": "x"}})

    def test_update_runtime_error(self):
        self.client.put_item(TableName=TABLE,
                             Item={**key("u2"), "s": {"S": "str"}})
        code, message = self.error(
            self.client.update_item, Key=key("u2"),
            UpdateExpression="SET s = s + :one",
            ExpressionAttributeValues={":one": {"N": "1"}})
        self.assertEqual(code, "ValidationException")
        self.assertEqual(message, "An operand in the update expression has "
                                  "an incorrect data type")
        self.assertEqual(self.get("u2"), {**key("u2"), "s": {"S": "str"}})

    def test_update_key_attribute(self):
        code, message = self.error(
            self.client.update_item, Key=key("u3"),
            UpdateExpression="SET pk = :v",
            ExpressionAttributeValues={":v": {"S": "z"}})
        self.assertEqual(code, "ValidationException")
        self.assertEqual(message, "One or more parameter values were invalid: "
                                  "Cannot update attribute pk. This attribute "
                                  "is part of the key")

    def test_remove_on_missing_item_creates_nothing(self):
        out = self.client.update_item(TableName=TABLE, Key=key("u4"),
                                      UpdateExpression="REMOVE a",
                                      ReturnValues="ALL_NEW")
        self.assertNotIn("Attributes", out)
        self.assertIsNone(self.get("u4"))

    def test_condition_failure(self):
        self.client.put_item(TableName=TABLE,
                             Item={**key("c1"), "v": {"N": "1"}})
        code, message = self.error(
            self.client.update_item, Key=key("c1"),
            UpdateExpression="SET v = :two",
            ConditionExpression="v = :zero",
            ExpressionAttributeValues={":two": {"N": "2"},
                                       ":zero": {"N": "0"}})
        self.assertEqual(code, "ConditionalCheckFailedException")
        self.assertEqual(message, "The conditional request failed")
        code, message = self.error(
            self.client.delete_item, Key=key("c1"),
            ConditionExpression="attribute_not_exists(v)")
        self.assertEqual(code, "ConditionalCheckFailedException")
        self.assertEqual(self.get("c1"), {**key("c1"), "v": {"N": "1"}})

    def test_mixing_styles(self):
        code, message = self.error(
            self.client.put_item, Item=key("m1"),
            ConditionExpression="attribute_not_exists(pk)",
            Expected={"pk": {"Exists": False}})
        self.assertEqual(code, "ValidationException")
        self.assertEqual(message, "Can not use both expression and "
                                  "non-expression parameters in the same "
                                  "request: Non-expression parameters: "
                                  "{Expected} Expression parameters: "
                                  "{ConditionExpression}")
        self.assertIsNone(self.get("m1"))

    def test_legacy_attribute_updates_and_expected(self):
        self.client.update_item(
            TableName=TABLE, Key=key("l1"),
            AttributeUpdates={"n": {"Action": "ADD", "Value": {"N": "5"}}})
        self.client.update_item(
            TableName=TABLE, Key=key("l1"),
            AttributeUpdates={"n": {"Action": "ADD", "Value": {"N": "5"}}},
            Expected={"n": {"Value": {"N": "5"}}})
        self.assertEqual(self.get("l1"), {**key("l1"), "n": {"N": "10"}})

    def test_projection(self):
        self.client.put_item(TableName=TABLE, Item={
            **key("p1"), "m": {"M": {"a": {"N": "1"}, "b": {"N": "2"}}},
            "l": {"L": [{"S": "x"}, {"S": "y"}, {"S": "z"}]}})
        got = self.client.get_item(TableName=TABLE, Key=key("p1"),
                                   ProjectionExpression="m.b, l[2]")
        self.assertEqual(got["Item"], {"m": {"M": {"b": {"N": "2"}}},
                                       "l": {"L": [{"S": "z"}]}})
        got = self.client.get_item(TableName=TABLE, Key=key("p1"),
                                   AttributesToGet=["pk"])
        self.assertEqual(got["Item"], key("p1"))

    def test_consumed_capacity(self):
        out = self.client.put_item(TableName=TABLE, Item=key("cap"),
                                   ReturnConsumedCapacity="TOTAL")
        self.assertEqual(out["ConsumedCapacity"],
                         {"TableName": TABLE, "CapacityUnits": 1.0})
        out = self.client.get_item(TableName=TABLE, Key=key("cap"),
                                   ReturnConsumedCapacity="TOTAL")
        self.assertEqual(out["ConsumedCapacity"]["CapacityUnits"], 0.5)

    def test_concurrent_conditional_increments(self):
        self.client.put_item(TableName=TABLE,
                             Item={**key("ctr"), "c": {"N": "0"}})
        successes = []
        errors = []

        def work():
            client = server.boto3_client()
            done = 0
            try:
                while done < 15:
                    seen = client.get_item(TableName=TABLE, Key=key("ctr"),
                                           ConsistentRead=True)["Item"]["c"]
                    try:
                        client.update_item(
                            TableName=TABLE, Key=key("ctr"),
                            UpdateExpression="SET c = c + :one",
                            ConditionExpression="c = :seen",
                            ExpressionAttributeValues={":one": {"N": "1"},
                                                       ":seen": seen})
                        done += 1
                        successes.append(1)
                    except ClientError as e:
                        code = e.response["Error"]["Code"]
                        if code != "ConditionalCheckFailedException":
                            raise
            except Exception as e:  # noqa: BLE001 - reported below
                errors.append(repr(e))

        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        self.assertEqual(errors, [])
        self.assertEqual(self.get("ctr")["c"], {"N": str(len(successes))})
        self.assertEqual(len(successes), 60)


if __name__ == "__main__":
    unittest.main()
