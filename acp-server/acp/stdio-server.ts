// Connects the agent app to stdio (after the early handshake), through our bounded,
// envelope-checking message stream rather than the SDK's ndJsonStream.
import * as acp from "@agentclientprotocol/sdk/unstable";
import type { Logger } from "../util/log";
import { VERSION } from "../version";
import { createAgentApp } from "./agent-app";
import type { Handshake } from "./early-handshake";
import { MB } from "../util/ndjson-lines";
import { startHeapUpkeep } from "../util/heap-upkeep";
import { keepWasmOnBaselineTier } from "../util/wasm-baseline";

export function serveAcp(handshake: Handshake, log: Logger): acp.AgentConnection {
  // A long session's resident memory stays flat (util/heap-upkeep.ts).
  startHeapUpkeep(log);
  // Before the first model call compiles undici's llhttp (util/wasm-baseline.ts).
  keepWasmOnBaselineTier();
  const app = createAgentApp({
    version: VERSION,
    log,
    loadRuntime: async () => {
      const runtime = await (await import("../runtime/runtime")).loadAgentRuntime(log);
      // The default limit holds until config.yaml is read (after initialize, in the background).
      handshake.setMaxFrameBytes(Math.floor(runtime.loaded.config.acp.max_frame_mb * MB));
      return runtime;
    },
    writeFrames: handshake.writeFrames,
    outputDrained: handshake.outputDrained,
  });
  return app.connect(handshake.stream);
}
