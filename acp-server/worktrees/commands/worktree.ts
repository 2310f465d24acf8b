// /worktree: the git worktree this session works in (branch, what changed against where it
// started, ahead/behind the main checkout); `/worktree apply [--merge | --squash]` brings the work
// into the main checkout (default: as uncommitted changes to review and commit; --merge: committed
// on the session's branch and merged; --squash: one commit on the checkout's branch), refusing with the files named when it would conflict;
// `/worktree discard` removes the worktree and its branch after asking.
import { defineCommand, type CommandContext } from "../../runtime/slash-command";
import type { SessionWorktree } from "../../sessions/types";

export const worktreeCommand = defineCommand({
  name: "worktree",
  description: "This chat's git worktree: what changed; apply [--merge | --squash] brings it into your checkout; discard removes it",
  hint: "[apply [--merge [--accept-branch] | --squash] | discard]",
  run: async (context) => {
    const { session, output, argument } = context;
    const worktree = session.worktree;
    if (!worktree) return output.say("This chat works in your folder itself, not in a worktree. Start a chat in a worktree from the panel, with `hermes chat -w`, or with `_meta[\"hermes/worktree\"]` on session/new.");
    const [verb, ...flags] = argument.split(/\s+/).filter(Boolean);
    if (!verb) return output.say(await describe(worktree));
    const modes = { "--patch": "patch", "--merge": "merge", "--squash": "squash" } as const;
    if (verb === "apply" && flags.length === 2 && flags[0] === "--merge" && flags[1] === "--accept-branch") return apply(context, worktree, "merge", true);
    if (verb === "apply" && flags.length <= 1 && flags.every((flag) => flag in modes)) return apply(context, worktree, flags[0] ? modes[flags[0] as keyof typeof modes] : "patch");
    if (verb === "discard" && flags.length === 0) return discard(context, worktree);
    return output.say("Usage: `/worktree`, `/worktree apply [--merge [--accept-branch] | --squash]` or `/worktree discard`.");
  },
});

async function describe(worktree: SessionWorktree): Promise<string> {
  const { worktreeState } = await import("../worktree-manage");
  const state = await worktreeState(worktree);
  if (!state.exists) return `This chat's worktree (${worktree.path}) is gone.`;
  const lines = [`This chat works on branch \`${worktree.branch}\` in \`${worktree.path}\`, started from ${worktree.base.slice(0, 10)}.`];
  lines.push(state.files.length ? `Changed against that start (${state.files.length} file${state.files.length === 1 ? "" : "s"}):\n\n\`\`\`\n${state.stat}\n\`\`\`` : "Nothing changed yet.");
  lines.push(`Your checkout (${worktree.repo}) is ${state.behind} commit${state.behind === 1 ? "" : "s"} ahead of the start; the branch has ${state.ahead} commit${state.ahead === 1 ? "" : "s"} of its own.`);
  if (state.files.length) lines.push("`/worktree apply` brings the changes into your checkout as uncommitted changes; `/worktree apply --merge` commits and merges them.");
  const { branchMovedElsewhere } = await import("../../security/worktree-branch-tip");
  const moved = await branchMovedElsewhere(worktree.path, worktree.branch);
  if (moved?.noted) lines.push(`⚠ The branch is not where this chat left it (${moved.noted.slice(0, 10)}): something else moved it to ${moved.now.slice(0, 10)}. \`/worktree apply --merge\` refuses until you check it.`);
  else if (moved) lines.push(`⚠ Hermes has no note of where this chat left its branch (a worktree made by an older Hermes, or the note was removed), so \`/worktree apply --merge\` refuses until you check \`git log\` of the branch; \`/worktree apply\` is not affected.`);
  return lines.join("\n\n");
}

async function apply({ session, output }: CommandContext, worktree: SessionWorktree, mode: "patch" | "merge" | "squash", acceptMovedBranch = false): Promise<void> {
  const { applyWorktree } = await import("../worktree-apply");
  const outcome = await applyWorktree(worktree, mode, session.agent.title ?? `Hermes chat ${session.id.slice(0, 8)}`, undefined, {}, { acceptMovedBranch });
  if (outcome.status === "nothing") return output.say("Nothing to apply: the worktree has no changes against where it started.");
  const list = (files: string[]) => files.map((file) => `- \`${file}\``).join("\n");
  if (outcome.status === "refused") return output.say(`Not applied: ${outcome.reason}. Nothing was changed, here or in your checkout.\n\n${list(outcome.files)}`);
  const how = outcome.mode === "merge" ? `merged branch \`${worktree.branch}\` into` : outcome.mode === "squash" ? "committed as one commit (squashed) in" : "applied as uncommitted changes to";
  const kept = outcome.kept.length ? `\n\nLeft as your checkout had them (the rest is applied; this chat's versions stay in its worktree):\n${outcome.kept.map((entry) => `- \`${entry.file}\`: ${entry.reason}`).join("\n")}` : "";
  output.say(`Done: ${how} ${worktree.repo} (${outcome.files.length} file${outcome.files.length === 1 ? "" : "s"}).\n\n${list(outcome.files)}${kept}`);
}

async function discard({ session, output, client, signal }: CommandContext, worktree: SessionWorktree): Promise<void> {
  const [{ worktreeState, removeWorktree }] = await Promise.all([import("../worktree-manage")]);
  const state = await worktreeState(worktree);
  const answer = await client.choose(
    {
      purpose: "worktree-discard",
      title: `Discard this chat's worktree and branch ${worktree.branch}?`,
      content: [{ type: "text", text: state.files.length ? `${state.files.length === 1 ? "1 changed file that was not applied is" : `${state.files.length} changed files that were not applied are`} lost:\n\n${state.stat}` : "It has no changes." }],
      locations: [{ path: worktree.path }],
      options: [
        { id: "discard", name: "Discard worktree and branch", kind: "allow_once" },
        { id: "keep", name: "Keep them", kind: "reject_once" },
      ],
      fallback: "keep",
      timeoutMs: 10 * 60_000,
    },
    signal,
  );
  if (answer !== "discard") return output.say("Kept the worktree and its branch.");
  await removeWorktree(worktree);
  session.worktree = undefined;
  output.say(`Removed the worktree ${worktree.path} and the branch \`${worktree.branch}\`. This chat's history stays; start a new chat to keep working.`);
}
