// `_hermes/queue/changed` as the extension checks it (a notification that does not match is
// dropped): the shapes of queue-wire.ts, with queue ids refined.
import * as z from "zod";
import { isQueueId, type QueueChanged } from "./queue-wire";

export const queueChangedSchema: z.ZodType<QueueChanged> = z.object({
  sessionId: z.string(),
  prompts: z.array(z.object({ id: z.string().refine(isQueueId, "not a queue id"), text: z.string() })),
});
