// @ddblab/test against the ddblab serve its globalSetup started: the AWS SDK
// v3 on the provided endpoint, and each method family of DdblabControl.
import {
  CreateTableCommand, DynamoDBClient, GetItemCommand, ListTablesCommand,
  PutItemCommand, ScanCommand, UpdateTimeToLiveCommand,
} from "@aws-sdk/client-dynamodb";
import { afterAll, beforeEach, expect, inject, test } from "vitest";
import { DdblabControl, DdblabControlError, findDdblab, startDdblab, WHAT_TO_DO } from "../index.js";

const endpoint = inject("ddblabEndpoint");
const ddblab = new DdblabControl(endpoint);
const ddb = new DynamoDBClient({
  endpoint, region: "us-east-1", maxAttempts: 1,
  credentials: { accessKeyId: "dummy", secretAccessKey: "dummy" },
});
afterAll(() => ddb.destroy());
beforeEach(() => ddblab.reset());

function createTable(TableName, extra = { BillingMode: "PAY_PER_REQUEST" }) {
  return ddb.send(new CreateTableCommand({
    TableName,
    AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
    KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
    ...extra,
  }));
}

test("the endpoint is provided and in the environment, with the token", () => {
  expect(endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(process.env.DDBLAB_ENDPOINT).toBe(endpoint);
  expect(process.env.DDBLAB_CONTROL_TOKEN).toBe(inject("ddblabToken"));
  expect(inject("ddblabToken")).toMatch(/^[0-9a-f]{64}$/);
});

test("CreateTable, PutItem, GetItem", async () => {
  await createTable("carts");
  const Item = { pk: { S: "cart#1" }, qty: { N: "3" } };
  await ddb.send(new PutItemCommand({ TableName: "carts", Item }));
  const got = await ddb.send(new GetItemCommand({ TableName: "carts", Key: { pk: { S: "cart#1" } } }));
  expect(got.Item).toEqual(Item);
});

test("advancing the clock sweeps an expired item", async () => {
  await createTable("sessions");
  await ddb.send(new UpdateTimeToLiveCommand({
    TableName: "sessions",
    TimeToLiveSpecification: { Enabled: true, AttributeName: "expires" },
  }));
  const now = await ddblab.now();
  await ddb.send(new PutItemCommand({
    TableName: "sessions", Item: { pk: { S: "s1" }, expires: { N: String(now + 60) } },
  }));
  expect(await ddblab.advanceClock("59s")).toEqual({ now: now + 59, deleted: 0 });
  expect(await ddblab.advanceClock(2)).toEqual({ now: now + 61, deleted: 1 });
  expect((await ddb.send(new ScanCommand({ TableName: "sessions" }))).Items).toEqual([]);
  expect(await ddblab.ttlSweep()).toBe(0);
});

test("a fault plan answers with the exact error, and is logged", async () => {
  await createTable("orders", {
    BillingMode: "PROVISIONED",
    ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 5 },
  });
  await ddblab.putFaultPlan({ rules: [{ id: "hot", operation: "PutItem", nth: [1], effect: "throttle" }] });
  const put = ddb.send(new PutItemCommand({ TableName: "orders", Item: { pk: { S: "o1" } } }));
  await expect(put).rejects.toMatchObject({
    name: "ProvisionedThroughputExceededException",
    message: "The level of configured provisioned throughput for the table was exceeded. " +
      "Consider increasing your provisioning level with the UpdateTable API.",
  });
  const log = await ddblab.faultLog();
  expect(log.map((f) => [f.operation, f.table, f.rule, f.effect])).toEqual([["PutItem", "orders", "hot", "throttle"]]);
  expect(await ddblab.clearFaultPlan()).toEqual({ rules: [] });
});

test("a refused control call rejects with the server's message", async () => {
  const refused = ddblab.putFaultPlan({ rules: [{ effect: "thorttle" }] });
  await expect(refused).rejects.toBeInstanceOf(DdblabControlError);
  await expect(refused).rejects.toMatchObject({
    status: 400, type: "ValidationException",
    serverMessage: 'rules[0].effect: unknown effect "thorttle"',
  });
  const noToken = new DdblabControl(endpoint, "").reset();
  await expect(noToken).rejects.toMatchObject({ status: 403, type: "AccessDeniedException" });
});

test("reset empties the server and splitShard splits", async () => {
  await createTable("events", {
    BillingMode: "PAY_PER_REQUEST",
    StreamSpecification: { StreamEnabled: true, StreamViewType: "NEW_IMAGE" },
  });
  const split = await ddblab.splitShard("events");
  expect([split.closed.length, split.created.length]).toEqual([1, 2]);
  expect((await ddb.send(new ListTablesCommand({}))).TableNames).toEqual(["events"]);
  await ddblab.reset();
  expect((await ddb.send(new ListTablesCommand({}))).TableNames).toEqual([]);
});

test("no binary: the error says what to do", async () => {
  expect(() => findDdblab(undefined, { PATH: "" })).toThrow(`@ddblab/test: no ddblab on PATH. ${WHAT_TO_DO}`);
  await expect(startDdblab({ bin: "/nonexistent/ddblab" })).rejects.toThrow(
    `@ddblab/test: bin /nonexistent/ddblab is not an executable file. ${WHAT_TO_DO}`);
});

test("a namespaced server: the control client's namespace option picks one", async () => {
  const server = await startDdblab({ args: ["--namespace", "access-key"] });
  const clients = [];
  try {
    const plan = { rules: [{ operation: "GetItem", effect: "internal_error" }] };
    const alice = server.control("alice");
    expect(alice.namespace).toBe("alice");
    expect((await alice.putFaultPlan(plan)).rules.length).toBe(1);
    const bob = alice.forNamespace("bob");
    expect(await bob.getFaultPlan()).toEqual({ rules: [] });
    expect(await alice.namespaces()).toEqual({
      mode: "access-key",
      namespaces: [{ name: "alice", access_key: "alice" }, { name: "bob", access_key: "bob" }],
    });
    const unbound = new DdblabControl(server.endpoint, server.token);
    const refused = await unbound.getFaultPlan().catch((e) => e);
    expect(refused).toBeInstanceOf(DdblabControlError);
    expect([refused.status, refused.serverMessage]).toEqual([400,
      "this server keeps a namespace per access key (--namespace access-key): " +
      "add ?namespace=ACCESS_KEY to /_ddblab/faults"]);
    for (const key of ["alice", "bob"]) {
      const client = new DynamoDBClient({
        endpoint: server.endpoint, region: "us-east-1", maxAttempts: 1,
        credentials: { accessKeyId: key, secretAccessKey: "x" },
      });
      clients.push(client);
      await client.send(new CreateTableCommand({
        TableName: "orders", BillingMode: "PAY_PER_REQUEST",
        AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
        KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
      }));
    }
    const Key = { pk: { S: "a" } };
    await expect(clients[0].send(new GetItemCommand({ TableName: "orders", Key })))
      .rejects.toMatchObject({ name: "InternalServerError" });
    expect((await clients[1].send(new GetItemCommand({ TableName: "orders", Key }))).Item)
      .toBeUndefined();
  } finally {
    for (const client of clients) client.destroy();
    expect(await server.stop()).toBe(0);
  }
});
