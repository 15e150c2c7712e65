"""Protocol-level behaviour of `ddblab serve` (DynamoDB's wire protocol): framing, health
check, 404s, error envelopes, CRC32 and request ids, keep-alive, 413.

Needs no engine operation to succeed: every request here fails (or is
answered) before the engine is called.
"""
import gzip
import http.client
import http.server
import json
import re
import threading
import unittest
import zlib

import botocore.exceptions

from ddb_client import BotoModule
from wire import JSON_10, post, send

server = BotoModule()
setUpModule, tearDownModule = server.start, server.stop


REQUEST_ID = re.compile(r"^[A-Z0-9]{52}$")
SERIALIZATION = b'{"__type":"com.amazon.coral.service#SerializationException"}'
UNKNOWN_OP = b'{"__type":"com.amazon.coral.service#UnknownOperationException"}'
MISSING_AUTH = (b'{"__type":"com.amazon.coral.service#'
                b'MissingAuthenticationTokenException","message":"Request is '
                b'missing Authentication Token"}')


class ProtocolTest(unittest.TestCase):
    def assertStamped(self, headers, body):
        self.assertRegex(headers["x-amzn-requestid"], REQUEST_ID)
        self.assertEqual(int(headers["x-amz-crc32"]),
                         zlib.crc32(body) & 0xFFFFFFFF)
        self.assertIn("date", headers)

    def assertError(self, response, body, status=400):
        got_status, headers, got_body = response
        self.assertEqual(got_status, status)
        self.assertEqual(got_body, body)
        self.assertEqual(headers["content-type"], JSON_10)
        self.assertStamped(headers, got_body)

    def test_health_check(self):
        for path in ("/", "/_ddblab/health"):
            status, headers, body = send(server.endpoint, "GET", path)
            self.assertEqual(status, 200)
            self.assertEqual(body, b"healthy: dynamodb.us-east-1.amazonaws.com ")
            self.assertEqual(headers["x-amz-crc32"], "3128867991")
            self.assertStamped(headers, body)

    def test_non_post_is_404_xml(self):
        for method in ("PUT", "DELETE", "PATCH"):
            status, headers, body = send(server.endpoint, method, "/", b"{}",
                                         {"Content-Type": JSON_10})
            self.assertEqual(status, 404, method)
            self.assertEqual(body, b"<UnknownOperationException/>\n")
            self.assertEqual(headers["x-amz-crc32"], "3552371480")
            self.assertStamped(headers, body)

    def test_wrong_content_type_is_404_xml(self):
        status, _, body = post(server.endpoint, "DynamoDB_20120810.ListTables",
                               "{}", headers={"Content-Type": "text/plain"})
        self.assertEqual(status, 404)
        self.assertEqual(body, b"<UnknownOperationException/>\n")

    def test_unknown_operation(self):
        for target in ("DynamoDB_20120810.NoSuchOperation",
                       "DynamoDB_20120810.GetRecords",
                       "DynamoDBStreams_20120810.PutItem", "Bogus", None):
            self.assertError(post(server.endpoint, target, "{}"), UNKNOWN_OP)

    def test_signature_comes_before_the_body_is_parsed(self):
        # Nothing of the body is parsed for a request not authenticated.
        self.assertError(post(server.endpoint, "DynamoDB_20120810.ListTables",
                              '{"TableName":', signed=False), MISSING_AUTH)
        self.assertError(post(server.endpoint, "DynamoDB_20120810.ListTables",
                              "{,}"), SERIALIZATION)

    def test_empty_or_non_object_body(self):
        for body in ("", "[]", "7", '"x"', "null"):
            self.assertError(post(server.endpoint,
                                  "DynamoDB_20120810.ListTables", body),
                             SERIALIZATION)

    def test_missing_authentication_token(self):
        response = post(server.endpoint, "DynamoDB_20120810.ListTables", "{}",
                        signed=False)
        self.assertError(response, MISSING_AUTH)
        self.assertEqual(response[1]["x-amz-crc32"], "2088342776")

    def test_incomplete_signature(self):
        auth = "AWS4-HMAC-SHA256 Credential=a/b/c/d/e"
        body = json.dumps({
            "__type": "com.amazon.coral.service#IncompleteSignatureException",
            "message": "Authorization header requires 'Signature' parameter. "
                       "Authorization header requires 'SignedHeaders' "
                       "parameter. Authorization header requires existence "
                       "of either a 'X-Amz-Date' or a 'Date' header. "
                       "Authorization=" + auth,
        }, separators=(",", ":")).encode()
        self.assertError(
            post(server.endpoint, "DynamoDB_20120810.ListTables", "{}",
                 signed=False, headers={"Authorization": auth}), body)

    def test_keep_alive(self):
        conn = http.client.HTTPConnection(server.host, server.port, timeout=30)
        try:
            sockets = set()
            for _ in range(5):
                status, headers, _ = post(server.endpoint,
                                          "DynamoDB_20120810.Nope", "{}",
                                          conn=conn)
                self.assertEqual(status, 400)
                self.assertNotEqual(headers.get("connection"), "close")
                sockets.add(id(conn.sock))
            self.assertEqual(len(sockets), 1)
        finally:
            conn.close()

    def test_request_ids_differ(self):
        ids = {send(server.endpoint, "GET")[1]["x-amzn-requestid"]
               for _ in range(5)}
        self.assertEqual(len(ids), 5)

    def test_oversized_body_is_413(self):
        body = b" " * (16 * 1024 * 1024 + 1)
        status, headers, data = post(server.endpoint,
                                     "DynamoDB_20120810.PutItem", body,
                                     signed=False)
        self.assertEqual(status, 413)
        self.assertEqual(data, b"")
        self.assertStamped(headers, data)

    def test_gzip_request_body(self):
        # The body is decompressed before parsing: {,} is malformed JSON.
        status, _, data = post(server.endpoint, "DynamoDB_20120810.ListTables",
                               gzip.compress(b"{,}"),
                               headers={"Content-Encoding": "gzip"})
        self.assertEqual(status, 400)
        self.assertEqual(data, SERIALIZATION)


class _BadCrcHandler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers["Content-Length"]))
        body = b'{"TableNames":[]}'
        self.send_response(200)
        self.send_header("Content-Type", JSON_10)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("x-amz-crc32", "12345")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class ClientConfigTest(unittest.TestCase):
    """The boto3 clients of these tests must not hide a wrong CRC."""

    def test_wrong_crc_raises(self):
        httpd = http.server.HTTPServer(("127.0.0.1", 0), _BadCrcHandler)
        thread = threading.Thread(target=httpd.serve_forever, daemon=True)
        thread.start()
        try:
            from ddblab_server import DdblabServer
            fake = DdblabServer.__new__(DdblabServer)
            fake.endpoint = f"http://127.0.0.1:{httpd.server_port}"
            fake._clients = []
            client = DdblabServer.boto3_client(fake)
            with self.assertRaises(botocore.exceptions.ChecksumError):
                client.list_tables()
            client.close()
        finally:
            httpd.shutdown()
            httpd.server_close()


if __name__ == "__main__":
    unittest.main()
