"""`ddblab serve --auth verify`: SigV4 signatures checked against the
configured credentials, with AWS's error types and texts (DynamoDB's wire protocol).

The rejections need no engine; the accepted calls (ListTables,
DynamoDB Streams ListStreams) do.
"""
import datetime
import json
import os
import re
import tempfile
import unittest

from botocore.exceptions import ClientError

from ddb_client import BotoModule
from ddblab_server import (ACCESS_KEY_ID, SECRET_ACCESS_KEY, DdblabServer,
                           control_headers)
from wire import post, send, sign

server = BotoModule(["--auth", "verify", "--access-key-id", ACCESS_KEY_ID,
                     "--secret-access-key", SECRET_ACCESS_KEY])
setUpModule, tearDownModule = server.start, server.stop


MISMATCH = ("The request signature we calculated does not match the "
            "signature you provided. Check your AWS Secret Access Key and "
            "signing method. Consult the service documentation for details.")


class VerifyTest(unittest.TestCase):
    def assertClientError(self, call, code, message=None, pattern=None):
        with self.assertRaises(ClientError) as caught:
            call()
        error = caught.exception.response["Error"]
        self.assertEqual(error["Code"], code)
        if message is not None:
            self.assertEqual(error["Message"], message)
        if pattern is not None:
            self.assertRegex(error["Message"], pattern)
        self.assertEqual(
            caught.exception.response["ResponseMetadata"]["HTTPStatusCode"],
            400)
        return error

    def test_right_secret_is_accepted(self):
        client = server.boto3_client()
        self.assertIn("TableNames", client.list_tables())

    def test_right_secret_streams(self):
        client = server.boto3_client("dynamodbstreams")
        self.assertIn("Streams", client.list_streams())

    def test_wrong_secret(self):
        client = server.boto3_client(secret_access_key="wrong")
        error = self.assertClientError(client.list_tables,
                                       "InvalidSignatureException")
        self.assertTrue(error["Message"].startswith(
            MISMATCH + "\n\nThe Canonical String for this request should "
            "have been\n'POST\n/\n\n"), error["Message"])
        self.assertIn("\n\nThe String-to-Sign should have been\n"
                      "'AWS4-HMAC-SHA256\n", error["Message"])

    def test_wrong_secret_streams(self):
        client = server.boto3_client("dynamodbstreams",
                                     secret_access_key="wrong")
        self.assertClientError(client.list_streams,
                               "InvalidSignatureException",
                               pattern="^" + re.escape(MISMATCH))

    def test_unknown_access_key(self):
        client = server.boto3_client(access_key_id="AKIDNOBODY")
        self.assertClientError(
            client.list_tables, "UnrecognizedClientException",
            "The security token included in the request is invalid.")

    def test_wrong_region(self):
        client = server.boto3_client(region="eu-west-1")
        self.assertClientError(
            client.list_tables, "InvalidSignatureException",
            "Credential should be scoped to a valid region, not "
            "'eu-west-1'. ")

    def test_clock_skew(self):
        old = datetime.datetime(2020, 1, 1, 0, 0, 0)
        status, _, body = post(server.endpoint,
                               "DynamoDB_20120810.ListTables", "{}", when=old)
        self.assertEqual(status, 400)
        self.assertRegex(
            body.decode(),
            r'^\{"__type":"com\.amazon\.coral\.service#'
            r'InvalidSignatureException","message":"Signature expired: '
            r'20200101T000000Z is now earlier than \d{8}T\d{6}Z '
            r'\(\d{8}T\d{6}Z - 15 min\.\)"\}$')
        future = datetime.datetime.utcnow() + datetime.timedelta(hours=1)
        status, _, body = post(server.endpoint,
                               "DynamoDB_20120810.ListTables", "{}",
                               when=future)
        self.assertEqual(status, 400)
        self.assertIn('"message":"Signature not yet current: ', body.decode())

    def test_space_separated_authorization_components(self):
        """Credential=... SignedHeaders=... Signature=... with spaces and
        no commas: parsed as AWS parses it, so the signature is checked
        (accepted when right, expired / not yet current by its date)."""
        def spaced_post(when=None):
            headers = sign(server.endpoint, "DynamoDB_20120810.ListTables",
                           b"{}", when=when)
            headers["Authorization"] = headers["Authorization"].replace(
                ", ", " ")
            self.assertNotIn(",", headers["Authorization"])
            return send(server.endpoint, "POST", "/", b"{}", headers)

        status, _, body = spaced_post()
        self.assertEqual(status, 200, body)
        self.assertIn(b'"TableNames"', body)
        status, _, body = spaced_post(datetime.datetime(2020, 1, 1))
        self.assertEqual(status, 400)
        self.assertIn(b'InvalidSignatureException","message":"Signature '
                      b'expired: 20200101T000000Z is now earlier than ', body)
        future = datetime.datetime.utcnow() + datetime.timedelta(hours=1)
        status, _, body = spaced_post(future)
        self.assertEqual(status, 400)
        self.assertIn(b'"message":"Signature not yet current: ', body)

    def test_missing_signature(self):
        status, _, body = post(server.endpoint,
                               "DynamoDB_20120810.ListTables", "{}",
                               signed=False)
        self.assertEqual(status, 400)
        self.assertIn(b"MissingAuthenticationTokenException", body)


class ManualClockTest(unittest.TestCase):
    """With --clock manual, --auth verify's date window is around the
    emulator's (manual) time, not the real time, and moves when that clock
    moves; --auth-skew off drops it."""
    START = 1800000000
    T = datetime.datetime(2027, 1, 15, 8, 0, 0)  # START, UTC

    def start(self, *flags):
        other = DdblabServer.start(
            ["--clock", f"manual={self.START}", "--auth", "verify",
             "--access-key-id", ACCESS_KEY_ID, "--secret-access-key",
             SECRET_ACCESS_KEY, "--log-level", "debug", *flags])
        self.addCleanup(other.stop)
        return other

    def list_tables(self, other, when):
        return post(other.endpoint, "DynamoDB_20120810.ListTables", "{}",
                    when=when)

    def advance(self, other, when, advance):
        """POST /_ddblab/clock, signed at `when` (control requests are
        checked like API requests)."""
        body = json.dumps({"advance": advance}).encode()
        headers = sign(other.endpoint, None, body,
                       control_headers(other.endpoint), when=when,
                       path="/_ddblab/clock")
        status, _, answer = send(other.endpoint, "POST", "/_ddblab/clock",
                                 body, headers)
        self.assertEqual(status, 200, answer)
        return json.loads(answer)

    def test_window_is_around_the_manual_time(self):
        other = self.start()
        status, _, body = self.list_tables(other, self.T)
        self.assertEqual(status, 200, body)
        # The real time is years away from the manual one.
        status, _, body = self.list_tables(other, None)
        self.assertEqual(status, 400)
        self.assertIn(b"InvalidSignatureException", body)
        moved = self.advance(other, self.T, "2d")
        self.assertEqual(moved["now"], self.START + 2 * 86400)
        status, _, body = self.list_tables(other, self.T)
        self.assertEqual(status, 400)
        self.assertEqual(
            json.loads(body),
            {"__type": "com.amazon.coral.service#InvalidSignatureException",
             "message": "Signature expired: 20270115T080000Z is now earlier "
                        "than 20270117T074500Z (20270117T080000Z - 15 min.)"})
        later = self.T + datetime.timedelta(days=2)
        status, _, body = self.list_tables(other, later)
        self.assertEqual(status, 200, body)
        # --log-level debug: one line per request.
        self.assertRegex(other.stderr_text(),
                         r"ddblab: debug: ListTables - 400 "
                         r"InvalidSignatureException \d+\.\dms\n")
        self.assertRegex(other.stderr_text(),
                         r"ddblab: debug: ListTables - 200 \d+\.\dms\n")

    def test_auth_skew_off_drops_the_window(self):
        other = self.start("--auth-skew", "off")
        self.advance(other, self.T, "2d")
        status, _, body = self.list_tables(other, self.T)
        self.assertEqual(status, 200, body)
        status, _, body = self.list_tables(other, None)
        self.assertEqual(status, 200, body)
        status, _, body = post(other.endpoint, "DynamoDB_20120810.ListTables",
                               "{}", when=self.T, secret="wrong")
        self.assertEqual(status, 400)
        self.assertIn(b"InvalidSignatureException", body)


class CredentialsFileTest(unittest.TestCase):
    def test_every_profile_is_accepted(self):
        with tempfile.NamedTemporaryFile("w", suffix=".ini",
                                         delete=False) as f:
            f.write("[default]\naws_access_key_id = AKIDONE\n"
                    "aws_secret_access_key = one\n\n[other]\n"
                    "aws_access_key_id=AKIDTWO\naws_secret_access_key=two\n")
        other = DdblabServer.start(["--auth", "verify", "--credentials-file",
                                    f.name])
        try:
            for key, secret in (("AKIDONE", "one"), ("AKIDTWO", "two")):
                client = other.boto3_client(access_key_id=key,
                                            secret_access_key=secret)
                self.assertIn("TableNames", client.list_tables())
            bad = other.boto3_client(access_key_id="AKIDONE",
                                     secret_access_key="two")
            with self.assertRaises(ClientError) as caught:
                bad.list_tables()
            self.assertEqual(caught.exception.response["Error"]["Code"],
                             "InvalidSignatureException")
        finally:
            self.assertEqual(other.stop(), 0)
            os.unlink(f.name)


if __name__ == "__main__":
    unittest.main()
