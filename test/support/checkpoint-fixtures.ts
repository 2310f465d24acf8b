// Helpers for the checkpoint and worktree tests: a workspace + Hermes home pair, writing a tree
// of files, git with a test identity and no user config, a committed repository, and a recursive picture of a folder (paths, types, permission bits, bytes) to compare the
// disk before and after a restore.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { openCheckpointStore, type CheckpointStore, type OpenOptions } from "../../acp-server/checkpoints/store";
import { makeTempDirSync } from "./temp-dirs";

export interface Pair {
  workspace: string;
  home: string;
}

export function makePair(): Pair {
  return { workspace: makeTempDirSync("hermes-cp-ws-"), home: makeTempDirSync("hermes-cp-home-") };
}

export async function openStore(pair: Pair, options: Partial<OpenOptions> = {}): Promise<CheckpointStore> {
  const result = await openCheckpointStore(pair.workspace, { hermesHome: pair.home, ...options });
  if (!result.ok) throw new Error(`checkpoints unavailable: ${result.reason}`);
  return result.store;
}

/** Writes files (parents created); a Buffer is written as is. */
export function writeTree(root: string, files: Record<string, string | Buffer>): void {
  for (const [relative, content] of Object.entries(files)) {
    const file = path.join(root, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

/** path → "dir 755" | "file 644 <sha1>" | "link -> target", recursively, sorted; `skip` names top-level entries left out. */
export function pictureOf(root: string, skip: string[] = []): Record<string, string> {
  const picture: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const absolute = path.join(dir, name);
      const relative = path.relative(root, absolute).split(path.sep).join("/");
      if (skip.includes(relative)) continue;
      const stat = lstatSync(absolute);
      const mode = (stat.mode & 0o777).toString(8);
      if (stat.isSymbolicLink()) picture[relative] = `link -> ${readlinkSync(absolute)}`;
      else if (stat.isDirectory()) {
        picture[relative] = `dir ${mode}`;
        walk(absolute);
      } else picture[relative] = `file ${mode} ${createHash("sha1").update(readFileSync(absolute)).digest("hex")}`;
    }
  };
  walk(root);
  return picture;
}

export function git(cwd: string, ...args: string[]): string {
  const result = spawnSync("git", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" },
  });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${result.stderr}`);
  return result.stdout;
}

/** A new repository on branch main whose one commit holds `files` (the worktree tests' checkout). */
export function committedRepository(prefix: string, files: Record<string, string> = { "shared.txt": "original\n" }): string {
  const repo = makeTempDirSync(prefix);
  git(repo, "init", "-q", "-b", "main");
  writeTree(repo, files);
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "start");
  return repo;
}
