import { asFields, readString } from '../../core/field-readers'
import type { Step } from '../../core/step'
import type { HttpResponseData } from '../../core/types'
import { parameterize } from '../code-params'
import { toVariableValue } from '../code-results'
import { describeFailure } from '../logic/set-variable'

/**
 * Every `{bodyPath}` of `responseVariableMapping` is a JavaScript expression over `statusCode`
 * and `data` (`data.results[0].title`, `data.genres.flatMap(g => g.name)`), run in the code
 * sandbox, never in the service: all of a block's expressions in one run, each on its own, so one
 * that throws (skipped, as builders do) does not stop the others. Runs for error answers too.
 */
export async function applyResponseMapping(step: Step, options: unknown, response: HttpResponseData, blockId: string): Promise<void> {
  const targets: string[] = []
  const expressions: MappingExpression[] = []
  for (const item of asArray(asFields(options).responseVariableMapping)) {
    const fields = asFields(item)
    const variableId = readString(fields, 'variableId')
    const bodyPath = (readString(fields, 'bodyPath') ?? '').trim()
    if (!variableId || !step.index.variablesById.has(variableId) || bodyPath === '') continue
    // Each `{{Var}}` is a parameter holding its value, as in Set variable: a visitor's answer is never code.
    const { code, args } = parameterize(indexedPlaceholders(bodyPath), step.index, step.variables, BOUND_NAMES)
    targets.push(variableId)
    expressions.push({ code, names: args.map((arg) => arg.id), values: args.map((arg) => arg.value) })
  }
  if (expressions.length === 0) return
  const outcome = await step.runCode({
    body: MAPPING_PROGRAM,
    params: ['statusCode', 'data', 'expressions'],
    args: [response.statusCode, response.data ?? null, expressions],
  })
  if (outcome.status !== 'ok' || !Array.isArray(outcome.value)) {
    const why = outcome.status === 'ok' ? 'unexpected result' : describeFailure(outcome, step.limits.timeoutMs)
    step.log('error', `The response could not be mapped to variables: ${why}`, { blockId })
    return
  }
  const results = outcome.value as unknown[]
  targets.forEach((variableId, i) => {
    const result = results[i]
    if (!Array.isArray(result) || result[0] !== true) return
    const value = toVariableValue(result[1])
    if (value === undefined) {
      step.log('warning', 'A mapped value is too long to keep in a variable', { blockId, variableId })
      return
    }
    step.variables[variableId] = value
  })
}

interface MappingExpression {
  code: string
  /** The parameters its `{{Var}}` became, and their values. */
  names: string[]
  values: unknown[]
}

/** What the program binds besides an expression's own parameters. */
const BOUND_NAMES = ['statusCode', 'data', 'expressions', 'mappingExpression']
const DOTTED_PLACEHOLDER = /(\?)?\.\s*(\{\{[^{}]+\}\})/g

/** `data.{{Field}}` → `data[{{Field}}]`: the field the variable names, read with its value. */
function indexedPlaceholders(bodyPath: string): string {
  return bodyPath.replace(
    DOTTED_PLACEHOLDER,
    (_match, optional: string | undefined, placeholder: string) => `${optional ? '?.' : ''}[${placeholder}]`,
  )
}

// Direct `eval` in a function of the expression's parameters sees them, `statusCode` and `data`;
// the expression and the values are data, never spliced into code.
const MAPPING_PROGRAM = `return expressions.map(function (item) {
  try {
    var run = Function.apply(null, item.names.concat(['statusCode', 'data', 'mappingExpression', 'return eval(mappingExpression)']))
    var value = run.apply(null, item.values.concat([statusCode, data, item.code]))
    return [true, value === undefined ? null : value]
  } catch (error) {
    return [false]
  }
})`

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : []
}
