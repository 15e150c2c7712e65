"""A hit counter, written as a service would: read, add one, write back.

    python3 counter.py naive|versioned INCREMENTS

naive:     GetItem, add 1, PutItem. Two workers that read the same value
           both write value + 1: one increment is lost.
versioned: the same, but the PutItem is conditional on the version read
           ("attribute_not_exists(id) OR v = :v"); a
           ConditionalCheckFailedException means another worker wrote in
           between: read again and retry.

Run under `ddblab run`, which gives the endpoint and a key per worker in
the environment. Debian's boto3 reads no endpoint variable, hence
endpoint_url=DDBLAB_ENDPOINT.
"""
import os
import sys

import boto3

TABLE = "counters"
KEY = {"id": {"S": "hits"}}


def increment_naive(ddb):
    item = ddb.get_item(TableName=TABLE, Key=KEY, ConsistentRead=True).get("Item")
    n = int(item["n"]["N"]) if item else 0
    ddb.put_item(TableName=TABLE, Item={**KEY, "n": {"N": str(n + 1)}})


def increment_versioned(ddb):
    while True:
        item = ddb.get_item(TableName=TABLE, Key=KEY, ConsistentRead=True).get("Item")
        n = int(item["n"]["N"]) if item else 0
        v = int(item["v"]["N"]) if item else 0
        try:
            ddb.put_item(
                TableName=TABLE,
                Item={**KEY, "n": {"N": str(n + 1)}, "v": {"N": str(v + 1)}},
                ConditionExpression="attribute_not_exists(id) OR v = :v",
                ExpressionAttributeValues={":v": {"N": str(v)}},
            )
            return
        except ddb.exceptions.ConditionalCheckFailedException:
            continue  # someone wrote since our read: read again


def main():
    mode, increments = sys.argv[1], int(sys.argv[2])
    ddb = boto3.client("dynamodb", endpoint_url=os.environ["DDBLAB_ENDPOINT"])
    increment = increment_naive if mode == "naive" else increment_versioned
    for _ in range(increments):
        increment(ddb)


if __name__ == "__main__":
    main()
