// Types of @ddblab/test/global-teardown (jest's globalTeardown).
declare function teardown(): Promise<void>;
export default teardown;
