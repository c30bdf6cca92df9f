/** What the sandbox test's host page keeps where a script must not reach it. */
export const HOST_SECRETS = {
  cookie: 'host_secret=s3cr3t-cookie',
  localStorage: 's3cr3t-local',
  sessionStorage: 's3cr3t-session',
}
