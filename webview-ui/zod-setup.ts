// Must run before any zod schema is defined (so main.tsx imports it first): the webview CSP has
// no 'unsafe-eval', and zod decides whether to compile validators with new Function() when a
// schema is created. Even probing for eval would log a CSP violation.
import * as z from "zod";

z.config({ jitless: true });
