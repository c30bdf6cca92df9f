/** The API's answers as the console reads them (docs/reference/http-api.md). */

export interface FlowSummary {
  id: string
  publicId: string
  workspaceId: string
  name: string
  isArchived: boolean
  isClosed: boolean
  updatedAt: string
  publishedAt: string | null
  results: { total: number; completed: number }
}

export interface Column {
  id: string
  name: string
  kind: 'input' | 'variable'
  blockId?: string
  hidden: boolean
  width?: number
}

export type Cell = string | number | boolean | string[] | null

export interface ResultRow {
  id: string
  createdAt: string
  updatedAt: string
  isCompleted: boolean
  cells: Record<string, Cell>
}

export interface ResultPage {
  columns: Column[]
  results: ResultRow[]
  nextCursor: string | null
}

export interface Answer {
  blockId: string
  groupId: string
  columnId: string | null
  value: string
  createdAt: string
}

export interface ResultDetail extends ResultRow {
  answers: Answer[]
  variables: Array<{ id: string; name: string | null; value: Cell }>
}

export interface TokenInfo {
  id: string
  kind: 'secret' | 'publishable'
  label: string | null
  hint: string | null
  current: boolean
}

export interface Delivery {
  id: string
  resultId: string
  status: string
  attempts: Array<{ at: string; status?: number; error?: string }>
  createdAt: string
  nextAttemptAt: string | null
}

/** The parts of a stored flow the console reads: its blocks (for questions) and its timestamps. */
export interface FlowDocument {
  id: string
  updatedAt: string
  groups: Array<{ id: string; title: string; blocks: Array<{ id: string; type: string; content?: unknown }> }>
  resultsTablePreferences?: ColumnPreferences
}

export interface ColumnPreferences {
  columnsOrder?: string[]
  columnsVisibility?: Record<string, boolean>
  columnsWidth?: Record<string, number>
}
