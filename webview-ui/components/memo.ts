// Preact's core has no memo (it lives in preact/compat, which would pull in the React layer):
// this wrapper skips re-rendering when every prop is identical. Transcript items rely on it,
// since the reducer keeps the identity of items it did not touch.
import { Component, h, type FunctionComponent } from "preact";

function shallowEqual(a: object, b: object): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const key of ka) if ((a as Record<string, unknown>)[key] !== (b as Record<string, unknown>)[key]) return false;
  return true;
}

export function memo<P extends object>(render: FunctionComponent<P>): FunctionComponent<P> {
  class Memo extends Component<P> {
    override shouldComponentUpdate(next: P): boolean {
      return !shallowEqual(this.props, next);
    }
    override render() {
      return h(render, this.props);
    }
  }
  (Memo as unknown as { displayName: string }).displayName = `Memo(${render.displayName ?? render.name})`;
  return Memo as unknown as FunctionComponent<P>;
}
