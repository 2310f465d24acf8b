// What the panel asks of the workspace: file mentions, attaching the selection / active file,
// opening files and links, clipboard and insert-at-cursor.
import path from "node:path";
import * as vscode from "vscode";
import type { Attachment } from "../common/panel-state/types";

const MAX_MENTION_RESULTS = 50;
const EXCLUDE = "**/{node_modules,.git}/**";

let nextAttachment = 1;
const attachmentId = (kind: string) => `${kind}-${Date.now().toString(36)}-${nextAttachment++}`;

/** Workspace files whose path matches the typed text (a glob when it has one, else a substring). */
export async function searchFiles(query: string): Promise<{ uri: string; path: string }[]> {
  const trimmed = query.trim().replace(/^@/, "");
  const glob = /[*?{[]/.test(trimmed) ? trimmed : `**/*${[...trimmed].map(escapeGlob).join("")}*`;
  const found = await vscode.workspace.findFiles(trimmed ? glob : "**/*", EXCLUDE, trimmed ? MAX_MENTION_RESULTS * 4 : MAX_MENTION_RESULTS);
  const lower = trimmed.toLowerCase();
  return found
    .map((uri) => ({ uri: uri.toString(), path: vscode.workspace.asRelativePath(uri, false) }))
    // Names that start with the query first, then shorter paths.
    .sort((a, b) => rank(a.path, lower) - rank(b.path, lower) || a.path.length - b.path.length)
    .slice(0, MAX_MENTION_RESULTS);
}

function rank(file: string, query: string): number {
  const base = path.basename(file).toLowerCase();
  return base.startsWith(query) ? 0 : base.includes(query) ? 1 : 2;
}

function escapeGlob(char: string): string {
  return /[\\*?{}[\]]/.test(char) ? `[${char}]` : char;
}

export function fileAttachment(uri: string, name: string, embed = false): Attachment {
  return { kind: "file", id: attachmentId("file"), uri, name, ...(embed ? { embed: true } : {}) };
}

/** The active editor's selection (or, with none, its current line) as an attachment. */
export function selectionAttachment(editor = lastEditor()): Attachment | undefined {
  if (!editor) return undefined;
  const selection = editor.selection;
  const range = selection.isEmpty ? editor.document.lineAt(selection.active.line).range : selection;
  const text = editor.document.getText(range);
  if (!text.trim()) return undefined;
  // A selection ending at column 0 of a line does not include that line.
  const endLine = range.end.character === 0 && range.end.line > range.start.line ? range.end.line : range.end.line + 1;
  return {
    kind: "selection",
    id: attachmentId("sel"),
    uri: editor.document.uri.toString(),
    name: `${path.basename(editor.document.uri.path)}:${range.start.line + 1}-${endLine}`,
    text,
    startLine: range.start.line + 1,
    endLine,
    languageId: editor.document.languageId,
  };
}

export function activeFileAttachment(editor = lastEditor()): Attachment | undefined {
  if (!editor) return undefined;
  return fileAttachment(editor.document.uri.toString(), path.basename(editor.document.uri.path), true);
}

export function imageAttachment(mimeType: string, data: string, name: string): Attachment {
  return { kind: "image", id: attachmentId("img"), mimeType, data: data.replace(/^data:[^,]*,/, ""), name: name || "pasted image" };
}

/** A document's current text by URI string (unsaved edits included). */
export async function documentText(uri: string): Promise<string> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
  return document.getText();
}

/** Opens a file (absolute, file: URI, or relative to the workspace) at a 1-based line. */
export async function openLocation(target: string, line?: number): Promise<void> {
  const uri = resolveFile(target);
  const document = await vscode.workspace.openTextDocument(uri);
  const at = line && line > 0 ? new vscode.Position(Math.min(line - 1, document.lineCount - 1), 0) : undefined;
  await vscode.window.showTextDocument(document, { preview: true, ...(at ? { selection: new vscode.Range(at, at) } : {}) });
}

/** Web links open in the browser; file links and relative paths open in the editor. */
export async function openLink(href: string): Promise<void> {
  if (/^https?:/i.test(href) || /^mailto:/i.test(href)) {
    await vscode.env.openExternal(vscode.Uri.parse(href));
    return;
  }
  if (/^[a-z][\w+.-]*:/i.test(href) && !/^file:/i.test(href)) return; // command:, javascript:, … never
  const match = /^(.*?)(?:#L(\d+)(?:-\d+)?)?$/.exec(href);
  await openLocation(decodeURIComponent(match?.[1] ?? href), match?.[2] ? Number(match[2]) : undefined);
}

function resolveFile(target: string): vscode.Uri {
  if (/^file:/i.test(target)) return vscode.Uri.parse(target);
  if (path.isAbsolute(target)) return vscode.Uri.file(target);
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder ? vscode.Uri.joinPath(folder.uri, target) : vscode.Uri.file(path.resolve(target));
}

export async function insertAtCursor(text: string): Promise<void> {
  const editor = lastEditor();
  if (!editor) {
    void vscode.window.showInformationMessage("Open a file to insert the code into.");
    return;
  }
  await editor.edit((edit) => {
    for (const selection of editor.selections) edit.replace(selection, text);
  });
}

/** The editor the user works in; with the chat in an editor tab, the visible one beside it. */
function lastEditor(): vscode.TextEditor | undefined {
  return vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme !== "output");
}
