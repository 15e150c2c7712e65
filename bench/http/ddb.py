#!/usr/bin/env python3
"""Small DynamoDB JSON client for run.sh (stdlib only, dummy SigV4 header).

    ddb.py ENDPOINT wait                    poll ListTables until it answers;
                                            prints the epoch time (s) it did
    ddb.py ENDPOINT create TABLE [range]    create (pk S [, sk N]), wait ACTIVE
                                            (with a stream of view type
                                            $BENCH_STREAM if it is set)
    ddb.py ENDPOINT preload-get TABLE N     put g0..g(N-1)
    ddb.py ENDPOINT preload-query TABLE     put p0..p9 x sk 0..99
    ddb.py ENDPOINT describe TABLE          DescribeTable (fails if absent)
    ddb.py ENDPOINT count TABLE             Scan Select=COUNT (all pages)
    ddb.py ENDPOINT sum TABLE ATTR          Scan, sum of a number attribute
"""
import http.client
import json
import os
import sys
import time
import urllib.parse

AUTH = ("AWS4-HMAC-SHA256 Credential=dummy/20240101/us-east-1/dynamodb/"
        "aws4_request, SignedHeaders=host;x-amz-date, Signature=" + "0" * 64)
PAYLOAD = "x" * 180


class Client:
    def __init__(self, endpoint):
        url = urllib.parse.urlparse(endpoint)
        self.host, self.port = url.hostname, url.port
        self.conn = None

    def call(self, target, body, timeout=30):
        if self.conn is None:
            self.conn = http.client.HTTPConnection(self.host, self.port,
                                                   timeout=timeout)
        headers = {
            "Content-Type": "application/x-amz-json-1.0",
            "X-Amz-Target": "DynamoDB_20120810." + target,
            "X-Amz-Date": "20240101T000000Z",
            "Authorization": AUTH,
        }
        try:
            self.conn.request("POST", "/", json.dumps(body), headers)
            response = self.conn.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = None
            raise
        if response.status != 200:
            raise RuntimeError(f"{target}: {response.status} {data[:300]!r}")
        return json.loads(data)

    def batch_put(self, table, items):
        for i in range(0, len(items), 25):
            pending = {table: [{"PutRequest": {"Item": it}}
                               for it in items[i:i + 25]]}
            while pending:
                out = self.call("BatchWriteItem", {"RequestItems": pending})
                pending = out.get("UnprocessedItems") or {}

    def scan_all(self, table, extra):
        start = None
        while True:
            body = {"TableName": table, **extra}
            if start:
                body["ExclusiveStartKey"] = start
            out = self.call("Scan", body, timeout=120)
            yield out
            start = out.get("LastEvaluatedKey")
            if not start:
                return


def main(argv):
    client = Client(argv[1])
    command, args = argv[2], argv[3:]
    if command == "wait":
        began = time.monotonic()
        while True:
            try:
                client.call("ListTables", {}, timeout=1)
                break
            except (OSError, http.client.HTTPException):
                if time.monotonic() - began > 60:
                    raise
                time.sleep(0.002)
        print(f"{time.time():.6f}")
    elif command == "create":
        table = args[0]
        keys = [{"AttributeName": "pk", "KeyType": "HASH"}]
        attrs = [{"AttributeName": "pk", "AttributeType": "S"}]
        if len(args) > 1 and args[1] == "range":
            keys.append({"AttributeName": "sk", "KeyType": "RANGE"})
            attrs.append({"AttributeName": "sk", "AttributeType": "N"})
        request = {
            "TableName": table, "KeySchema": keys,
            "AttributeDefinitions": attrs, "BillingMode": "PAY_PER_REQUEST"}
        if os.environ.get("BENCH_STREAM"):
            request["StreamSpecification"] = {
                "StreamEnabled": True,
                "StreamViewType": os.environ["BENCH_STREAM"]}
        client.call("CreateTable", request)
        while client.call("DescribeTable", {"TableName": table})[
                "Table"]["TableStatus"] != "ACTIVE":
            time.sleep(0.05)
    elif command == "describe":
        client.call("DescribeTable", {"TableName": args[0]})
    elif command == "preload-get":
        client.batch_put(args[0], [
            {"pk": {"S": f"g{i}"}, "data": {"S": PAYLOAD}}
            for i in range(int(args[1]))])
    elif command == "preload-query":
        client.batch_put(args[0], [
            {"pk": {"S": f"p{p}"}, "sk": {"N": str(s)},
             "data": {"S": PAYLOAD}}
            for p in range(10) for s in range(100)])
    elif command == "count":
        print(sum(page["Count"] for page in
                  client.scan_all(args[0], {"Select": "COUNT"})))
    elif command == "sum":
        print(sum(int(item[args[1]]["N"])
                  for page in client.scan_all(args[0], {})
                  for item in page["Items"]))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
