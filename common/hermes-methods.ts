// The names of Hermes's own requests beyond ACP (`_hermes/…`, the "_" prefix ACP reserves for
// extensions) and of the `_meta` keys both sides read, shared by the agent that serves them and
// the extension that asks. Names only, no imports: the edge registers its handlers with them at
// start-up, before any schema is needed. The queue's names are in queue-wire.ts; each method's
// shapes are in its own module.

/** Which turns of a live session have a checkpoint (common/checkpoint-list.ts). */
export const LIST_CHECKPOINTS_METHOD = "_hermes/checkpoints/list";

/** "What Hermes knows": read, and change memory entries and skills (common/panel-state/knowledge.ts). */
export const KNOWLEDGE_METHODS = {
  get: "_hermes/knowledge/get",
  memory: "_hermes/knowledge/memory",
  skill: "_hermes/knowledge/skill",
} as const;

/** Full-text search over the sessions' messages (the panel's history search). */
export const SEARCH_SESSIONS_METHOD = "_hermes/sessions/search";

/** `_meta` key of a session/list row: the session's first prompt, one line (what the history shows). */
export const FIRST_PROMPT_META = "hermes/firstPrompt";

/** A worktree chat's changes reviewed hunk by hunk and applied in part (common/worktree-review.ts). */
export const WORKTREE_METHODS = {
  changes: "_hermes/worktree/changes",
  apply: "_hermes/worktree/apply",
} as const;
