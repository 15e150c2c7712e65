#!/usr/bin/env node
// tests/clients/consumer/serve_handler.mjs: serves a Lambda handler module at
// an invoke URL shaped like the Lambda Runtime Interface Emulator's:
//   node serve_handler.mjs HANDLER.mjs [args...]
// listens on 127.0.0.1 (PORT, or a free port) and prints
// "http://127.0.0.1:PORT/2015-03-31/functions/function/invocations" as its
// first line. POST an event: 200 with the handler's result as JSON; a thrown
// error is 200 with {"errorType", "errorMessage", "trace"} (the emulator
// sends no X-Amz-Function-Error header). context.args holds the extra args.
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const [modulePath, ...args] = process.argv.slice(2);
const { handler } = await import(pathToFileURL(path.resolve(modulePath)).href);
const invocations = '/2015-03-31/functions/function/invocations';

const server = http.createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== invocations) {
    res.writeHead(404).end();
    return;
  }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    let body;
    try {
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
      const context = { functionName: 'ddblab-consumer', awsRequestId: 'local',
                        getRemainingTimeInMillis: () => 3000, args };
      body = JSON.stringify((await handler(event, context)) ?? null);
    } catch (err) {
      body = JSON.stringify({ errorType: err?.name ?? 'Error',
                              errorMessage: err?.message ?? String(err),
                              trace: String(err?.stack ?? '').split('\n') });
    }
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end(body);
  });
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`http://127.0.0.1:${server.address().port}${invocations}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
