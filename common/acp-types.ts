// The ACP types the panel renders (commands, pickers, permission options, tool content, plans),
// re-exported as types only: the webview imports nothing but common/, and no SDK code reaches its
// bundle. The shapes are ACP's own: the extension forwards the agent's updates as they came.
export type {
  AvailableCommand,
  PermissionOption,
  PlanEntry,
  SessionConfigOption,
  SessionConfigSelectOption,
  SessionModeState,
  ToolCallContent,
  ToolCallLocation,
  ToolKind,
} from "@agentclientprotocol/sdk";
