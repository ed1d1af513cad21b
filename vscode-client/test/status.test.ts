import * as assert from 'assert';
import { countBreaks, statusView } from '../src/status';

describe('statusView', () => {
  it('shows the count of likely breaks while running', () => {
    assert.strictEqual(statusView('running', 3).text, '$(warning) fullgraph: 3');
    assert.match(statusView('running', 3).tooltip, /3 likely graph breaks/);
    assert.match(statusView('running', 1).tooltip, /1 likely graph break in/);
    assert.strictEqual(statusView('running', 0).text, '$(check) fullgraph: 0');
  });

  it('shows the server state otherwise', () => {
    assert.match(statusView('starting', undefined).text, /sync~spin/);
    assert.match(statusView('failed', 2).text, /\$\(error\)/);
    assert.match(statusView('stopped', undefined).text, /debug-stop/);
    assert.match(statusView('disabled', undefined).tooltip, /disabled/);
  });
});

describe('countBreaks', () => {
  it('leaves out syntax errors and recompilation notes and counts the fixable ones', () => {
    const counted = countBreaks([
      { code: 'FG101', fixable: true },
      { code: 'FG901', fixable: false },
      { code: 'FG000', fixable: false },
      { code: 'FG451', fixable: false },
    ]);
    assert.deepStrictEqual(counted, { breaks: 2, fixable: 1 });
    assert.match(statusView('running', 2, 1).tooltip, /2 likely graph breaks in this file · 1 fixable/);
  });
});
