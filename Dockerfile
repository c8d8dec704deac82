# syntax=docker/dockerfile:1
# Deckhand: build the compiled dist/ with the dev dependencies, then ship it with production
# dependencies only, as the unprivileged `node` user. Run with compose.yaml (Redis, web, worker).

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/sandbox/package.json ./packages/sandbox/
COPY bin ./bin
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY packages ./packages
COPY src ./src
COPY adapters ./adapters
COPY commands ./commands
COPY i18n ./i18n
RUN node bin/build.mjs

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/.data
WORKDIR /app
COPY package.json package-lock.json ./
# The workspace packages' manifests (their code is bundled into dist/; npm installs their dependencies).
COPY packages/sandbox/package.json ./packages/sandbox/
COPY bin ./bin
# --ignore-scripts: `prepare` would rebuild, and the build tools are not installed here.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && npm cache clean --force \
 && mkdir -p /app/.data \
 && chown node:node /app/.data
COPY --from=build /app/dist ./dist
# The message catalogs, read at run time (each language on its first message).
COPY i18n ./i18n
USER node
EXPOSE 3000
# Liveness of the process itself; /readyz says whether it serves (use it for a load balancer).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--max-semi-space-size=2", "--heap-growing-percent=20", "bin/deckhand.mjs", "start", "--role", "all"]
