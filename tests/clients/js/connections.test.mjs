// The AWS SDK for JavaScript v3 with a 256-socket keep-alive agent: 256
// GetItem sent at once with Promise.all all complete (the old server served
// 16 connections at a time and made the 17th wait for a 5 s keep-alive
// timeout). Run by `tests/clients/run.py js`.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';

import {
  CreateTableCommand,
  DeleteTableCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
} from '@aws-sdk/client-dynamodb';

import { config } from './client_config.mjs';

const kRequests = 256;
const agent = new http.Agent({ keepAlive: true, maxSockets: kRequests });
const ddb = new DynamoDBClient({
  ...config,
  // A request not answered within 3 s fails: the failure signal of the old
  // server's 5 s stall (no duration is asserted).
  requestHandler: {
    httpAgent: agent,
    requestTimeout: 3000,
    throwOnRequestTimeout: true,
  },
});
const table = 'js_connections';

describe('many connections', () => {
  before(async () => {
    await ddb.send(new CreateTableCommand({
      TableName: table,
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      BillingMode: 'PAY_PER_REQUEST',
    }));
  });
  after(async () => {
    await ddb.send(new DeleteTableCommand({ TableName: table }));
    ddb.destroy();
    agent.destroy();
  });

  test('256 PutItem then 256 GetItem with Promise.all', async () => {
    const keys = Array.from({ length: kRequests }, (_, i) => `k${i}`);
    await Promise.all(keys.map((k, i) => ddb.send(new PutItemCommand({
      TableName: table,
      Item: { pk: { S: k }, n: { N: String(i) } },
    }))));
    const got = await Promise.all(keys.map((k) => ddb.send(
      new GetItemCommand({ TableName: table, Key: { pk: { S: k } } }))));
    assert.equal(got.length, kRequests);
    got.forEach((r, i) => {
      assert.deepEqual(r.Item, { pk: { S: `k${i}` }, n: { N: String(i) } });
    });
    // The agent really opened many sockets (the load was concurrent).
    const open = Object.values(agent.freeSockets)
      .reduce((sum, list) => sum + list.length, 0);
    assert.ok(open > 16, `only ${open} sockets were opened`);
  });
});
