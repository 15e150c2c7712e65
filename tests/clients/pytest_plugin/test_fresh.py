"""pytest-ddblab: the ddblab_fresh marker and the ddblab_fresh ini switch."""
import os

import boto3
import pytest

from pytest_ddblab import find_binary


@pytest.fixture(scope="module")
def leftover(ddblab_endpoint):
    """Creates a table before the test's reset (module fixtures are set up
    before function ones), in the namespace of unmarked tests; the table
    names it saw."""
    client = boto3.client(
        "dynamodb", endpoint_url=ddblab_endpoint, region_name="us-east-1",
        aws_access_key_id=os.environ.get("AWS_ACCESS_KEY_ID") or "ddblab",
        aws_secret_access_key="ddblab")
    client.create_table(
        TableName="leftover",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        BillingMode="PAY_PER_REQUEST")
    names = client.list_tables()["TableNames"]
    client.close()
    return names


@pytest.mark.ddblab_fresh
def test_fresh_marker_starts_with_no_tables(leftover, dynamodb):
    assert "leftover" in leftover
    assert dynamodb.list_tables()["TableNames"] == []


INNER_SUITE = '''
import pytest

PLAN = {"rules": [{"operation": "GetItem", "effect": "internal_error"}]}

def test_1_leaves_a_plan(ddblab):
    ddblab.put_fault_plan(PLAN)

def test_2_starts_fresh(ddblab):
    assert ddblab.get_fault_plan() == {"rules": []}
    ddblab.put_fault_plan(PLAN)

@pytest.mark.ddblab_fresh(False)
def test_3_opted_out_sees_the_plan(ddblab):
    assert len(ddblab.get_fault_plan()["rules"]) == 1
'''


def test_ini_switch_resets_before_every_test(pytester, pytestconfig):
    pytester.makeini("[pytest]\nddblab_fresh = true\n")
    pytester.makepyfile(test_inner=INNER_SUITE)
    binary = find_binary(pytestconfig.getoption("ddblab_bin"), os.environ)
    # --ddblab-bin=PATH in one word: pytest takes a separate path argument
    # for a test path and would look for its ini file next to it.
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider",
                                           f"--ddblab-bin={binary}")
    result.assert_outcomes(passed=3)
