import * as assert from 'assert';
import type { Probe } from '../src/launch';
import { startOrExplain } from '../src/startup';

describe('startOrExplain', () => {
  it('runs no import check when the server starts', async () => {
    let checks = 0;
    const outcome = await startOrExplain(async () => undefined, async () => {
      checks++;
      return { ok: true };
    });
    assert.deepStrictEqual(outcome, { ok: true });
    assert.strictEqual(checks, 0);
  });

  it('checks the interpreter once the start failed, and keeps the start error', async () => {
    const missing: Probe = { ok: false, missingInterpreter: false, detail: "No module named 'fullgraph'" };
    const error = new Error('connection closed');
    const outcome = await startOrExplain(async () => { throw error; }, async () => missing);
    assert.deepStrictEqual(outcome, { ok: false, error, probe: missing });
  });
});
