"""Hand-made DynamoDB requests, for the protocol tests that boto3 cannot
send (unknown operations, malformed JSON, missing or odd signatures).

    status, headers, body = post(endpoint, "DynamoDB_20120810.ListTables", b"{}")

Requests are signed with botocore's SigV4Auth (optionally at a fixed date);
headers come back as a dict with lowercase names.
"""
import datetime
import http.client
import urllib.parse
from unittest import mock

import botocore.auth
import botocore.awsrequest
import botocore.credentials

from ddblab_server import ACCESS_KEY_ID, REGION, SECRET_ACCESS_KEY

JSON_10 = "application/x-amz-json-1.0"
# Headers a response must not repeat.
SINGLE_HEADERS = {"x-amz-crc32", "x-amzn-requestid", "content-type",
                  "content-length", "date"}


def sign(endpoint, target, body, headers=None, access_key_id=ACCESS_KEY_ID,
         secret=SECRET_ACCESS_KEY, region=REGION, when=None, path="/"):
    """Returns the headers of a SigV4-signed POST to `path` (botocore's
    signer)."""
    all_headers = {"Content-Type": JSON_10}
    if target is not None:
        all_headers["X-Amz-Target"] = target
    all_headers.update(headers or {})
    request = botocore.awsrequest.AWSRequest(
        method="POST", url=endpoint + path, headers=all_headers, data=body)
    credentials = botocore.credentials.Credentials(access_key_id, secret)
    signer = botocore.auth.SigV4Auth(credentials, "dynamodb", region)
    if when is None:
        signer.add_auth(request)
    else:
        with mock.patch("botocore.auth.datetime") as fake:
            fake.datetime.utcnow.return_value = when
            fake.datetime.now.return_value = when
            fake.timezone = datetime.timezone
            signer.add_auth(request)
    return dict(request.headers.items())


def send(endpoint, method, path="/", body=b"", headers=None, conn=None):
    """Sends one request; returns (status, headers, body bytes)."""
    own = conn is None
    if own:
        parts = urllib.parse.urlsplit(endpoint)
        conn = http.client.HTTPConnection(parts.hostname, parts.port,
                                          timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        data = response.read()
        headers = {}
        for name, value in response.getheaders():
            name = name.lower()
            if name in headers and name in SINGLE_HEADERS:
                raise AssertionError(f"header {name} sent twice")
            headers[name] = value
        return response.status, headers, data
    finally:
        if own:
            conn.close()


def post(endpoint, target, body, signed=True, headers=None, conn=None,
         **sign_args):
    """POST / with a DynamoDB target; signed unless signed=False."""
    if isinstance(body, str):
        body = body.encode()
    if signed:
        all_headers = sign(endpoint, target, body, headers, **sign_args)
    else:
        all_headers = {"Content-Type": JSON_10}
        if target is not None:
            all_headers["X-Amz-Target"] = target
        all_headers.update(headers or {})
    return send(endpoint, "POST", "/", body, all_headers, conn)
