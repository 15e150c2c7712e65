"""AWS CLI v2 (/usr/bin/aws, Debian awscli) against `ddblab serve`:
create-table, put-item, get-item, query, scan, delete-item, delete-table, and
the `Try:` line `ddblab serve` prints, run as printed.

The CLI runs with a private environment: dummy credentials, no config
files, one attempt (AWS_MAX_ATTEMPTS=1; CLI v2 has no legacy retry mode, so
a CRC32 mismatch is caught by the boto3 suite, not here).
"""
import json
import os
import subprocess
import tempfile
import unittest

from ddblab_server import (ACCESS_KEY_ID, REGION, SECRET_ACCESS_KEY,
                           ServerModule, ddblab_bin)

AWS = os.environ.get("DDBLAB_AWS_CLI", "/usr/bin/aws")
TABLE = "cli_roundtrip"

server = ServerModule()


def setUpModule():
    server.start()


def tearDownModule():
    server.stop()


def aws(*args, check=True):
    """Runs `aws dynamodb <args>`; returns (exit status, parsed JSON or
    text, stderr)."""
    home = tempfile.gettempdir()
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": home,
        "AWS_ACCESS_KEY_ID": ACCESS_KEY_ID,
        "AWS_SECRET_ACCESS_KEY": SECRET_ACCESS_KEY,
        "AWS_DEFAULT_REGION": REGION,
        "AWS_CONFIG_FILE": os.devnull,
        "AWS_SHARED_CREDENTIALS_FILE": os.devnull,
        "AWS_RETRY_MODE": "standard",
        "AWS_MAX_ATTEMPTS": "1",
        "AWS_PAGER": "",
        "AWS_CLI_AUTO_PROMPT": "off",
    }
    result = subprocess.run(
        [AWS, "dynamodb", *args, "--endpoint-url", server.endpoint,
         "--output", "json"],
        env=env, capture_output=True, text=True, timeout=120)
    if check and result.returncode != 0:
        raise AssertionError(f"aws dynamodb {' '.join(args)} failed "
                             f"({result.returncode}):\n{result.stderr}")
    out = result.stdout.strip()
    return result.returncode, (json.loads(out) if out else None), result.stderr


def item(pk, sk, **attrs):
    out = {"pk": {"S": pk}, "sk": {"N": str(sk)}}
    for name, value in attrs.items():
        out[name] = {"S": value}
    return json.dumps(out)


class AwsCliTest(unittest.TestCase):
    def test_round_trip(self):
        _, created, _ = aws(
            "create-table", "--table-name", TABLE,
            "--attribute-definitions", "AttributeName=pk,AttributeType=S",
            "AttributeName=sk,AttributeType=N",
            "--key-schema", "AttributeName=pk,KeyType=HASH",
            "AttributeName=sk,KeyType=RANGE",
            "--billing-mode", "PAY_PER_REQUEST")
        self.assertEqual(created["TableDescription"]["TableName"], TABLE)

        _, tables, _ = aws("list-tables")
        self.assertIn(TABLE, tables["TableNames"])

        for sk in (1, 2, 3):
            aws("put-item", "--table-name", TABLE, "--item",
                item("a", sk, v=f"value{sk}"))
        aws("put-item", "--table-name", TABLE, "--item", item("b", 1))

        _, got, _ = aws("get-item", "--table-name", TABLE, "--key",
                        json.dumps({"pk": {"S": "a"}, "sk": {"N": "2"}}),
                        "--consistent-read")
        self.assertEqual(got["Item"]["v"], {"S": "value2"})

        _, queried, _ = aws(
            "query", "--table-name", TABLE,
            "--key-condition-expression", "pk = :p AND sk >= :s",
            "--expression-attribute-values",
            json.dumps({":p": {"S": "a"}, ":s": {"N": "2"}}))
        self.assertEqual([i["sk"]["N"] for i in queried["Items"]], ["2", "3"])
        self.assertEqual(queried["Count"], 2)

        _, scanned, _ = aws("scan", "--table-name", TABLE)
        self.assertEqual(scanned["Count"], 4)
        self.assertEqual(
            sorted((i["pk"]["S"], i["sk"]["N"]) for i in scanned["Items"]),
            [("a", "1"), ("a", "2"), ("a", "3"), ("b", "1")])

        aws("delete-item", "--table-name", TABLE, "--key",
            json.dumps({"pk": {"S": "a"}, "sk": {"N": "1"}}))
        _, got, _ = aws("get-item", "--table-name", TABLE, "--key",
                        json.dumps({"pk": {"S": "a"}, "sk": {"N": "1"}}))
        self.assertIsNone(got)  # the CLI prints nothing for {}

        aws("delete-table", "--table-name", TABLE)
        status, _, err = aws("describe-table", "--table-name", TABLE,
                             check=False)
        self.assertNotEqual(status, 0)
        self.assertIn("ResourceNotFoundException", err)

    def test_error_is_reported(self):
        status, _, err = aws("describe-table", "--table-name", "cli_missing",
                             check=False)
        self.assertEqual(status, 254)
        self.assertRegex(err, r"An error occurred \(ResourceNotFoundException\) "
                         r"when calling the DescribeTable operation"
                         r"( \(reached max retries: 0\))?: Requested "
                         r"resource not found: Table: cli_missing not found")


if __name__ == "__main__":
    unittest.main()


class ServeHintTest(unittest.TestCase):
    """The `Try:` line `ddblab serve` prints after its endpoint is a
    command that works as printed, pasted into a shell with no AWS
    configuration at all."""

    def test_the_try_line_runs_as_printed(self):
        process = subprocess.Popen(
            [ddblab_bin(), "serve", "--port", "0", "--log-level", "warn"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            banner = process.stdout.readline()
            hint = process.stdout.readline().rstrip("\n")
            self.assertIn("serving DynamoDB at http://", banner)
            self.assertTrue(hint.startswith("Try: "), hint)
            endpoint = banner.split(" at ", 1)[1].split(" ", 1)[0]
            self.assertTrue(hint.endswith(f"--endpoint-url {endpoint}"), hint)
            with tempfile.TemporaryDirectory() as home:
                env = {
                    "PATH": os.path.dirname(AWS) + ":/usr/bin:/bin",
                    "HOME": home,
                    "AWS_CONFIG_FILE": os.devnull,
                    "AWS_SHARED_CREDENTIALS_FILE": os.devnull,
                    "AWS_PAGER": "",
                }
                ran = subprocess.run(["bash", "-c", hint[len("Try: "):]],
                                     env=env, capture_output=True, text=True,
                                     timeout=120)
            self.assertEqual(ran.returncode, 0, ran.stderr)
            self.assertEqual(json.loads(ran.stdout), {"TableNames": []})
        finally:
            process.terminate()
            process.wait(timeout=30)
            process.stdout.close()
