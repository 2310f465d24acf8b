// Zod's issues as lines that name the file and the key. Apart from load.ts, so a module that
// reports a config problem (mcp/server-spec.ts) does not load YAML and the whole schema with it.
import type { z } from "zod";

/** "config.yaml: model.provider: Invalid option: expected one of ..." for each problem. */
export function describeIssues(file: string, issues: z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => {
    const key = issue.path.length ? issue.path.join(".") : "(top level)";
    return `${file}: ${key}: ${issue.message}`;
  });
}
