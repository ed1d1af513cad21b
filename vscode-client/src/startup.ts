/** Starting the server with nothing in front of it (no `vscode` import). */
import type { Probe } from './launch';

/** A start that worked, or one that failed together with what the import check then found. */
export type StartOutcome = { ok: true } | { ok: false; error: unknown; probe: Probe };

/**
 * Starts the server right away: a server that answers `initialize` has imported fullgraph,
 * so no check runs before or beside it. Only a failed start runs `check`, to say why
 * (interpreter missing, fullgraph not installed, or neither: then the log has the server's error).
 */
export async function startOrExplain(start: () => Promise<void>, check: () => Promise<Probe>): Promise<StartOutcome> {
  try {
    await start();
    return { ok: true };
  } catch (error) {
    return { ok: false, error, probe: await check() };
  }
}
