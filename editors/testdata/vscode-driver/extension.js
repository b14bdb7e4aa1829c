// Drives the wisp extension the way a user would, as the scenario
// $WISP_TEST_SCENARIO says (inline.js or nextedit.js, each describing its
// steps), then writes what it saw to $WISP_TEST_RESULT as JSON, with any
// failure in its "error" field.
const vscode = require("vscode");
const fs = require("fs");

const scenarios = {
  inline: require("./inline"),
  nextedit: require("./nextedit"),
};

// drive activates wisp, opens $WISP_TEST_FILE in an editor and hands both
// to the scenario.
async function drive(result) {
  const name = process.env.WISP_TEST_SCENARIO;
  const scenario = scenarios[name];
  if (scenario === undefined) {
    throw new Error(`WISP_TEST_SCENARIO is ${JSON.stringify(name)}, want one of ${Object.keys(scenarios).join(", ")}`);
  }
  const wisp = vscode.extensions.getExtension("wisp-lsp.wisp");
  if (wisp === undefined) {
    throw new Error("the wisp extension is not installed");
  }
  // Activation ends once wisp's language client is running, so the
  // document opens in wisp before any edit to it reaches wisp as an edit.
  await wisp.activate();
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(process.env.WISP_TEST_FILE));
  const editor = await vscode.window.showTextDocument(doc);
  await scenario.drive(result, doc, editor);
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
