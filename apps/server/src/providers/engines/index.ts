import type { AppConfig } from '../../config';
import { createLocalEngine, createLocalFaceEditEngine, type LocalPool } from './local.engine';
import type { RetouchEngine } from './retouch-engine';
import { createRunpodEngine, type RunpodEngineOptions } from './runpod.engine';
import type { FaceEditEngine } from './face-edit-engine';
import { createRunpodFaceEditEngine } from './runpod.face-edit';

/** Picks the retouch engine from config (RETOUCH_ENGINE): local CPU (default) or RunPod serverless. */
export function createRetouchEngine(config: AppConfig, pool?: LocalPool): RetouchEngine {
  if (config.engine.kind === 'runpod') {
    return createRunpodEngine(runpodOptions(config, config.engine.runpodEndpointUrl!));
  }
  return createLocalEngine(localPoolConfig(config), pool);
}

/** Picks the face-edit engine from config (FACE_EDIT_ENGINE): local inpainting (default) or RunPod. */
export function createFaceEditEngine(config: AppConfig, pool?: LocalPool): FaceEditEngine {
  if (config.faceEdit.kind === 'runpod') {
    return createRunpodFaceEditEngine(runpodOptions(config, config.faceEdit.runpodEndpointUrl!));
  }
  return createLocalFaceEditEngine(localPoolConfig(config), pool);
}

/** The worker-pool settings of the local engines. */
export function localPoolConfig(config: AppConfig) {
  return { modelsDir: config.engine.modelsDir, threads: config.engine.threads, warmUpSr: config.engine.warmUp };
}

/** RunPod settings shared by every tool's endpoint (key, job timeout, poll interval, URL base). */
function runpodOptions(config: AppConfig, endpointUrl: string): RunpodEngineOptions {
  return {
    endpointUrl,
    apiKey: config.engine.runpodApiKey!,
    timeoutMs: config.workers.jobTimeoutSeconds * 1000,
    imageBaseUrl: config.publicUrl,
    pollIntervalMs: config.engine.runpodPollIntervalMs,
  };
}
