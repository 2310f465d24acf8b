// `hermes skills list|show NAME`: the skills a session in this folder would get.
import { findSkill } from "../skills/library";
import { catalogFor } from "../skills/settings";
import { skillsContext } from "../skills/skills-context";
import { configureLogging } from "../util/log";
import { checkFlags, parseArgs, printJson, runCommand, UsageError } from "./cli-output";
import { printText } from "./terminal-safe";

export async function runSkills(args: string[]): Promise<number> {
  return runCommand("skills", async () => {
    const parsed = parseArgs(args, ["cwd"]);
    checkFlags(parsed, ["json", "cwd"]);
    const [verb = "list", name] = parsed.words;
    const json = parsed.flags.has("json");
    const context = skillsContext(String(parsed.flags.get("cwd") ?? process.cwd()));
    configureLogging({ home: context.home, stderrLevel: "error" });
    const catalog = catalogFor(context);
    if (verb === "list") {
      if (json) printJson(catalog.skills.map(({ body: _body, text: _text, frontmatter: _fm, ...rest }) => rest));
      else {
        if (catalog.skills.length === 0) process.stderr.write("No skills.\n");
        // A project's skills are the repository's words: no control codes on a terminal.
        for (const s of catalog.skills) printText(`${s.name.padEnd(28)} ${s.source.padEnd(9)} ${s.unavailable ? `(unavailable: ${s.unavailable}) ` : ""}${s.description}\n`);
      }
      for (const warning of catalog.warnings) process.stderr.write(`warning: ${warning}\n`);
      return 0;
    }
    if (verb === "show") {
      if (!name) throw new UsageError("show needs a skill name (hermes skills list)");
      const skill = findSkill(catalog, name);
      if (!skill) {
        process.stderr.write(`hermes skills: no skill "${name}" (hermes skills list)\n`);
        return 1;
      }
      if (json) printJson({ name: skill.name, description: skill.description, source: skill.source, file: skill.file, tags: skill.tags, unavailable: skill.unavailable, text: skill.text });
      else printText(`${skill.file}\n\n${skill.text}${skill.text.endsWith("\n") ? "" : "\n"}`);
      return 0;
    }
    throw new UsageError(`unknown skills command "${verb}" (list, show)`);
  });
}
