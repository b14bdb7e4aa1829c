import * as vscode from "vscode";

/** The params of wisp's wisp/status notification. */
export interface StatusParams {
  /** idle, generating, error, or another state of a model that is unavailable. */
  state: string;
  message?: string;
}

/** States of a working model; any other state is shown as a problem. */
const healthy = new Set(["idle", "generating", "ready", "starting"]);

/** Status shows what the wisp server is doing in the status bar. */
export class Status implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  /** heard is set once wisp has said how it is since it was started. */
  private heard = false;

  constructor(showLogCommand: string) {
    this.item = vscode.window.createStatusBarItem("wisp.status", vscode.StatusBarAlignment.Right, 100);
    this.item.name = "wisp";
    this.item.command = showLogCommand;
    this.starting();
    this.item.show();
  }

  /** starting shows that wisp is (re)starting. */
  starting(): void {
    this.heard = false;
    this.render({ state: "idle", message: "starting" });
  }

  /**
   * started shows wisp idle once it has started, unless it has already
   * said how it is: a model it could not reach is told while it starts.
   */
  started(): void {
    if (!this.heard) {
      this.render({ state: "idle" });
    }
  }

  /** set renders one wisp/status notification. */
  set(params: StatusParams): void {
    this.heard = true;
    this.render(params);
  }

  private render(params: StatusParams): void {
    const message = params.message ?? "";
    switch (params.state) {
      case "generating":
        this.item.text = "$(loading~spin) wisp";
        this.item.backgroundColor = undefined;
        break;
      default:
        if (healthy.has(params.state)) {
          this.item.text = "$(sparkle) wisp";
          this.item.backgroundColor = undefined;
        } else {
          // In the status bar, never a pop-up: a keystroke is not the
          // place for one.
          this.item.text = "$(error) wisp";
          this.item.backgroundColor = new vscode.ThemeColor("statusBarItem.errorBackground");
        }
    }
    this.item.tooltip = message === "" ? `wisp: ${params.state}` : `wisp: ${params.state} — ${message}`;
  }

  dispose(): void {
    this.item.dispose();
  }
}
