import { act, cleanup } from '@testing-library/preact'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { INPUT_CHUNKS } from '../../../src/widget/ui/inputs/input-views'
import { MESSAGE_CHUNKS, streamedAnswerView } from '../../../src/widget/ui/message-content'
import { restartNoticeView } from '../../../src/widget/ui/status-views'
import { publishedFlow, REMEMBER, settle } from '../chat/fake-client'
import { renderApp } from './render-app'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

/** The chunks a published flow alone makes the widget request (its first step never arrives). */
async function requestedFor(flow: ReturnType<typeof publishedFlow>) {
  const views = {
    'rich inputs': INPUT_CHUNKS.get('choice input')!,
    'media players': MESSAGE_CHUNKS.get('video')!,
    'answer view': streamedAnswerView,
    'restart notice': restartNoticeView,
  }
  const spies = Object.entries(views).map(([name, view]) => [name, vi.spyOn(view, 'preload').mockResolvedValue()] as const)
  const setup = renderApp({ published: flow, start: new Promise(() => {}) as never })
  await act(async () => {
    setup.conversation.start()
    await settle()
  })
  return spies.filter(([, spy]) => spy.mock.calls.length > 0).map(([name]) => name)
}

describe('usePreloadViews', () => {
  it('requests the views of the kinds of block the published flow announces, before its first step', async () => {
    expect(await requestedFor(publishedFlow({ blockKinds: ['choice input', 'stream', 'text', 'video'] }))).toEqual([
      'rich inputs',
      'media players',
      'answer view',
    ])
  })

  it('requests nothing for a flow of text and text inputs, and the restart notice for one that remembers users', async () => {
    expect(await requestedFor(publishedFlow({ blockKinds: ['text', 'text input'] }))).toEqual([])
    expect(await requestedFor(publishedFlow({ blockKinds: ['text'], settings: REMEMBER }))).toEqual(['restart notice'])
  })
})
