"""bench/own_code.py's actor: a read-modify-write of its own item, 5 times
(5 GetItem + 5 PutItem = 10 requests), with boto3's default retries."""
import os

import boto3

ddb = boto3.client("dynamodb", endpoint_url=os.environ["DDBLAB_ENDPOINT"])
key = {"id": {"S": os.environ["DDBLAB_ACTOR"]}}
for _ in range(5):
    item = ddb.get_item(TableName="bench", Key=key, ConsistentRead=True).get("Item")
    n = int(item["n"]["N"]) if item else 0
    ddb.put_item(TableName="bench", Item={**key, "n": {"N": str(n + 1)}})
