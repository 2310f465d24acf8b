// "Open diff": VS Code's diff editor between the file as it is and the agent's proposed text.
// Texts that are not files (the proposal, an edit card's old/new text) are served by a
// TextDocumentContentProvider on the `hermes-diff` scheme; the path stays in the URI so the
// language (and highlighting) is detected from the file name. A proposal still to be decided
// remembers its decision's id, so the diff editor's title-bar and context-menu actions
// (diff-decisions.ts) know which edit they accept or reject.
import * as vscode from "vscode";

export const DIFF_SCHEME = "hermes-diff";

export interface DiffOptions {
  /** The left side's text; absent: the file on disk (empty when it does not exist). */
  oldText?: string;
  title?: string;
  /** The permission card or held review this proposal belongs to (while it waits for a decision). */
  decisionId?: string;
}

export class DiffView implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  /** Right-side document key → the decision it shows. */
  private readonly decisions = new Map<string, string>();
  private next = 1;

  register(): vscode.Disposable {
    return vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.query) ?? "";
  }

  /** The decision a diff's right side belongs to, if it is one of ours. */
  decisionOf(uri: vscode.Uri | undefined): string | undefined {
    return uri?.scheme === DIFF_SCHEME ? this.decisions.get(uri.query) : undefined;
  }

  /** Left: the file on disk (or `oldText` when given / the file is new); right: `newText`. Returns the right side's URI. */
  async open(file: string, newText: string, options: DiffOptions = {}): Promise<vscode.Uri> {
    const fileUri = vscode.Uri.file(file);
    let left: vscode.Uri;
    if (options.oldText !== undefined) left = this.virtual(file, options.oldText);
    else left = (await exists(fileUri)) ? fileUri : this.virtual(file, "");
    const right = this.virtual(file, newText);
    if (options.decisionId) this.decisions.set(right.query, options.decisionId);
    const name = file.split(/[\\/]/).pop() ?? file;
    await vscode.commands.executeCommand("vscode.diff", left, right, options.title ?? `${name} ↔ proposed by Hermes`, { preview: true });
    return right;
  }

  private virtual(file: string, text: string): vscode.Uri {
    const key = `t${this.next++}`;
    this.texts.set(key, text);
    // Only the latest texts are kept; an old diff tab that reloads shows empty sides.
    if (this.texts.size > 100) {
      const oldest = this.texts.keys().next().value as string;
      this.texts.delete(oldest);
      this.decisions.delete(oldest);
    }
    return vscode.Uri.from({ scheme: DIFF_SCHEME, path: vscode.Uri.file(file).path, query: key });
  }
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    // expected: FileNotFound: the file does not exist (yet), which is what "false" says
    return false;
  }
}
