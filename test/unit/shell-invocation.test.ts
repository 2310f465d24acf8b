// How a shell was invoked (security/shell-invocation.ts): options with values are not the script.
import assert from "node:assert/strict";
import { test } from "node:test";
import { shellInvocation, shellReadsStdin } from "../../acp-server/security/shell-invocation";

test("a shell reads its script from stdin unless it has -c or a script file; option values are not script files", () => {
  const table: [string[], boolean][] = [
    [[], true],
    [["-s"], true],
    [["-s", "--", "a"], true],
    [["-"], true],
    [["-o", "pipefail"], true],
    [["-eo", "pipefail"], true],
    [["-e", "-o", "pipefail", "-u"], true],
    [["+x"], true],
    [["-O", "extglob"], true],
    [["+O", "extglob"], true],
    [["--init-file", "/dev/null"], true],
    [["--rcfile=x", "--norc"], true],
    [["--"], true],
    [["script.sh"], false],
    [["-o", "pipefail", "script.sh"], false],
    [["-c", "echo hi"], false],
    [["-ec", "echo hi"], false],
    [["--command", "echo hi"], false],
    [["-x", "script.sh", "-s"], false],
    [["--norc", "script.sh"], false],
    // A long option it does not know may take the next word as its value: counted as reading stdin.
    [["--some-new-option", "script.sh"], true],
  ];
  for (const [args, reads] of table) assert.equal(shellReadsStdin(args), reads, args.join(" "));
  assert.deepEqual(shellInvocation(["-o", "pipefail", "run.sh", "-x"]).operands, ["run.sh", "-x"], "the script's own arguments are not the shell's options");
});
