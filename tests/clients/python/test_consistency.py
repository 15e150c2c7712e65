"""The eventual-consistency model through boto3 on `ddblab serve --clock
manual --index-lag 2s --read-lag 1s`: a GSI Query misses a fresh write
until the clock has moved 2 s; an eventually consistent GetItem sees the
item as it was 1 s ago while ConsistentRead=True sees the new version;
POST /_ddblab/consistency/settle makes a pending GSI change visible; the
status endpoint and a refused setting (400, nothing changed)."""
import unittest

from ddb_client import (BotoModule, ClientTest, advance_clock,
                        control_request, index, key, table_spec)

START = 1704067200  # 2024-01-01T00:00:00Z
server = BotoModule(
    ["--clock", f"manual={START}", "--index-lag", "2s", "--read-lag", "1s"],
    tables=[table_spec("orders", attributes=[("status", "S")],
                       GlobalSecondaryIndexes=[index("byStatus", "status")]),
            table_spec("docs")])
setUpModule, tearDownModule = server.start, server.stop


def control(method, path, body=None):
    return control_request(server.endpoint, method, path, body)


class ConsistencyTest(ClientTest, unittest.TestCase):
    server = server

    def setUp(self):
        # Each test starts with every index current.
        self.assertEqual(control("POST", "/_ddblab/consistency/settle")[0],
                         200)

    def open_orders(self):
        """How many orders the GSI shows with status "open"."""
        return self.client.query(
            TableName="orders", IndexName="byStatus",
            KeyConditionExpression="#s = :s",
            ExpressionAttributeNames={"#s": "status"},
            ExpressionAttributeValues={":s": {"S": "open"}},
            Select="COUNT")["Count"]

    def put_order(self, pk):
        self.client.put_item(TableName="orders",
                             Item={"pk": {"S": pk}, "status": {"S": "open"}})

    def test_gsi_query_misses_a_write_until_the_clock_moves_2s(self):
        self.put_order("lag-1")
        self.assertEqual(self.open_orders(), 0)
        advance_clock(server.endpoint, "1s")
        self.assertEqual(self.open_orders(), 0)
        advance_clock(server.endpoint, "1s")
        self.assertEqual(self.open_orders(), 1)
        # The table itself has the item at once.
        self.assertEqual(self.get_item("orders", key("lag-1")),
                         {"pk": {"S": "lag-1"}, "status": {"S": "open"}})

    def test_eventually_consistent_get_returns_the_previous_version(self):
        self.client.put_item(TableName="docs",
                             Item={"pk": {"S": "d"}, "v": {"N": "1"}})
        advance_clock(server.endpoint, "2s")
        self.client.put_item(TableName="docs",
                             Item={"pk": {"S": "d"}, "v": {"N": "2"}})
        eventual = self.client.get_item(TableName="docs", Key=key("d"))
        self.assertEqual(eventual["Item"], {"pk": {"S": "d"}, "v": {"N": "1"}})
        consistent = self.client.get_item(TableName="docs", Key=key("d"),
                                          ConsistentRead=True)
        self.assertEqual(consistent["Item"],
                         {"pk": {"S": "d"}, "v": {"N": "2"}})
        # A new item is not there yet for an eventually consistent read.
        self.client.put_item(TableName="docs", Item={"pk": {"S": "new"}})
        self.assertNotIn("Item", self.client.get_item(TableName="docs",
                                                      Key=key("new")))
        advance_clock(server.endpoint, "1s")
        eventual = self.client.get_item(TableName="docs", Key=key("d"))
        self.assertEqual(eventual["Item"], {"pk": {"S": "d"}, "v": {"N": "2"}})
        self.assertEqual(self.client.get_item(TableName="docs",
                                              Key=key("new"))["Item"],
                         {"pk": {"S": "new"}})

    def test_settle_makes_a_pending_gsi_change_visible(self):
        before = self.open_orders()
        self.put_order("settle-1")
        self.assertEqual(self.open_orders(), before)
        status, body = control("GET", "/_ddblab/consistency")
        self.assertEqual(status, 200)
        self.assertEqual(body, {"index_lag": "2s", "read_lag": "1s",
                                "tables": {},
                                "pending": {"orders": {"byStatus": 1}}})
        self.assertEqual(control("POST", "/_ddblab/consistency/settle"),
                         (200, {"settled": 1}))
        self.assertEqual(self.open_orders(), before + 1)
        self.assertEqual(control("GET", "/_ddblab/consistency")[1]["pending"],
                         {})

    def test_a_refused_setting_is_a_400_and_changes_nothing(self):
        self.assertEqual(
            control("POST", "/_ddblab/consistency",
                    {"index_lag": "0", "read_lag": "2s..1s"}),
            (400, {"type": "ValidationException",
                   "message": "read_lag: invalid lag '2s..1s': the lower "
                              "end is above the upper end"}))
        status, body = control("GET", "/_ddblab/consistency")
        self.assertEqual((status, body["index_lag"], body["read_lag"]),
                         (200, "2s", "1s"))


if __name__ == "__main__":
    unittest.main()
