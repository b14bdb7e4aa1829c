// The next-edit scenario: a rename and the suggestions that follow it;
// it records what each step did.
//   1. in $WISP_TEST_FILE, selects the name declared on line 5 and
//      types $WISP_TEST_RENAME over it;
//   2. runs "wisp: Next Edit" (the command Tab is bound to while a
//      suggestion is shown) until it jumps to the suggestion, noting where
//      the cursor went and what each run returned;
//   3. runs it again, which must apply the suggestion, and notes the text;
//   4. opens $WISP_TEST_NOTE (a file next to $WISP_TEST_FILE), types " //" at the end of line 4 and commits
//      the ghost text VS Code shows there: the model offers none, so what
//      is committed is the suggested edit, offered at the cursor as an
//      inline completion item.
const vscode = require("vscode");
const path = require("path");
const { until } = require("./wait");

async function drive(result, doc, editor) {
  const line = 4;
  const start = doc.lineAt(line).firstNonWhitespaceCharacterIndex;
  const word = doc.getWordRangeAtPosition(new vscode.Position(line, start));
  editor.selection = new vscode.Selection(word.start, word.end);
  await vscode.commands.executeCommand("type", { text: process.env.WISP_TEST_RENAME });
  result.renamed = doc.lineAt(line).text;

  result.steps = [];
  await until("a suggested edit to jump to", 30000, async () => {
    const step = await vscode.commands.executeCommand("wisp.nextEdit");
    if (result.steps.length === 0 || result.steps[result.steps.length - 1] !== step) {
      result.steps.push(step);
    }
    return step !== "none";
  });
  result.jumpedTo = [editor.selection.active.line, editor.selection.active.character];
  result.beforeApply = doc.getText();
  result.steps.push(await vscode.commands.executeCommand("wisp.nextEdit"));
  result.applied = doc.getText();
  result.cursor = [editor.selection.active.line, editor.selection.active.character];

  const note = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(path.dirname(process.env.WISP_TEST_FILE), process.env.WISP_TEST_NOTE)));
  const noteEditor = await vscode.window.showTextDocument(note);
  const end4 = note.lineAt(3).range.end;
  noteEditor.selection = new vscode.Selection(end4, end4);
  await vscode.commands.executeCommand("type", { text: " //" });
  const typed = note.lineAt(3).text;
  // Commit until the line changes, asking anew every tenth try.
  let tries = 0;
  await until(`ghost text to commit after ${JSON.stringify(typed)}`, 30000, async () => {
    if (note.lineAt(3).text !== typed) {
      return true;
    }
    if (tries++ % 10 === 9) {
      await vscode.commands.executeCommand("editor.action.inlineSuggest.trigger");
    }
    await vscode.commands.executeCommand("editor.action.inlineSuggest.commit");
    return false;
  });
  result.atCursor = note.lineAt(3).text;
}

module.exports = { drive };
