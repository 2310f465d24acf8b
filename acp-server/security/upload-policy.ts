// Files handed to a web page (browser_upload): the bytes leave the machine for the page's site,
// so the rule is stricter than reading. Inside the workspace they go without a question (like
// read_file); outside it the user is asked each time (nothing remembered), and where nobody is
// asked (Don't ask) or nothing may leave (Plan) it is refused; a credential (~/.ssh, cloud
// stores, .env, $HERMES_HOME's config) never goes, in any mode. Pure.
import path from "node:path";
import type { SessionMode } from "./modes";
import { insideWorkspace, sensitiveReason, type Workspace } from "./sensitive-paths";

/** A PolicyVerdict (permission-policy.ts, which calls this: its type is not imported back, no cycle). */
export interface UploadVerdict {
  decision: "allow" | "ask" | "deny";
  reasons: string[];
  keys: string[];
  sensitive: boolean;
  askEachTime?: boolean;
}

export function uploadVerdict(mode: SessionMode, paths: readonly string[], workspace: Workspace, destination: string): UploadVerdict {
  const refuse = (reason: string): UploadVerdict => ({ decision: "deny", reasons: [reason], keys: [], sensitive: true, askEachTime: true });
  const credentials = paths.flatMap((target) => {
    const reason = sensitiveReason(target);
    return reason ? [`${target} (${reason})`] : [];
  });
  if (credentials.length > 0) return refuse(`Refused: Hermes does not upload credentials to a web page: ${credentials.join("; ")}.`);
  if (mode === "plan") return refuse("Plan mode does not upload files to a web page. Put it in the plan; the user switches mode to act.");
  const outside = paths.filter((target) => !insideWorkspace(workspace, target));
  if (outside.length === 0) return { decision: "allow", reasons: [], keys: [], sensitive: false };
  const named = outside.map((target) => path.normalize(target)).join(", ");
  if (mode === "dont_ask") return refuse(`Refused in Don't ask mode: uploading files from outside the workspace (${named}) needs the user's approval each time. Copy them into the workspace, or ask the user to switch to Default mode.`);
  return { decision: "ask", reasons: [`upload to ${destination} from outside the workspace: ${named}`], keys: [], sensitive: true, askEachTime: true };
}
