// The wisp extension: starts the wisp language server, which shows ghost text
// through LSP inline completion and answers Quick Edit with text edits.
import * as vscode from "vscode";
import { LanguageClient, LanguageClientOptions, ServerOptions, TransportKind } from "vscode-languageclient/node";
import { affectsServer, initOptions, serverEnv, serverPath } from "./config";
import { EarlyGhost, PartialParams } from "./earlyGhost";
import { NextEdits } from "./nextEdit";
import { quickEdit } from "./quickEdit";
import { Status, StatusParams } from "./status";

let client: LanguageClient | undefined;

function newClient(output: vscode.LogOutputChannel, status: Status): LanguageClient {
  const command = serverPath();
  // Where code and keys go reaches wisp through its environment, which it
  // trusts; initializationOptions may come from a workspace, and wisp
  // refuses those settings there.
  const options = { env: { ...process.env, ...serverEnv() } };
  const serverOptions: ServerOptions = {
    run: { command, args: ["serve"], transport: TransportKind.stdio, options },
    debug: { command, args: ["serve", "--log-level", "debug"], transport: TransportKind.stdio, options },
  };
  // Ghost text comes through textDocument/inlineCompletion; its first
  // streamed tokens are shown before the whole answer is in.
  const early = new EarlyGhost();
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ scheme: "file" }, { scheme: "untitled" }],
    initializationOptions: initOptions(),
    outputChannel: output,
    middleware: early.middleware,
  };
  const c = new LanguageClient("wisp", "wisp", serverOptions, clientOptions);
  c.onNotification("wisp/status", (params: StatusParams) => status.set(params));
  c.onNotification("wisp/inlineCompletionPartial", (params: PartialParams) => early.partial(params));
  return c;
}

/** activate starts wisp and registers the extension's commands. */
export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel("wisp", { log: true });
  const status = new Status("wisp.showLog");
  const nextEdits = new NextEdits(() => client);
  context.subscriptions.push(output, status, nextEdits);

  const start = async (): Promise<void> => {
    client = newClient(output, status);
    status.starting();
    try {
      await client.start();
      status.started();
    } catch (err) {
      status.set({ state: "error", message: `cannot start ${serverPath()}: ${String(err)}` });
      throw err;
    }
  };
  const stop = async (): Promise<void> => {
    const c = client;
    client = undefined;
    if (c !== undefined) {
      await c.stop();
    }
  };

  context.subscriptions.push(
    vscode.commands.registerCommand("wisp.showLog", () => output.show(true)),
    vscode.commands.registerCommand("wisp.restart", async () => {
      await stop();
      await start();
    }),
    // wisp.quickEdit itself is the server's command (the language client
    // registers it); this one gathers its arguments from the editor.
    vscode.commands.registerCommand("wisp.editSelection", async (instruction?: unknown) => {
      if (client === undefined) {
        vscode.window.showWarningMessage("wisp: the server is not running.");
        return false;
      }
      return quickEdit(client, instruction);
    }),
    vscode.commands.registerCommand("wisp.nextEdit", () => nextEdits.step()),
    vscode.commands.registerCommand("wisp.nextEdit.dismiss", () => nextEdits.clear()),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (affectsServer(e)) {
        await stop();
        await start();
      }
    }),
  );
  await start();
}

/** deactivate stops the server. */
export async function deactivate(): Promise<void> {
  if (client !== undefined) {
    await client.stop();
    client = undefined;
  }
}
