// ui/console.js: the ddblab web console, a single page with one tab per
// feature (tables, items, streams, TTL queue, clock, faults, event-source
// mappings, capacity — the last in capacity.js). It talks only to DynamoDB's JSON API (POST / with
// X-Amz-Target, signed by sigv4.js) and the /_ddblab/ control endpoints,
// so it behaves the same on any port and against any `ddblab serve`.
//
// Refresh: by polling (no server-sent events: the control endpoints answer
// whole responses): every `interval` ms (Settings) the active tab reloads its data
// and redraws only its data areas: forms, selections (table, shard, item
// page, mapping) and the scroll position stay where the user left them.
// State lives in `state` (plus the URL hash for the tab and table).
//
// Namespaces: on a `ddblab serve --namespace access-key` (or
// access-key+region) each access key (and region) has its own database. The
// header's picker lists GET /_ddblab/namespaces; picking one makes its key
// (and region) the one every request is signed with, and control requests
// name it with ?namespace=. On a shared server the picker stays hidden.
"use strict";

const $ = (id) => document.getElementById(id);
const state = {
  tab: "tables",
  tables: [],          // names, from ListTables
  table: "",           // the table chosen for Items / Streams
  pageKeys: [null],    // ExclusiveStartKey of each Items page seen so far
  page: 0,
  lastKey: null,       // LastEvaluatedKey of the page on screen
  shard: "",           // the shard whose records are shown
  mapping: "",         // the mapping whose failures are shown
  query: null,         // {pk, sk, op, index}: the Items tab queries by key
                       // (on the table, or on index `index`); null: Scan
  skewMs: 0,           // server clock - browser clock, for signing
  namespaceMode: "shared",  // GET /_ddblab/namespaces' mode
  busy: false,
};
const settings = Object.assign(
    {accessKeyId: "ddblab", secretAccessKey: "ddblab", region: "", interval: 2000, token: ""},
    JSON.parse(localStorage.getItem("ddblab.console") || "{}"));
// The control token from the address ddblab serve printed
// (.../_ddblab/ui#token=...): kept in the settings and taken out of the
// address bar, so that it is not bookmarked or shared with the URL.
{
  const match = /(?:^#|&)token=([0-9a-f]+)/.exec(location.hash);
  if (match) {
    settings.token = match[1];
    localStorage.setItem("ddblab.console", JSON.stringify(settings));
    const rest = location.hash.replace(/(^#|&)token=[0-9a-f]+/, "$1").replace(/^#&/, "#");
    history.replaceState(null, "", location.pathname + location.search + (rest === "#" ? "" : rest));
  }
}

// ---- transport --------------------------------------------------------

class ApiError extends Error {
  constructor(type, message, status) {
    super(type ? `${type}: ${message}` : message);
    this.type = type;
    this.status = status;
  }
}

// Calls DynamoDB (`service` "DynamoDB_20120810") or DynamoDB Streams
// ("DynamoDBStreams_20120810"); throws ApiError with DynamoDB's __type and
// message when the answer is an error.
async function ddb(operation, body, service = "DynamoDB_20120810") {
  const text = JSON.stringify(body || {});
  const headers = SigV4.sigv4Headers({
    host: location.host, body: text, target: `${service}.${operation}`,
    creds: {accessKeyId: settings.accessKeyId,
            secretAccessKey: settings.secretAccessKey,
            region: settings.region || "us-east-1"},
    date: new Date(Date.now() + state.skewMs),
  });
  const response = await fetch("/", {method: "POST", headers, body: text});
  const answer = await response.text();
  let json = {};
  try { json = answer ? JSON.parse(answer) : {}; } catch (e) { json = {message: answer}; }
  if (!response.ok) {
    const type = String(json.__type || `HTTP ${response.status}`).split("#").pop();
    throw new ApiError(type, json.message || json.Message || "", response.status);
  }
  return json;
}
const streams = (operation, body) => ddb(operation, body, "DynamoDBStreams_20120810");

// A /_ddblab/ control endpoint; throws ApiError on a non-2xx answer. It
// carries the control token (ddblab serve --control local-token: from the
// URL's #token=... the server printed, or Settings) and is signed like a
// DynamoDB call (checked under --auth verify).
async function ctl(method, path, body) {
  const payload = body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body);
  const extra = settings.token ? {"x-ddblab-token": settings.token} : {};
  const query = state.namespaceMode === "shared" || path === "namespaces"
      ? "" : `namespace=${SigV4.uriEncode(namespaceName())}`;
  const headers = SigV4.sigv4Headers({
    host: location.host, body: payload, method, path: `/_ddblab/${path}`, query,
    contentType: "application/json", extra,
    creds: {accessKeyId: settings.accessKeyId,
            secretAccessKey: settings.secretAccessKey,
            region: settings.region || "us-east-1"},
    date: new Date(Date.now() + state.skewMs),
  });
  const init = {method, headers};
  if (method !== "GET" && method !== "HEAD") init.body = payload;
  const response = await fetch(`/_ddblab/${path}${query ? "?" + query : ""}`, init);
  const text = await response.text();
  let json = {};
  try { json = text ? JSON.parse(text) : {}; } catch (e) { json = {message: text}; }
  if (!response.ok) {
    throw new ApiError(json.__type || json.type || "", json.message || `HTTP ${response.status}`,
                       response.status);
  }
  return json;
}

// The namespace the page's requests go to: its access key (and region).
function namespaceName() {
  const region = settings.region || "us-east-1";
  return state.namespaceMode === "access-key+region"
      ? `${settings.accessKeyId}:${region}` : settings.accessKeyId;
}

// Fills the namespace picker (hidden on a shared server, or one that does
// not know namespaces).
async function refreshNamespaces() {
  let list = {mode: "shared", namespaces: []};
  try {
    list = await ctl("GET", "namespaces");
  } catch (e) {
    if (e.status !== 404) throw e;
  }
  state.namespaceMode = list.mode;
  $("namespace-picker").hidden = list.mode === "shared";
  if (list.mode === "shared") return;
  const current = namespaceName();
  const names = list.namespaces.map((n) => n.name);
  if (!names.includes(current)) names.push(current);
  names.sort();
  const select = $("namespace");
  if (select.dataset.names !== JSON.stringify(names)) {
    select.replaceChildren(...names.map((name) => el("option", {value: name}, name)));
    select.dataset.names = JSON.stringify(names);
  }
  select.value = current;
}

// Signs from now on with the picked namespace's key (and region).
function pickNamespace(name) {
  if (state.namespaceMode === "access-key+region") {
    const colon = name.lastIndexOf(":");
    settings.accessKeyId = name.slice(0, colon);
    settings.region = name.slice(colon + 1);
  } else {
    settings.accessKeyId = name;
  }
  localStorage.setItem("ddblab.console", JSON.stringify(settings));
  $("set-key").value = settings.accessKeyId;
  $("set-region").value = settings.region;
  state.table = "";
  state.pageKeys = [null];
  state.page = 0;
}

// ---- small helpers ------------------------------------------------------

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c !== undefined && c !== null) node.append(c instanceof Node ? c : String(c));
  }
  return node;
}
function tableOf(headers, rows) {
  return el("table", {}, el("tr", {}, headers.map((h) => el("th", {}, h))),
            rows.length ? rows : el("tr", {}, el("td", {colspan: headers.length}, "(none)")));
}
const code = (v) => el("code", {}, typeof v === "string" ? v : JSON.stringify(v));
const pre = (v) => el("pre", {}, JSON.stringify(v, null, 1));
function put(id, ...nodes) { $(id).replaceChildren(...nodes.flat()); }
function epochText(seconds) {
  if (seconds === null || seconds === undefined) return "-";
  return `${seconds} (${new Date(seconds * 1000).toISOString().replace(".000Z", "Z")})`;
}
function showError(id, error) {
  $(id).textContent = error ? String(error.message || error) : "";
}

// ---- tables -------------------------------------------------------------

const descriptions = {};  // table name -> last DescribeTable Table

async function loadTableNames() {
  const names = [];
  let start;
  do {
    const page = await ddb("ListTables", start ? {ExclusiveStartTableName: start} : {});
    names.push(...page.TableNames);
    start = page.LastEvaluatedTableName;
  } while (start);
  state.tables = names;
  if (!state.table && names.length) state.table = names[0];
  for (const select of document.querySelectorAll(".table-select")) {
    const current = [...select.options].map((o) => o.value).join("\n");
    if (current !== names.join("\n")) {
      select.replaceChildren(...names.map((n) => el("option", {value: n}, n)));
    }
    select.value = state.table;
  }
}

async function describe(name) {
  const answer = await ddb("DescribeTable", {TableName: name});
  descriptions[name] = answer.Table;
  return answer.Table;
}

const keyText = (schema) =>
    (schema || []).map((k) => `${k.AttributeName} (${k.KeyType === "HASH" ? "partition" : "sort"})`).join(", ");

// A vector index: its attribute, dimensions, distance, SearchSchema and
// status (with Backfilling while an added index is created).
function vectorIndexText(i) {
  const schema = (i.SearchSchema || [])
      .map((e) => `${e.AttributeName} (${e.SearchSchemaElementType === "HASH" ? "hash" : "filter"})`);
  const status = i.IndexStatus + (i.Backfilling ? ", backfilling" : "");
  return `VECTOR ${i.IndexName}: ${i.VectorAttribute.AttributeName} [${i.Dimensions}, ${i.DistanceFunction}]` +
      (schema.length ? `, ${schema.join(", ")}` : "") + ` ${status}`;
}

async function refreshTables() {
  const rows = [];
  // Index changes not yet visible (the consistency model's lagging GSIs),
  // {table: {index: n}}; a server without the endpoint shows none.
  let pending = {};
  try { pending = (await ctl("GET", "consistency")).pending || {}; } catch (e) { pending = {}; }
  for (const name of state.tables) {
    const t = await describe(name);
    let ttl = "-";
    try {
      const d = (await ddb("DescribeTimeToLive", {TableName: name})).TimeToLiveDescription;
      ttl = d.AttributeName ? `${d.TimeToLiveStatus} (${d.AttributeName})` : d.TimeToLiveStatus;
    } catch (e) { ttl = e.message; }
    const lagging = pending[name] || {};
    const indexes = [...(t.GlobalSecondaryIndexes || []).map((i) => `GSI ${i.IndexName}: ${keyText(i.KeySchema)}` +
                         (lagging[i.IndexName] ? ` (${lagging[i.IndexName]} pending)` : "")),
                     ...(t.LocalSecondaryIndexes || []).map((i) => `LSI ${i.IndexName}: ${keyText(i.KeySchema)}`),
                     ...(t.VectorIndexes || []).map(vectorIndexText)];
    const stream = t.StreamSpecification && t.StreamSpecification.StreamEnabled
        ? `${t.StreamSpecification.StreamViewType}` : "off";
    rows.push(el("tr", {"data-table": name},
                 el("td", {}, el("a", {href: `#items/${encodeURIComponent(name)}`}, name)),
                 el("td", {}, t.TableStatus), el("td", {}, keyText(t.KeySchema)),
                 el("td", {}, indexes.length ? indexes.map((i) => el("div", {}, i)) : "-"),
                 el("td", {class: "item-count"}, t.ItemCount), el("td", {}, t.TableSizeBytes),
                 el("td", {}, (t.BillingModeSummary || {}).BillingMode || "PROVISIONED"),
                 el("td", {}, stream), el("td", {}, ttl)));
  }
  put("tables-view", tableOf(["Table", "Status", "Key", "Indexes", "Items", "Bytes", "Billing",
                              "Stream", "TTL"], rows));
}

// ---- items --------------------------------------------------------------

function keyOf(item, description) {
  return Object.fromEntries((description.KeySchema || []).map((k) => [k.AttributeName, item[k.AttributeName]]));
}

// The Items tab's index choice: the table, then its GSIs and LSIs.
function fillIndexSelect(description) {
  const names = [...(description.GlobalSecondaryIndexes || []), ...(description.LocalSecondaryIndexes || [])]
      .map((i) => i.IndexName);
  const select = $("query-index");
  const chosen = select.value;
  const shown = [...select.options].map((o) => o.value);
  if (shown.join("\n") !== ["", ...names].join("\n")) {
    select.replaceChildren(el("option", {value: ""}, "(table)"), ...names.map((n) => el("option", {value: n}, n)));
    select.value = names.includes(chosen) ? chosen : "";
  }
}

// The Search vectors bar: shown for a table with vector indexes.
function fillVectorBar(description) {
  const names = (description.VectorIndexes || []).map((i) => i.IndexName);
  $("vector-bar").hidden = names.length === 0;
  const select = $("vector-index");
  if ([...select.options].map((o) => o.value).join("\n") !== names.join("\n")) {
    select.replaceChildren(...names.map((n) => el("option", {value: n}, n)));
  }
}

// SearchVectors with the bar's index, vector ([numbers]), TopK and the
// optional SearchConditionExpression with its values (DynamoDB JSON).
async function searchVectors() {
  put("vector-result");
  if (!state.table) return;
  const request = {TableName: state.table, IndexName: $("vector-index").value,
                   TopK: Number($("vector-topk").value), ReturnConsumedCapacity: "TOTAL"};
  try {
    const vector = JSON.parse($("vector-query").value);
    if (!Array.isArray(vector)) throw new Error("the vector must be a JSON array of numbers");
    request.SearchVector = vector.map((x) => ({N: String(x)}));
    if ($("vector-condition").value.trim()) {
      request.SearchConditionExpression = $("vector-condition").value;
    }
    if ($("vector-values").value.trim()) {
      request.ExpressionAttributeValues = JSON.parse($("vector-values").value);
    }
  } catch (e) {
    put("vector-result", el("span", {class: "error", id: "vector-refused"}, `Not searched: ${e.message}`));
    return;
  }
  let answer;
  try {
    answer = await ddb("SearchVectors", request);
  } catch (e) {
    put("vector-result", el("span", {class: "error", id: "vector-failed"}, e.message));
    return;
  }
  const rows = answer.SearchResults.map((r) =>
      el("tr", {class: "vector-hit"}, el("td", {}, String(r.Score)), el("td", {}, code(r.Item))));
  put("vector-result",
      el("p", {id: "vector-summary"},
         `${rows.length} results, ${answer.ConsumedCapacity.VectorSearchRequestBytes} bytes`),
      tableOf(["Score", "Item"], rows));
}

async function refreshItems() {
  if (!state.table) { put("items-view", "No table yet."); return; }
  const description = descriptions[state.table] || await describe(state.table);
  fillIndexSelect(description);
  fillVectorBar(description);
  const request = {TableName: state.table, Limit: 25};
  const start = state.pageKeys[state.page];
  if (start) request.ExclusiveStartKey = start;
  let operation = "Scan";
  if (state.query) {
    // Query by key: partition key =, and sort key = or begins_with when
    // given (DynamoDB refuses begins_with on a number key; its error shows).
    operation = "Query";
    const index = [...(description.GlobalSecondaryIndexes || []), ...(description.LocalSecondaryIndexes || [])]
        .find((i) => i.IndexName === state.query.index);
    if (index) request.IndexName = index.IndexName;
    const [hash, range] = (index || description).KeySchema || [];
    const names = {"#p": hash.AttributeName};
    const values = {":p": keyValue(description, hash.AttributeName, state.query.pk)};
    let condition = "#p = :p";
    if (range && state.query.sk !== "") {
      names["#s"] = range.AttributeName;
      values[":s"] = keyValue(description, range.AttributeName, state.query.sk);
      condition += state.query.op === "begins_with" ? " AND begins_with(#s, :s)" : " AND #s = :s";
    }
    const bad = Object.values(values).find((v) => v instanceof Error);
    if (bad) {
      showError("items-error", `Not queried: ${bad.message}`);
      return;
    }
    Object.assign(request, {KeyConditionExpression: condition, ExpressionAttributeNames: names,
                            ExpressionAttributeValues: values});
  }
  let answer;
  try {
    answer = await ddb(operation, request);
    showError("items-error", null);
  } catch (e) {
    showError("items-error", e);
    return;
  }
  state.lastKey = answer.LastEvaluatedKey || null;
  $("items-page").textContent = `${operation} page ${state.page + 1}, ${answer.Count} items`;
  const plain = $("items-plain-view").checked;
  const show = (v) => code(plain ? (v === undefined ? v : unmarshall(v)) : v);
  const showAll = (m) => code(plain ? Object.fromEntries(Object.entries(m).map(([k, v]) => [k, unmarshall(v)])) : m);
  $("items-prev").disabled = state.page === 0;
  $("items-next").disabled = !state.lastKey;
  const keyNames = (description.KeySchema || []).map((k) => k.AttributeName);
  const rows = answer.Items.map((item) => {
    const rest = Object.fromEntries(Object.entries(item).filter(([k]) => !keyNames.includes(k)));
    return el("tr", {class: "item"},
              keyNames.map((k) => el("td", {}, show(item[k]))),
              el("td", {}, showAll(rest)),
              el("td", {},
                 el("button", {onclick: () => {
                   $("item-plain").checked = false;
                   $("item-json").value = JSON.stringify(item, null, 2);
                   $("item-json").focus();
                 }}, "Edit"),
                 " ",
                 el("button", {onclick: async () => {
                   try {
                     await ddb("DeleteItem", {TableName: state.table, Key: keyOf(item, description)});
                     put("item-result", el("span", {class: "ok"}, "Deleted."));
                   } catch (e) {
                     put("item-result", el("span", {class: "error"}, e.message));
                   }
                   refresh();
                 }}, "Delete")));
  });
  put("items-view", tableOf([...keyNames, "Other attributes", ""], rows));
}

async function putItem() {
  put("item-result");
  if (!state.table) return;
  // The form as it was when Put was pressed, before anything is awaited.
  const text = $("item-json").value;
  const plain = $("item-plain").checked;
  const description = descriptions[state.table] || await describe(state.table);
  const parsed = parseItem(text, plain, description);
  if (parsed.error) {
    put("item-result", el("span", {class: "error", id: "item-refused"}, `Not written: ${parsed.error}`));
    return;
  }
  try {
    await ddb("PutItem", {TableName: state.table, Item: parsed.item});
    put("item-result", el("span", {class: "ok", id: "item-written"}, "Written."));
  } catch (e) {
    put("item-result", el("span", {class: "error", id: "item-failed"}, e.message));
  }
  refresh();
}

// ---- streams ------------------------------------------------------------

async function refreshStreams() {
  if (!state.table) { put("shard-tree", "No table yet."); return; }
  const description = await describe(state.table);
  if (!description.LatestStreamArn) {
    put("shard-tree", "This table has no stream.");
    put("shard-records");
    return;
  }
  const shards = [];
  let start;
  do {
    const request = {StreamArn: description.LatestStreamArn};
    if (start) request.ExclusiveStartShardId = start;
    const d = (await streams("DescribeStream", request)).StreamDescription;
    shards.push(...d.Shards);
    start = d.LastEvaluatedShardId;
  } while (start);
  const ids = new Set(shards.map((s) => s.ShardId));
  const children = {};
  for (const s of shards) {
    const parent = s.ParentShardId && ids.has(s.ParentShardId) ? s.ParentShardId : "";
    (children[parent] = children[parent] || []).push(s);
  }
  const node = (s) => {
    const range = s.SequenceNumberRange || {};
    const open = !range.EndingSequenceNumber;
    return el("li", {},
              el("span", {class: `shard ${open ? "open" : "closed"}${s.ShardId === state.shard ? " selected" : ""}`,
                          "data-shard": s.ShardId, "data-parent": s.ParentShardId || "",
                          title: `sequence ${range.StartingSequenceNumber || "?"} .. ${range.EndingSequenceNumber || "(open)"}`,
                          onclick: () => { state.shard = s.ShardId; refresh(); }},
                 `${s.ShardId} ${open ? "open" : "closed"} [${range.StartingSequenceNumber || "?"}..${range.EndingSequenceNumber || ""}]`),
              children[s.ShardId] ? el("ul", {}, children[s.ShardId].map(node)) : null);
  };
  put("shard-tree", el("div", {class: "tree"}, el("ul", {}, (children[""] || []).map(node))));
  if (!state.shard || !ids.has(state.shard)) {
    put("shard-records", el("p", {class: "hint"}, "Choose a shard to see its records."));
    return;
  }
  const records = [];
  let iterator = (await streams("GetShardIterator", {
    StreamArn: description.LatestStreamArn, ShardId: state.shard, ShardIteratorType: "TRIM_HORIZON",
  })).ShardIterator;
  // Reads until the shard's end or an empty page (an open shard's present).
  for (let round = 0; iterator && round < 20; round++) {
    const page = await streams("GetRecords", {ShardIterator: iterator, Limit: 1000});
    records.push(...page.Records);
    iterator = page.NextShardIterator;
    if (!page.Records.length) break;
  }
  put("shard-records", el("h3", {}, `Records of ${state.shard}`),
      tableOf(["Sequence", "Event", "Keys", "Identity", "Time"], records.map((r) =>
          el("tr", {class: "record", "data-event": r.eventName},
             el("td", {}, r.dynamodb.SequenceNumber), el("td", {class: "event"}, r.eventName),
             el("td", {}, code(r.dynamodb.Keys)),
             el("td", {}, r.userIdentity ? `${r.userIdentity.Type} ${r.userIdentity.PrincipalId}` : "-"),
             el("td", {}, epochText(r.dynamodb.ApproximateCreationDateTime))))));
}

// ---- TTL ----------------------------------------------------------------

async function refreshTtl() {
  const queue = await ctl("GET", "ttl");
  const parts = [el("p", {}, `Delay model: `, code(queue.delay), `; now ${epochText(queue.now)}`)];
  for (const [name, t] of Object.entries(queue.tables)) {
    const d = (await ddb("DescribeTimeToLive", {TableName: name})).TimeToLiveDescription;
    const description = descriptions[name] || await describe(name);
    // The items carrying the TTL attribute (read with Scan): their due time
    // and key; "expired" ones are what the sweeper deletes next.
    const scan = await ddb("Scan", {
      TableName: name, Limit: 100, FilterExpression: "attribute_exists(#t)",
      ExpressionAttributeNames: {"#t": d.AttributeName},
    });
    const rows = scan.Items.filter((i) => i[d.AttributeName] && i[d.AttributeName].N)
        .map((i) => [Number(i[d.AttributeName].N), i])
        .sort((a, b) => a[0] - b[0])
        .map(([due, i]) => el("tr", {class: "ttl-item"},
                              el("td", {}, code(keyOf(i, description))), el("td", {}, epochText(due)),
                              el("td", {}, due <= queue.now ? "expired, waiting for the sweep"
                                                           : `due in ${due - queue.now}s`)));
    parts.push(el("h3", {}, name),
               el("p", {"data-ttl-table": name, class: "ttl-waiting"},
                  `Waiting for deletion: ${t.waiting}; next due ${epochText(t.next_due)}; attribute `,
                  code(d.AttributeName)),
               tableOf(["Key", "Expires at", "State"], rows));
  }
  if (parts.length === 1) parts.push(el("p", {}, "No table has TTL enabled."));
  put("ttl-view", ...parts);
}

// ---- clock --------------------------------------------------------------

async function refreshClock() {
  const clock = await ctl("GET", "clock");
  state.skewMs = clock.now * 1000 - Date.now();
  $("clock-badge").textContent = `${clock.mode} ${epochText(clock.now)}`;
  if (state.tab === "clock") {
    put("clock-view", tableOf(["Mode", "Now"], [el("tr", {}, el("td", {id: "clock-mode"}, clock.mode),
                                                  el("td", {id: "clock-now"}, epochText(clock.now)))]));
    if (!$("clock-set").value) $("clock-set").value = clock.now;
  }
  return clock;
}

async function moveClock(body) {
  try {
    const answer = await ctl("POST", "clock", body);
    put("clock-result", el("span", {class: "ok"},
                           `Now ${epochText(answer.now)}; TTL deleted ${answer.deleted} items.`));
  } catch (e) {
    put("clock-result", el("span", {class: "error"}, e.message));
  }
  refresh();
}

// ---- faults -------------------------------------------------------------

async function refreshFaults() {
  const plan = await ctl("GET", "faults");
  put("faults-view", tableOf(["Rule", "Effect", "Operations", "Tables", "Matched", "Fired", "Rule JSON"],
      plan.rules.map((r) => el("tr", {"data-rule": r.id},
          el("td", {}, r.id), el("td", {}, r.effect), el("td", {}, [].concat(r.operation || []).join(", ") || "any"),
          el("td", {}, [].concat(r.table || []).join(", ") || "any"),
          el("td", {class: "matched"}, r.matched), el("td", {class: "fired"}, r.fired),
          el("td", {}, code(Object.fromEntries(Object.entries(r).filter(([k]) => k !== "matched" && k !== "fired"))))))));
  const log = await ctl("GET", "faults/log");
  put("faults-log", tableOf(["#", "Time", "Operation", "Table", "Keys", "Rule", "Effect"],
      log.faults.slice(-200).reverse().map((f) => el("tr", {},
          el("td", {}, f.seq), el("td", {}, epochText(f.time)), el("td", {}, f.operation),
          el("td", {}, f.table || "-"), el("td", {}, f.keys ? code(f.keys) : "-"),
          el("td", {}, f.rule), el("td", {}, f.effect)))));
}

// ---- event-source mappings ----------------------------------------------

async function refreshMappings() {
  const list = (await ctl("GET", "event-source-mappings")).EventSourceMappings || [];
  const rows = [];
  for (const m of list) {
    let detail = m;
    try { detail = await ctl("GET", `event-source-mappings/${m.UUID}`); } catch (e) { /* deleted meanwhile */ }
    rows.push(el("tr", {class: m.UUID === state.mapping ? "selected" : "", "data-uuid": m.UUID,
                        onclick: () => { state.mapping = m.UUID; refresh(); }},
                 el("td", {}, m.UUID), el("td", {}, m.EventSourceArn || "-"), el("td", {}, m.FunctionName || String(m.FunctionArn || "-").split(":").pop()),
                 el("td", {class: "state"}, m.State), el("td", {class: "last-result"}, m.LastProcessingResult || "-"),
                 el("td", {class: "checkpoints"}, (detail.ShardCheckpoints || []).length
                     ? detail.ShardCheckpoints.map((c) => el("div", {class: "checkpoint", "data-shard": c.ShardId},
                                                             `${c.ShardId}: ${c.SequenceNumber || "(none yet)"}`))
                     : "-"),
                 el("td", {class: "metrics"}, detail.Metrics
                     ? Object.entries(detail.Metrics).map(([k, v]) => el("div", {}, `${k} ${v}`)) : "-")));
  }
  put("mappings-view", tableOf(["UUID", "Source", "Function", "State", "Last result", "Checkpoint per shard",
                                "Metrics"], rows));
  if (state.mapping && list.some((m) => m.UUID === state.mapping)) {
    const failures = (await ctl("GET", `event-source-mappings/${state.mapping}/failures`)).Failures || [];
    put("mappings-failures", failures.length ? failures.map((f) => el("div", {class: "failure"}, pre(f)))
                                             : "No on-failure records.");
  } else {
    put("mappings-failures", el("p", {class: "hint"}, "Click a mapping to see its on-failure records."));
  }
}

// ---- navigation and refresh ---------------------------------------------

const PAGES = {tables: refreshTables, items: refreshItems, streams: refreshStreams, ttl: refreshTtl,
               clock: async () => {}, faults: refreshFaults, mappings: refreshMappings,
               capacity: refreshCapacity,
               settings: async () => {}};

function applyHash() {
  const [tab, table] = location.hash.replace(/^#/, "").split("/");
  state.tab = PAGES[tab] ? tab : "tables";
  if (table) chooseTable(decodeURIComponent(table));
  for (const a of document.querySelectorAll("#tabs a")) a.classList.toggle("active", a.dataset.tab === state.tab);
  for (const s of document.querySelectorAll("main > section")) s.classList.toggle("active", s.id === `page-${state.tab}`);
}

function chooseTable(name) {
  if (name === state.table) return;
  state.table = name;
  state.pageKeys = [null];
  state.page = 0;
  state.shard = "";
  state.query = null;
  for (const select of document.querySelectorAll(".table-select")) select.value = name;
}

let refreshing = null;
// Reloads the active tab; concurrent calls share one reload.
async function refresh() {
  if (refreshing) return refreshing;
  refreshing = (async () => {
    try {
      await refreshNamespaces();
      await refreshClock();
      await loadTableNames();
      await PAGES[state.tab]();
      $("status").textContent = "";
      document.body.dataset.refreshed = String(Number(document.body.dataset.refreshed || 0) + 1);
    } catch (e) {
      $("status").textContent = e.message;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

let timer = null;
function schedule() {
  clearInterval(timer);
  if ($("live").checked) timer = setInterval(refresh, Math.max(250, Number(settings.interval) || 2000));
}

async function start() {
  if (!settings.region) {
    // "healthy: dynamodb.us-east-1.amazonaws.com "
    const health = await (await fetch("/_ddblab/health")).text();
    const match = /dynamodb\.([a-z0-9-]+)\.amazonaws/.exec(health);
    settings.region = match ? match[1] : "us-east-1";
  }
  $("set-key").value = settings.accessKeyId;
  $("set-secret").value = settings.secretAccessKey;
  $("set-region").value = settings.region;
  $("set-interval").value = settings.interval;
  $("set-token").value = settings.token;

  window.addEventListener("hashchange", () => { applyHash(); refresh(); });
  for (const select of document.querySelectorAll(".table-select")) {
    select.addEventListener("change", () => { chooseTable(select.value); refresh(); });
  }
  $("live").addEventListener("change", schedule);
  $("namespace").addEventListener("change", () => { pickNamespace($("namespace").value); refresh(); });
  $("items-next").addEventListener("click", () => {
    if (!state.lastKey) return;
    state.pageKeys[state.page + 1] = state.lastKey;
    state.page++;
    refresh();
  });
  const newListing = () => { state.pageKeys = [null]; state.page = 0; refresh(); };
  $("query-go").addEventListener("click", () => {
    state.query = {pk: $("query-pk").value, sk: $("query-sk").value, op: $("query-sk-op").value,
                   index: $("query-index").value};
    newListing();
  });
  $("query-clear").addEventListener("click", () => { state.query = null; newListing(); });
  $("items-plain-view").addEventListener("change", () => refresh());
  $("items-prev").addEventListener("click", () => { if (state.page) { state.page--; refresh(); } });
  $("item-put").addEventListener("click", putItem);
  $("vector-go").addEventListener("click", searchVectors);
  $("item-clear").addEventListener("click", () => { $("item-json").value = ""; put("item-result"); });
  $("streams-split").addEventListener("click", async () => {
    try {
      await ctl("POST", "streams/split", {TableName: state.table});
      showError("streams-error", null);
    } catch (e) { showError("streams-error", e); }
    refresh();
  });
  $("ttl-sweep").addEventListener("click", async () => {
    try {
      const answer = await ctl("POST", "ttl/sweep");
      put("ttl-result", el("span", {class: "ok"}, `Deleted ${answer.deleted} items.`));
    } catch (e) { put("ttl-result", el("span", {class: "error"}, e.message)); }
    refresh();
  });
  $("clock-advance-go").addEventListener("click", () => moveClock({advance: $("clock-advance").value}));
  $("clock-set-go").addEventListener("click", () => moveClock({set: Number($("clock-set").value)}));
  $("faults-post").addEventListener("click", async () => {
    try {
      JSON.parse($("faults-json").value);
    } catch (e) {
      put("faults-result", el("span", {class: "error"}, `Not sent: invalid JSON: ${e.message}`));
      return;
    }
    try {
      await ctl("POST", "faults", $("faults-json").value);
      put("faults-result", el("span", {class: "ok"}, "Plan replaced."));
    } catch (e) { put("faults-result", el("span", {class: "error"}, e.message)); }
    refresh();
  });
  $("faults-delete").addEventListener("click", async () => {
    await ctl("DELETE", "faults");
    put("faults-result", el("span", {class: "ok"}, "Plan cleared."));
    refresh();
  });
  $("settings-save").addEventListener("click", () => {
    settings.accessKeyId = $("set-key").value;
    settings.secretAccessKey = $("set-secret").value;
    settings.region = $("set-region").value;
    settings.interval = Number($("set-interval").value) || 2000;
    settings.token = $("set-token").value.trim();
    localStorage.setItem("ddblab.console", JSON.stringify(settings));
    $("settings-result").textContent = "Saved.";
    schedule();
    refresh();
  });
  applyHash();
  await refresh();
  schedule();
}

start();
