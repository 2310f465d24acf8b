// The composer's pickers: the modes picker is not doubled by a "mode" option, and Hermes's
// isolation option stays out of the panel (it has New Chat in a Worktree), while the model and
// other options are shown. The id must match the one the agent offers.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ISOLATION_OPTION } from "../../acp-server/acp/isolation-option";
import type { SessionConfigOption } from "../../common/acp-types";
import { ISOLATION_OPTION_ID, shownConfigOptions } from "../../webview-ui/lib/shown-config-options";

const option = (id: string, category?: string): SessionConfigOption =>
  ({ id, name: id, type: "select", currentValue: "a", options: [{ value: "a", name: "A" }], ...(category ? { category } : {}) }) as SessionConfigOption;

test("the panel shows the model and other options, not a doubled mode nor the isolation option", () => {
  const modes = { currentModeId: "default", availableModes: [{ id: "default", name: "Default" }] };
  const all = [option("mode", "mode"), option("model", "model"), option("isolation"), option("reasoning", "thought_level")];
  assert.deepEqual(shownConfigOptions(all, modes).map((o) => o.id), ["model", "reasoning"]);
  assert.deepEqual(shownConfigOptions(all, undefined).map((o) => o.id), ["mode", "model", "reasoning"], "without a modes picker the mode option is the way to switch");
  assert.equal(ISOLATION_OPTION_ID, ISOLATION_OPTION, "the same id as the agent's");
});
