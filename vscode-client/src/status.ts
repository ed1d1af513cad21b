/** What the status bar item says (no `vscode` import). */

export type ServerState = 'starting' | 'running' | 'stopped' | 'failed' | 'disabled';

export interface StatusView {
  text: string;
  tooltip: string;
}

/** Codes that are not graph breaks: syntax errors and Dynamo recompilation notes. */
export const NOT_BREAKS = ['FG000', 'FG901'];

/** The part of a fullgraph diagnostic the counts read. */
export interface CountedDiagnostic {
  code: string;
  fixable: boolean;
}

/** Likely graph breaks and how many of them have a safe fix, from the published diagnostics. */
export function countBreaks(diagnostics: CountedDiagnostic[]): { breaks: number; fixable: number } {
  const breaks = diagnostics.filter((d) => !NOT_BREAKS.includes(d.code));
  return { breaks: breaks.length, fixable: breaks.filter((d) => d.fixable).length };
}

/** Status bar text for the server state and the count of likely graph breaks in the active file. */
export function statusView(state: ServerState, count: number | undefined, fixable = 0): StatusView {
  switch (state) {
    case 'starting':
      return { text: '$(sync~spin) fullgraph', tooltip: 'fullgraph: starting the language server' };
    case 'failed':
      return { text: '$(error) fullgraph', tooltip: 'fullgraph: the language server could not start (click for the log)' };
    case 'stopped':
      return { text: '$(debug-stop) fullgraph', tooltip: 'fullgraph: the language server is stopped (click for the log)' };
    case 'disabled':
      return { text: '$(circle-slash) fullgraph', tooltip: 'fullgraph is disabled (fullgraph.enable)' };
    default:
      break;
  }
  if (count === undefined) return { text: '$(check) fullgraph', tooltip: 'fullgraph: running' };
  const noun = count === 1 ? 'likely graph break' : 'likely graph breaks';
  return {
    text: count ? `$(warning) fullgraph: ${count}` : '$(check) fullgraph: 0',
    tooltip: `fullgraph: running · ${count} ${noun} in this file` + (fixable ? ` · ${fixable} fixable` : ''),
  };
}
