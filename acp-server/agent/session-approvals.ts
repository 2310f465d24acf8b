// What the user allowed for the rest of one session: "allow for this session" answers (and
// "always", which also holds for the rest of the session). Tool grants are keys the gate builds
// ("edit:<file>", "mcp:<server>:<tool>", "web:<host>", ...); command grants are scopes, each exactly
// the commands and folder its card showed (security/approval-scope.ts), never combined.
import { scopeCovers, type CommandScope } from "../security/approval-scope-match";

export class SessionApprovals {
  private readonly grants = new Set<string>();
  private readonly commandGrants: CommandScope[] = [];

  /** Whether the user already allowed all of these for this session. */
  isAllowed(grants: readonly string[]): boolean {
    return grants.every((grant) => this.grants.has(grant));
  }

  allow(grants: readonly string[]): void {
    for (const grant of grants) this.grants.add(grant);
  }

  /** Whether a command line is covered by one command approval given for this session. */
  commandAllowed(scope: CommandScope): boolean {
    return this.commandGrants.some((granted) => scopeCovers(granted, scope));
  }

  allowCommands(scope: CommandScope): void {
    this.commandGrants.push(scope);
  }

  /** What a subagent starts with: everything allowed so far, while later answers stay its own. */
  copy(): SessionApprovals {
    const copy = new SessionApprovals();
    copy.allow([...this.grants]);
    copy.commandGrants.push(...this.commandGrants);
    return copy;
  }
}
