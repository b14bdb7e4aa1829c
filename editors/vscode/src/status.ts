import * as vscode from "vscode";

/** The params of wisp's wisp/status notification. */
export interface StatusParams {
  state: "idle" | "generating" | "error";
  message?: string;
}

/** Status shows what the wisp server is doing in the status bar. */
export class Status implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor(showLogCommand: string) {
    this.item = vscode.window.createStatusBarItem("wisp.status", vscode.StatusBarAlignment.Right, 100);
    this.item.name = "wisp";
    this.item.command = showLogCommand;
    this.set({ state: "idle", message: "starting" });
    this.item.show();
  }

  /** set renders one wisp/status notification. */
  set(params: StatusParams): void {
    const message = params.message ?? "";
    switch (params.state) {
      case "generating":
        this.item.text = "$(loading~spin) wisp";
        this.item.backgroundColor = undefined;
        break;
      case "error":
        this.item.text = "$(error) wisp";
        this.item.backgroundColor = new vscode.ThemeColor("statusBarItem.errorBackground");
        break;
      default:
        this.item.text = "$(sparkle) wisp";
        this.item.backgroundColor = undefined;
    }
    this.item.tooltip = message === "" ? `wisp: ${params.state}` : `wisp: ${params.state} — ${message}`;
  }

  dispose(): void {
    this.item.dispose();
  }
}
