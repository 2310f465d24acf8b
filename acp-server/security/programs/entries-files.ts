// Programs that look at, copy, change or delete files, and text filters. "args-are-data": a
// value computed at run time only changes what they print; "no-content-read": they never read
// a file's content (so naming a credential is not reading it); readOnly: plan mode runs them.
import type { ProgramEntry } from "./program-entry";

const DATA = ["args-are-data"] as const;

export const FILE_ENTRIES: ProgramEntry[] = [
  // Printing and reading.
  { names: ["pwd", "whoami", "id", "uname", "sleep", "expr", "seq"], traits: [...DATA, "no-file-operands"], readOnly: true },
  { names: ["echo", "printf"], traits: [...DATA, "no-content-read", "no-file-operands"], readOnly: true },
  { names: ["cat"], traits: [...DATA, "xargs-reader"], readOnly: true },
  { names: ["tac"], traits: DATA, readOnly: true },
  { names: ["head", "tail", "wc"], traits: [...DATA, "xargs-reader"], readOnly: true },
  { names: ["grep"], traits: [...DATA, "xargs-reader", "o-is-not-output"], readOnly: true },
  { names: ["egrep", "fgrep"], traits: [...DATA, "o-is-not-output"], readOnly: true },
  { names: ["zgrep"], traits: DATA, readOnly: true },
  { names: ["rg"], traits: ["o-is-not-output"], readOnly: { unless: /^--pre(=|$)|^--pre-glob/ } },
  { names: ["ag", "whereis", "tsort", "zcat", "bzcat", "xzcat", "nm", "objdump", "readelf", "size", "sum"], readOnly: true },
  { names: ["less"], traits: ["editor", "o-is-not-output"], readOnly: { unless: /^(-[a-zA-Z]*[oO]|--log-file|--LOG-FILE|-k|--lesskey-file)/ } },
  { names: ["more"], traits: ["editor"], readOnly: { unless: /^(-[a-zA-Z]*[oO]|--log-file|--LOG-FILE|-k|--lesskey-file)/ } },
  { names: ["cut", "tr", "cmp", "nl", "od", "hexdump", "strings", "fold", "fmt", "rev", "paste", "join", "comm", "expand", "unexpand", "sha1sum", "sha512sum", "shasum", "b2sum", "cksum", "df"], traits: DATA, readOnly: true },
  { names: ["md5sum", "sha256sum"], traits: [...DATA, "xargs-reader"], readOnly: true },
  { names: ["jq", "column"], traits: [...DATA, "o-is-not-output"], readOnly: true },
  { names: ["diff"], traits: DATA, readOnly: { unless: /^--output/ } },
  { names: ["sort"], readOnly: { unless: /^(-o|--output|--compress-program|-[a-zA-Z]*o)/ }, runOptions: { long: ["--compress-program"], short: [] } },
  { names: ["uniq"], readOnly: { maxOperands: 1 } },
  { names: ["xxd"], readOnly: { unless: /^-[a-zA-Z]*r|^-revert$/, maxOperands: 1 } },
  { names: ["yq"], readOnly: { unless: /^(-i|--inplace|-[a-zA-Z]*i)$|^--inplace|^--split-exp/ } },
  { names: ["sed"], traits: ["o-is-not-output"], rule: "stream-edit", readOnly: { by: "sed-script" } },
  // Looking at files and folders.
  { names: ["ls"], traits: [...DATA, "no-content-read", "xargs-reader", "o-is-not-output"], readOnly: true },
  { names: ["ll", "la"], readOnly: true },
  { names: ["stat"], traits: [...DATA, "no-content-read", "xargs-reader"], readOnly: true },
  { names: ["du", "realpath", "readlink"], traits: [...DATA, "no-content-read"], readOnly: true },
  { names: ["basename", "dirname", "which", "type"], traits: [...DATA, "no-content-read", "no-file-operands"], readOnly: true },
  { names: ["file"], traits: ["no-content-read", "xargs-reader"], readOnly: { unless: /^-[a-zA-Z]*C|^--compile/ } },
  { names: ["find"], traits: ["no-content-read", "o-is-not-output"], rule: "find-delete", readOnly: { unless: /^-(delete|exec|execdir|ok|okdir|fprint0?|fprintf|fls)$/ } },
  { names: ["fd"], traits: ["no-content-read"], readOnly: { unless: /^(-x|-X|--exec|--exec-batch)/ } },
  { names: ["fdfind"], readOnly: { unless: /^(-x|-X|--exec|--exec-batch)/ } },
  { names: ["tree"], traits: ["no-content-read"], readOnly: { unless: /^(-o|-R|-H)|^-[a-zA-Z]*[oRH]/ } },
  // Changing files.
  { names: ["mkdir", "touch", "truncate"], traits: ["no-content-read"], rule: "resize-or-create" },
  { names: ["chmod", "chown", "chgrp"], traits: ["no-content-read"], rule: "permissions" },
  { names: ["mv", "ln"], traits: ["no-content-read"], rule: "copy", valueOptions: ["-S", "--suffix", "-t", "--target-directory"] },
  // `link A B` makes B a hard link to A.
  { names: ["link"], rule: "copy" },
  { names: ["cp"], rule: "copy", valueOptions: ["-S", "--suffix", "-t", "--target-directory"] },
  { names: ["install"], rule: "copy", valueOptions: ["-S", "--suffix", "-t", "--target-directory", "-m", "--mode", "-o", "--owner", "-g", "--group"] },
  { names: ["rsync"], rule: "copy", runCheck: "rsync-shell" },
  { names: ["tee"], rule: "copy-stdin" },
  { names: ["dd"], rule: "raw-copy" },
  { names: ["tar", "bsdtar"], traits: ["o-is-not-output"], writesIntoOption: { short: ["-C"], long: ["--directory"], onlyWhenExtracting: true }, runCheck: "tar-checkpoint", runOptions: { long: ["--to-command", "--use-compress-program", "--info-script", "--new-volume-script", "--rsh-command"], short: ["-I", "-F"] } },
  { names: ["gtar"], traits: ["o-is-not-output"], runCheck: "tar-checkpoint", runOptions: { long: ["--to-command", "--use-compress-program", "--info-script", "--new-volume-script", "--rsh-command"], short: ["-I", "-F"] } },
  { names: ["unzip"], writesIntoOption: { short: ["-d"], long: [] } },
  { names: ["zip"], runOptions: { long: ["--unzip-command"], short: ["-TT"] } },
  // Deleting.
  { names: ["rm"], traits: ["no-content-read", "deletes-operands"], rule: "delete-files" },
  { names: ["unlink", "rmdir"], traits: ["no-content-read", "deletes-operands"], rule: "delete-entries" },
  { names: ["shred"], traits: ["no-content-read", "deletes-operands"], rule: "overwrite-files" },
  { names: ["srm"], traits: ["deletes-operands"] },
  // rimraf, del and the trash tools take whole folders without a -r: read as `rm -rf`.
  { names: ["rimraf"], traits: ["deletes-operands", "well-known-bin"], rule: "delete-trees" },
  { names: ["del-cli", "trash", "trash-put", "gtrash"], rule: "delete-trees" },
  { names: ["gio", "kioclient", "kioclient5"], rule: "trash-subcommand", subcommands: { trash: { effects: ["delete"] }, remove: { effects: ["delete"] }, rm: { effects: ["delete"] } } },
  // Editors and pagers that can run commands when told to.
  { names: ["vim", "nvim", "vi", "ex", "view", "vimdiff", "rvim", "evim", "gvim"], traits: ["editor", "vim"] },
  { names: ["emacs", "emacsclient", "nano"], traits: ["editor"] },
  { names: ["man"], traits: ["editor"], runOptions: { long: ["--pager", "--html"], short: ["-P", "-H"] } },
];
