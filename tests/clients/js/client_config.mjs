// The client configuration every JS test uses: the `ddblab serve` endpoint
// that tests/clients/run.py passes in DDBLAB_ENDPOINT, any credentials, and
// retries off (maxAttempts: 1) so nothing is hidden. Not a test file
// (run.py runs *.test.mjs only).
const endpoint = process.env.DDBLAB_ENDPOINT;
if (!endpoint) throw new Error('DDBLAB_ENDPOINT is not set (use run.py js)');

export { endpoint };

// Headers of a control request (/_ddblab/...): JSON, and the server's
// control token, which run.py passes in DDBLAB_CONTROL_TOKEN.
export const controlHeaders = {
  'Content-Type': 'application/json',
  ...(process.env.DDBLAB_CONTROL_TOKEN
    ? { 'X-Ddblab-Token': process.env.DDBLAB_CONTROL_TOKEN } : {}),
};

export const config = {
  endpoint,
  region: 'us-east-1',
  credentials: { accessKeyId: 'AKIDDDBLABTEST', secretAccessKey: 'secret' },
  maxAttempts: 1,
};
