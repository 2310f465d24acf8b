// /mcp: the session's MCP servers, their status, sign-in and tool counts; `/mcp login NAME`
// signs in to a server with OAuth (the link shown as the front end can: runtime/mcp-sign-in.ts)
// and waits for the browser; `/mcp logout NAME` deletes the stored sign-in.
import { showSignInLink } from "../../runtime/mcp-sign-in";
import { defineCommand, type CommandContext } from "../../runtime/slash-command";
import { describeServers } from "../bridge";
import { SIGN_IN_TIMEOUT_MS } from "../oauth/server-sign-in";

export const mcpCommand = defineCommand({
  name: "mcp",
  description: "MCP servers: status, sign-in and tool counts (login/logout NAME; prompts are /mcp:<server>:<prompt>)",
  hint: "[login|logout NAME]",
  run: async (context) => {
    const [verb, name, ...rest] = context.argument.split(/\s+/).filter(Boolean);
    const { session, output } = context;
    if (!verb) return output.say(describeServers(session.mcp?.states() ?? []));
    if ((verb !== "login" && verb !== "logout") || !name || rest.length > 0) return output.say("Usage: `/mcp`, `/mcp login NAME` or `/mcp logout NAME`.");
    const connection = session.mcp?.connection(name);
    if (!connection) {
      const names = session.mcp?.connections.map((each) => each.name) ?? [];
      return output.say(`No MCP server is named "${name}" in this session${names.length ? ` (there are: ${names.join(", ")})` : ""}.`);
    }
    return verb === "login" ? login(context, name) : output.say((await connection.logout()) ? `Signed out of **${name}**: its stored tokens are deleted.` : `**${name}** had no stored sign-in; nothing to delete.`);
  },
});

async function login({ session, output, client, signal }: CommandContext, name: string): Promise<void> {
  const connection = session.mcp!.connection(name)!;
  const waiting = AbortSignal.any([signal, AbortSignal.timeout(SIGN_IN_TIMEOUT_MS)]);
  try {
    await connection.login(async (url) => {
      // With URL elicitation the front end shows the link itself; the browser's return is awaited either way.
      if (client.elicitation.url) return void showSignInLink(connection, url, client, waiting).catch(() => undefined); // expected: the question ends with the sign-in or the wait; login() reports how
      output.say(`Open this link to sign in to **${name}**: ${url.href}\n\nWaiting for the browser to come back…\n\n`);
      await output.flush();
    }, waiting);
  } catch (error) {
    return output.say(`Signing in to **${name}** did not finish: ${(error as Error).message}`);
  }
  const state = session.mcp?.states().find((each) => each.name === name);
  output.say(`Signed in to **${name}**${state?.signIn?.startsWith("signed in as") ? ` ${state.signIn.slice("signed in ".length)}` : ""}: ${state?.tools ?? 0} tool${state?.tools === 1 ? "" : "s"} available.`);
}
