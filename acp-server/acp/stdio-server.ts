// Connects the agent app to a byte stream pair (stdio, after the early handshake).
import * as acp from "@agentclientprotocol/sdk/unstable";
import type { Logger } from "../util/log";
import { VERSION } from "../version";
import { createAgentApp } from "./agent-app";
import type { Handshake } from "./early-handshake";

export function serveAcp(streams: Handshake, log: Logger): acp.AgentConnection {
  const app = createAgentApp({
    version: VERSION,
    log,
    loadRuntime: async () => (await import("./agent-runtime")).loadAgentRuntime(log),
    writeFrames: streams.writeFrames,
  });
  return app.connect(acp.ndJsonStream(streams.output, streams.input));
}
