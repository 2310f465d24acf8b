// Ports on 127.0.0.1 picked by Hermes (an OAuth redirect) or by a test for a server it starts
// later: below every system's ephemeral range (Linux from 32768, macOS and Windows from 49152), so
// the kernel never hands the same port to an outgoing connection or to a listener on port 0 in the
// moment between the check and the listen; and above the well-known services.
import { randomInt } from "node:crypto";
import net from "node:net";

const PICKED_PORT_RANGE = [20_000, 32_767] as const;
/** Ports tried before a busy one is returned anyway (its listener then reports it). */
const PORT_TRIES = 20;

export function randomPickedPort(): number {
  return randomInt(PICKED_PORT_RANGE[0], PICKED_PORT_RANGE[1] + 1);
}

/** Whether 127.0.0.1:port can be listened on right now (a moment's listener, closed at once). */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

/** `port` if it is free now, else another free one from the picked range. */
export async function settleFreePort(port: number): Promise<number> {
  let candidate = port;
  for (let tries = 0; tries < PORT_TRIES && !(await portIsFree(candidate)); tries++) candidate = randomPickedPort();
  return candidate;
}

/** A port of the picked range that is free now, for a listener started a moment later. */
export function freePickedPort(): Promise<number> {
  return settleFreePort(randomPickedPort());
}
