"""pytest-ddblab: the ddblab_namespace marker gives a test a namespace of its
own on the worker's `ddblab serve --namespace access-key`."""
import os

import boto3
import pytest
from botocore.exceptions import ClientError

from pytest_ddblab import DdblabControlError

ORDERS = {
    "TableName": "orders",
    "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
    "BillingMode": "PAY_PER_REQUEST",
}


# Both create `orders` and neither resets: in one namespace the second
# would fail with ResourceInUseException.
@pytest.mark.ddblab_namespace
@pytest.mark.parametrize("run", [1, 2])
def test_each_marked_test_has_its_own_tables(run, dynamodb, ddblab,
                                             ddblab_namespace):
    assert dynamodb.list_tables()["TableNames"] == []
    dynamodb.create_table(**ORDERS)
    dynamodb.put_item(TableName="orders", Item={"pk": {"S": f"run{run}"}})
    # A client built from the environment lands in the same namespace.
    assert os.environ["AWS_ACCESS_KEY_ID"] == ddblab_namespace.access_key
    from_env = boto3.client("dynamodb",
                            endpoint_url=ddblab_namespace.endpoint)
    assert from_env.scan(TableName="orders")["Items"] == [
        {"pk": {"S": f"run{run}"}}]
    from_env.close()
    names = [n["name"] for n in ddblab.namespaces()["namespaces"]]
    assert ddblab_namespace.name in names


@pytest.mark.ddblab_namespace
def test_a_fault_plan_stays_in_its_namespace(dynamodb, ddblab,
                                             ddblab_server):
    ddblab.put_fault_plan({"rules": [{"operation": "ListTables",
                                      "effect": "internal_error"}]})
    other = ddblab_server.control("someone-else")
    assert other.get_fault_plan() == {"rules": []}
    with pytest.raises(ClientError) as failed:
        dynamodb.list_tables()
    assert failed.value.response["Error"]["Code"] == "InternalServerError"
    assert len(ddblab.fault_log()) == 1


def test_without_a_namespace_the_server_says_what_to_add(ddblab_server):
    with pytest.raises(DdblabControlError) as refused:
        ddblab_server.control().get_fault_plan()
    assert (refused.value.status, refused.value.message) == (
        400, "this server keeps a namespace per access key (--namespace "
        "access-key): add ?namespace=ACCESS_KEY to /_ddblab/faults")
