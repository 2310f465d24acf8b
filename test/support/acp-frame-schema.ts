// Checks every JSON-RPC frame of an ACP conversation, both ways, against the protocol's own
// JSON Schema (1.21, vendored under test/fixtures/acp-schema-1.21). The SDK's zod copy lags the
// spec and the SDK never validates what it sends, so this is what catches an agent frame a
// stricter client would reject.
//
// Requests and notifications are checked by method (the schema marks each params type with
// `x-method`); responses by the method of the request they answer, remembered by id per direction.
// Methods only the unstable schema defines (session/fork) are checked against it; extension
// methods (`_…`) have no schema and only get the JSON-RPC envelope check.
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { ValidateFunction } from "ajv";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/acp-schema-1.21");

export type FrameDirection = "agent→client" | "client→agent";

export interface InvalidFrame {
  direction: FrameDirection;
  frame: unknown;
  error: string;
}

interface SchemaSet {
  /** By method: the validator of its params and of its result. */
  methods: Map<string, { params?: ValidateFunction; result?: ValidateFunction }>;
  /** The `sessionUpdate` kinds this schema defines. */
  updateKinds: Set<string>;
}

let compiled: { stable: SchemaSet; unstable: SchemaSet } | undefined;

function loadSchemas(): { stable: SchemaSet; unstable: SchemaSet } {
  if (compiled) return compiled;
  // strict off: the spec's schema carries its own `x-…` annotations.
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  (addFormats as unknown as (ajv: unknown) => void)(ajv);
  // The spec's numeric formats (from its Rust types): integers in range; JSON numbers for double.
  const integerIn = (min: number, max: number) => ({ type: "number" as const, validate: (n: number) => Number.isInteger(n) && n >= min && n <= max });
  ajv.addFormat("uint16", integerIn(0, 0xffff));
  ajv.addFormat("uint32", integerIn(0, 0xffffffff));
  ajv.addFormat("int32", integerIn(-0x80000000, 0x7fffffff));
  ajv.addFormat("uint64", integerIn(0, Number.MAX_SAFE_INTEGER));
  ajv.addFormat("int64", integerIn(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER));
  ajv.addFormat("double", { type: "number", validate: (n: number) => Number.isFinite(n) });
  const load = (file: string, id: string): SchemaSet => {
    const schema = JSON.parse(readFileSync(path.join(FIXTURES, file), "utf8"));
    schema.$id = id;
    ajv.addSchema(schema);
    const methods: SchemaSet["methods"] = new Map();
    for (const [name, def] of Object.entries<any>(schema.$defs)) {
      const method = def["x-method"];
      if (typeof method !== "string") continue;
      const entry = methods.get(method) ?? {};
      const validate = ajv.getSchema(`${id}#/$defs/${name}`)!;
      if (name.endsWith("Response")) entry.result = validate;
      else entry.params = validate;
      methods.set(method, entry);
    }
    const updateKinds = new Set<string>();
    for (const branch of schema.$defs.SessionUpdate?.anyOf ?? schema.$defs.SessionUpdate?.oneOf ?? []) {
      const kind = branch?.properties?.sessionUpdate?.const;
      if (typeof kind === "string") updateKinds.add(kind);
    }
    return { methods, updateKinds };
  };
  compiled = { stable: load("schema.json", "acp-1.21"), unstable: load("schema.unstable.json", "acp-1.21-unstable") };
  return compiled;
}

/** Validates the frames of one connection; each frame is handed in with the side that wrote it. */
export class FrameValidator {
  readonly invalid: InvalidFrame[] = [];
  /** Method of each request still waiting for its answer, by the side that sent it and its id. */
  private readonly pending = new Map<string, string>();

  check(direction: FrameDirection, frame: any): void {
    const error = this.problem(direction, frame);
    if (error) this.invalid.push({ direction, frame, error });
  }

  /**
   * A frame a test wrote raw on purpose (malformed-input tests): not judged, but a request's id is
   * remembered so the answer to it is checked against its method.
   */
  noteRaw(direction: FrameDirection, frame: any): void {
    if (typeof frame?.method === "string" && frame !== null && "id" in frame) this.pending.set(`${direction}:${JSON.stringify(frame.id)}`, frame.method);
  }

  /** A readable list of the invalid frames, or "" when all were valid. */
  report(): string {
    return this.invalid.map((bad) => `${bad.direction} ${JSON.stringify(bad.frame).slice(0, 600)}\n  ${bad.error}`).join("\n");
  }

  private problem(direction: FrameDirection, frame: any): string | undefined {
    if (typeof frame !== "object" || frame === null || frame.jsonrpc !== "2.0") return "not a JSON-RPC 2.0 message";
    const hasId = "id" in frame;
    if (typeof frame.method === "string") {
      if (hasId) this.pending.set(`${direction}:${JSON.stringify(frame.id)}`, frame.method);
      const schema = this.schemaFor(frame.method)?.params;
      if (!schema) return frame.method.startsWith("_") ? undefined : `no schema defines the method ${frame.method}`;
      // An update kind only the unstable schema has (compaction_update, for a client that asked
      // for it with an unstable capability) is judged by that schema; every stable kind by the stable one.
      const kind = frame.method === "session/update" ? frame.params?.update?.sessionUpdate : undefined;
      const { stable, unstable } = loadSchemas();
      if (typeof kind === "string" && !stable.updateKinds.has(kind) && unstable.updateKinds.has(kind)) {
        return validationError(unstable.methods.get("session/update")!.params!, frame.params, "params (unstable update kind)");
      }
      return validationError(schema, frame.params ?? {}, "params");
    }
    if (!hasId) return "neither a request, a notification nor a response";
    // A response answers a request the other side sent.
    const asker: FrameDirection = direction === "agent→client" ? "client→agent" : "agent→client";
    const key = `${asker}:${JSON.stringify(frame.id)}`;
    const method = this.pending.get(key);
    this.pending.delete(key);
    if ("error" in frame) {
      const e = frame.error;
      return typeof e === "object" && e !== null && Number.isInteger(e.code) && typeof e.message === "string" ? undefined : "malformed error object";
    }
    if (!("result" in frame)) return "a response with neither result nor error";
    if (method === undefined) return frame.id === null ? undefined : `a response to no request (id ${JSON.stringify(frame.id)})`;
    const schema = this.schemaFor(method)?.result;
    if (!schema) return method.startsWith("_") ? undefined : `no schema defines the result of ${method}`;
    return validationError(schema, frame.result, `result of ${method}`);
  }

  private schemaFor(method: string) {
    const { stable, unstable } = loadSchemas();
    return stable.methods.get(method) ?? unstable.methods.get(method);
  }
}

function validationError(validate: ValidateFunction, value: unknown, what: string): string | undefined {
  if (validate(value)) return undefined;
  const first = validate.errors?.slice(0, 3).map((e) => `${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`);
  return `${what}: ${first?.join("; ")}`;
}

/** Splits a byte stream of newline-delimited JSON into parsed frames (non-JSON lines are skipped). */
export function ndJsonFrames(onFrame: (frame: unknown) => void): (chunk: string) => void {
  let pending = "";
  return (chunk) => {
    pending += chunk;
    let newline: number;
    while ((newline = pending.indexOf("\n")) >= 0) {
      const line = pending.slice(0, newline).trim();
      pending = pending.slice(newline + 1);
      if (!line) continue;
      try {
        onFrame(JSON.parse(line));
      } catch {
        // expected: stray non-JSON output is the harness's strayStdout check, not a schema matter
      }
    }
  };
}
