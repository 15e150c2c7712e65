// Records file transfers, written as a service would: one PutItem per
// transfer into the `transfers` table, whose stream feeds the rollup.
//
//     node transfers.mjs WORKER COUNT
//
// Worker n records transfers wn-1 .. wn-COUNT; transfer i moves 100 * i bytes
// for customer alice (odd i) or bob (even i).
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';

const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const [worker, count] = [process.argv[2], Number(process.argv[3])];
for (let i = 1; i <= count; i++) {
  await ddb.send(new PutCommand({
    TableName: 'transfers',
    Item: { id: `w${worker}-${i}`, customer: i % 2 ? 'alice' : 'bob', bytes: 100 * i },
  }));
}
ddb.destroy();
