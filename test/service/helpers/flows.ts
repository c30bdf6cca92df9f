import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { TestService } from './service'
import { WORKSPACE } from './service'

/**
 * Real flow exports shared by the whole project (read-only): `../shared/flows` beside the
 * repository's checkout, wherever that is (a worktree, CI's clone).
 */
export const SHARED_FLOWS_DIR = join(import.meta.dirname, '../../../../shared/flows')

export function sharedFlowFiles(): string[] {
  return readdirSync(SHARED_FLOWS_DIR)
    .filter((name) => name.endsWith('.json'))
    .sort()
}

export function loadSharedFlow(file: string): Record<string, any> {
  return JSON.parse(readFileSync(join(SHARED_FLOWS_DIR, file), 'utf8'))
}

/**
 * A small flow written for these tests: a greeting, a text input into "Name", then a goodbye
 * that uses it. `overrides` replace top-level fields (settings, name, …).
 */
export function greetingFlow(overrides: Record<string, unknown> = {}): Record<string, any> {
  return {
    version: '6',
    name: 'Greeting',
    events: [{ id: 'ev1', outgoingEdgeId: 'e1', graphCoordinates: { x: 0, y: 0 }, type: 'start' }],
    groups: [
      {
        id: 'g1',
        title: 'Ask',
        graphCoordinates: { x: 0, y: 100 },
        blocks: [
          text('b1', 'Hello! What is your name?'),
          {
            id: 'b2',
            type: 'text input',
            outgoingEdgeId: 'e2',
            options: { variableId: 'vName', labels: { placeholder: 'Your name', button: 'Send' } },
          },
        ],
      },
      {
        id: 'g2',
        title: 'Bye',
        graphCoordinates: { x: 0, y: 300 },
        blocks: [
          {
            id: 'b3',
            type: 'number input',
            outgoingEdgeId: 'e3',
            options: { variableId: 'vAge', labels: { placeholder: 'Your age' } },
          },
        ],
      },
      { id: 'g3', title: 'End', graphCoordinates: { x: 0, y: 500 }, blocks: [text('b4', 'Thanks {{Name}}, bye!')] },
    ],
    edges: [
      { id: 'e1', from: { eventId: 'ev1' }, to: { groupId: 'g1' } },
      { id: 'e2', from: { blockId: 'b2' }, to: { groupId: 'g2' } },
      { id: 'e3', from: { blockId: 'b3' }, to: { groupId: 'g3' } },
    ],
    variables: [
      { id: 'vName', name: 'Name' },
      { id: 'vAge', name: 'Age' },
    ],
    theme: { general: { font: 'Open Sans' } },
    settings: { general: { isInputPrefillEnabled: false } },
    ...overrides,
  }
}

/**
 * A greeting, a file input (`options` over a single required file into "Files"), a text input,
 * then a goodbye naming the files: for uploads.
 */
export function fileInputFlow(options: Record<string, unknown> = {}, overrides: Record<string, unknown> = {}): Record<string, any> {
  return greetingFlow({
    name: 'Files',
    groups: [
      {
        id: 'g1',
        title: 'Ask',
        graphCoordinates: { x: 0, y: 100 },
        blocks: [
          text('b1', 'Please send your receipt.'),
          { id: 'f1', type: 'file input', outgoingEdgeId: 'e2', options: { variableId: 'vFiles', ...options } },
        ],
      },
      {
        id: 'g2',
        title: 'Name',
        graphCoordinates: { x: 0, y: 300 },
        blocks: [{ id: 'b3', type: 'text input', outgoingEdgeId: 'e3', options: { variableId: 'vName' } }],
      },
      { id: 'g3', title: 'End', graphCoordinates: { x: 0, y: 500 }, blocks: [text('b4', 'Got: {{Files}}')] },
    ],
    variables: [
      { id: 'vFiles', name: 'Files' },
      { id: 'vName', name: 'Name' },
    ],
    ...overrides,
  })
}

/** A text bubble saying `plainText`. */
export function text(id: string, plainText: string) {
  return {
    id,
    type: 'text',
    content: { richText: [{ type: 'p', children: [{ text: plainText }] }] },
  }
}

/** Imports `flow` into the demo workspace over HTTP and returns the created flow. */
export async function importOverHttp(svc: TestService, flow: unknown): Promise<Record<string, any>> {
  const res = await svc.call('POST', '/v1/flows/import', {
    token: svc.tokens.secret,
    json: { workspaceId: WORKSPACE, flow },
  })
  if (res.status !== 200) throw new Error(`import failed: ${res.status} ${res.text}`)
  return res.body.flow
}

export async function publishOverHttp(svc: TestService, flowId: string): Promise<Record<string, any>> {
  const res = await svc.call('POST', `/v1/flows/${flowId}/publish`, { token: svc.tokens.secret })
  if (res.status !== 200) throw new Error(`publish failed: ${res.status} ${res.text}`)
  return res.body.publishedFlow
}
