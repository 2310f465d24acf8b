// The shape of $HERMES_HOME/config.yaml. Zod is the single source of truth: the types
// below are inferred from it, and validation errors name the offending key.
import path from "node:path";
import { DEFAULT_MAX_FRAME_MB } from "./frame-limit";
import * as z from "zod";
import { McpSettingsSchema } from "./mcp-schema";
import { ModelEntrySchema, type API_MODES, type PriceSchema, type PROVIDER_IDS } from "./model-entry-schema";
import { WebConfigSchema } from "./web-schema";
import { BrowserConfigSchema } from "./browser-schema";

// One model entry lives in its own module (model-entry-schema.ts): the runtime resolves models
// without building the whole config schema, which a cached config does not need (config-cache.ts).
export { API_MODES, ModelEntrySchema, PriceSchema, PROVIDER_IDS } from "./model-entry-schema";

export const AgentConfigSchema = z
  .object({
    max_turns: z.number().int().positive().max(10_000).default(90),
    /** The mode new sessions start in. */
    default_mode: z.enum(["default", "accept_edits", "plan", "dont_ask"]).default("default"),
    /** First retry delay in seconds; doubles each retry (a server's retry-after wins). */
    retry_base_delay: z.number().nonnegative().max(60).default(1),
  })
  .strict();

export const SessionsConfigSchema = z
  .object({
    /** After a session's first turn, ask the auxiliary model for a short title. */
    auto_title: z.boolean().default(true),
  })
  .strict();

export const CompressionConfigSchema = z
  .object({
    /** Compress automatically at the threshold and when the provider reports a context overflow. */
    enabled: z.boolean().default(true),
    /** Share of the model's context window (model.context_length overrides the table) at which the history is compressed. */
    threshold: z.number().gt(0).max(0.95).default(0.5),
    /** The last messages that always stay verbatim. */
    protect_last: z.number().int().min(2).max(200).default(20),
  })
  .strict();

/** Notes added to one model call only (the ephemeral layer), never stored. */
export const NudgesConfigSchema = z
  .object({
    /** Every this many prompts, remind the model to save what it learned with the memory tool (0: never). */
    memory_interval: z.number().int().min(0).default(10),
    /** Tell the model when files it read or edited were changed outside the agent. */
    changed_files: z.boolean().default(true),
  })
  .strict();

/** Skills: SKILL.md folders from the project, $HERMES_HOME/skills and the ones bundled with Hermes. */
export const SkillsConfigSchema = z
  .object({
    /** Offer the skills bundled with Hermes (project and user skills of the same name win anyway). */
    bundled: z.boolean().default(true),
    /** Skill names to turn off: listed as unavailable, not in the prompt's index nor offered as commands. */
    disabled: z.array(z.string().min(1)).default([]),
    /** After a turn with at least this many tool calls, suggest saving what was learned as a skill (0: never). */
    nudge_tool_calls: z.number().int().min(0).default(8),
    /** Also suggest it after a turn that recovered from failed tool calls. */
    nudge_on_recovery: z.boolean().default(true),
  })
  .strict();

/** The learning loop: a background review after significant turns (acp-server/learning/). */
export const LearningConfigSchema = z
  .object({
    /**
     * off: no review. on: after a significant turn, the auxiliary model reviews it and may save
     * memory or a skill (each change announced with an undo). ask: the same, but each change is
     * proposed to the user as a diff first.
     */
    review: z.enum(["off", "on", "ask"]).default("on"),
    /** A turn with at least this many tool calls is reviewed (0: not for that reason). */
    review_tool_calls: z.number().int().min(0).default(8),
    /** A turn that recovered from failed tool calls is reviewed. */
    review_on_recovery: z.boolean().default(true),
    /** A turn where the user corrected the agent ("no, do it like this", a rejection with a reason) is reviewed. */
    review_on_correction: z.boolean().default(true),
    /** Model calls (with tools) one review may make. */
    review_max_calls: z.number().int().min(1).max(30).default(6),
    /**
     * The skills curator's background pass (`/skills curate` runs it at any time): off, on (changes
     * applied, each announced with an undo) or ask (each change proposed as a diff first; also
     * when review is ask).
     */
    curator: z.enum(["off", "on", "ask"]).default("on"),
    /** Days between two background passes, for the whole Hermes home. */
    curator_interval_days: z.number().int().min(1).default(7),
    /** A user skill unused (and unchanged) this many days is archived by the curator (0: never). */
    archive_after_days: z.number().int().min(0).default(90),
    /** Model calls (with tools) one curator pass may make. */
    curator_max_calls: z.number().int().min(1).max(30).default(8),
    /** The first prompt of a new session names related earlier sessions of its workspace (a note to the model). */
    session_hint: z.boolean().default(true),
  })
  .strict();

/** A saved answer to a permission prompt ("always allow / always reject"). */
export const ApprovalRuleSchema = z.union([
  // Saved before approvals were scoped: a screen rule key alone. Read as before, but it no longer
  // covers a command that names a path or a secret (security/approval-scope.ts, legacyKeyMayCover).
  z.object({ command: z.string().min(1).describe("a command rule key, e.g. git-push-force"), decision: z.enum(["allow", "reject"]) }).strict(),
  // What Hermes saves now: exactly the commands the card showed, in the folder they ran in.
  z
    .object({
      commands: z.array(z.string().min(1)).min(1).describe("the approved commands as written, e.g. rm -rf build"),
      folder: z.string().refine((folder) => path.isAbsolute(folder), "an absolute folder").describe("the folder they run in"),
      keys: z.array(z.string().min(1)).default([]).describe("the screen's rule keys of the approved line"),
      decision: z.enum(["allow", "reject"]),
    })
    .strict(),
  z.object({ edit: z.string().min(1).describe("a path glob, relative to the workspace or absolute"), decision: z.enum(["allow", "reject"]) }).strict(),
  z.object({ web: z.string().regex(/^(\*\.)?[A-Za-z0-9.:[\]-]+$/, "a host name or *.domain").describe("a host web_fetch may reach, or *.domain"), decision: z.enum(["allow", "reject"]) }).strict(),
]);

export const ApprovalsConfigSchema = z
  .object({
    /** Seconds a permission prompt waits for the user; no answer is a denial. */
    timeout: z.number().positive().default(300),
    rules: z.array(ApprovalRuleSchema).default([]),
  })
  .strict();

export const ClarifyConfigSchema = z
  .object({
    /** Seconds the clarify tool waits for the user's answer; no answer is a result the model reads. */
    timeout: z.number().positive().default(600),
  })
  .strict();

export const TerminalConfigSchema = z
  .object({
    /**
     * Variables (by exact name) that commands, MCP servers and child agents may see on top of
     * the allowlist (PATH, HOME, LANG…; see security/child-env.ts). Everything else, credentials
     * included, is not inherited.
     */
    env_passthrough: z.array(z.string().min(1)).default([]),
    /**
     * The OS sandbox around every local command: auto = wherever available (bubblewrap on
     * Linux, Seatbelt on macOS); on = commands are refused when there is none; off = none.
     */
    sandbox: z.enum(["auto", "on", "off"]).default("auto"),
    /**
     * Whether commands use the terminals an editor offers (Zed, JetBrains, acpx):
     * when_sandboxed = only where Hermes's sandbox applies inside them (its VS Code extension)
     * or where no sandbox works anyway; elsewhere commands run locally inside the sandbox and
     * stream their output into the tool card. always = the editor's terminals whenever offered,
     * even though they run commands WITHOUT the sandbox (Default mode then asks before every
     * command not known to be read-only). terminal.sandbox: on overrides always.
     */
    editor_terminals: z.enum(["when_sandboxed", "always"]).default("when_sandboxed"),
    /**
     * More of the home folder that sandboxed commands may read, on top of the built-in
     * toolchain list (security/sandbox/policy.ts HOME_READ_ALLOW): "~/.config/foo", "notes".
     * The rest of the home folder is hidden; ["~"] shows all of it (read-only). Credential
     * stores stay hidden either way.
     */
    sandbox_read_allow: z.array(z.string().min(1).max(4096)).default([]),
    /**
     * Let sandboxed commands create unix sockets, and so talk to local daemons whose socket
     * they can see (a database's /run/postgresql socket, a dev server's). Off by default: a
     * socket on a read-only mount still accepts connections. Always on with a domain allowlist
     * (its relay needs one).
     */
    sandbox_unix_sockets: z.boolean().default(false),
    network: z
      .object({
        /**
         * Domains sandboxed commands may reach: [] = no network, ["*"] = any. A list of
         * domains ("registry.npmjs.org", "*.github.com") goes through an allowlist proxy.
         */
        allowed_domains: z.array(z.string().min(1).regex(/^(\*|(\*\.)?[A-Za-z0-9.-]+)$/, "a domain, *.domain, or *")).default([]),
      })
      .strict()
      .default({ allowed_domains: [] }),
  })
  .strict();

/** An external ACP agent delegate_task may start: a command line from config, never from the model. */
export const AcpAgentSchema = z
  .object({
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
    /** Variables (exact names) of Hermes' environment this agent receives, e.g. its own API key. */
    env_passthrough: z.array(z.string().min(1)).default([]),
    /** false: never offered (a built-in default can be turned off this way). */
    enabled: z.boolean().default(true),
  })
  .strict();

/** delegate_task: subagents of Hermes and external ACP agents (acp-server/delegate/). */
export const DelegationConfigSchema = z
  .object({
    /** Children of one delegate_task call that run at once; the rest queue. */
    max_concurrent_children: z.number().int().min(1).max(16).default(3),
    /** Model calls with tools a subagent may make before it must summarize. */
    max_iterations: z.number().int().min(1).max(1000).default(50),
    /** How deep delegation may nest: 1 means subagents cannot delegate again. */
    max_depth: z.number().int().min(1).max(5).default(1),
    /** Approve every permission request of a child without asking the user. */
    auto_approve: z.boolean().default(false),
    /** Seconds an external agent may stay silent (no message, no request) before it is stopped. */
    idle_timeout: z.number().positive().default(600),
    /** Characters of each child's final answer returned as its summary. */
    max_summary_chars: z.number().int().min(200).max(100_000).default(4000),
    /** External ACP agents by name (merged over the built-in claude, gemini and codex entries). */
    acp_agents: z.record(z.string().regex(/^[A-Za-z0-9_.-]+$/), AcpAgentSchema).default({}),
  })
  .strict();

/** Checkpoints: a snapshot of the workspace before each turn's first change, for /undo and /rollback (acp-server/checkpoints/). */
export const CheckpointsConfigSchema = z
  .object({
    enabled: z.boolean().default(true),
    /** Checkpoints older than this many days are pruned. */
    keep_days: z.number().int().min(1).max(3650).default(14),
    /** A workspace with more files than this (after .gitignore) gets no checkpoints, with a note saying so. */
    max_files: z.number().int().min(1).max(10_000_000).default(50_000),
    /** Files bigger than this many MB are left out of checkpoints (and named as not covered). */
    max_file_mb: z.number().positive().max(10_240).default(10),
  })
  .strict();

/** The ACP connection itself. */
export const AcpConfigSchema = z
  .object({
    /** Largest incoming JSON-RPC message (one line on stdin), in MB; bigger ones get an error and are skipped. */
    max_frame_mb: z.number().positive().max(1024).default(DEFAULT_MAX_FRAME_MB),
  })
  .strict();

export const LoggingConfigSchema = z
  .object({
    level: z.enum(["debug", "info", "warn", "error"]).default("info"),
  })
  .strict();

/** Which tools the model is offered: tool names (`terminal`) or toolsets (`file`, `mcp`, `mcp-<server>`). */
export const ToolsConfigSchema = z
  .object({
    /** When non-empty, only these tools and toolsets are on. */
    enabled: z.array(z.string().min(1)).default([]),
    /** Tools and toolsets turned off (after `enabled`; a tool's own name beats its toolset). */
    disabled: z.array(z.string().min(1)).default([]),
    /** Tokens (~4 characters) of MCP tool schemas sent with every call; beyond, tools wait for tool_search. */
    eager_budget_tokens: z.number().int().min(0).max(100_000).default(500),
  })
  .strict();

/** Sessions in their own git worktrees (docs/worktrees.md). */
export const WorktreesConfigSchema = z
  .object({
    /** Where worktrees are made (default $HERMES_HOME/worktrees); never inside the repository. */
    root: z.string().min(1).optional(),
  })
  .strict();

/** execute_code's limits (one program): wall time, tool calls, output the model gets, memory. */
export const CodeExecConfigSchema = z
  .object({
    /** Wall time before the program (and everything it started) is killed. */
    timeout_seconds: z.number().positive().max(3600).default(300),
    /** Tool calls one program may make; later calls get an error. */
    max_tool_calls: z.number().int().positive().max(1000).default(50),
    /** Characters of stdout+stderr the model gets (head and tail kept, with a note). */
    max_output_chars: z.number().int().positive().max(1_000_000).default(50_000),
    /** Data-segment limit for the program (ulimit -d), in MB. */
    memory_mb: z.number().int().positive().max(65_536).default(2048),
  })
  .strict();

export const ConfigSchema = z
  .object({
    model: ModelEntrySchema.default(ModelEntrySchema.parse({})),
    /** Tried in order when the main model keeps failing. Missing provider/base_url/api_key come from `model`. */
    fallback_models: z.array(ModelEntrySchema).default([]),
    /** More choices for the editor's model picker: entries, or plain names on the main provider. */
    models: z.array(z.union([z.string().min(1), ModelEntrySchema])).default([]),
    /** Model for side jobs (titles, summaries); defaults to the main model. */
    auxiliary: ModelEntrySchema.optional(),
    /** Model that looks at images (vision_analyze, images for a text-only main model); defaults to the auxiliary or main model when it has vision. */
    auxiliary_vision: ModelEntrySchema.optional(),
    /** Model name patterns (`*` wildcards) that OpenAI serves only through the Responses API. */
    responses_models: z.array(z.string().min(1)).default(["*codex*", "o1-pro*", "o3-pro*", "gpt-5-pro*", "computer-use-*"]),
    agent: AgentConfigSchema.default(AgentConfigSchema.parse({})),
    sessions: SessionsConfigSchema.default(SessionsConfigSchema.parse({})),
    compression: CompressionConfigSchema.default(CompressionConfigSchema.parse({})),
    nudges: NudgesConfigSchema.default(NudgesConfigSchema.parse({})),
    skills: SkillsConfigSchema.default(SkillsConfigSchema.parse({})),
    learning: LearningConfigSchema.default(LearningConfigSchema.parse({})),
    approvals: ApprovalsConfigSchema.default(ApprovalsConfigSchema.parse({})),
    clarify: ClarifyConfigSchema.default(ClarifyConfigSchema.parse({})),
    terminal: TerminalConfigSchema.default(TerminalConfigSchema.parse({})),
    logging: LoggingConfigSchema.default(LoggingConfigSchema.parse({})),
    acp: AcpConfigSchema.default(AcpConfigSchema.parse({})),
    delegation: DelegationConfigSchema.default(DelegationConfigSchema.parse({})),
    checkpoints: CheckpointsConfigSchema.default(CheckpointsConfigSchema.parse({})),
    /** MCP servers by name; each entry is checked on its own (config/mcp-schema.ts), so one bad entry fails only its server. */
    mcp_servers: z.preprocess((value) => value ?? {}, z.record(z.string(), z.unknown())),
    mcp: McpSettingsSchema.default(McpSettingsSchema.parse({})),
    web: WebConfigSchema.default(WebConfigSchema.parse({})),
    browser: BrowserConfigSchema.default(BrowserConfigSchema.parse({})),
    tools: ToolsConfigSchema.default(ToolsConfigSchema.parse({})),
    /** The user's hooks (Claude Code's `hooks` shape; config/hooks-schema.ts validates it where it is used, so one bad hook never stops Hermes). */
    hooks: z.preprocess((value) => value ?? {}, z.record(z.string(), z.unknown())),
    code_exec: CodeExecConfigSchema.default(CodeExecConfigSchema.parse({})),
    worktrees: WorktreesConfigSchema.default(WorktreesConfigSchema.parse({})),
  })
  // Unknown top-level sections are tolerated: later versions (memory, skills, mcp_servers...)
  // add them, and an older binary must still start on a newer config.
  .loose();

export type HermesConfig = z.infer<typeof ConfigSchema>;
export type ModelEntry = z.infer<typeof ModelEntrySchema>;
export type Price = z.infer<typeof PriceSchema>;
export type ApprovalRule = z.infer<typeof ApprovalRuleSchema>;
export type DelegationConfig = z.infer<typeof DelegationConfigSchema>;
export type CheckpointsConfig = z.infer<typeof CheckpointsConfigSchema>;
export type AcpAgentConfig = z.infer<typeof AcpAgentSchema>;
export type ApiMode = (typeof API_MODES)[number];
export type ProviderId = (typeof PROVIDER_IDS)[number];
