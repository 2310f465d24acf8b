// Which tools exist and which a session may use: a ToolRegistry built from an explicit list
// (tools/all-tools.ts), and a session's view of it. No zod here: sessions are created on the
// handshake's heels, before the tools (and their schemas) need to load.
import { DEFAULT_EAGER_BUDGET_TOKENS, isDeferredBuiltin, oneLine, splitByBudget } from "./tool-deferral";
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
const NO_TOOLS: ToolDefinition[] = [];

export class SessionTools {
  private extra?: SessionToolSource;
  /** config.yaml's tools.enabled / tools.disabled (the root session's; subagents see their parent's). */
  private selection: ToolSelection = {};
  /** The session's own /tools toggles (name or toolset → on/off). */
  private toggleMap: ReadonlyMap<string, boolean> = new Map();
  /** Deferred tools loaded with tool_search (or by calling them), in load order (the root session's). */
  private loadedNames: string[] = [];
  /** Tokens of MCP schemas sent with every call; the rest are deferred (tools.eager_budget_tokens). */
  private eagerBudget = DEFAULT_EAGER_BUDGET_TOKENS;
  /** Told of every load (the session journals its loaded tools). */
  onLoad?: (loaded: readonly string[]) => void;
  /** The last split of the MCP tools by the eager budget and what it depended on: it sizes every schema, and list(), builtin() and allows() ask for it per call. */
  private mcpSplitMemo?: { own: readonly ToolDefinition[]; selection: ToolSelection; toggles: ReadonlyMap<string, boolean>; split: ReturnType<typeof splitByBudget> };
  /** tool_search with the session's listing, reused while the listing is the same (stable bytes, one schema). */
  private searchTool?: { listing: string; tool: ToolDefinition };

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

  /** Applies config.yaml's tool selection, the session's saved toggles and its loaded tools (a root session's, at its start). */
  configure(selection: ToolSelection, toggles: ReadonlyMap<string, boolean> = new Map(), loaded: readonly string[] = []): void {
    this.selection = selection;
    this.toggleMap = new Map(toggles);
    this.loadedNames = [...loaded];
    this.eagerBudget = selection.eager_budget_tokens ?? DEFAULT_EAGER_BUDGET_TOKENS;
  }

  /** The deferred tools loaded so far, in load order. */
  get loaded(): readonly string[] {
    return this.parent ? this.parent.loaded : this.loadedNames;
  }

  /**
   * Loads deferred tools by name (unknown or already sent ones are skipped); returns the newly
   * loaded. Calling a deferred tool loads it too, so it is sent from the next call on.
   */
  load(names: readonly string[]): ToolDefinition[] {
    if (this.parent) return this.parent.load(names);
    const deferrable = this.deferral()?.deferrable ?? [];
    const added = deferrable.filter((tool) => names.includes(tool.name) && !this.loadedNames.includes(tool.name));
    if (added.length === 0) return [];
    this.loadedNames = [...this.loadedNames, ...added.map((tool) => tool.name)];
    this.onLoad?.(this.loadedNames);
    return added;
  }

  /** The deferred tools a search may load: by exact names, or the best matches of the query's words. */
  findDeferred(request: { names?: readonly string[]; query?: string }): ToolDefinition[] {
    const deferrable = (this.parent ? this.parent.deferral() : this.deferral())?.deferrable ?? [];
    if (request.names?.length) return deferrable.filter((tool) => request.names!.includes(tool.name));
    const words = (request.query ?? "").toLowerCase().split(/[^a-z0-9]+/).filter((word) => word.length > 1);
    const scored = deferrable
      .map((tool) => {
        const name = tool.name.toLowerCase();
        const text = `${name} ${tool.description.toLowerCase()}`;
        return { tool, score: words.reduce((sum, word) => sum + (name.includes(word) ? 3 : 0) + (text.includes(word) ? 1 : 0), 0) };
      })
      .filter((entry) => entry.score > 0)
      .sort((a, b) => b.score - a.score);
    return scored.slice(0, 5).map((entry) => entry.tool);
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

  /** True when the session may call `tool` now (a deferred tool too: calling it loads it). */
  allows(tool: ToolDefinition): boolean {
    if (tool.name === "tool_search" && !this.parent && !this.deferral()) return false;
    return isAvailable(tool) && this.filter(tool) && this.isOn(tool);
  }

  /** A tool by name among the registry's and then the session's own, whether or not it is allowed. */
  get(name: string): ToolDefinition | undefined {
    return this.registry.get(name) ?? this.own().find((tool) => tool.name === name);
  }

  /**
   * What is sent to the model: the registry's tools, then the session's own (MCP), each by name;
   * with deferral (a root session whose tool_search is on), deferred ones are left out, and
   * tool_search listing them comes next, then the loaded ones in the order they were loaded.
   */
  list(): ToolDefinition[] {
    const deferral = this.deferral();
    if (!deferral) {
      const own = this.own().filter((tool) => this.allows(tool));
      return own.length === 0 ? this.sentBuiltin() : [...this.sentBuiltin(), ...own];
    }
    const loaded = this.loadedNames.map((name) => deferral.deferrable.find((tool) => tool.name === name)).filter((tool): tool is ToolDefinition => tool !== undefined);
    return [...deferral.eager, this.searchToolFor(deferral.deferrable), ...loaded];
  }

  /** The registry's tools sent with every call (what the frozen system prompt names): deferred ones only once loaded. */
  builtin(): ToolDefinition[] {
    const deferral = this.deferral();
    const on = this.sentBuiltin();
    if (!deferral) return on;
    return [...on.filter((tool) => !isDeferredBuiltin(tool)), this.searchToolFor(deferral.deferrable)];
  }

  /** The registry's tools that are on (tool_search aside: it exists only with deferral). */
  private sentBuiltin(): ToolDefinition[] {
    return this.registry.list().filter((tool) => tool.name !== "tool_search" && this.filter(tool) && this.isOn(tool));
  }

  /**
   * What is eager and what can be loaded, for a root session with tool_search on and something to
   * defer; undefined otherwise (subagents get their tools as listed: they cannot wait for loading).
   */
  private deferral(): { eager: ToolDefinition[]; deferrable: ToolDefinition[] } | undefined {
    if (this.parent) return undefined;
    const search = this.registry.get("tool_search");
    if (!search || !this.filter(search) || !this.isOn(search)) return undefined;
    const builtin = this.sentBuiltin();
    const { eager: ownEager, deferred: ownDeferred } = this.mcpSplit();
    const deferrable = [...builtin.filter(isDeferredBuiltin), ...ownDeferred];
    if (deferrable.length === 0) return undefined;
    return { eager: [...builtin.filter((tool) => !isDeferredBuiltin(tool)), ...ownEager], deferrable };
  }

  /** The session's own (MCP) tools split by the eager budget, worked out again only when they, the selection or the toggles change. */
  private mcpSplit(): ReturnType<typeof splitByBudget> {
    // The MCP bridge hands out the same array while its tools are unchanged; selection and toggles are replaced, never edited.
    const own = this.own();
    const memo = this.mcpSplitMemo;
    if (memo && memo.own === own && memo.selection === this.selection && memo.toggles === this.toggleMap) return memo.split;
    const split = splitByBudget(
      own.filter((tool) => this.allows(tool)),
      this.eagerBudget,
    );
    this.mcpSplitMemo = { own, selection: this.selection, toggles: this.toggleMap, split };
    return split;
  }

  /** tool_search whose description lists what can be loaded: built-ins with a line each, MCP tools by name per server. */
  private searchToolFor(deferrable: readonly ToolDefinition[]): ToolDefinition {
    const builtins = deferrable.filter((tool) => this.registry.get(tool.name) === tool);
    const byServer = new Map<string, string[]>();
    for (const tool of deferrable.filter((each) => !builtins.includes(each))) byServer.set(tool.toolset, [...(byServer.get(tool.toolset) ?? []), tool.name]);
    const lines = [...builtins.map((tool) => `- ${oneLine(tool)}`), ...[...byServer.values()].map((names) => `- ${names.join(", ")}`)];
    const listing = lines.join("\n");
    if (this.searchTool?.listing !== listing) {
      const base = this.registry.get("tool_search")!;
      this.searchTool = { listing, tool: { ...base, description: `${base.description}\nLoadable:\n${listing}` } };
    }
    return this.searchTool.tool;
  }

  private own(): ToolDefinition[] {
    return this.parent ? this.parent.own() : (this.extra?.list() ?? NO_TOOLS);
  }
}
