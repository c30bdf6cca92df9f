import { runInSandbox, type SandboxLimits, type SandboxProgram, type SandboxRun } from '../sandbox/sandbox'
import type { SandboxPool } from '../sandbox/sandbox-pool'
import type { AiCaller, HttpCaller, LinkedFlowLoader, MailSender, SnapshotAnswer } from './ports'

/**
 * What one step of one conversation runs with, beyond the flow and the session state: who it
 * runs for, the clock, and the ports it may call (ports.ts). The service builds one per request;
 * later blocks extend it (a loader for linked flows, an outbound HTTP client, a mailer) without
 * changing the engine's signatures. Everything here is called outside any database transaction.
 */
export interface StepContext {
  /** The tenant: the fairness key for shared resources such as the code sandbox. */
  readonly workspaceId: string
  readonly flowId: string
  readonly sessionId: string
  readonly resultId: string
  readonly now: () => Date
  /** Runs flow code in the sandbox pool, in this tenant's and this session's turn. */
  runCode(program: SandboxProgram, limits: SandboxLimits): Promise<SandboxRun>
  /** Tells the operator something about this step (a flow going over a budget). */
  report(message: string): void
  /** Published flows of this workspace a `Typebot link` may enter; none when left out. */
  readonly flows?: LinkedFlowLoader
  /** Outgoing HTTP through the outbound guard; without it HTTP request blocks are skipped with a log. */
  readonly http?: HttpCaller
  /** Sends an `Email` block's e-mail for this workspace; without it they are skipped with a log. */
  readonly mail?: MailSender
  /** Answers the result held before this step (the default body of HTTP requests and e-mails). */
  readonly resultAnswers?: () => Promise<SnapshotAnswer[]>
  /** AI providers with this workspace's credentials; without it AI blocks are skipped with a log. */
  readonly ai?: AiCaller
  /**
   * The URLs of the files this session uploaded to the file input it waits on, exactly as the
   * upload answered them: a file input's answer may name only these (read before the step).
   */
  readonly uploadedFiles?: ReadonlySet<string>
}

/** What a step's context is made from: the service's parts, or a test's. */
export interface StepContextInput {
  workspaceId: string
  flowId: string
  sessionId: string
  resultId: string
  now?: () => Date
  /** The pool to run code on; the process's shared pool by default. */
  sandbox?: SandboxPool
  report?: (message: string) => void
  flows?: LinkedFlowLoader
  http?: HttpCaller
  mail?: MailSender
  resultAnswers?: () => Promise<SnapshotAnswer[]>
  ai?: AiCaller
}

export function createStepContext(input: StepContextInput): StepContext {
  const key = { tenant: input.workspaceId, session: input.sessionId }
  return {
    workspaceId: input.workspaceId,
    flowId: input.flowId,
    sessionId: input.sessionId,
    resultId: input.resultId,
    now: input.now ?? (() => new Date()),
    runCode: (program, limits) => runInSandbox(program, limits, { key, pool: input.sandbox }),
    report:
      input.report ??
      ((message) => console.warn(`[engine] workspace ${input.workspaceId}, flow ${input.flowId}, session ${input.sessionId}: ${message}`)),
    ...(input.flows ? { flows: input.flows } : {}),
    ...(input.http ? { http: input.http } : {}),
    ...(input.mail ? { mail: input.mail } : {}),
    ...(input.resultAnswers ? { resultAnswers: input.resultAnswers } : {}),
    ...(input.ai ? { ai: input.ai } : {}),
  }
}

/** For a step run outside the service (tests, tools): anonymous, on the shared pool. */
export const standaloneStepContext = (): StepContext => createStepContext({ workspaceId: '', flowId: '', sessionId: '', resultId: '' })
