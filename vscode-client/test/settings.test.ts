import * as assert from 'assert';
import { clientSettings, ConfigReader, RESTART_KEYS, serverSettings, shouldNotify } from '../src/settings';

/** A ConfigReader over dotted keys, like `vscode.workspace.getConfiguration('fullgraph')`. */
const reader = (values: Record<string, unknown>): ConfigReader => ({ get: <T>(key: string) => values[key] as T | undefined });

describe('serverSettings', () => {
  it('gives the server defaults when nothing is set', () => {
    assert.deepStrictEqual(serverSettings(reader({}), true), {
      enable: true,
      select: [],
      ignore: [],
      severity: {},
      run: 'onType',
      assumeCompiled: false,
      debounce: 200,
      confirm: { enable: false, onSave: false, timeout: 60, interpreter: null },
    });
  });

  it('passes every mirrored setting through', () => {
    const s = serverSettings(
      reader({
        enable: false, select: ['FG1', 'FG301'], ignore: ['FG4'], severity: { FG1: 'Error', FG4: 'hint' }, run: 'onSave',
        assumeCompiled: true, debounce: 0, 'confirm.enable': true, 'confirm.onSave': true, 'confirm.timeout': 12,
        'confirm.interpreter': ' /opt/py/bin/python ',
      }),
      true,
    );
    assert.deepStrictEqual(s, {
      enable: false,
      select: ['FG1', 'FG301'],
      ignore: ['FG4'],
      severity: { FG1: 'error', FG4: 'hint' },
      run: 'onSave',
      assumeCompiled: true,
      debounce: 0,
      confirm: { enable: true, onSave: true, timeout: 12, interpreter: '/opt/py/bin/python' },
    });
  });

  it('turns confirmation off in an untrusted workspace', () => {
    const s = serverSettings(reader({ 'confirm.enable': true, 'confirm.onSave': true, 'confirm.interpreter': '/x/python' }), false);
    assert.deepStrictEqual(s.confirm, { enable: false, onSave: false, timeout: 60, interpreter: null });
  });

  it('replaces malformed values with defaults', () => {
    const s = serverSettings(
      reader({ select: 'FG1', ignore: [1, '', 'FG2'], severity: { FG1: 'fatal', '': 'error', FG3: 'Warning' }, run: 'always', debounce: -5, 'confirm.timeout': 'soon' }),
      true,
    );
    assert.deepStrictEqual([s.select, s.ignore, s.severity, s.run, s.debounce, s.confirm.timeout], [[], ['FG2'], { FG3: 'warning' }, 'onType', 0, 60]);
  });
});

describe('clientSettings', () => {
  it('reads interpreter as a list, trace and notifications', () => {
    assert.deepStrictEqual(clientSettings(reader({ interpreter: ['/v/bin/python', '-X', 'utf8'], 'trace.server': 'verbose', showNotifications: 'always' })), {
      interpreter: ['/v/bin/python', '-X', 'utf8'],
      trace: 'verbose',
      showNotifications: 'always',
    });
  });

  it('accepts a single string interpreter and falls back on bad values', () => {
    assert.deepStrictEqual(clientSettings(reader({ interpreter: '/v/bin/python', 'trace.server': 'loud', showNotifications: 7 })), {
      interpreter: ['/v/bin/python'],
      trace: 'off',
      showNotifications: 'onError',
    });
  });

  it('restarts the server for the interpreter and the trace level only', () => {
    assert.ok(RESTART_KEYS.includes('fullgraph.interpreter'));
    assert.ok(!RESTART_KEYS.some((k) => k.startsWith('fullgraph.confirm') || k === 'fullgraph.select'));
  });
});

describe('shouldNotify', () => {
  const table: Array<[Parameters<typeof shouldNotify>[0], boolean[]]> = [
    ['off', [false, false, false]],
    ['onError', [true, false, false]],
    ['onWarning', [true, true, false]],
    ['always', [true, true, true]],
  ];
  for (const [setting, expected] of table) {
    it(`${setting} shows ${expected}`, () => {
      assert.deepStrictEqual((['error', 'warning', 'info'] as const).map((level) => shouldNotify(setting, level)), expected);
    });
  }
});
