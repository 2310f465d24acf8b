// execute_code's limits (config.yaml `code_exec`): how long a program may run, how many tools
// it may call, how much output the model gets back, and how much memory it may take.
import * as z from "zod";

export const CodeExecConfigSchema = z
  .object({
    /** Wall time before the program (and everything it started) is killed. */
    timeout_seconds: z.number().positive().max(3600).default(300),
    /** Tool calls one program may make; later calls get an error. */
    max_tool_calls: z.number().int().positive().max(1000).default(50),
    /** Characters of stdout+stderr the model gets (head and tail kept, with a note). */
    max_output_chars: z.number().int().positive().max(1_000_000).default(50_000),
    /** Data-segment limit for the program (ulimit -d), in MB. */
    memory_mb: z.number().int().positive().max(65_536).default(2048),
  })
  .strict();
export type CodeExecLimits = z.infer<typeof CodeExecConfigSchema>;

export const DEFAULT_CODE_EXEC_LIMITS: CodeExecLimits = CodeExecConfigSchema.parse({});
