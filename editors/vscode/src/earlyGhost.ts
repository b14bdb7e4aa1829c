// Early ghost text. VS Code draws an inline completion only when the
// provider returns, and wisp answers textDocument/inlineCompletion once the
// whole suggestion has streamed in; its wisp/inlineCompletionPartial
// notifications carry the first tokens as they come. EarlyGhost returns
// what has streamed so far as soon as there is some, and once the whole
// answer is in asks VS Code to show it (editor.action.inlineSuggest.trigger,
// answered from here without asking wisp again).
import * as vscode from "vscode";
import type { Middleware } from "vscode-languageclient/node";

type InlineCompletionMiddleware = Pick<Middleware, "provideInlineCompletionItems">;
type ProvideInlineCompletionItemsSignature = Parameters<NonNullable<Middleware["provideInlineCompletionItems"]>>[4];

/** The params of wisp's wisp/inlineCompletionPartial notification. */
export interface PartialParams {
  textDocument: { uri: string };
  version: number;
  position: { line: number; character: number };
  /** The suggestion so far, to insert at position. */
  text: string;
  done: boolean;
}

type Result = vscode.InlineCompletionItem[] | vscode.InlineCompletionList | null | undefined;

/**
 * How long to keep gathering streamed text after the first piece: 0 waits
 * only for the notifications already received (one macrotask), so that a
 * suggestion that arrives all at once is shown once, whole, while the
 * first token of a streamed one is shown the moment it comes.
 */
const gatherMs = 0;

function keyOf(uri: string, version: number, line: number, character: number): string {
  return `${uri}\u0000${version}\u0000${line}:${character}`;
}

/** EarlyGhost is the inline-completion middleware that shows streamed text early. */
export class EarlyGhost {
  /** Requests waiting for their first streamed text, by document, version and position. */
  private readonly waiting = new Map<string, (text: string) => void>();
  /** The whole answer to a request that was shown early, for the refresh it triggers. */
  private finished: { key: string; result: Result } | undefined;

  /** partial takes one wisp/inlineCompletionPartial notification. */
  partial(p: PartialParams): void {
    if (p.text === "") {
      return;
    }
    this.waiting.get(keyOf(p.textDocument.uri, p.version, p.position.line, p.position.character))?.(p.text);
  }

  /** The middleware that hooks the language client's inline completion. */
  readonly middleware: InlineCompletionMiddleware = {
    provideInlineCompletionItems: (document, position, context, token, next) =>
      this.provide(document, position, context, token, next),
  };

  private async provide(
    document: vscode.TextDocument,
    position: vscode.Position,
    context: vscode.InlineCompletionContext,
    token: vscode.CancellationToken,
    next: ProvideInlineCompletionItemsSignature,
  ): Promise<Result> {
    const version = document.version;
    const key = keyOf(document.uri.toString(), version, position.line, position.character);
    if (this.finished?.key === key) {
      const { result } = this.finished;
      this.finished = undefined;
      return result;
    }
    if (context.selectedCompletionInfo !== undefined) {
      return next(document, position, context, token); // the item must include the popup's choice
    }
    // VS Code cancels a request's token once its answer is shown; the
    // request that brings the rest must outlive that, until the text changes.
    const own = new vscode.CancellationTokenSource();
    const link = token.onCancellationRequested(() => own.cancel());
    const whole = Promise.resolve(next(document, position, context, own.token));
    let streamed = "";
    const early = new Promise<string>((resolve) => {
      this.waiting.set(key, (text) => {
        if (streamed === "") {
          setTimeout(() => resolve(streamed), gatherMs);
        }
        streamed = text;
      });
    });
    let first: { result: Result } | { text: string };
    try {
      first = await Promise.race([whole.then((result) => ({ result })), early.then((text) => ({ text }))]);
    } finally {
      this.waiting.delete(key);
      link.dispose();
    }
    if ("result" in first || token.isCancellationRequested) {
      own.dispose();
      return "result" in first ? first.result : undefined;
    }
    const text = first.text;
    const changed = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === document) {
        own.cancel();
      }
    });
    void whole.then((result) => this.refresh(document, version, position, key, text, result), () => undefined)
      .finally(() => {
        changed.dispose();
        own.dispose();
      });
    return [new vscode.InlineCompletionItem(text, new vscode.Range(position, position))];
  }

  /** refresh shows result in place of early, if the editor is still where it was asked. */
  private refresh(document: vscode.TextDocument, version: number, position: vscode.Position, key: string, early: string, result: Result): void {
    const items = Array.isArray(result) ? result : result?.items ?? [];
    const whole = items[0]?.insertText;
    const editor = vscode.window.activeTextEditor;
    if (typeof whole !== "string" || whole === early || document.version !== version
      || editor?.document !== document || !editor.selection.active.isEqual(position)) {
      return;
    }
    this.finished = { key, result };
    void vscode.commands.executeCommand("editor.action.inlineSuggest.trigger");
  }
}
