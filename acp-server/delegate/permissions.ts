// A child's permission requests reach the user through the parent session, on the parent's
// delegate_task call, with the child named in the title. One prompt at a time per delegate_task
// call (several children may ask at once). Nothing is approved without the user unless
// delegation.auto_approve is set.
import type { DelegationCall, PermissionAnswer, ToolCallView } from "../agent/turn-io";
import type { PermissionAsk } from "../tools/context";

export type AskParent = (call: ToolCallView, ask: PermissionAsk, signal: AbortSignal) => Promise<PermissionAnswer>;

/** Asks the user on behalf of children of one delegate_task call, one question at a time. */
export function parentAsker(
  parent: DelegationCall,
  autoApprove: boolean,
  /** Runs right before the user is asked (the card is brought up to date). */
  beforeAsk: () => void = () => {},
): (label: string, call: Omit<ToolCallView, "id" | "requestId" | "name">, ask: PermissionAsk, signal: AbortSignal) => Promise<PermissionAnswer> {
  let queue: Promise<unknown> = Promise.resolve();
  return (label, call, ask, signal) => {
    if (autoApprove) return Promise.resolve("allow_once");
    const title = `${label}: ${ask.title}`;
    // The request names the parent's card (the one the editor shows); the child's call is the content.
    const view: ToolCallView = { ...parent.call, title, kind: call.kind, rawInput: call.rawInput, locations: call.locations };
    const answer = queue.then(() => {
      if (signal.aborted) return "reject" as const;
      beforeAsk();
      return parent.host.askUser(view, { ...ask, title }, signal);
    });
    queue = answer.catch(() => {}); // expected: the queue only orders the questions; the caller gets the same rejection from `answer`
    return answer;
  };
}
