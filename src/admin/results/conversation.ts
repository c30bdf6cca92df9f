import type { VariableValue } from '../../protocol/common'
import type { Group } from '../../protocol/flow'
import type { ResultDetail } from '../../protocol/results'

export interface Turn {
  /** What the flow said before the visitor answered (its text bubbles before the input block). */
  questions: string[]
  /** The answer as the visitor's bubble showed it. */
  answer: string
}

/** The visible text of a rich-text tree (the builder's `richText` nodes: `{text}` leaves, `children`). */
function richText(node: unknown): string {
  if (Array.isArray(node)) return node.map(richText).join('')
  if (!node || typeof node !== 'object') return ''
  const { text, children, type } = node as { text?: unknown; children?: unknown; type?: unknown }
  if (typeof text === 'string') return text
  const inner = richText(children)
  return type === 'p' || type === 'li' ? `${inner}\n` : inner
}

const valueText = (value: VariableValue) => (Array.isArray(value) ? value.join(', ') : value === null ? '' : String(value))

/**
 * The conversation as the visitor saw it: for each answer, in the order given, the text bubbles the
 * flow showed just before that input (`{{variables}}` filled with the result's values) and the
 * answer. A block the flow no longer has keeps its answer with no question.
 */
export function conversation(flow: { groups: readonly Group[] }, result: Pick<ResultDetail['result'], 'answers' | 'variables'>): Turn[] {
  const values = new Map(result.variables.flatMap((variable) => (variable.name ? [[variable.name, valueText(variable.value)]] : [])))
  const fill = (text: string) => text.replace(/\{\{([^{}]{1,100})\}\}/g, (whole, name: string) => values.get(name.trim()) ?? whole)
  return result.answers.map((answer) => {
    const group = flow.groups.find((candidate) => candidate.id === answer.groupId)
    const index = group?.blocks.findIndex((block) => block.id === answer.blockId) ?? -1
    const questions: string[] = []
    for (let at = index - 1; group && at >= 0; at--) {
      const block = group.blocks[at]!
      if (block.type !== 'text') break
      const content = block.content as { richText?: unknown; plainText?: unknown } | undefined
      const text = (typeof content?.plainText === 'string' ? content.plainText : richText(content?.richText)).trim()
      if (text) questions.unshift(fill(text))
    }
    // What the visitor's bubble showed (a choice's label), not the value the flow stored.
    return { questions, answer: answer.display }
  })
}
