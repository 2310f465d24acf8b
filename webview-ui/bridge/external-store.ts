// A minimal observable value plus the hook that reads it, shared by the chat mirror and the
// view state. Components subscribe to a selector, so they re-render only when their slice changes.
import { useEffect, useState } from "preact/hooks";

export interface Store<T> {
  get(): T;
  subscribe(listener: () => void): () => void;
}

export function createStore<T>(initial: T): Store<T> & { set(value: T): void } {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next) {
      if (next === value) return;
      value = next;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The selected slice of a store; re-renders only when it changes (by identity). */
export function useStore<T, S>(store: Store<T>, select: (value: T) => S): S {
  const [slice, setSlice] = useState(() => select(store.get()));
  useEffect(() => {
    const check = () => setSlice(() => select(store.get()));
    check(); // the store may have changed between render and subscription
    return store.subscribe(check);
    // The selector is expected to be stable in meaning for a given component instance.
  }, [store]);
  return slice;
}
