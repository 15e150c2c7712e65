// tests/clients/ui/console.mjs: drives the web console (/_ddblab/ui) in
// headless Chromium (Debian's /usr/bin/chromium, through puppeteer-core).
// Run by test_ui.py, which starts `ddblab serve --clock manual`, creates the
// tables with boto3 before and reads the form's item back with boto3 after.
//
// Env: DDBLAB_ENDPOINT (http://127.0.0.1:PORT), DDBLAB_ARTIFACTS (a folder
// for the screenshots), CHROMIUM (default /usr/bin/chromium).
// Exit status 0: every step passed; 1: a step failed (its name printed).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import puppeteer from "puppeteer-core";

const endpoint = process.env.DDBLAB_ENDPOINT;
const artifacts = process.env.DDBLAB_ARTIFACTS || "ui-screenshots";
fs.mkdirSync(artifacts, {recursive: true});

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
let step = "start";
let page;
try {
  page = await browser.newPage();
  await page.setViewport({width: 1280, height: 800});
  const pageErrors = [];
  page.on("pageerror", (e) => pageErrors.push(e.message));
  // Refresh fast so the test waits little.
  await page.evaluateOnNewDocument(() =>
      localStorage.setItem("ddblab.console", JSON.stringify({interval: 250})));
  const wait = (fn, ...args) => page.waitForFunction(fn, {timeout: 10000, polling: 50}, ...args);
  const shot = (name) => page.screenshot({path: path.join(artifacts, `${name}.png`), fullPage: true});
  // Clicks in the page itself: a live refresh may replace the element
  // between puppeteer's lookup and its click.
  const clickNow = (selector) => page.$eval(selector, (n) => n.click());
  const text = (selector) => page.$eval(selector, (n) => n.textContent);
  const go = async (hash) => {
    await page.evaluate((h) => { location.hash = h; }, hash);
    await wait((h) => location.hash === h, hash);
  };
  // Resolves after the page completed `n` more refreshes.
  const refreshes = async (n) => {
    const start = await page.evaluate(() => Number(document.body.dataset.refreshed || 0));
    await wait((s, k) => Number(document.body.dataset.refreshed || 0) >= s + k, start, n);
  };

  step = "tables: the table created with boto3 is listed";
  // The address ddblab serve prints carries the control token.
  await page.goto(`${endpoint}/_ddblab/ui#token=${process.env.DDBLAB_TOKEN}&tables`,
                  {waitUntil: "load"});
  assert.equal(await page.evaluate(() => location.hash), "#tables");
  await wait(() => document.querySelector('tr[data-table="Orders"]'));
  const row = await text('tr[data-table="Orders"]');
  assert.match(row, /ACTIVE/);
  assert.match(row, /pk \(partition\), sk \(sort\)/);
  assert.match(await text('tr[data-table="Sessions"]'), /ENABLED \(expires\)/);
  assert.match(await text('tr[data-table="Lagging"]'),
               /GSI ByV: v \(partition\) \(1 pending\)/);
  assert.match(await text('tr[data-table="Docs"]'),
               /VECTOR by_meaning: embedding \[3, COSINE\] ACTIVE/);
  await shot("tables");

  step = "items: search a vector index";
  await go("#items/Docs");
  await wait(() => !document.querySelector("#vector-bar").hidden);
  await page.$eval("#item-json", (n) => {
    n.value = '{"pk": {"S": "d1"}, "embedding": {"L": [{"N": "1"}, {"N": "0"}, {"N": "0"}]}}';
  });
  await page.click("#item-put");
  await wait(() => document.querySelector("#item-written"));
  await page.$eval("#vector-query", (n) => { n.value = "[1, 0.5, 0]"; });
  await clickNow("#vector-go");
  await wait(() => document.querySelector("#vector-summary"));
  assert.equal(await text("#vector-summary"), "1 results, 1024 bytes");
  assert.match(await text("#vector-result"), /"pk":\{"S":"d1"\}/);
  await page.$eval("#vector-topk", (n) => { n.value = "101"; });
  await clickNow("#vector-go");
  await wait(() => document.querySelector("#vector-failed"));
  assert.equal(await text("#vector-failed"),
               "ValidationException: Provided TopK value '101' is out of valid range. " +
                   "The value must be between 1 and 100 inclusive");
  await shot("items-vector-search");

  step = "items: a put in the form";
  await go("#items/Orders");
  await page.$eval("#item-json", (n) => { n.value = ""; });
  await page.type("#item-json",
      '{"pk": {"S": "o1"}, "sk": {"S": "a"}, "qty": {"N": "3"}, "note": {"S": "from the form"}}');
  await page.click("#item-put");
  await wait(() => document.querySelector("#item-written"));
  await wait(() => document.querySelector("#items-view").textContent.includes("from the form"));

  step = "items: query by key, plain view";
  await page.$eval("#item-json", (n) => { n.value = '{"pk": "o9", "sk": "z", "qty": 9}'; });
  await page.click("#item-plain");
  await page.click("#item-put");
  await wait(() => document.querySelector("#item-written"));
  await page.click("#item-plain");
  await page.$eval("#query-pk", (n) => { n.value = "o1"; });
  await page.click("#query-go");
  await wait(() => document.querySelector("#items-page").textContent === "Query page 1, 1 items" &&
                   document.querySelector("#items-view").textContent.includes('"from the form"'));
  await page.click("#items-plain-view");
  await wait(() => document.querySelector("#items-view").textContent.includes('{"note":"from the form","qty":3}'));
  await page.click("#items-plain-view");
  await page.select("#query-sk-op", "begins_with");
  await page.$eval("#query-sk", (n) => { n.value = "b"; });
  await page.click("#query-go");
  await wait(() => document.querySelector("#items-page").textContent === "Query page 1, 0 items");
  await page.$eval("#query-sk", (n) => { n.value = "a"; });
  await page.click("#query-go");
  await wait(() => document.querySelector("#items-page").textContent === "Query page 1, 1 items");
  await page.click("#query-clear");
  await wait(() => document.querySelector("#items-page").textContent === "Scan page 1, 2 items");

  step = "items: query on an index";
  await wait(() => document.querySelector('#query-index option[value="ByQty"]'));
  await page.select("#query-index", "ByQty");
  await page.$eval("#query-pk", (n) => { n.value = "3"; });
  await page.$eval("#query-sk", (n) => { n.value = ""; });
  await page.click("#query-go");
  await wait(() => document.querySelector("#items-page").textContent === "Query page 1, 1 items" &&
                   document.querySelector("#items-view").textContent.includes('"from the form"'));
  // The index's own key is checked like the table's: qty is a number.
  await page.$eval("#query-pk", (n) => { n.value = "three"; });
  await page.click("#query-go");
  await wait(() => document.querySelector("#items-error").textContent ===
                   'Not queried: qty is a number key: "three" is not a number');
  await page.$eval("#query-pk", (n) => { n.value = "9"; });
  await page.click("#query-go");
  await wait(() => document.querySelector("#items-page").textContent === "Query page 1, 1 items" &&
                   document.querySelector("#items-error").textContent === "" &&
                   document.querySelector("#items-view").textContent.includes('"o9"'));
  await shot("items-index-query");
  await page.select("#query-index", "");
  await page.click("#query-clear");
  await wait(() => document.querySelector("#items-page").textContent === "Scan page 1, 2 items");

  step = "items: edit and delete from the list";
  // Buttons of a row are clicked in the page (rows are redrawn live).
  const rowButton = (pk, label) => page.evaluate((p, l) => {
    const row = [...document.querySelectorAll("tr.item")].find((r) => r.cells[0].textContent === JSON.stringify({S: p}));
    [...row.querySelectorAll("button")].find((b) => b.textContent === l).click();
  }, pk, label);
  await rowButton("o9", "Edit");
  const edited = JSON.parse(await page.$eval("#item-json", (n) => n.value));
  assert.deepEqual(edited, {pk: {S: "o9"}, sk: {S: "z"}, qty: {N: "9"}});
  edited.qty = {N: "10"};
  await page.$eval("#item-json", (n, v) => { n.value = v; }, JSON.stringify(edited));
  await page.click("#item-put");
  await wait(() => document.querySelector("#item-written") &&
                   document.querySelector("#items-view").textContent.includes('{"qty":{"N":"10"}}'));
  await page.$eval("#item-json", (n) => { n.value = '{"pk": "gone", "sk": "x"}'; });
  await page.click("#item-plain");
  await page.click("#item-put");
  await wait(() => document.querySelector("#items-page").textContent === "Scan page 1, 3 items");
  // Back to DynamoDB JSON. Set, not clicked: the put's answer and the live
  // refresh move the form, and a click computed before the move can miss.
  await page.$eval("#item-plain", (n) => { n.checked = false; });
  await rowButton("gone", "Delete");
  await wait(() => document.querySelector("#item-result").textContent === "Deleted." &&
                   document.querySelector("#items-page").textContent === "Scan page 1, 2 items");

  step = "items: an invalid item is refused in the form";
  await page.$eval("#item-json", (n) => { n.value = '{"pk": {"S": "bad"}, "sk": {"S": "x"}, "qty": {"N": "three"}}'; });
  await page.click("#item-put");
  await wait(() => document.querySelector("#item-refused"));
  assert.equal(await text("#item-refused"),
               'Not written: qty.N: expected a number in a string, like "42"');
  await page.$eval("#item-json", (n) => { n.value = '{"pk": "bad2", "sk": '; });
  await page.click("#item-put");
  await wait(() => document.querySelector("#item-refused"));
  assert.match(await text("#item-refused"), /^Not written: Invalid JSON: /);

  step = "items: DynamoDB's error is shown";
  await page.$eval("#item-json", (n) => { n.value = '{"pk": {"S": ""}, "sk": {"S": "a"}}'; });
  await page.click("#item-put");
  await wait(() => document.querySelector("#item-failed"));
  assert.match(await text("#item-failed"), /^ValidationException: .*empty string/);

  step = "items: refresh keeps the form and the page";
  await refreshes(2);
  assert.equal(await page.$eval("#item-json", (n) => n.value), '{"pk": {"S": ""}, "sk": {"S": "a"}}');
  assert.equal(await page.$eval("#items-table", (n) => n.value), "Orders");
  await page.$eval("#item-json", (n) => {
    n.value = '{"pk": {"S": "o2"}, "sk": {"S": "b"}, "qty": {"N": "1"}}';
  });
  await shot("items");

  step = "ttl: the item waits in the queue";
  await go("#ttl");
  await wait(() => [...document.querySelectorAll("tr.ttl-item")].some((r) => r.textContent.includes('"s1"')));
  assert.match(await text('[data-ttl-table="Sessions"]'), /Waiting for deletion: 2;/);
  await shot("ttl-before");

  step = "ttl: sweep now (nothing is due yet on the manual clock)";
  await page.click("#ttl-sweep");
  await wait(() => document.querySelector("#ttl-result").textContent === "Deleted 0 items.");
  assert.match(await text('[data-ttl-table="Sessions"]'), /Waiting for deletion: 2;/);

  step = "clock: advance in the page";
  await go("#clock");
  await wait(() => document.querySelector("#clock-mode"));
  assert.equal(await text("#clock-mode"), "manual");
  await page.$eval("#clock-advance", (n) => { n.value = "120s"; });
  await page.click("#clock-advance-go");
  await wait(() => document.querySelector("#clock-result").textContent.includes("TTL deleted 1 items"));
  await shot("clock");

  step = "ttl: the item left the queue";
  await go("#ttl");
  await wait(() => {
    const rows = [...document.querySelectorAll("tr.ttl-item")];
    return rows.length === 1 && !rows[0].textContent.includes('"s1"');
  });
  assert.match(await text('[data-ttl-table="Sessions"]'), /Waiting for deletion: 1;/);
  await shot("ttl-after");

  step = "streams: the REMOVE record in the shard view";
  await go("#streams/Sessions");
  await wait(() => document.querySelector(".shard"));
  await clickNow(".shard");
  await wait(() => [...document.querySelectorAll('tr.record[data-event="REMOVE"]')]
      .some((r) => r.textContent.includes('"s1"') && r.textContent.includes("Service dynamodb.amazonaws.com")));

  step = "streams: a split drawn as a parent and two children";
  const parent = await page.$eval(".shard", (n) => n.dataset.shard);
  await page.click("#streams-split");
  await wait((p) => {
    const node = document.querySelector(`.shard[data-shard="${p}"]`);
    if (!node || !node.classList.contains("closed")) return false;
    const kids = node.parentElement.querySelectorAll(":scope > ul > li > .shard");
    return kids.length === 2 && [...kids].every((k) => k.dataset.parent === p && k.classList.contains("open"));
  }, parent);
  // The selected shard (the parent) stays selected across refreshes.
  await refreshes(2);
  assert.equal(await page.$eval(".shard.selected", (n) => n.dataset.shard), parent);
  await shot("streams");

  step = "faults: a rule's counter goes up";
  await go("#faults");
  await wait(() => document.querySelector('tr[data-rule="scan-throttle"] .fired'));
  const before = Number(await text('tr[data-rule="scan-throttle"] .fired'));
  const error = await page.evaluate(() => ddb("Scan", {TableName: "Faulty"}).then(() => "no error", (e) => e.type));
  // Faulty is on-demand: the throttle effect answers ThrottlingException.
  assert.equal(error, "ThrottlingException");
  await wait((b) => Number(document.querySelector('tr[data-rule="scan-throttle"] .fired').textContent) === b + 1,
             before);
  await wait(() => document.querySelector("#faults-log").textContent.includes("Faulty"));
  await shot("faults");

  step = "mappings: state, last result and the on-failure record";
  await go("#mappings");
  await wait(() => document.querySelector("tr[data-uuid] .last-result"));
  assert.equal(await text("tr[data-uuid] .state"), "Enabled");
  assert.equal(await text("tr[data-uuid] .last-result"), "PROBLEM: Function call failed");
  await clickNow("tr[data-uuid]");
  await wait(() => document.querySelector("#mappings-failures .failure"));
  assert.match(await text("#mappings-failures .failure"), /"condition": "RetryAttemptsExhausted"/);
  // The discarded batch moved the checkpoint of the shard it came from.
  await wait(() => [...document.querySelectorAll("tr[data-uuid] .checkpoint")]
      .some((c) => /^shardId-[^:]+: \d+$/.test(c.textContent)));
  await shot("mappings");

  step = "capacity: consumed and throttled per second";
  await go("#capacity");
  // Tables that consumed nothing yet are not in the report.
  await wait(() => document.querySelector("#capacity-view table") &&
                   !document.querySelector('tr.capacity-row[data-table="Metered"]'));
  // Metered has 1 WCU (300 units of burst): a 290 KB item takes 290 of
  // them, a second one is throttled.
  const bigPut = (pk) => page.evaluate((k) => ddb("PutItem", {
    TableName: "Metered", Item: {pk: {S: k}, g: {S: "x"}, p: {S: "x".repeat(290 * 1024 - 20)}},
  }).then(() => "ok", (e) => e.type), pk);
  assert.equal(await bigPut("big1"), "ok");
  assert.equal(await bigPut("big2"), "ProvisionedThroughputExceededException");
  const meteredWrite = 'tr.capacity-row[data-table="Metered"][data-index=""][data-side="write"]';
  // Whether the element exists and its text is `want` (rows are redrawn live).
  const textIs = (selector, want) => wait((s, w) => {
    const n = document.querySelector(s);
    return n !== null && n.textContent === w;
  }, selector, want);
  await textIs(`${meteredWrite} .consumed-now`, "290");
  await textIs('tr.throttled-row[data-table="Metered"][data-index=""] .throttled',
               "TableWriteProvisionedThroughputExceeded: 1");
  // The GSI's entry (keys only, one unit) is charged to the index.
  await textIs('tr.capacity-row[data-table="Metered"][data-index="ByG"][data-side="write"] .consumed-now', "1");
  assert.equal(await page.$$eval(`${meteredWrite} svg rect`, (r) => r.length), 1);
  await shot("capacity");

  const verify = process.env.DDBLAB_VERIFY_ENDPOINT;
  if (verify) {
    step = "auth verify: wrong keys are refused, the server's keys sign; namespaces";
    // The first server is shared: no picker.
    assert.equal(await page.$eval("#namespace-picker", (n) => n.hidden), true);
    const other = await browser.newPage();
    other.on("pageerror", (e) => pageErrors.push(e.message));
    await other.goto(`${verify}/_ddblab/ui#token=${process.env.DDBLAB_VERIFY_TOKEN}&settings`,
                     {waitUntil: "load"});
    const owait = (fn) => other.waitForFunction(fn, {timeout: 10000, polling: 50});
    await owait(() => document.querySelector("#status").textContent.includes("UnrecognizedClientException"));
    await other.$eval("#set-key", (n) => { n.value = "AKIDVERIFY"; });
    await other.$eval("#set-secret", (n) => { n.value = "verify/secret+key"; });
    await other.click("#settings-save");
    await other.evaluate(() => { location.hash = "#tables"; });
    await owait(() => document.querySelector('tr[data-table="Signed"]'));
    assert.equal(await other.$eval("#status", (n) => n.textContent), "");
    // --namespace access-key: the picker lists the key's namespace, and the
    // control requests naming it (?namespace=, signed) pass.
    assert.equal(await other.$eval("#namespace-picker", (n) => n.hidden), false);
    assert.deepEqual(await other.$$eval("#namespace option", (o) => o.map((x) => x.value)),
                     ["AKIDVERIFY"]);
    assert.equal(await other.$eval("#namespace", (n) => n.value), "AKIDVERIFY");
    await other.evaluate(() => { location.hash = "#faults"; });
    await owait(() => document.querySelector("#faults-view table"));
    assert.equal(await other.$eval("#status", (n) => n.textContent), "");
    await other.close();
  }

  step = "a page of another origin cannot reach the control endpoints";
  {
    // The attack of the security review: from a page served on another
    // port of 127.0.0.1 (here the verify server's console), no-cors
    // requests with text/plain bodies (no CORS preflight needed), aimed at
    // a server with the token (the default) and at one with --control open.
    const clockOf = async (target, headers) =>
      (await (await fetch(`${target}/_ddblab/clock`, {headers})).json()).now;
    const tokenHeaders = {"X-Ddblab-Token": process.env.DDBLAB_TOKEN};
    const open = process.env.DDBLAB_OPEN_ENDPOINT;
    const before = [await clockOf(endpoint, tokenHeaders), await clockOf(open, {})];
    const attacker = await browser.newPage();
    await attacker.goto(`${process.env.DDBLAB_VERIFY_ENDPOINT}/_ddblab/ui/console.css`,
                        {waitUntil: "load"});
    const outcomes = await attacker.evaluate(async (targets) => {
      const out = [];
      for (const target of targets) {
        const body = JSON.stringify({advance: "3650d"});
        // A simple request: sent, its answer unreadable (opaque).
        const simple = await fetch(`${target}/_ddblab/clock`, {
          method: "POST", mode: "no-cors", headers: {"Content-Type": "text/plain"}, body});
        out.push(simple.type);
        // JSON or a token header need a preflight, which is never granted.
        try {
          await fetch(`${target}/_ddblab/clock`, {
            method: "POST", headers: {"Content-Type": "application/json"}, body});
          out.push("sent");
        } catch (e) {
          out.push("blocked");
        }
      }
      return out;
    }, [endpoint, open]);
    await attacker.close();
    assert.deepEqual(outcomes, ["opaque", "blocked", "opaque", "blocked"]);
    assert.deepEqual([await clockOf(endpoint, tokenHeaders), await clockOf(open, {})], before);
  }

  step = "no script errors";
  assert.deepEqual(pageErrors, []);
  console.log("ok: every console step passed; screenshots in " + artifacts);
} catch (e) {
  console.error(`FAILED at step "${step}":`, e);
  process.exitCode = 1;
  if (page) {
    // What the page said, and how it looked.
    console.error("status bar:", await page.$eval("#status", (n) => n.textContent).catch(() => "?"));
    await page.screenshot({path: path.join(artifacts, "failure.png"), fullPage: true}).catch(() => {});
  }
} finally {
  await browser.close();
}
