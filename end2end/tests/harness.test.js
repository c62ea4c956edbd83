// The harness itself: a server whose port another server took before it could listen is
// started again elsewhere, never mistaken for the one that answers on that port.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './harness.js';

test('a server is never mistaken for another that holds its port', async () => {
  const first = await startServer();
  try {
    const port = Number(new URL(first.base).port);
    const second = await startServer({ port });
    try {
      assert.notEqual(second.base, first.base, 'the second server is on a port of its own');
      assert.ok((await fetch(`${second.base}/health`)).ok);
      assert.ok((await fetch(`${first.base}/health`)).ok);
    } finally {
      await second.stop();
    }
  } finally {
    await first.stop();
  }
});
