// Command-screen rules for git commands that destroy work: `reset --hard`, force and
// delete pushes, `clean -f`, and force-deleting an unmerged branch.
import { firstSubcommand, shortFlags, type Screen } from "./screen-rule";
import { valueOptionsOf } from "./programs/tables";

export function checkGit(s: Screen, args: string[]): void {
  const { sub, rest } = firstSubcommand(args, valueOptionsOf("git"));
  const { short, long, operands } = shortFlags(rest);
  switch (sub) {
    case "reset":
      if (long.includes("--hard")) s.add("dangerous", "git-reset-hard", "git reset --hard throws away uncommitted changes");
      else if (long.includes("--keep") || long.includes("--merge")) s.add("dangerous", "git-reset-hard", `git reset ${long.includes("--keep") ? "--keep" : "--merge"} moves the branch and rewrites the working tree`);
      break;
    case "rm":
      if (short.includes("f") || long.includes("--force")) s.add("dangerous", "git-rm-force", "git rm -f deletes files even when they have uncommitted changes");
      break;
    case "config":
      if ((long.includes("--global") || long.includes("--system")) && operands.length >= 2) s.add("dangerous", "git-config-global", `git config ${long.includes("--global") ? "--global" : "--system"} changes git's settings for every repository`);
      break;
    case "push":
      if (short.includes("f") || long.some((l) => l === "--force" || l.startsWith("--force-with-lease") || l === "--force-if-includes" || l === "--mirror") || operands.some((o) => o.startsWith("+"))) {
        s.add("dangerous", "git-push-force", "force-push rewrites the remote branch's history and can destroy others' commits");
      }
      if (short.includes("d") || long.includes("--delete") || operands.slice(1).some((o) => o.startsWith(":") && o.length > 1)) {
        s.add("dangerous", "git-push-delete", "git push --delete removes a branch or tag from the remote");
      }
      break;
    case "clean":
      if ((short.includes("f") || long.includes("--force")) && !short.includes("n") && !long.includes("--dry-run")) {
        s.add("dangerous", "git-clean-force", "git clean -f permanently deletes untracked files");
      }
      break;
    case "branch":
      if (short.includes("D") || (short.includes("d") && short.includes("f")) || ((long.includes("--delete") || short.includes("d")) && long.includes("--force"))) {
        s.add("dangerous", "git-branch-force-delete", "git branch -D deletes a branch even if its commits are not merged");
      }
      break;
    default:
      break;
  }
}
