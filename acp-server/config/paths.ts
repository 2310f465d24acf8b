import os from "node:os";
import path from "node:path";

/** $HERMES_HOME, default ~/.hermes: config.yaml, .env, logs/ and (later) state live here. */
export function hermesHome(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.HERMES_HOME?.trim();
  return configured ? path.resolve(configured) : path.join(os.homedir(), ".hermes");
}
