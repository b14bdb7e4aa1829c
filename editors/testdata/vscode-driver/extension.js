// Drives the wisp extension the way a user would, then writes what the
// editor holds to $WISP_TEST_RESULT as JSON:
//   1. types "hello" on line 4 of $WISP_TEST_FILE and commits the ghost
//      text VS Code asks for by itself, timing keystroke → ghost text (the
//      first moment a commit takes, polled every few milliseconds); if
//      none comes, triggers inline suggestions explicitly;
//   2. selects lines 3-5 and runs "wisp: Quick Edit" with an instruction.
const vscode = require("vscode");
const fs = require("fs");

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what, deadlineMs, cond) {
  const end = Date.now() + deadlineMs;
  for (;;) {
    if (await cond()) {
      return true;
    }
    if (Date.now() > end) {
      throw new Error(`timed out: ${what}`);
    }
    await sleep(100);
  }
}

async function drive(result) {
  const wisp = vscode.extensions.getExtension("wisp-lsp.wisp");
  if (wisp === undefined) {
    throw new Error("the wisp extension is not installed");
  }
  await wisp.activate();
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(process.env.WISP_TEST_FILE));
  const editor = await vscode.window.showTextDocument(doc);
  const line = 3;
  const end = doc.lineAt(line).range.end;
  editor.selection = new vscode.Selection(end, end);
  await vscode.commands.executeCommand("type", { text: "hello" });
  const typedAt = Date.now();
  result.typed = doc.lineAt(line).text;

  // VS Code asks on each keystroke; commit as soon as there is ghost text.
  const shownBy = Date.now() + 5000;
  while (Date.now() < shownBy) {
    await vscode.commands.executeCommand("editor.action.inlineSuggest.commit");
    if (doc.lineAt(line).text !== result.typed) {
      result.ghostMs = Date.now() - typedAt;
      break;
    }
    await sleep(2);
  }
  result.completed = doc.lineAt(line).text;

  // Ask for ghost text and commit it until the line changes.
  await until("the ghost text is committed", 30000, async () => {
    if (result.completed !== result.typed) {
      return true;
    }
    await vscode.commands.executeCommand("editor.action.inlineSuggest.trigger");
    await sleep(400);
    await vscode.commands.executeCommand("editor.action.inlineSuggest.commit");
    result.completed = doc.lineAt(line).text;
    return result.completed !== result.typed;
  });

  editor.selection = new vscode.Selection(2, 0, 4, doc.lineAt(4).text.length);
  const applied = await vscode.commands.executeCommand("wisp.editSelection", process.env.WISP_TEST_INSTRUCTION);
  result.quickEditReturned = applied;
  await until("the quick edit is applied", 20000, async () => doc.getText().includes("greet()"));
  result.edited = doc.getText();
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
