"""`ddblab serve --https-cert FILE --https-key FILE`: HTTPS with a
self-signed certificate made here (openssl CLI), used by boto3 (verifying
against that certificate) and curl; a bad key file is refused at startup."""
import os
import shutil
import subprocess
import tempfile
import unittest

from ddblab_server import DdblabServer, ddblab_bin

OPENSSL = shutil.which("openssl")
CURL = shutil.which("curl")


def make_certificate(folder):
    cert = os.path.join(folder, "cert.pem")
    key = os.path.join(folder, "key.pem")
    subprocess.run(
        [OPENSSL, "req", "-x509", "-newkey", "rsa:2048", "-nodes",
         "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
        check=True, capture_output=True)
    return cert, key


@unittest.skipUnless(OPENSSL, "openssl CLI not installed")
class HttpsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp(prefix="ddblab-https-")
        cls.cert, cls.key = make_certificate(cls.folder)
        cls.server = DdblabServer.start(
            ["--https-cert", cls.cert, "--https-key", cls.key])

    @classmethod
    def tearDownClass(cls):
        status = cls.server.stop()
        shutil.rmtree(cls.folder, ignore_errors=True)
        assert status == 0, cls.server.stderr_text()

    def test_endpoint_is_https(self):
        self.assertTrue(self.server.endpoint.startswith("https://127.0.0.1:"))

    def test_boto3_round_trip_verifying_the_certificate(self):
        import boto3
        from botocore.config import Config
        client = boto3.client(
            "dynamodb", endpoint_url=self.server.endpoint,
            region_name="us-east-1", aws_access_key_id="AKIDDDBLABTEST",
            aws_secret_access_key="secret", verify=self.cert,
            config=Config(retries={"mode": "legacy",
                                   "total_max_attempts": 1}))
        client.create_table(
            TableName="tls", BillingMode="PAY_PER_REQUEST",
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "pk",
                                   "AttributeType": "S"}])
        client.put_item(TableName="tls", Item={"pk": {"S": "a"},
                                               "v": {"N": "1"}})
        got = client.get_item(TableName="tls", Key={"pk": {"S": "a"}})
        self.assertEqual(got["Item"], {"pk": {"S": "a"}, "v": {"N": "1"}})
        self.assertEqual(client.list_tables()["TableNames"], ["tls"])

    @unittest.skipUnless(CURL, "curl not installed")
    def test_curl_health_check_and_plain_http_is_not_served(self):
        done = subprocess.run(
            [CURL, "-sS", "--cacert", self.cert, self.server.endpoint + "/"],
            capture_output=True, text=True, timeout=30)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout,
                         "healthy: dynamodb.us-east-1.amazonaws.com ")
        # Without the certificate, curl refuses the self-signed one.
        untrusted = subprocess.run(
            [CURL, "-sS", self.server.endpoint + "/"],
            capture_output=True, text=True, timeout=30)
        self.assertEqual(untrusted.returncode, 60, untrusted.stderr)
        # Plain HTTP to the HTTPS port gets no HTTP answer.
        plain = subprocess.run(
            [CURL, "-sS", "--max-time", "10",
             self.server.endpoint.replace("https://", "http://") + "/"],
            capture_output=True, text=True, timeout=30)
        self.assertNotEqual(plain.returncode, 0)
        self.assertEqual(plain.stdout, "")


@unittest.skipUnless(OPENSSL, "openssl CLI not installed")
class HttpsFlagsTest(unittest.TestCase):
    def run_serve(self, *args):
        return subprocess.run([ddblab_bin(), "serve", "--port", "0", *args],
                              capture_output=True, text=True, timeout=30)

    def test_cert_without_key_is_a_usage_error(self):
        done = self.run_serve("--https-cert", "x.pem")
        self.assertEqual(done.returncode, 2)
        self.assertEqual(
            done.stderr,
            "ddblab: --https-cert and --https-key must be given together "
            "(run 'ddblab --help' for usage)\n")

    def test_unreadable_key_fails_at_startup(self):
        with tempfile.TemporaryDirectory() as folder:
            cert, _ = make_certificate(folder)
            missing = os.path.join(folder, "missing.pem")
            done = self.run_serve("--https-cert", cert, "--https-key", missing)
        self.assertEqual(done.returncode, 1)
        self.assertTrue(
            done.stderr.startswith(
                f"ddblab: cannot load the TLS key {missing}: "), done.stderr)


if __name__ == "__main__":
    unittest.main()
