// Process-wide zod settings, applied by `hermes acp` (runAcpServer) before any schema is built:
// zod reads them when it constructs a schema. (Other commands keep zod's defaults; validation is
// the same either way.)
import * as z from "zod";

/**
 * jitless: zod compiles a parser (`new Function`) for each object schema the first time it is
 * used. On a start that cost lands on the first requests (config.yaml, the ACP SDK's messages,
 * a first session/new): several ms of compiling for code that runs a handful of times. Without it
 * a parse costs a few µs more, which no request or tool call notices. Validation is the same.
 */
export function configureZod(): void {
  z.config({ jitless: true });
}
