// Which tools exist and which a session may use: a ToolRegistry built from an explicit list
// (tools/all-tools.ts), and a session's view of it. No zod here: sessions are created on the
// handshake's heels, before the tools (and their schemas) need to load.
import type { ToolDefinition } from "./registry";
import { toolIsOn, withToggle, type ToolSelection } from "./tool-selection";

/**
 * A set of tools by name, built from an explicit list (tools/all-tools.ts builds the agent's). The
 * agent's own is created pending and given its tools once they load (`provide`): the first session
 * opens before the tools' modules load (AgentRuntime.loadTools). Reading a pending registry throws,
 * so code that forgot to wait for the tools fails loudly instead of seeing none.
 */
export class ToolRegistry {
  private readonly byName = new Map<string, ToolDefinition>();
  /** Name order, so requests stay byte-identical for prompt caching; sorted once, not per turn. */
  private sorted: ToolDefinition[] | undefined;

  constructor(definitions?: readonly ToolDefinition[]) {
    if (definitions) this.provide(definitions);
  }

  /** A registry whose tools come later, through `provide`. */
  static pending(): ToolRegistry {
    return new ToolRegistry();
  }

  /** Gives a pending registry its tools (once). */
  provide(definitions: readonly ToolDefinition[]): void {
    if (this.sorted) throw new Error("the tool registry already has its tools");
    for (const definition of definitions) {
      if (this.byName.has(definition.name)) throw new Error(`Tool ${definition.name} is defined twice`);
      this.byName.set(definition.name, definition);
    }
    this.sorted = [...this.byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  get(name: string): ToolDefinition | undefined {
    this.tools();
    return this.byName.get(name);
  }

  /** Available tools in name order. Availability can change at any time, so it is asked on every call. */
  list(): ToolDefinition[] {
    return this.tools().filter(isAvailable);
  }

  private tools(): ToolDefinition[] {
    if (!this.sorted) throw new Error("the built-in tools are not loaded yet (await AgentRuntime.loadTools() first)");
    return this.sorted;
  }
}

function isAvailable(tool: ToolDefinition): boolean {
  return (tool.isAvailable?.() ?? true) === true;
}

/**
 * Tools a session has beyond the registry's (its MCP servers'), in a stable order. They are
 * listed per request, never in the frozen system prompt, so servers may come and go.
 */
export interface SessionToolSource {
  list(): ToolDefinition[];
}

/**
 * One session's tools: the registry's (by name), then its own (MCP, by name), seen through what
 * the session may use (a subagent's toolsets). A subagent narrows its parent's and shares its
 * MCP servers, so a server that connects later is the child's too.
 */
export class SessionTools {
  private extra?: SessionToolSource;
  /** config.yaml's tools.enabled / tools.disabled (the root session's; subagents see their parent's). */
  private selection: ToolSelection = {};
  /** The session's own /tools toggles (name or toolset → on/off). */
  private toggleMap: ReadonlyMap<string, boolean> = new Map();

  constructor(
    readonly registry: ToolRegistry = new ToolRegistry([]),
    private readonly filter: (tool: ToolDefinition) => boolean = () => true,
    private readonly parent?: SessionTools,
  ) {}

  /** The session's own tools from now on (its MCP bridge; undefined: none). */
  setExtra(source: SessionToolSource | undefined): void {
    this.extra = source;
  }

  /** The same tools, restricted further by `filter` (a subagent's). */
  narrow(filter: (tool: ToolDefinition) => boolean): SessionTools {
    return new SessionTools(this.registry, (tool) => this.filter(tool) && filter(tool), this);
  }

  /** Applies config.yaml's tool selection and the session's saved toggles (a root session's, at its start). */
  configure(selection: ToolSelection, toggles: ReadonlyMap<string, boolean> = new Map()): void {
    this.selection = selection;
    this.toggleMap = new Map(toggles);
  }

  /** Replaces the session's toggles (a root session's). */
  configureToggles(toggles: ReadonlyMap<string, boolean>): void {
    if (this.parent) return this.parent.configureToggles(toggles);
    this.toggleMap = new Map(toggles);
  }

  /** The session's toggles (journaled, shown by /tools). */
  get toggles(): ReadonlyMap<string, boolean> {
    return this.parent ? this.parent.toggles : this.toggleMap;
  }

  /** Turns a tool or toolset on or off for this session. */
  toggle(selector: string, on: boolean): void {
    if (this.parent) return this.parent.toggle(selector, on);
    this.toggleMap = withToggle(this.toggleMap, selector, on, this.known());
  }

  /** Whether the config and the session's toggles leave `tool` on (availability and narrowing aside). */
  isOn(tool: ToolDefinition): boolean {
    if (this.parent) return this.parent.isOn(tool);
    return toolIsOn(tool, this.selection, this.toggleMap);
  }

  /** Every tool the session knows, on or off (the registry's available ones, then its own): /tools lists them. */
  known(): ToolDefinition[] {
    return [...this.registry.list().filter((tool) => this.filter(tool)), ...this.own().filter((tool) => isAvailable(tool) && this.filter(tool))];
  }

  /** True when the session may call `tool` now. */
  allows(tool: ToolDefinition): boolean {
    return isAvailable(tool) && this.filter(tool) && this.isOn(tool);
  }

  /** A tool by name among the registry's and then the session's own, whether or not it is allowed. */
  get(name: string): ToolDefinition | undefined {
    return this.registry.get(name) ?? this.own().find((tool) => tool.name === name);
  }

  /** What the session may call: the registry's, then its own. */
  list(): ToolDefinition[] {
    const own = this.own().filter((tool) => this.allows(tool));
    return own.length === 0 ? this.builtin() : [...this.builtin(), ...own];
  }

  /** The registry's tools the session may call (what the frozen system prompt names). */
  builtin(): ToolDefinition[] {
    return this.registry.list().filter((tool) => this.filter(tool) && this.isOn(tool));
  }

  private own(): ToolDefinition[] {
    return this.parent ? this.parent.own() : (this.extra?.list() ?? []);
  }
}
