"""Shared setup of the boto3 tests in this folder. Not a test module:
run.py's unittest discovery loads only test_*.py.

    server = BotoModule(tables=[table_spec("items", sk=("sk", "N"))])
    setUpModule, tearDownModule = server.start, server.stop

    class ItemsTest(ClientTest, unittest.TestCase):
        server = server     # setUpClass sets cls.client

Each test module starts its own `ddblab serve --port 0` (../ddblab_server.py);
its boto3 clients have retries OFF.
"""
import json

from botocore.exceptions import ClientError

from ddblab_server import ServerModule, control_headers
from wire import send


def key(pk):
    """The key of an item in a table keyed on pk (S) alone."""
    return {"pk": {"S": pk}}


def table_spec(name, pk=("pk", "S"), sk=None, attributes=(), **extra):
    """CreateTable arguments for an on-demand table: pk and sk are
    (attribute, type); `attributes` are more (attribute, type) definitions
    (index keys); extra arguments (GlobalSecondaryIndexes,
    StreamSpecification, ...) are passed as given."""
    keys = [(pk, "HASH")] + ([(sk, "RANGE")] if sk else [])
    return dict(
        TableName=name,
        KeySchema=[{"AttributeName": attr, "KeyType": kind}
                   for (attr, _), kind in keys],
        AttributeDefinitions=[{"AttributeName": attr, "AttributeType": type_}
                              for attr, type_ in
                              [k for k, _ in keys] + list(attributes)],
        BillingMode="PAY_PER_REQUEST", **extra)


def index(name, pk, sk=None, projection="KEYS_ONLY"):
    """A GlobalSecondaryIndexes entry keyed on attributes pk [, sk]."""
    keys = [{"AttributeName": pk, "KeyType": "HASH"}]
    if sk:
        keys.append({"AttributeName": sk, "KeyType": "RANGE"})
    return {"IndexName": name, "KeySchema": keys,
            "Projection": {"ProjectionType": projection}}


class BotoModule(ServerModule):
    """A ServerModule that, once started, creates `tables` (CreateTable
    arguments) and then calls setup(client) with the same boto3 client."""

    def __init__(self, args=(), tables=(), setup=None):
        super().__init__(args)
        self.tables = list(tables)
        self.setup = setup

    def start(self):
        server = super().start()
        if self.tables or self.setup:
            client = server.boto3_client()
            for request in self.tables:
                client.create_table(**request)
            if self.setup:
                self.setup(client)
        return server


class ClientTest:
    """Mix in before unittest.TestCase and set `server` to the module's
    BotoModule: setUpClass gives the class a boto3 DynamoDB `client`."""

    server = None

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.client = cls.server.boto3_client()

    def get_item(self, table, item_key):
        """A consistent GetItem: the item, or None if there is none."""
        return self.client.get_item(TableName=table, Key=item_key,
                                    ConsistentRead=True).get("Item")

    def error(self, call, **kwargs):
        """call(**kwargs) must raise a ClientError: returns its (code,
        message)."""
        with self.assertRaises(ClientError) as caught:
            call(**kwargs)
        error = caught.exception.response["Error"]
        return error["Code"], error["Message"]


def control_request(endpoint, method, path, body=None):
    """A request to a /_ddblab/ control endpoint, body a JSON value or raw
    bytes; returns (status, parsed JSON body or None)."""
    if body is None:
        data = b""
    elif isinstance(body, bytes):
        data = body
    else:
        data = json.dumps(body).encode()
    status, _, raw = send(endpoint, method, path, data,
                          control_headers(endpoint))
    return status, (json.loads(raw) if raw else None)


def advance_clock(endpoint, amount):
    """Moves a --clock manual server on by `amount` ("90s" or seconds);
    returns the answer ({"now": ..., "deleted": ...})."""
    status, body = control_request(endpoint, "POST", "/_ddblab/clock",
                                   {"advance": amount})
    assert status == 200, body
    return body
