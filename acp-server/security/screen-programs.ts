// Program families the command screen reasons about. Kept as data in one place so the rule
// files and plan mode agree on what each program can do with its arguments.

/**
 * Programs whose arguments are data: whatever value an argument computed at run time takes,
 * they only print, compare or read (no option of theirs writes, deletes or runs a command).
 * A `$f` handed to them is not a reason to ask; handed to anything else, it is.
 */
export const ARGS_ARE_DATA = new Set([
  "echo", "printf", "cat", "tac", "head", "tail", "wc", "grep", "egrep", "fgrep", "zgrep", "ls", "test", "[", "[[", "true", "false", ":",
  "pwd", "basename", "dirname", "realpath", "readlink", "stat", "du", "df", "cut", "tr", "jq", "diff", "cmp", "printenv", "which",
  "type", "whoami", "id", "uname", "sleep", "exit", "return", "shift", "export", "local", "declare", "typeset", "readonly", "unset",
  "read", "set", "md5sum", "sha1sum", "sha256sum", "sha512sum", "shasum", "b2sum", "cksum", "nl", "column", "od", "hexdump",
  "strings", "expr", "seq", "let", "wait", "getopts", "hash", "fold", "fmt", "rev", "paste", "join", "comm", "expand", "unexpand",
]);

/** Programs that neither read file contents nor write (for the credential-read rule). */
export const NO_CONTENT_READ = new Set([
  "echo", "printf", "test", "[", "[[", "ls", "stat", "du", "basename", "dirname", "realpath", "readlink", "cd", "pushd", "mkdir",
  "touch", "which", "type", "file", "chmod", "chown", "chgrp", "rm", "unlink", "rmdir", "shred", "truncate", "mv", "ln", "find", "fd",
  "tree", "exit", "export", "local", "declare", "unset",
]);

export const INTERPRETER = /^(python[0-9.]*|pypy[0-9.]*|perl[0-9.]*|ruby[0-9.]*|node|nodejs|php[0-9.]*|lua[0-9.]*|luajit|deno|bun|rscript|r|julia|osascript|tclsh|wish|pwsh|powershell|groovy|jshell|irb|ts-node|tsx|jjs|gjs|qjs|guile|racket|sbcl|clisp|ocaml|ghci|scala|kotlin|elixir|erl|escript|swift|php-cgi)$/i;

export const AWKS = new Set(["awk", "gawk", "mawk", "nawk", "busybox-awk"]);

export const DOWNLOADERS = new Set(["curl", "wget", "fetch", "aria2c", "http", "https", "xh", "lwp-download", "axel"]);

export const DELETERS = new Set(["rm", "shred", "unlink", "rmdir", "rimraf", "srm", "trash", "trash-put", "gio"]);

/** Programs (and wrappers) that run commands as root, by the rule key they get. */
export const ESCALATORS: Record<string, string> = {
  sudo: "sudo", doas: "doas", pkexec: "pkexec", su: "su", runuser: "runuser", "systemd-run": "systemd-run", run0: "run0", "sudo-rs": "sudo",
  please: "please", gosu: "gosu", "su-exec": "su-exec", chpst: "chpst", "s6-setuidgid": "setuidgid", setuidgid: "setuidgid", nsenter: "nsenter",
};

/** Shell builtins that set variables, options or the folder: their computed arguments are not a command's. */
export const DECLARERS = new Set(["export", "declare", "local", "readonly", "typeset", "unset", "read", "set", "shift", "let", "alias", "trap", "cd", "pushd", "popd"]);

/** Option values that are messages, not paths or commands (git commit -m "$(cat <<EOF ...)"). */
export const MESSAGE_OPTIONS = new Set(["-m", "--message", "-F", "--file", "--author", "--date", "--grep", "--format", "--pretty", "-n", "--since", "--until", "--trailer"]);

/** Programs whose `-o` is not an output file. */
export const NOT_OUTPUT_OPTION = new Set(["ssh", "scp", "sftp", "mount", "grep", "egrep", "fgrep", "rg", "ls", "ps", "lsblk", "find", "set", "shopt", "bash", "sh", "zsh", "git", "pgrep", "pkill", "sed", "awk", "xargs", "nice", "less", "jq", "column", "stty", "tar"]);
