// Answers the user chose to keep ("always allow", "always reject"): saved under
// approvals.rules in config.yaml, so they hold in every later session and editor. A command
// rule names exactly the commands its card showed and the folder they ran in
// (approval-scope.ts); a rule key alone (saved by older versions) covers only commands that name
// no path and no secret. Edits are matched by path glob (Hermes saves the exact file).
import { editConfigFile } from "../config/config-edit";
import type { ApprovalRule } from "../config/schema";
import type { Logger } from "../util/log";
import { wholePathMatches } from "../util/path-match";
import { yaml } from "../util/yaml";
import { scopeCovers, scopeOverlaps, type CommandScope } from "./approval-scope-match";

export type SavedDecision = "allow" | "reject";

export class ApprovalRules {
  private readonly rules: ApprovalRule[];

  constructor(
    rules: readonly ApprovalRule[],
    private readonly configPath: string,
    private readonly log: Logger,
  ) {
    // Our own copy: remember() adds to it, and the config's list may be zod's shared default
    // array, which would carry one runtime's unsaved rules into the next in the same process.
    this.rules = [...rules];
  }

  /**
   * The saved answer for a command line with these rule keys and this scope (undefined: it has
   * none, so only rejections apply). Any rejection wins: a rule key rejected, or a rejected
   * command among the line's. "allow" needs one saved approval whose commands and keys cover
   * the whole line, or, from older versions, an allow for every key when `legacyMayCover`.
   */
  forCommand(keys: string[], scope: CommandScope | undefined, legacyMayCover: boolean): SavedDecision | undefined {
    const byKey = (key: string) => this.rules.filter((rule) => "command" in rule && rule.command === key);
    if (keys.some((key) => byKey(key).some((rule) => rule.decision === "reject"))) return "reject";
    if (!scope) return undefined;
    const scoped = this.rules.filter((rule): rule is Extract<ApprovalRule, { commands: string[] }> => "commands" in rule);
    if (scoped.some((rule) => rule.decision === "reject" && scopeOverlaps(rule, scope))) return "reject";
    if (scoped.some((rule) => rule.decision === "allow" && scopeCovers(rule, scope))) return "allow";
    if (legacyMayCover && keys.length > 0 && keys.every((key) => byKey(key).some((rule) => rule.decision === "allow"))) return "allow";
    return undefined;
  }

  /** The saved answer for editing these paths (all must be allowed; any rejection wins). */
  forEdit(paths: string[], cwd: string): SavedDecision | undefined {
    const decisions = paths.map((file) => strongest(this.rules.filter((rule) => "edit" in rule && wholePathMatches(rule.edit, file, cwd))));
    if (decisions.includes("reject")) return "reject";
    return decisions.length > 0 && decisions.every((d) => d === "allow") ? "allow" : undefined;
  }

  /** The saved answer for web_fetch reaching `host` (`*.example.com` rules cover subdomains; any rejection wins). */
  forWeb(host: string): SavedDecision | undefined {
    const name = host.toLowerCase().replace(/\.$/, "");
    return strongest(this.rules.filter((rule) => "web" in rule && hostMatches(rule.web.toLowerCase(), name)));
  }

  /**
   * Keeps the rule for this process and adds it to config.yaml. Returns undefined when it was
   * saved, else a sentence for the user saying why it holds for this process only.
   */
  remember(rule: ApprovalRule): string | undefined {
    this.rules.push(rule);
    const problem = saveRule(this.configPath, rule);
    if (problem === undefined) {
      this.log.info("approval rule saved", { rule });
      return undefined;
    }
    this.log.warn(`approval rule not saved to config.yaml (${problem}); it holds for this process only`, { rule });
    return `Your "always" answer holds until Hermes restarts: it was not saved because ${problem}.`;
  }
}

/**
 * Adds `rule` under approvals.rules in config.yaml, in place: the file is edited as a YAML
 * document (comments, key order and every other setting kept), under the lock every writer
 * of config.yaml takes, written atomically, and through a symlink (the link stays a link).
 * A config that cannot be read or parsed is never overwritten. Returns why it was not saved.
 */
export function saveRule(configPath: string, rule: ApprovalRule): string | undefined {
  const { isMap, isSeq } = yaml();
  return editConfigFile(configPath, (document) => {
    const approvals = document.get("approvals");
    if (approvals !== undefined && approvals !== null && !isMap(approvals)) return `approvals in ${configPath} is not a mapping`;
    const rules = document.getIn(["approvals", "rules"]);
    if (!isMap(approvals)) document.set("approvals", document.createNode({ rules: [rule] }));
    else if (rules === undefined || rules === null) approvals.set("rules", document.createNode([rule]));
    else if (isSeq(rules)) rules.add(document.createNode(rule));
    else return `approvals.rules in ${configPath} is not a list`;
    return undefined;
  });
}


function hostMatches(pattern: string, host: string): boolean {
  return pattern.startsWith("*.") ? host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1 : pattern === host;
}

function strongest(rules: ApprovalRule[]): SavedDecision | undefined {
  if (rules.some((rule) => rule.decision === "reject")) return "reject";
  return rules.length > 0 ? "allow" : undefined;
}
