"""DynamoDB's answers where ddblab used to differ: continuous backups,
ListTagsOfResource on a missing table, attribute name limits, PartiQL
nested projections, Scan's consumed capacity, and request-shape messages
byte for byte. Shapes boto3 refuses to send go as raw signed requests.
"""
import json
import unittest

from ddb_client import BotoModule, ClientTest, key, table_spec
from wire import post

server = BotoModule(tables=[table_spec("fid"), table_spec("fid_scan")])
setUpModule, tearDownModule = server.start, server.stop

ARN = "arn:aws:dynamodb:us-east-1:000000000000:table/"


def raw(target, body):
    """A signed request built by hand: (status, parsed body)."""
    status, _, data = post(server.endpoint, "DynamoDB_20120810." + target,
                           json.dumps(body))
    return status, json.loads(data)


class ContinuousBackupsTest(ClientTest, unittest.TestCase):
    server = server

    def test_describe_update_and_errors(self):
        off = self.client.describe_continuous_backups(TableName="fid")
        self.assertEqual(off["ContinuousBackupsDescription"], {
            "ContinuousBackupsStatus": "ENABLED",
            "PointInTimeRecoveryDescription": {
                "PointInTimeRecoveryStatus": "DISABLED"}})
        on = self.client.update_continuous_backups(
            TableName="fid",
            PointInTimeRecoverySpecification={
                "PointInTimeRecoveryEnabled": True})
        pitr = on["ContinuousBackupsDescription"][
            "PointInTimeRecoveryDescription"]
        self.assertEqual(pitr["PointInTimeRecoveryStatus"], "ENABLED")
        # (Debian's botocore 1.29 predates RecoveryPeriodInDays and drops
        # it; the engine test checks it.)
        self.assertIn("EarliestRestorableDateTime", pitr)
        self.assertIn("LatestRestorableDateTime", pitr)
        # Kept: DescribeContinuousBackups (by ARN too) sees it.
        again = self.client.describe_continuous_backups(TableName=ARN + "fid")
        self.assertEqual(
            again["ContinuousBackupsDescription"][
                "PointInTimeRecoveryDescription"]["PointInTimeRecoveryStatus"],
            "ENABLED")
        self.client.update_continuous_backups(
            TableName="fid",
            PointInTimeRecoverySpecification={
                "PointInTimeRecoveryEnabled": False})
        self.assertEqual(
            self.error(self.client.describe_continuous_backups,
                       TableName="nope"),
            ("TableNotFoundException", "Table not found: nope"))
        self.assertEqual(
            self.error(self.client.update_continuous_backups,
                       TableName="nope",
                       PointInTimeRecoverySpecification={
                           "PointInTimeRecoveryEnabled": True}),
            ("TableNotFoundException", "Table not found: nope"))
        status, body = raw("DescribeContinuousBackups", {})
        self.assertEqual(status, 400)
        self.assertEqual(body["__type"],
                         "com.amazon.coral.validate#ValidationException")
        self.assertEqual(
            body["message"],
            "1 validation error detected: Value null at 'tableName' failed "
            "to satisfy constraint: Member must not be null")


class TablesAndTagsTest(ClientTest, unittest.TestCase):
    server = server

    def test_list_tags_of_a_missing_table_is_access_denied(self):
        arn = ARN + "missing_table"
        self.assertEqual(
            self.error(self.client.list_tags_of_resource, ResourceArn=arn),
            ("AccessDeniedException",
             "User: arn:aws:iam::000000000000:root is not authorized to "
             "perform: dynamodb:ListTagsOfResource on resource: " + arn))

    def test_key_schema_of_three_elements(self):
        status, body = raw("CreateTable", {
            "TableName": "three", "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [
                {"AttributeName": n, "AttributeType": "S"}
                for n in ("pk", "sk", "extra")],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                          {"AttributeName": "sk", "KeyType": "RANGE"},
                          {"AttributeName": "extra", "KeyType": "RANGE"}]})
        self.assertEqual(status, 400)
        self.assertEqual(
            body["message"],
            "1 validation error detected: Value "
            "'[KeySchemaElement(attributeName=pk, keyType=HASH), "
            "KeySchemaElement(attributeName=sk, keyType=RANGE), "
            "KeySchemaElement(attributeName=extra, keyType=RANGE)]' at "
            "'keySchema' failed to satisfy constraint: Member must have "
            "length less than or equal to 2")
        self.assertNotIn("three", self.client.list_tables()["TableNames"])


class AttributeNamesTest(ClientTest, unittest.TestCase):
    server = server

    TOO_LARGE = ("1 validation error detected: Attribute name is too large, "
                 "must be less than 65536 bytes")

    def test_longest_name_is_stored(self):
        name = "n" * 65535
        self.client.put_item(TableName="fid",
                             Item={**key("long"), name: {"S": "v"}})
        self.assertEqual(self.get_item("fid", key("long"))[name], {"S": "v"})

    def test_too_long_and_empty_names_are_refused(self):
        cases = [
            ({**key("bad1"), "n" * 65536: {"S": "v"}}, self.TOO_LARGE),
            ({**key("bad2"), "m": {"M": {"n" * 65536: {"S": "v"}}}},
             self.TOO_LARGE),
            ({**key("bad3"), "": {"S": "v"}},
             "1 validation error detected: Empty attribute name"),
        ]
        for item, message in cases:
            self.assertEqual(
                self.error(self.client.put_item, TableName="fid", Item=item),
                ("ValidationException", message))
            self.assertIsNone(self.get_item("fid", {"pk": item["pk"]}))
        self.client.put_item(TableName="fid", Item=key("upd"))
        self.assertEqual(
            self.error(self.client.update_item, TableName="fid",
                       Key=key("upd"), UpdateExpression="SET #n = :v",
                       ExpressionAttributeNames={"#n": "n" * 65536},
                       ExpressionAttributeValues={":v": {"S": "v"}}),
            ("ValidationException", self.TOO_LARGE))
        self.assertEqual(
            self.error(self.client.update_item, TableName="fid",
                       Key=key("upd"), UpdateExpression="SET #n = :v",
                       ExpressionAttributeNames={"#n": ""},
                       ExpressionAttributeValues={":v": {"S": "v"}}),
            ("ValidationException",
             "ExpressionAttributeNames contains invalid value: Empty "
             "attribute name for key #n"))
        self.assertEqual(self.get_item("fid", key("upd")), key("upd"))


class PartiqlProjectionTest(ClientTest, unittest.TestCase):
    server = server

    def test_nested_path_is_its_own_attribute(self):
        self.client.put_item(TableName="fid", Item={
            **key("nest"),
            "mymap": {"M": {"nested": {"S": "v"}, "other": {"N": "1"}}}})
        items = self.client.execute_statement(
            Statement="SELECT mymap.nested FROM fid WHERE pk = 'nest'")
        self.assertEqual(items["Items"], [{"nested": {"S": "v"}}])


class ScanCapacityTest(ClientTest, unittest.TestCase):
    server = server

    def test_scan_of_one_tiny_item(self):
        self.client.put_item(TableName="fid_scan", Item=key("tiny"))
        for consistent, units in ((True, 4.0), (False, 2.0)):
            out = self.client.scan(TableName="fid_scan",
                                   ConsistentRead=consistent,
                                   ReturnConsumedCapacity="TOTAL")
            self.assertEqual(out["Count"], 1)
            self.assertEqual(out["ConsumedCapacity"],
                             {"TableName": "fid_scan",
                              "CapacityUnits": units})


class MessagesTest(ClientTest, unittest.TestCase):
    server = server

    def assertValidation(self, target, body, message):
        status, answer = raw(target, body)
        self.assertEqual(status, 400, answer)
        self.assertEqual(answer["__type"],
                         "com.amazon.coral.validate#ValidationException")
        self.assertEqual(answer["message"], message)

    def test_request_shape_messages(self):
        self.assertValidation(
            "BatchGetItem", {"RequestItems": {}},
            "The requestItems parameter is required for BatchGetItem")
        self.assertValidation(
            "BatchWriteItem", {"RequestItems": {}},
            "The requestItems parameter is required for BatchWriteItem")
        self.assertValidation(
            "BatchGetItem",
            {"RequestItems": {"fid": {"Keys": [key("k%d" % i)
                                               for i in range(101)]}}},
            "1 validation error detected: Value at "
            "'RequestItems.fid.member.Keys' failed to satisfy constraint: "
            "Member must have length less than or equal to 100")
        self.assertValidation(
            "PutItem", {"Item": key("x")},
            "1 validation error detected: Value null at 'tableName' failed "
            "to satisfy constraint: Member must not be null")
        self.assertValidation(
            "PutItem", {"TableName": "", "Item": key("x")},
            "1 validation error detected: Value '' at 'tableName' failed to "
            "satisfy constraint: Member must have length greater than or "
            "equal to 1")
        self.assertValidation(
            "Query", {"TableName": "fid", "Limit": 0,
                      "KeyConditionExpression": "pk = :v",
                      "ExpressionAttributeValues": {":v": {"S": "x"}}},
            "1 validation error detected: Value at 'Limit' failed to "
            "satisfy constraint: Member must have value greater than or "
            "equal to 1")
        self.assertIsNone(self.get_item("fid", key("x")))


if __name__ == "__main__":
    unittest.main()
