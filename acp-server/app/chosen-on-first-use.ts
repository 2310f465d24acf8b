// A ShellRunner whose real runner is picked the first time it is used. Where a session's
// commands run can depend on whether the sandbox passed its probe run, and that probe must not
// run for a turn that starts no command (nor at session start: see sandbox/detect.ts).
import type { ShellRunner } from "../tools/context";

export function chosenOnFirstUse(choose: () => ShellRunner): ShellRunner {
  let chosen: ShellRunner | undefined;
  const runner = () => (chosen ??= choose());
  return {
    start: (command, options) => runner().start(command, options),
    sandboxed: () => runner().sandboxed?.() === true,
    isolatesNetwork: () => runner().isolatesNetwork?.() === true,
  };
}
