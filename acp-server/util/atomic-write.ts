// Replaces a file so readers only ever see the old or the new whole content: a temp file in
// the same folder (same file system, so rename is atomic), fsync, rename over the target.
import fs from "node:fs";
import path from "node:path";

export function writeFileAtomicSync(file: string, text: string, mode = 0o600): void {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
  try {
    const fd = fs.openSync(temp, "w", mode);
    try {
      fs.writeSync(fd, text);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}
