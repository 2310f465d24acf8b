// "What Hermes knows" for the panel: the agent's `_hermes/knowledge/*` methods (Hermes reads and
// writes its own memory and skill files; the extension never touches them), each answer checked
// with zod before it reaches the state. Another agent does not know the methods: the view then
// says so. No vscode import.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import * as z from "zod";
import type { PanelToHost } from "../common/panel-protocol";
import type { ChatAction } from "../common/panel-state/actions";
import { knowledgeChangeSchema, knowledgeSchema } from "../common/panel-state/knowledge";
import { errorMessage, userMessage } from "./log";
import { KNOWLEDGE_METHODS } from "../common/hermes-methods";

export interface KnowledgeDeps {
  dispatch: (action: ChatAction) => void;
  connected: () => Promise<{ agent: acp.ClientContext }>;
  /** The workspace folder: project skills are found from it. */
  cwd: () => string;
  log: { warn(message: string): void };
}

type MemoryChange = Omit<Extract<PanelToHost, { type: "knowledgeMemory" }>, "type">;
type SkillChange = Omit<Extract<PanelToHost, { type: "knowledgeSkill" }>, "type">;

export class KnowledgeActions {
  constructor(private readonly deps: KnowledgeDeps) {}

  /** Opens the view and reads it fresh from the agent (every open is a refresh), or closes it. */
  async show(open: boolean): Promise<void> {
    if (!open) {
      this.deps.dispatch({ type: "knowledge", open: false });
      return;
    }
    this.deps.dispatch({ type: "knowledge", open: true, loading: true });
    try {
      const { agent } = await this.deps.connected();
      const answer = await agent.request(KNOWLEDGE_METHODS.get, { cwd: this.cwd() });
      const parsed = knowledgeSchema.safeParse(answer);
      if (!parsed.success) throw new Error(`unexpected answer: ${z.prettifyError(parsed.error)}`);
      this.deps.dispatch({ type: "knowledge", data: parsed.data });
    } catch (error) {
      this.deps.log.warn(`reading what Hermes knows failed: ${errorMessage(error)}`);
      this.deps.dispatch({ type: "knowledge", error: `Could not read what the agent knows: ${userMessage(error)}` });
    }
  }

  changeMemory(change: MemoryChange): Promise<void> {
    return this.change(KNOWLEDGE_METHODS.memory, change);
  }

  changeSkill(change: SkillChange): Promise<void> {
    return this.change(KNOWLEDGE_METHODS.skill, change);
  }

  /** One change; the answer's fresh view replaces the shown one, its message goes above the lists. */
  private async change(method: string, params: MemoryChange | SkillChange): Promise<void> {
    this.deps.dispatch({ type: "knowledge", loading: true });
    try {
      const { agent } = await this.deps.connected();
      const answer = await agent.request(method, { cwd: this.cwd(), ...params });
      const parsed = knowledgeChangeSchema.safeParse(answer);
      if (!parsed.success) throw new Error(`unexpected answer: ${z.prettifyError(parsed.error)}`);
      const { ok, message, knowledge } = parsed.data;
      this.deps.dispatch({ type: "knowledge", data: knowledge, outcome: { ok, message } });
    } catch (error) {
      this.deps.log.warn(`${method} failed: ${errorMessage(error)}`);
      this.deps.dispatch({ type: "knowledge", outcome: { ok: false, message: userMessage(error) } });
    }
  }

  private cwd(): string {
    return this.deps.cwd();
  }
}
