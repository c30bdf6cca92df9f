import { describe, expect, it } from 'vitest'
import {
  applyContentUpdate,
  contentFromImport,
  migrateVersion,
  toFlow,
  toPublishedSnapshot,
  withNeutralNames,
} from '../../../src/service/flows/flow-document'
import type { FlowRecord } from '../../../src/service/store/flows-repository'

const record = (content: Record<string, unknown>): FlowRecord => ({
  id: 'f1',
  workspaceId: 'w',
  publicId: 'p',
  content,
  isClosed: false,
  isArchived: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
})

describe('flow documents', () => {
  it('renames brand-named fields without overwriting neutral ones already present', () => {
    expect(withNeutralNames({ whatsAppCredentialsId: 'a', settings: { whatsApp: { isEnabled: true } } })).toEqual({
      messagingAppCredentialsId: 'a',
      settings: { messagingApp: { isEnabled: true } },
    })
    expect(
      withNeutralNames({ whatsAppCredentialsId: 'old', messagingAppCredentialsId: 'new', settings: { whatsApp: 1, messagingApp: 2 } }),
    ).toEqual({ messagingAppCredentialsId: 'new', settings: { messagingApp: 2 } })
  })

  it('keeps unknown fields of an import but drops server-owned ones', () => {
    const content = contentFromImport({
      events: [],
      groups: [],
      edges: [],
      id: 'x',
      workspaceId: 'w',
      customDomain: 'bot.example',
      futureField: { a: 1 },
    } as never)
    expect(content).toEqual({ events: [], groups: [], edges: [], futureField: { a: 1 }, name: 'Untitled flow' })
  })

  it('replaces present fields, keeps omitted ones and reports cleared required ones', () => {
    const { content, clearedRequired } = applyContentUpdate({ name: 'A', icon: 'x', groups: [] }, {
      icon: null,
      folderId: 'f',
      name: null,
      isClosed: true,
      updatedAt: 'now',
    } as never)
    expect(content).toEqual({ name: 'A', icon: null, groups: [], folderId: 'f' })
    expect(clearedRequired).toEqual(['name'])
  })

  it('migrates only versions that are the latest in all but name', () => {
    expect(migrateVersion('6', true)).toBe('6.1')
    expect(migrateVersion('6.1', true)).toBe('6.1')
    expect(migrateVersion('6', false)).toBe('6')
    expect(migrateVersion('5', true)).toBe('5')
    expect(migrateVersion(undefined, true)).toBeNull()
  })

  it('answers every Flow field, unset ones as null', () => {
    const flow = toFlow(record({ name: 'N', events: [], groups: [], edges: [] }))
    expect(flow).toMatchObject({ icon: null, theme: null, settings: null, riskLevel: null, version: null })
    expect(flow.publicId).toBe('p')
  })

  it('snapshots only the runnable part of a flow', () => {
    const snapshot = toPublishedSnapshot(record({ name: 'N', icon: 'i', events: [], groups: [], edges: [], version: '6' }), {
      publishedFlowId: 'pf',
      createdAt: 'c',
      updatedAt: 'u',
    })
    expect(snapshot).toEqual({
      id: 'pf',
      version: '6',
      createdAt: 'c',
      updatedAt: 'u',
      flowId: 'f1',
      groups: [],
      events: [],
      edges: [],
      variables: [],
      theme: {},
      settings: {},
    })
  })
})
