// execute_code's limits: config.yaml's `code_exec` section (schema in config/schema.ts).
import { CodeExecConfigSchema } from "../../config/schema";
import type * as z from "zod";

export type CodeExecLimits = z.infer<typeof CodeExecConfigSchema>;

export const DEFAULT_CODE_EXEC_LIMITS: CodeExecLimits = CodeExecConfigSchema.parse({});
