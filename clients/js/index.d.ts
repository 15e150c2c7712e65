// Type declarations of @ddblab/test (hand-written; the code is index.js and
// the modules it re-exports).
import type { ChildProcess } from "node:child_process";

/** Epoch seconds: an integer when whole, otherwise a fraction. */
export type EpochSeconds = number;

/** A duration such as "90s", "15m", "2h", "1d", or a number of seconds. */
export type DurationSpec = string | number;

export const TOKEN_HEADER: "X-Ddblab-Token";
export const WHAT_TO_DO: string;

/** A control request that ddblab refused or could not answer. */
export class DdblabControlError extends Error {
  readonly name: "DdblabControlError";
  readonly method: string;
  readonly path: string;
  /** The HTTP status; null when the server could not be reached. */
  readonly status: number | null;
  /** The error type, e.g. "ValidationException"; null when the answer has none. */
  readonly type: string | null;
  /** The server's message, byte for byte. */
  readonly serverMessage: string;
}

export interface ClockState { now: EpochSeconds; mode: "manual" | "system" }
export interface ClockMove { now: EpochSeconds; deleted: number }
export interface TtlStatus {
  now: EpochSeconds;
  delay: string;
  tables: Record<string, { waiting: number; next_due: EpochSeconds | null }>;
}
/** A fault plan (docs/faults.md): { rules: [...] }. */
export interface FaultPlan { rules: Array<Record<string, unknown>> }
/** The plan in force: each rule with its counters. */
export interface FaultStatus {
  rules: Array<Record<string, unknown> & { matched: number; fired: number }>;
}
export interface FaultLogEntry {
  seq: number;
  time: EpochSeconds;
  operation: string;
  table: string;
  keys: Array<Record<string, unknown>>;
  rule: string;
  effect: string;
}
export interface ShardSplit { closed: string[]; created: string[] }
export interface ResetOptions {
  clock?: EpochSeconds;
  seed?: number;
  ttl_delay?: string;
  stream_shards?: number;
  shard_rollover?: DurationSpec;
}
export interface ResetResult {
  now: EpochSeconds;
  mode: "manual" | "system";
  seed: number;
  ttl_delay: string;
  stream_shards: number;
  shard_rollover: string;
}

/** The /_ddblab/ control endpoints of one `ddblab serve`. */
export interface ControlOptions {
  /**
   * The namespace ("KEY", or "KEY:REGION" under --namespace
   * access-key+region) every request names with ?namespace=; default none.
   */
  namespace?: string | null;
}
export interface NamespaceList {
  mode: "shared" | "access-key" | "access-key+region";
  namespaces: Array<{ name: string; access_key: string; region?: string }>;
}

export class DdblabControl {
  /** token: default $DDBLAB_CONTROL_TOKEN; none for a server with --control open. */
  constructor(endpoint: string, token?: string | null, options?: ControlOptions);
  readonly endpoint: string;
  readonly token: string | null;
  readonly namespace: string | null;
  /** The same server's control API, bound to `namespace` (null: none). */
  forNamespace(namespace: string | null): DdblabControl;
  /** GET /_ddblab/namespaces. */
  namespaces(): Promise<NamespaceList>;
  /** GET /_ddblab/health: the health line. */
  health(): Promise<string>;
  clock(): Promise<ClockState>;
  now(): Promise<EpochSeconds>;
  /** Moves the manual clock forward; TTL sweeps and mappings run before the answer. */
  advanceClock(by: DurationSpec): Promise<ClockMove>;
  /** Sets the manual clock (never backwards). */
  setClock(epochSeconds: EpochSeconds): Promise<ClockMove>;
  /** Deletes the items due now; their number. */
  ttlSweep(): Promise<number>;
  ttlStatus(): Promise<TtlStatus>;
  putFaultPlan(plan: FaultPlan): Promise<FaultStatus>;
  getFaultPlan(): Promise<FaultStatus>;
  clearFaultPlan(): Promise<FaultStatus>;
  faultLog(): Promise<FaultLogEntry[]>;
  splitShard(tableName: string, shardId?: string): Promise<ShardSplit>;
  /** Empties tables, streams, mappings, faults and capacity. */
  reset(options?: ResetOptions): Promise<ResetResult>;
}

export interface StartOptions {
  /** The ddblab binary (default $DDBLAB_BIN, else ddblab on PATH). */
  bin?: string;
  /** More flags for ddblab serve (a --clock flag replaces --clock manual). */
  args?: string[];
  timeoutMs?: number;
}

/** One running `ddblab serve`. */
export class DdblabServer {
  readonly process: ChildProcess;
  readonly pid: number;
  readonly endpoint: string;
  readonly port: number;
  readonly token: string | null;
  /** A control client with the token, bound to `namespace` ("KEY" or "KEY:REGION"). */
  control(namespace?: string | null): DdblabControl;
  stderrText(): string;
  /** SIGTERM, then waits: the exit code (0 after a clean shutdown). */
  stop(timeoutMs?: number): Promise<number>;
}

/** The ddblab to run; throws an Error named "DdblabNotFound" saying what to do. */
export function findDdblab(bin?: string, env?: Record<string, string | undefined>): string;
/** Starts `ddblab serve --port 0` and resolves once it is healthy. */
export function startDdblab(options?: StartOptions): Promise<DdblabServer>;

/** A globalSetup: starts the server, returns its teardown. */
export type GlobalSetup = (project?: unknown) => Promise<() => Promise<void>>;
export function ddblabGlobalSetup(options?: { bin?: string; args?: string[] }): GlobalSetup;
/** Stops the server a globalSetup of this process started. */
export function stopGlobalDdblab(): Promise<void>;

declare module "vitest" {
  export interface ProvidedContext {
    /** The endpoint of the run's ddblab ("http://127.0.0.1:PORT"). */
    ddblabEndpoint: string;
    /** Its control token (null under --control open). */
    ddblabToken: string | null;
  }
}
