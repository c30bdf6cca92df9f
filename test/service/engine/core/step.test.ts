import { afterAll, describe, expect, it } from 'vitest'
import { indexFlow } from '../../../../src/service/engine/core/flow-index'
import { Step } from '../../../../src/service/engine/core/step'
import { closeSandbox } from '../../../../src/service/engine/sandbox/sandbox'
import { buildFlow } from '../support/flow-builder'

afterAll(closeSandbox)

const newStep = () =>
  new Step(indexFlow(buildFlow({ groups: [{ id: 'g', blocks: [] }] })), {}, { timeoutMs: 100, memoryBytes: 8 * 1024 * 1024 })

describe('Step', () => {
  it('shares one code time budget across the whole request', async () => {
    const step = newStep()
    const spin = { body: 'for (;;) {}', params: [], args: [] }
    for (let i = 0; i < 4; i++) expect(await step.runCode(spin)).toEqual({ status: 'timeout' })
    // The budget is spent: even quick code is not started again in this request.
    expect(await step.runCode({ body: 'return 1', params: [], args: [] })).toEqual({
      status: 'error',
      message: 'not run, this step already used its time for code',
    })
    expect(await newStep().runCode({ body: 'return 1', params: [], args: [] })).toEqual({ status: 'ok', value: 1 })
  })

  it('tags client actions with the last bubble sent before them', () => {
    const step = newStep()
    step.addAction({ type: 'wait', wait: { secondsToWaitFor: 1 } })
    step.addMessage({ id: 'm1', type: 'text' })
    step.addAction({ type: 'redirect', redirect: { url: 'https://a.test' } })
    expect(step.actions).toEqual([
      { type: 'wait', wait: { secondsToWaitFor: 1 } },
      { type: 'redirect', redirect: { url: 'https://a.test' }, lastBubbleBlockId: 'm1' },
    ])
  })
})
