import { Marked } from 'marked'
import { afterAll, describe, expect, it } from 'vitest'
import type { StepOutcome } from '../../../../../src/service/engine/index'
import { closeSandbox } from '../../../../../src/service/engine/sandbox/sandbox'
import { HOSTILE_MARKDOWN_VALUES } from '../../../fixtures/hostile-markdown-values'
import { buildFlow, Conversation, input, text, varId } from '../../support/flow-builder'

afterAll(closeSandbox)

/** The widget reads a bubble's `markdown` with marked, GitHub-flavoured, single newlines as breaks. */
const marked = new Marked({ gfm: true, breaks: true, async: false })
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" }
const tagsOf = (html: string) => new Set([...html.matchAll(/<([a-z][a-z0-9]*)\b/g)].map((match) => match[1]))
const textOf = (html: string) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ENTITIES[name]!)
    .replace(/\s+/g, ' ')
    .trim()
const words = (value: string) => value.replace(/\s+/g, ' ').trim()

/** `Name` is the visitor's; `Answer` the author marked as Markdown (an AI answer, say). */
function bubbleFlow() {
  const flow = buildFlow({
    variables: ['Name', 'Answer'],
    groups: [
      {
        id: 'g',
        blocks: [
          text('hello', 'Hello {{Name}}'),
          text('both', '{{Answer}} for {{Name}}'),
          input('ask', 'text input', { variableId: varId('Name') }),
          text('echo', 'You said: {{Name}}'),
        ],
      },
    ],
  })
  flow.variables = flow.variables?.map((variable) =>
    variable.name === 'Answer' ? { ...variable, value: '**Paris** is the answer', isMarkdown: true } : variable,
  )
  return flow
}

const content = (outcome: StepOutcome, id: string) =>
  outcome.response.messages?.find((message) => message.id === id)?.content as { markdown?: string; plainText: string; richText: unknown }

describe("a visitor's value in a text bubble", () => {
  it.each(HOSTILE_MARKDOWN_VALUES.map((entry) => [entry.tries, entry.value] as const))('%s: reads as typed', async (_, value) => {
    const outcome = await new Conversation(bubbleFlow()).start({ prefilledVariables: { Name: value } })

    // Alone, the bubble is rich text with the value as a text leaf: no Markdown to read.
    const hello = content(outcome, 'hello')
    expect(hello.markdown).toBeUndefined()
    expect(hello.plainText).toBe(`Hello ${value}`)

    // Beside a Markdown variable, the author's value keeps its bold; the visitor's makes no element.
    const both = content(outcome, 'both')
    const html = marked.parse(both.markdown!, { async: false })
    expect([...tagsOf(html)].sort()).toEqual(expect.arrayContaining(['p', 'strong']))
    for (const tag of tagsOf(html)) expect(['p', 'strong', 'br'], `<${tag}> in ${html}`).toContain(tag)
    expect(html.match(/<strong>/g)).toHaveLength(1)
    expect(textOf(html)).toBe(words(`Paris is the answer for ${value}`))
  })

  it('reads as typed when it is an answer shown back, too', async () => {
    const chat = new Conversation(bubbleFlow())
    await chat.start()
    const value = HOSTILE_MARKDOWN_VALUES[0]!.value
    const outcome = await chat.answer(value)
    expect(content(outcome, 'echo')).toMatchObject({ plainText: `You said: ${value}` })
    expect(content(outcome, 'echo').markdown).toBeUndefined()
  })
})
