// A tool call as the user sees it (its card) and how it ended. The session records both in its
// journal and the host shows them (turn-io.ts re-exports them as part of the loop's boundary);
// they live apart from turn-io.ts so that the session does not import the boundary that names it.
import type { FullOutput } from "../tools/output-spill";
import type { DisplayContent, Location } from "../tools/context";
import type { ToolKind } from "../tools/registry";

export interface ToolCallView {
  /** Unique within the session. */
  id: string;
  /** The provider's id for the call (as in the assistant message); usually equal to `id`. */
  requestId: string;
  name: string;
  title: string;
  kind: ToolKind;
  locations: Location[];
  rawInput: unknown;
  /** A step of another call (a tool called from inside execute_code's program): that call's id. */
  parentId?: string;
}

export interface ToolCallOutcome {
  status: "completed" | "failed";
  content: DisplayContent[];
  rawOutput: unknown;
  locations?: Location[];
  /** The whole output in a file, when the card shows only part of it. */
  fullOutput?: FullOutput;
  /** The turn was stopped while the call waited or ran: a cancellation, not a failure of the tool. */
  cancelled?: boolean;
}
