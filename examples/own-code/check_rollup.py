"""The rollup's invariant: each customer's rollup holds exactly the bytes and
the number of the transfers recorded for that customer.

    python3 check_rollup.py

Exit 0 when every rollup matches the `transfers` table; otherwise exit 1
with the problem on the first line (ddblab run shows it as the violation).
"""
import os
import sys

import boto3


def scan(ddb, table):
    items, start = [], {}
    while True:
        page = ddb.scan(TableName=table, ConsistentRead=True, **start)
        items += page["Items"]
        if "LastEvaluatedKey" not in page:
            return items
        start = {"ExclusiveStartKey": page["LastEvaluatedKey"]}


def main():
    ddb = boto3.client("dynamodb", endpoint_url=os.environ["DDBLAB_ENDPOINT"])
    want = {}
    for t in scan(ddb, "transfers"):
        b, n = want.get(t["customer"]["S"], (0, 0))
        want[t["customer"]["S"]] = (b + int(t["bytes"]["N"]), n + 1)
    got = {r["customer"]["S"]: (int(r["bytes"]["N"]), int(r["transfers"]["N"]))
           for r in scan(ddb, "rollups")}
    for customer in sorted(set(want) | set(got)):
        w, g = want.get(customer, (0, 0)), got.get(customer, (0, 0))
        if w != g:
            print(f"rollup {customer}: {g[0]} bytes from {g[1]} transfers, "
                  f"expected {w[0]} from {w[1]} (a batch counted twice?)")
            sys.exit(1)


if __name__ == "__main__":
    main()
