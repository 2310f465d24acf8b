// FileAccess on the local disk, used when the client does not serve fs/* itself.
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { FileNotFoundError, type FileAccess } from "./context";

export class LocalFileAccess implements FileAccess {
  readonly viaEditor = false;

  async readText(file: string): Promise<string> {
    try {
      return await readFile(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new FileNotFoundError(file);
      throw error;
    }
  }

  async writeText(file: string, content: string): Promise<void> {
    await mkdir(path.dirname(file), { recursive: true });
    // Write a sibling temp file and rename, so a crash never leaves a half-written file.
    const temp = path.join(path.dirname(file), `.${path.basename(file)}.hermes-${process.pid}-${Date.now()}.tmp`);
    await writeFile(temp, content, "utf8");
    await rename(temp, file);
  }
}
