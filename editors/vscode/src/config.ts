import * as vscode from "vscode";

/** The model section of wisp's initializationOptions (DESIGN.md, Configuration). */
export interface ModelOptions {
  model?: string;
}

/** The wisp.nextEdit settings (DESIGN.md, Configuration). */
export interface NextEditOptions {
  enabled: boolean;
  minPause: number;
  aggressiveness: string;
}

/** What the extension sends as initializationOptions. */
export interface InitOptions {
  model?: ModelOptions;
  /**
   * The wisp.nextEdit settings, only when the user set next edits on or
   * off here: left at the default, wisp's own settings decide.
   */
  nextEdit?: NextEditOptions;
  /** Asks for wisp/inlineCompletionPartial notifications. */
  streaming: boolean;
  /**
   * Asks for wisp/status notifications, which the status bar item shows;
   * without it wisp tells the model's state with window/showMessage.
   */
  status: boolean;
  /**
   * VS Code asks an inline completion provider only about 50 ms after a
   * keystroke: startOnChange has wisp start the generation as the change
   * arrives, and VS Code's request joins it. Off while
   * editor.inlineSuggest.enabled is off.
   */
  completion: { startOnChange: boolean };
}

/**
 * The settings wisp takes only from its trusted layers (its config file, its
 * environment, its flags), with the environment variable each goes through.
 * wisp refuses them in initializationOptions, which may come from a
 * workspace; these settings are machine-scoped, so they are the user's own.
 */
const trusted = {
  provider: "WISP_PROVIDER",
  endpoint: "WISP_ENDPOINT",
  apiKeyEnv: "WISP_API_KEY_ENV",
} as const;

/**
 * serverEnv returns the environment additions for the wisp process: the
 * machine-scoped wisp.provider, wisp.endpoint and wisp.apiKeyEnv as WISP_*
 * variables. Empty settings are left out so that wisp's own configuration
 * (config.toml, the inherited WISP_* environment) still applies.
 */
export function serverEnv(): Record<string, string> {
  const cfg = vscode.workspace.getConfiguration("wisp");
  const env: Record<string, string> = {};
  for (const [key, variable] of Object.entries(trusted)) {
    const value = cfg.get<string>(key, "").trim();
    if (value !== "") {
      env[variable] = value;
    }
  }
  return env;
}

/**
 * initOptions reads the settings wisp takes from the editor: the model name
 * and, when the user set next edits on or off here, wisp.nextEdit.*.
 */
export function initOptions(): InitOptions {
  const model = vscode.workspace.getConfiguration("wisp").get<string>("model", "").trim();
  // Only while VS Code asks for ghost text: otherwise nothing would join
  // the generations a key starts.
  const inline = vscode.workspace.getConfiguration("editor").get<boolean>("inlineSuggest.enabled", true);
  const opts: InitOptions = { streaming: true, status: true, completion: { startOnChange: inline } };
  if (model !== "") {
    opts.model = { model };
  }
  if (nextEditsSet() !== undefined) {
    opts.nextEdit = nextEditOptions();
  }
  return opts;
}

/** nextEditOptions reads the wisp.nextEdit settings wisp takes from the editor. */
export function nextEditOptions(): NextEditOptions {
  const cfg = vscode.workspace.getConfiguration("wisp.nextEdit");
  return {
    enabled: cfg.get<boolean>("enabled", false),
    minPause: cfg.get<number>("minPause", 300),
    aggressiveness: cfg.get<string>("aggressiveness", "medium"),
  };
}

/**
 * nextEditsSet returns wisp.nextEdit.enabled when the user set it (in any
 * scope), undefined when it is left at its default: then wisp's own
 * settings (config.toml, WISP_NEXT_EDIT) say whether next edits are on.
 */
function nextEditsSet(): boolean | undefined {
  const i = vscode.workspace.getConfiguration("wisp.nextEdit").inspect<boolean>("enabled");
  return i?.workspaceFolderValue ?? i?.workspaceValue ?? i?.globalValue;
}

/** serverPath is the wisp executable to start (setting wisp.path). */
export function serverPath(): string {
  const value = vscode.workspace.getConfiguration("wisp").get<string>("path", "wisp").trim();
  return value === "" ? "wisp" : value;
}

/** affectsServer reports whether a settings change needs a server restart. */
export function affectsServer(e: vscode.ConfigurationChangeEvent): boolean {
  return ["path", "provider", "endpoint", "model", "apiKeyEnv", "nextEdit"].some((k) =>
    e.affectsConfiguration(`wisp.${k}`),
  ) || e.affectsConfiguration("editor.inlineSuggest.enabled");
}
