#!/usr/bin/python3
"""The web console (/_ddblab/ui) in headless Chromium.

    DDBLAB_BIN=build/cli/ddblab /usr/bin/python3 tests/clients/ui/test_ui.py \
        [ARTIFACTS_DIR]

Starts `ddblab serve --clock manual --capacity enforce`, creates the tables (and a fault plan)
with boto3 and the control endpoints, checks the files' Content-Types and
that `--no-ui` answers 404, runs console.mjs (puppeteer-core
driving /usr/bin/chromium) and then reads back with boto3 what the page
wrote. Exit status: 0 passed, 1 failed, 77 skipped (no chromium, no node or
no tests/clients/ui/node_modules; `scripts/setup.sh` installs them).
"""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import urllib.error
import urllib.request

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import wire  # noqa: E402
from ddblab_server import (DdblabServer, control_headers,  # noqa: E402
                           control_token)

SKIP = 77
START = 1_700_000_000  # the manual clock's start, epoch seconds


def control(server, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(
        f"{server.endpoint}/_ddblab/{path}", data=data, method=method,
        headers=control_headers(server.endpoint))
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"{}")


def setup(server):
    ddb = server.boto3_client()
    ddb.create_table(
        TableName="Orders", BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "sk", "AttributeType": "S"},
                              {"AttributeName": "qty", "AttributeType": "N"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                   {"AttributeName": "sk", "KeyType": "RANGE"}],
        GlobalSecondaryIndexes=[{
            "IndexName": "ByQty",
            "KeySchema": [{"AttributeName": "qty", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"}}])
    # A provisioned table (1 WCU: 300 units of burst) for the capacity page;
    # the page itself writes to it and sees the throttle.
    ddb.create_table(
        TableName="Metered",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "g", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        ProvisionedThroughput={"ReadCapacityUnits": 5,
                               "WriteCapacityUnits": 1},
        GlobalSecondaryIndexes=[{
            "IndexName": "ByG",
            "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "KEYS_ONLY"},
            "ProvisionedThroughput": {"ReadCapacityUnits": 1,
                                      "WriteCapacityUnits": 5}}])
    # A table with a vector index (Debian's botocore predates them: the
    # request is made by hand).
    status, _, body = wire.post(
        server.endpoint, "DynamoDB_20120810.CreateTable", json.dumps({
            "TableName": "Docs", "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "pk",
                                      "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "VectorIndexes": [{
                "IndexName": "by_meaning",
                "VectorAttribute": {"AttributeName": "embedding"},
                "Dimensions": 3, "DistanceFunction": "COSINE",
                "Projection": {"ProjectionType": "ALL"}}]}).encode())
    if status != 200:
        raise RuntimeError(f"CreateTable Docs: {status} {body}")
    for name in ("Sessions", "Faulty"):
        ddb.create_table(
            TableName=name, BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": "pk",
                                   "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            StreamSpecification={"StreamEnabled": True,
                                 "StreamViewType": "NEW_AND_OLD_IMAGES"})
    # A GSI an hour behind its table (the consistency model): its one write
    # stays pending, which the Tables page shows.
    ddb.create_table(
        TableName="Lagging", BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "v", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        GlobalSecondaryIndexes=[{
            "IndexName": "ByV",
            "KeySchema": [{"AttributeName": "v", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "KEYS_ONLY"}}])
    control(server, "POST", "consistency",
            {"tables": {"Lagging": {"index_lag": "1h"}}})
    ddb.put_item(TableName="Lagging",
                 Item={"pk": {"S": "a"}, "v": {"S": "x"}})
    ddb.update_time_to_live(
        TableName="Sessions",
        TimeToLiveSpecification={"Enabled": True, "AttributeName": "expires"})
    # s1 falls due 60 s after the start, s2 much later.
    ddb.put_item(TableName="Sessions",
                 Item={"pk": {"S": "s1"}, "expires": {"N": str(START + 60)}})
    ddb.put_item(TableName="Sessions",
                 Item={"pk": {"S": "s2"},
                       "expires": {"N": str(START + 100_000)}})
    # A hosted mapping whose function always fails: with no retries its
    # batch is discarded on the first delivery (the page's clock advance)
    # and leaves an on-failure record.
    control(server, "POST", "event-source-mappings", {
        "TableName": "Sessions", "FunctionName": "always-fails",
        "StartingPosition": "TRIM_HORIZON", "MaximumRetryAttempts": 0,
        "Function": {"Command": ["sh", "-c", "cat >/dev/null; exit 1"]}})
    control(server, "POST", "faults", {"rules": [
        {"id": "scan-throttle", "operation": "Scan", "table": "Faulty",
         "effect": "throttle"}]})
    return ddb


def check_files(server):
    """The route's files and Content-Types (ui/ compiled into the binary)."""
    for path, want in (("ui", "text/html; charset=utf-8"),
                       ("ui/", "text/html; charset=utf-8"),
                       ("ui/console.js", "text/javascript; charset=utf-8"),
                       ("ui/capacity.js", "text/javascript; charset=utf-8"),
                       ("ui/sigv4.js", "text/javascript; charset=utf-8"),
                       ("ui/item_json.js", "text/javascript; charset=utf-8"),
                       ("ui/console.css", "text/css; charset=utf-8")):
        with urllib.request.urlopen(f"{server.endpoint}/_ddblab/{path}",
                                    timeout=10) as response:
            got = response.headers["Content-Type"]
            if response.status != 200 or got != want or not response.read():
                print(f"FAILED: /_ddblab/{path}: {response.status} {got}")
                return False
    return status_of(server, "ui/nope.js") == 404


def status_of(server, path):
    try:
        with urllib.request.urlopen(f"{server.endpoint}/_ddblab/{path}",
                                    timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as e:
        return e.code


def check_no_ui():
    server = DdblabServer.start(["--no-ui"])
    try:
        codes = [status_of(server, p) for p in ("ui", "ui/", "ui/console.js")]
        if codes != [404, 404, 404]:
            print(f"FAILED: --no-ui answered {codes}, want 404s")
            return False
        return True
    finally:
        server.stop()


def main():
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    node = shutil.which("node")
    if not os.access(chromium, os.X_OK) or not node:
        print(f"skipped: no chromium at {chromium} or no node")
        return SKIP
    if not (HERE / "node_modules" / "puppeteer-core").is_dir():
        print("skipped: tests/clients/ui/node_modules missing "
              "(run scripts/setup.sh)")
        return SKIP
    artifacts = pathlib.Path(sys.argv[1] if len(sys.argv) > 1
                             else "ui-screenshots").resolve()
    if not check_no_ui():
        return 1
    server = DdblabServer.start(["--clock", f"manual={START}",
                                 "--capacity", "enforce",
                                 "--allow-functions"])
    # A second server checks that the page signs with the keys entered,
    # and (a database per access key) that its namespace picker shows and
    # ?namespace= is signed too.
    verify = DdblabServer.start(["--auth", "verify", "--access-key-id",
                                 "AKIDVERIFY", "--secret-access-key",
                                 "verify/secret+key",
                                 "--namespace", "access-key"])
    # A third, with the control endpoints open to anyone (no token): a page
    # of another origin must still not reach them.
    open_server = DdblabServer.start(["--control", "open", "--no-ui",
                                      "--clock", f"manual={START}"])
    try:
        verify.boto3_client(access_key_id="AKIDVERIFY",
                            secret_access_key="verify/secret+key").create_table(
            TableName="Signed", BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": "pk",
                                   "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
        if not check_files(server):
            return 1
        ddb = setup(server)
        env = dict(os.environ, DDBLAB_ENDPOINT=server.endpoint,
                   DDBLAB_TOKEN=control_token(server.endpoint),
                   DDBLAB_VERIFY_ENDPOINT=verify.endpoint,
                   DDBLAB_VERIFY_TOKEN=control_token(verify.endpoint),
                   DDBLAB_OPEN_ENDPOINT=open_server.endpoint,
                   DDBLAB_ARTIFACTS=str(artifacts), CHROMIUM=chromium)
        status = subprocess.run([node, str(HERE / "console.mjs")], env=env,
                                timeout=120).returncode
        if status != 0:
            return 1
        # What the form wrote, read back with boto3.
        item = ddb.get_item(TableName="Orders",
                            Key={"pk": {"S": "o1"}, "sk": {"S": "a"}},
                            ConsistentRead=True).get("Item")
        want = {"pk": {"S": "o1"}, "sk": {"S": "a"}, "qty": {"N": "3"},
                "note": {"S": "from the form"}}
        if item != want:
            print(f"FAILED: the form's item read back as {item}, want {want}")
            return 1
        # The plain-JSON put as edited in the page (qty 9 -> 10), the item
        # deleted in the page gone, nothing from the refused and failed puts.
        plain = {"pk": {"S": "o9"}, "sk": {"S": "z"}, "qty": {"N": "10"}}
        items = sorted(ddb.scan(TableName="Orders")["Items"],
                       key=lambda i: i["pk"]["S"])
        if items != [want, plain]:
            print(f"FAILED: Orders holds {items}, want only {[want, plain]}")
            return 1
        print("ok: boto3 reads back the form's items, and only them")
        return 0
    finally:
        server.stop()
        verify.stop()
        open_server.stop()


if __name__ == "__main__":
    sys.exit(main())
