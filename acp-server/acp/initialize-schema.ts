// A plain `initialize` request, in zod. The SDK's own schema (zInitializeRequest) is not exported,
// and building it is the start-up cost the early handshake exists to avoid, so this is a strict
// subset of it: what it accepts, the SDK accepts too and answers the same way (our answer reads
// only clientCapabilities.auth.terminal). Anything looser (the SDK falls back to defaults for a
// malformed capability) is left to the SDK.
//
// Cold start: this module is part of the lean CommonJS entry (main.ts, with just the parts of
// zod/mini it uses), so answering initialize never loads the app's shared zod chunk; the schema
// is built on the first line, not at import.
import * as z from "zod/mini";

export interface PlainInitialize {
  id: string | number;
  params: { clientCapabilities?: Record<string, unknown> };
}

let schema: ReturnType<typeof buildSchema> | undefined;

function buildSchema() {
  const flag = z.optional(z.boolean());
  return z.looseObject({
    jsonrpc: z.literal("2.0"),
    id: z.union([z.string(), z.int()]),
    method: z.literal("initialize"),
    params: z.looseObject({
      protocolVersion: z.int().check(z.gte(0), z.lte(65535)),
      clientCapabilities: z.optional(
        z.looseObject({
          fs: z.optional(z.looseObject({ readTextFile: flag, writeTextFile: flag })),
          terminal: flag,
          auth: z.optional(z.looseObject({ terminal: flag })),
        }),
      ),
      clientInfo: z.nullish(z.looseObject({ name: z.string(), version: z.string() })),
    }),
  });
}

/** `message` (parsed JSON) when it is a plain initialize request, else undefined. */
export function checkPlainInitialize(message: unknown): PlainInitialize | undefined {
  const checked = (schema ??= buildSchema()).safeParse(message);
  return checked.success ? { id: checked.data.id, params: checked.data.params } : undefined;
}
