import { screenCommand } from "../acp-server/security/command-screen";
for (const c of process.argv.slice(2)) console.log(c, JSON.stringify(screenCommand(c, { home: "/home/dev", cwd: "/home/dev/project", workspace: "/home/dev/project", hermesHome: "/home/dev/.hermes", user: "dev" })));
