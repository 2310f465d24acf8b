// Which of the agent's session options (ACP configOptions) the composer shows as pickers. A
// "mode" option duplicates the modes picker. Hermes's "isolation" option (workspace | worktree,
// offered before a chat's first prompt) is for clients without their own way in: the panel has
// "New Chat in a Worktree", which opens the chat with its worktree bar and Review & apply from
// the start, so the picker is not shown here.
import type { SessionConfigOption, SessionModeState } from "../../common/acp-types";

/** The id of Hermes's isolation option (acp-server/acp/isolation-option.ts). */
export const ISOLATION_OPTION_ID = "isolation";

export function shownConfigOptions(configOptions: readonly SessionConfigOption[], modes: SessionModeState | undefined): SessionConfigOption[] {
  return configOptions.filter((option) => !(modes && option.category === "mode") && option.id !== ISOLATION_OPTION_ID);
}
