# The flow service as operators run it: the service, the widget it serves, share pages and the
# script sandbox (no demo), from a production install, as an unprivileged user.
#   docker build -t flow-chat .
#   docker run -p 8787:8787 -v flow-chat-data:/data flow-chat
#   docker exec CONTAINER npx flow-service token create --kind secret   (the command line, beside it)
# compose.yaml runs it with PostgreSQL. docs/operators/deployment.md says how, and
# docs/operators/configuration.md what to set.

# Node 22.12 or later: what the service's dependencies need (package.json "engines", which
# .npmrc makes npm enforce).
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY . .
# The widget (dist/) and the service (build/service/), then only the runtime packages are kept.
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim
# npm runs the command line (npx flow-service) here: no registry to ask about its own updates.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8787 \
    DATA_DIR=/data \
    NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json /app/.npmrc ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/build ./build
# The embedded database and the generated credentials key live in /data unless DATABASE_URL and
# CREDENTIALS_KEY are set: keep it on a volume.
RUN mkdir -p /data && chown node:node /data
# `npx flow-service` links the command line into the user's npm cache the first time, making its
# file executable, which the node user may not do to these root-owned files: linked here, once.
RUN HOME=/home/node npx --yes flow-service help >/dev/null && chown -R node:node /home/node/.npm
USER node
VOLUME /data
EXPOSE 8787
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/v1/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "build/service/main.mjs"]
