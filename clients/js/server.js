// Finds, starts and stops one `ddblab serve` (the process behind globalSetup).
//
//   const server = await startDdblab({ args: ["--seed", "7"] });
//   server.endpoint; server.token; server.control();
//   await server.stop();   // SIGTERM, waits; resolves to the exit code
//
// The server listens on a free loopback port (`--port 0`; the endpoint is read
// from the first line it prints) and writes its control token into a private
// temporary folder (`--control-token-file`), read once it answers its health
// check. Unless the args set a clock it runs on a manual clock (`--clock
// manual`: time moves only through the control API). Its stdout is drained;
// the last 64 KiB of its stderr are kept for error messages. One owner (the
// globalSetup); not shared.

import { spawn } from "node:child_process";
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { DdblabControl, DdblabControlError } from "./control.js";

export const WHAT_TO_DO =
  "Put ddblab on PATH, set DDBLAB_BIN, or pass { bin } " +
  "(a build of ddblab leaves it at build/cli/ddblab).";

const ENDPOINT_RE = /(https?:\/\/\S+)/;
const STDERR_KEPT = 64 * 1024;

function isExecutable(path) {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The ddblab to run: `bin`, else $DDBLAB_BIN, else `ddblab` on PATH. Throws an
 * Error (name "DdblabNotFound") saying what to do.
 */
export function findDdblab(bin, env = process.env) {
  for (const [given, name] of [[bin, "bin"], [env.DDBLAB_BIN, "DDBLAB_BIN"]]) {
    if (given) {
      if (isExecutable(given)) return resolve(given);
      throw notFound(`${name} ${given} is not an executable file.`);
    }
  }
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (dir && isExecutable(join(dir, "ddblab"))) return join(dir, "ddblab");
  }
  throw notFound("no ddblab on PATH.");
}

function notFound(why) {
  const error = new Error(`@ddblab/test: ${why} ${WHAT_TO_DO}`);
  error.name = "DdblabNotFound";
  return error;
}

function flagValue(args, flag) {
  let value;
  args.forEach((arg, i) => {
    if (arg === flag && i + 1 < args.length) value = args[i + 1];
    else if (arg.startsWith(`${flag}=`)) value = arg.slice(flag.length + 1);
  });
  return value;
}

export class DdblabServer {
  constructor(child, endpoint, tokenFile, privateDir, stderr) {
    this.process = child;
    this.pid = child.pid;
    this.endpoint = endpoint;
    this.port = Number(new URL(endpoint).port);
    this.token = null;
    this.tokenFile = tokenFile;
    this.privateDir = privateDir;
    this.stderr = stderr;
    this.exited = new Promise((done) => child.once("exit", (code, signal) => done({ code, signal })));
  }

  /** A control client for this server, with its token, bound to `namespace` (null: none). */
  control(namespace = null) {
    return new DdblabControl(this.endpoint, this.token ?? "", { namespace });
  }

  /** What the server wrote to stderr (its last 64 KiB). */
  stderrText() {
    return this.stderr.text;
  }

  /**
   * SIGTERM, then waits; resolves to the exit code (0 after a clean shutdown).
   * Kills it and rejects when it has not stopped within `timeoutMs`.
   */
  async stop(timeoutMs = 20000) {
    try {
      if (this.process.exitCode === null && this.process.signalCode === null) {
        this.process.kill("SIGTERM");
      }
      let timer;
      const timedOut = new Promise((done) => { timer = setTimeout(() => done(null), timeoutMs); });
      const exit = await Promise.race([this.exited, timedOut]);
      clearTimeout(timer);
      if (exit === null) {
        this.process.kill("SIGKILL");
        await this.exited;
        throw new Error(`@ddblab/test: ddblab (pid ${this.pid}) did not stop within ` +
          `${timeoutMs} ms of SIGTERM\n${this.stderrText()}`);
      }
      return exit.code ?? 128;
    } finally {
      if (this.privateDir) rmSync(this.privateDir, { recursive: true, force: true });
    }
  }
}

/**
 * Starts `ddblab serve --port 0 [--clock manual] ...args` and resolves once it
 * answers GET /_ddblab/health. options: { bin, args = [], timeoutMs = 15000 }.
 */
export async function startDdblab({ bin, args = [], timeoutMs = 15000 } = {}) {
  const binary = findDdblab(bin);
  let extra = [...args];
  let privateDir = null;
  let tokenFile = flagValue(extra, "--control-token-file");
  if (tokenFile === undefined) {
    privateDir = mkdtempSync(join(tmpdir(), "ddblab-test-"));
    tokenFile = join(privateDir, "control.token");
    extra = ["--control-token-file", tokenFile, ...extra];
  }
  if (flagValue(extra, "--clock") === undefined) extra = ["--clock", "manual", ...extra];
  const command = [binary, "serve", "--port", "0", "--log-level", "warn", ...extra];
  const child = spawn(command[0], command.slice(1), { stdio: ["ignore", "pipe", "pipe"] });
  const stderr = { text: "" };
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk) => {
    stderr.text = (stderr.text + chunk).slice(-STDERR_KEPT);
  });
  const deadline = Date.now() + timeoutMs;
  const fail = async (why) => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    if (privateDir) rmSync(privateDir, { recursive: true, force: true });
    throw new Error(`@ddblab/test: ddblab serve did not come up within ${timeoutMs} ms ` +
      `(${why}): ${command.join(" ")}\nstderr: ${stderr.text}`);
  };
  const firstLine = await new Promise((done) => {
    let text = "";
    const timer = setTimeout(() => done(null), timeoutMs);
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => {
      text += chunk;
      const newline = text.indexOf("\n");
      if (newline >= 0) {
        clearTimeout(timer);
        done(text.slice(0, newline));
      }
    });
    child.once("exit", () => {
      clearTimeout(timer);
      done(null);
    });
    child.once("error", (error) => {
      clearTimeout(timer);
      stderr.text += String(error);
      done(null);
    });
  });
  // Keep draining stdout so the server never blocks on a full pipe.
  child.stdout.resume();
  const match = firstLine === null ? null : ENDPOINT_RE.exec(firstLine);
  if (!match) return fail(`exit code ${child.exitCode}, printed ${JSON.stringify(firstLine)}`);
  const server = new DdblabServer(child, match[1], tokenFile, privateDir, stderr);
  const probe = new DdblabControl(server.endpoint, "");
  for (;;) {
    try {
      await probe.health();
      break;
    } catch (error) {
      if (!(error instanceof DdblabControlError) || Date.now() > deadline || child.exitCode !== null) {
        return fail(`no health check answer: ${error.message}`);
      }
      await new Promise((done) => setTimeout(done, 20));
    }
  }
  try {
    // No file under --control open or off: requests go without a token.
    server.token = readFileSync(tokenFile, "utf8").trim() || null;
  } catch {
    server.token = null;
  }
  return server;
}
