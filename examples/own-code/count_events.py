"""Counts the events a worker handles, written as a service would: one
UpdateItem per event, boto3's default retries.

    python3 count_events.py naive|idempotent WORKER

Worker n handles events n-1, n-2, n-3. An answer lost on the way back (the
scenario's lost_response fault) makes boto3 send the same UpdateItem again.

naive:      ADD handled :one. The retry adds the event a second time.
idempotent: ADD handled :one, seen :ids only if the event is not in `seen`
            ("NOT contains(seen, :id)"); a ConditionalCheckFailedException
            means the event was counted already (by our first attempt).
"""
import os
import sys

import boto3

TABLE = "stats"
KEY = {"id": {"S": "events"}}


def count_naive(ddb, event):
    ddb.update_item(TableName=TABLE, Key=KEY,
                    UpdateExpression="ADD handled :one",
                    ExpressionAttributeValues={":one": {"N": "1"}})


def count_idempotent(ddb, event):
    try:
        ddb.update_item(TableName=TABLE, Key=KEY,
                        UpdateExpression="ADD handled :one, seen :ids",
                        ConditionExpression="NOT contains(seen, :id)",
                        ExpressionAttributeValues={":one": {"N": "1"},
                                                   ":ids": {"SS": [event]},
                                                   ":id": {"S": event}})
    except ddb.exceptions.ConditionalCheckFailedException:
        pass  # counted already


def main():
    mode, worker = sys.argv[1], sys.argv[2]
    ddb = boto3.client("dynamodb", endpoint_url=os.environ["DDBLAB_ENDPOINT"])
    count = count_naive if mode == "naive" else count_idempotent
    for i in (1, 2, 3):
        count(ddb, f"{worker}-{i}")


if __name__ == "__main__":
    main()
