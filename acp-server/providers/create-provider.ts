// The provider for a resolved model. Its implementation (request mapping, stream parsing, error
// mapping: build-provider.ts and the modules it imports) loads on the first call or warm-up, and
// the SDK inside it after that: opening a session, which creates the providers of its model
// chain, loads none of them.
import type { ResolvedModel } from "../config/resolve-model";
import type { ModelEvent, ModelProvider, ModelRequest } from "./types";

export function createProvider(model: ResolvedModel): ModelProvider {
  return new DeferredProvider(model);
}

class DeferredProvider implements ModelProvider {
  readonly provider: string;
  readonly model: string;
  private built: ModelProvider | undefined;
  private building: Promise<ModelProvider> | undefined;

  constructor(private readonly resolved: ResolvedModel) {
    this.provider = resolved.provider;
    this.model = resolved.name;
  }

  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
    // Once built (the warm-up after session/new does it), calls go straight to the implementation.
    return this.built ? this.built.stream(request, signal) : this.streamOnceBuilt(request, signal);
  }

  async warmUp(): Promise<void> {
    await (await this.implementation()).warmUp?.();
  }

  private async *streamOnceBuilt(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
    yield* (await this.implementation()).stream(request, signal);
  }

  private implementation(): Promise<ModelProvider> {
    this.building ??= import("./build-provider").then(
      ({ buildProvider }) => (this.built = buildProvider(this.resolved)),
      (error: unknown) => {
        this.building = undefined; // the next call tries again
        throw error;
      },
    );
    return this.building;
  }
}
