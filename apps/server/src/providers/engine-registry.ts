import type { AppConfig } from '../config';
import { AppError } from '../lib/app-error';
import { createFaceEditEngine, createRetouchEngine } from './engines';
import type { FaceEditEngine } from './engines/face-edit-engine';
import type { LocalPool } from './engines/local.engine';
import type { RetouchEngine } from './engines/retouch-engine';
import type { ImageGenerator } from './kling/image-generator';
import { createKlingGenerator } from './kling/kling.generator';
import { createLlmProvider, type LlmProvider } from './llm';
import { createSeedreamClient, type SeedreamClient } from './seedream/seedream.client';

/**
 * The engine registry (GUIDE §3, decision 035): one place that says which engine runs each capability
 * of this process, built once from the configuration by `bootstrap.ts` and replaceable by tests. A tool
 * definition names the capability it runs on (`engine: 'retouch'`); the kernel resolves it here, records
 * the entry's name on the job row, answers NOT_CONFIGURED before anything is charged when the capability
 * has no engine, and hands the engine to the tool's `run`.
 *
 * Capabilities → the interface their engines implement (each shaped by our use, not by a vendor's API):
 * - `retouch`: retouch + super-resolution — local CPU pool or RunPod (RETOUCH_ENGINE)
 * - `face-edit`: inpainting of a masked region — local or RunPod (FACE_EDIT_ENGINE)
 * - `image-generation`: Kling (KLING_ACCESS_KEY + KLING_SECRET_KEY), absent otherwise
 * - `image-edit`: Seedream on ModelArk (SEEDREAM_API_KEY), absent otherwise
 * - `llm`: the OpenAI-compatible language model (LLM_MODEL), absent otherwise
 *
 * Tests add capabilities by module augmentation (`declare module '…/providers/engine-registry' {
 * interface EngineMap { … } }`), as they add job names to the job map.
 */
export interface EngineMap {
  retouch: RetouchEngine;
  'face-edit': FaceEditEngine;
  'image-generation': ImageGenerator;
  'image-edit': SeedreamClient;
  llm: LlmProvider;
}

/** A capability name of the registry. */
export type Capability = keyof EngineMap & string;

/** What every engine offers the registry: a name (recorded on job rows), optional warm-up and close. */
type RegisteredEngine = ({ readonly name: string } | { readonly model: string }) & { warmUp?(): void; close?(): Promise<void> };

/** Engines to use instead of the configured ones: an engine, or null for "not configured". */
export type EngineOverrides = { [C in Capability]?: EngineMap[C] | null };

export interface EngineRegistry {
  /**
   * The engine of a capability.
   * @throws AppError NOT_CONFIGURED (503) when this process has none (nothing was charged yet: the kernel asks first)
   */
  get<C extends Capability>(capability: C): EngineMap[C];
  /** The engine of a capability, or null when it is not configured. */
  find<C extends Capability>(capability: C): EngineMap[C] | null;
  /** Whether the capability is configured (the page's feature flags and config calls say so). */
  has(capability: Capability): boolean;
  /**
   * The name recorded on a job row for the capability's engine: the engine's `name` (`local`,
   * `runpod`, `kling:kling-v1-5`, `seedream:<model>`), or the model for an LLM. @throws AppError NOT_CONFIGURED
   */
  nameOf(capability: Capability): string;
  /**
   * Replaces a capability's engine (null: not configured from now on). For tests and the composition
   * root only; the replaced engine is not closed (its owner closes it).
   */
  set<C extends Capability>(capability: C, engine: EngineMap[C] | null): void;
  /** Configured capabilities → engine names (start-up logs). */
  describe(): Record<string, string>;
  /** Closes every engine that can be closed (each once, errors ignored). */
  close(): Promise<void>;
}

function nameOfEngine(engine: RegisteredEngine): string {
  return 'name' in engine ? engine.name : engine.model;
}

/**
 * A registry over the given engines (absent or null = not configured).
 * @param engines capability → engine
 */
export function createEngineRegistry(engines: EngineOverrides): EngineRegistry {
  const entries = new Map<string, RegisteredEngine>();
  for (const [capability, engine] of Object.entries(engines)) if (engine) entries.set(capability, engine as RegisteredEngine);
  const find = <C extends Capability>(capability: C) => (entries.get(capability) as EngineMap[C] | undefined) ?? null;
  const get = <C extends Capability>(capability: C): EngineMap[C] => {
    const engine = find(capability);
    if (!engine) throw new AppError('NOT_CONFIGURED', { message: `no engine configured for ${capability}` });
    return engine;
  };
  return {
    get,
    find,
    has: (capability) => entries.has(capability),
    nameOf: (capability) => nameOfEngine(get(capability) as RegisteredEngine),
    set(capability, engine) {
      if (engine) entries.set(capability, engine as RegisteredEngine);
      else entries.delete(capability);
    },
    describe: () => Object.fromEntries([...entries].map(([c, e]) => [c, nameOfEngine(e)])),
    async close() {
      for (const engine of new Set(entries.values())) await engine.close?.().catch(() => {});
    },
  };
}

/**
 * The engines the configuration names, each built once (an override replaces the configured one and
 * keeps the configured one from being built at all, so a test's fake never starts a local pool):
 * retouch and face edit on the shared local pool or RunPod; Kling, Seedream and the LLM when their keys
 * are set (absent otherwise, so their tools and calls answer NOT_CONFIGURED).
 * @param pool the process's one local worker pool (shared by the local engines and the moderator)
 */
export function enginesFromConfig(config: AppConfig, pool: LocalPool, overrides: EngineOverrides = {}): EngineRegistry {
  const pick = <C extends Capability>(capability: C, build: () => EngineMap[C] | null): EngineMap[C] | null =>
    capability in overrides ? (overrides[capability] ?? null) : build();
  const s = config.seedream;
  return createEngineRegistry({
    ...overrides,
    retouch: pick('retouch', () => createRetouchEngine(config, pool)),
    'face-edit': pick('face-edit', () => createFaceEditEngine(config, pool)),
    'image-generation': pick('image-generation', () => (config.vendors.kling ? createKlingGenerator(config.vendors.kling) : null)),
    'image-edit': pick('image-edit', () =>
      s.apiKey
        ? createSeedreamClient({ apiKey: s.apiKey, baseUrl: s.baseUrl, model: s.model, maxAttempts: s.maxAttempts, retryBaseMs: s.retryBaseMs, requestTimeoutMs: s.requestTimeoutMs, watermark: s.watermark })
        : null,
    ),
    llm: pick('llm', () => createLlmProvider(config)),
  });
}
