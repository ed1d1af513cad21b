/** Interpreter discovery that does not hold up the start (no `vscode` import). */

type Argv = string[] | undefined;

const same = (a: Argv, b: Argv): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The Python extension's interpreter to start with: the one the last start learned, right
 * away, while `discover` (which may wait for the Python extension to activate) runs; or, the
 * first time, the discovered one. `changed` resolves true when discovery disagrees with what
 * was used, after `remember` stored the new one (the caller then restarts).
 */
export async function quickInterpreter(
  remembered: Argv,
  discover: () => Promise<Argv>,
  remember: (argv: Argv) => PromiseLike<void>,
): Promise<{ argv: Argv; changed: Promise<boolean> }> {
  let found: Argv;
  const discovering = discover().then(async (argv) => {
    found = argv;
    if (same(argv, remembered)) return false;
    await remember(argv);
    return true;
  });
  if (remembered === undefined) {
    await discovering;
    return { argv: found, changed: Promise.resolve(false) };
  }
  return { argv: remembered, changed: discovering };
}
