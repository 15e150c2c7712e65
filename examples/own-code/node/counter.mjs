// A hit counter, written as a service would: read, add one, write back.
//
//     node counter.mjs naive|versioned INCREMENTS
//
// naive:     GetCommand, add 1, PutCommand. Two workers that read the same
//            value both write value + 1: one increment is lost.
// versioned: the same, but the put is conditional on the version read
//            ("attribute_not_exists(id) OR v = :v"); a
//            ConditionalCheckFailedException means another worker wrote in
//            between: read again and retry.
//
// Under `ddblab run` the SDK finds the endpoint (AWS_ENDPOINT_URL_DYNAMODB),
// region and this worker's key in the environment: no configuration here.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';

const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const TableName = 'counters';
const Key = { id: 'hits' };

async function read() {
  const { Item } = await ddb.send(new GetCommand({ TableName, Key, ConsistentRead: true }));
  return { n: Item?.n ?? 0, v: Item?.v ?? 0 };
}

async function incrementNaive() {
  const { n } = await read();
  await ddb.send(new PutCommand({ TableName, Item: { ...Key, n: n + 1 } }));
}

async function incrementVersioned() {
  for (;;) {
    const { n, v } = await read();
    try {
      await ddb.send(new PutCommand({
        TableName,
        Item: { ...Key, n: n + 1, v: v + 1 },
        ConditionExpression: 'attribute_not_exists(id) OR v = :v',
        ExpressionAttributeValues: { ':v': v },
      }));
      return;
    } catch (e) {
      if (e.name !== 'ConditionalCheckFailedException') throw e;
      // someone wrote since our read: read again
    }
  }
}

const [mode, increments] = [process.argv[2], Number(process.argv[3])];
const increment = mode === 'naive' ? incrementNaive : incrementVersioned;
for (let i = 0; i < increments; i++) await increment();
ddb.destroy();
