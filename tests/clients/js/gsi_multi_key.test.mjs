// Multi-attribute GSI keys with the AWS SDK for JavaScript v3: create a
// table whose GSI has two HASH and two RANGE attributes, write, query every
// legal key-condition shape and a refused one, update (moving an item
// between partitions), delete, then add a second such index with
// UpdateTable (backfill) and delete it. Run by `tests/clients/run.py js`.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';

import {
  CreateTableCommand,
  DeleteItemCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  PutItemCommand,
  QueryCommand,
  ResourceNotFoundException,
  UpdateItemCommand,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';

import { config } from './client_config.mjs';

const ddb = new DynamoDBClient(config);
after(() => ddb.destroy());

const TABLE = 'js_gsi_multi';
const KEY_SCHEMA = [
  { AttributeName: 'tenant', KeyType: 'HASH' },
  { AttributeName: 'area', KeyType: 'HASH' },
  { AttributeName: 'yr', KeyType: 'RANGE' },
  { AttributeName: 'tag', KeyType: 'RANGE' },
];

const item = (pk, tenant, area, yr, tag) => ({
  pk: { S: pk }, tenant: { S: tenant }, area: { S: area },
  yr: { N: String(yr) }, tag: { S: tag },
});

// Query of tenant T, area z1, plus `more`; values for :y, :y2, :g, :g2.
async function pks(more = '', values = {}, extra = {}) {
  const attrValues = { ':t': { S: 'T' }, ':z': { S: 'z1' } };
  for (const [name, v] of Object.entries(values)) {
    attrValues[`:${name}`] = typeof v === 'number' ? { N: String(v) } : { S: v };
  }
  const out = await ddb.send(new QueryCommand({
    TableName: TABLE,
    IndexName: 'by_area',
    KeyConditionExpression:
        'tenant = :t AND area = :z' + (more ? ` AND ${more}` : ''),
    ExpressionAttributeValues: attrValues,
    ...extra,
  }));
  return out.Items.map((i) => i.pk.S);
}

describe('multi-attribute GSI keys', () => {
  test('create, write, query, update, delete', async () => {
    await ddb.send(new CreateTableCommand({
      TableName: TABLE,
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'tenant', AttributeType: 'S' },
        { AttributeName: 'area', AttributeType: 'S' },
        { AttributeName: 'yr', AttributeType: 'N' },
        { AttributeName: 'tag', AttributeType: 'S' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      GlobalSecondaryIndexes: [{
        IndexName: 'by_area',
        KeySchema: KEY_SCHEMA,
        Projection: { ProjectionType: 'ALL' },
      }],
    }));
    const described = await ddb.send(new DescribeTableCommand({ TableName: TABLE }));
    assert.deepEqual(described.Table.GlobalSecondaryIndexes[0].KeySchema, KEY_SCHEMA);

    for (const it of [
      item('a', 'T', 'z1', 2024, 'alpha'), item('b', 'T', 'z1', 2024, 'beta'),
      item('c', 'T', 'z1', 2025, 'alpha'), item('d', 'T', 'z2', 2024, 'alpha'),
    ]) {
      await ddb.send(new PutItemCommand({ TableName: TABLE, Item: it }));
    }
    // Missing "tag": not in the index.
    await ddb.send(new PutItemCommand({
      TableName: TABLE,
      Item: { pk: { S: 'e' }, tenant: { S: 'T' }, area: { S: 'z1' }, yr: { N: '2024' } },
    }));

    assert.deepEqual(await pks(), ['a', 'b', 'c']);
    assert.deepEqual(await pks('', {}, { ScanIndexForward: false }), ['c', 'b', 'a']);
    assert.deepEqual(await pks('yr = :y', { y: 2024 }), ['a', 'b']);
    assert.deepEqual(await pks('yr > :y', { y: 2024 }), ['c']);
    assert.deepEqual(await pks('yr <= :y', { y: 2024 }), ['a', 'b']);
    assert.deepEqual(await pks('yr BETWEEN :y AND :y2', { y: 2023, y2: 2025 }), ['a', 'b', 'c']);
    assert.deepEqual(await pks('yr = :y AND tag = :g', { y: 2024, g: 'beta' }), ['b']);
    assert.deepEqual(await pks('yr = :y AND begins_with(tag, :g)', { y: 2024, g: 'al' }), ['a']);
    assert.deepEqual(await pks('yr = :y AND tag > :g', { y: 2024, g: 'alpha' }), ['b']);
    assert.deepEqual(
      await pks('yr = :y AND tag BETWEEN :g AND :g2', { y: 2024, g: 'a', g2: 'b' }), ['a']);

    await assert.rejects(pks('tag = :g', { g: 'alpha' }), (err) => {
      assert.equal(err.name, 'ValidationException');
      assert.equal(
        err.message,
        'RANGE key attributes yr must have equality conditions specified in the query ' +
          'because a condition is present on key attribute tag',
      );
      return true;
    });
    await assert.rejects(pks('yr > :y AND tag = :g', { y: 2024, g: 'alpha' }), (err) => {
      assert.equal(err.name, 'ValidationException');
      assert.equal(
        err.message,
        'RANGE key attributes yr must have equality conditions specified in the query ' +
          'because a condition is present on key attribute tag',
      );
      return true;
    });

    await ddb.send(new UpdateItemCommand({
      TableName: TABLE,
      Key: { pk: { S: 'a' } },
      UpdateExpression: 'SET area = :z',
      ExpressionAttributeValues: { ':z': { S: 'z2' } },
    }));
    assert.deepEqual(await pks(), ['b', 'c']);
    await ddb.send(new DeleteItemCommand({ TableName: TABLE, Key: { pk: { S: 'b' } } }));
    assert.deepEqual(await pks(), ['c']);
  });

  test('UpdateTable adds (backfills) and deletes such an index', async () => {
    await ddb.send(new UpdateTableCommand({
      TableName: TABLE,
      AttributeDefinitions: [
        { AttributeName: 'tenant', AttributeType: 'S' },
        { AttributeName: 'yr', AttributeType: 'N' },
        { AttributeName: 'tag', AttributeType: 'S' },
      ],
      GlobalSecondaryIndexUpdates: [{
        Create: {
          IndexName: 'by_tenant_year',
          KeySchema: [
            { AttributeName: 'tenant', KeyType: 'HASH' },
            { AttributeName: 'yr', KeyType: 'HASH' },
            { AttributeName: 'tag', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'KEYS_ONLY' },
        },
      }],
    }));
    const out = await ddb.send(new QueryCommand({
      TableName: TABLE,
      IndexName: 'by_tenant_year',
      KeyConditionExpression: 'tenant = :t AND yr = :y',
      ExpressionAttributeValues: { ':t': { S: 'T' }, ':y': { N: '2024' } },
    }));
    // a (now z2) and d hold yr 2024 and a tag; e has no tag.
    assert.deepEqual(out.Items.map((i) => i.pk.S).sort(), ['a', 'd']);

    await ddb.send(new UpdateTableCommand({
      TableName: TABLE,
      GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: 'by_tenant_year' } }],
    }));
    const described = await ddb.send(new DescribeTableCommand({ TableName: TABLE }));
    assert.deepEqual(described.Table.GlobalSecondaryIndexes.map((g) => g.IndexName), ['by_area']);
    await assert.rejects(
      ddb.send(new UpdateTableCommand({
        TableName: TABLE,
        GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: 'by_tenant_year' } }],
      })),
      (err) => {
        assert.ok(err instanceof ResourceNotFoundException);
        assert.equal(err.message,
          `Requested resource not found: Index by_tenant_year for table ${TABLE}`);
        return true;
      });
    await ddb.send(new DeleteTableCommand({ TableName: TABLE }));
  });
});
