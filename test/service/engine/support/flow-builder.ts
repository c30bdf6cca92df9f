import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ChatReplyMessage } from '../../../../src/protocol/index'
import {
  type Block,
  chatStepResultSchema,
  type Edge,
  importFlowSchema,
  type PublishedFlow,
  type Settings,
  type Theme,
} from '../../../../src/protocol/index'
import { createStepContext, type StepContextInput } from '../../../../src/service/engine/core/step-context'
import {
  createEngine,
  type Engine,
  type LinkedFlowLoader,
  type StartOptions,
  type StepContext,
  type StepOutcome,
} from '../../../../src/service/engine/index'
import { SHARED_FLOWS_DIR } from '../../helpers/flows'

/** Test flows: small graphs written inline, published the way the service publishes them. */

let published = 0

/** Variable ids used by the builder: `v` + the name without spaces ("Lead Score" → "vLeadScore"). */
export const varId = (name: string) => `v${name.replace(/\W/g, '')}`

export interface FlowSpec {
  groups: { id: string; title?: string; blocks: Block[] }[]
  edges?: Edge[]
  variables?: string[]
  theme?: Theme
  settings?: Settings
  /** Group the start event leads to; the first group by default. */
  startGroupId?: string
  /** Events besides the start event. */
  events?: PublishedFlow['events']
}

export function buildFlow(spec: FlowSpec): PublishedFlow {
  const first = spec.startGroupId ?? spec.groups[0]?.id ?? 'missing'
  published++
  return {
    id: `published-${published}`,
    flowId: `flow-${published}`,
    version: '6',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    events: [{ id: 'start', type: 'start', outgoingEdgeId: 'edge-start' }, ...(spec.events ?? [])],
    groups: spec.groups.map((group) => ({ ...group, title: group.title ?? group.id })),
    edges: [{ id: 'edge-start', from: { eventId: 'start' }, to: { groupId: first } }, ...(spec.edges ?? [])],
    variables: (spec.variables ?? []).map((name) => ({ id: varId(name), name })),
    theme: spec.theme,
    settings: spec.settings,
  }
}

/** A published flow made from one of the real exports in ../shared/flows (beside the checkout). */
export function publishedFromFile(file: string, theme?: Theme): PublishedFlow {
  const raw: unknown = JSON.parse(readFileSync(join(SHARED_FLOWS_DIR, file), 'utf8'))
  const flow = importFlowSchema.parse(raw)
  published++
  return {
    id: `published-${published}`,
    flowId: `flow-${published}`,
    version: flow.version,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    events: flow.events,
    groups: flow.groups,
    edges: flow.edges,
    variables: flow.variables,
    theme: theme ?? flow.theme,
    settings: flow.settings,
  }
}

export const text = (id: string, value: string, extra: Partial<Block> = {}): Block => ({
  id,
  type: 'text',
  content: { richText: [{ type: 'p', children: [{ text: value }] }] },
  ...extra,
})

export const input = (id: string, type: string, options: Record<string, unknown> = {}, extra: Partial<Block> = {}): Block => ({
  id,
  type,
  options,
  ...extra,
})

export const edge = (id: string, fromBlockId: string, toGroupId: string, more: { itemId?: string; toBlockId?: string } = {}): Edge => ({
  id,
  from: { blockId: fromBlockId, ...(more.itemId ? { itemId: more.itemId } : {}) },
  to: { groupId: toGroupId, ...(more.toBlockId ? { blockId: more.toBlockId } : {}) },
})

/** The plain texts of a response's text messages, in order. */
export function texts(outcome: StepOutcome): string[] {
  return (outcome.response.messages ?? [])
    .filter((message) => message.type === 'text')
    .map((message) => (message.content as { plainText: string }).plainText)
}

/**
 * The published flows of one workspace, as the service's loader serves them: by flow id, each
 * published version by its id (`version-` + the flow id).
 */
export function flowLoader(...flows: PublishedFlow[]): LinkedFlowLoader {
  const byFlowId = new Map(flows.map((flow) => [flow.flowId, flow]))
  return {
    current: async (ref) => {
      const flow = byFlowId.get(ref)
      return flow && { flowId: flow.flowId, versionId: `version-${flow.flowId}`, flow }
    },
    version: async (versionId) => byFlowId.get(versionId.replace(/^version-/, '')),
  }
}

/** Drives one session through the engine, checking every response against the contract. */
export class Conversation {
  outcome!: StepOutcome
  readonly outcomes: StepOutcome[] = []

  readonly context: StepContext

  /** `context`: what the service would tell the engine (a result id, linked flows); the rest is anonymous. */
  constructor(
    readonly flow: PublishedFlow,
    readonly engine: Engine = createEngine(),
    context: Partial<StepContextInput> = {},
  ) {
    this.context = createStepContext({ workspaceId: '', flowId: '', sessionId: '', resultId: 'result-1', ...context })
  }

  async start(options?: StartOptions): Promise<StepOutcome> {
    return this.record(await this.engine.start(this.flow, options, this.context))
  }

  async answer(message: ChatReplyMessage): Promise<StepOutcome> {
    // Round-trip the state through JSON, as the service stores it.
    const state = JSON.parse(JSON.stringify(this.outcome.state))
    return this.record(await this.engine.continue(this.flow, state, message, this.context))
  }

  get variables() {
    return this.outcome.state.variables
  }

  private record(outcome: StepOutcome): StepOutcome {
    chatStepResultSchema.parse(outcome.response)
    this.outcome = outcome
    this.outcomes.push(outcome)
    return outcome
  }
}
