// ui/sigv4.js: AWS Signature Version 4 for the web console's DynamoDB calls.
//
// Pure JavaScript SHA-256 and HMAC (no crypto.subtle, which browsers give
// only to secure contexts, so the page also works over plain HTTP on a LAN
// address). Used by console.js: sigv4Headers(...) returns the headers to add
// to a POST / request, or to a control request (/_ddblab/...), which
// ddblab serve --auth verify checks the same way. With `ddblab serve --auth accept` (the default) any
// well-formed signature passes; with --auth verify the keys entered in the
// page's settings must match the server's.
"use strict";

const SigV4 = (() => {
  const K = new Uint32Array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
    0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
    0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2]);

  // SHA-256 of a Uint8Array; returns a Uint8Array of 32 bytes.
  function sha256(bytes) {
    const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                               0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
    const length = bytes.length;
    const padded = new Uint8Array(((length + 9 + 63) >> 6) << 6);
    padded.set(bytes);
    padded[length] = 0x80;
    const view = new DataView(padded.buffer);
    view.setUint32(padded.length - 8, Math.floor(length / 0x20000000));
    view.setUint32(padded.length - 4, (length << 3) >>> 0);
    const w = new Uint32Array(64);
    for (let off = 0; off < padded.length; off += 64) {
      for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + i * 4);
      for (let i = 16; i < 64; i++) {
        const a = w[i - 15], b = w[i - 2];
        const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
        const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
        w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
      }
      let [a, b, c, d, e, f, g, hh] = h;
      for (let i = 0; i < 64; i++) {
        const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
        const ch = (e & f) ^ (~e & g);
        const t1 = (hh + S1 + ch + K[i] + w[i]) >>> 0;
        const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
        const maj = (a & b) ^ (a & c) ^ (b & c);
        const t2 = (S0 + maj) >>> 0;
        hh = g; g = f; f = e; e = (d + t1) >>> 0;
        d = c; c = b; b = a; a = (t1 + t2) >>> 0;
      }
      h[0] += a; h[1] += b; h[2] += c; h[3] += d;
      h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
    }
    const out = new Uint8Array(32);
    const outView = new DataView(out.buffer);
    for (let i = 0; i < 8; i++) outView.setUint32(i * 4, h[i]);
    return out;
  }

  const utf8 = (text) => new TextEncoder().encode(text);
  const hex = (bytes) =>
    Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

  function hmac(key, message) {
    if (key.length > 64) key = sha256(key);
    const block = new Uint8Array(64);
    block.set(key);
    const inner = new Uint8Array(64 + message.length);
    const outer = new Uint8Array(64 + 32);
    for (let i = 0; i < 64; i++) {
      inner[i] = block[i] ^ 0x36;
      outer[i] = block[i] ^ 0x5c;
    }
    inner.set(message, 64);
    outer.set(sha256(inner), 64);
    return sha256(outer);
  }

  // "20261124T235501Z" for a Date.
  function amzDate(date) {
    return date.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
  }

  // Headers for POST / to `host` with `body` (a string) and `target`
  // (X-Amz-Target), signed for `creds` {accessKeyId, secretAccessKey,
  // region} at `date`. Signed: content-type, host, x-amz-date,
  // x-amz-target (the browser sends Host itself, with the same value).
  // `target` (DynamoDB's API) or `extra` (more headers to sign, lowercase
  // names: the control token) may be absent; `method` and `path` default to
  // a DynamoDB call's (POST /); control calls pass their own and JSON.
  // RFC 3986 encoding as SigV4's canonical query string wants it.
  function uriEncode(text) {
    return encodeURIComponent(text).replace(
        /[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
  }

  // `query`: the canonical query string (names and values uriEncode'd,
  // sorted), "" for none; the request must carry the same string.
  function sigv4Headers({host, body, target, creds, date, method = "POST", path = "/",
                         query = "", contentType = "application/x-amz-json-1.0", extra = {}}) {
    const stamp = amzDate(date);
    const day = stamp.slice(0, 8);
    const headers = {
      "content-type": contentType,
      host,
      "x-amz-date": stamp,
      ...extra,
    };
    if (target) headers["x-amz-target"] = target;
    const names = Object.keys(headers).sort();
    const canonical = [
      method, path, query,
      names.map((n) => `${n}:${headers[n]}\n`).join(""),
      names.join(";"),
      hex(sha256(utf8(body))),
    ].join("\n");
    const scope = `${day}/${creds.region}/dynamodb/aws4_request`;
    const toSign = ["AWS4-HMAC-SHA256", stamp, scope,
                    hex(sha256(utf8(canonical)))].join("\n");
    let key = utf8("AWS4" + creds.secretAccessKey);
    for (const part of [day, creds.region, "dynamodb", "aws4_request"]) {
      key = hmac(key, utf8(part));
    }
    const signature = hex(hmac(key, utf8(toSign)));
    return {
      ...extra,
      "Content-Type": contentType,
      "X-Amz-Date": stamp,
      ...(target ? {"X-Amz-Target": target} : {}),
      Authorization: `AWS4-HMAC-SHA256 Credential=${creds.accessKeyId}/${scope}, ` +
                     `SignedHeaders=${names.join(";")}, Signature=${signature}`,
    };
  }

  return {sha256, hmac, hex, utf8, uriEncode, sigv4Headers};
})();
