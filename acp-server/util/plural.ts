// "1 model", "3 models": a count with its noun in the right number (the regular English plural
// unless one is given).
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
