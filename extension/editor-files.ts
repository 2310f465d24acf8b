// fs/read_text_file and fs/write_text_file through VS Code documents: reads see unsaved
// buffers, writes are WorkspaceEdits (undoable, seen by the editor) followed by a save. With
// `hermes.review.edits: perHunk` a write is held for review first (edit-review.ts).
import type * as acp from "@agentclientprotocol/sdk/unstable";
import * as vscode from "vscode";
import type { EditReviews } from "./edit-review";

export class EditorFiles {
  constructor(
    private readonly reviews: EditReviews,
    private readonly reviewMode: () => "perHunk" | "off",
  ) {}

  async read(params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse> {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(params.path));
    const text = document.getText();
    if (!params.line && !params.limit) return { content: text };
    // `line` is 1-based; `limit` counts lines.
    const lines = text.split(/(?<=\n)/);
    const start = Math.max(0, (params.line ?? 1) - 1);
    return { content: lines.slice(start, params.limit ? start + params.limit : undefined).join("") };
  }

  async write(params: acp.WriteTextFileRequest, signal: AbortSignal): Promise<acp.WriteTextFileResponse> {
    const oldText = await currentText(params.path);
    if (this.reviewMode() === "perHunk") {
      return this.reviews.hold({ path: params.path, displayPath: vscode.workspace.asRelativePath(params.path, false), oldText, newText: params.content }, signal);
    }
    await writeDocument(params.path, params.content, oldText === undefined);
    return {};
  }
}

/** The text the user sees (the open buffer, unsaved edits included), or undefined for no file. */
export async function currentText(file: string): Promise<string | undefined> {
  const uri = vscode.Uri.file(file);
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText();
  try {
    await vscode.workspace.fs.stat(uri);
  } catch {
    // expected: FileNotFound: no such file, read as undefined by the callers
    return undefined;
  }
  return (await vscode.workspace.openTextDocument(uri)).getText();
}

/** Replaces a document's text with one undoable edit and saves it; creates the file first if needed. */
export async function writeDocument(file: string, text: string, isNewFile: boolean): Promise<void> {
  const uri = vscode.Uri.file(file);
  if (isNewFile) {
    const create = new vscode.WorkspaceEdit();
    create.createFile(uri, { ignoreIfExists: true });
    if (!(await vscode.workspace.applyEdit(create))) throw new Error(`VS Code could not create ${file}`);
  }
  // The file may have just changed on disk (a checkpoint restore, a command): VS Code then reloads
  // its document and refuses an edit made against the old text. Each refusal waits for that
  // reload (or a short while) and tries again on the fresh document.
  for (let attempt = 1; ; attempt++) {
    const document = await vscode.workspace.openTextDocument(uri);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), text);
    if (await vscode.workspace.applyEdit(edit)) {
      if (!(await document.save())) throw new Error(`VS Code could not save ${file}`);
      return;
    }
    if (attempt >= EDIT_ATTEMPTS) throw new Error(`VS Code refused the edit to ${file}`);
    await documentSettled(uri);
  }
}

const EDIT_ATTEMPTS = 4;
const SETTLE_MS = 250;

/** Resolves at the document's next change (its reload from disk) or after SETTLE_MS. */
function documentSettled(uri: vscode.Uri): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      listener.dispose();
      resolve();
    };
    const timer = setTimeout(done, SETTLE_MS);
    const listener = vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.document.uri.toString() === uri.toString()) done();
    });
  });
}
