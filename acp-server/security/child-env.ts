// The environment for commands the agent runs (terminal tool, hooks, probes).
//
// Why: the model can run `env`, `printenv`, `echo $OPENAI_API_KEY` or a script that
// reads process.env, and whatever it prints lands in the transcript, the provider's
// logs and the session record. The agent's own credentials (the keys it uses to call
// its model provider) and other well-known cloud/forge credentials therefore must
// not be inherited by child processes. Everything else (PATH, HOME, LANG, TERM,
// SSH_AUTH_SOCK, proxies, toolchain variables…) is kept so commands behave as they
// would in the user's shell. A user who needs a credential in their commands lists it
// in `terminal.env_passthrough` (exact names), which feeds `options.passthrough`.

/** Variables removed whatever their name pattern. */
const SECRET_NAMES = new Set([
  "HERMES_API_KEY",
  "OPENAI_ORG_ID",
  "OPENAI_ORGANIZATION",
  "OPENAI_PROJECT_ID",
  "ANTHROPIC_AUTH_TOKEN",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "GITHUB_TOKEN",
  "GH_TOKEN",
  "GH_ENTERPRISE_TOKEN",
  "GITHUB_ENTERPRISE_TOKEN",
  "GITLAB_TOKEN",
  "HF_TOKEN",
  "HUGGING_FACE_HUB_TOKEN",
  "CLAUDE_CODE_OAUTH_TOKEN",
]);

/** Name endings that mark a credential: OPENAI_API_KEY, CI_JOB_API_TOKEN, CLIENT_SECRET… */
const SECRET_SUFFIXES = ["_API_KEY", "_API_TOKEN", "_ACCESS_TOKEN", "_SECRET", "_SECRET_KEY", "_AUTH_TOKEN"];

/** Whether `name` is a credential variable that `childEnv` strips (before passthrough). */
export function isSecretEnvName(name: string): boolean {
  const upper = name.toUpperCase(); // Windows names are case-insensitive
  return SECRET_NAMES.has(upper) || SECRET_SUFFIXES.some((suffix) => upper.endsWith(suffix));
}

export interface ChildEnvOptions {
  /** Exact variable names to keep even though they look like credentials. */
  passthrough?: string[];
}

/**
 * A copy of `base` without the agent's credentials, for spawning commands.
 * Undefined values are dropped; nothing is added.
 */
export function childEnv(base: NodeJS.ProcessEnv, options: ChildEnvOptions = {}): Record<string, string> {
  const keep = new Set(options.passthrough ?? []);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined) continue;
    if (isSecretEnvName(name) && !keep.has(name)) continue;
    env[name] = value;
  }
  return env;
}
