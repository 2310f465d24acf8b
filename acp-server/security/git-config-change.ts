// Whether a change to a repository's config file is harmless: every setting added or removed
// is on a short list of settings that only describe the repository (remotes, branches, the
// identity, line endings) and never name a program. An allowlist, not a list of dangers: a key
// git adds next year (or one we forgot) counts as planted code until it is listed here. This
// keeps `git remote add`, `git branch -u` and `git submodule add` working after a command,
// while `core.fsmonitor`, `core.hooksPath`, aliases, filters and includes are undone.
import { execFileSync } from "node:child_process";

const HARMLESS_KEY = new RegExp(
  [
    "core\\.(repositoryformatversion|filemode|bare|logallrefupdates|ignorecase|precomposeunicode|symlinks|autocrlf|eol|safecrlf|quotepath|checkstat|trustctime|worktree|sparsecheckout|sparsecheckoutcone)",
    "remote\\..+\\.(url|pushurl|fetch|push|tagopt|prune|prunetags|mirror|skipdefaultupdate|promisor|partialclonefilter)",
    "branch\\..+\\.(remote|pushremote|merge|rebase|description)",
    "submodule\\..+\\.(url|active|branch)",
    "user\\.(name|email|signingkey)",
    "(commit|tag)\\.gpgsign",
    "merge\\.ff",
    "rebase\\.(autosquash|autostash)",
    "rerere\\.enabled",
    "color\\.ui",
    "status\\.showuntrackedfiles",
    "diff\\.renames",
    "init\\.defaultbranch",
    "pull\\.(rebase|ff)",
    "push\\.(default|autosetupremote)",
    "fetch\\.prune",
    "gc\\.(auto|autodetach)",
    "extensions\\.objectformat",
  ]
    .map((alternative) => `(?:${alternative})`)
    .join("|")
    .replace(/^/, "^(?:")
    .concat(")$"),
  "i",
);

export function harmlessConfigKey(key: string): boolean {
  return !key.includes("\n") && HARMLESS_KEY.test(key);
}

/** The settings in a config file's text, as "key\nvalue" lines; undefined when git cannot read it (fail closed). */
export function configSettings(text: Buffer): string[] | undefined {
  try {
    // --file - reads the text from stdin; includes are not followed (the default for --file).
    // A clean environment: nothing of the user's or system's config is mixed in.
    const listed = execFileSync("git", ["config", "--no-includes", "--file", "-", "--list", "-z"], {
      input: text,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", HOME: "/nonexistent" },
      // Away from the workspace: git looks for a repository where it runs, and must find none of ours.
      cwd: "/",
      timeout: 5_000,
      stdio: ["pipe", "pipe", "ignore"],
    });
    return listed.toString("utf8").split("\0").filter((entry) => entry !== "");
  } catch {
    // expected: no git, or text git cannot parse: the change is treated as planted
    return undefined;
  }
}

/** The keys whose settings differ between two config texts and are not harmless; undefined when either cannot be read. */
export function plantedConfigKeys(before: Buffer | undefined, after: Buffer): string[] | undefined {
  const old = before === undefined ? [] : configSettings(before);
  const now = configSettings(after);
  if (old === undefined || now === undefined) return undefined;
  const count = (list: string[]) => list.reduce((map, entry) => map.set(entry, (map.get(entry) ?? 0) + 1), new Map<string, number>());
  const was = count(old);
  const is = count(now);
  const changed = [...new Set([...was.keys(), ...is.keys()])].filter((entry) => was.get(entry) !== is.get(entry));
  const keys = changed.map((entry) => entry.split("\n")[0] ?? entry);
  return [...new Set(keys.filter((key) => !harmlessConfigKey(key)))];
}
