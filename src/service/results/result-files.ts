/**
 * What results own outside the database: files visitors uploaded. Deleting results deletes
 * their rows first (answers, logs, sessions and webhook deliveries go with them), then asks this
 * to remove their files, so no stored answer ever points at a file already gone.
 *
 * Uploads store their files per result: the results routes pass `deleteResults` one that asks
 * the uploads' `Files` to remove them.
 */
export interface ResultFiles {
  removeForResults(flow: { id: string; workspaceId: string }, resultIds: readonly string[]): Promise<void>
}

export const NO_RESULT_FILES: ResultFiles = { removeForResults: async () => undefined }
