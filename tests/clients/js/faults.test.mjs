// Fault plans through the AWS SDK for JavaScript v3 against `ddblab serve`
// (run by `tests/clients/run.py js`, endpoint in DDBLAB_ENDPOINT): the SDK's
// standard retries absorbing two throttles, and a GetRecords
// visibility_delay seen through @aws-sdk/client-dynamodb-streams. Every rule
// names this file's own tables, so the other test files (which share the
// server) are not affected; the plan is cleared at the end.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';

import {
  CreateTableCommand,
  DynamoDBClient,
  PutItemCommand,
} from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';

import { config, controlHeaders, endpoint } from './client_config.mjs';

const ddb = new DynamoDBClient(config);
const retrying = new DynamoDBClient({ ...config, maxAttempts: 3 });
const streams = new DynamoDBStreamsClient(config);

after(async () => {
  await fetch(`${endpoint}/_ddblab/faults`, { method: 'DELETE', headers: controlHeaders });
  ddb.destroy();
  retrying.destroy();
  streams.destroy();
});

async function control(method, path, body) {
  const response = await fetch(`${endpoint}${path}`, {
    method,
    headers: controlHeaders,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

async function createTable(name, stream) {
  const out = await ddb.send(new CreateTableCommand({
    TableName: name,
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
    BillingMode: 'PAY_PER_REQUEST',
    ...(stream ? {
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'KEYS_ONLY' },
    } : {}),
  }));
  return out.TableDescription.LatestStreamArn;
}

describe('fault plans', () => {
  test('the SDK retries two throttles and the third attempt succeeds',
    async () => {
      await createTable('js_faults_throttled', false);
      const before = (await control('GET', '/_ddblab/faults/log')).body.faults
        .length;
      const set = await control('POST', '/_ddblab/faults', {
        rules: [{
          id: 'js-throttle', operation: 'PutItem',
          table: 'js_faults_throttled', nth: [1, 2], effect: 'throttle',
        }],
      });
      assert.equal(set.status, 200);
      const out = await retrying.send(new PutItemCommand({
        TableName: 'js_faults_throttled', Item: { pk: { S: 'a' } },
      }));
      assert.equal(out.$metadata.httpStatusCode, 200);
      assert.equal(out.$metadata.attempts, 3);
      const log = (await control('GET', '/_ddblab/faults/log')).body.faults
        .slice(before);
      assert.deepEqual(log.map((e) => [e.rule, e.effect, e.table]), [
        ['js-throttle', 'throttle', 'js_faults_throttled'],
        ['js-throttle', 'throttle', 'js_faults_throttled'],
      ]);
    });

  test('GetRecords visibility_delay hides a record until it is old enough',
    async () => {
      const arn = await createTable('js_faults_lagging', true);
      const delayMs = 1500;
      const set = await control('POST', '/_ddblab/faults', {
        rules: [{
          operation: 'GetRecords', table: 'js_faults_lagging',
          effect: 'visibility_delay', duration: `${delayMs}ms`,
        }],
      });
      assert.equal(set.status, 200);
      const shard = (await streams.send(new DescribeStreamCommand({
        StreamArn: arn,
      }))).StreamDescription.Shards[0].ShardId;
      const iterator = (await streams.send(new GetShardIteratorCommand({
        StreamArn: arn, ShardId: shard, ShardIteratorType: 'TRIM_HORIZON',
      }))).ShardIterator;
      await ddb.send(new PutItemCommand({
        TableName: 'js_faults_lagging', Item: { pk: { S: 'late' } },
      }));
      // The server's clock is manual: the record is as old as the clock
      // is moved past its write.
      const advance = async (duration) => {
        const moved = await control('POST', '/_ddblab/clock',
          { advance: duration });
        assert.equal(moved.status, 200);
      };
      const first = await streams.send(new GetRecordsCommand({
        ShardIterator: iterator,
      }));
      assert.deepEqual(first.Records, []);
      assert.ok(first.NextShardIterator);
      await advance(`${delayMs - 1}ms`);
      const second = await streams.send(new GetRecordsCommand({
        ShardIterator: first.NextShardIterator,
      }));
      assert.deepEqual(second.Records, [], 'visible before the delay');
      await advance('1ms');
      const third = await streams.send(new GetRecordsCommand({
        ShardIterator: second.NextShardIterator,
      }));
      const records = third.Records;
      assert.equal(records.length, 1);
      assert.equal(records[0].eventName, 'INSERT');
      assert.deepEqual(records[0].dynamodb.Keys, { pk: { S: 'late' } });
    });
});
