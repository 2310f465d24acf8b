// config.yaml's compression and nudge sections as the agent loop's settings.
import type { CompressionSettings } from "../agent/compress";
import type { NudgeSettings } from "../agent/ephemeral";
import type { HermesConfig } from "../config/schema";

export function compressionSettings(config: HermesConfig): CompressionSettings {
  const { enabled, threshold, protect_last } = config.compression;
  return { enabled, threshold, protectLast: protect_last };
}

export function nudgeSettings(config: HermesConfig): NudgeSettings {
  return { memoryEvery: config.nudges.memory_interval, changedFiles: config.nudges.changed_files };
}
