// The `hooks` section, in the shape of a Claude Code settings file's `hooks` object: event name
// → groups of { matcher, hooks: [{ type: "command", command, timeout }] }. Used for config.yaml's
// `hooks:`, a project's .hermes/hooks.json|yaml and a plugin's hooks/hooks.json, so a hooks file
// written for Claude Code reads unchanged. Events Hermes does not know are kept (and reported by
// the hooks feature), so a newer file does not break an older Hermes. Built on first use.
import * as z from "zod";

export const HOOK_EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Notification", "Stop", "SubagentStop", "PreCompact", "SessionEnd"] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export const HookCommandSchema = z.lazy(() =>
  z.looseObject({
    type: z.literal("command"),
    command: z.string().min(1),
    /** Seconds; Claude Code's default is 60. */
    timeout: z.number().positive().max(3600).optional(),
  }),
);

export const HookGroupSchema = z.lazy(() =>
  z.looseObject({
    /** A tool name, `A|B`, a regex, or empty / `*` for all (SessionStart: its source). */
    matcher: z.string().optional(),
    hooks: z.array(HookCommandSchema),
  }),
);

export const HooksSchema = z.lazy(() => z.record(z.string(), z.array(HookGroupSchema)));

export type HookCommandEntry = z.infer<typeof HookCommandSchema>;
export type HooksObject = z.infer<typeof HooksSchema>;
