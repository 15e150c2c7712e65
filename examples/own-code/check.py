"""The counter's invariant: it equals the increments the workers made.

    python3 check.py EXPECTED

Exit 0 when the counter is EXPECTED; otherwise exit 1 with the problem on
the first line (ddblab run shows it as the violation).
"""
import os
import sys

import boto3


def main():
    expected = int(sys.argv[1])
    ddb = boto3.client("dynamodb", endpoint_url=os.environ["DDBLAB_ENDPOINT"])
    item = ddb.get_item(
        TableName="counters", Key={"id": {"S": "hits"}}, ConsistentRead=True
    ).get("Item")
    n = int(item["n"]["N"]) if item else 0
    if n != expected:
        print(f"counter hits is {n}, expected {expected}: "
              f"{expected - n} increment(s) lost")
        sys.exit(1)


if __name__ == "__main__":
    main()
