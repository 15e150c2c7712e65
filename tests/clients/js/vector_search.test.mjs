// Vector indexes and SearchVectors with the AWS SDK for JavaScript v3
// (3.1162.0 models them): CreateTable with VectorIndexes, DescribeTable,
// writes, SearchVectorsCommand over HTTP (scores, SearchConditionExpression,
// projection, ConsumedCapacity) and one of its refusals. Run by
// `tests/clients/run.py js`.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';

import {
  BatchWriteItemCommand,
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  PutItemCommand,
  SearchVectorsCommand,
} from '@aws-sdk/client-dynamodb';

import { config } from './client_config.mjs';

const ddb = new DynamoDBClient(config);
after(() => ddb.destroy());

const TABLE = 'js_vectors';
const vec = (...xs) => ({ L: xs.map((x) => ({ N: String(x) })) });

describe('vector search', () => {
  test('create, describe, write, search', async () => {
    await ddb.send(new CreateTableCommand({
      TableName: TABLE,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'tenant', AttributeType: 'S' },
      ],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      VectorIndexes: [
        {
          IndexName: 'by_meaning',
          VectorAttribute: { AttributeName: 'embedding' },
          Dimensions: 3,
          DistanceFunction: 'EUCLIDEAN',
          Projection: { ProjectionType: 'ALL' },
        },
        {
          IndexName: 'per_tenant',
          VectorAttribute: { AttributeName: 'embedding' },
          SearchSchema: [{ AttributeName: 'tenant', SearchSchemaElementType: 'HASH' }],
          Dimensions: 3,
          DistanceFunction: 'COSINE',
          Projection: { ProjectionType: 'KEYS_ONLY' },
        },
      ],
    }));
    const { Table } = await ddb.send(new DescribeTableCommand({ TableName: TABLE }));
    assert.equal(Table.VectorIndexes.length, 2);
    const [plain, scoped] = Table.VectorIndexes;
    assert.equal(plain.IndexName, 'by_meaning');
    assert.equal(plain.IndexStatus, 'ACTIVE');
    assert.equal(plain.Dimensions, 3);
    assert.equal(plain.DistanceFunction, 'EUCLIDEAN');
    assert.deepEqual(plain.VectorAttribute, { AttributeName: 'embedding' });
    assert.equal(plain.IndexArn.endsWith(`:table/${TABLE}/index/by_meaning`), true);
    assert.deepEqual(scoped.SearchSchema,
                     [{ AttributeName: 'tenant', SearchSchemaElementType: 'HASH' }]);

    await ddb.send(new PutItemCommand({
      TableName: TABLE,
      Item: { pk: { S: 'a' }, tenant: { S: 't1' }, embedding: vec(1, 0, 0) },
    }));
    await ddb.send(new BatchWriteItemCommand({
      RequestItems: {
        [TABLE]: [
          { PutRequest: { Item: { pk: { S: 'b' }, tenant: { S: 't1' }, embedding: vec(0, 1, 0) } } },
          { PutRequest: { Item: { pk: { S: 'c' }, tenant: { S: 't2' }, embedding: vec(-1, 0, 0) } } },
        ],
      },
    }));

    const all = await ddb.send(new SearchVectorsCommand({
      TableName: TABLE,
      IndexName: 'by_meaning',
      SearchVector: [{ N: '1' }, { N: '0' }, { N: '0' }],
      TopK: 10,
      ProjectionExpression: 'pk, embedding',
      ReturnConsumedCapacity: 'TOTAL',
    }));
    assert.deepEqual(all.SearchResults.map((r) => r.Item.pk.S), ['a', 'b', 'c']);
    assert.deepEqual(all.SearchResults.map((r) => r.Score), [0, Math.SQRT2, 2]);
    assert.deepEqual(all.SearchResults[0].Item.embedding, vec('1.0', '0.0', '0.0'));
    assert.equal(all.ConsumedCapacity.VectorSearchRequestBytes, 1024);

    const scopedHits = await ddb.send(new SearchVectorsCommand({
      TableName: TABLE,
      IndexName: 'per_tenant',
      SearchVector: [{ N: '1' }, { N: '0.5' }, { N: '0' }],
      SearchConditionExpression: 'tenant = :t',
      ExpressionAttributeValues: { ':t': { S: 't1' } },
      TopK: 1,
    }));
    assert.deepEqual(scopedHits.SearchResults.map((r) => r.Item),
                     [{ pk: { S: 'a' }, tenant: { S: 't1' } }]);

    await assert.rejects(ddb.send(new SearchVectorsCommand({
      TableName: TABLE,
      IndexName: 'per_tenant',
      SearchVector: [{ N: '1' }, { N: '1' }, { N: '0' }],
      TopK: 1,
    })), (err) => {
      assert.equal(err.name, 'ValidationException');
      assert.equal(err.message,
                   'SearchConditionExpression must be provided when SearchSchema has a HASH key');
      assert.equal(err.$metadata.httpStatusCode, 400);
      return true;
    });
  });
});
