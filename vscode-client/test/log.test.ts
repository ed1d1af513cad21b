import * as assert from 'assert';
import { LineRouter, route } from '../src/log';

describe('route', () => {
  it('strips the client and server prefixes and keeps their level', () => {
    assert.deepStrictEqual(route('[Error - 9:34:38 PM] Server initialization failed.'), { level: 'error', text: 'Server initialization failed.' });
    assert.deepStrictEqual(route('[Trace - 9:34:38 PM] Sending request initialize'), { level: 'info', text: 'Sending request initialize' });
    assert.deepStrictEqual(route('WARNING fullgraph.lsp: slow'), { level: 'warn', text: 'fullgraph.lsp: slow' });
  });

  it('logs the normal exit after a stop or restart as information', () => {
    assert.deepStrictEqual(route('[Error - 9:34:31 PM] Server process exited with code 0.'), { level: 'info', text: 'Server process exited with code 0.' });
    assert.strictEqual(route('[Error - 9:34:31 PM] Server process exited with code 1.').level, 'error');
  });
});

describe('LineRouter', () => {
  it('logs whole lines once, continuation lines at the level of the first', () => {
    const seen: string[] = [];
    const log = { error: (t: string) => seen.push(`E ${t}`), warn: (t: string) => seen.push(`W ${t}`), info: (t: string) => seen.push(`I ${t}`), debug: (t: string) => seen.push(`D ${t}`) };
    const router = new LineRouter(log);
    router.append('ERROR fullgraph: analysis failed: Traceback\n  File "x"');
    router.append(', line 1\n\nINFO done\n');
    assert.deepStrictEqual(seen, ['E fullgraph: analysis failed: Traceback', 'E   File "x", line 1', 'I done']);
  });
});
