/** The identity of a build of the server: a hash of acp-server/ and package-lock.json. */
export function buildId(root: string): string;
