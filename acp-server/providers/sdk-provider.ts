// The skeleton every SDK-backed provider shares: the SDK is imported on first use (or on
// warm-up), and each call runs inside a StreamGuard (cancel, idle watchdog) with failures
// classified the same way. A provider only says how to load its SDK and how one call's
// wire events become the normalized stream.
import { NO_SDK_CLASSES, toProviderError, type ErrorContext, type SdkErrorClasses } from "./errors";
import diagnostics from "node:diagnostics_channel";
import { StreamGuard } from "./stream-guard";
import type { ModelEvent, ModelProvider, ModelRequest } from "./types";

/** What every provider is built from (the resolved model's endpoint and limits). */
export interface SdkProviderBase {
  /** Provider name from config, used in logs and error messages. */
  provider: string;
  model: string;
  /** The endpoint as configured, e.g. https://api.openai.com/v1 or http://127.0.0.1:8080/v1. */
  baseURL: string;
  /** Undefined for local servers that need no key (a placeholder is sent). */
  apiKey?: string;
  /** Environment variable the key comes from, named in the hint of 401/403 errors. */
  apiKeyEnv?: string;
  /** Every place the key may come from (config, variables, .env), appended to 401/403 hints. */
  apiKeyHint?: string;
  headers?: Record<string, string>;
  /** Time to wait for the response to start. */
  timeoutMs?: number;
  /** Longest silence allowed once the response streams (the idle watchdog). */
  idleTimeoutMs?: number;
}

/** `hermes:model-call`: published synchronously as each model call starts (node:diagnostics_channel). */
export const MODEL_CALL_CHANNEL = diagnostics.channel("hermes:model-call");

export abstract class SdkProvider<Module extends SdkErrorClasses, Client> implements ModelProvider {
  readonly provider: string;
  readonly model: string;
  private sdk?: Promise<{ module: Module; client: Client }>;

  constructor(private readonly base: SdkProviderBase) {
    this.provider = base.provider;
    this.model = base.model;
  }

  /** Imports the SDK (the heavy part) and builds its client. Called once. */
  protected abstract loadSdk(): Promise<{ module: Module; client: Client }>;

  /**
   * One call's events. Runs inside `guard`: pass `guard.signal` to the SDK, `guard.race` its
   * request, `arm()` after each chunk, `pause()` while yielding, `check()` at the end.
   */
  protected abstract events(client: Client, request: ModelRequest, guard: StreamGuard): AsyncGenerator<ModelEvent>;

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
    // Who made this call, for whoever listens (the layering test reads the stack); free otherwise.
    if (MODEL_CALL_CHANNEL.hasSubscribers) MODEL_CALL_CHANNEL.publish({ provider: this.provider });
    const guard = new StreamGuard(signal, this.base.idleTimeoutMs, `${this.provider} (${this.base.baseURL})`);
    let complete = false;
    let sdk: Module | undefined;
    try {
      const { client, module } = await guard.race(this.load());
      sdk = module;
      yield* this.events(client, request, guard);
      complete = true;
    } catch (error) {
      throw guard.translate(error, (e) => toProviderError(e, this.errorContext(), sdk ?? NO_SDK_CLASSES));
    } finally {
      guard.dispose(complete);
    }
  }

  async warmUp(): Promise<void> {
    await this.load();
  }

  private load(): Promise<{ module: Module; client: Client }> {
    this.sdk ??= this.loadSdk();
    return this.sdk;
  }

  private errorContext(): ErrorContext {
    const { provider, model, baseURL, apiKeyEnv, apiKeyHint } = this.base;
    return { provider, model, baseURL, apiKeyEnv, apiKeyHint };
  }
}
