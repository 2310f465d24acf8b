// "Show all" for a command's output: opens the spilled file (output-spill.ts) in a read-only
// editor, through a content provider of our own scheme (a document nobody can save over the
// file). Only files the spill wrote are served: a crafted hermes-output: URI reads nothing else.
import { readFile } from "node:fs/promises";
import path from "node:path";
import * as vscode from "vscode";
import { terminalText } from "../common/terminal-text";

const SCHEME = "hermes-output";

export class OutputDocuments implements vscode.TextDocumentContentProvider {
  private readonly allowed = new Set<string>();

  register(): vscode.Disposable {
    return vscode.workspace.registerTextDocumentContentProvider(SCHEME, this);
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const file = uri.query;
    if (!this.allowed.has(file)) return "This output is no longer available.";
    try {
      // What the card shows: escape sequences dropped, redrawn lines at their last state.
      return terminalText(await readFile(file, "utf8"));
    } catch {
      // expected: the temporary output file was removed: the document says the output is gone
      return "This output is no longer available (its temporary file was removed).";
    }
  }

  /** Opens `file` read-only, titled after the command. */
  async open(file: string, title: string): Promise<void> {
    this.allowed.add(file);
    const name = `${title.replace(/[\\/:*?"<>|\s]+/g, " ").trim().slice(0, 60) || path.basename(file)}.log`;
    const uri = vscode.Uri.from({ scheme: SCHEME, path: `/${name}`, query: file });
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: true, viewColumn: vscode.ViewColumn.Active });
  }
}
