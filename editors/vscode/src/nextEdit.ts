// Next-edit suggestions: after a pause in editing, wisp is asked for the
// edit that follows the last one (textDocument/copilotInlineEdit). The
// suggestion is drawn where it applies as an inline diff (the replaced text
// struck through, the new text after it); "wisp: Next Edit" (Tab while one
// is shown) jumps to it, then applies it; Escape dismisses it. When the edit
// is at the cursor, it is also offered as an inline completion item, so VS
// Code's own ghost text can show and accept it.
import * as vscode from "vscode";
import { CancellationTokenSource, LanguageClient } from "vscode-languageclient/node";
import { nextEditOptions } from "./config";

/** The params of textDocument/copilotInlineEdit. */
interface InlineEditParams {
  textDocument: { uri: string; version: number };
  position: { line: number; character: number };
}

/** One edit of a copilotInlineEdit result, as wisp sends it. */
interface InlineEdit {
  text: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  textDocument?: { uri: string; version: number };
  command?: { title: string; command: string; arguments?: unknown[] };
}

/** A suggestion shown in one editor. */
interface Shown {
  doc: vscode.TextDocument;
  /** The document version the edit is for; any change makes it stale. */
  version: number;
  range: vscode.Range;
  text: string;
  command?: InlineEdit["command"];
  /** Where the first change is: the first key jumps there. */
  jump: vscode.Position;
}

/** What "wisp: Next Edit" did: the tests and keybindings read it. */
export type NextEditStep = "jumped" | "applied" | "none";

/** The context key set while a suggestion is shown (keybindings' `when`). */
const visibleKey = "wisp.nextEditVisible";

/** NextEdits asks for, shows, and applies next-edit suggestions. */
export class NextEdits implements vscode.Disposable, vscode.InlineCompletionItemProvider {
  private readonly disposables: vscode.Disposable[] = [];
  private readonly deleted = vscode.window.createTextEditorDecorationType({
    textDecoration: "line-through",
    backgroundColor: new vscode.ThemeColor("diffEditor.removedTextBackground"),
  });
  private readonly inserted = vscode.window.createTextEditorDecorationType({});
  private timer: NodeJS.Timeout | undefined;
  private pending: CancellationTokenSource | undefined;
  private shown: Shown | undefined;

  /** client returns the running language client, or undefined. */
  constructor(private readonly client: () => LanguageClient | undefined) {
    this.disposables.push(
      this.deleted,
      this.inserted,
      vscode.workspace.onDidChangeTextDocument((e) => this.changed(e)),
      vscode.window.onDidChangeActiveTextEditor(() => this.clear()),
      vscode.languages.registerInlineCompletionItemProvider({ pattern: "**" }, this),
    );
  }

  dispose(): void {
    this.clear();
    for (const d of this.disposables) {
      d.dispose();
    }
  }

  private changed(e: vscode.TextDocumentChangeEvent): void {
    const editor = vscode.window.activeTextEditor;
    if (editor === undefined || e.document !== editor.document || e.contentChanges.length === 0) {
      return;
    }
    this.clear();
    if (!this.offered()) {
      return;
    }
    this.timer = setTimeout(() => void this.request(editor), Math.max(nextEditOptions().minPause, 0));
  }

  /**
   * offered reports whether the running wisp said in its initialize result
   * that next edits are on (experimental.nextEdit): on in its own settings
   * (config.toml, WISP_NEXT_EDIT) or in wisp.nextEdit.enabled, which the
   * extension sends and which restarts wisp when it changes. While they are
   * off wisp would answer every request with nothing.
   */
  private offered(): boolean {
    const experimental: unknown = this.client()?.initializeResult?.capabilities.experimental;
    return typeof experimental === "object" && experimental !== null && (experimental as { nextEdit?: unknown }).nextEdit === true;
  }

  /** clear hides the suggestion and cancels the request in flight. */
  clear(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.pending?.cancel();
    this.pending = undefined;
    if (this.shown !== undefined) {
      this.shown = undefined;
      for (const editor of vscode.window.visibleTextEditors) {
        editor.setDecorations(this.deleted, []);
        editor.setDecorations(this.inserted, []);
      }
      void vscode.commands.executeCommand("setContext", visibleKey, false);
    }
  }

  private async request(editor: vscode.TextEditor): Promise<void> {
    const client = this.client();
    if (client === undefined || vscode.window.activeTextEditor !== editor) {
      return;
    }
    const doc = editor.document;
    const version = doc.version;
    const params: InlineEditParams = {
      textDocument: { uri: client.code2ProtocolConverter.asUri(doc.uri), version },
      position: client.code2ProtocolConverter.asPosition(editor.selection.active),
    };
    const source = new CancellationTokenSource();
    this.pending = source;
    let result: { edits?: InlineEdit[] } | null;
    try {
      result = await client.sendRequest<{ edits?: InlineEdit[] } | null>("textDocument/copilotInlineEdit", params, source.token);
    } catch {
      return; // cancelled by a change, or the server is gone
    } finally {
      if (this.pending === source) {
        this.pending = undefined;
      }
    }
    const edit = result?.edits?.[0];
    if (source.token.isCancellationRequested || edit === undefined || doc.version !== version) {
      return;
    }
    if (edit.textDocument !== undefined && edit.textDocument.version !== version) {
      return; // for a version the document has left
    }
    this.show(editor, edit, client);
  }

  private show(editor: vscode.TextEditor, edit: InlineEdit, client: LanguageClient): void {
    const doc = editor.document;
    const range = doc.validateRange(client.protocol2CodeConverter.asRange(edit.range));
    const diff = lineDiff(doc, range, edit.text);
    if (diff.length === 0) {
      return;
    }
    const deleted: vscode.DecorationOptions[] = [];
    const inserted: vscode.DecorationOptions[] = [];
    for (const d of diff) {
      const after = {
        contentText: d.text.replace(/\t/g, " ".repeat(Number(editor.options.tabSize) || 4)),
        color: new vscode.ThemeColor("editorGhostText.foreground"),
        backgroundColor: new vscode.ThemeColor("diffEditor.insertedTextBackground"),
      };
      if (!d.range.isEmpty) {
        deleted.push({ range: d.range });
      }
      inserted.push({ range: new vscode.Range(d.range.end, d.range.end), renderOptions: { after } });
    }
    editor.setDecorations(this.deleted, deleted);
    editor.setDecorations(this.inserted, inserted);
    this.shown = { doc, version: doc.version, range, text: edit.text, command: edit.command, jump: diff[0].range.start };
    void vscode.commands.executeCommand("setContext", visibleKey, true);
    void client.sendNotification("textDocument/didShowInlineEdit", { item: edit });
    if (range.contains(editor.selection.active) && range.start.line === range.end.line) {
      // At the cursor: VS Code's ghost text may show it too.
      void vscode.commands.executeCommand("editor.action.inlineSuggest.trigger");
    }
  }

  /** current returns the suggestion for editor's document as it is now. */
  private current(editor: vscode.TextEditor | undefined): Shown | undefined {
    const s = this.shown;
    if (s === undefined || editor === undefined || editor.document !== s.doc) {
      return undefined;
    }
    if (s.doc.version !== s.version) {
      this.clear();
      return undefined;
    }
    return s;
  }

  /**
   * step is "wisp: Next Edit": it moves the cursor to the suggestion, or
   * applies it when the cursor is on its lines already.
   */
  async step(): Promise<NextEditStep> {
    const editor = vscode.window.activeTextEditor;
    const s = this.current(editor);
    if (editor === undefined || s === undefined) {
      return "none";
    }
    const line = editor.selection.active.line;
    if (line < s.range.start.line || line > s.range.end.line) {
      editor.selection = new vscode.Selection(s.jump, s.jump);
      editor.revealRange(new vscode.Range(s.jump, s.jump), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      return "jumped";
    }
    this.clear();
    const ok = await editor.edit((b) => b.replace(s.range, s.text));
    if (!ok) {
      return "none";
    }
    const end = s.doc.positionAt(s.doc.offsetAt(s.range.start) + s.text.length);
    editor.selection = new vscode.Selection(end, end);
    if (s.command !== undefined) {
      await vscode.commands.executeCommand(s.command.command, ...(s.command.arguments ?? []));
    }
    return "applied";
  }

  /** provideInlineCompletionItems offers the suggestion when it is at the cursor. */
  provideInlineCompletionItems(doc: vscode.TextDocument, position: vscode.Position): vscode.InlineCompletionItem[] {
    const s = this.current(vscode.window.activeTextEditor);
    if (s === undefined || s.doc !== doc || s.range.start.line !== position.line || s.range.end.line !== position.line) {
      return [];
    }
    if (!s.range.contains(position) || s.text.includes("\n")) {
      return [];
    }
    // VS Code shows an item whose text starts with what is typed before
    // the cursor within its range.
    const typed = doc.getText(new vscode.Range(s.range.start, position));
    if (!s.text.startsWith(typed)) {
      return [];
    }
    const item = new vscode.InlineCompletionItem(s.text, s.range);
    if (s.command !== undefined) {
      item.command = { title: s.command.title, command: s.command.command, arguments: s.command.arguments };
    }
    return [item];
  }
}

/** A changed span of a line and the text that replaces it. */
interface LineChange {
  range: vscode.Range;
  text: string;
}

/**
 * lineDiff returns what replacing range of doc with text changes, line by
 * line when it keeps the number of lines (each line's changed span and its
 * new text), or as one block otherwise (its new lines joined by " ⏎ ").
 */
function lineDiff(doc: vscode.TextDocument, range: vscode.Range, text: string): LineChange[] {
  const first = range.start.line;
  const last = range.end.line;
  const old: string[] = [];
  for (let l = first; l <= last; l++) {
    old.push(doc.lineAt(l).text);
  }
  const joined = old[0].slice(0, range.start.character) + text + old[old.length - 1].slice(range.end.character);
  const neu = joined.split("\n");
  const out: LineChange[] = [];
  if (neu.length === old.length) {
    for (let i = 0; i < old.length; i++) {
      if (old[i] === neu[i]) {
        continue;
      }
      const [p, s] = common(old[i], neu[i]);
      out.push({
        range: new vscode.Range(first + i, p, first + i, old[i].length - s),
        text: neu[i].slice(p, neu[i].length - s),
      });
    }
    return out;
  }
  if (joined === old.join("\n")) {
    return out;
  }
  return [{ range, text: text.split("\n").join(" ⏎ ") }];
}

/** common returns the lengths of the common prefix and suffix of a and b. */
function common(a: string, b: string): [number, number] {
  const n = Math.min(a.length, b.length);
  let p = 0;
  while (p < n && a[p] === b[p]) {
    p++;
  }
  let s = 0;
  while (s < n - p && a[a.length - 1 - s] === b[b.length - 1 - s]) {
    s++;
  }
  return [p, s];
}
