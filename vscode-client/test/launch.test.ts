import * as assert from 'assert';
import * as os from 'os';
import * as path from 'path';
import { expandVariables, installChoices, installCommand, probeCommand, resolveInterpreter, serverCommand } from '../src/launch';

describe('resolveInterpreter', () => {
  it('prefers the fullgraph.interpreter setting', () => {
    assert.deepStrictEqual(resolveInterpreter(['/venv/bin/python', '-X', 'utf8'], ['/conda/bin/python']), {
      command: '/venv/bin/python',
      args: ['-X', 'utf8'],
      origin: 'setting',
    });
  });

  it('uses the Python extension environment next', () => {
    assert.deepStrictEqual(resolveInterpreter([], ['/conda/bin/python']), { command: '/conda/bin/python', args: [], origin: 'python-extension' });
  });

  it('falls back to python3 without the Python extension', () => {
    assert.deepStrictEqual(resolveInterpreter([], undefined), { command: 'python3', args: [], origin: 'default' });
    assert.deepStrictEqual(resolveInterpreter([], ['  ']), { command: 'python3', args: [], origin: 'default' });
  });

  it('expands ${workspaceFolder} in the setting', () => {
    assert.strictEqual(resolveInterpreter(['${workspaceFolder}/.venv/bin/python'], undefined, '/proj').command, '/proj/.venv/bin/python');
  });
});

describe('expandVariables', () => {
  it('expands the user home, env vars and ~', () => {
    assert.strictEqual(expandVariables('${userHome}/py', undefined), path.join(os.homedir(), 'py'));
    assert.strictEqual(expandVariables('${env:FG_TEST_ROOT}/bin/python', undefined, { FG_TEST_ROOT: '/r' }), '/r/bin/python');
    assert.strictEqual(expandVariables('~/venv/bin/python', undefined), path.join(os.homedir(), 'venv/bin/python'));
  });

  it('leaves ${workspaceFolder} alone without a folder and ~user untouched', () => {
    assert.strictEqual(expandVariables('${workspaceFolder}/py', undefined), '${workspaceFolder}/py');
    assert.strictEqual(expandVariables('~bob/py', '/w'), '~bob/py');
  });
});

describe('server and probe argv', () => {
  const launch = { command: '/v/bin/python', args: ['-X', 'utf8'], origin: 'setting' as const };

  it('starts `-m fullgraph serve` after the interpreter arguments, without --stdio', () => {
    assert.deepStrictEqual(serverCommand(launch), { command: '/v/bin/python', args: ['-X', 'utf8', '-m', 'fullgraph', 'serve'] });
  });

  it('probes by importing fullgraph', () => {
    assert.deepStrictEqual(probeCommand(launch), { command: '/v/bin/python', args: ['-X', 'utf8', '-c', 'import fullgraph, lsprotocol, pygls'] });
  });
});

describe('installCommand', () => {
  it('is a pip install into the same interpreter', () => {
    assert.strictEqual(installCommand({ command: '/v/bin/python', args: [], origin: 'default' }, 'linux'), '/v/bin/python -m pip install fullgraph');
  });

  it('quotes paths with spaces for POSIX shells and PowerShell', () => {
    assert.strictEqual(installCommand({ command: "/my env/it's/python", args: [], origin: 'setting' }, 'linux'), `'/my env/it'\\''s/python' -m pip install fullgraph`);
    assert.strictEqual(installCommand({ command: 'C:\\Program Files\\Python\\python.exe', args: [], origin: 'setting' }, 'win32'), '& "C:\\Program Files\\Python\\python.exe" -m pip install fullgraph');
  });
});

describe('installChoices', () => {
  it('asks for an interpreter first when none was chosen', () => {
    assert.deepStrictEqual(installChoices(resolveInterpreter([], undefined)), ['Select interpreter']);
  });

  it('installs into a chosen interpreter', () => {
    assert.deepStrictEqual(installChoices(resolveInterpreter(['/venv/bin/python'], undefined)), ['Install fullgraph', 'Select interpreter']);
    assert.deepStrictEqual(installChoices(resolveInterpreter([], ['/conda/bin/python'])), ['Install fullgraph', 'Select interpreter']);
  });
});
