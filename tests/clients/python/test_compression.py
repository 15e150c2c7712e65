"""Compression on the wire: responses of 4 KiB or more come back gzip or
deflate compressed when Accept-Encoding allows (the x-amz-crc32 header
covers the compressed bytes, which botocore checks); requests sent with
Content-Encoding gzip (one or several members) or deflate are decoded;
undecodable ones get DynamoDB's 500 and write nothing.
"""
import gzip
import json
import unittest
import zlib

from ddb_client import BotoModule, ClientTest, key, table_spec
from wire import post, send

server = BotoModule(tables=[table_spec("comp")])
setUpModule, tearDownModule = server.start, server.stop

BIG = "x" * 5000


def _decompressing(client, seen, accept):
    """Makes boto3 accept compressed responses, which it does not do itself:
    adds Accept-Encoding to each request (before signing), sends it with
    botocore's own HTTP session, checks x-amz-crc32 with botocore's own
    checker on the bytes received (the compressed ones), then hands botocore
    the decompressed body. `seen` collects each response's Content-Encoding;
    the header sent is accept["value"] (none while it is None)."""
    from botocore.retryhandler import CRC32Checker

    def add_header(params, **kwargs):
        if accept["value"] is not None:
            params["headers"]["Accept-Encoding"] = accept["value"]

    def send_and_decompress(request, **kwargs):
        response = client._endpoint.http_session.send(request)
        raw = response.content
        # Raises botocore.exceptions.ChecksumError on a mismatch.
        CRC32Checker("x-amz-crc32")._check_response(1, (response, None))
        encoding = response.headers.get("Content-Encoding")
        seen.append(encoding)
        if encoding == "gzip":
            response._content = gzip.decompress(raw)
        elif encoding == "deflate":
            response._content = zlib.decompress(raw)
        if encoding is not None:
            del response.headers["x-amz-crc32"]
        return response

    client.meta.events.register("before-call", add_header)
    client.meta.events.register("before-send", send_and_decompress)


class Boto3CompressionTest(ClientTest, unittest.TestCase):
    server = server

    def test_large_responses_are_compressed_for_boto3(self):
        client = self.server.boto3_client()
        seen, accept_header = [], {"value": None}
        _decompressing(client, seen, accept_header)
        client.put_item(TableName="comp", Item={"pk": {"S": "big"},
                                                "x": {"S": BIG}})
        for accept, want in (("gzip", "gzip"), ("deflate", "deflate"),
                             ("gzip;q=0.5, deflate", "deflate"),
                             ("identity", None), ("br", None)):
            accept_header["value"] = accept
            seen.clear()
            # botocore checks x-amz-crc32 against the raw (compressed) body:
            # a mismatch would raise here.
            item = client.get_item(TableName="comp", Key=key("big"),
                                   ConsistentRead=True)["Item"]
            self.assertEqual(item["x"]["S"], BIG)
            self.assertEqual(seen, [want], accept)
        # A small response stays uncompressed even when gzip is allowed.
        accept_header["value"] = "gzip"
        seen.clear()
        client.get_item(TableName="comp", Key=key("big"),
                        ProjectionExpression="pk")
        self.assertEqual(seen, [None])

    # botocore (as packaged here) cannot compress DynamoDB requests; the
    # request side is exercised with raw HTTP below.


class RawCompressionTest(unittest.TestCase):
    def put(self, pk, encode, encoding):
        body = json.dumps({"TableName": "comp",
                           "Item": {"pk": {"S": pk}}}).encode()
        return post(server.endpoint, "DynamoDB_20120810.PutItem",
                    encode(body), headers={"Content-Encoding": encoding})

    def exists(self, pk):
        status, _, body = post(server.endpoint, "DynamoDB_20120810.GetItem",
                               json.dumps({"TableName": "comp",
                                           "Key": key(pk),
                                           "ConsistentRead": True}))
        self.assertEqual(status, 200)
        return "Item" in json.loads(body)

    def test_decoded_request_bodies(self):
        cases = {
            "gz": (gzip.compress, "gzip"),
            "two": (lambda b: gzip.compress(b[:10]) + gzip.compress(b[10:]),
                    "gzip"),
            "defl": (zlib.compress, "deflate"),
        }
        for pk, (encode, encoding) in cases.items():
            status, _, body = self.put(pk, encode, encoding)
            self.assertEqual((status, body), (200, b"{}"), pk)
            self.assertTrue(self.exists(pk), pk)

    def test_undecodable_request_bodies_are_500_and_write_nothing(self):
        internal = (b'{"__type":"com.amazonaws.dynamodb.v20120810#'
                    b'InternalServerError","message":"The server encountered '
                    b'an internal error trying to fulfill the request."}')
        cases = {
            "garbage": (lambda b: b, "garbage"),
            "plain": (lambda b: b, "gzip"),
            "trunc": (lambda b: gzip.compress(b)[:-1], "gzip"),
            "empty": (lambda b: b"", "gzip"),
            "baddefl": (lambda b: b, "deflate"),
        }
        for pk, (encode, encoding) in cases.items():
            status, _, body = self.put(pk, encode, encoding)
            self.assertEqual((status, body), (500, internal), pk)
            self.assertFalse(self.exists(pk), pk)

    def test_crc_covers_compressed_response(self):
        post(server.endpoint, "DynamoDB_20120810.PutItem",
             json.dumps({"TableName": "comp",
                         "Item": {"pk": {"S": "raw"}, "x": {"S": BIG}}}))
        status, headers, body = post(
            server.endpoint, "DynamoDB_20120810.GetItem",
            json.dumps({"TableName": "comp", "Key": key("raw")}),
            headers={"Accept-Encoding": "gzip"})
        self.assertEqual(status, 200)
        self.assertEqual(headers["content-encoding"], "gzip")
        self.assertEqual(body[:2], b"\x1f\x8b")
        self.assertEqual(int(headers["x-amz-crc32"]),
                         zlib.crc32(body) & 0xFFFFFFFF)
        self.assertEqual(json.loads(gzip.decompress(body))["Item"]["x"]["S"],
                         BIG)

    def test_http_surface(self):
        for path in ("/abc", "/health", "/index.htm"):
            status, headers, body = send(server.endpoint, "GET", path)
            self.assertEqual(status, 404, path)
            self.assertEqual(body, b"<UnknownOperationException/>\n")
            self.assertEqual(headers["server"], "Server")
        status, headers, _ = send(server.endpoint, "GET", "/")
        self.assertEqual((status, headers["server"]), (200, "Server"))


if __name__ == "__main__":
    unittest.main()
