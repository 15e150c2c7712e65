// The globalSetup for vitest (and jest): one `ddblab serve` for the test run.
//
//   vitest.config.js: test: { globalSetup: ["@ddblab/test/global-setup"] }
//   jest.config.js:   globalSetup: "@ddblab/test/global-setup",
//                     globalTeardown: "@ddblab/test/global-teardown"
//
// The default export starts the server with $DDBLAB_BIN (else ddblab on PATH)
// and the flags of $DDBLAB_ARGS (split on spaces), sets DDBLAB_ENDPOINT and
// DDBLAB_CONTROL_TOKEN in process.env (test workers inherit them), provides
// `ddblabEndpoint` and `ddblabToken` to vitest's inject(), and returns the
// teardown (SIGTERM, wait). ddblabGlobalSetup({ bin, args }) makes one with
// other settings. The server lives in this (the runner's) process.

import { startDdblab } from "./server.js";

const SERVER_KEY = Symbol.for("@ddblab/test.server");

function argsFromEnv() {
  return (process.env.DDBLAB_ARGS ?? "").split(/\s+/).filter(Boolean);
}

/** Stops the server a globalSetup of this process started (jest's teardown). */
export async function stopGlobalDdblab() {
  const server = globalThis[SERVER_KEY];
  if (!server) return;
  delete globalThis[SERVER_KEY];
  delete process.env.DDBLAB_ENDPOINT;
  delete process.env.DDBLAB_CONTROL_TOKEN;
  const code = await server.stop();
  if (code !== 0) {
    throw new Error(`@ddblab/test: ddblab serve exited with code ${code}\n${server.stderrText()}`);
  }
}

/** A globalSetup function; options { bin, args } (default $DDBLAB_BIN, $DDBLAB_ARGS). */
export function ddblabGlobalSetup(options = {}) {
  return async function setup(project) {
    const server = await startDdblab({ bin: options.bin, args: options.args ?? argsFromEnv() });
    globalThis[SERVER_KEY] = server;
    process.env.DDBLAB_ENDPOINT = server.endpoint;
    if (server.token) process.env.DDBLAB_CONTROL_TOKEN = server.token;
    else delete process.env.DDBLAB_CONTROL_TOKEN;
    // vitest passes its TestProject; jest passes its config (no provide).
    if (typeof project?.provide === "function") {
      project.provide("ddblabEndpoint", server.endpoint);
      project.provide("ddblabToken", server.token);
    }
    return stopGlobalDdblab;
  };
}

export default ddblabGlobalSetup();
