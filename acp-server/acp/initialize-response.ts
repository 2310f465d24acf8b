// The answer to `initialize`: what this agent is and what it can do. Kept free of the
// SDK so the early handshake can send it before the SDK is even loaded.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import { signInMethods, type SelfLaunch } from "../config/sign-in-methods";
import { QUEUE_CAPABILITY } from "../../common/queue-wire";

/** ACP protocol version spoken here (the SDK's PROTOCOL_VERSION, checked in tests). */
export const PROTOCOL_VERSION = 1;

/**
 * Sign-in methods are always advertised (a static list, so nothing is read from disk before the
 * answer): whether they are needed shows later, as auth-required (-32000) from session/new and
 * session/prompt while no model is usable. The terminal method only goes to clients that said
 * they can run it (`clientCapabilities.auth.terminal`).
 */
export function initializeResponse(version: string, clientCapabilities?: acp.ClientCapabilities | null, launch?: SelfLaunch): acp.InitializeResponse {
  return {
    protocolVersion: PROTOCOL_VERSION,
    agentInfo: { name: "hermes", title: "Hermes", version },
    agentCapabilities: {
      loadSession: true,
      sessionCapabilities: { list: {}, resume: {}, close: {}, delete: {}, fork: {}, additionalDirectories: {} },
      promptCapabilities: { image: true, audio: false, embeddedContext: true },
      mcpCapabilities: { http: true, sse: true },
      auth: { logout: {} },
      // Hermes's own: the session's queue is listed and edited with _hermes/queue/* (acp/queue-methods.ts).
      _meta: { [QUEUE_CAPABILITY]: { version: 1 } },
    },
    authMethods: signInMethods({ terminal: clientCapabilities?.auth?.terminal === true, ...(launch ? { launch } : {}) }),
  };
}
