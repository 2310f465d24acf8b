// The sandbox policy as it travels to an editor that runs commands itself: Hermes's own VS Code
// extension reads it from `_meta["hermes/sandbox"]` of terminal/create and wraps the command in
// the same bwrap / Seatbelt sandbox. Other clients ignore `_meta`. Zod only: the extension
// bundle imports this module, so it must not pull in any server code.
import * as z from "zod";

/** The capability the extension advertises (clientCapabilities._meta) and the terminal/create key. */
export const SANDBOX_META_KEY = "hermes/sandbox";

const AbsolutePath = z
  .string()
  .min(1)
  .max(4096)
  .refine((value) => value.startsWith("/") && !value.includes("\0") && !value.split("/").includes(".."), "an absolute path without .. or NUL");

/** A policy over the wire. The network allowlist is not carried: editor terminals get off or on. */
export const WireSandboxPolicySchema = z
  .object({
    writable: z.array(AbsolutePath).max(64),
    /** A repository's .git, bound onto itself so it cannot be renamed; absent from an older Hermes. */
    pinned: z.array(AbsolutePath).max(64).optional(),
    readOnly: z.array(AbsolutePath).max(64),
    hidden: z.array(z.object({ path: AbsolutePath, kind: z.enum(["dir", "file"]) }).strict()).max(256),
    tmpDir: AbsolutePath,
    home: z.object({ path: AbsolutePath, visible: z.array(AbsolutePath).max(128) }).strict().optional(),
    network: z.discriminatedUnion("kind", [z.object({ kind: z.literal("off") }).strict(), z.object({ kind: z.literal("on") }).strict()]),
    /** Absent (an older Hermes) or false: the terminal's command cannot create unix sockets. */
    unixSockets: z.boolean().optional(),
    /** terminal.env_passthrough: the names kept on top of the child-environment allowlist. */
    envPassthrough: z.array(z.string().min(1).max(256)).max(256).optional(),
    /** Set in the command's environment: a chat worktree's git object folders (only those two names). */
    env: z.record(z.enum(["GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES"]), AbsolutePath).optional(),
  })
  .strict();

export type WireSandboxPolicy = z.infer<typeof WireSandboxPolicySchema>;

/** True when the client said it wraps terminal/create commands in this sandbox. */
export function clientSandboxesTerminals(meta: unknown): boolean {
  return typeof meta === "object" && meta !== null && typeof (meta as Record<string, unknown>)[SANDBOX_META_KEY] === "object";
}
