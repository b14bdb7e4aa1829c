import * as vscode from "vscode";

/** The model section of wisp's initializationOptions (DESIGN.md, Configuration). */
export interface ModelOptions {
  model?: string;
}

/** What the extension sends as initializationOptions. */
export interface InitOptions {
  model?: ModelOptions;
  /** Asks for wisp/status (and wisp/inlineCompletionPartial) notifications. */
  streaming: boolean;
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

/** initOptions reads the settings wisp takes from the editor: the model name. */
export function initOptions(): InitOptions {
  const model = vscode.workspace.getConfiguration("wisp").get<string>("model", "").trim();
  const opts: InitOptions = { streaming: true };
  if (model !== "") {
    opts.model = { model };
  }
  return opts;
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
  );
}
