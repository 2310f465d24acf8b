// The JavaScript side of execute_code, on the Node that runs Hermes: a fixed bootstrap (node -e)
// reads its setup line from fd 4, writes the hermes_tools package (CommonJS, with an ES module
// face over the same instance) and the program into a temp folder, and imports the program as
// an ES module with `require` defined, so `require("hermes_tools")`, `import` and top-level
// await all work. The functions send requests on fd 3 and resolve with the reply from fd 4.
import type { ExposedTool } from "./exposed-tools";

export const JAVASCRIPT_BOOTSTRAP = `
const fs = require("fs"), os = require("os"), path = require("path"), url = require("url");
const chunk = Buffer.alloc(65536);
let head = Buffer.alloc(0);
while (head.indexOf(10) < 0) {
  let n;
  try { n = fs.readSync(4, chunk, 0, chunk.length, null); } catch (e) { if (e.code === "EAGAIN") continue; throw e; }
  if (n === 0) process.exit(70);
  head = Buffer.concat([head, chunk.subarray(0, n)]);
}
const setup = JSON.parse(head.subarray(0, head.indexOf(10)).toString("utf8"));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-code-"));
process.on("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
const pkg = path.join(dir, "node_modules", "hermes_tools");
fs.mkdirSync(pkg, { recursive: true });
fs.writeFileSync(path.join(pkg, "package.json"), JSON.stringify({ name: "hermes_tools", exports: { import: "./index.mjs", require: "./index.cjs" } }));
fs.writeFileSync(path.join(pkg, "index.cjs"), setup.module);
fs.writeFileSync(path.join(pkg, "index.mjs"), setup.esm);
const main = path.join(dir, "program.mjs");
fs.writeFileSync(main, 'import { createRequire as __hermesRequire } from "node:module"; const require = __hermesRequire(import.meta.url);\\n' + setup.code);
import(url.pathToFileURL(main).href).catch((error) => { console.error(error); process.exitCode = 1; });
`;

export function javascriptModule(tools: readonly ExposedTool[]): { module: string; esm: string } {
  const names = tools.map((tool) => tool.name);
  const functions = tools.map((tool) => `exports.${tool.name} = tool(${JSON.stringify(tool.name)}, ${JSON.stringify(tool.params)});`);
  const module = `"use strict";
// Hermes's tools, called through the agent (same permissions and guard as a direct call).
const net = require("net");
class ToolError extends Error { constructor(message) { super(message); this.name = "ToolError"; } }
exports.ToolError = ToolError;
const requests = new net.Socket({ fd: 3, readable: false, writable: true });
const replies = new net.Socket({ fd: 4, readable: true, writable: false });
// The channel keeps the program alive only while a call waits for its reply.
requests.unref();
replies.unref();
const waiting = new Map();
let next = 0, buffer = "";
replies.setEncoding("utf8");
replies.on("data", (text) => {
  buffer += text;
  let newline;
  while ((newline = buffer.indexOf("\\n")) >= 0) {
    const line = buffer.slice(0, newline);
    buffer = buffer.slice(newline + 1);
    let reply;
    try { reply = JSON.parse(line); } catch { continue; }
    const call = waiting.get(reply.id);
    if (!call) continue;
    waiting.delete(reply.id);
    if (waiting.size === 0) replies.unref();
    if (reply.ok) call.resolve(reply.result); else call.reject(new ToolError(reply.error));
  }
});
replies.on("close", () => {
  for (const call of waiting.values()) call.reject(new ToolError("the tool channel to Hermes is closed"));
  waiting.clear();
});
function send(tool, args) {
  const id = ++next;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    replies.ref();
    requests.write(JSON.stringify({ id, tool, args }) + "\\n");
  });
}
function tool(name, params) {
  return async (...args) => {
    if (args.length === 1 && typeof args[0] === "object" && args[0] !== null) return send(name, args[0]);
    const named = {};
    params.forEach((param, index) => { if (args[index] !== undefined) named[param] = args[index]; });
    return send(name, named);
  };
}
${functions.join("\n")}
`;
  const esm = `import tools from "./index.cjs";\nexport const { ToolError, ${names.join(", ")} } = tools;\nexport default tools;\n`;
  return { module, esm };
}
