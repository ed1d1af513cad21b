/** The optional Python extension: its active interpreter, if it is installed. */
import * as vscode from 'vscode';

interface EnvironmentPath {
  path: string;
}
/** The part of ms-python.python's API used here (`environments`, 2023+). */
interface PythonApi {
  environments?: {
    getActiveEnvironmentPath(resource?: vscode.Uri): EnvironmentPath;
    resolveEnvironment(env: EnvironmentPath | string): Promise<{ executable: { uri?: vscode.Uri } } | undefined>;
    onDidChangeActiveEnvironmentPath: vscode.Event<unknown>;
  };
}

const PYTHON_EXTENSION = 'ms-python.python';

async function api(): Promise<PythonApi | undefined> {
  const ext = vscode.extensions.getExtension<PythonApi>(PYTHON_EXTENSION);
  if (!ext) return undefined;
  try {
    return ext.isActive ? ext.exports : await ext.activate();
  } catch {
    return undefined;
  }
}

/** The Python extension's active interpreter for `resource`, or undefined without the extension. */
export async function activeInterpreter(resource?: vscode.Uri): Promise<string[] | undefined> {
  const envs = (await api())?.environments;
  if (!envs) return undefined;
  try {
    const env = await envs.resolveEnvironment(envs.getActiveEnvironmentPath(resource));
    const exe = env?.executable.uri?.fsPath;
    return exe ? [exe] : undefined;
  } catch {
    return undefined;
  }
}

/** Calls `listener` when the user picks another interpreter in the Python extension. */
export async function onInterpreterChange(listener: () => void): Promise<vscode.Disposable | undefined> {
  return (await api())?.environments?.onDidChangeActiveEnvironmentPath(listener);
}

/** Opens the Python extension's interpreter picker; false when the extension is not installed. */
export async function pickWithPythonExtension(): Promise<boolean> {
  if (!vscode.extensions.getExtension(PYTHON_EXTENSION)) return false;
  await vscode.commands.executeCommand('python.setInterpreter');
  return true;
}
