// `node --import ./chunk-load-register.mjs dist/hermes.js acp`: installs chunk-load-hook.mjs.
import { register } from "node:module";

register(new URL("./chunk-load-hook.mjs", import.meta.url));
