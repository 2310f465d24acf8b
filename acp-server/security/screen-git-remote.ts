// A push to a remote this very line adds or repoints (`git remote add x URL && git push x
// --all`, `git remote set-url origin URL; git push`, `git config remote.x.url URL`), or to a
// URL given on the spot (`git push https://host/repo.git main`): the code goes to a host the
// user never configured. Each asks ("git-push-new-remote").
import type { SimpleCommand } from "./shell-parse";
import { firstSubcommand, type Screen } from "./screen-rule";
import { valueOptionsOf } from "./programs/tables";

/** A remote given as a URL or scp-style address (`https://…`, `git@host:repo`, `ext::…`), not a name. */
const REMOTE_URL = /^[a-z][\w+.-]*:\/\/|^[\w.-]+@[\w.-]+:|^[\w.-]+::/i;

/** The git subcommand and its words after the global options (`git -C x remote add …` → remote, [add, …]). */
function gitWords(cmd: SimpleCommand): { sub: string | undefined; rest: string[] } {
  return firstSubcommand(cmd.args, valueOptionsOf("git"));
}

/** Remote names this line adds or points somewhere new, before `upTo`. */
function remotesSetBefore(all: SimpleCommand[], upTo: SimpleCommand): Set<string> {
  const names = new Set<string>();
  for (const c of all) {
    if (c === upTo) break;
    if (c.program !== "git") continue;
    const { sub, rest } = gitWords(c);
    const operands = rest.filter((a) => !a.startsWith("-"));
    // `remote add [-t BRANCH] [-m HEAD] NAME URL`: the name is the word before the URL, whatever options came first.
    if (sub === "remote" && operands[0] === "add") names.add(operands[operands.length - 2] ?? "");
    if (sub === "remote" && operands[0] === "set-url") names.add(operands[1] ?? "");
    if (sub === "remote" && operands[0] === "rename") names.add(operands[2] ?? "");
    // `git config remote.x.url URL`, `git config --add remote.x.pushurl URL`.
    if (sub === "config") for (const o of operands) {
      const m = /^remote\.(.+)\.(url|pushurl)$/i.exec(o);
      if (m?.[1]) names.add(m[1]);
    }
  }
  names.delete("");
  return names;
}

/** Settings that send a push somewhere else: a remote's URL, or a URL rewrite that applies to every remote. */
const REDIRECTING_SETTING = /^(remote\.[^=]+\.(url|pushurl)|url\..+\.(insteadof|pushinsteadof))(=|$)/i;

/** `git -c remote.origin.url=URL push`, `git config url.URL.insteadOf …` earlier: where the push goes is rewritten. */
function pushRedirected(all: SimpleCommand[], push: SimpleCommand): boolean {
  const globals = push.args.slice(0, push.args.indexOf("push"));
  if (globals.some((a, i) => (globals[i - 1] === "-c" && REDIRECTING_SETTING.test(a)) || (/^-c./.test(a) && REDIRECTING_SETTING.test(a.slice(2))))) return true;
  for (const c of all) {
    if (c === push) break;
    const { sub, rest } = c.program === "git" ? gitWords(c) : { sub: undefined, rest: [] };
    if (sub === "config" && rest.some((a) => /^url\..+\.(insteadof|pushinsteadof)$/i.test(a))) return true;
  }
  return false;
}

export function checkPushToNewRemote(s: Screen, cmd: SimpleCommand, all: SimpleCommand[]): void {
  if (cmd.program !== "git") return;
  const { sub, rest } = gitWords(cmd);
  if (sub !== "push") return;
  if (pushRedirected(all, cmd)) {
    s.add("dangerous", "git-push-new-remote", "git push goes where a setting of this command line points it (a remote's URL or a URL rewrite)");
    return;
  }
  const operands = rest.filter((a, i) => !a.startsWith("-") && !/^(-o|--push-option|--repo|--receive-pack|--exec)$/.test(rest[i - 1] ?? ""));
  const repoAt = rest.indexOf("--repo");
  const repoOption = rest.find((a) => a.startsWith("--repo="))?.slice(7) ?? (repoAt >= 0 ? rest[repoAt + 1] : undefined);
  const remote = repoOption ?? operands[0] ?? "";
  const fresh = remotesSetBefore(all, cmd);
  if (REMOTE_URL.test(remote)) s.add("dangerous", "git-push-new-remote", `git push sends commits to ${remote}, a URL given in the command rather than a configured remote`);
  // `git push` with no remote pushes to the branch's remote, which the line may have just repointed.
  else if (fresh.has(remote) || (remote === "" && fresh.size > 0)) s.add("dangerous", "git-push-new-remote", `git push sends commits to ${remote || [...fresh].join(", ")}, a remote this command line adds or points at a new URL`);
}
