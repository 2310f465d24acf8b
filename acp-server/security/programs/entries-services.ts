// Programs that talk to other machines: downloaders, database clients, cloud and cluster
// tools, credential stores. `printsSecret` says which invocations print a credential;
// `destroys` which delete data or infrastructure.
import type { ProgramEntry } from "./program-entry";

const READS = { effects: ["read"] } as const;
const DELETES_CLOUD = "deletes cloud resources";

export const SERVICE_ENTRIES: ProgramEntry[] = [
  // Downloaders. curl sends its stdin with `-d @-`, `--data-binary @-`, `-T -`, `-F x=@-`.
  { names: ["curl"], traits: ["downloader", "sends-stdin"], rule: "download-output", writesIntoOption: { short: [], long: ["--output-dir"] } },
  { names: ["wget"], traits: ["downloader", "sends-stdin"], rule: "download-output", writesIntoOption: { short: ["-P"], long: ["--directory-prefix"] } },
  { names: ["fetch", "aria2c", "lwp-download", "axel"], traits: ["downloader"] },
  { names: ["http", "https", "xh"], traits: ["downloader", "sends-stdin"] },
  // Databases.
  { names: ["psql", "mysql", "mariadb", "sqlite", "sqlcmd", "clickhouse-client", "cockroach", "duckdb", "pgcli", "mycli", "litecli"], traits: ["sql-client"] },
  { names: ["sqlite3"], traits: ["sql-client"], runCheck: "sqlite-dot-commands" },
  { names: ["mongo", "mongosh"], traits: ["mongo-client"] },
  { names: ["redis-cli"], rule: "redis" },
  { names: ["dropdb", "dropuser"], destroys: [[/(?:)/, "drops a database"]] },
  { names: ["mysqladmin"], destroys: [[/\bdrop\b/i, "drops a database"]] },
  { names: ["cqlsh"], destroys: [[/\b(drop|truncate)\b/i, "drops or empties data"]] },
  { names: ["influx"], destroys: [[/^delete\b|\bbucket delete\b/, "deletes stored data"]] },
  // Clusters and clouds.
  {
    names: ["kubectl"], traits: ["version-only"],
    subcommands: { get: READS, describe: READS, logs: READS, version: READS, explain: READS, "api-resources": READS, top: READS, exec: { effects: ["runs-code"] } },
    destroys: [[/^(delete|drain|replace --force|scale .*--replicas[= ]0)/, "deletes or drains cluster resources"], [/^(apply|patch|replace|edit|set|create)\b/, "changes cluster resources"]],
    printsSecret: /^(config view .*--raw|create token|get secrets? .*(-o|--output)[= ]?(json|yaml|jsonpath|go-template))/,
  },
  { names: ["helm"], destroys: [[/^(uninstall|delete|rollback)/, "removes or rolls back a release"]] },
  { names: ["terraform", "tofu"], destroys: [[/^(destroy|apply .*-auto-approve|apply -destroy|state rm)/, "destroys or changes infrastructure without review"]] },
  { names: ["pulumi"], destroys: [[/^(destroy|up .*--yes|stack rm)/, "destroys or changes infrastructure"]] },
  {
    names: ["aws"], traits: ["sends-stdin"], destroys: [[/^(s3 (rm|rb)|.* (delete|terminate)-)/, DELETES_CLOUD], [/^s3 sync .*--delete\b/, "deletes cloud files missing from the source"]],
    printsSecret: /^(configure (get|export-credentials)|sts get-session-token|ecr get-login-password|codeartifact get-authorization-token|secretsmanager get-secret-value|ssm get-parameters? .*--with-decryption)/,
  },
  { names: ["gcloud"], destroys: [[/\b(delete|remove)\b/, DELETES_CLOUD], [/\brm\b/, DELETES_CLOUD]], printsSecret: /^(auth (print-access-token|print-identity-token|application-default print-access-token)|secrets versions access|config config-helper)/ },
  { names: ["az"], destroys: [[/\b(delete|remove)\b/, DELETES_CLOUD], [/\brm\b/, DELETES_CLOUD]], printsSecret: /^(account get-access-token|keyvault secret show|ad sp credential reset|storage account keys list|acr login .*--expose-token)/ },
  { names: ["gsutil"], traits: ["sends-stdin"], destroys: [[/(^|\s)(rm|rb)\b|rsync .*-d\b/, "deletes cloud storage"]] },
  { names: ["gh"], traits: ["sends-stdin"], destroys: [[/^(repo (delete|archive)|release delete|secret (set|delete)|api .*-X ?DELETE)/, "deletes or changes GitHub resources"]], printsSecret: /^auth (token|status .*(-t|--show-token))/ },
  { names: ["hub"], destroys: [[/^delete\b/, "deletes a GitHub repository"]] },
  { names: ["glab"], printsSecret: /^auth (status .*(-t|--show-token)|token)/ },
  { names: ["doctl"], destroys: [[/\b(delete|rm)\b/, DELETES_CLOUD]] },
  { names: ["flyctl", "fly"], destroys: [[/\b(destroy|delete|remove)\b/, "destroys apps or resources"]], printsSecret: /^auth token/ },
  { names: ["heroku"], destroys: [[/(:destroy|pg:reset)\b/, "destroys apps or data"]], printsSecret: /^auth:token/ },
  { names: ["vercel"], destroys: [[/^(remove|rm|delete)\b|\bsites:delete\b/, "removes a deployment"]], printsSecret: /^env pull/ },
  { names: ["netlify"], destroys: [[/^(remove|rm|delete)\b|\bsites:delete\b/, "removes a deployment"]], printsSecret: /^env:(get|list|export)/ },
  { names: ["firebase"], destroys: [[/:delete\b/, "deletes project data"]], printsSecret: /^login:ci/ },
  // Credential stores.
  { names: ["gpg"], printsSecret: /(^|\s)--export-secret-(keys|subkeys)|(^|\s)--export-ssh-key/ },
  { names: ["gpg2"], printsSecret: /(^|\s)--export-secret-(keys|subkeys)/ },
  { names: ["secret-tool"], printsSecret: /^(lookup|search)/ },
  { names: ["security"], printsSecret: /^find-(generic|internet)-password.*-[a-z]*w|^dump-keychain/ },
  { names: ["pass"], printsSecret: /^(show\s|(?!-)\S+$)|^(-c|--clip)/ },
  { names: ["gopass"], printsSecret: /^(show|cat)\s/ },
  { names: ["bw"], printsSecret: /^get (password|item|totp|notes)/ },
  { names: ["lpass"], printsSecret: /^show/ },
  { names: ["vault"], printsSecret: /^(read|kv get|token create|print token)/ },
  { names: ["docker-credential-desktop", "docker-credential-secretservice", "docker-credential-pass", "docker-credential-osxkeychain", "git-credential-manager", "keyring"], printsSecret: /^get/ },
  { names: ["ssh-add"], printsSecret: /^-L$/ },
  { names: ["age"], printsSecret: /(^|\s)(-d|--decrypt)(\s|$)/ },
  { names: ["ansible-vault"], printsSecret: /^(view|decrypt)/ },
  { names: ["stripe"], printsSecret: /^config --list/ },
  // Remote shells.
  { names: ["ssh"], traits: ["hides-effects", "o-is-not-output", "sends-stdin"], runCheck: "ssh-options", valueOptions: ["-p", "-i", "-l", "-o", "-F", "-J", "-L", "-R", "-D", "-b", "-c", "-E", "-e", "-m", "-O", "-Q", "-S", "-W", "-w", "-B", "-I"] },
  // Raw connections: what they read on stdin goes to the peer.
  { names: ["nc", "ncat", "netcat", "nc.traditional", "nc.openbsd"], traits: ["sends-stdin", "netcat"] },
  { names: ["socat", "telnet"], traits: ["sends-stdin"] },
  // Mailers, uploaders and socket clients: what they read on stdin leaves the machine.
  { names: ["mail", "mailx", "sendmail", "mutt", "msmtp", "openssl", "ftp", "lftp", "tftp", "websocat", "wscat", "rclone", "curlie"], traits: ["sends-stdin"] },
  { names: ["scp", "sftp"], traits: ["o-is-not-output", "sends-stdin"], runCheck: "ssh-options" },
  { names: ["sshpass"], traits: ["hides-effects"], valueOptions: ["-p", "-f", "-d", "-e"] },
];
