// Which tools a program inside execute_code gets in hermes_tools, and their argument names in
// schema order (so `read_file("a.txt")` works beside `read_file(path="a.txt")`). Whether each
// call may run is still decided per call, by the session and the permission gate.
import { patchTool } from "../patch";
import { readFileTool } from "../read-file";
import { toolJsonSchema, type ToolDefinition } from "../registry";
import { searchFilesTool } from "../search-files";
import { terminalTool } from "../terminal";
import { webFetchTool } from "../web-fetch";
import { writeFileTool } from "../write-file";

export interface ExposedTool {
  name: string;
  params: string[];
}

const EXPOSED = [readFileTool, searchFilesTool, writeFileTool, patchTool, terminalTool, webFetchTool] as unknown as readonly ToolDefinition[];

let cached: ExposedTool[] | undefined;

export function exposedTools(): ExposedTool[] {
  cached ??= EXPOSED.map((tool) => ({ name: tool.name, params: Object.keys((toolJsonSchema(tool).properties as Record<string, unknown> | undefined) ?? {}) }));
  return cached;
}
