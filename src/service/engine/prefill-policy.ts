import { asFields } from './core/field-readers'
import { type FlowIndex, indexFlow } from './core/flow-index'
import type { LinkedFlowLoader } from './core/ports'
import type { StartOptions } from './core/types'
import { variableIdByName } from './core/variables'
import { type ValueFlows, valueFlows } from './value-flows'

type Prefilled = NonNullable<StartOptions['prefilledVariables']>

/** Flows read to follow a start's prefilled values; a flow linking to more is judged as unknown. */
export const MAX_FLOWS_READ = 32

export interface Admission {
  admitted: Prefilled
  /** The names refused, each with where its value would have gone (for the start's log). */
  refused: Record<string, string>
}

/**
 * Which prefilled values (startChat's `prefilledVariables`, a share link's query) a chat starts
 * with. Whoever starts the chat chooses them, so a variable whose value would reach where a call
 * goes (an HTTP request's address, headers or query; an AI block's address, model or
 * credentials), whom an e-mail reaches, what a redirect, a link, an image or a frame opens, or
 * what text bubbles read as Markdown, is not prefilled: not in the started flow, not in a flow it
 * links to (values pass by name), not through a Set variable or a choice that copies it into
 * another variable. A flow opens a variable with `isPrefillable: true` (then what it copies into
 * is the author's choice too) and closes any with `isPrefillable: false`.
 */
export async function admitPrefilled(index: FlowIndex, prefilled: Prefilled | undefined, flows?: LinkedFlowLoader): Promise<Admission> {
  const admitted: Prefilled = {}
  const refused: Record<string, string> = {}
  const entries = Object.entries(prefilled ?? {})
  if (entries.length === 0) return { admitted, refused }
  const declared = (name: string) => {
    const id = variableIdByName(index, name)
    const value = id === undefined ? undefined : asFields(index.variablesById.get(id)).isPrefillable
    return typeof value === 'boolean' ? value : undefined
  }
  const { read, complete } = await linkedFlows(index, flows)
  const reached = reachingNames(read, (name) => declared(name) === true)
  for (const [name, value] of entries) {
    const id = variableIdByName(index, name)
    const open = declared(name)
    const reason =
      id === undefined ? undefined : open === false ? 'isPrefillable: false' : open === true ? undefined : reached.get(name.trim())
    if (reason !== undefined) refused[name] = reason
    else if (id !== undefined && open !== true && !complete) refused[name] = `a flow beyond the first ${MAX_FLOWS_READ} it links to`
    else admitted[name] = value
  }
  return { admitted, refused }
}

/** The started flow and the flows it links to, directly or not; `complete` is false past MAX_FLOWS_READ. */
async function linkedFlows(root: FlowIndex, loader: LinkedFlowLoader | undefined): Promise<{ read: ValueFlows[]; complete: boolean }> {
  const read = [valueFlows(root)]
  const seen = new Set(['current', root.flow.flowId])
  const pending = [...read[0]!.links]
  while (pending.length > 0 && loader) {
    const ref = pending.shift()!
    if (seen.has(ref)) continue
    seen.add(ref)
    if (read.length >= MAX_FLOWS_READ) return { read, complete: false }
    const linked = await loader.current(ref)
    if (!linked) continue
    seen.add(linked.flowId)
    const flows = valueFlows(indexFlow(linked.flow))
    read.push(flows)
    pending.push(...flows.links)
  }
  return { read, complete: true }
}

/**
 * Every name whose value reaches one of the flows' sinks, directly or copied into names that do,
 * with the place it reaches. An `open` name is the author's to fill: copies into it stop there.
 */
function reachingNames(flows: readonly ValueFlows[], open: (name: string) => boolean): Map<string, string> {
  const reached = new Map<string, string>()
  const copiedFrom = new Map<string, Set<string>>()
  for (const { sinks, copies } of flows) {
    for (const [name, place] of sinks) if (!reached.has(name)) reached.set(name, place)
    for (const [from, targets] of copies) {
      for (const to of targets) {
        let sources = copiedFrom.get(to)
        if (!sources) copiedFrom.set(to, (sources = new Set()))
        sources.add(from)
      }
    }
  }
  // The place each copy finally reaches, so a chain of copies names the place, not the chain.
  const placeOf = new Map(reached)
  const pending = [...reached.keys()]
  while (pending.length > 0) {
    const name = pending.pop()!
    if (open(name)) continue
    for (const source of copiedFrom.get(name) ?? []) {
      if (reached.has(source)) continue
      placeOf.set(source, placeOf.get(name)!)
      reached.set(source, `${placeOf.get(name) ?? reached.get(name)}, copied there through "${name}"`)
      pending.push(source)
    }
  }
  return reached
}
