// The environment for processes the agent starts on the model's behalf: terminal commands,
// MCP servers, external child agents.
//
// Why an allowlist: the model can run `env`, `printenv`, `cat /proc/self/environ` or a script
// that reads its environment, and whatever it prints lands in the transcript, the provider's
// logs and the session record. A denylist of credential names always misses one
// (VAULT_TOKEN, MYSQL_PWD, PGPASSWORD, DATABASE_URL with a password, a company's own
// FOO_BAR), so children get only what a command needs to behave as in the user's shell, and
// the user lists anything else by exact name in `terminal.env_passthrough`.
//
// What is kept, and why (docs/security.md "Child environment" repeats this for users):
//   - identity and shell basics: PATH, HOME, USER, LOGNAME, SHELL, TERM, TZ, TMPDIR, HOSTNAME;
//   - locale: LANG, LANGUAGE, LC_*; colours: COLORTERM, NO_COLOR, FORCE_COLOR, CLICOLOR;
//   - EDITOR / VISUAL (git commit and friends open them; the user chose them);
//   - XDG_* base directories (tools find their config and caches there);
//   - proxies (http_proxy, https_proxy, no_proxy, all_proxy, either case): installs fail
//     without them behind a corporate proxy; a proxy URL carrying a password is dropped;
//   - CA bundles (SSL_CERT_FILE, NODE_EXTRA_CA_CERTS, REQUESTS_CA_BUNDLE…), same reason;
//   - toolchain locations: GOPATH, GOROOT, CARGO_HOME, RUSTUP_HOME, JAVA_HOME, NVM_DIR,
//     PYENV_ROOT, VIRTUAL_ENV, CONDA_PREFIX, PNPM_HOME, … (paths, never credentials);
//   - git identity (GIT_AUTHOR_NAME/EMAIL, GIT_COMMITTER_NAME/EMAIL);
//   - Windows system variables (SYSTEMROOT, COMSPEC, PATHEXT, APPDATA, USERPROFILE…).
// What is not, on purpose:
//   - SSH_AUTH_SOCK: the agent socket signs as the user (git push, ssh to servers) without
//     any prompt; pass it through when commands need it;
//   - NODE_OPTIONS, PYTHONSTARTUP, LD_PRELOAD and other code-loading knobs;
//   - GOPROXY, GOFLAGS, npm_config_* and similar, which can carry tokens or run code;
//   - everything else: API keys, tokens, passwords, connection strings, HERMES_*.

const KEEP_EXACT = new Set([
  "PATH", "HOME", "USER", "LOGNAME", "USERNAME", "SHELL", "TERM", "TZ", "TMPDIR", "TEMP", "TMP", "HOSTNAME",
  "LANG", "LANGUAGE", "COLORTERM", "NO_COLOR", "FORCE_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "EDITOR", "VISUAL",
  "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY",
  "SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "GIT_SSL_CAINFO",
  "GOPATH", "GOROOT", "GOBIN", "GOCACHE", "GOMODCACHE", "CARGO_HOME", "RUSTUP_HOME", "JAVA_HOME", "MAVEN_HOME", "GRADLE_USER_HOME",
  "NVM_DIR", "NVM_BIN", "PNPM_HOME", "BUN_INSTALL", "DENO_DIR", "VOLTA_HOME", "ASDF_DIR", "ASDF_DATA_DIR", "FNM_DIR",
  "PYENV_ROOT", "VIRTUAL_ENV", "CONDA_PREFIX", "CONDA_DEFAULT_ENV", "CONDA_EXE", "POETRY_HOME", "PIPX_HOME",
  "GEM_HOME", "GEM_PATH", "RBENV_ROOT", "SDKMAN_DIR", "ANDROID_HOME", "ANDROID_SDK_ROOT", "DOTNET_ROOT", "HOMEBREW_PREFIX",
  "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL",
  // Windows
  "SYSTEMROOT", "SYSTEMDRIVE", "WINDIR", "COMSPEC", "PATHEXT", "APPDATA", "LOCALAPPDATA", "USERPROFILE", "HOMEDRIVE", "HOMEPATH",
  "PROGRAMDATA", "PROGRAMFILES", "PROGRAMFILES(X86)", "COMMONPROGRAMFILES", "PROCESSOR_ARCHITECTURE", "NUMBER_OF_PROCESSORS", "OS",
]);
const KEEP_PREFIXES = ["LC_", "XDG_"];
const PROXIES = new Set(["HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY"]);

/** Whether `name` is on the allowlist (names compare case-insensitively, as on Windows). */
export function isAllowedEnvName(name: string): boolean {
  const upper = name.toUpperCase();
  return KEEP_EXACT.has(upper) || KEEP_PREFIXES.some((prefix) => upper.startsWith(prefix));
}

export interface ChildEnvOptions {
  /** Exact variable names the user lets children see (`terminal.env_passthrough`). */
  passthrough?: readonly string[];
}

/**
 * The allowlisted part of `base` plus the passthrough names, for spawning a child.
 * Undefined values are dropped; nothing is added.
 */
export function childEnv(base: NodeJS.ProcessEnv, options: ChildEnvOptions = {}): Record<string, string> {
  const keep = new Set(options.passthrough ?? []);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined) continue;
    if (keep.has(name)) {
      env[name] = value;
      continue;
    }
    if (!isAllowedEnvName(name)) continue;
    // Exported bash functions ("() { …") are code, not settings.
    if (value.startsWith("() {")) continue;
    // A proxy URL with user:password@ is a credential.
    if (PROXIES.has(name.toUpperCase()) && /:\/\/[^/@\s]*:[^/@\s]*@/.test(value)) continue;
    env[name] = value;
  }
  return env;
}
