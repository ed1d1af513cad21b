/** Starting `<interpreter> -m fullgraph serve` as a vscode-languageclient LanguageClient. */
import { execFile } from 'child_process';
import * as vscode from 'vscode';
import { CloseAction, ErrorHandler, LanguageClient, LanguageClientOptions, ServerOptions, StaticFeature } from 'vscode-languageclient/node';
import { Launch, Probe, probeCommand, serverCommand } from './launch';
import { LineRouter } from './log';
import { serverSettings } from './settings';

export const SECTION = 'fullgraph';
/** Server commands that run the user's code (TorchDynamo on sample inputs). */
export const RUNS_USER_CODE = ['fullgraph.confirm', 'fullgraph.verifiedFixAll'];
export const UNTRUSTED_MESSAGE = 'fullgraph: confirmation runs your code, so it is off in an untrusted workspace.';

/** Python files on disk and unsaved, and Python cells of notebooks. */
export const DOCUMENT_SELECTOR = [
  { scheme: 'file', language: 'python' },
  { scheme: 'untitled', language: 'python' },
  { scheme: 'vscode-notebook-cell', language: 'python' },
  { notebook: '*', language: 'python' },
];

/** Runs the interpreter once with `import fullgraph` (after a failed start, to say why). */
export function probe(launch: Launch): Promise<Probe> {
  const { command, args } = probeCommand(launch);
  return new Promise((resolve) => {
    execFile(command, args, { timeout: 30000 }, (err, _stdout, stderr) => {
      if (!err) return resolve({ ok: true });
      const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
      resolve({ ok: false, missingInterpreter: missing, detail: (stderr || err.message).trim() });
    });
  });
}

/** Server settings for a scope, with confirmation off in untrusted workspaces. */
export function settingsFor(scope?: vscode.Uri): ReturnType<typeof serverSettings> {
  return serverSettings(vscode.workspace.getConfiguration(SECTION, scope), vscode.workspace.isTrusted);
}

/**
 * Advertises push diagnostics only. The server pushes always and also answers pulls from
 * clients that support them; VS Code would then show every finding twice (one collection per
 * model), and notebooks only support push anyway.
 */
const pushDiagnosticsOnly: StaticFeature = {
  fillClientCapabilities: (capabilities) => {
    delete capabilities.textDocument?.diagnostic;
  },
  initialize: () => undefined,
  getState: () => ({ kind: 'static' }),
  clear: () => undefined,
};

/**
 * vscode-languageclient logs every exit of the server process as an error, also the normal
 * `exit 0` after a stop or restart; that one is information. Until the first start succeeds,
 * its errors only go to the log: the controller explains a failed start (not installed,
 * interpreter missing) in one notification.
 */
class FullgraphLanguageClient extends LanguageClient {
  starting = true;

  /** Rejects when the server is not running afterwards (a server that exits while starting resolves `super.start()`). */
  override async start(): Promise<void> {
    await super.start();
    if (!this.isRunning()) throw new Error('the server process ended while starting');
    this.starting = false;
  }

  override error(message: string, data?: unknown, showNotification: boolean | 'force' = true): void {
    if (message === 'Server process exited with code 0.') this.info(message);
    else super.error(message, data, this.starting ? false : showNotification);
  }
}

/** A server that dies before its first start is not restarted (the controller says why); later, the default restarts. */
function errorHandler(client: () => FullgraphLanguageClient): ErrorHandler {
  let fallback: ErrorHandler | undefined;
  const defaults = () => (fallback ??= client().createDefaultErrorHandler());
  return {
    error: (error, message, count) => defaults().error(error, message, count),
    closed: () => (client().starting ? { action: CloseAction.DoNotRestart, handled: true } : defaults().closed()),
  };
}

/** An output channel that writes each line once, at its level, into the extension's log channel. */
function routedChannel(log: vscode.LogOutputChannel): vscode.OutputChannel {
  const router = new LineRouter(log);
  return {
    name: log.name,
    append: (text: string) => router.append(text),
    appendLine: (line: string) => router.appendLine(line),
    replace: (text: string) => router.append(text),
    clear: () => log.clear(),
    show: (...args: unknown[]) => log.show(...(args as [boolean?])),
    hide: () => log.hide(),
    dispose: () => undefined,  // the extension owns the log channel
  };
}

/** Builds (does not start) the client for a checked launch. */
export function createClient(launch: Launch, log: vscode.LogOutputChannel): LanguageClient {
  const { command, args } = serverCommand(launch);
  let client: FullgraphLanguageClient;  // assigned below, read by the error handler later
  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  // No `transport`: stdio without an extra `--stdio` argument.
  const serverOptions: ServerOptions = { command, args, options: { cwd, env: { ...process.env, PYTHONUNBUFFERED: '1' } } };
  const clientOptions: LanguageClientOptions = {
    documentSelector: DOCUMENT_SELECTOR,
    errorHandler: errorHandler(() => client),
    initializationFailedHandler: () => false,  // stop without a pop-up: the controller explains
    outputChannel: routedChannel(log),
    traceOutputChannel: routedChannel(log),
    initializationOptions: { settings: settingsFor(vscode.workspace.workspaceFolders?.[0]?.uri) },
    middleware: {
      // In an untrusted workspace no lens offers, and no command runs, the user's code.
      provideCodeLenses: async (document, token, next) => {
        const lenses = await next(document, token);
        return vscode.workspace.isTrusted ? lenses : lenses?.filter((lens) => !RUNS_USER_CODE.includes(lens.command?.command ?? ''));
      },
      executeCommand: (command, args, next) => {
        if (vscode.workspace.isTrusted || !RUNS_USER_CODE.includes(command)) return next(command, args);
        void vscode.window.showWarningMessage(UNTRUSTED_MESSAGE);
        return undefined;
      },
      workspace: {
        // Answer `workspace/configuration` for our section with the trust-adjusted settings.
        configuration: (params, token, next) =>
          params.items.every((item) => item.section === SECTION)
            ? params.items.map((item) => settingsFor(item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined))
            : next(params, token),
      },
    },
  };
  // The id `fullgraph` makes the client read `fullgraph.trace.server` itself.
  client = new FullgraphLanguageClient(SECTION, 'fullgraph', serverOptions, clientOptions);
  client.registerFeature(pushDiagnosticsOnly);
  return client;
}
