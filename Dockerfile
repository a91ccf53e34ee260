# syntax=docker/dockerfile:1
# tutorloop production image (docs/deploy.md): the compiled server (server/dist), the built web
# app and the server's production dependencies on node:20-slim, run as the unprivileged `node`
# user. Build: docker build -t tutorloop .   Run: see compose.yaml.

# ---- build: every dependency, the web app, the compiled server, then a production-only copy
FROM node:20-slim AS build
ENV COREPACK_ENABLE_DOWNLOAD_PROMPT=0 \
    CI=1
# better-sqlite3 compiles from source when no prebuilt binary matches.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
 && rm -rf /var/lib/apt/lists/*
RUN corepack enable
WORKDIR /src
# Manifests first: the dependency layer is rebuilt only when they change.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml tsconfig.base.json ./
COPY shared/package.json shared/
COPY server/package.json server/
COPY web/package.json web/
COPY e2e/package.json e2e/
COPY eval/package.json eval/
COPY bench/package.json bench/
RUN pnpm install --frozen-lockfile --filter "@tutorloop/server..." --filter "@tutorloop/web..."
COPY shared shared
COPY server server
COPY web web
COPY scripts scripts
RUN pnpm --filter @tutorloop/web run build \
 && node scripts/build-server.mjs --force
# The server's production dependencies only (no tsx, no esbuild, no TypeScript), @tutorloop/shared
# included, as a self-contained node_modules.
RUN pnpm --filter @tutorloop/server deploy --prod /deploy \
 && rm -rf /deploy/src /deploy/test

# ---- runtime
FROM node:20-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    MALLOC_ARENA_MAX=2
WORKDIR /app
# package.json: the version /api/health reports. server/package.json: "type": "module".
COPY --from=build /src/package.json ./package.json
COPY --from=build /deploy ./server
COPY --from=build /src/server/dist ./server/dist
COPY --from=build /src/web/dist ./web/dist
# DATA_DIR holds the SQLite file when DATABASE_URL is unset, and the signing key when JWT_SECRET is.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# As npm start runs it: without --enable-source-maps, which holds every module's source map
# (~10 MB); set NODE_OPTIONS=--enable-source-maps to map stack traces to the TypeScript sources.
CMD ["node", "server/dist/main.js"]
