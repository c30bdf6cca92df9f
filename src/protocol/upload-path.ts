/**
 * Where a session's files are uploaded (protocol/uploads.ts): its own module, the one piece of
 * the uploads contract the widget's core needs (the rest is the file input chunk's).
 */
export const uploadPath = (sessionId: string) => `/v1/sessions/${encodeURIComponent(sessionId)}/uploads`
