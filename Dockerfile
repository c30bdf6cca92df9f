# The flow service as operators run it: the service, the widget it serves, share pages and the
# script sandbox (no demo), from a production install, as an unprivileged user.
#   docker build -t flow-chat .
#   docker run -p 8787:8787 -v flow-chat-data:/data flow-chat
# compose.yaml runs it with PostgreSQL. docs/operators.md says what to set.

# Node 22.12 or later: what the service's dependencies need (package.json "engines").
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The widget (dist/) and the service (build/service/), then only the runtime packages are kept.
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8787 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/build ./build
# The embedded database and the generated credentials key live in /data unless DATABASE_URL and
# CREDENTIALS_KEY are set: keep it on a volume.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 8787
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/v1/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "build/service/main.mjs"]
