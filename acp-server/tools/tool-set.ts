// Which tools exist and which a session may use: a ToolRegistry built from an explicit list
// (tools/all-tools.ts), and a session's view of it. No zod here: sessions are created on the
// handshake's heels, before the tools (and their schemas) need to load.
import type { ToolDefinition } from "./registry";

/** A set of tools by name, built from an explicit list (tools/all-tools.ts builds the agent's). */
export class ToolRegistry {
  private readonly byName = new Map<string, ToolDefinition>();
  /** Name order, so requests stay byte-identical for prompt caching; sorted once, not per turn. */
  private readonly sorted: ToolDefinition[];

  constructor(definitions: readonly ToolDefinition[]) {
    for (const definition of definitions) {
      if (this.byName.has(definition.name)) throw new Error(`Tool ${definition.name} is defined twice`);
      this.byName.set(definition.name, definition);
    }
    this.sorted = [...this.byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  get(name: string): ToolDefinition | undefined {
    return this.byName.get(name);
  }

  /** Available tools in name order. Availability can change at any time, so it is asked on every call. */
  list(): ToolDefinition[] {
    return this.sorted.filter(isAvailable);
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

  /** True when the session may call `tool` now. */
  allows(tool: ToolDefinition): boolean {
    return isAvailable(tool) && this.filter(tool);
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
    return this.registry.list().filter((tool) => this.filter(tool));
  }

  private own(): ToolDefinition[] {
    return this.parent ? this.parent.own() : (this.extra?.list() ?? []);
  }
}
