// The sessions a terminal chat can pick up, asked of the agent over ACP: this folder's, newest
// first (the REPL's /sessions and --continue, and a one-shot --continue).
import * as acp from "@agentclientprotocol/sdk/unstable";

export async function recentSessions(agent: acp.ClientContext, cwd: string): Promise<acp.SessionInfo[]> {
  const { sessions } = await agent.request(acp.methods.agent.session.list, { cwd });
  return [...sessions].sort((a, b) => String(b.updatedAt ?? "").localeCompare(String(a.updatedAt ?? "")));
}
