"""`ddblab serve` under many connections, with raw sockets: a thousand
keep-alive connections each answered while all stay open, idle pooled
connections that do not delay a new client, a body-less POST answered at
once, half-sent requests that do not delay others, and --max-connections.

No test measures a duration: where an answer must come at once, a socket
timeout far below the old server's 5-second stall is the failure signal.
"""
import resource
import socket
import unittest

from ddblab_server import ServerModule
from wire import sign

server = ServerModule()
setUpModule, tearDownModule = server.start, server.stop

TARGET = "DynamoDB_20120810."


def request_bytes(operation, body, extra=None, content_length=True):
    headers = sign(server.endpoint, TARGET + operation, body.encode())
    headers.update(extra or {})
    lines = ["POST / HTTP/1.1", f"Host: {server.host}:{server.port}"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    if content_length:
        lines.append(f"Content-Length: {len(body.encode())}")
    return ("\r\n".join(lines) + "\r\n\r\n" + body).encode()


class Conn:
    """One keep-alive connection reading Content-Length framed answers."""

    def __init__(self, timeout=30.0):
        self.sock = socket.create_connection((server.host, server.port),
                                             timeout=timeout)
        self.buffer = b""

    def send(self, data):
        self.sock.sendall(data)

    def read(self):
        """(status, headers lowercased, body); raises socket.timeout."""
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
        head, _, rest = self.buffer.partition(b"\r\n\r\n")
        lines = head.decode().split("\r\n")
        status = int(lines[0].split()[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers["content-length"])
        while len(rest) < length:
            self._fill()
            head, _, rest = self.buffer.partition(b"\r\n\r\n")
        self.buffer = rest[length:]
        return status, headers, rest[:length]

    def closed_without_bytes(self):
        return not self.buffer and self.sock.recv(1) == b""

    def _fill(self):
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed by the server")
        self.buffer += chunk

    def close(self):
        self.sock.close()


def raise_descriptor_limit(n):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < n:
        resource.setrlimit(resource.RLIMIT_NOFILE,
                           (min(n, hard) if hard != resource.RLIM_INFINITY
                            else n, hard))


class ConnectionsTest(unittest.TestCase):
    def setUp(self):
        self.conns = []

    def tearDown(self):
        for conn in self.conns:
            conn.close()

    def open(self, timeout=30.0):
        conn = Conn(timeout)
        self.conns.append(conn)
        return conn

    def list_tables(self, conn):
        conn.send(request_bytes("ListTables", "{}"))
        status, headers, body = conn.read()
        self.assertEqual(status, 200, body)
        self.assertNotEqual(headers.get("connection"), "close")
        return body

    def test_thousand_keep_alive_connections_each_answered(self):
        raise_descriptor_limit(1200)
        conns = [self.open() for _ in range(1000)]
        expected = None
        for round_ in range(2):
            request = request_bytes("ListTables", "{}")
            for conn in conns:  # every request is out before any answer
                conn.send(request)
            for i, conn in enumerate(conns):
                status, headers, body = conn.read()
                self.assertEqual(status, 200, f"connection {i}: {body}")
                self.assertNotEqual(headers.get("connection"), "close")
                expected = expected or body
                self.assertEqual(body, expected)
        self.assertEqual(expected, b'{"TableNames":[]}')

    def test_idle_pooled_connections_do_not_delay_a_new_client(self):
        idle = [self.open() for _ in range(32)]
        for conn in idle:
            self.list_tables(conn)
        # All 32 stay open and idle. The old server answered the next
        # client only after a 5 s keep-alive timeout; 2 s is the failure.
        fresh = self.open(timeout=2.0)
        self.list_tables(fresh)
        self.list_tables(idle[0])

    def test_bodyless_post_is_answered_at_once(self):
        # RFC 9112 §6.3: no Content-Length, no Transfer-Encoding -> an empty
        # body, answered like "Content-Length: 0" (a SerializationException).
        conn = self.open(timeout=2.0)
        conn.send(request_bytes("ListTables", "", content_length=False))
        status, _, body = conn.read()
        other = self.open()
        other.send(request_bytes("ListTables", ""))
        status_with_length, _, body_with_length = other.read()
        self.assertEqual(status, 400)
        self.assertEqual((status, body), (status_with_length, body_with_length))
        self.assertIn(b"SerializationException", body)
        self.list_tables(conn)  # and the connection stays usable

    def test_half_sent_request_does_not_delay_others(self):
        request = request_bytes("ListTables", "{}")
        half = self.open()
        half.send(request[:len(request) - 1])
        header_half = self.open()
        header_half.send(request[:20])
        silent = self.open()  # connected, never sends
        self.assertIsNotNone(silent)
        other = self.open(timeout=2.0)
        self.list_tables(other)
        half.send(request[-1:])
        self.assertEqual(half.read()[0], 200)

    def test_malformed_request_line_gets_400_and_close(self):
        conn = self.open(timeout=5.0)
        conn.send(b"BLAH\r\n\r\n")
        status, headers, body = conn.read()
        self.assertEqual(status, 400)
        self.assertEqual(headers.get("connection"), "close")
        self.assertEqual(len(headers["x-amzn-requestid"]), 52)
        self.assertTrue(conn.closed_without_bytes())


limited = ServerModule(["--max-connections", "3"])


class MaxConnectionsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        limited.start()

    @classmethod
    def tearDownClass(cls):
        limited.stop()

    def test_connection_over_the_limit_gets_503_and_close(self):
        socks = []
        try:
            def connect():
                s = socket.create_connection((limited.host, limited.port),
                                             timeout=5)
                socks.append(s)
                return s
            health = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"
            for _ in range(3):
                s = connect()
                s.sendall(health)
                self.assertTrue(s.recv(4096).startswith(b"HTTP/1.1 200 "))
            refused = connect()
            refused.sendall(health)
            data = b""
            while True:
                chunk = refused.recv(4096)
                if not chunk:
                    break
                data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            self.assertTrue(head.startswith(b"HTTP/1.1 503 "), head)
            self.assertIn(b"\r\nConnection: close", head)
            self.assertEqual(
                body,
                b'{"__type":"com.amazonaws.dynamodb.v20120810#'
                b'ServiceUnavailable","message":"ddblab: too many open '
                b'connections (--max-connections 3)"}')
            # Closing one (and the refused one) makes room again.
            for s in (socks.pop(0), socks.pop()):
                s.close()
            for _ in range(50):
                s = connect()
                s.sendall(health)
                answer = s.recv(4096)
                if answer.startswith(b"HTTP/1.1 200 "):
                    break
                s.close()
                socks.pop()
            self.assertTrue(answer.startswith(b"HTTP/1.1 200 "), answer)
        finally:
            for s in socks:
                s.close()


if __name__ == "__main__":
    unittest.main()
