"""pytest-ddblab: the manual clock and TTL sweeps through the `ddblab` client."""
import pytest

from pytest_ddblab import DdblabControlError


@pytest.mark.ddblab_fresh
def test_clock_advance_sweeps_an_expired_item(dynamodb, make_table, ddblab):
    make_table("sessions")
    dynamodb.update_time_to_live(
        TableName="sessions",
        TimeToLiveSpecification={"Enabled": True, "AttributeName": "expires"})
    now = ddblab.now()
    for pk, ttl in (("short", now + 60), ("long", now + 3600)):
        dynamodb.put_item(TableName="sessions", Item={
            "pk": {"S": pk}, "expires": {"N": str(ttl)}})

    assert ddblab.advance_clock("59s") == {"now": now + 59, "deleted": 0}
    assert ddblab.advance_clock(2) == {"now": now + 61, "deleted": 1}
    left = dynamodb.scan(TableName="sessions")["Items"]
    assert [item["pk"]["S"] for item in left] == ["long"]
    assert ddblab.ttl_status()["tables"]["sessions"]["waiting"] == 1
    assert ddblab.set_clock(now + 7200) == {"now": now + 7200, "deleted": 1}
    assert ddblab.ttl_sweep() == 0
    assert dynamodb.scan(TableName="sessions")["Items"] == []


def test_clock_error_carries_the_server_message(ddblab):
    now = ddblab.now()
    with pytest.raises(DdblabControlError) as refused:
        ddblab.set_clock(now - 10)
    assert refused.value.status == 400
    assert refused.value.message == (
        f"cannot move the clock backwards: now is {now}, asked for {now - 10}")
    assert ddblab.now() == now
