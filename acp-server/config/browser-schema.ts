// config.yaml's `browser` section: which Chromium the browser tools drive and how (issue 33).
import * as z from "zod";

export const BrowserConfigSchema = z
  .object({
    /** A Chrome/Chromium binary to launch; unset: the system's chrome/chromium, then Playwright's own. */
    executable: z.string().min(1).optional(),
    /** Attach to a Chrome the user started with --remote-debugging-port (opt-in: it is the user's own profile). */
    cdp_url: z.url({ protocol: /^(http|ws)s?$/ }).optional(),
    /** false shows the window (needs a display). */
    headless: z.boolean().default(true),
    /** Keep cookies and storage between sessions (in $HERMES_HOME/browser-profile); default: a fresh profile per session. */
    persist_profile: z.boolean().default(false),
    /** Characters of accessibility snapshot returned before it is cut with a note. */
    max_snapshot_chars: z.number().int().min(1_000).max(200_000).default(20_000),
    /** Seconds a navigation or action may take. */
    timeout: z.number().positive().max(300).default(30),
  })
  .strict();

export type BrowserConfig = z.infer<typeof BrowserConfigSchema>;
