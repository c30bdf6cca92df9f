import { useSignal } from '@preact/signals'
import { useEffect, useRef } from 'preact/hooks'
import type { Group } from '../../protocol/flow'
import { deleteResult, getFlow, getPublishedFlow, getResult } from '../../protocol/management-api'
import type { ResultDetail as Detail } from '../../protocol/results'
import { ApiError, api, messageOf } from '../api'
import { Confirm } from '../confirm'
import { dateTime } from '../dates'
import { announce } from '../session'
import { cellText } from './columns'
import { conversation } from './conversation'

/**
 * The flow whose questions the visitor read: the published version (what visitors get), else the
 * flow as stored. The API does not say which version a result ran on; an edit published since
 * shows its new words.
 */
async function shownFlow(flowId: string): Promise<{ groups: Group[] }> {
  try {
    return await getPublishedFlow(api, flowId)
  } catch (caught) {
    if (!(caught instanceof ApiError) || caught.status !== 404) throw caught
    return await getFlow(api, flowId)
  }
}

/** One result: the conversation as the visitor saw it, the variables as it left them, and its deletion. */
export function ResultDetail(props: { flowId: string; resultId: string; onClose(): void; onDeleted(id: string): void }) {
  const detail = useSignal<{ result: Detail['result']; flow: { groups: Group[] } } | null>(null)
  const error = useSignal<string | null>(null)
  const confirming = useSignal(false)
  const heading = useRef<HTMLHeadingElement>(null)

  useEffect(() => {
    Promise.all([getResult(api, props.flowId, props.resultId), shownFlow(props.flowId)])
      .then(([one, flow]) => {
        detail.value = { result: one.result, flow }
        heading.current?.focus()
      })
      .catch((caught) => (error.value = messageOf(caught)))
  }, [props.resultId])

  const remove = async () => {
    try {
      await deleteResult(api, props.flowId, props.resultId)
      announce('The result is deleted.')
      props.onDeleted(props.resultId)
    } catch (caught) {
      confirming.value = false
      error.value = messageOf(caught)
    }
  }

  const result = detail.value?.result
  return (
    <section class="detail" aria-labelledby="detail-title">
      <h4 id="detail-title" tabIndex={-1} ref={heading}>
        {result ? `Result of ${dateTime(result.createdAt)}` : 'Result'}
      </h4>
      {error.value && (
        <p class="error" role="alert">
          {error.value}
        </p>
      )}
      {result && detail.value && (
        <>
          <p>{result.isCompleted ? 'Completed' : 'Not completed'}</p>
          {result.answers.length > 0 && (
            <ol class="conversation" aria-label="Conversation">
              {conversation(detail.value.flow, result).map((turn, index) => (
                <li key={index}>
                  {turn.questions.map((question, at) => (
                    <p class="bubble host" key={at}>
                      <span class="visually-hidden">Flow: </span>
                      {question}
                    </p>
                  ))}
                  <p class="bubble guest">
                    <span class="visually-hidden">Visitor: </span>
                    {turn.answer}
                  </p>
                </li>
              ))}
            </ol>
          )}
          {result.answers.length === 0 && <p>The visitor answered nothing.</p>}
          {result.variables.length > 0 && (
            <dl class="variables">
              {result.variables.map((variable) => (
                <div key={variable.id}>
                  <dt>{variable.name ?? variable.id}</dt>
                  <dd>{cellText(variable.value)}</dd>
                </div>
              ))}
            </dl>
          )}
        </>
      )}
      <div class="actions">
        <button type="button" onClick={props.onClose}>
          Back to the results
        </button>
        {result && !confirming.value && (
          <button type="button" class="danger" onClick={() => (confirming.value = true)}>
            Delete this result
          </button>
        )}
      </div>
      {confirming.value && (
        <Confirm
          question="Delete this result, its answers and its files for good?"
          action="Delete the result"
          onConfirm={remove}
          onCancel={() => (confirming.value = false)}
        />
      )}
    </section>
  )
}
