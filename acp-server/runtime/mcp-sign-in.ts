// Showing an MCP server's sign-in link to the user: as a URL-mode elicitation when the front
// end answers those (the panel, `hermes chat`, editors with ACP 1.21 elicitation), otherwise as
// a message with the link. At session start every server that waits for a sign-in is offered
// once, in the background (the session is already usable; those servers' tools appear when the
// browser comes back). /mcp login shows its link the same way and waits.
import { randomUUID } from "node:crypto";
import type { McpConnection } from "../mcp/connection";
import { SIGN_IN_TIMEOUT_MS } from "../mcp/oauth/server-sign-in";
import type { Logger } from "../util/log";
import type { ClientChannel } from "./client-channel";
import type { LiveSession } from "./live-session";

/** Every server of the session waiting for a sign-in, offered to the user (after session/new or a load has been answered). */
export function offerMcpSignIns(session: LiveSession, channel: ClientChannel, log: Logger): void {
  for (const connection of session.mcp?.connections ?? []) {
    const url = connection.signInUrl;
    if (connection.status !== "needs_sign_in" || !url || connection.signIn?.followsLinks) continue;
    void showSignInLink(connection, url, channel, AbortSignal.timeout(SIGN_IN_TIMEOUT_MS)).catch((error: unknown) =>
      log.info("an MCP sign-in offer ended", { sessionId: session.id, server: connection.name, error: (error as Error)?.message ?? String(error) }),
    );
  }
}

/**
 * Shows `url` for `connection`. With URL elicitation the question stays open until the server
 * is ready (then it is completed) or the user declines; without, a message carries the link.
 */
export async function showSignInLink(connection: McpConnection, url: URL, channel: ClientChannel, signal: AbortSignal): Promise<void> {
  const name = connection.name;
  if (!channel.elicitation.url) {
    const output = channel.output();
    output.notice(`The MCP server "${name}" needs you to sign in. Open this link in your browser: ${url.href}\nIts tools appear once you have (or run /mcp login ${name} later).`);
    await output.flush();
    return;
  }
  const elicitationId = `hermes-mcp-sign-in-${randomUUID()}`;
  const answer = await channel.elicit(undefined, { mode: "url", message: `Sign in to the MCP server "${name}" to use its tools.`, url: url.href, elicitationId }, signal);
  if (answer.action !== "accept") return;
  const ready = await connection.waitForSignIn(signal).catch(() => false); // expected: the wait ended (timeout): the question is left to expire
  if (ready) await channel.completeElicitation(elicitationId);
}
