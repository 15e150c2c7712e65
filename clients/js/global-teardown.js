// jest's globalTeardown: stops the server @ddblab/test/global-setup started in
// this process (vitest needs no such file: the setup returns its teardown).
export { stopGlobalDdblab as default } from "./global-setup.js";
