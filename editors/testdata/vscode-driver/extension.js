// Drives the wisp extension the way a user would, then writes what the
// editor holds to $WISP_TEST_RESULT as JSON:
//   1. types "hello" on line 4 of $WISP_TEST_FILE, triggers inline
//      suggestions and commits one (the ghost text);
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
  result.typed = doc.lineAt(line).text;

  // Ask for ghost text and commit it until the line changes.
  await until("the ghost text is committed", 30000, async () => {
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
