// Drives the wisp extension's next-edit suggestions the way a user would,
// then writes what it saw to $WISP_TEST_RESULT as JSON:
//   1. opens $WISP_TEST_FILE, selects the name declared on line 5 and
//      types $WISP_TEST_RENAME over it;
//   2. runs "wisp: Next Edit" (the command Tab is bound to while a
//      suggestion is shown) until it jumps to the suggestion, noting where
//      the cursor went and what each run returned;
//   3. runs it again, which must apply the suggestion, and notes the text;
//   4. opens $WISP_TEST_NOTE, types " //" at the end of line 4 and commits
//      the ghost text VS Code shows there: the model offers none, so what
//      is committed is the suggested edit, offered at the cursor as an
//      inline completion item.
const vscode = require("vscode");
const fs = require("fs");

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function drive(result) {
  const wisp = vscode.extensions.getExtension("wisp-lsp.wisp");
  if (wisp === undefined) {
    throw new Error("the wisp extension is not installed");
  }
  // Activation ends once wisp's language client is running, so the
  // document opens in wisp before the rename reaches it as an edit.
  await wisp.activate();
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(process.env.WISP_TEST_FILE));
  const editor = await vscode.window.showTextDocument(doc);
  const line = 4;
  const start = doc.lineAt(line).firstNonWhitespaceCharacterIndex;
  const word = doc.getWordRangeAtPosition(new vscode.Position(line, start));
  editor.selection = new vscode.Selection(word.start, word.end);
  await vscode.commands.executeCommand("type", { text: process.env.WISP_TEST_RENAME });
  result.renamed = doc.lineAt(line).text;

  result.steps = [];
  const end = Date.now() + 30000;
  for (;;) {
    const step = await vscode.commands.executeCommand("wisp.nextEdit");
    if (result.steps.length === 0 || result.steps[result.steps.length - 1] !== step) {
      result.steps.push(step);
    }
    if (step !== "none") {
      break;
    }
    if (Date.now() > end) {
      throw new Error("timed out: no suggested edit to jump to");
    }
    await sleep(100);
  }
  result.jumpedTo = [editor.selection.active.line, editor.selection.active.character];
  result.beforeApply = doc.getText();
  result.steps.push(await vscode.commands.executeCommand("wisp.nextEdit"));
  result.applied = doc.getText();
  result.cursor = [editor.selection.active.line, editor.selection.active.character];

  const note = await vscode.workspace.openTextDocument(vscode.Uri.file(process.env.WISP_TEST_NOTE));
  const noteEditor = await vscode.window.showTextDocument(note);
  const end4 = note.lineAt(3).range.end;
  noteEditor.selection = new vscode.Selection(end4, end4);
  await vscode.commands.executeCommand("type", { text: " //" });
  const typed = note.lineAt(3).text;
  const by = Date.now() + 30000;
  for (let i = 0; note.lineAt(3).text === typed; i++) {
    if (Date.now() > by) {
      throw new Error(`timed out: no ghost text to commit after ${JSON.stringify(typed)}`);
    }
    if (i % 10 === 9) {
      await vscode.commands.executeCommand("editor.action.inlineSuggest.trigger");
    }
    await vscode.commands.executeCommand("editor.action.inlineSuggest.commit");
    await sleep(100);
  }
  result.atCursor = note.lineAt(3).text;
}

async function activate() {
  const result = {};
  try {
    await drive(result);
  } catch (err) {
    result.error = String(err && err.stack ? err.stack : err);
  }
  fs.writeFileSync(process.env.WISP_TEST_RESULT, JSON.stringify(result));
}

module.exports = { activate, deactivate() {} };
