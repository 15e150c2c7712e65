// ui/item_json.js: the web console's item JSON, checked in the page before
// anything is sent (console.js shows the reason and makes no request), and
// the conversions between DynamoDB JSON and plain JSON.
//
// Pure functions over parsed JSON; no state, no requests.
"use strict";

const TYPES = ["S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS"];

// Returns the reason `value` is not an AttributeValue (at `path`), or "".
// Only the shape is checked here; what DynamoDB refuses beyond it (a
// number's range or precision, bad base64, duplicates in a set, sizes) is
// left to DynamoDB, whose error the form shows.
function checkValue(value, path) {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return `${path}: expected an attribute value like {"S": "text"}`;
  }
  const keys = Object.keys(value);
  if (keys.length !== 1) {
    return `${path}: an attribute value has exactly one type (${TYPES.join(", ")}), got ${keys.length}`;
  }
  const [type] = keys;
  const v = value[type];
  switch (type) {
    case "S": case "B":
      return typeof v === "string" ? "" : `${path}.${type}: expected a string`;
    case "N":
      return typeof v === "string" && /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(v)
          ? "" : `${path}.N: expected a number in a string, like "42"`;
    case "BOOL":
      return typeof v === "boolean" ? "" : `${path}.BOOL: expected true or false`;
    case "NULL":
      return v === true ? "" : `${path}.NULL: expected true`;
    case "SS": case "NS": case "BS":
      if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) {
        return `${path}.${type}: expected a list of strings`;
      }
      return v.length ? "" : `${path}.${type}: a set cannot be empty`;
    case "L":
      if (!Array.isArray(v)) return `${path}.L: expected a list`;
      for (let i = 0; i < v.length; i++) {
        const why = checkValue(v[i], `${path}.L[${i}]`);
        if (why) return why;
      }
      return "";
    case "M":
      if (typeof v !== "object" || v === null || Array.isArray(v)) return `${path}.M: expected an object`;
      for (const [k, x] of Object.entries(v)) {
        const why = checkValue(x, `${path}.M.${k}`);
        if (why) return why;
      }
      return "";
    default:
      return `${path}: unknown type "${type}" (expected one of ${TYPES.join(", ")})`;
  }
}

// Plain JSON -> DynamoDB JSON (strings S, numbers N, booleans BOOL, null
// NULL, arrays L, objects M).
function marshall(v) {
  if (v === null) return {NULL: true};
  if (typeof v === "string") return {S: v};
  if (typeof v === "number") return {N: String(v)};
  if (typeof v === "boolean") return {BOOL: v};
  if (Array.isArray(v)) return {L: v.map(marshall)};
  return {M: Object.fromEntries(Object.entries(v).map(([k, x]) => [k, marshall(x)]))};
}

// DynamoDB JSON -> plain JSON, for the "plain view" (numbers outside the
// safe integer range stay strings; binary stays base64; sets become lists).
function unmarshall(v) {
  const [type] = Object.keys(v);
  const x = v[type];
  switch (type) {
    case "N": { const n = Number(x); return String(n) === x ? n : x; }
    case "NULL": return null;
    case "L": return x.map(unmarshall);
    case "M": return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, unmarshall(y)]));
    default: return x;
  }
}

// The AttributeValue of key attribute `name` typed in a query box, or an
// Error naming what is wrong.
function keyValue(description, name, text) {
  const definition = (description.AttributeDefinitions || []).find((d) => d.AttributeName === name);
  const type = definition ? definition.AttributeType : "S";
  if (type === "N" && checkValue({N: text}, name)) return new Error(`${name} is a number key: "${text}" is not a number`);
  return {[type]: text};
}

// Parses the form's text into an Item for `description` (DescribeTable's
// Table); returns {item} or {error} (the reason, shown in the form).
function parseItem(text, plain, description) {
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return {error: `Invalid JSON: ${e.message}`};
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return {error: "An item is a JSON object of attributes"};
  }
  const item = plain ? marshall(parsed).M : parsed;
  for (const [name, value] of Object.entries(item)) {
    const why = checkValue(value, name);
    if (why) return {error: why};
  }
  const types = Object.fromEntries(
      (description.AttributeDefinitions || []).map((d) => [d.AttributeName, d.AttributeType]));
  for (const key of description.KeySchema || []) {
    const value = item[key.AttributeName];
    if (!value) return {error: `Missing the key attribute ${key.AttributeName}`};
    const want = types[key.AttributeName];
    if (want && !(want in value)) {
      return {error: `Key attribute ${key.AttributeName} must be of type ${want}`};
    }
  }
  return {item};
}
