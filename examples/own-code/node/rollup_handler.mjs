// A Lambda handler on the `transfers` table's stream: it rolls the bytes of
// each new transfer up into its customer's item in `rollups`.
//
//     node rollup_handler.mjs naive|dedupe      (the event on stdin)
//
// This is the handler as deployed (`export const handler`); the lines at the
// bottom run it as ddblab's Command function: the event on stdin, the answer
// on stdout. Lambda delivers a batch again when an invocation fails,
// including the records the failed invocation had already handled.
//
// naive:  ADD bytes, transfers to the customer's rollup. A batch delivered
//         again counts its first records twice.
// dedupe: each record in one transaction with a marker item keyed by the
//         record's eventID (the same on every delivery), put only if absent
//         (attribute_not_exists). A cancelled transaction whose marker
//         condition failed means the record was counted already.
import { readFileSync } from 'node:fs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient, TransactWriteCommand, UpdateCommand,
} from '@aws-sdk/lib-dynamodb';

const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const mode = process.argv[2];

// The record's image is in DynamoDB JSON ({"S": "alice"}, {"N": "100"}).
function add(image) {
  return {
    TableName: 'rollups', Key: { customer: image.customer.S },
    UpdateExpression: 'ADD bytes :b, transfers :one',
    ExpressionAttributeValues: { ':b': Number(image.bytes.N), ':one': 1 },
  };
}

async function countNaive(record) {
  await ddb.send(new UpdateCommand(add(record.dynamodb.NewImage)));
}

async function countDedupe(record) {
  const marker = {
    TableName: 'processed', Item: { eventID: record.eventID },
    ConditionExpression: 'attribute_not_exists(eventID)',
  };
  try {
    await ddb.send(new TransactWriteCommand({
      TransactItems: [{ Put: marker }, { Update: add(record.dynamodb.NewImage) }],
    }));
  } catch (e) {
    if (e.name !== 'TransactionCanceledException' ||
        e.CancellationReasons?.[0]?.Code !== 'ConditionalCheckFailed') throw e;
    // counted already, by an earlier delivery of this batch
  }
}

export const handler = async (event) => {
  const count = mode === 'naive' ? countNaive : countDedupe;
  for (const record of event.Records) {
    if (record.eventName === 'INSERT') await count(record);
  }
  return null;
};

// As ddblab's Command function: the event on stdin, the answer on stdout.
const result = await handler(JSON.parse(readFileSync(0, 'utf8')));
process.stdout.write(JSON.stringify(result));
ddb.destroy();
