/** Reading the `fullgraph.*` settings into what the server and the client need (no `vscode` import). */

/** What `vscode.WorkspaceConfiguration.inspect` reports for one key (the parts used here). */
export interface Inspected<T> {
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

/** The part of `vscode.WorkspaceConfiguration` this module uses. */
export interface ConfigReader {
  get<T>(key: string): T | undefined;
  inspect<T>(key: string): Inspected<T> | undefined;
}

export type RunMode = 'onType' | 'onSave';
export type NotifyLevel = 'off' | 'onError' | 'onWarning' | 'always';
export const ASSUME_COMPILED = ['modules', 'decorated', 'api', 'all'] as const;

/**
 * Settings in the shape the server reads (section `fullgraph`, see
 * server/fullgraph/lsp/settings.py). `null` means "not set in the editor": the server then
 * uses `[tool.fullgraph]` from pyproject.toml, else its own default.
 */
export interface ServerSettings {
  enable: boolean | null;
  select: string[] | null;
  ignore: string[] | null;
  severity: Record<string, string> | null;
  run: RunMode | null;
  assumeCompiled: (typeof ASSUME_COMPILED)[number] | null;
  unsafeFixes: boolean | null;
  debounce: number | null;
  confirm: { enable: boolean | null; onSave: boolean | null; timeout: number | null; interpreter: string | null };
}

/** Settings only the client uses. */
export interface ClientSettings {
  interpreter: string[];
  trace: 'off' | 'messages' | 'verbose';
  showNotifications: NotifyLevel;
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : [];

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T;
function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: null): T | null;
function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T | null): T | null {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

const bool = (value: unknown): boolean | null => (typeof value === 'boolean' ? value : null);

function number(value: unknown, min: number): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? Math.max(min, value) : null;
}

function codes(value: unknown): string[] | null {
  return Array.isArray(value) ? strings(value).map((c) => c.trim()) : null;
}

function severityMap(value: unknown): Record<string, string> | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const levels = ['error', 'warning', 'information', 'hint'];
  const out: Record<string, string> = {};
  for (const [prefix, level] of Object.entries(value as Record<string, unknown>)) {
    const lower = typeof level === 'string' ? level.toLowerCase() : '';
    if (prefix.trim() && levels.includes(lower)) out[prefix.trim()] = lower;
  }
  return out;
}

/** The value the user set (folder over workspace over user settings); undefined when only the default applies. */
export function explicit<T>(cfg: ConfigReader, key: string): T | undefined {
  const seen = cfg.inspect<T>(key);
  return seen?.workspaceFolderValue ?? seen?.workspaceValue ?? seen?.globalValue;
}

/**
 * The server settings for one scope: only what the user set, so pyproject.toml still
 * applies. In an untrusted workspace confirmation (which runs the user's code) is forced off.
 */
export function serverSettings(cfg: ConfigReader, trusted: boolean): ServerSettings {
  const set = (key: string): unknown => explicit(cfg, key);
  const interpreter = set('confirm.interpreter');
  return {
    enable: bool(set('enable')),
    select: codes(set('select')),
    ignore: codes(set('ignore')),
    severity: severityMap(set('severity')),
    run: oneOf(set('run'), ['onType', 'onSave'] as const, null),
    assumeCompiled: oneOf(set('assumeCompiled'), ASSUME_COMPILED, null),
    unsafeFixes: bool(set('unsafeFixes')),
    debounce: number(set('debounce'), 0),
    confirm: {
      enable: trusted ? bool(set('confirm.enable')) : false,
      onSave: trusted ? bool(set('confirm.onSave')) : false,
      timeout: number(set('confirm.timeout'), 1),
      interpreter: trusted && typeof interpreter === 'string' && interpreter.trim() ? interpreter.trim() : null,
    },
  };
}

/** The client-only settings. */
export function clientSettings(cfg: ConfigReader): ClientSettings {
  const raw = cfg.get<unknown>('interpreter');
  return {
    interpreter: typeof raw === 'string' ? strings([raw]) : strings(raw),
    trace: oneOf(cfg.get('trace.server'), ['off', 'messages', 'verbose'] as const, 'off'),
    showNotifications: oneOf(cfg.get('showNotifications'), ['off', 'onError', 'onWarning', 'always'] as const, 'onError'),
  };
}

/** Settings whose change needs a new server process (the rest are sent to the running one). */
export const RESTART_KEYS = ['fullgraph.interpreter', 'fullgraph.trace.server'];

/** Whether a notification of `level` is shown under the `showNotifications` setting. */
export function shouldNotify(setting: NotifyLevel, level: 'error' | 'warning' | 'info'): boolean {
  switch (setting) {
    case 'always':
      return true;
    case 'onWarning':
      return level !== 'info';
    case 'onError':
      return level === 'error';
    default:
      return false;
  }
}
