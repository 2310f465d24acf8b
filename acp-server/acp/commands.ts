// Slash commands Hermes handles itself (advertised with available_commands_update).
import type * as acp from "@agentclientprotocol/sdk/unstable";

export const COMMANDS: acp.AvailableCommand[] = [{ name: "title", description: "Set this session's title", input: { hint: "new title" } }];
