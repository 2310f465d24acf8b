// Reads awk and sed command lines the way the programs do, for the command screen and the
// read-only list: where the program text really is (after option values such as `-v c=...`),
// which options load code from files (`-f`, `--file`, `-E`, `-i`/`--include`, `-l`, `@load`),
// and, for sed, which script commands run shell commands (`e`, `s///e`) or write files
// (`w FILE`, `W`, `s///w FILE`). GNU sed needs no space after `e`/`w` (`1erm -rf ~`).

import { programEntry } from "./programs/registry";

export interface AwkParts {
  /** Program texts (the first operand, or every `-e`/`--source`). */
  programs: string[];
  /** Why code comes from somewhere screening cannot read (`-f evil.awk`, `-i inplace`, `@load`). */
  loadsCode: string[];
  /** `-i inplace` / `--include=inplace`: the input files are rewritten. */
  inplace: boolean;
  /** Operands after the program: input files (and `var=value` assignments). */
  files: string[];
}

// awk's options, from its registry entry: those with a value, those naming code to load, those carrying program text.
const AWK = programEntry("awk");
const AWK_VALUE = new Set(AWK?.valueOptions);
const AWK_CODE_FILE = new Set(AWK?.codeFileOptions);
const AWK_SOURCE = new Set(AWK?.codeOptions);

export function parseAwk(args: string[]): AwkParts {
  const parts: AwkParts = { programs: [], loadsCode: [], inplace: false, files: [] };
  let fromFile = false;
  let k = 0;
  const takeCode = (opt: string, value: string | undefined) => {
    if (AWK_SOURCE.has(opt)) parts.programs.push(value ?? "");
    else {
      if ((opt === "-i" || opt === "--include") && /^inplace(\.awk)?$/.test(value ?? "")) parts.inplace = true;
      else parts.loadsCode.push(`${opt} ${value ?? ""}`.trim());
      if (opt === "-f" || opt === "--file" || opt === "-E" || opt === "--exec") fromFile = true;
    }
  };
  for (; k < args.length; k++) {
    const a = args[k]!; // k < args.length
    if (a === "--") {
      k++;
      break;
    }
    if (!a.startsWith("-") || a === "-") break;
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const name = eq < 0 ? a : a.slice(0, eq);
      const value = eq < 0 ? undefined : a.slice(eq + 1);
      if (AWK_CODE_FILE.has(name) || AWK_SOURCE.has(name)) takeCode(name, value ?? args[++k]);
      else if (AWK_VALUE.has(name) && value === undefined) k++;
      continue;
    }
    const opt = a.slice(0, 2);
    const glued = a.length > 2 ? a.slice(2) : undefined;
    if (AWK_CODE_FILE.has(opt) || AWK_SOURCE.has(opt)) takeCode(opt, glued ?? args[++k]);
    else if (AWK_VALUE.has(opt) && glued === undefined) k++;
  }
  const program = args[k];
  if (!fromFile && parts.programs.length === 0 && program !== undefined) {
    parts.programs.push(program);
    k++;
  }
  parts.files = args.slice(k);
  for (const prog of parts.programs) if (/@(load|include|namespace)\b/.test(prog)) parts.loadsCode.push("@load/@include");
  return parts;
}

export interface SedParts {
  scripts: string[];
  /** `-f FILE`: a script screening cannot read. */
  scriptFiles: string[];
  inPlace: boolean;
  /** The input files (with -i, the files it rewrites). */
  files: string[];
}

export function parseSed(args: string[]): SedParts {
  const parts: SedParts = { scripts: [], scriptFiles: [], inPlace: false, files: [] };
  let explicit = false;
  const operands: string[] = [];
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!; // k < args.length
    if (a === "--") {
      operands.push(...args.slice(k + 1));
      break;
    }
    if (!a.startsWith("-") || a === "-") {
      operands.push(a);
      continue;
    }
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const name = eq < 0 ? a : a.slice(0, eq);
      const value = eq < 0 ? undefined : a.slice(eq + 1);
      if (name === "--expression") {
        parts.scripts.push(value ?? args[++k] ?? "");
        explicit = true;
      } else if (name === "--file") {
        parts.scriptFiles.push(value ?? args[++k] ?? "");
        explicit = true;
      } else if (name === "--in-place") parts.inPlace = true;
      else if (name === "--line-length" && value === undefined) k++;
      continue;
    }
    for (let c = 1; c < a.length; c++) {
      const letter = a.charAt(c);
      if (letter === "i") {
        parts.inPlace = true;
        break; // the rest is the backup suffix
      }
      if (letter === "e" || letter === "f" || letter === "l") {
        const value = c + 1 < a.length ? a.slice(c + 1) : args[++k] ?? "";
        if (letter === "e") parts.scripts.push(value);
        else if (letter === "f") parts.scriptFiles.push(value);
        if (letter !== "l") explicit = true;
        break;
      }
    }
  }
  const [first] = operands;
  if (!explicit && first !== undefined) parts.scripts.push(first);
  parts.files = explicit ? operands : operands.slice(1);
  return parts;
}

export interface SedEffects {
  /** The script runs shell commands (`e`, `s///e`). */
  runs: boolean;
  /** Files the script writes (`w`, `W`, `s///w`). */
  writes: string[];
}

const ADDRESS = /^\s*(?:\d+|\$|\/(?:\\.|[^/\\])*\/[IM]*|\\(.)(?:\\.|(?!\1).)*\1[IM]*)?(?:~\d+)?(?:\s*,\s*(?:\d+|\$|\/(?:\\.|[^/\\])*\/[IM]*|[+~]\d+))?\s*!?\s*/;

/** What one sed script does beyond printing, read as sed parses it. */
export function sedEffects(script: string): SedEffects {
  const effects: SedEffects = { runs: false, writes: [] };
  for (const line of script.split("\n")) {
    let rest = line;
    for (let guard = 0; guard < 256 && rest.length > 0; guard++) {
      rest = rest.replace(/^[\s;{}]+/, "");
      if (rest === "") break;
      const addr = ADDRESS.exec(rest);
      rest = rest.slice(addr ? addr[0].length : 0);
      const cmd = rest[0];
      rest = rest.slice(1);
      if (cmd === undefined) break;
      if (cmd === "e") {
        effects.runs = true;
        break;
      }
      if (cmd === "w" || cmd === "W") {
        effects.writes.push(rest.trim());
        break;
      }
      if ("aicrRbtTvlLqQ:#".includes(cmd)) {
        // Text, file names and labels run to the end of the line (labels to `;` in GNU sed).
        if ("btT:".includes(cmd)) {
          const semi = rest.indexOf(";");
          rest = semi < 0 ? "" : rest.slice(semi + 1);
          continue;
        }
        break;
      }
      if (cmd === "s" || cmd === "y") {
        const delim = rest[0];
        let i = 1;
        for (let part = 0; part < 2 && i <= rest.length; part++) {
          while (i < rest.length && rest[i] !== delim) i += rest[i] === "\\" ? 2 : 1;
          i++;
        }
        rest = rest.slice(i);
        if (cmd === "s") {
          const flags = /^[gpIiMm0-9e]*/.exec(rest)?.[0] ?? "";
          if (flags.includes("e")) effects.runs = true;
          rest = rest.slice(flags.length);
          if (rest[0] === "w") {
            effects.writes.push(rest.slice(1).trim());
            break;
          }
        }
        continue;
      }
      // Any other one-letter command (p, d, n, N, g, G, h, H, x, =, z, F, D, P): go on.
    }
  }
  return effects;
}
