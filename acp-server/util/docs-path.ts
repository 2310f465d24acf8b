// Where a page of Hermes's docs is on this machine: the installed package ships docs/*.md beside
// dist/ and skills/, so messages name a file the user can open, not a path relative to a checkout
// they do not have. From the sources (tests, a development checkout) it is the repository's docs/.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isRegularFile } from "./path-kind";

/** The absolute path of docs/`page` when it is there, else `docs/<page>` as a name to look up. */
export function docsPath(page: string): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth++) {
    const candidate = path.join(dir, "docs", page);
    if (isRegularFile(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return path.join("docs", page);
}
