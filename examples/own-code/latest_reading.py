"""Keeps a sensor's latest reading, written as a service would: each worker
relays readings that carry the device's own timestamp and stores the reading.

    python3 latest_reading.py naive|conditional WORKER

Worker n relays the readings taken at t = n, n + 2, n + 4 (two workers: 1..6
between them, interleaved), in its own order. The item must end with the
newest reading, t = 6.

naive:       a plain PutItem: the last write wins, not the newest reading.
conditional: the PutItem only replaces an older reading
             ("attribute_not_exists(ts) OR :ts >= ts"); a
             ConditionalCheckFailedException means a newer reading is
             already stored: drop this one.
"""
import os
import sys

import boto3

TABLE = "sensors"


def main():
    mode, worker = sys.argv[1], int(sys.argv[2])
    ddb = boto3.client("dynamodb", endpoint_url=os.environ["DDBLAB_ENDPOINT"])
    for ts in (worker, worker + 2, worker + 4):
        item = {"id": {"S": "s1"}, "ts": {"N": str(ts)},
                "temp": {"N": str(20 + ts)}}
        if mode == "naive":
            ddb.put_item(TableName=TABLE, Item=item)
            continue
        try:
            ddb.put_item(TableName=TABLE, Item=item,
                         ConditionExpression="attribute_not_exists(ts) OR :ts >= ts",
                         ExpressionAttributeValues={":ts": {"N": str(ts)}})
        except ddb.exceptions.ConditionalCheckFailedException:
            pass  # a newer reading is stored already


if __name__ == "__main__":
    main()
