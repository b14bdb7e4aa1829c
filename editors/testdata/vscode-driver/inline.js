// The inline scenario: ghost text typed for and committed, then a quick
// edit; it records what the editor holds after each.
//   1. with $WISP_TEST_FILE open, writes $WISP_TEST_RESULT.opened; the
//      test then goes to the end of line 4 and types "hello" into the page
//      with real key events, watches the DOM for the ghost text VS
//      Code asks for by itself, and writes $WISP_TEST_RESULT.typed and,
//      once the whole suggestion is on screen, $WISP_TEST_RESULT.ghost; the
//      driver then commits the ghost text (if none came, it triggers
//      inline suggestions explicitly);
//   2. selects lines 3-5 and runs "wisp: Quick Edit" with an instruction.
const vscode = require("vscode");
const fs = require("fs");
const { sleep, until } = require("./wait");

async function drive(result, doc, editor) {
  const line = 3;
  // VS Code creates an editor's inline-suggestion controller when the
  // browser is first idle after opening it (or when a command needs it):
  // keys typed before that get no ghost text, where a person's would.
  // Ask once, as a person who opened a file a moment ago would be ready.
  await vscode.commands.executeCommand("editor.action.inlineSuggest.trigger");
  await sleep(1000);
  const signal = process.env.WISP_TEST_RESULT;
  fs.writeFileSync(signal + ".opened", "");
  await until("the test types", 60000, async () => fs.existsSync(signal + ".typed"));
  // The keys reach this process a moment after the screen.
  await until("the typed keys reach the extension", 10000, async () => doc.lineAt(line).text.endsWith("hello"))
    .catch(() => undefined);
  result.typed = doc.lineAt(line).text;

  // VS Code asks on each keystroke; commit once the test saw the whole
  // ghost text.
  // (Polling the commit command instead would time the commit's round
  // trips through the browser, and each commit makes VS Code ask again.)
  const shownBy = Date.now() + 10000;
  while (Date.now() < shownBy && !fs.existsSync(signal + ".ghost")) {
    await sleep(20);
  }
  result.shownByItself = fs.existsSync(signal + ".ghost");
  await vscode.commands.executeCommand("editor.action.inlineSuggest.commit");
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

module.exports = { drive };
