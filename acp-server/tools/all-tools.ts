// The agent's built-in tools, listed once. Adding a tool = its file + one entry here. Loaded
// with the runtime (after `initialize` is answered), never by the handshake path.
import { applyPatchTool } from "./apply-patch";
import { visionAnalyzeTool } from "./vision-analyze";
import { browserClickTool, browserEvaluateTool, browserHoverTool, browserPressTool, browserSelectTool, browserTypeTool } from "./browser/browser-action-tools";
import { browserUploadTool } from "./browser/browser-upload-tool";
import {
  browserBackTool,
  browserConsoleTool,
  browserNavigateTool,
  browserScreenshotTool,
  browserScrollTool,
  browserSnapshotTool,
  browserTabsTool,
  browserWaitForTool,
} from "./browser/browser-read-tools";
import { clarifyTool } from "./clarify";
import { delegateTaskTool } from "./delegate-task";
import { executeCodeTool } from "./execute-code";
import { memoryTool } from "./memory";
import { patchTool } from "./patch";
import { processTool } from "./process";
import { readFileTool } from "./read-file";
import type { ToolDefinition } from "./registry";
import { ToolRegistry } from "./tool-set";
import { searchFilesTool } from "./search-files";
import { sessionSearchTool } from "./session-search";
import { skillManageTool } from "./skill-manage";
import { skillViewTool } from "./skill-view";
import { skillsListTool } from "./skills-list";
import { terminalTool } from "./terminal";
import { todoTool } from "./todo";
import { toolSearchTool } from "./tool-search";
import { webFetchTool } from "./web-fetch";
import { webSearchTool } from "./web-search";
import { writeFileTool } from "./write-file";

const BUILTIN_TOOLS = [
  readFileTool,
  writeFileTool,
  patchTool,
  applyPatchTool,
  searchFilesTool,
  terminalTool,
  processTool,
  todoTool,
  sessionSearchTool,
  memoryTool,
  skillsListTool,
  skillViewTool,
  skillManageTool,
  delegateTaskTool,
  executeCodeTool,
  clarifyTool,
  webFetchTool,
  webSearchTool,
  browserNavigateTool,
  browserSnapshotTool,
  browserClickTool,
  browserTypeTool,
  browserPressTool,
  browserSelectTool,
  browserHoverTool,
  browserScrollTool,
  browserWaitForTool,
  browserBackTool,
  browserTabsTool,
  browserConsoleTool,
  browserScreenshotTool,
  browserEvaluateTool,
  browserUploadTool,
  visionAnalyzeTool,
  toolSearchTool,
] as unknown as readonly ToolDefinition[];

/** A registry of the built-in tools (one per runtime; sessions see it through their SessionTools). */
export function builtinToolRegistry(): ToolRegistry {
  return new ToolRegistry(BUILTIN_TOOLS);
}

/** The built-in tools, for a registry created pending (AgentRuntime.loadTools). */
export function builtinTools(): readonly ToolDefinition[] {
  return BUILTIN_TOOLS;
}
