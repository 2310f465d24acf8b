// A node:test reporter that prints nothing while tests run and, at the end, every failed test with
// its file and error. WHY: CI keeps only the tail of a long run's output, and the TAP stream names
// a failure once, somewhere among thousands of lines; this repeats each failure where the tail
// shows it. Used beside the TAP reporter (see package.json's "test" script), never instead of it.

/** Suites fail when a test inside them fails; only the innermost failures say what broke. */
function isOnlyASuiteOfFailures(failure, all) {
  return failure.details?.type === "suite" || all.some((other) => other !== failure && other.file === failure.file && other.nesting > failure.nesting && other.path.startsWith(failure.path + " > "));
}

function describeError(error) {
  const cause = error?.cause ?? error;
  const text = cause?.stack ?? cause?.message ?? String(cause);
  // The runner's own frames say nothing about the failure; keep the message and the project's frames.
  return text.split("\n").filter((line) => !/\(?node:(internal|async_hooks)/.test(line)).slice(0, 12).join("\n");
}

export default async function* failureSummary(source) {
  const failures = [];
  const openNames = [];
  const diagnostics = [];
  for await (const event of source) {
    if (event.type === "test:start") openNames[event.data.nesting] = event.data.name;
    if (event.type === "test:diagnostic" && /^(uncaught|Error|Warning: A resource)/i.test(event.data.message ?? "")) diagnostics.push(event.data.message);
    if (event.type !== "test:fail") continue;
    const path = [...openNames.slice(0, event.data.nesting), event.data.name].join(" > ");
    failures.push({ ...event.data, path });
  }
  const innermost = failures.filter((failure) => !isOnlyASuiteOfFailures(failure, failures));
  if (innermost.length === 0 && diagnostics.length === 0) return;
  yield `\n# ${innermost.length} failed test${innermost.length === 1 ? "" : "s"} (repeated here so the end of the log names them)\n`;
  for (const failure of innermost) {
    yield `\n## ${failure.file ?? "(unknown file)"}\n## ${failure.path}\n`;
    yield describeError(failure.details?.error).replace(/^/gm, "   ") + "\n";
  }
  for (const message of diagnostics) yield `\n## diagnostic: ${message.split("\n").slice(0, 12).join("\n")}\n`;
}
