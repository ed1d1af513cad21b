/**
 * One log, one timestamp per line: vscode-languageclient prefixes its lines with
 * `[Error - 9:34:38 PM]` and the server's stderr with `WARNING name:`, while VS Code's log
 * output channel stamps and levels every line itself. `route` strips those prefixes and
 * returns the level to log at.
 */
export type Level = 'error' | 'warn' | 'info' | 'debug';

const CLIENT_PREFIX = /^\[(Error|Warn|Info|Debug|Trace)\s+-\s+[^\]]*\]\s?/;
const SERVER_PREFIX = /^(CRITICAL|ERROR|WARNING|INFO|DEBUG) /;
const LEVELS: Record<string, Level> = {
  Error: 'error', Warn: 'warn', Info: 'info', Debug: 'debug', Trace: 'info',
  CRITICAL: 'error', ERROR: 'error', WARNING: 'warn', INFO: 'info', DEBUG: 'debug',
};
/** A normal stop (and so every restart) ends with this; vscode-languageclient calls it an error. */
const NORMAL_EXIT = 'Server process exited with code 0.';

export function route(line: string, fallback: Level = 'info'): { level: Level; text: string } {
  const client = CLIENT_PREFIX.exec(line);
  if (client) {
    const text = line.slice(client[0].length);
    return { level: text === NORMAL_EXIT ? 'info' : LEVELS[client[1]], text };
  }
  const server = SERVER_PREFIX.exec(line);
  if (server) return { level: LEVELS[server[1]], text: line.slice(server[0].length) };
  return { level: fallback, text: line };
}

/** The part of vscode.LogOutputChannel used here. */
export interface LevelLog {
  error(text: string): void;
  warn(text: string): void;
  info(text: string): void;
  debug(text: string): void;
}

/** Splits appended text into lines (keeping an unfinished one for later) and logs each once. */
export class LineRouter {
  private pending = '';
  private last: Level = 'info';

  constructor(private readonly log: LevelLog) {}

  append(text: string): void {
    const lines = (this.pending + text).split(/\r?\n/);
    this.pending = lines.pop() ?? '';
    for (const line of lines) this.appendLine(line);
  }

  appendLine(line: string): void {
    if (!line.trim()) return;
    const { level, text } = route(line, this.last);  // a traceback's lines keep the level of its first
    this.last = level;
    this.log[level](text);
  }
}
