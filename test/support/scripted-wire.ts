// A model server that plays hand-written SSE streams byte for byte, for the provider quirks
// the structured scripted servers cannot express (a stream cut by max_tokens mid tool call, a
// refusal). One server answers all three APIs (/v1/chat/completions, /v1/messages,
// /v1/responses); each queued reply is a list of SSE frames (stream-fixtures.ts writes them).
// The provider under test runs its real SDK over real HTTP.
import { startScriptedServer, type BaseReply, type ScriptedServer } from "./scripted-http";

export interface WireReply extends BaseReply {
  /** Whole SSE frames ("event: ...\ndata: ...\n\n"), written in order. */
  frames: string[];
}

const MODEL_PATHS = new Set(["/v1/chat/completions", "/v1/messages", "/v1/responses"]);

export function startScriptedWire(): Promise<ScriptedServer<WireReply>> {
  return startScriptedServer<WireReply>({
    // An empty queue is a test bug: say so in the stream's own terms (a malformed, unfinished stream).
    fallback: { frames: [] },
    isModelCall: (method, path) => method === "POST" && MODEL_PATHS.has(path),
    errorBody: (status, message) => ({ error: { message: message ?? `status ${status}`, type: "scripted_error" } }),
    respond: async (reply, _request, _res, sse) => {
      sse.open();
      await sse.play(reply.frames, []);
    },
  });
}
