// vitest settings of @ddblab/test's own tests (test/): the package's
// globalSetup starts the one ddblab serve they share.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    globalSetup: ["./global-setup.js"],
    include: ["test/**/*.test.js"],
  },
});
