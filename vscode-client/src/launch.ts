/** Choosing the interpreter and building the server's command line (no `vscode` import). */
import * as os from 'os';
import * as path from 'path';

export interface Launch {
  command: string;
  args: string[];
  /** Where the interpreter came from, for the log. */
  origin: 'setting' | 'python-extension' | 'default';
}

export const DEFAULT_INTERPRETER = 'python3';
export const SERVER_ARGS = ['-m', 'fullgraph', 'serve'];
/**
 * Exits 0 exactly when fullgraph and the language-server packages it needs can be imported
 * (cheap: package roots only). Run only to explain a failed server start.
 */
export const PROBE_ARGS = ['-c', 'import fullgraph, lsprotocol, pygls'];

/** Expands `${workspaceFolder}`, `${userHome}`, `${env:NAME}` and a leading `~`. */
export function expandVariables(value: string, workspaceFolder: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  let out = value.replace(/\$\{(workspaceFolder|userHome|env:([A-Za-z_][A-Za-z0-9_]*))\}/g, (whole, name: string, envName?: string) => {
    if (envName) return env[envName] ?? '';
    if (name === 'userHome') return os.homedir();
    return workspaceFolder ?? whole;
  });
  if (out === '~' || out.startsWith('~/')) out = path.join(os.homedir(), out.slice(1));
  return out;
}

/**
 * The interpreter argv: the `fullgraph.interpreter` setting, else the Python extension's
 * active environment, else `python3`.
 */
export function resolveInterpreter(setting: string[], fromPythonExtension: string[] | undefined, workspaceFolder?: string): Launch {
  const pick = (argv: string[], origin: Launch['origin']): Launch => {
    const [command, ...rest] = argv.map((a) => expandVariables(a, workspaceFolder));
    return { command, args: rest, origin };
  };
  if (setting.length) return pick(setting, 'setting');
  const fromExt = (fromPythonExtension ?? []).filter((a) => a.trim() !== '');
  if (fromExt.length) return pick(fromExt, 'python-extension');
  return pick([DEFAULT_INTERPRETER], 'default');
}

/** argv that starts the language server with the chosen interpreter. */
export function serverCommand(launch: Launch): { command: string; args: string[] } {
  return { command: launch.command, args: [...launch.args, ...SERVER_ARGS] };
}

/** Result of checking that fullgraph imports in the interpreter. */
export type Probe = { ok: true } | { ok: false; missingInterpreter: boolean; detail: string };

/** argv that checks that fullgraph is importable in the chosen interpreter. */
export function probeCommand(launch: Launch): { command: string; args: string[] } {
  return { command: launch.command, args: [...launch.args, ...PROBE_ARGS] };
}

/** Quotes one argument for a POSIX shell or PowerShell/cmd when it needs it. */
export function shellQuote(arg: string, platform: NodeJS.Platform = process.platform): string {
  if (/^[\w@%+=:,./\\-]+$/.test(arg)) return arg;
  if (platform === 'win32') return `"${arg.replace(/"/g, '""')}"`;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** The command a user runs to install fullgraph into the chosen interpreter. */
export function installCommand(launch: Launch, platform: NodeJS.Platform = process.platform): string {
  const prefix = platform === 'win32' && /\s/.test(launch.command) ? '& ' : '';
  return prefix + [launch.command, ...launch.args, '-m', 'pip', 'install', 'fullgraph'].map((a) => shellQuote(a, platform)).join(' ');
}

/** What the "fullgraph is not installed" notification offers. */
export const PICK_INTERPRETER = 'Select interpreter';
export const INSTALL = 'Install fullgraph';

/**
 * The choices when fullgraph cannot be imported: with no interpreter chosen (the `python3`
 * fallback, often a system Python that refuses pip installs) pick one first; with a chosen
 * one, install into it (or pick another).
 */
export function installChoices(launch: Launch): string[] {
  return launch.origin === 'default' ? [PICK_INTERPRETER] : [INSTALL, PICK_INTERPRETER];
}
