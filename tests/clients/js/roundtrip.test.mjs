// AWS SDK for JavaScript v3 against `ddblab serve`. Run by
// `tests/clients/run.py js`, which starts the server and passes its endpoint
// in DDBLAB_ENDPOINT. Retries are off (maxAttempts: 1) so nothing is hidden.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import {
  ConditionalCheckFailedException,
  CreateTableCommand,
  DeleteItemCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  GetItemCommand,
  ListTablesCommand,
  PutItemCommand,
  QueryCommand,
  ResourceNotFoundException,
  ScanCommand,
  TransactionCanceledException,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import {
  DynamoDBStreamsClient,
  ListStreamsCommand,
} from '@aws-sdk/client-dynamodb-streams';

import { config } from './client_config.mjs';

const ddb = new DynamoDBClient(config);
const streams = new DynamoDBStreamsClient(config);

async function createTable(name) {
  return ddb.send(new CreateTableCommand({
    TableName: name,
    KeySchema: [
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ],
    AttributeDefinitions: [
      { AttributeName: 'pk', AttributeType: 'S' },
      { AttributeName: 'sk', AttributeType: 'N' },
    ],
    BillingMode: 'PAY_PER_REQUEST',
  }));
}

const key = (pk, sk) => ({ pk: { S: pk }, sk: { N: String(sk) } });

after(() => {
  ddb.destroy();
  streams.destroy();
});

describe('round trip', () => {
  const table = 'js_roundtrip';

  test('create, put, get, query, scan, delete', async () => {
    const created = await createTable(table);
    assert.equal(created.TableDescription.TableName, table);
    assert.equal(created.$metadata.httpStatusCode, 200);
    assert.match(created.$metadata.requestId, /^[A-Z0-9]{52}$/);

    const listed = await ddb.send(new ListTablesCommand({}));
    assert.ok(listed.TableNames.includes(table));

    for (const sk of [1, 2, 3]) {
      await ddb.send(new PutItemCommand({
        TableName: table,
        Item: { ...key('a', sk), v: { S: `value${sk}` }, b: { B: new Uint8Array([0, 255]) } },
      }));
    }
    const got = await ddb.send(new GetItemCommand({
      TableName: table, Key: key('a', 2), ConsistentRead: true,
    }));
    assert.deepEqual(got.Item.v, { S: 'value2' });
    assert.deepEqual(got.Item.b, { B: new Uint8Array([0, 255]) });

    const missing = await ddb.send(new GetItemCommand({ TableName: table, Key: key('zz', 1) }));
    assert.equal(missing.Item, undefined);

    const queried = await ddb.send(new QueryCommand({
      TableName: table,
      KeyConditionExpression: 'pk = :p AND sk > :s',
      ExpressionAttributeValues: { ':p': { S: 'a' }, ':s': { N: '1' } },
      ScanIndexForward: false,
    }));
    assert.deepEqual(queried.Items.map((i) => i.sk.N), ['3', '2']);

    const scanned = await ddb.send(new ScanCommand({ TableName: table }));
    assert.equal(scanned.Count, 3);

    const deleted = await ddb.send(new DeleteItemCommand({
      TableName: table, Key: key('a', 1), ReturnValues: 'ALL_OLD',
    }));
    assert.deepEqual(deleted.Attributes.v, { S: 'value1' });

    await ddb.send(new DeleteTableCommand({ TableName: table }));
    await assert.rejects(
      ddb.send(new DescribeTableCommand({ TableName: table })),
      (err) => {
        assert.ok(err instanceof ResourceNotFoundException);
        assert.equal(err.message, `Requested resource not found: Table: ${table} not found`);
        assert.equal(err.$metadata.httpStatusCode, 400);
        return true;
      });
  });
});

describe('errors', () => {
  const table = 'js_errors';
  before(async () => {
    await createTable(table);
    await ddb.send(new PutItemCommand({
      TableName: table, Item: { ...key('x', 1), v: { N: '1' } },
    }));
  });

  test('ConditionalCheckFailedException carries the old item', async () => {
    await assert.rejects(
      ddb.send(new PutItemCommand({
        TableName: table,
        Item: { ...key('x', 1), v: { N: '2' } },
        ConditionExpression: 'attribute_not_exists(pk)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      })),
      (err) => {
        assert.ok(err instanceof ConditionalCheckFailedException, err.name);
        assert.equal(err.name, 'ConditionalCheckFailedException');
        assert.equal(err.message, 'The conditional request failed');
        assert.deepEqual(err.Item, { ...key('x', 1), v: { N: '1' } });
        return true;
      });
  });

  test('TransactionCanceledException has CancellationReasons', async () => {
    await assert.rejects(
      ddb.send(new TransactWriteItemsCommand({
        TransactItems: [
          {
            ConditionCheck: {
              TableName: table,
              Key: key('x', 1),
              ConditionExpression: 'v = :two',
              ExpressionAttributeValues: { ':two': { N: '2' } },
            },
          },
          { Put: { TableName: table, Item: { ...key('y', 1) } } },
        ],
      })),
      (err) => {
        assert.ok(err instanceof TransactionCanceledException, err.name);
        assert.equal(err.message,
          'Transaction cancelled, please refer cancellation reasons for specific reasons '
          + '[ConditionalCheckFailed, None]');
        assert.deepEqual(err.CancellationReasons, [
          { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' },
          { Code: 'None' },
        ]);
        return true;
      });
    const y = await ddb.send(new GetItemCommand({ TableName: table, Key: key('y', 1) }));
    assert.equal(y.Item, undefined, 'the cancelled Put must not apply');
  });
});

describe('streams', () => {
  test('ListStreams answers through the Streams client', async () => {
    const out = await streams.send(new ListStreamsCommand({}));
    assert.ok(Array.isArray(out.Streams));
  });
});
