/** What the status bar item says (no `vscode` import). */

export type ServerState = 'starting' | 'running' | 'stopped' | 'failed' | 'disabled';

export interface StatusView {
  text: string;
  tooltip: string;
}

/** Status bar text for the server state and the count of fullgraph diagnostics in the active file. */
export function statusView(state: ServerState, count: number | undefined): StatusView {
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
    tooltip: `fullgraph: running · ${count} ${noun} in this file`,
  };
}
