// acp.max_frame_mb's default, in its own tiny module: the stdin reader needs it before
// initialize is answered, long before the zod schema (and zod) are loaded.
export const DEFAULT_MAX_FRAME_MB = 64;
