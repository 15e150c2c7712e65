// The rollup's invariant: each customer's rollup holds exactly the bytes and
// the number of the transfers recorded for that customer.
//
//     node check_rollup.mjs
//
// Exit 0 when every rollup matches the `transfers` table; otherwise exit 1
// with the problem on the first line (ddblab run shows it as the violation).
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, paginateScan } from '@aws-sdk/lib-dynamodb';

const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));

async function scan(table) {
  const items = [];
  for await (const page of paginateScan({ client: ddb }, { TableName: table, ConsistentRead: true })) {
    items.push(...page.Items);
  }
  return items;
}

const want = new Map();
for (const t of await scan('transfers')) {
  const [b, n] = want.get(t.customer) ?? [0, 0];
  want.set(t.customer, [b + t.bytes, n + 1]);
}
const got = new Map((await scan('rollups')).map((r) => [r.customer, [r.bytes, r.transfers]]));
ddb.destroy();
for (const customer of [...new Set([...want.keys(), ...got.keys()])].sort()) {
  const [w, g] = [want.get(customer) ?? [0, 0], got.get(customer) ?? [0, 0]];
  if (w[0] !== g[0] || w[1] !== g[1]) {
    console.log(`rollup ${customer}: ${g[0]} bytes from ${g[1]} transfers, ` +
                `expected ${w[0]} from ${w[1]} (a batch counted twice?)`);
    process.exit(1);
  }
}
