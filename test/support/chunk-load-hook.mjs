// A module-loader hook (registered by chunk-load-register.mjs) that prints each dist/chunks/*.mjs
// file Node loads to stderr as `hermes-chunk-loaded <name>`, so a test can tell which parts of the
// server a request pulled in.
export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  const at = url.indexOf("/chunks/");
  if (at >= 0) process.stderr.write(`hermes-chunk-loaded ${url.slice(at + "/chunks/".length)}\n`);
  return result;
}
