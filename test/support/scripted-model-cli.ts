// Runs the scripted model server standalone, for manual runs and for clients in other
// processes (benchmarks, an agent started as a subprocess):
//   node --import tsx test/support/scripted-model-cli.ts [replies.json] [--port N] [--model ID]
// replies.json is a JSON array of ScriptedReply objects (without `handler`), served in order;
// once they run out every request gets the fallback text reply. Prints {"url": "..."} as one
// line on stdout, then serves until SIGTERM/SIGINT.
import { readFile } from "node:fs/promises";
import { startScriptedModel } from "./scripted-model";
import type { ScriptedReply } from "./scripted-model";

async function main(argv: string[]): Promise<void> {
  let file: string | undefined;
  let port: number | undefined;
  let model: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--port") port = Number(argv[++i]);
    else if (arg === "--model") model = argv[++i];
    else if (arg.startsWith("--")) throw new Error(`unknown option ${arg}`);
    else file = arg;
  }
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536)) {
    throw new Error("--port needs an integer between 0 and 65535");
  }

  let replies: ScriptedReply[] = [];
  if (file) {
    const parsed: unknown = JSON.parse(await readFile(file, "utf8"));
    if (!Array.isArray(parsed)) throw new Error(`${file} must hold a JSON array of replies`);
    replies = parsed as ScriptedReply[];
  }

  const server = await startScriptedModel({ port, model });
  server.enqueue(...replies);
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);

  const stop = () => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`scripted-model: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
});
