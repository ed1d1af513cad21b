import * as assert from 'assert';
import { clientSettings, ConfigReader, explicit, Inspected, RESTART_KEYS, serverSettings, shouldNotify } from '../src/settings';

/**
 * A ConfigReader over dotted keys, like `vscode.workspace.getConfiguration('fullgraph')`:
 * `user` values are user settings, `folder` values override them, `defaults` only show in get().
 */
function reader(user: Record<string, unknown>, folder: Record<string, unknown> = {}, defaults: Record<string, unknown> = {}): ConfigReader {
  return {
    get: <T>(key: string) => (folder[key] ?? user[key] ?? defaults[key]) as T | undefined,
    inspect: <T>(key: string) => ({ globalValue: user[key], workspaceFolderValue: folder[key] }) as Inspected<T>,
  };
}

const UNSET = {
  enable: null,
  select: null,
  ignore: null,
  severity: null,
  run: null,
  assumeCompiled: null,
  unsafeFixes: null,
  debounce: null,
  confirm: { enable: null, onSave: null, timeout: null, interpreter: null },
};

describe('serverSettings', () => {
  it('sends nothing the user did not set, so pyproject.toml applies', () => {
    const defaults = { enable: true, select: [], run: 'onType', assumeCompiled: 'modules', debounce: 200, 'confirm.enable': false };
    assert.deepStrictEqual(serverSettings(reader({}, {}, defaults), true), UNSET);
  });

  it('passes every mirrored setting through', () => {
    const s = serverSettings(
      reader({
        enable: false, select: ['FG1', ' FG301'], ignore: ['FG4'], severity: { FG1: 'Error', FG4: 'hint' }, run: 'onSave',
        assumeCompiled: 'all', unsafeFixes: true, debounce: 0, 'confirm.enable': true, 'confirm.onSave': true, 'confirm.timeout': 12,
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
      assumeCompiled: 'all',
      unsafeFixes: true,
      debounce: 0,
      confirm: { enable: true, onSave: true, timeout: 12, interpreter: '/opt/py/bin/python' },
    });
  });

  it('lets folder settings override user settings', () => {
    const s = serverSettings(reader({ select: ['FG1'], run: 'onSave' }, { select: ['FG3'] }), true);
    assert.deepStrictEqual([s.select, s.run], [['FG3'], 'onSave']);
  });

  it('turns confirmation off in an untrusted workspace', () => {
    const s = serverSettings(reader({ 'confirm.enable': true, 'confirm.onSave': true, 'confirm.interpreter': '/x/python' }), false);
    assert.deepStrictEqual(s.confirm, { enable: false, onSave: false, timeout: null, interpreter: null });
    assert.deepStrictEqual(serverSettings(reader({}), false).confirm, { enable: false, onSave: false, timeout: null, interpreter: null });
  });

  it('drops malformed values', () => {
    const s = serverSettings(
      reader({ select: 'FG1', ignore: [1, '', 'FG2'], severity: { FG1: 'fatal', '': 'error', FG3: 'Warning' }, run: 'always', assumeCompiled: true, debounce: -5, 'confirm.timeout': 'soon', enable: 'yes' }),
      true,
    );
    assert.deepStrictEqual([s.select, s.ignore, s.severity, s.run, s.assumeCompiled, s.debounce, s.confirm.timeout, s.enable], [null, ['FG2'], { FG3: 'warning' }, null, null, 0, null, null]);
  });
});

describe('explicit', () => {
  it('prefers folder over workspace over user values', () => {
    const cfg: ConfigReader = {
      get: () => undefined,
      inspect: <T>() => ({ globalValue: 'user', workspaceValue: 'workspace', workspaceFolderValue: undefined }) as Inspected<T>,
    };
    assert.strictEqual(explicit(cfg, 'run'), 'workspace');
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
    assert.deepStrictEqual(RESTART_KEYS, ['fullgraph.interpreter', 'fullgraph.trace.server']);
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
