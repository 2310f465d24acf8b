// Prints the screen's verdict for each command given on the command line, with the red-team
// probes' fake machine (HOME=/home/dev, workspace /home/dev/project). For trying a spelling:
//   node --import tsx redteam/screen-one.ts "r''m -rf build" 'echo x > ~/.HERMES/config.yaml'
import { screenCommand } from "../acp-server/security/command-screen";

for (const command of process.argv.slice(2)) {
  const result = screenCommand(command, { home: "/home/dev", cwd: "/home/dev/project", workspace: "/home/dev/project", hermesHome: "/home/dev/.hermes", user: "dev" });
  console.log(command, JSON.stringify(result));
}
