// Commands that print a credential from a store the sandbox hides or a daemon that holds it:
// `gh auth token`, `aws configure get aws_secret_access_key`, `gcloud auth print-access-token`,
// `kubectl config view --raw`, `gpg --export-secret-keys`, `secret-tool lookup`, `pass show`,
// `op read`, `vault kv get`, … Reading one is a credential read ("read-credentials"): asked
// in every mode but dont_ask, like `cat ~/.aws/credentials`.
import type { SimpleCommand } from "./shell-types";
import type { Screen } from "./screen-rule";
import { programEntry } from "./programs/registry";

export function checkSecretTools(s: Screen, cmd: SimpleCommand): void {
  const test = programEntry(cmd.program)?.printsSecret;
  if (test?.test(cmd.args.join(" "))) s.add("dangerous", "read-credentials", `\`${cmd.program} ${cmd.args.slice(0, 3).join(" ")}\` prints a credential`);
}
