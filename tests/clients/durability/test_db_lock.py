"""One server per database file: a second `ddblab serve --db FILE` on a
file another server holds exits with status 3 and says why, while the first
keeps serving; the file opens again once the first has stopped (SIGTERM)
or died (kill -9: the kernel drops the lock).
"""
import os
import shutil
import subprocess
import tempfile
import unittest

from ddblab_server import DdblabServer, ddblab_bin

TABLE = "locked"


def serve_second(db):
    """Runs a second server on db; a hang fails the test (timeout)."""
    return subprocess.run([ddblab_bin(), "serve", "--port", "0", "--db", db],
                          capture_output=True, text=True, timeout=10)


class DbLockTest(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.mkdtemp(prefix="ddblab-dblock-")
        self.db = os.path.join(self.directory, "ddblab.db")
        self.addCleanup(shutil.rmtree, self.directory, True)

    def start(self):
        server = DdblabServer.start(["--db", self.db])
        self.addCleanup(lambda: server.process.poll() is None
                        and server.kill9())
        return server

    def value_of(self, server, key):
        item = server.boto3_client().get_item(
            TableName=TABLE, Key={"pk": {"S": key}}).get("Item")
        return item and item["v"]["S"]

    def test_second_server_on_the_file_exits_3_and_the_first_serves(self):
        first = self.start()
        client = first.boto3_client()
        client.create_table(
            TableName=TABLE,
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "pk",
                                   "AttributeType": "S"}],
            BillingMode="PAY_PER_REQUEST")
        client.put_item(TableName=TABLE,
                        Item={"pk": {"S": "a"}, "v": {"S": "before"}})

        link = os.path.join(self.directory, "link.db")
        os.symlink(self.db, link)
        for path in (self.db, link):
            second = serve_second(path)
            self.assertEqual(second.returncode, 3, second.stderr)
            self.assertEqual(
                second.stderr,
                f"ddblab: cannot open database {path}: database {path} is in "
                f"use by another ddblab process (pid {first.process.pid}): "
                "one server per database file; stop it or use another "
                "database file\n")
            self.assertEqual(second.stdout, "")

        client.put_item(TableName=TABLE,
                        Item={"pk": {"S": "b"}, "v": {"S": "after"}})
        self.assertEqual(self.value_of(first, "a"), "before")
        self.assertEqual(self.value_of(first, "b"), "after")
        self.assertEqual(first.stop(), 0, first.stderr_text())

        # Stopped: the file opens again, with the data.
        restarted = self.start()
        self.assertEqual(self.value_of(restarted, "b"), "after")
        restarted.boto3_client().put_item(
            TableName=TABLE, Item={"pk": {"S": "c"}, "v": {"S": "kept"}})
        self.assertEqual(serve_second(self.db).returncode, 3)

        # Killed: the kernel releases the lock with the process.
        restarted.kill9()
        last = self.start()
        self.assertEqual(self.value_of(last, "c"), "kept")
        self.assertEqual(last.stop(), 0, last.stderr_text())


if __name__ == "__main__":
    unittest.main()
