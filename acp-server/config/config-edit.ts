// Edits config.yaml in place as a YAML document: comments, key order and every other setting
// are kept; the write is atomic, under the lock every writer of config.yaml takes, and goes
// through a symlink (the link stays a link). A file that cannot be read or parsed is never
// overwritten: the edit returns why instead.
import fs from "node:fs";
import path from "node:path";
import type { Document } from "yaml";
import { writeFileAtomicSync } from "../util/atomic-write";
import { withFileLock } from "../util/file-lock";
import { yaml } from "../util/yaml";

/** Runs `edit` on the parsed document and writes it back; returns why not, or undefined when written. */
export function editConfigFile(configPath: string, edit: (document: Document) => string | undefined): string | undefined {
  let target: string;
  try {
    target = fs.realpathSync(configPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") return `${configPath} cannot be resolved (${describe(error)})`;
    if (fs.lstatSync(configPath, { throwIfNoEntry: false })?.isSymbolicLink()) return `${configPath} is a symlink to a missing file`;
    target = configPath;
  }
  try {
    fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
    return withFileLock(`${target}.lock`, () => {
      let text = "";
      let mode = 0o600;
      try {
        text = fs.readFileSync(target, "utf8");
        mode = fs.statSync(target).mode & 0o777;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") return `${configPath} cannot be read (${describe(error)})`;
      }
      const { isMap, parseDocument } = yaml();
      const document = parseDocument(text);
      if (document.errors.length > 0) return `${configPath} is not valid YAML (${document.errors[0]?.message.split("\n")[0] ?? ""})`;
      if (document.contents !== null && !isMap(document.contents)) return `${configPath} does not hold a mapping at the top level`;
      const problem = edit(document);
      if (problem) return problem;
      writeFileAtomicSync(target, document.toString(), mode);
      return undefined;
    });
  } catch (error) {
    return `${configPath} could not be written (${describe(error)})`;
  }
}

/** Sets `path` (e.g. ["model", "name"]) to `value`, creating the mappings on the way. */
export function setConfigValue(configPath: string, keyPath: string[], value: unknown): string | undefined {
  const { isMap } = yaml();
  return editConfigFile(configPath, (document) => {
    for (let depth = 1; depth < keyPath.length; depth++) {
      const parent = document.getIn(keyPath.slice(0, depth));
      if (parent !== undefined && parent !== null && !isMap(parent)) return `${keyPath.slice(0, depth).join(".")} in ${configPath} is not a mapping`;
    }
    if (value === undefined) document.deleteIn(keyPath);
    else document.setIn(keyPath, value);
    return undefined;
  });
}

const describe = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? (error as Error).message;
