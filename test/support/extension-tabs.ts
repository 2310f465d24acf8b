// The extension's open chats (ChatTabs, routed as the controller routes them: chat-routing.ts)
// on one real built dist/hermes.js: everything but the vscode glue. Files are read and written
// on disk; permissions are answered from the cards (no notification). For
// test/integration/extension-chat-tabs.test.ts.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { stringify as toYaml } from "yaml";
import { AgentHost } from "../../extension/agent-host";
import { AgentProcess, agentCommand } from "../../extension/agent-process";
import type { BackgroundEvent } from "../../extension/chat-status";
import { routeToChats } from "../../extension/chat-routing";
import type { ChatTab } from "../../extension/chat-tab";
import { ChatTabs } from "../../extension/chat-tabs";
import { memoryLogger } from "../../extension/log";
import { makeTempDir, ROOT, scriptedConfig } from "./acp-harness";

export interface TabsWorld {
  tabs: ChatTabs;
  host: AgentHost;
  project: string;
  home: string;
  /** Every background event, in order, with the chat it came from. */
  background: { tab: string; event: BackgroundEvent }[];
  close(): Promise<void>;
}

export async function tabsWith(modelUrl: string, options: { home?: string; project?: string } = {}): Promise<TabsWorld> {
  const home = options.home ?? (await makeTempDir("hermes-tabs-home-"));
  writeFileSync(path.join(home, "config.yaml"), toYaml(scriptedConfig(modelUrl)));
  const project = options.project ?? (await makeTempDir("hermes-tabs-project-"));
  const log = memoryLogger();
  const background: TabsWorld["background"] = [];
  let host!: AgentHost;
  const tabs: ChatTabs = new ChatTabs(
    {
      connected: () => host.connected(),
      cwd: () => project,
      initialMode: () => undefined,
      readText: async (uri) => readFileSync(new URL(uri), "utf8"),
      notify: async () => undefined,
      panelVisible: () => true,
      perHunk: () => false,
      writeDocument: async (file, text) => {
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, text);
      },
      log,
    },
    { background: (tab: ChatTab, event) => background.push({ tab: tab.id, event }) },
  );
  const agentProcess = new AgentProcess(() => agentCommand(ROOT, { env: { HERMES_HOME: home, OPENAI_API_KEY: "" } }), log);
  host = new AgentHost(
    agentProcess,
    routeToChats(tabs, () => ({
      read: async (params) => ({ content: readFileSync(params.path, "utf8") }),
      write: async (params) => {
        writeFileSync(params.path, params.content);
        return {};
      },
    })),
    { log, trace: () => false },
  );
  host.on("status", (status, message, agent) => tabs.all.forEach((tab) => tab.store.dispatch({ type: "connection", status, message, agent })));
  return { tabs, host, project, home, background, close: () => host.stop().finally(() => tabs.dispose()) };
}
