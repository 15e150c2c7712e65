// @ddblab/test: a local ddblab (DynamoDB emulator) for vitest or jest.
// Exports the control client, the server starter and the globalSetup factory;
// the types are in index.d.ts. No state here (see each module).
export { DdblabControl, DdblabControlError, TOKEN_HEADER } from "./control.js";
export { DdblabServer, findDdblab, startDdblab, WHAT_TO_DO } from "./server.js";
export { ddblabGlobalSetup, stopGlobalDdblab } from "./global-setup.js";
