"""Fixtures of the pytest-ddblab example suite (run by run_suite.py).

`dynamodb`: a boto3 client on this worker's server, in the test's
namespace (ddblab_namespace), retries off, so a fault surfaces as the exact
error; `make_table`: creates a table with key `pk`. When $DDBLAB_PLUGIN_REPORT names a folder, each
worker writes <worker>.json there ({worker, endpoint, pid} of its server)
for run_suite.py to check that workers had servers of their own, all
stopped at the end. pytester (for the runs that check errors and the ini
switch) is on.
"""
import json
import os
import pathlib

import boto3
import pytest
from botocore.config import Config

pytest_plugins = ["pytester"]


@pytest.fixture
def dynamodb(ddblab_namespace):
    client = boto3.client(
        "dynamodb", **ddblab_namespace.client_kwargs,
        config=Config(retries={"mode": "legacy", "total_max_attempts": 1}))
    yield client
    client.close()


@pytest.fixture(scope="session", autouse=True)
def _report_server(request):
    folder = os.environ.get("DDBLAB_PLUGIN_REPORT")
    if not folder:
        return
    server = request.getfixturevalue("ddblab_server")
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    (pathlib.Path(folder) / f"{worker}.json").write_text(json.dumps(
        {"worker": worker, "endpoint": server.endpoint, "pid": server.pid}))


@pytest.fixture
def make_table(dynamodb):
    """make_table(name, **extra): a table with a string hash key `pk`, on
    demand unless `extra` says otherwise."""

    def make(name, **extra):
        extra.setdefault("BillingMode", "PAY_PER_REQUEST")
        dynamodb.create_table(
            TableName=name,
            AttributeDefinitions=[{"AttributeName": "pk",
                                   "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}], **extra)

    return make
