// The counter's invariant: it equals the increments the workers made.
//
//     node check_counter.mjs EXPECTED
//
// Exit 0 when the counter is EXPECTED; otherwise exit 1 with the problem on
// the first line (ddblab run shows it as the violation).
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const expected = Number(process.argv[2]);
const { Item } = await ddb.send(new GetCommand({
  TableName: 'counters', Key: { id: 'hits' }, ConsistentRead: true,
}));
const n = Item?.n ?? 0;
ddb.destroy();
if (n !== expected) {
  console.log(`counter hits is ${n}, expected ${expected}: ${expected - n} increment(s) lost`);
  process.exit(1);
}
