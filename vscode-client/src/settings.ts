/** Reading the `fullgraph.*` settings into what the server and the client need (no `vscode` import). */

/** The part of `vscode.WorkspaceConfiguration` this module uses. */
export interface ConfigReader {
  get<T>(key: string): T | undefined;
}

export type RunMode = 'onType' | 'onSave';
export type NotifyLevel = 'off' | 'onError' | 'onWarning' | 'always';

/** Settings in the shape the server reads (section `fullgraph`, see server/fullgraph/lsp/settings.py). */
export interface ServerSettings {
  enable: boolean;
  select: string[];
  ignore: string[];
  severity: Record<string, string>;
  run: RunMode;
  assumeCompiled: boolean;
  debounce: number;
  confirm: { enable: boolean; onSave: boolean; timeout: number; interpreter: string | null };
}

/** Settings only the client uses. */
export interface ClientSettings {
  interpreter: string[];
  trace: 'off' | 'messages' | 'verbose';
  showNotifications: NotifyLevel;
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : [];

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

function number(value: unknown, fallback: number, min: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.max(min, value) : fallback;
}

function severityMap(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const levels = ['error', 'warning', 'information', 'hint'];
  const out: Record<string, string> = {};
  for (const [prefix, level] of Object.entries(value as Record<string, unknown>)) {
    const lower = typeof level === 'string' ? level.toLowerCase() : '';
    if (prefix.trim() && levels.includes(lower)) out[prefix.trim()] = lower;
  }
  return out;
}

/**
 * The server settings for one scope. In an untrusted workspace confirmation (which runs
 * the user's code) is forced off whatever the settings say.
 */
export function serverSettings(cfg: ConfigReader, trusted: boolean): ServerSettings {
  const interpreter = cfg.get<string>('confirm.interpreter');
  return {
    enable: cfg.get<boolean>('enable') !== false,
    select: strings(cfg.get('select')),
    ignore: strings(cfg.get('ignore')),
    severity: severityMap(cfg.get('severity')),
    run: oneOf(cfg.get('run'), ['onType', 'onSave'] as const, 'onType'),
    assumeCompiled: cfg.get<boolean>('assumeCompiled') === true,
    debounce: number(cfg.get('debounce'), 200, 0),
    confirm: {
      enable: trusted && cfg.get<boolean>('confirm.enable') === true,
      onSave: trusted && cfg.get<boolean>('confirm.onSave') === true,
      timeout: number(cfg.get('confirm.timeout'), 60, 1),
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
