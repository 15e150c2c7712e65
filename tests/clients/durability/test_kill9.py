"""Crash durability: every acknowledged PutItem survives `kill -9`.

Starts `ddblab serve --db FILE`, runs writers that record each PutItem the
server acknowledged (HTTP 200), kills the server with SIGKILL mid-load,
restarts it on the same file and checks every acknowledged item is there
with the acknowledged value. Item i of writer w is written with a random
size, so writes cross SQLite page boundaries.
"""
import os
import random
import shutil
import tempfile
import threading
import unittest

from botocore.exceptions import BotoCoreError, ClientError

from ddblab_server import DdblabServer

TABLE = "durable"
WRITERS = 4
ACKED_BEFORE_KILL = 1500


class Kill9Test(unittest.TestCase):
    def test_acknowledged_writes_survive_kill9(self):
        directory = tempfile.mkdtemp(prefix="ddblab-kill9-")
        db = os.path.join(directory, "ddblab.db")
        seed = int(os.environ.get("DDBLAB_SEED", "20240101"))
        print(f"kill9: seed {seed}, db {db}")

        server = DdblabServer.start(["--db", db])
        client = server.boto3_client()
        client.create_table(
            TableName=TABLE,
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "pk",
                                   "AttributeType": "S"}],
            BillingMode="PAY_PER_REQUEST")

        acked = {}
        lock = threading.Lock()
        enough = threading.Event()
        stop = threading.Event()

        def writer(w):
            rng = random.Random(seed * 100 + w)
            own = server.boto3_client()
            i = 0
            while not stop.is_set():
                key = f"w{w}-{i}"
                value = f"{i}:" + "x" * rng.randrange(0, 3000)
                try:
                    own.put_item(TableName=TABLE,
                                 Item={"pk": {"S": key}, "v": {"S": value}})
                except (BotoCoreError, ClientError):
                    return  # the server is gone: this write was not acked
                with lock:
                    acked[key] = value
                    if len(acked) >= ACKED_BEFORE_KILL:
                        enough.set()
                i += 1

        threads = [threading.Thread(target=writer, args=(w,))
                   for w in range(WRITERS)]
        for t in threads:
            t.start()
        self.assertTrue(enough.wait(120), "writers made no progress")
        server.kill9()  # mid-load: writers are still sending
        stop.set()
        for t in threads:
            t.join(60)
        print(f"kill9: {len(acked)} acknowledged writes before SIGKILL")

        restarted = DdblabServer.start(["--db", db])
        try:
            check = restarted.boto3_client()
            missing = []
            for key, value in sorted(acked.items()):
                got = check.get_item(TableName=TABLE,
                                     Key={"pk": {"S": key}},
                                     ConsistentRead=True).get("Item")
                if got is None or got["v"]["S"] != value:
                    missing.append(key)
            self.assertEqual(missing, [], f"{len(missing)} acknowledged "
                             f"writes lost or changed (seed {seed})")
        finally:
            self.assertEqual(restarted.stop(), 0)
        shutil.rmtree(directory)  # kept for inspection when the test fails


if __name__ == "__main__":
    unittest.main()
