// `hermes logout [--provider P] [--json]`: removes the API keys stored in $HERMES_HOME/.env and
// says what still signs Hermes in (the environment, config.yaml), with the fix for each.
import { PROVIDER_IDS, type ProviderId } from "../config/schema";
import { signOut } from "../config/sign-out";
import { checkFlags, parseArgs, printJson, runCommand, UsageError } from "./cli-output";

export async function runLogout(args: string[]): Promise<number> {
  return runCommand("logout", async () => {
    const parsed = parseArgs(args, ["provider"]);
    checkFlags(parsed, ["json", "provider"]);
    if (parsed.words.length) throw new UsageError(`unexpected ${parsed.words[0]}`);
    const provider = parsed.flags.get("provider");
    if (provider !== undefined && !(PROVIDER_IDS as readonly unknown[]).includes(provider)) {
      throw new UsageError(`--provider is one of ${PROVIDER_IDS.join(", ")}`);
    }
    const result = signOut({ provider: provider as ProviderId | undefined });
    if (parsed.flags.has("json")) {
      printJson(result);
      return 0;
    }
    const out = (line: string) => process.stdout.write(`${line}\n`);
    if (result.removed.length) out(`Signed out: removed ${result.removed.join(", ")} from ${result.envFile}.`);
    else out(`No key was stored in ${result.envFile}.`);
    for (const { source, fix } of result.remaining) out(`A key still comes from ${source}: ${fix}.`);
    if (result.remaining.length === 0) out('Editors ask you to sign in again; `hermes setup` sets a key up here.');
    return 0;
  });
}
