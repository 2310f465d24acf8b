// A plain `initialize` request, in zod. The SDK's own schema (zInitializeRequest) is not exported,
// and building it is the start-up cost the early handshake exists to avoid, so this is a strict
// subset of it: what it accepts, the SDK accepts too and answers the same way (our answer reads
// only clientCapabilities.auth.terminal). Anything looser (the SDK falls back to defaults for a
// malformed capability) is left to the SDK.
//
// Cold start: this module is part of the lean CommonJS entry (main.ts), so answering initialize
// never loads the app's shared zod chunk; the schema is built on the first line, not at import.
// It is built from zod's core (zod/v4/core: the schema classes and checks that zod and zod/mini
// both wrap) rather than zod/mini: the same checks and the same parser, without mini's wrapper
// layer on each of the ~25 schema objects, which took about a quarter of the time the entry spends
// building the schema and parsing the first line, and 2.5 KB of the entry. Objects are plain
// (unknown keys pass the check and are not copied to zod's output): the request is taken from the
// message itself once zod has accepted it.
import * as core from "zod/v4/core";

export interface PlainInitialize {
  id: string | number;
  params: { clientCapabilities?: Record<string, unknown> };
}

let schema: core.$ZodType | undefined;

function buildSchema(): core.$ZodType {
  const object = (shape: Record<string, core.$ZodType>) => new core.$ZodObject({ type: "object", shape });
  const optional = (innerType: core.$ZodType) => new core.$ZodOptional({ type: "optional", innerType });
  const string = () => new core.$ZodString({ type: "string" });
  const literal = (value: string) => new core.$ZodLiteral({ type: "literal", values: [value] });
  const int = (checks: core.$ZodCheck<number>[] = []) => new core.$ZodNumberFormat({ type: "number", check: "number_format", abort: false, format: "safeint", checks });
  const flag = optional(new core.$ZodBoolean({ type: "boolean" }));
  return object({
    jsonrpc: literal("2.0"),
    id: new core.$ZodUnion({ type: "union", options: [string(), int()] }),
    method: literal("initialize"),
    params: object({
      protocolVersion: int([core._gte(0), core._lte(65535)]), // a uint16 in ACP
      clientCapabilities: optional(
        object({
          fs: optional(object({ readTextFile: flag, writeTextFile: flag })),
          terminal: flag,
          auth: optional(object({ terminal: flag })),
        }),
      ),
      clientInfo: optional(new core.$ZodNullable({ type: "nullable", innerType: object({ name: string(), version: string() }) })),
    }),
  });
}

/** `message` (parsed JSON) when it is a plain initialize request, else undefined. */
export function checkPlainInitialize(message: unknown): PlainInitialize | undefined {
  if (!core.safeParse((schema ??= buildSchema()), message).success) return undefined;
  // zod accepted it: the message has this shape (with any other keys it carried, untouched).
  const request = message as PlainInitialize;
  return { id: request.id, params: request.params };
}
