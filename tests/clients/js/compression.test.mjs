// Compression with the AWS SDK for JavaScript v3. The SDK neither asks for
// compressed DynamoDB responses nor compresses DynamoDB requests by itself,
// so a middleware adds Accept-Encoding (or gzips the body and sets
// Content-Encoding) before signing, and a request handler wrapped around the
// SDK's own checks x-amz-crc32 against the bytes received and decompresses
// them before the SDK parses the body. Run by `tests/clients/run.py js`.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { after, before, describe, test } from 'node:test';

import {
  CreateTableCommand,
  DeleteTableCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
} from '@aws-sdk/client-dynamodb';

import { config } from './client_config.mjs';

const table = 'js_compression';
const big = 'x'.repeat(5000);

async function readAll(stream) {
  const chunks = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

// A client whose responses pass through `seen` (one entry per response:
// its Content-Encoding, or null) and whose requests carry the headers and
// body `shape` gives.
function makeClient(seen, shape) {
  const inner = new DynamoDBClient(config).config.requestHandler;
  const ddb = new DynamoDBClient({
    ...config,
    requestHandler: {
      async handle(request, options) {
        const out = await inner.handle(request, options);
        const { response } = out;
        const encoding = response.headers['content-encoding'] ?? null;
        seen.push(encoding);
        if (encoding !== null) {
          const raw = await readAll(response.body);
          // The CRC covers the compressed bytes, as sent.
          assert.equal(String(zlib.crc32(raw)), response.headers['x-amz-crc32']);
          const plain = encoding === 'gzip' ? zlib.gunzipSync(raw) : zlib.inflateSync(raw);
          response.body = Readable.from([plain]);
          delete response.headers['content-encoding'];
          response.headers['content-length'] = String(plain.length);
        }
        return out;
      },
      updateHttpClientConfig() {},
      httpHandlerConfigs() { return {}; },
    },
  });
  ddb.middlewareStack.add((next) => async (args) => {
    shape(args.request);
    return next(args);
  }, { step: 'build', name: 'ddblabCompressionShape', priority: 'low' });
  return ddb;
}

describe('compression with the JS SDK v3', () => {
  let accept = null;
  let gzipRequests = false;
  const seen = [];
  const ddb = makeClient(seen, (request) => {
    if (accept !== null) request.headers['accept-encoding'] = accept;
    if (gzipRequests) {
      const body = zlib.gzipSync(Buffer.from(request.body));
      request.body = body;
      request.headers['content-encoding'] = 'gzip';
      request.headers['content-length'] = String(body.length);
    }
  });

  before(async () => {
    await ddb.send(new CreateTableCommand({
      TableName: table,
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      BillingMode: 'PAY_PER_REQUEST',
    }));
    await ddb.send(new PutItemCommand({
      TableName: table,
      Item: { pk: { S: 'big' }, data: { S: big } },
    }));
    await ddb.send(new PutItemCommand({ TableName: table, Item: { pk: { S: 'small' } } }));
  });
  after(async () => {
    accept = null;
    gzipRequests = false;
    await ddb.send(new DeleteTableCommand({ TableName: table }));
    ddb.destroy();
  });

  const get = (pk) => ddb.send(new GetItemCommand({
    TableName: table, Key: { pk: { S: pk } }, ConsistentRead: true,
  }));

  test('large responses come back gzip or deflate compressed', async () => {
    for (const [header, expected] of [['gzip', 'gzip'], ['deflate', 'deflate'],
      ['gzip;q=0.5, deflate', 'deflate'], ['identity', null]]) {
      accept = header;
      seen.length = 0;
      const out = await get('big');
      assert.equal(out.Item.data.S, big);
      assert.deepEqual(seen, [expected], header);
    }
  });

  test('small responses and requests without Accept-Encoding stay plain', async () => {
    accept = 'gzip';
    seen.length = 0;
    assert.deepEqual((await get('small')).Item, { pk: { S: 'small' } });
    accept = null;
    assert.equal((await get('big')).Item.data.S, big);
    assert.deepEqual(seen, [null, null]);
  });

  test('gzip request bodies are decoded', async () => {
    gzipRequests = true;
    await ddb.send(new PutItemCommand({
      TableName: table,
      Item: { pk: { S: 'zipped' }, data: { S: big } },
    }));
    gzipRequests = false;
    accept = null;
    assert.equal((await get('zipped')).Item.data.S, big);
  });
});
