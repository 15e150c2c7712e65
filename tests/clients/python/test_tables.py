"""Table operations through boto3: CreateTable, DescribeTable, ListTables,
DeleteTable, and their errors."""
import re
import unittest

from botocore.exceptions import ClientError

from ddb_client import BotoModule, ClientTest, table_spec

server = BotoModule()
setUpModule, tearDownModule = server.start, server.stop


def create_table(client, name, sort_key=False):
    return client.create_table(
        **table_spec(name, sk=("sk", "N") if sort_key else None))


class TablesTest(ClientTest, unittest.TestCase):
    server = server

    def assertClientError(self, call, code, message):
        with self.assertRaises(ClientError) as caught:
            call()
        self.assertEqual(caught.exception.response["Error"]["Code"], code)
        self.assertEqual(caught.exception.response["Error"]["Message"],
                         message)

    def test_create_describe_list_delete(self):
        created = create_table(self.client, "tables_lifecycle",
                               sort_key=True)["TableDescription"]
        self.assertEqual(created["TableName"], "tables_lifecycle")
        self.assertEqual(
            created["TableArn"],
            "arn:aws:dynamodb:us-east-1:000000000000:table/tables_lifecycle")
        self.assertEqual(created["KeySchema"],
                         [{"AttributeName": "pk", "KeyType": "HASH"},
                          {"AttributeName": "sk", "KeyType": "RANGE"}])

        table = self.client.describe_table(
            TableName="tables_lifecycle")["Table"]
        self.assertEqual(table["TableStatus"], "ACTIVE")
        self.assertEqual(table["BillingModeSummary"]["BillingMode"],
                         "PAY_PER_REQUEST")
        self.assertEqual(table["ItemCount"], 0)

        self.assertIn("tables_lifecycle",
                      self.client.list_tables()["TableNames"])

        deleted = self.client.delete_table(
            TableName="tables_lifecycle")["TableDescription"]
        self.assertEqual(deleted["TableName"], "tables_lifecycle")
        self.assertEqual(deleted["TableStatus"], "DELETING")
        for absent in ("CreationDateTime", "KeySchema",
                       "AttributeDefinitions"):
            self.assertNotIn(absent, deleted)
        self.assertNotIn("tables_lifecycle",
                         self.client.list_tables()["TableNames"])

    def test_list_tables_is_sorted_and_paginates(self):
        names = [f"tables_page_{i}" for i in range(5)]
        for name in reversed(names):
            create_table(self.client, name)
        page = self.client.list_tables(ExclusiveStartTableName="tables_page_",
                                       Limit=2)
        self.assertEqual(page["TableNames"], names[:2])
        self.assertEqual(page["LastEvaluatedTableName"], names[1])
        paginator = self.client.get_paginator("list_tables")
        listed = [n for p in paginator.paginate(PaginationConfig={
            "PageSize": 2}) for n in p["TableNames"]]
        self.assertEqual(listed, sorted(listed))
        for name in names:
            self.assertIn(name, listed)
            self.client.delete_table(TableName=name)

    def test_describe_missing_table(self):
        self.assertClientError(
            lambda: self.client.describe_table(TableName="tables_nope"),
            "ResourceNotFoundException",
            "Requested resource not found: Table: tables_nope not found")

    def test_delete_missing_table(self):
        self.assertClientError(
            lambda: self.client.delete_table(TableName="tables_nope"),
            "ResourceNotFoundException",
            "Requested resource not found: Table: tables_nope not found")

    def test_create_existing_table(self):
        create_table(self.client, "tables_twice")
        self.assertClientError(
            lambda: create_table(self.client, "tables_twice"),
            "ResourceInUseException", "Table already exists: tables_twice")
        self.client.delete_table(TableName="tables_twice")

    def test_validation_error_envelope(self):
        with self.assertRaises(ClientError) as caught:
            create_table(self.client, "bad name!")
        error = caught.exception.response["Error"]
        self.assertEqual(error["Code"], "ValidationException")
        self.assertRegex(error["Message"],
                         r"^1 validation error detected: Value 'bad name!' "
                         r"at 'tableName' failed to satisfy constraint: ")

    def test_response_metadata(self):
        response = self.client.list_tables()
        meta = response["ResponseMetadata"]
        self.assertEqual(meta["HTTPStatusCode"], 200)
        self.assertRegex(meta["RequestId"], re.compile(r"^[A-Z0-9]{52}$"))
        headers = meta["HTTPHeaders"]
        self.assertEqual(headers["content-type"],
                         "application/x-amz-json-1.0")
        self.assertIn("x-amz-crc32", headers)  # botocore checked it


if __name__ == "__main__":
    unittest.main()
