// DynamoDB Streams through @aws-sdk/client-dynamodb-streams against
// `ddblab serve` (run by `tests/clients/run.py js`, endpoint in
// DDBLAB_ENDPOINT): every write once and in per-item order when all shards
// are read from TRIM_HORIZON parents first, across a shard split
// (POST /_ddblab/streams/split); ShardFilter CHILD_SHARDS; closed shards;
// error names. Retries are off (maxAttempts: 1).
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';

import {
  CreateTableCommand,
  DeleteItemCommand,
  DynamoDBClient,
  PutItemCommand,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  ListStreamsCommand,
  ResourceNotFoundException,
} from '@aws-sdk/client-dynamodb-streams';

import { config, controlHeaders, endpoint } from './client_config.mjs';

const ddb = new DynamoDBClient(config);
const streams = new DynamoDBStreamsClient(config);

after(() => {
  ddb.destroy();
  streams.destroy();
});

async function createTable(name, view) {
  const out = await ddb.send(new CreateTableCommand({
    TableName: name,
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
    BillingMode: 'PAY_PER_REQUEST',
    StreamSpecification: { StreamEnabled: true, StreamViewType: view },
  }));
  return out.TableDescription.LatestStreamArn;
}

async function split(table) {
  const response = await fetch(`${endpoint}/_ddblab/streams/split`, {
    method: 'POST',
    headers: controlHeaders,
    body: JSON.stringify({ TableName: table }),
  });
  assert.equal(response.status, 200);
  return response.json();
}

async function allShards(arn) {
  const shards = [];
  let start;
  for (;;) {
    const { StreamDescription: d } = await streams.send(new DescribeStreamCommand({
      StreamArn: arn, Limit: 1, ExclusiveStartShardId: start,
    }));
    shards.push(...d.Shards);
    if (!d.LastEvaluatedShardId) return shards;
    start = d.LastEvaluatedShardId;
  }
}

// Every record of one shard from TRIM_HORIZON; also whether the last
// answer still had a NextShardIterator.
async function readShard(arn, shardId) {
  let { ShardIterator: it } = await streams.send(new GetShardIteratorCommand({
    StreamArn: arn, ShardId: shardId, ShardIteratorType: 'TRIM_HORIZON',
  }));
  const records = [];
  for (;;) {
    const out = await streams.send(new GetRecordsCommand({ ShardIterator: it, Limit: 5 }));
    records.push(...out.Records);
    if (out.NextShardIterator === undefined || out.Records.length === 0) {
      return { records, open: out.NextShardIterator !== undefined };
    }
    it = out.NextShardIterator;
  }
}

// All records, shards in lineage order (a child after its parent).
async function readAll(arn) {
  const shards = await allShards(arn);
  const listed = new Set(shards.map((s) => s.ShardId));
  const done = new Set();
  const records = [];
  while (done.size < shards.length) {
    let progress = false;
    for (const s of shards) {
      const parent = s.ParentShardId;
      if (done.has(s.ShardId) || (listed.has(parent) && !done.has(parent))) continue;
      records.push(...(await readShard(arn, s.ShardId)).records);
      done.add(s.ShardId);
      progress = true;
    }
    assert.ok(progress, 'shard lineage has a cycle');
  }
  return records;
}

describe('streams', () => {
  test('every write once, in per-item order, across a split', async () => {
    const arn = await createTable('js_streams_walk', 'NEW_AND_OLD_IMAGES');
    const expected = new Map();
    const put = async (pk, v) => {
      await ddb.send(new PutItemCommand({
        TableName: 'js_streams_walk', Item: { pk: { S: pk }, v: { N: String(v) } },
      }));
      const list = expected.get(pk) ?? [];
      list.push([list.length === 0 || list.at(-1)[0] === 'REMOVE' ? 'INSERT' : 'MODIFY', String(v)]);
      expected.set(pk, list);
    };
    for (let i = 0; i < 10; i++) await put(`k${i % 5}`, i);
    const { closed, created } = await split('js_streams_walk');
    assert.equal(closed.length, 1);
    assert.equal(created.length, 2);
    for (let i = 10; i < 20; i++) await put(`k${i % 5}`, i);
    await ddb.send(new DeleteItemCommand({ TableName: 'js_streams_walk', Key: { pk: { S: 'k0' } } }));
    expected.get('k0').push(['REMOVE', undefined]);

    const { StreamDescription: children } = await streams.send(new DescribeStreamCommand({
      StreamArn: arn, ShardFilter: { Type: 'CHILD_SHARDS', ShardId: closed[0] },
    }));
    assert.deepEqual(children.Shards.map((s) => s.ShardId), created);
    assert.ok(children.Shards.every((s) => s.ParentShardId === closed[0]));

    const seen = new Map();
    for (const r of await readAll(arn)) {
      assert.equal(r.eventSource, 'aws:dynamodb');
      assert.match(r.dynamodb.SequenceNumber, /^[0-9]{21}$/);
      assert.ok(r.dynamodb.ApproximateCreationDateTime instanceof Date);
      const pk = r.dynamodb.Keys.pk.S;
      const list = seen.get(pk) ?? [];
      list.push([r.eventName, r.dynamodb.NewImage?.v?.N]);
      seen.set(pk, list);
    }
    assert.deepEqual(seen, expected);
  });

  test('a disabled stream: closed shards end without NextShardIterator', async () => {
    const arn = await createTable('js_streams_closed', 'KEYS_ONLY');
    await ddb.send(new PutItemCommand({ TableName: 'js_streams_closed', Item: { pk: { S: 'a' } } }));
    await ddb.send(new UpdateTableCommand({
      TableName: 'js_streams_closed', StreamSpecification: { StreamEnabled: false },
    }));
    const { StreamDescription: d } = await streams.send(new DescribeStreamCommand({ StreamArn: arn }));
    assert.equal(d.StreamStatus, 'DISABLED');
    assert.equal(d.TableName, 'js_streams_closed');
    assert.deepEqual(d.KeySchema, [{ AttributeName: 'pk', KeyType: 'HASH' }]);
    const { records, open } = await readShard(arn, d.Shards[0].ShardId);
    assert.equal(records.length, 1);
    assert.equal(open, false);
    const listed = await streams.send(new ListStreamsCommand({ TableName: 'js_streams_closed' }));
    assert.deepEqual(listed.Streams.map((s) => s.StreamArn), [arn]);
  });

  test('errors carry DynamoDB Streams names', async () => {
    const arn = await createTable('js_streams_errors', 'KEYS_ONLY');
    await assert.rejects(
      streams.send(new DescribeStreamCommand({ StreamArn: arn.replace('/js_streams_errors/', '/nope/') })),
      (e) => e instanceof ResourceNotFoundException &&
        e.message.startsWith('Requested resource not found: Stream: '));
    await assert.rejects(
      streams.send(new GetRecordsCommand({ ShardIterator: 'not-an-iterator-at-all' })),
      (e) => e.name === 'ValidationException' && e.message === 'Invalid ShardIterator');
  });
});
