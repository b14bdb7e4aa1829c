import * as vscode from "vscode";

/** The model section of wisp's initializationOptions (DESIGN.md, Configuration). */
export interface ModelOptions {
  provider?: string;
  endpoint?: string;
  model?: string;
  apiKeyEnv?: string;
}

/** What the extension sends as initializationOptions. */
export interface InitOptions {
  model?: ModelOptions;
  /** Asks for wisp/status (and wisp/inlineCompletionPartial) notifications. */
  streaming: boolean;
}

/**
 * initOptions reads the machine-scoped wisp.* settings. Empty settings are
 * left out so that wisp's own configuration (config.toml, WISP_*
 * environment) still applies.
 */
export function initOptions(): InitOptions {
  const cfg = vscode.workspace.getConfiguration("wisp");
  const model: ModelOptions = {};
  for (const key of ["provider", "endpoint", "model", "apiKeyEnv"] as const) {
    const value = cfg.get<string>(key, "").trim();
    if (value !== "") {
      model[key] = value;
    }
  }
  const opts: InitOptions = { streaming: true };
  if (Object.keys(model).length > 0) {
    opts.model = model;
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
  return ["path", "provider", "endpoint", "model", "apiKeyEnv"].some((k) =>
    e.affectsConfiguration(`wisp.${k}`),
  );
}
