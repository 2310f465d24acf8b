// The extension's chat logic wired to the real built dist/hermes.js (everything but the vscode
// glue): a ChatStore, a ChatSession, the permission broker and the per-hunk review, as the
// controller wires them. For test/integration/extension-*.test.ts.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { stringify as toYaml } from "yaml";
import { AgentHost } from "../../extension/agent-host";
import { AgentProcess, agentCommand } from "../../extension/agent-process";
import { ChatSession } from "../../extension/chat-session";
import { ChatStore } from "../../extension/chat-store";
import { EditReviews } from "../../extension/edit-review";
import { memoryLogger } from "../../extension/log";
import { PermissionBroker } from "../../extension/permissions";
import { makeTempDir, ROOT, scriptedConfig } from "./acp-harness";

/**
 * Resolves with `check()`'s value once it gives one: checked now and after every change of the
 * panel state `store` holds (each dispatched action); rejects after `timeoutMs`.
 */
export function until<T>(store: ChatStore, what: string, check: () => T | undefined | false, timeoutMs = 15_000): Promise<T> {
  return new Promise((resolve, reject) => {
    let stop = () => {};
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`timed out waiting for ${what}`));
    }, timeoutMs);
    const look = () => {
      const value = check();
      if (!value) return false;
      clearTimeout(timer);
      stop();
      resolve(value);
      return true;
    };
    if (look()) return;
    stop = store.onChange(() => void look());
  });
}

export async function chatWith(modelUrl: string, existingHome?: string, existingProject?: string, config: unknown = scriptedConfig(modelUrl)) {
  const home = existingHome ?? (await makeTempDir("hermes-ext-home-"));
  writeFileSync(path.join(home, "config.yaml"), toYaml(config));
  const project = existingProject ?? (await makeTempDir("hermes-ext-project-"));
  const log = memoryLogger();
  const store = new ChatStore();
  const dispatch = store.dispatch.bind(store);
  const permissions = new PermissionBroker(dispatch, async () => undefined, () => true);
  const reviews = new EditReviews(dispatch, async (file, text) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  });
  const agentProcess = new AgentProcess(() => agentCommand(ROOT, { env: { HERMES_HOME: home, OPENAI_API_KEY: "" } }), log);
  let session!: ChatSession;
  const host = new AgentHost(
    agentProcess,
    {
      update: (n) => session.onUpdate(n),
      queueChanged: (params) => session.onQueueChanged(params),
      requestPermission: (params, signal) => permissions.request(params, signal),
      fs: {
        read: async (params) => ({ content: readFileSync(params.path, "utf8") }),
        write: async (params, signal) => {
          let oldText: string | undefined;
          try {
            oldText = readFileSync(params.path, "utf8");
          } catch {
            oldText = undefined;
          }
          return reviews.hold({ path: params.path, displayPath: path.relative(project, params.path), oldText, newText: params.content }, signal);
        },
      },
    },
    { log, trace: () => false },
  );
  host.on("status", (status, message, agent) => dispatch({ type: "connection", status, message, agent }));
  host.on("crashed", () => session.agentLost());
  host.on("reconnected", () => void session.reload());
  session = new ChatSession({
    store,
    connected: () => host.connected(),
    cwd: () => project,
    initialMode: () => undefined,
    readText: async (uri) => readFileSync(new URL(uri), "utf8"),
    cancelPending: () => {
      permissions.cancelAll();
      reviews.cancelAll();
    },
    log,
  });
  return { store, session, host, agentProcess, permissions, reviews, project, home, log, close: () => host.stop().finally(() => store.dispose()) };
}

