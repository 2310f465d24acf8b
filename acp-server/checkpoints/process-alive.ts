// Whether a process id is running (signal 0 probes without signalling). Used to tell files a
// crashed process left behind from those of a live one. A reused pid reads as alive: the
// leftover then waits for a later start, which is the safe side.
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
