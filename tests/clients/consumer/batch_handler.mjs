// tests/clients/consumer/batch_handler.mjs: a DynamoDB stream handler built on
// @aws-lambda-powertools/batch, as users deploy it with
// FunctionResponseTypes ReportBatchItemFailures.
//
// context.args: [FAIL_PK, MARKER_FILE, LOG_FILE]. The record whose key pk is
// FAIL_PK fails once (until MARKER_FILE exists); every invocation appends
// {"pks": [...], "response": ...} as one line to LOG_FILE.
import {
  BatchProcessor,
  EventType,
  processPartialResponse,
} from '@aws-lambda-powertools/batch';
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';

const processor = new BatchProcessor(EventType.DynamoDBStreams);

export const handler = async (event, context) => {
  const [failPk, marker, log] = context.args;
  const recordHandler = async (record) => {
    const pk = record.dynamodb?.Keys?.pk?.S;
    if (pk === failPk && !existsSync(marker)) {
      writeFileSync(marker, 'failed once');
      throw new Error(`record ${pk} failed`);
    }
  };
  const response = await processPartialResponse(event, recordHandler,
                                                processor, { context });
  appendFileSync(log, JSON.stringify({
    pks: event.Records.map((r) => r.dynamodb.Keys.pk.S),
    response,
  }) + '\n');
  return response;
};
