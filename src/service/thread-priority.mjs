// @ts-check
/**
 * Lowers the calling thread's CPU priority, for the worker threads that do heavy work for
 * visitors (flow code, QR code pictures): on a busy machine they slow their own callers, not the
 * event loop every request needs. Linux schedules threads by their own id (/proc/thread-self);
 * elsewhere, or where it is not allowed, the thread keeps the normal priority.
 */
import { readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'

export function lowerThreadPriority() {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop())
    if (threadId > 0) setPriority(threadId, 10)
  } catch {
    // Not Linux, or not allowed: nothing to do.
  }
}
