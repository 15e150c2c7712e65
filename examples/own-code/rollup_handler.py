"""A Lambda handler on the `transfers` table's stream: it rolls the bytes of
each new transfer up into its customer's item in `rollups`.

    python3 rollup_handler.py naive|dedupe      (the event on stdin)

This is the handler as deployed (`handler(event, context)`); the lines at
the bottom run it as ddblab's Command function: the event on stdin, the
answer on stdout. Lambda delivers a batch again when an invocation fails,
including the records the failed invocation had already handled.

naive:  ADD bytes, transfers to the customer's rollup. A batch delivered
        again counts its first records twice.
dedupe: each record in one transaction with a marker item keyed by the
        record's eventID (the same on every delivery), put only if absent
        (attribute_not_exists). A cancelled transaction whose marker
        condition failed means the record was counted already.
"""
import json
import os
import sys

import boto3

ddb = boto3.client("dynamodb", endpoint_url=os.environ["DDBLAB_ENDPOINT"])


def add(image):
    return {
        "TableName": "rollups",
        "Key": {"customer": image["customer"]},
        "UpdateExpression": "ADD bytes :b, transfers :one",
        "ExpressionAttributeValues": {":b": image["bytes"],
                                      ":one": {"N": "1"}},
    }


def count_naive(record):
    ddb.update_item(**add(record["dynamodb"]["NewImage"]))


def count_dedupe(record):
    marker = {
        "TableName": "processed",
        "Item": {"eventID": {"S": record["eventID"]}},
        "ConditionExpression": "attribute_not_exists(eventID)",
    }
    try:
        ddb.transact_write_items(TransactItems=[
            {"Put": marker}, {"Update": add(record["dynamodb"]["NewImage"])}])
    except ddb.exceptions.TransactionCanceledException as e:
        reasons = e.response.get("CancellationReasons", [])
        if not reasons or reasons[0].get("Code") != "ConditionalCheckFailed":
            raise
        # counted already, by an earlier delivery of this batch


def handler(event, context):
    count = count_naive if sys.argv[1] == "naive" else count_dedupe
    for record in event["Records"]:
        if record["eventName"] == "INSERT":
            count(record)
    return None


if __name__ == "__main__":
    print(json.dumps(handler(json.load(sys.stdin), None)))
