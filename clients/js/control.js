// A client for the control API of `ddblab serve` (the /_ddblab/ endpoints).
//
//   const control = new DdblabControl(endpoint);   // token: $DDBLAB_CONTROL_TOKEN
//   await control.advanceClock("2m");             // { now, deleted }
//
// A server started with --namespace access-key keeps a database per access
// key: `new DdblabControl(endpoint, token, { namespace: "KEY" })` (or
// control.forNamespace("KEY"); "KEY:REGION" under access-key+region) sends
// ?namespace= with every request.
//
// Each method is one fetch and resolves to the server's JSON answer; a non-2xx
// answer rejects with DdblabControlError carrying the server's error type and
// message. No dependencies (Node 18+ fetch). An instance holds only its
// endpoint and token: concurrent calls are independent requests.

export const TOKEN_HEADER = "X-Ddblab-Token";

/** A control request that ddblab refused or could not answer. */
export class DdblabControlError extends Error {
  constructor(method, path, status, type, message) {
    const where = status === null ? "no answer" : `HTTP ${status}`;
    super(`ddblab ${method} ${path}: ${where}${type ? ` ${type}` : ""}: ${message}`);
    this.name = "DdblabControlError";
    this.method = method;
    this.path = path;
    this.status = status; // null when the server could not be reached
    this.type = type; // e.g. "ValidationException", null when none
    this.serverMessage = message; // the server's message, byte for byte
  }
}

export class DdblabControl {
  /**
   * endpoint: the server's URL ("http://127.0.0.1:PORT"); token: its control
   * token (default $DDBLAB_CONTROL_TOKEN; none for --control open);
   * options.namespace: the namespace ("KEY" or "KEY:REGION") every request
   * names with ?namespace= (default none).
   */
  constructor(endpoint, token = process.env.DDBLAB_CONTROL_TOKEN ?? null,
              options = {}) {
    this.endpoint = String(endpoint).replace(/\/+$/, "");
    this.token = token || null;
    this.namespace = options.namespace ?? null;
  }

  /** The same server's control API, bound to `namespace` (null: none). */
  forNamespace(namespace) {
    return new DdblabControl(this.endpoint, this.token ?? "", { namespace });
  }

  /** { mode: "shared" | "access-key" | "access-key+region", namespaces: [...] } */
  namespaces() {
    return this.#call("GET", "/_ddblab/namespaces");
  }

  /** GET /_ddblab/health: the health line (needs no token). */
  health() {
    return this.#call("GET", "/_ddblab/health", undefined, true);
  }

  /** { now: epoch seconds, mode: "manual" | "system" } */
  clock() {
    return this.#call("GET", "/_ddblab/clock");
  }

  /** The server's clock in epoch seconds. */
  async now() {
    return (await this.clock()).now;
  }

  /**
   * Moves the manual clock forward by a duration ("90s", "15m", "2h", "1d") or
   * a number of seconds; TTL sweeps and hosted mappings run before the answer:
   * { now, deleted }. A server on the system clock answers 400.
   */
  advanceClock(by) {
    return this.#call("POST", "/_ddblab/clock", { advance: by });
  }

  /** Sets the manual clock (never backwards), then as advanceClock. */
  setClock(epochSeconds) {
    return this.#call("POST", "/_ddblab/clock", { set: epochSeconds });
  }

  /** Deletes the items due now; resolves to their number. */
  async ttlSweep() {
    return (await this.#call("POST", "/_ddblab/ttl/sweep", {})).deleted;
  }

  /** { now, delay, tables: { NAME: { waiting, next_due } } } */
  ttlStatus() {
    return this.#call("GET", "/_ddblab/ttl");
  }

  /** Replaces the fault plan ({ rules: [...] }); the plan in force. */
  putFaultPlan(plan) {
    return this.#call("POST", "/_ddblab/faults", plan);
  }

  /** The plan in force, each rule with its matched and fired counts. */
  getFaultPlan() {
    return this.#call("GET", "/_ddblab/faults");
  }

  /** Removes every rule: { rules: [] }. */
  clearFaultPlan() {
    return this.#call("DELETE", "/_ddblab/faults");
  }

  /** Every fault fired, in order: seq, time, operation, table, keys, rule, effect. */
  async faultLog() {
    return (await this.#call("GET", "/_ddblab/faults/log")).faults;
  }

  /** Splits the open stream shards of a table (or one shard): { closed, created }. */
  splitShard(tableName, shardId) {
    const body = { TableName: tableName };
    if (shardId !== undefined) body.ShardId = shardId;
    return this.#call("POST", "/_ddblab/streams/split", body);
  }

  /**
   * Empties tables, streams, mappings, faults and capacity; options may set
   * clock (manual clock only), seed, ttl_delay, stream_shards, shard_rollover.
   * Resolves to the settings in force.
   */
  reset(options = {}) {
    return this.#call("POST", "/_ddblab/reset", options);
  }

  async #call(method, path, body, raw = false) {
    const headers = {};
    // The server refuses (415) a non-GET control request of any other type.
    if (method !== "GET") headers["Content-Type"] = "application/json";
    if (this.token) headers[TOKEN_HEADER] = this.token;
    let response;
    try {
      const query = this.namespace === null || raw
        ? "" : `?namespace=${encodeURIComponent(this.namespace)}`;
      response = await fetch(this.endpoint + path + query, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      const reason = error.cause?.message ?? error.message;
      throw new DdblabControlError(method, path, null, null,
        `cannot reach ${this.endpoint}: ${reason}`);
    }
    const text = await response.text();
    if (!response.ok) {
      let type = null;
      let message = text.trim();
      try {
        const parsed = JSON.parse(text);
        if (parsed && typeof parsed === "object") {
          type = parsed.type ?? null;
          if (parsed.message !== undefined) message = String(parsed.message);
        }
      } catch {
        // Not JSON: the body is the message.
      }
      throw new DdblabControlError(method, path, response.status, type, message);
    }
    return raw ? text : JSON.parse(text);
  }
}
