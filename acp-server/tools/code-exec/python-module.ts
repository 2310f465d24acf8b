// The Python side of execute_code: a fixed bootstrap (python3 -c) that reads its setup line
// (the hermes_tools module's source and the program) from fd 4, and the generated module,
// whose functions send requests on fd 3 and wait for the matching reply on fd 4.
import type { ExposedTool } from "./exposed-tools";

export const PYTHON_BOOTSTRAP = [
  "import json, os, sys, types",
  "_rep = os.fdopen(4, 'r', encoding='utf-8')",
  "_setup = json.loads(_rep.readline())",
  "_m = types.ModuleType('hermes_tools')",
  "_m._rep = _rep",
  "exec(compile(_setup['module'], 'hermes_tools.py', 'exec'), _m.__dict__)",
  "sys.modules['hermes_tools'] = _m",
  "_code = compile(_setup['code'], '<program>', 'exec')",
  "del json, os, types, _rep, _setup, _m",
  "exec(_code, {'__name__': '__main__'})",
].join("\n");

export function pythonModule(tools: readonly ExposedTool[]): string {
  const functions = tools.map((tool) => `${tool.name} = _tool(${JSON.stringify(tool.name)}, ${JSON.stringify(tool.params)})`);
  return `"""Hermes's tools, called through the agent (same permissions and guard as a direct call)."""
import json as _json, os as _os
_req = _os.fdopen(3, "w", encoding="utf-8")
_next = 0

class ToolError(Exception):
    """A tool failed; the message is the tool's own."""

def _call(tool, args):
    global _next
    _next += 1
    _req.write(_json.dumps({"id": _next, "tool": tool, "args": args}) + "\\n")
    _req.flush()
    while True:
        line = _rep.readline()
        if not line:
            raise ToolError("the tool channel to Hermes is closed")
        reply = _json.loads(line)
        if reply.get("id") in (_next, None):
            break
    if not reply["ok"]:
        raise ToolError(reply["error"])
    return reply["result"]

def _tool(name, params):
    def call(*args, **kwargs):
        if len(args) > len(params):
            raise TypeError(name + "() takes at most " + str(len(params)) + " positional arguments")
        kwargs.update(zip(params, args))
        return _call(name, kwargs)
    call.__name__ = name
    return call

${functions.join("\n")}
__all__ = ${JSON.stringify(tools.map((t) => t.name))}
`;
}
