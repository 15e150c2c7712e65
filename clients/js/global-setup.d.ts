// Types of @ddblab/test/global-setup (see index.d.ts).
import type { GlobalSetup } from "./index.js";
export { ddblabGlobalSetup, stopGlobalDdblab } from "./index.js";
declare const setup: GlobalSetup;
export default setup;
