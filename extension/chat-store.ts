// The host's authoritative ChatState. Every change is a ChatAction applied with the shared
// reducer; actions are forwarded to every attached panel in batches (one post per ~16 ms, so a
// streamed reply does not cost one webview message per chunk). A panel that says `ready` gets a
// snapshot instead, and only the actions after it. No vscode import.
import type { HostToPanel } from "../common/panel-protocol";
import type { ChatAction } from "../common/panel-state/actions";
import { initialState, reduce } from "../common/panel-state/reducer";
import type { ChatState } from "../common/panel-state/types";

export interface PanelSink {
  post(message: HostToPanel): void;
}

const BATCH_MS = 16;

export class ChatStore {
  private current: ChatState = initialState();
  /** Attached panels; `null` until the panel said `ready` (it gets nothing before its snapshot). */
  private readonly sinks = new Map<PanelSink, ChatAction[] | null>();
  private timer: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<(state: ChatState, action: ChatAction) => void>();

  get state(): ChatState {
    return this.current;
  }

  dispatch(action: ChatAction): void {
    this.current = reduce(this.current, action);
    for (const queue of this.sinks.values()) queue?.push(action);
    if (!this.timer && this.sinks.size > 0) this.timer = setTimeout(() => this.flush(), BATCH_MS);
    for (const listener of this.listeners) listener(this.current, action);
  }

  /** Called after every action (context keys, badges). */
  onChange(listener: (state: ChatState, action: ChatAction) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  attach(sink: PanelSink): () => void {
    if (!this.sinks.has(sink)) this.sinks.set(sink, null);
    return () => this.sinks.delete(sink);
  }

  /** The panel (re)built its view: it gets the whole state, then only later actions. */
  ready(sink: PanelSink): void {
    this.sinks.set(sink, []);
    sink.post({ type: "snapshot", state: this.current });
  }

  /** Sends one message to every ready panel right away (not state: mention results, focus). */
  broadcast(message: HostToPanel): void {
    this.flush();
    for (const [sink, queue] of this.sinks) if (queue) sink.post(message);
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const [sink, queue] of this.sinks) {
      if (!queue || queue.length === 0) continue;
      this.sinks.set(sink, []);
      sink.post({ type: "actions", actions: queue });
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.sinks.clear();
    this.listeners.clear();
  }
}
