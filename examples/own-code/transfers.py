"""Records file transfers, written as a service would: one PutItem per
transfer into the `transfers` table, whose stream feeds the rollup.

    python3 transfers.py WORKER COUNT

Worker n records transfers wn-1 .. wn-COUNT; transfer i moves 100 * i bytes
for customer alice (odd i) or bob (even i).
"""
import os
import sys

import boto3


def main():
    worker, count = sys.argv[1], int(sys.argv[2])
    ddb = boto3.client("dynamodb", endpoint_url=os.environ["DDBLAB_ENDPOINT"])
    for i in range(1, count + 1):
        ddb.put_item(TableName="transfers", Item={
            "id": {"S": f"w{worker}-{i}"},
            "customer": {"S": "alice" if i % 2 else "bob"},
            "bytes": {"N": str(100 * i)},
        })


if __name__ == "__main__":
    main()
