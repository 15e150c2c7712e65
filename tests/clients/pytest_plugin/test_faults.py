"""pytest-ddblab: fault plans, the fault log and shard splits via `ddblab`."""
import pytest
from botocore.exceptions import ClientError

from pytest_ddblab import DdblabControlError


@pytest.mark.ddblab_fresh
def test_fault_plan_answers_with_the_exact_error(dynamodb, make_table, ddblab):
    make_table("orders", BillingMode="PROVISIONED", ProvisionedThroughput={
        "ReadCapacityUnits": 5, "WriteCapacityUnits": 5})
    ddblab.put_fault_plan({"rules": [{
        "id": "hot", "operation": "PutItem", "table": "orders", "nth": [1],
        "effect": "throttle"}]})
    item = {"pk": {"S": "order#1"}}
    with pytest.raises(ClientError) as throttled:
        dynamodb.put_item(TableName="orders", Item=item)
    error = throttled.value.response["Error"]
    assert error["Code"] == "ProvisionedThroughputExceededException"
    assert error["Message"] == (
        "The level of configured provisioned throughput for the table was "
        "exceeded. Consider increasing your provisioning level with the "
        "UpdateTable API.")
    dynamodb.put_item(TableName="orders", Item=item)  # nth 2: no fault

    assert [(f["operation"], f["rule"], f["effect"], f["keys"])
            for f in ddblab.fault_log()] == [
                ("PutItem", "hot", "throttle", [item])]
    rule = ddblab.get_fault_plan()["rules"][0]
    assert (rule["matched"], rule["fired"]) == (2, 1)
    assert ddblab.clear_fault_plan() == {"rules": []}


def test_bad_plan_raises_with_the_server_message(ddblab):
    with pytest.raises(DdblabControlError) as refused:
        ddblab.put_fault_plan({"rules": [{"effect": "thorttle"}]})
    assert (refused.value.status, refused.value.type,
            refused.value.message) == (
                400, "ValidationException",
                'rules[0].effect: unknown effect "thorttle"')


@pytest.mark.ddblab_fresh
def test_split_shard(dynamodb, make_table, ddblab):
    make_table("events", StreamSpecification={
        "StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})
    split = ddblab.split_shard("events")
    assert (len(split["closed"]), len(split["created"])) == (1, 2)
