#!/usr/bin/env node
// tests/clients/consumer/run_handler.mjs: runs a Lambda handler module as a
// ddblab consumer command: `node run_handler.mjs HANDLER.mjs [args...]`.
// Reads the event from stdin, calls the module's exported `handler(event,
// context)` and writes its result as JSON on stdout. A thrown error is
// printed to stderr as Lambda's {"errorType", "errorMessage"} and the exit
// status is 1: ddblab counts it as a function error. The extra args are
// visible to the handler as context.args.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const [modulePath, ...args] = process.argv.slice(2);
const { handler } = await import(pathToFileURL(path.resolve(modulePath)).href);
const event = JSON.parse(readFileSync(0, 'utf8'));
const context = {
  functionName: 'ddblab-consumer',
  awsRequestId: 'local',
  getRemainingTimeInMillis: () => 3000,
  args,
};
try {
  const result = await handler(event, context);
  process.stdout.write(JSON.stringify(result ?? null));
} catch (err) {
  process.stderr.write(JSON.stringify({
    errorType: err?.name ?? 'Error',
    errorMessage: err?.message ?? String(err),
  }));
  process.exit(1);
}
