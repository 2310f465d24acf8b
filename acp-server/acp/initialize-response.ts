// The answer to `initialize`: what this agent is and what it can do. Kept free of the
// SDK so the early handshake can send it before the SDK is even loaded.
import type * as acp from "@agentclientprotocol/sdk/unstable";

/** ACP protocol version spoken here (the SDK's PROTOCOL_VERSION, checked in tests). */
export const PROTOCOL_VERSION = 1;

export function initializeResponse(version: string): acp.InitializeResponse {
  return {
    protocolVersion: PROTOCOL_VERSION,
    agentInfo: { name: "hermes", title: "Hermes", version },
    agentCapabilities: {
      loadSession: true,
      sessionCapabilities: { list: {}, resume: {}, close: {}, delete: {}, fork: {} },
      promptCapabilities: { image: true, audio: false, embeddedContext: true },
      mcpCapabilities: { http: true, sse: true },
    },
    authMethods: [],
  };
}
