import * as assert from 'assert';
import { quickInterpreter } from '../src/discovery';

const later = <T>(value: T, ms = 30): Promise<T> => new Promise((resolve) => setTimeout(() => resolve(value), ms));

describe('quickInterpreter', () => {
  it('waits for discovery the first time and remembers it', async () => {
    const stored: (string[] | undefined)[] = [];
    const quick = await quickInterpreter(undefined, () => later(['/env/bin/python']), async (a) => void stored.push(a));
    assert.deepStrictEqual(quick.argv, ['/env/bin/python']);
    assert.deepStrictEqual(stored, [['/env/bin/python']]);
    assert.strictEqual(await quick.changed, false);
  });

  it('starts with the remembered interpreter without waiting, and says when discovery differs', async () => {
    const stored: (string[] | undefined)[] = [];
    const started = Date.now();
    const quick = await quickInterpreter(['/old/bin/python'], () => later(['/new/bin/python'], 200), async (a) => void stored.push(a));
    assert.ok(Date.now() - started < 150);
    assert.deepStrictEqual(quick.argv, ['/old/bin/python']);
    assert.strictEqual(await quick.changed, true);
    assert.deepStrictEqual(stored, [['/new/bin/python']]);
  });

  it('changes nothing when discovery agrees, or when there is no Python extension', async () => {
    const stored: (string[] | undefined)[] = [];
    const same = await quickInterpreter(['/env/bin/python'], () => later(['/env/bin/python']), async (a) => void stored.push(a));
    assert.strictEqual(await same.changed, false);
    const none = await quickInterpreter(undefined, () => later(undefined), async (a) => void stored.push(a));
    assert.strictEqual(none.argv, undefined);
    assert.deepStrictEqual(stored, []);
  });
});
