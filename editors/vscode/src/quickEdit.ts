import * as vscode from "vscode";
import { ExecuteCommandRequest, LanguageClient } from "vscode-languageclient/node";

/**
 * quickEdit asks wisp to rewrite the selection (or, with an empty selection,
 * the syntax node under the cursor) following an instruction. wisp answers
 * with a workspace/applyEdit that the language client applies. instruction
 * is asked for with an input box unless given (tests and keybindings pass it
 * as the command's argument).
 */
export async function quickEdit(client: LanguageClient, instruction?: unknown): Promise<boolean> {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined) {
    vscode.window.showWarningMessage("wisp: Quick Edit needs an open editor.");
    return false;
  }
  let text = typeof instruction === "string" ? instruction : undefined;
  if (text === undefined) {
    text = await vscode.window.showInputBox({
      title: "wisp: Quick Edit",
      prompt: editor.selection.isEmpty ? "Instruction for the code at the cursor" : "Instruction for the selection",
      placeHolder: "e.g. handle the error",
      ignoreFocusOut: true,
    });
  }
  if (text === undefined || text.trim() === "") {
    return false;
  }
  const doc = editor.document;
  const args = {
    textDocument: { uri: client.code2ProtocolConverter.asUri(doc.uri), version: doc.version },
    range: client.code2ProtocolConverter.asRange(editor.selection),
    instruction: text,
  };
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: "wisp: editing" },
    async () => {
      try {
        await client.sendRequest(ExecuteCommandRequest.type, { command: "wisp.quickEdit", arguments: [args] });
        return true;
      } catch (err) {
        vscode.window.showErrorMessage(`wisp: Quick Edit failed: ${err instanceof Error ? err.message : String(err)}`);
        return false;
      }
    },
  );
}
