import type { Engine, EngineOptions } from './core/types'
import { createFlowEngine } from './engine'

/** Defaults for code run on the server: short, because it runs on the service's event loop. */
export const DEFAULT_CODE_TIMEOUT_MS = 500
export const DEFAULT_CODE_MEMORY_BYTES = 16 * 1024 * 1024

export function createEngine(options: EngineOptions = {}): Engine {
  return createFlowEngine({
    timeoutMs: positive(options.codeTimeoutMs) ?? DEFAULT_CODE_TIMEOUT_MS,
    memoryBytes: positive(options.codeMemoryBytes) ?? DEFAULT_CODE_MEMORY_BYTES,
    stepBytes: positive(options.stepByteBudget),
    responseBytes: positive(options.responseByteBudget),
  })
}

function positive(value: number | undefined): number | undefined {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : undefined
}

export * from './core/engine-error'
export * from './core/ports'
export * from './core/types'
