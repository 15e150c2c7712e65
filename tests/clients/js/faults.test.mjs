// Fault plans through the AWS SDK for JavaScript v3 against `ddblab serve`
// (run by `tests/clients/run.py js`, endpoint in DDBLAB_ENDPOINT): the SDK's
// standard retries absorbing two throttles, and a GetRecords
// visibility_delay seen through @aws-sdk/client-dynamodb-streams, and under
// a schedule (POST /_ddblab/schedule) the SDK's own retry after a
// lost_response arriving as the actor's next step, same body. Every rule
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

describe('the SDK under a schedule', () => {
  test('its retry after lost_response is the actor\'s next step, same body',
    async () => {
      await createTable('js_sched_retry', false);
      const set = await control('POST', '/_ddblab/faults', {
        rules: [{
          operation: 'PutItem', table: 'js_sched_retry',
          key: { pk: { S: 'js-a' } }, nth: [1], effect: 'lost_response',
        }],
      });
      assert.equal(set.status, 200);
      // No tick: the other test files share this server's manual clock.
      const started = await control('POST', '/_ddblab/schedule',
        { actors: ['js-a', 'js-b'], seed: 7 });
      assert.equal(started.status, 200, JSON.stringify(started.body));
      try {
        // Each actor as a user writes it: the SDK's default retry policy.
        const actor = async (name) => {
          const client = new DynamoDBClient({
            endpoint, region: 'us-east-1',
            credentials: { accessKeyId: name, secretAccessKey: 'secret' },
          });
          try {
            const out = await client.send(new PutItemCommand({
              TableName: 'js_sched_retry',
              Item: { pk: { S: name }, v: { N: '1' } },
            }));
            return out.$metadata.attempts;
          } finally {
            client.destroy();
            await control('POST', `/_ddblab/schedule/actors/${name}/done`);
          }
        };
        assert.deepEqual(await Promise.all([actor('js-a'), actor('js-b')]),
          [2, 1]);
        const response = await fetch(`${endpoint}/_ddblab/schedule/trace`,
          { headers: controlHeaders });
        const lines = (await response.text()).trim().split('\n')
          .map((line) => JSON.parse(line));
        const body = {
          Item: { pk: { S: 'js-a' }, v: { N: '1' } }, TableName: 'js_sched_retry',
        };
        assert.deepEqual(
          lines.filter((x) => x.actor === 'js-a' && 'step' in x)
            .map((x) => [x.call, x.request, x.fault, x.response]),
          [['PutItem', body, 'lost_response', undefined],
            ['PutItem', body, undefined, {}]]);
        const state = await control('GET', '/_ddblab/schedule');
        assert.deepEqual(state.body.actors.map((x) => [x.name, x.steps]),
          [['js-a', 2], ['js-b', 1]]);
      } finally {
        await control('DELETE', '/_ddblab/schedule');
      }
    });
});
