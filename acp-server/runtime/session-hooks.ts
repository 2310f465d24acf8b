// A live session's hooks (hooks/session-hooks.ts), made once per session on first use: from
// config.yaml's `hooks:`, the project's .hermes/hooks.* and the enabled plugins. What hooks tell
// the user goes out as a notice; trusting the project's hooks is asked as a card that lists
// every command, never in dont_ask. A session without any hook gets none (nothing runs, nothing
// loads beyond the check).
import { journalPath } from "../sessions/journal";
import type { ClientChannel } from "./client-channel";
import type { LiveSession } from "./live-session";
import type { AgentRuntime } from "./runtime";
import type { Logger } from "../util/log";
import type { SessionHooks } from "../hooks/session-hooks";

const made = new WeakMap<LiveSession, Promise<SessionHooks | undefined>>();

/** How long the trust card waits before counting as "do not trust". */
const TRUST_TIMEOUT_MS = 10 * 60_000;

export function sessionHooks(runtime: AgentRuntime, session: LiveSession, client: ClientChannel, log: Logger): Promise<SessionHooks | undefined> {
  let hooks = made.get(session);
  if (!hooks) {
    hooks = makeHooks(runtime, session, client, log);
    made.set(session, hooks);
  }
  return hooks;
}

async function makeHooks(runtime: AgentRuntime, session: LiveSession, client: ClientChannel, log: Logger): Promise<SessionHooks | undefined> {
  const [{ loadHooks }, { SessionHooks }] = await Promise.all([import("../hooks/hook-sources"), import("../hooks/session-hooks")]);
  const { loaded } = runtime;
  const found = loadHooks({ userHooks: loaded.config.hooks, configPath: loaded.configPath, home: loaded.home, cwd: session.agent.cwd });
  if (found.trusted.length === 0 && !found.project && found.problems.length === 0) return undefined;
  const tell = (text: string) => {
    const output = client.output();
    output.notice(text);
    void output.flush();
  };
  const hooks = new SessionHooks({
    loaded: found,
    home: loaded.home,
    sessionId: session.id,
    cwd: session.agent.cwd,
    transcriptPath: journalPath(runtime.sessions.dir, session.id),
    mode: () => session.agent.mode,
    tell,
    journal: (run) => session.agent.recordHookRun(run),
    log,
    askTrust: async (file, commands) => {
      const answer = await client.choose(
        {
          purpose: "hooks-trust",
          title: `Run this project's hooks? (${file})`,
          content: [{ type: "text", text: `This repository asks Hermes to run these commands as your own programs, outside the sandbox, at the events named:\n\n${commands.map((line) => `- ${line}`).join("\n")}\n\nTrust holds for this exact file; Hermes asks again when it changes.` }],
          locations: [{ path: file }],
          options: [
            { id: "trust", name: "Trust and run these hooks", kind: "allow_once" },
            { id: "skip", name: "Don't run them", kind: "reject_once" },
          ],
          fallback: "skip",
          timeoutMs: TRUST_TIMEOUT_MS,
        },
        AbortSignal.timeout(TRUST_TIMEOUT_MS),
      );
      return answer === "trust";
    },
  });
  return hooks.empty && found.problems.length === 0 ? undefined : hooks;
}
