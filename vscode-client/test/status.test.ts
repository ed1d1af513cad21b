import * as assert from 'assert';
import { statusView } from '../src/status';

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
