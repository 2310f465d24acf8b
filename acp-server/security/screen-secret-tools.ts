// Commands that print a credential from a store the sandbox hides or a daemon that holds it:
// `gh auth token`, `aws configure get aws_secret_access_key`, `gcloud auth print-access-token`,
// `kubectl config view --raw`, `gpg --export-secret-keys`, `secret-tool lookup`, `pass show`,
// `op read`, `vault kv get`, … Reading one is a credential read ("read-credentials"): asked
// in every mode but dont_ask, like `cat ~/.aws/credentials`.
import type { SimpleCommand } from "./shell-types";
import type { Screen } from "./screen-rule";

/** program → a test on its arguments (joined by spaces) that says it prints a secret. */
const SECRET_PRINTERS: Record<string, RegExp> = {
  gh: /^auth (token|status .*(-t|--show-token))/,
  glab: /^auth (status .*(-t|--show-token)|token)/,
  aws: /^(configure (get|export-credentials)|sts get-session-token|ecr get-login-password|codeartifact get-authorization-token|secretsmanager get-secret-value|ssm get-parameters? .*--with-decryption)/,
  gcloud: /^(auth (print-access-token|print-identity-token|application-default print-access-token)|secrets versions access|config config-helper)/,
  az: /^(account get-access-token|keyvault secret show|ad sp credential reset|storage account keys list|acr login .*--expose-token)/,
  kubectl: /^(config view .*--raw|create token|get secrets? .*(-o|--output)[= ]?(json|yaml|jsonpath|go-template))/,
  gpg: /(^|\s)--export-secret-(keys|subkeys)|(^|\s)--export-ssh-key/,
  gpg2: /(^|\s)--export-secret-(keys|subkeys)/,
  "secret-tool": /^(lookup|search)/,
  security: /^find-(generic|internet)-password.*-[a-z]*w|^dump-keychain/,
  pass: /^(show\s|(?!-)\S+$)|^(-c|--clip)/,
  gopass: /^(show|cat)\s/,
  op: /^(read|item get|document get)/,
  bw: /^get (password|item|totp|notes)/,
  lpass: /^show/,
  vault: /^(read|kv get|token create|print token)/,
  doppler: /^secrets( get| download|$)/,
  heroku: /^auth:token/,
  npm: /^token (list|create)/,
  "docker-credential-desktop": /^get/,
  "docker-credential-secretservice": /^get/,
  "docker-credential-pass": /^get/,
  "docker-credential-osxkeychain": /^get/,
  "git-credential-manager": /^get/,
  "ssh-add": /^-L$/,
  keyring: /^get/,
  sops: /^(-d|--decrypt|decrypt)/,
  age: /(^|\s)(-d|--decrypt)(\s|$)/,
  "ansible-vault": /^(view|decrypt)/,
  chamber: /^(read|export|env)/,
  infisical: /^(secrets|export)/,
  fly: /^auth token/,
  flyctl: /^auth token/,
  vercel: /^env pull/,
  netlify: /^env:(get|list|export)/,
  firebase: /^login:ci/,
  stripe: /^config --list/,
};

export function checkSecretTools(s: Screen, cmd: SimpleCommand): void {
  const test = SECRET_PRINTERS[cmd.program];
  if (test?.test(cmd.args.join(" "))) s.add("dangerous", "read-credentials", `\`${cmd.program} ${cmd.args.slice(0, 3).join(" ")}\` prints a credential`);
}
