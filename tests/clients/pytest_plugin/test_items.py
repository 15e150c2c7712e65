"""pytest-ddblab: boto3 against the worker's server (ddblab_endpoint)."""
import pytest


@pytest.mark.ddblab_fresh
def test_create_put_get(dynamodb, make_table, ddblab_endpoint):
    assert ddblab_endpoint.startswith("http://127.0.0.1:")
    make_table("carts")
    dynamodb.put_item(TableName="carts",
                      Item={"pk": {"S": "cart#1"}, "qty": {"N": "3"}})
    got = dynamodb.get_item(TableName="carts", Key={"pk": {"S": "cart#1"}})
    assert got["Item"] == {"pk": {"S": "cart#1"}, "qty": {"N": "3"}}
    assert dynamodb.list_tables()["TableNames"] == ["carts"]


def test_serve_flags_reach_the_server(ddblab):
    # --ttl-delay 0 from pytest.ini, --seed=7 from run_suite.py's
    # --ddblab-arg; reset() answers the settings in force.
    settings = ddblab.reset()
    assert (settings["ttl_delay"], settings["seed"], settings["mode"]) == (
        "0", 7, "manual")
