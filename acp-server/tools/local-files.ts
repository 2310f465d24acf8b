// FileAccess on the local disk, used when the client does not serve fs/* itself.
import { chmod, mkdir, readFile, realpath, rename, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { AgentError } from "../util/agent-error";
import { FileNotFoundError, type FileAccess } from "./context";

export class LocalFileAccess implements FileAccess {
  readonly viaEditor = false;

  async readText(file: string): Promise<string> {
    try {
      return await readFile(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new FileNotFoundError(file);
      throw diskFailure(error);
    }
  }

  /**
   * Writes a sibling temp file and renames it over the target, so a crash never leaves a
   * half-written file. A symlink is followed (the link stays a link) and an existing
   * file keeps its permissions (an edited script stays executable).
   */
  async writeText(file: string, content: string): Promise<void> {
    const target = await realpath(file).catch(() => file);
    await mkdir(path.dirname(target), { recursive: true });
    const mode = (await stat(target).catch(() => undefined))?.mode;
    const temp = path.join(path.dirname(target), `.${path.basename(target)}.hermes-${process.pid}-${Date.now()}.tmp`);
    try {
      await writeFile(temp, content, "utf8");
      if (mode !== undefined) await chmod(temp, mode & 0o7777);
      await rename(temp, target);
    } catch (error) {
      await unlink(temp).catch(() => {});
      throw diskFailure(error);
    }
  }
}

/** A disk error (EACCES, EISDIR, ENOSPC, ...) as a member of the error union, its message unchanged. */
function diskFailure(error: unknown): AgentError {
  const code = (error as NodeJS.ErrnoException).code;
  return new AgentError("internal", (error as Error).message ?? String(error), code ? { code } : {}, { cause: error });
}
