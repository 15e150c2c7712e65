// Keeps a sensor's latest reading, written as a service would: each worker
// relays readings that carry the device's own timestamp and stores the reading.
//
//     node latest_reading.mjs naive|conditional WORKER
//
// Worker n relays the readings taken at t = n, n + 2, n + 4 (two workers: 1..6
// between them, interleaved), in its own order. The item must end with the
// newest reading, t = 6.
//
// naive:       a plain PutCommand: the last write wins, not the newest reading.
// conditional: the put only replaces an older reading
//              ("attribute_not_exists(ts) OR :ts >= ts"); a
//              ConditionalCheckFailedException means a newer reading is
//              already stored: drop this one.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';

const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const [mode, worker] = [process.argv[2], Number(process.argv[3])];

for (const ts of [worker, worker + 2, worker + 4]) {
  const put = { TableName: 'sensors', Item: { id: 's1', ts, temp: 20 + ts } };
  if (mode === 'conditional') {
    put.ConditionExpression = 'attribute_not_exists(ts) OR :ts >= ts';
    put.ExpressionAttributeValues = { ':ts': ts };
  }
  try {
    await ddb.send(new PutCommand(put));
  } catch (e) {
    if (e.name !== 'ConditionalCheckFailedException') throw e;
    // a newer reading is stored already
  }
}
ddb.destroy();
