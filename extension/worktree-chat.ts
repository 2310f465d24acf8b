// "New chat in a worktree": asks for the branch (optional: empty lets Hermes name it
// `hermes/<id>-session`), then opens the chat in its own git worktree (docs/worktrees.md).
import * as vscode from "vscode";
import type { ChatController } from "./chat-controller";

/** A branch name git would take, roughly (git check-ref-format has the final word, on the agent's side). */
export function branchProblem(name: string): string | undefined {
  if (/\s/.test(name)) return "A branch name has no spaces.";
  if (/(^[-/.])|([/.]$)|\.\.|[~^:?*[\\]|@\{|\/\//.test(name)) return "That is not a valid git branch name.";
  return undefined;
}

/** Undefined when the user dismissed the question. */
async function askBranch(): Promise<{ branch?: string } | undefined> {
  const answer = await vscode.window.showInputBox({
    title: "New chat in a worktree",
    prompt: "Branch for the chat's worktree (leave empty and Hermes names it)",
    placeHolder: "hermes/… (automatic)",
    validateInput: (value) => (value.trim() ? branchProblem(value.trim()) : undefined),
  });
  if (answer === undefined) return undefined;
  return answer.trim() ? { branch: answer.trim() } : {};
}

export async function newWorktreeChat(chat: ChatController): Promise<void> {
  const worktree = await askBranch();
  if (!worktree) return;
  await chat.newChat({ worktree });
}
