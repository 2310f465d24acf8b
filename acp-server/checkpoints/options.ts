// config.yaml's `checkpoints:` section → the store's options, so every caller maps it the same way.
import type { CheckpointsConfig } from "../config/schema";
import type { OpenOptions } from "./store";

export function checkpointOptions(config: CheckpointsConfig, hermesHome: string): OpenOptions {
  return {
    hermesHome,
    enabled: config.enabled,
    keepDays: config.keep_days,
    limits: { maxFiles: config.max_files, maxFileBytes: Math.floor(config.max_file_mb * 1024 * 1024) },
  };
}
