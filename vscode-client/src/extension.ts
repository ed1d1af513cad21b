/** Entry point: the server's lifecycle, the commands, the status bar item. */
import * as vscode from 'vscode';
import { DidChangeConfigurationNotification, ExecuteCommandRequest, LanguageClient, State } from 'vscode-languageclient/node';
import { createClient, probe, SECTION, settingsFor, UNTRUSTED_MESSAGE } from './client';
import { INSTALL, installChoices, installCommand, Launch, PICK_INTERPRETER, resolveInterpreter } from './launch';
import { quickInterpreter } from './discovery';
import { activeInterpreter, onInterpreterChange, pickWithPythonExtension } from './python';
import { clientSettings, RESTART_KEYS, shouldNotify } from './settings';
import { startOrExplain } from './startup';
import { countBreaks, ServerState, statusView } from './status';

/** Server command ids (distinct from the client's palette commands). */
const SERVER_FIX_ALL = 'fullgraph.applyFixAll';
const SERVER_CONFIRM = 'fullgraph.confirm';
const RESTART_DELAY_MS = 1000;
/** globalState key: the Python extension's interpreter at the last start. */
const PYTHON_ENVIRONMENT = 'fullgraph.pythonEnvironment';
/** What the server answers when fix-all has nothing to change: not worth a notification (as ruff). */
const NOTHING_TO_FIX = 'nothing to fix';

/** A notification the extension showed (kept for the end-to-end tests). */
export interface Shown {
  level: 'error' | 'warning' | 'info';
  message: string;
  actions: string[];
}

/** How long the last successful start took, from the start request (milliseconds). */
export interface StartTiming {
  /** To the running server (spawned, imports done, `initialize` answered). */
  ms: number;
  /** Of which choosing the interpreter (the setting, what the last start learned, or discovery). */
  interpreterMs: number;
}

/** What the server's commands answer. */
interface CommandAnswer {
  ok?: boolean;
  applied?: boolean;
  reason?: string | null;
}

class Controller implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private current: ServerState = 'stopped';
  private restartTimer: NodeJS.Timeout | undefined;
  private queue: Promise<void> = Promise.resolve();
  readonly shown: Shown[] = [];
  lastStart: StartTiming | undefined;
  /** Import checks run so far (only after failed starts). */
  importChecks = 0;

  constructor(
    readonly log: vscode.LogOutputChannel,
    private readonly status: vscode.StatusBarItem,
    private readonly memory: vscode.Memento,
  ) {}

  private folder(): vscode.Uri | undefined {
    return vscode.workspace.workspaceFolders?.[0]?.uri;
  }

  /** Runs lifecycle steps one after another. */
  private serial(step: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(step, step);
    return this.queue;
  }

  get state(): ServerState {
    return this.current;
  }

  private setState(state: ServerState): void {
    this.current = state;
    this.updateStatus();
  }

  updateStatus(): void {
    const doc = vscode.window.activeTextEditor?.document;
    if (!doc || doc.languageId !== 'python') {
      this.status.hide();
      return;
    }
    const enabled = settingsFor(doc.uri).enable !== false;
    const ours = vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === 'fullgraph');
    const { breaks, fixable } = countBreaks(ours.map((d) => {
      const finding = (d as { data?: { finding?: { fix?: string | null; fix_blocked?: string | null } } }).data?.finding;
      return { code: String(typeof d.code === 'object' ? d.code.value : d.code), fixable: !!finding?.fix && !finding.fix_blocked };
    }));
    const view = statusView(enabled ? this.state : 'disabled', this.state === 'running' ? breaks : undefined, fixable);
    this.status.text = view.text;
    this.status.tooltip = view.tooltip;
    this.status.show();
  }

  private notifyError(message: string, ...actions: string[]): Thenable<string | undefined> {
    this.log.error(message);
    const level = clientSettings(vscode.workspace.getConfiguration(SECTION)).showNotifications;
    if (!shouldNotify(level, 'error')) return Promise.resolve(undefined);
    this.shown.push({ level: 'error', message, actions });
    return vscode.window.showErrorMessage(message, ...actions);
  }

  private notify(level: 'warning' | 'info', message: string): void {
    this.shown.push({ level, message, actions: [] });
    void (level === 'warning' ? vscode.window.showWarningMessage(message) : vscode.window.showInformationMessage(message));
  }

  /** The interpreter to start with, and whether discovery later finds another (then a restart is scheduled). */
  private async launch(): Promise<{ launch: Launch; changed: Promise<boolean> }> {
    const folder = this.folder();
    const own = clientSettings(vscode.workspace.getConfiguration(SECTION, folder)).interpreter;
    if (own.length) return { launch: resolveInterpreter(own, undefined, folder?.fsPath), changed: Promise.resolve(false) };
    // The Python extension may take seconds to activate: start with what the last start learned.
    const quick = await quickInterpreter(this.memory.get<string[]>(PYTHON_ENVIRONMENT), () => activeInterpreter(folder),
      (argv) => this.memory.update(PYTHON_ENVIRONMENT, argv));
    void quick.changed.then((changed) => {
      if (!changed) return;
      this.log.info("The Python extension's interpreter differs from the last start's: restarting");
      this.scheduleRestart();
    });
    return { launch: resolveInterpreter(own, quick.argv, folder?.fsPath), changed: quick.changed };
  }

  private checkImports(launch: Launch): ReturnType<typeof probe> {
    this.importChecks++;
    return probe(launch);
  }

  start(): Promise<void> {
    return this.serial(async () => {
      if (this.client) return;
      this.setState('starting');
      const started = Date.now();
      const { launch, changed } = await this.launch();
      const interpreterMs = Date.now() - started;
      this.log.info(`Interpreter (${launch.origin}): ${[launch.command, ...launch.args].join(' ')}`);
      const client = createClient(launch, this.log);
      client.onDidChangeState((e) => {
        if (this.client === client) this.setState(e.newState === State.Running ? 'running' : e.newState === State.Starting ? 'starting' : 'stopped');
      });
      this.client = client;
      const outcome = await startOrExplain(() => client.start(), () => this.checkImports(launch));
      if (outcome.ok) {
        this.lastStart = { ms: Date.now() - started, interpreterMs };
        this.log.info(`Server running ${this.lastStart.ms} ms after the start request (${interpreterMs} ms of it choosing the interpreter)`);
        return;
      }
      this.client = undefined;
      await client.dispose().catch(() => undefined);  // a failed start leaves nothing running to stop
      this.setState('failed');
      // Explained unless the Python extension then reports another interpreter (the scheduled restart
      // uses it) or another start has begun meanwhile.
      void changed.then((differs) => {
        if (differs || this.client) return;
        if (!outcome.probe.ok) this.failProbe(launch, outcome.probe);
        else void this.notifyError(`fullgraph: the language server failed to start: ${outcome.error}`, 'Show output').then((pick) => pick && this.log.show());
      });
    });
  }

  private failProbe(launch: Launch, checked: { missingInterpreter: boolean; detail: string }): void {
    this.setState('failed');
    this.log.error(checked.detail);
    void this.explainProbeFailure(launch, checked.missingInterpreter);
  }

  private async explainProbeFailure(launch: Launch, missingInterpreter: boolean): Promise<void> {
    const interpreter = [launch.command, ...launch.args].join(' ');
    let pick: string | undefined;
    if (!missingInterpreter) this.log.info(`Install fullgraph with: ${installCommand(launch)}`);
    if (missingInterpreter) {
      pick = await this.notifyError(`fullgraph: Python interpreter "${interpreter}" not found.`, PICK_INTERPRETER);
    } else if (launch.origin === 'default') {
      pick = await this.notifyError(`fullgraph is not installed in ${interpreter}. Select your project's interpreter to install it there.`, ...installChoices(launch));
    } else {
      pick = await this.notifyError(`fullgraph is not installed in ${interpreter}.`, ...installChoices(launch), 'Show output');
    }
    if (pick === INSTALL) {
      const terminal = vscode.window.createTerminal('fullgraph install');
      terminal.show();
      terminal.sendText(installCommand(launch));  // the server restarts once the interpreter changes or on "Restart server"
    } else if (pick === PICK_INTERPRETER) {
      await this.pickInterpreter(launch);
    } else if (pick) {
      this.log.show();
    }
  }

  /** The Python extension's picker (unless fullgraph.interpreter is set), else a file picker into the setting. */
  private async pickInterpreter(launch: Launch): Promise<void> {
    if (launch.origin !== 'setting' && (await pickWithPythonExtension())) return;  // its change event restarts us
    const picked = await vscode.window.showOpenDialog({ canSelectMany: false, openLabel: 'Use this interpreter', title: 'fullgraph: select a Python interpreter' });
    if (!picked?.length) return;
    const target = this.folder() ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
    await vscode.workspace.getConfiguration(SECTION).update('interpreter', [picked[0].fsPath], target);  // restarts the server
  }

  stop(): Promise<void> {
    return this.serial(async () => {
      const client = this.client;
      this.client = undefined;
      if (client) {
        try {
          await client.stop(5000);
        } catch (err) {
          this.log.warn(`Stopping the server: ${err}`);
        }
        await client.dispose();
      }
      this.setState('stopped');
    });
  }

  async restart(): Promise<void> {
    clearTimeout(this.restartTimer);
    this.log.info('Restarting the language server');
    await this.stop();
    await this.start();
  }

  /** Restarts once after a burst of changes. */
  scheduleRestart(): void {
    clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => void this.restart(), RESTART_DELAY_MS);
  }

  /** Sends the current settings to the running server. */
  async reconfigure(): Promise<void> {
    if (this.client?.state !== State.Running) return;
    await this.client.sendNotification(DidChangeConfigurationNotification.type, { settings: { [SECTION]: settingsFor(this.folder()) } });
    this.updateStatus();
  }

  /** Runs a server command on the active Python document (arguments: its uri, then `extra`). */
  async serverCommand(command: string, extra: (doc: vscode.TextDocument) => unknown[]): Promise<unknown> {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.document.languageId !== 'python') {
      this.notify('info', 'fullgraph: open a Python file first.');
      return undefined;
    }
    if (this.client?.state !== State.Running) {
      void this.notifyError('fullgraph: the language server is not running.', 'Show output').then((pick) => pick && this.log.show());
      return undefined;
    }
    const doc = editor.document;
    const uri = this.client.code2ProtocolConverter.asUri(doc.uri);
    try {
      return await this.client.sendRequest(ExecuteCommandRequest.type, { command, arguments: [uri, ...extra(doc)] });
    } catch (err) {
      void this.notifyError(`fullgraph: ${command} failed: ${err}`);
      return undefined;
    }
  }

  /** "Fix all graph breaks in file": the server applies one edit to this version of the file. */
  async fixAll(): Promise<unknown> {
    const answer = (await this.serverCommand(SERVER_FIX_ALL, (doc) => [doc.version])) as CommandAnswer | undefined;
    if (answer && answer.applied === false && answer.reason && answer.reason !== NOTHING_TO_FIX) this.notify('info', `fullgraph: ${answer.reason}`);
    return answer;
  }

  /** "Confirm graph breaks with Dynamo" on the saved file (never in an untrusted workspace). */
  async confirm(): Promise<unknown> {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage(UNTRUSTED_MESSAGE);
      return undefined;
    }
    // Arguments: uri, target ("" = the file's default sample inputs).
    const answer = (await this.serverCommand(SERVER_CONFIRM, () => [''])) as CommandAnswer | undefined;
    if (answer && answer.ok === false && answer.reason) this.notify('warning', `fullgraph: ${answer.reason}`);
    return answer;
  }

  dispose(): void {
    clearTimeout(this.restartTimer);
    void this.stop();
  }
}

let controller: Controller | undefined;

/** What the extension exports (used by the end-to-end tests). */
export interface FullgraphApi {
  serverState(): ServerState;
  statusText(): string;
  shownMessages(): Shown[];
  lastStart(): StartTiming | undefined;
  importChecks(): number;
  /** Milliseconds from the extension host's start to this extension's activation. */
  activatedAfterHostMs: number;
}

export function activate(context: vscode.ExtensionContext): FullgraphApi {
  const activatedAfterHostMs = Math.round(process.uptime() * 1000);
  const log = vscode.window.createOutputChannel('fullgraph', { log: true });
  log.info(`Activated ${activatedAfterHostMs} ms after the extension host started`);
  const status = vscode.window.createStatusBarItem('fullgraph.status', vscode.StatusBarAlignment.Right, 100);
  status.name = 'fullgraph';
  status.command = 'fullgraph.showOutput';
  const ctl = new Controller(log, status, context.globalState);
  controller = ctl;
  context.subscriptions.push(
    log,
    status,
    ctl,
    vscode.commands.registerCommand('fullgraph.fixAll', () => ctl.fixAll()),
    vscode.commands.registerCommand('fullgraph.runConfirm', () => ctl.confirm()),
    vscode.commands.registerCommand('fullgraph.restart', () => ctl.restart()),
    vscode.commands.registerCommand('fullgraph.showOutput', () => log.show()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (RESTART_KEYS.some((key) => e.affectsConfiguration(key))) ctl.scheduleRestart();
      else if (e.affectsConfiguration(SECTION)) void ctl.reconfigure();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => ctl.scheduleRestart()),
    vscode.window.onDidChangeActiveTextEditor(() => ctl.updateStatus()),
    vscode.languages.onDidChangeDiagnostics((e) => {
      const active = vscode.window.activeTextEditor?.document.uri.toString();
      if (e.uris.some((u) => u.toString() === active)) ctl.updateStatus();
    }),
  );
  void ctl.start();  // first: following the Python extension's changes may wait for it to activate
  void onInterpreterChange(() => {
    if (!clientSettings(vscode.workspace.getConfiguration(SECTION)).interpreter.length) ctl.scheduleRestart();
  }).then((pythonChange) => pythonChange && context.subscriptions.push(pythonChange));
  return {
    serverState: () => ctl.state,
    statusText: () => status.text,
    shownMessages: () => [...ctl.shown],
    lastStart: () => ctl.lastStart,
    importChecks: () => ctl.importChecks,
    activatedAfterHostMs,
  };
}

export async function deactivate(): Promise<void> {
  await controller?.stop();
  controller = undefined;
}
