// Resource-based policies, a table ARN as TableName and a refused operation
// with the AWS SDK for JavaScript v3 against `ddblab serve` (run by
// `tests/clients/run.py js`): PutResourcePolicy / GetResourcePolicy /
// DeleteResourcePolicy with revision ids and PolicyNotFoundException, items
// written and read through the table's ARN (echoed in ConsumedCapacity and
// the batch Responses), an ARN of another Region, and
// ExportTableToPointInTime's UnknownOperationException.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';

import {
  BatchGetItemCommand,
  CreateTableCommand,
  DeleteResourcePolicyCommand,
  DynamoDBClient,
  ExportTableToPointInTimeCommand,
  GetItemCommand,
  GetResourcePolicyCommand,
  PutItemCommand,
  PutResourcePolicyCommand,
} from '@aws-sdk/client-dynamodb';

import { config } from './client_config.mjs';

const ddb = new DynamoDBClient(config);
after(() => ddb.destroy());

const TABLE = 'js_policies';
const ARN = `arn:aws:dynamodb:us-east-1:000000000000:table/${TABLE}`;

const policy = (action) => JSON.stringify({
  Version: '2012-10-17',
  Statement: [{
    Effect: 'Allow',
    Principal: { AWS: '111122223333' },
    Action: action,
    Resource: '*',
  }],
});

async function rejects(promise, name, message) {
  await assert.rejects(promise, (err) => {
    assert.equal(err.name, name);
    assert.equal(err.$metadata.httpStatusCode, 400);
    if (message !== undefined) assert.equal(err.message, message);
    return true;
  });
}

describe('resource policies and table ARNs', () => {
  test('CreateTable, then items through the ARN', async () => {
    await ddb.send(new CreateTableCommand({
      TableName: TABLE,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    }));
    const put = await ddb.send(new PutItemCommand({
      TableName: ARN,
      Item: { pk: { S: 'a' }, n: { N: '1' } },
      ReturnConsumedCapacity: 'TOTAL',
    }));
    assert.equal(put.ConsumedCapacity.TableName, ARN);
    const got = await ddb.send(new GetItemCommand({
      TableName: TABLE, Key: { pk: { S: 'a' } },
    }));
    assert.deepEqual(got.Item, { pk: { S: 'a' }, n: { N: '1' } });
    const batch = await ddb.send(new BatchGetItemCommand({
      RequestItems: { [ARN]: { Keys: [{ pk: { S: 'a' } }] } },
    }));
    assert.deepEqual(Object.keys(batch.Responses), [ARN]);
    const other = ARN.replace('us-east-1', 'eu-west-1');
    await rejects(
      ddb.send(new GetItemCommand({ TableName: other, Key: { pk: { S: 'a' } } })),
      'ValidationException',
      `1 validation error detected: Invalid AWS region in '${other}'`);
  });

  test('put, get, conflict, delete', async () => {
    await rejects(
      ddb.send(new GetResourcePolicyCommand({ ResourceArn: ARN })),
      'PolicyNotFoundException',
      `Resource-based policy not found for the provided ResourceArn: ${ARN}`);
    const first = await ddb.send(new PutResourcePolicyCommand({
      ResourceArn: ARN, Policy: policy('dynamodb:GetItem'),
      ExpectedRevisionId: 'NO_POLICY',
    }));
    assert.match(first.RevisionId, /^\d{13}$/);
    const read = await ddb.send(new GetResourcePolicyCommand({ ResourceArn: ARN }));
    assert.equal(read.RevisionId, first.RevisionId);
    assert.equal(read.Policy,
      '{"Version":"2012-10-17","Statement":[{"Effect":"Allow",' +
      '"Principal":{"AWS":"arn:aws:iam::111122223333:root"},' +
      '"Action":"dynamodb:GetItem","Resource":"*"}]}');
    const second = await ddb.send(new PutResourcePolicyCommand({
      ResourceArn: ARN, Policy: policy('dynamodb:Query'),
      ExpectedRevisionId: first.RevisionId,
    }));
    assert.ok(BigInt(second.RevisionId) > BigInt(first.RevisionId));
    await rejects(
      ddb.send(new PutResourcePolicyCommand({
        ResourceArn: ARN, Policy: policy('dynamodb:Scan'),
        ExpectedRevisionId: first.RevisionId,
      })),
      'PolicyNotFoundException',
      'Resource-based policy not found for the provided ResourceArn: ' +
      `Requested update for policy with revision id ${first.RevisionId}, but ` +
      `the policy associated to target table ${TABLE} has revision id ` +
      `${second.RevisionId}.`);
    const deleted = await ddb.send(new DeleteResourcePolicyCommand({
      ResourceArn: ARN, ExpectedRevisionId: second.RevisionId,
    }));
    assert.equal(deleted.RevisionId, second.RevisionId);
    await rejects(
      ddb.send(new GetResourcePolicyCommand({ ResourceArn: ARN })),
      'PolicyNotFoundException');
    await rejects(
      ddb.send(new PutResourcePolicyCommand({ ResourceArn: ARN, Policy: '{nope' })),
      'ValidationException',
      'One or more parameter values were invalid: Invalid policy document: ' +
      'This policy contains invalid Json');
  });

  test('an operation ddblab does not serve', async () => {
    await rejects(
      ddb.send(new ExportTableToPointInTimeCommand({
        TableArn: ARN, S3Bucket: 'bucket',
      })),
      'UnknownOperationException');
  });
});
