// ui/capacity.js: the console's Capacity tab. It reads GET /_ddblab/capacity
// (the capacity model's report: per table and GSI, the units consumed in
// each clock second and the throttled requests by reason) and draws, per
// resource, the read and write units of the last 60 seconds of the server's
// clock as a small bar chart, with the provisioned or allowed rate and the
// throttle counts. It uses el/put/tableOf/ctl from console.js and is called
// by its refresh loop (loaded before console.js; nothing runs at load).
"use strict";

const CAPACITY_WINDOW = 60;  // seconds shown

// {second: units} of the last CAPACITY_WINDOW seconds ending at `now`.
function capacitySeries(consumed, now) {
  const out = new Array(CAPACITY_WINDOW).fill(0);
  for (const point of consumed || []) {
    const i = CAPACITY_WINDOW - 1 - (now - point.Second);
    if (i >= 0 && i < CAPACITY_WINDOW) out[i] = point.Units;
  }
  return out;
}

// An SVG bar chart of `values` (one bar a second) with a dashed line at
// `limit` units per second (when given).
function capacityChart(values, limit, cls) {
  const ns = "http://www.w3.org/2000/svg";
  const w = 240, h = 48, bar = w / values.length;
  const top = Math.max(1, limit || 0, ...values);
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("width", w);
  svg.setAttribute("height", h);
  svg.setAttribute("class", `capacity-chart ${cls}`);
  values.forEach((v, i) => {
    if (!v) return;
    const r = document.createElementNS(ns, "rect");
    const bh = Math.max(1, (v / top) * (h - 2));
    r.setAttribute("x", (i * bar).toFixed(1));
    r.setAttribute("y", (h - bh).toFixed(1));
    r.setAttribute("width", Math.max(1, bar - 1).toFixed(1));
    r.setAttribute("height", bh.toFixed(1));
    const title = document.createElementNS(ns, "title");
    title.textContent = `${v} units, ${CAPACITY_WINDOW - 1 - i}s ago`;
    r.appendChild(title);
    svg.appendChild(r);
  });
  if (limit) {
    const line = document.createElementNS(ns, "line");
    const y = (h - (limit / top) * (h - 2)).toFixed(1);
    line.setAttribute("x1", 0);
    line.setAttribute("x2", w);
    line.setAttribute("y1", y);
    line.setAttribute("y2", y);
    line.setAttribute("class", "limit");
    svg.appendChild(line);
  }
  return svg;
}

// One row per side (read/write) of a table or GSI.
function capacityRows(tableName, indexName, resource, now) {
  const rows = [];
  for (const side of ["Read", "Write"]) {
    const d = resource[side] || {};
    const limit = d.ProvisionedUnits ?? d.AllowedUnits;
    const values = capacitySeries(d.Consumed, now);
    const current = values[CAPACITY_WINDOW - 1];
    const total = values.reduce((a, b) => a + b, 0);
    rows.push(el("tr", {class: "capacity-row", "data-table": tableName, "data-index": indexName,
                        "data-side": side.toLowerCase()},
                 el("td", {}, indexName ? `${tableName} / ${indexName}` : tableName),
                 el("td", {}, side),
                 el("td", {}, `${d.ProvisionedUnits !== undefined ? "provisioned" : "allowed"} ${limit}` +
                              (d.MaxUnits ? ` (max ${d.MaxUnits})` : "")),
                 el("td", {class: "consumed-now"}, String(current)),
                 el("td", {class: "consumed-total"}, String(total)),
                 el("td", {}, capacityChart(values, limit, side.toLowerCase()))));
  }
  const throttled = Object.entries(resource.ThrottledRequests || {});
  rows.push(el("tr", {class: "throttled-row", "data-table": tableName, "data-index": indexName},
               el("td", {}, ""), el("td", {}, "Throttled"),
               el("td", {colspan: 4, class: "throttled"},
                  throttled.length ? throttled.map(([reason, n]) => el("div", {}, `${reason}: ${n}`))
                                   : "none")));
  return rows;
}

async function refreshCapacity() {
  const [report, clock] = await Promise.all([ctl("GET", "capacity"), ctl("GET", "clock")]);
  const now = Math.floor(clock.now);
  if (!report.Enforced) {
    put("capacity-view", el("p", {class: "hint", id: "capacity-off"},
                            "Capacity enforcement is off: start ddblab serve with --capacity enforce ",
                            "to see consumed and throttled units."));
    return;
  }
  const rows = [];
  for (const t of report.Tables) {
    rows.push(...capacityRows(t.TableName, "", t, now));
    for (const g of t.GlobalSecondaryIndexes || []) rows.push(...capacityRows(t.TableName, g.IndexName, g, now));
  }
  put("capacity-view",
      el("p", {class: "hint"}, `Units consumed per second of the server's clock, last ${CAPACITY_WINDOW} s ` +
                               "(dashed: the provisioned or allowed rate)."),
      rows.length ? tableOf(["Table / index", "Side", "Rate", "This second", `Last ${CAPACITY_WINDOW} s`, "Per second"], rows)
                  : el("p", {}, "No table has consumed capacity yet."));
}
