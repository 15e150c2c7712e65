// tests/clients/consumer/aggregator.mjs: a real-time rollup handler: every
// INSERT into the orders table (customer S, amount N) adds its amount to
// the customer's item in the totals table, with the AWS SDK for JavaScript v3
// writing through the endpoint given as context.args[0].
import { DynamoDBClient, UpdateItemCommand } from '@aws-sdk/client-dynamodb';

let client;

export const handler = async (event, context) => {
  client ??= new DynamoDBClient({ endpoint: context.args[0], maxAttempts: 1 });
  for (const record of event.Records) {
    if (record.eventName !== 'INSERT') continue;
    const image = record.dynamodb.NewImage;
    await client.send(new UpdateItemCommand({
      TableName: 'totals',
      Key: { customer: { S: image.customer.S } },
      UpdateExpression: 'ADD amount :a, orders :one',
      ExpressionAttributeValues: { ':a': { N: image.amount.N }, ':one': { N: '1' } },
    }));
  }
  return null;
};
