// Counts the events a worker handles, written as a service would: one
// UpdateItem per event, the SDK's default retries (3 attempts).
//
//     node count_events.mjs naive|idempotent WORKER
//
// Worker n handles events n-1, n-2, n-3. An answer lost on the way back (the
// scenario's lost_response fault) makes the SDK send the same UpdateItem again.
//
// naive:      ADD handled :one. The retry adds the event a second time.
// idempotent: ADD handled :one, seen :ids only if the event is not in `seen`
//             ("NOT contains(seen, :id)"); a ConditionalCheckFailedException
//             means the event was counted already (by our first attempt).
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';

const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const [mode, worker] = [process.argv[2], process.argv[3]];

async function countNaive(event) {
  await ddb.send(new UpdateCommand({
    TableName: 'stats', Key: { id: 'events' },
    UpdateExpression: 'ADD handled :one',
    ExpressionAttributeValues: { ':one': 1 },
  }));
}

async function countIdempotent(event) {
  try {
    await ddb.send(new UpdateCommand({
      TableName: 'stats', Key: { id: 'events' },
      UpdateExpression: 'ADD handled :one, seen :ids',
      ConditionExpression: 'NOT contains(seen, :id)',
      ExpressionAttributeValues: { ':one': 1, ':ids': new Set([event]), ':id': event },
    }));
  } catch (e) {
    if (e.name !== 'ConditionalCheckFailedException') throw e;
    // counted already
  }
}

const count = mode === 'naive' ? countNaive : countIdempotent;
for (const i of [1, 2, 3]) await count(`${worker}-${i}`);
ddb.destroy();
