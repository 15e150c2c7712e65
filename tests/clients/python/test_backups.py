"""On-demand backups through boto3 against `ddblab serve`: CreateBackup,
DescribeBackup, ListBackups, DeleteBackup, RestoreTableFromBackup, and
their error names and texts on the wire.
"""
import re
import unittest

from ddb_client import BotoModule, ClientTest, index, key, table_spec

server = BotoModule(tables=[table_spec(
    "bk_src", attributes=[("g", "S")],
    GlobalSecondaryIndexes=[index("byG", "g", projection="ALL")])])
setUpModule, tearDownModule = server.start, server.stop

ARN = "arn:aws:dynamodb:us-east-1:000000000000:table/"


class BackupsTest(ClientTest, unittest.TestCase):
    server = server

    def test_backup_restore_and_errors(self):
        for pk in ("a", "b"):
            self.client.put_item(TableName="bk_src",
                                 Item={"pk": {"S": pk}, "g": {"S": "x"}})
        details = self.client.create_backup(
            TableName="bk_src", BackupName="nightly")["BackupDetails"]
        arn = details["BackupArn"]
        self.assertRegex(arn, "^" + re.escape(ARN) +
                         r"bk_src/backup/[0-9]{13}-[0-9a-f]{8}$")
        self.assertEqual((details["BackupName"], details["BackupStatus"],
                          details["BackupType"]),
                         ("nightly", "AVAILABLE", "USER"))

        described = self.client.describe_backup(
            BackupArn=arn)["BackupDescription"]
        self.assertEqual(described["SourceTableDetails"]["ItemCount"], 2)
        self.assertEqual(
            [i["IndexName"] for i in described["SourceTableFeatureDetails"][
                "GlobalSecondaryIndexes"]], ["byG"])
        listed = self.client.list_backups(TableName="bk_src")
        self.assertEqual([s["BackupArn"] for s in listed["BackupSummaries"]],
                         [arn])

        restored = self.client.restore_table_from_backup(
            TargetTableName="bk_dst", BackupArn=arn)["TableDescription"]
        self.assertEqual(restored["RestoreSummary"]["SourceBackupArn"], arn)
        self.assertEqual(
            self.client.get_item(TableName="bk_dst", Key=key("a"))["Item"],
            {"pk": {"S": "a"}, "g": {"S": "x"}})
        self.assertEqual(self.client.query(
            TableName="bk_dst", IndexName="byG",
            KeyConditionExpression="g = :g",
            ExpressionAttributeValues={":g": {"S": "x"}})["Count"], 2)

        self.assertEqual(
            self.error(self.client.restore_table_from_backup,
                       TargetTableName="bk_dst", BackupArn=arn),
            ("TableAlreadyExistsException", "Table already exists: bk_dst"))
        self.assertEqual(
            self.error(self.client.create_backup, TableName="nope",
                       BackupName="nightly"),
            ("TableNotFoundException", "Table not found: nope"))

        deleted = self.client.delete_backup(BackupArn=arn)
        self.assertEqual(
            deleted["BackupDescription"]["BackupDetails"]["BackupStatus"],
            "DELETED")
        self.assertEqual(
            self.error(self.client.describe_backup, BackupArn=arn),
            ("BackupNotFoundException", "Backup not found: " + arn))


if __name__ == "__main__":
    unittest.main()
