// Answers the user chose to keep ("always allow", "always reject"): saved under
// approvals.rules in config.yaml, so they hold in every later session and editor. Commands
// are matched by rule key (from the screener), edits by path glob.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseDocument } from "yaml";
import type { ApprovalRule } from "../config/schema";
import type { Logger } from "../util/log";

export type SavedDecision = "allow" | "reject";

export class ApprovalRules {
  constructor(
    private readonly rules: ApprovalRule[],
    private readonly configPath: string,
    private readonly log: Logger,
  ) {}

  /** The saved answer for a command with these rule keys; a rejection wins. */
  forCommand(keys: string[]): SavedDecision | undefined {
    return strongest(this.rules.filter((rule) => "command" in rule && keys.includes(rule.command)));
  }

  /** The saved answer for editing these paths (all must be allowed; any rejection wins). */
  forEdit(paths: string[], cwd: string): SavedDecision | undefined {
    const decisions = paths.map((file) => strongest(this.rules.filter((rule) => "edit" in rule && pathMatches(rule.edit, file, cwd))));
    if (decisions.includes("reject")) return "reject";
    return decisions.length > 0 && decisions.every((d) => d === "allow") ? "allow" : undefined;
  }

  /** Keeps the rule for this process and writes it to config.yaml (comments and layout kept). */
  remember(rule: ApprovalRule): void {
    this.rules.push(rule);
    try {
      let text = "";
      try {
        text = readFileSync(this.configPath, "utf8");
      } catch {
        // no config.yaml yet: start one
      }
      const document = parseDocument(text);
      if (!document.hasIn(["approvals", "rules"])) document.setIn(["approvals", "rules"], document.createNode([]));
      document.addIn(["approvals", "rules"], document.createNode(rule));
      const temp = path.join(path.dirname(this.configPath), `.config.yaml.${process.pid}.tmp`);
      writeFileSync(temp, document.toString());
      renameSync(temp, this.configPath);
      this.log.info("approval rule saved", { rule });
    } catch (error) {
      this.log.error("the approval rule could not be saved to config.yaml; it holds for this process only", { error });
    }
  }
}

function strongest(rules: ApprovalRule[]): SavedDecision | undefined {
  if (rules.some((rule) => rule.decision === "reject")) return "reject";
  return rules.length > 0 ? "allow" : undefined;
}

/** `**` any depth, `*` within one folder, `?` one character; relative globs are workspace-relative. */
export function pathMatches(glob: string, file: string, cwd: string): boolean {
  const target = path.isAbsolute(glob) ? file : path.relative(cwd, file);
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i];
    if (char === "*" && glob[i + 1] === "*") {
      source += ".*";
      i++;
    } else if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else source += char.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`).test(target.split(path.sep).join("/"));
}
